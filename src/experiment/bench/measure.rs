//! What the bench's figures share: counts per second in words, and plain alpha-beta
//! timed position by position (the kernel comparison, the bench's own lines and the
//! game protocol's price all measure with it).

use crate::core::{SearchStats, seeds};
use crate::registry::GameEntry;
use crate::search::{Algorithm, Searcher};
use std::time::Instant;

/// `count` per second of `seconds`, in scientific notation (`1.234e6`).
pub(super) fn per_second(count: u64, seconds: f64) -> String {
    let rate = count as f64 / seconds.max(1e-9);
    format!("{rate:.3e}")
}

/// Plain alpha-beta to `depth` on each position in turn, one searcher (seed 7) and one
/// root-order stream for them all; `each(index, counts, seconds)` is called after each
/// search (no counts for a position without a move), with that search's time alone.
pub(super) fn alphabeta_each<G: GameEntry>(
    positions: &[G],
    evaluator: G::Heuristic,
    depth: u32,
    mut each: impl FnMut(usize, SearchStats, f64),
) {
    let mut searcher = Searcher::new(evaluator, 7);
    let mut rng = seeds::rng(7);
    for (index, position) in positions.iter().enumerate() {
        let clock = Instant::now();
        let result = searcher.search(position, Algorithm::AlphaBeta, depth, &mut rng);
        let seconds = clock.elapsed().as_secs_f64();
        each(
            index,
            result.map_or(SearchStats::ZERO, |r| r.stats),
            seconds,
        );
    }
}

/// Plain alpha-beta to `depth` on every position, one searcher (seed 7): nodes, nodes
/// expanded and seconds.
pub(super) fn alphabeta_on<G: GameEntry>(
    positions: &[G],
    evaluator: G::Heuristic,
    depth: u32,
) -> (u64, u64, f64) {
    let (mut nodes, mut expanded, mut seconds) = (0, 0, 0.0);
    alphabeta_each(positions, evaluator, depth, |_, stats, search_seconds| {
        nodes += stats.nodes();
        expanded += stats.expanded;
        seconds += search_seconds;
    });
    (nodes, expanded, seconds)
}
