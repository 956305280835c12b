//! Star1 (Ballard's *-minimax, 1983): expectimax with alpha-beta at the players' positions
//! and cutoffs at chance's, for values known to lie within [-B, B].
//!
//! At a chance position whose outcomes `1..i-1` are searched (values `v_j`, chances
//! `P_j`), the position is worth at least `sum P_j v_j + (1 - sum P_j) (-B)` and at most
//! `sum P_j v_j + (1 - sum P_j) B`. Outcome `i` is searched with the window that would
//! move either bound past the caller's: once the upper bound falls to alpha or the lower
//! one rises to beta, the other outcomes cannot matter and are not searched. The value is
//! expectimax's whenever it lies inside the window (tested against expectimax by its
//! definition). A finished game is worth B to its winner and -B to the loser, and a
//! heuristic value is clamped to [-B, B], so that the bounds hold: give a B no heuristic
//! value reaches (the race heuristic of EinStein stays within 40).
//!
//! Nodes are counted as expectimax counts them.

use super::{GameRng, SearchResult, Searcher};
use crate::core::{Evaluator, Game};

impl<G: Game, E: Evaluator<G>> Searcher<G, E> {
    /// Star1 to `depth` moves (chance does not use depth up) with values within
    /// [-`bound`, `bound`]. `None` when the position has no legal move.
    pub fn star1(
        &mut self,
        state: &G,
        depth: u32,
        bound: f64,
        rng: &mut GameRng,
    ) -> Option<SearchResult<G::Move>> {
        let depth = depth.max(1) as usize;
        self.begin_plain(state, 2 * depth + 2);
        self.root_search(state, depth, rng, |search, child, best| {
            let alpha = best.unwrap_or(-bound).max(-bound);
            search.star1_value(child, depth - 1, 1, alpha, bound, bound)
        })
    }

    /// The Star1 value of `state` within (`alpha`, `beta`): exact inside, a bound
    /// outside (fail-hard at chance's positions, fail-soft at the players').
    fn star1_value(
        &mut self,
        state: &G,
        depth: usize,
        level: usize,
        mut alpha: f64,
        mut beta: f64,
        bound: f64,
    ) -> f64 {
        if G::CHANCE && state.is_chance() && state.outcome().is_none() {
            if self.out_of_time() {
                return 0.0;
            }
            self.stats.count_expanded(level);
            let mut outcomes = std::mem::take(&mut self.outcomes[level]);
            state.chance_outcomes(&mut outcomes);
            self.stats.generated += outcomes.len() as u64;
            // The searched outcomes' weighed sum and their chances.
            let (mut sum, mut seen) = (0.0, 0.0);
            let mut value = None;
            for &(mv, p) in &outcomes {
                if p <= 0.0 {
                    continue;
                }
                let after = seen + p;
                // The windows in which this outcome's value keeps the position's bounds
                // on either side of the caller's.
                let low = (alpha - sum - (1.0 - after) * bound) / p;
                let high = (beta - sum + (1.0 - after) * bound) / p;
                let mut child = state.clone();
                child.apply(mv);
                let v = self.star1_value(
                    &child,
                    depth,
                    level + 1,
                    low.max(-bound),
                    high.min(bound),
                    bound,
                );
                if v <= low {
                    value = Some(alpha);
                    break;
                }
                if v >= high {
                    value = Some(beta);
                    break;
                }
                sum += p * v;
                seen = after;
            }
            self.outcomes[level] = outcomes;
            return value.unwrap_or(sum);
        }
        if let Some(value) = self.leaf_value(state, depth, level) {
            return value.clamp(-bound, bound);
        }
        let (moves, maximizing) = self.expand(state, level);
        let mut best = if maximizing { -bound } else { bound };
        for &mv in &moves {
            let mut child = state.clone();
            child.apply(mv);
            let value = self.star1_value(&child, depth - 1, level + 1, alpha, beta, bound);
            if maximizing {
                best = best.max(value);
                alpha = alpha.max(value);
            } else {
                best = best.min(value);
                beta = beta.min(value);
            }
            if alpha >= beta {
                break;
            }
        }
        self.buffers[level] = moves;
        best
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::Player;
    use crate::evals::einstein::Heuristic;
    use crate::games::einstein::Einstein;
    use crate::search::{Algorithm, agent_rng};

    /// Expectimax by its definition, wins worth `bound` and the heuristic clamped to it.
    fn expectimax(state: &Einstein, depth: usize, root: Player, bound: f64) -> f64 {
        let heuristic = Heuristic::Race {
            step: 1.0,
            cube: 0.5,
        };
        if let Some(outcome) = state.outcome() {
            return match outcome.winner {
                Some(w) if w == root => bound,
                Some(_) => -bound,
                None => 0.0,
            };
        }
        let mut moves = Vec::new();
        if state.is_chance() {
            let mut outcomes = Vec::new();
            state.chance_outcomes(&mut outcomes);
            return outcomes
                .iter()
                .map(|&(mv, p)| {
                    let mut child = *state;
                    child.apply(mv);
                    p * expectimax(&child, depth, root, bound)
                })
                .sum();
        }
        if depth == 0 {
            return heuristic.evaluate(state, root, 0).clamp(-bound, bound);
        }
        state.legal_moves(&mut moves);
        let values = moves.iter().map(|&mv| {
            let mut child = *state;
            child.apply(mv);
            expectimax(&child, depth - 1, root, bound)
        });
        if state.to_move() == root {
            values.fold(f64::NEG_INFINITY, f64::max)
        } else {
            values.fold(f64::INFINITY, f64::min)
        }
    }

    #[test]
    fn star1_gives_expectimax_s_value_with_fewer_nodes() {
        let heuristic = Heuristic::Race {
            step: 1.0,
            cube: 0.5,
        };
        let positions: Vec<Einstein> =
            crate::games::random_positions(&Einstein::new(), 40, 4, 30, 11)
                .into_iter()
                .filter(|p| !p.is_chance() && p.outcome().is_none())
                .take(12)
                .collect();
        assert!(positions.len() >= 8, "{} positions", positions.len());
        let bound = 40.0;
        let (mut star_nodes, mut full_nodes) = (0, 0);
        for (i, state) in positions.iter().enumerate() {
            for depth in [1u32, 2, 3] {
                let root = state.to_move();
                let mut moves = Vec::new();
                state.legal_moves(&mut moves);
                let expected = moves
                    .iter()
                    .map(|&mv| {
                        let mut child = *state;
                        child.apply(mv);
                        expectimax(&child, depth as usize - 1, root, bound)
                    })
                    .fold(f64::NEG_INFINITY, f64::max);
                let mut rng = agent_rng(i as u64);
                let found = Searcher::new(heuristic, 1)
                    .star1(state, depth, bound, &mut rng)
                    .expect("a move");
                assert!(
                    (found.value - expected).abs() < 1e-9,
                    "position {i}, depth {depth}: {} against {expected}",
                    found.value
                );
                let mut rng = agent_rng(i as u64);
                let full = Searcher::new(heuristic, 1)
                    .search(state, Algorithm::Expectimax, depth, &mut rng)
                    .expect("a move");
                star_nodes += found.stats.nodes();
                full_nodes += full.stats.nodes();
            }
        }
        assert!(
            star_nodes < full_nodes,
            "star1 {star_nodes} nodes against expectimax's {full_nodes}"
        );
    }
}
