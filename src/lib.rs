//! arbiter: a tournament and benchmarking harness for game-playing search agents.
//!
//! Layers, each using only the ones listed before it: [`core`], [`stats`], [`games`],
//! [`search`], [`evals`], [`csp`], [`registry`], [`tournament`], [`report`], [`experiment`],
//! [`cli`].
//!
//! `stats` is pure math with no dependency at all; it sits early (DESIGN.md lists it after
//! the tournament) because experiment files carry a sequential test's parameters
//! ([`stats::elo::Sprt`]), which the registry validates.

pub mod cli;
pub mod core;
pub mod csp;
pub mod evals;
pub mod experiment;
pub mod games;
pub mod registry;
pub mod report;
pub mod search;
pub mod stats;
pub mod tournament;
