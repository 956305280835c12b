//! arbiter: a tournament and benchmarking harness for game-playing search agents.
//!
//! Layers, each using only the ones listed before it: [`core`], [`games`], [`search`],
//! [`evals`], [`registry`], [`stats`], [`tournament`], [`report`], [`cli`].

pub mod cli;
pub mod core;
pub mod evals;
pub mod games;
pub mod registry;
pub mod report;
pub mod search;
pub mod stats;
pub mod tournament;
