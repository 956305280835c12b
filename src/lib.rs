//! arbiter: a tournament and benchmarking harness for game-playing search agents.
//!
//! Layers, each using only the ones listed before it (checked by `tests/layers.rs`):
//! [`core`], [`stats`], [`games`], [`evals`], [`search`], [`external`], [`csp`], [`registry`],
//! [`tournament`], [`records`], [`documents`], [`experiment`], [`cli`].
//!
//! `stats` is pure math with no dependency at all; it sits early because experiment files
//! carry a sequential test's parameters ([`stats::elo::Sprt`]), which the registry
//! validates. `evals` needs no search, so it comes before it: search's oracle tests run on
//! real heuristics.

pub mod cli;
pub mod core;
pub mod csp;
pub mod documents;
pub mod evals;
pub mod experiment;
pub mod external;
pub mod games;
pub mod records;
pub mod registry;
pub mod search;
pub mod stats;
pub mod tournament;
