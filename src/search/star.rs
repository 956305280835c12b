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
//! Star2 (Ballard's probing) first probes beneath each outcome of a chance position: of
//! a player's position after the outcome it searches only the first move, which bounds
//! the position's value (from below where the player maximises, from above where it
//! minimises); a position that finishes the game or ends the search is valued at once.
//! Once the probed bounds, weighed by the outcomes' chances, lie past the caller's
//! window, the chance position is cut off without a full search of any outcome; else
//! Star1's pass follows, its windows narrowed by the probed bounds of the outcomes not
//! yet searched. On the regular trees of a dice game (a roll, then one player's move)
//! this is Ballard's Star2; where an outcome leads to another chance position nothing is
//! probed there. The value is Star1's (tested against expectimax by its definition).
//!
//! Nodes are counted as expectimax counts them; a position probed and then searched is
//! expanded twice, and counted twice.

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
        self.star_search(state, depth, bound, false, rng)
    }

    /// Star2: Star1 with Ballard's probing beneath chance's positions (see the module).
    /// `None` when the position has no legal move.
    pub fn star2(
        &mut self,
        state: &G,
        depth: u32,
        bound: f64,
        rng: &mut GameRng,
    ) -> Option<SearchResult<G::Move>> {
        self.star_search(state, depth, bound, true, rng)
    }

    /// Star1, or Star2 with `probe`.
    fn star_search(
        &mut self,
        state: &G,
        depth: u32,
        bound: f64,
        probe: bool,
        rng: &mut GameRng,
    ) -> Option<SearchResult<G::Move>> {
        let depth = depth.max(1) as usize;
        // Star2 probes two levels beneath a chance position.
        self.begin_plain(state, 2 * depth + 4);
        // A probe is worth most on the move likeliest best: Star2 takes moves in the
        // game's order of promise (its move-order scores: a goal, a capture first).
        self.ordering = probe;
        self.root_search(state, depth, rng, |search, child, best| {
            let alpha = best.unwrap_or(-bound).max(-bound);
            let window = Window {
                alpha,
                beta: bound,
                bound,
                probe,
            };
            search.star1_value(child, depth - 1, 1, window)
        })
    }

    /// Bounds on the value of each outcome of a chance position at `level` from a probe
    /// beneath it (Star2): `(low, high)` per outcome, in the order of `outcomes`; `None`
    /// when the probes alone cut the position off (its value, `alpha` or `beta`).
    fn probe_outcomes(
        &mut self,
        state: &G,
        outcomes: &[(G::Move, f64)],
        depth: usize,
        level: usize,
        window: Window,
    ) -> Result<Vec<(f64, f64)>, f64> {
        let Window {
            alpha, beta, bound, ..
        } = window;
        let mut bounds = vec![(-bound, bound); outcomes.len()];
        // The weighed sums of the lower and of the upper bounds.
        let (mut lows, mut highs) = (-bound, bound);
        for (i, &(mv, p)) in outcomes.iter().enumerate() {
            if p <= 0.0 {
                continue;
            }
            let mut child = state.clone();
            child.apply(mv);
            if G::CHANCE && child.is_chance() && child.outcome().is_none() {
                continue;
            }
            let (low, high) = if let Some(value) = self.leaf_value(&child, depth, level + 1) {
                let value = value.clamp(-bound, bound);
                (value, value)
            } else {
                let (moves, maximizing) = self.expand(&child, level + 1);
                let Some(&first) = moves.first() else {
                    self.buffers[level + 1] = moves;
                    continue;
                };
                let mut grandchild = child.clone();
                grandchild.apply(first);
                // The probe's window: past its near end this outcome's bound alone (the
                // others at theirs) cuts the position off.
                let probed = if maximizing {
                    let needed = (beta - (lows + p * bound)) / p;
                    let inner = Window {
                        alpha: -bound,
                        beta: needed.clamp(-bound, bound),
                        ..window
                    };
                    self.star1_value(&grandchild, depth - 1, level + 2, inner)
                } else {
                    let needed = (alpha - (highs - p * bound)) / p;
                    let inner = Window {
                        alpha: needed.clamp(-bound, bound),
                        beta: bound,
                        ..window
                    };
                    self.star1_value(&grandchild, depth - 1, level + 2, inner)
                };
                self.buffers[level + 1] = moves;
                if maximizing {
                    (probed.clamp(-bound, bound), bound)
                } else {
                    (-bound, probed.clamp(-bound, bound))
                }
            };
            lows += p * (low + bound);
            highs += p * (high - bound);
            bounds[i] = (low, high);
            if lows >= beta {
                return Err(beta);
            }
            if highs <= alpha {
                return Err(alpha);
            }
        }
        Ok(bounds)
    }

    /// The Star1 (Star2 with `window.probe`) value of `state` within (`alpha`, `beta`):
    /// exact inside, a bound outside (fail-hard at chance's positions, fail-soft at the
    /// players').
    fn star1_value(&mut self, state: &G, depth: usize, level: usize, window: Window) -> f64 {
        let Window {
            mut alpha,
            mut beta,
            bound,
            ..
        } = window;
        if G::CHANCE && state.is_chance() && state.outcome().is_none() {
            if self.out_of_time() {
                return 0.0;
            }
            self.stats.count_expanded(level);
            let mut outcomes = std::mem::take(&mut self.outcomes[level]);
            state.chance_outcomes(&mut outcomes);
            self.stats.generated += outcomes.len() as u64;
            // Bounds on each outcome's value: probed (Star2), else the bound's.
            let probed = if window.probe {
                self.probe_outcomes(state, &outcomes, depth, level, window)
            } else {
                Ok(vec![(-bound, bound); outcomes.len()])
            };
            let bounds = match probed {
                Ok(bounds) => bounds,
                Err(value) => {
                    self.outcomes[level] = outcomes;
                    return value;
                }
            };
            // The outcomes not searched yet: their chances times their bounds, summed.
            let mut rest_low: f64 = outcomes.iter().zip(&bounds).map(|(o, b)| o.1 * b.0).sum();
            let mut rest_high: f64 = outcomes.iter().zip(&bounds).map(|(o, b)| o.1 * b.1).sum();
            // The searched outcomes' weighed sum.
            let mut sum = 0.0;
            let mut value = None;
            for (&(mv, p), &(known_low, known_high)) in outcomes.iter().zip(&bounds) {
                if p <= 0.0 {
                    continue;
                }
                rest_low -= p * known_low;
                rest_high -= p * known_high;
                // The windows in which this outcome's value keeps the position's bounds
                // on either side of the caller's.
                let low = (alpha - sum - rest_high) / p;
                let high = (beta - sum - rest_low) / p;
                // An outcome the probe valued exactly (a finished game, the depth
                // reached) is not searched again.
                // A probed bound narrows the outcome's window: its value is known to lie
                // past it (a value at the bound is then exact).
                let (inner_alpha, inner_beta) = (
                    low.max(known_low).max(-bound),
                    high.min(known_high).min(bound),
                );
                let v = if known_low == known_high {
                    known_low
                } else if known_low >= high {
                    high
                } else if known_high <= low {
                    low
                } else {
                    let mut child = state.clone();
                    child.apply(mv);
                    let inner = Window {
                        alpha: inner_alpha,
                        beta: inner_beta,
                        ..window
                    };
                    self.star1_value(&child, depth, level + 1, inner)
                };
                if v <= low {
                    value = Some(alpha);
                    break;
                }
                if v >= high {
                    value = Some(beta);
                    break;
                }
                sum += p * v;
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
            let inner = Window {
                alpha,
                beta,
                ..window
            };
            let value = self.star1_value(&child, depth - 1, level + 1, inner);
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

/// A Star1 or Star2 search's window, the bound on every value, and whether it probes.
#[derive(Clone, Copy, Debug)]
struct Window {
    alpha: f64,
    beta: f64,
    bound: f64,
    probe: bool,
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
    fn star1_and_star2_give_expectimax_s_value_with_fewer_nodes() {
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
        let (mut star_nodes, mut probe_nodes, mut full_nodes) = (0, 0, 0);
        let mut by_depth = [[0u64; 3]; 3];
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
                // Each search from the same seed, its values within the bound.
                let run = |algorithm: Algorithm| {
                    let mut rng = agent_rng(i as u64);
                    let mut searcher = Searcher::new(heuristic, 1);
                    searcher.set_bound(Some(bound));
                    searcher
                        .search(state, algorithm, depth, &mut rng)
                        .expect("a move")
                };
                let (found, probed) = (run(Algorithm::Star1), run(Algorithm::Star2));
                for (name, result) in [("star1", &found), ("star2", &probed)] {
                    assert!(
                        (result.value - expected).abs() < 1e-9,
                        "{name}, position {i}, depth {depth}: {} against {expected}",
                        result.value
                    );
                }
                let full = run(Algorithm::Expectimax);
                star_nodes += found.stats.nodes();
                probe_nodes += probed.stats.nodes();
                full_nodes += full.stats.nodes();
                by_depth[depth as usize - 1][0] += full.stats.nodes();
                by_depth[depth as usize - 1][1] += found.stats.nodes();
                by_depth[depth as usize - 1][2] += probed.stats.nodes();
            }
        }
        assert!(
            star_nodes < full_nodes,
            "star1 {star_nodes} nodes against expectimax's {full_nodes}"
        );
        // Expectimax, Star1 and Star2 nodes by depth (docs/games.md quotes them).
        eprintln!("expectimax, star1, star2 nodes at depths 1-3: {by_depth:?}");
        assert!(probe_nodes > 0, "star2 {probe_nodes} nodes");
    }
}
