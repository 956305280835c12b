//! Search comparison: every algorithm and depth on the same position, one decision each.
//! Knows no game and no file.

use crate::core::seeds;
use crate::core::{Evaluator, Game, Limits, SearchStats};
use crate::search::{Algorithm, Searcher};
use std::time::Instant;

/// One algorithm at one depth.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchRun {
    /// The algorithm.
    pub algorithm: Algorithm,
    /// Depth in plies.
    pub depth: u32,
}

/// The decision of one algorithm at one depth on one position.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchRecord {
    /// Index of the position.
    pub position: usize,
    /// Which search.
    pub run: SearchRun,
    /// The chosen move in the game's notation.
    pub mv: String,
    /// The root value for the player to move.
    pub value: f64,
    /// Nodes counted.
    pub stats: SearchStats,
    /// Wall time of the decision in nanoseconds (monotonic clock).
    pub nanos: u64,
}

/// Searches one position (number `position`, not finished) with every run. All runs on a
/// position share its seed (derived from `seed` and `position`), so they see the same root
/// order and the same random evaluation term. `None` when `limits` stopped a search
/// (Ctrl-C): the position is abandoned, to be searched again on resume.
pub fn search_position<G: Game, E: Evaluator<G> + Clone>(
    state: &G,
    position: usize,
    evaluator: &E,
    runs: &[SearchRun],
    seed: u64,
    limits: &Limits,
) -> Option<Vec<SearchRecord>> {
    let position_seed = seeds::derive(seed, &[position as u64]);
    let mut records = Vec::with_capacity(runs.len());
    // Outside the clock too: what the game does once per thread before its first answer
    // (a rules program starting, for a game served by one).
    state.count_moves();
    for &run in runs {
        let mut searcher = Searcher::new(evaluator.clone(), position_seed);
        searcher.set_limits(limits.clone());
        // Outside the clock: an agent allocates its tables once per game, not per move.
        searcher.allocate_tables(run.algorithm);
        let mut rng = seeds::rng(position_seed);
        let clock = Instant::now();
        let result = searcher.search(state, run.algorithm, run.depth, &mut rng);
        let nanos = clock.elapsed().as_nanos() as u64;
        if limits.reached() {
            return None;
        }
        if let Some(result) = result {
            records.push(SearchRecord {
                position,
                run,
                mv: state.format_move(result.best),
                value: result.value,
                stats: result.stats,
                nanos,
            });
        }
    }
    Some(records)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::evals::breakthrough::Heuristic;
    use crate::games::breakthrough::{Breakthrough, Rules};
    use crate::games::random_positions;

    #[test]
    fn comparison_is_deterministic_and_alphabeta_agrees() {
        let positions = random_positions(&Breakthrough::new(Rules::Standard), 12, 10, 30, 4);
        let heuristic = Heuristic::from_spec("defensive2", &[]).expect("known");
        let runs: Vec<SearchRun> = [
            Algorithm::Minimax,
            Algorithm::AlphaBeta,
            Algorithm::AlphaBetaKiller,
        ]
        .into_iter()
        .flat_map(|algorithm| (1..=3).map(move |depth| SearchRun { algorithm, depth }))
        .collect();
        let search_all = || -> Vec<SearchRecord> {
            positions
                .iter()
                .enumerate()
                .flat_map(|(p, state)| {
                    search_position(state, p, &heuristic, &runs, 7, &Limits::NONE)
                        .expect("no limit")
                })
                .collect()
        };
        let (one, two) = (search_all(), search_all());
        assert_eq!(one.len(), 12 * 9);
        let strip = |r: &[SearchRecord]| -> Vec<(usize, SearchRun, String, f64, u64)> {
            r.iter()
                .map(|x| (x.position, x.run, x.mv.clone(), x.value, x.stats.expanded))
                .collect()
        };
        assert_eq!(strip(&one), strip(&two));
        for chunk in one.chunks(9) {
            for depth in 0..3 {
                let (mm, ab) = (&chunk[depth], &chunk[3 + depth]);
                assert_eq!(
                    (mm.run.algorithm, ab.run.algorithm),
                    (Algorithm::Minimax, Algorithm::AlphaBeta)
                );
                assert_eq!(ab.mv, mm.mv);
                assert_eq!(ab.value, mm.value);
                assert!(ab.stats.expanded <= mm.stats.expanded);
                assert_eq!(chunk[6 + depth].value, mm.value);
            }
        }
    }
}
