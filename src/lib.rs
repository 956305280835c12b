//! arbiter: a tournament and benchmarking harness for game-playing search agents.
//!
//! Layers, each using only the ones listed before it: [`core`], [`games`], [`search`],
//! [`evals`], [`registry`], [`stats`], [`tournament`], [`report`], [`cli`].

pub mod core;
pub mod games;
pub mod evals;
pub mod search;
pub mod registry;
pub mod stats;
pub mod tournament;
pub mod report;
pub mod cli;
