//! `alphabeta-tt`: iterative deepening alpha-beta with a transposition table.
//!
//! The table is direct-mapped (a new result replaces the old), keyed by the position hash
//! and the root player (values are the root player's, as in every algorithm here). An
//! entry keeps the value with its bound (exact, lower, upper), the best move and the
//! remaining depth it was searched to. It cuts a search only when its depth equals the
//! depth still to search: a deeper result would give another value than minimax at the
//! fixed depth, so deeper entries only order moves. Every game's position hash includes
//! the ply or move count wherever the outcome depends on it (the Dragon Queen's 50 plies,
//! Double Card's move limit, Chinese Checkers' ply cap and home rule), so a table value is
//! never reused at another point of a capped game.
//!
//! Moves are tried: the table's move, the level's two killer moves, then by the game's
//! move-order score (captures and advances) and the history heuristic (depth² per
//! cutoff), the last scored only when the first ones did not cut off. After the first,
//! each move is searched with a null window first (principal variation search) and
//! again with the whole window only if it may be better. A node
//! answered by the table counts as evaluated. Nodes one ply above the leaves (most inner
//! nodes) and the leaves do not use the table: a probe there is a cache miss that costs
//! more than the few leaves it could save. An optional aspiration window (`aspiration=W`)
//! narrows each root iteration after the first around the previous value.

use super::{Searcher, narrow};
use crate::core::{Evaluator, Game};
use std::hash::{Hash, Hasher};

/// The bound a table value is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Bound {
    Exact,
    /// The value is at least this.
    Lower,
    /// The value is at most this.
    Upper,
}

/// One slot of the table.
#[derive(Clone, Copy, Debug)]
pub(super) struct Entry<M> {
    key: u64,
    value: f64,
    best: Option<M>,
    depth: u8,
    bound: Bound,
}

/// The default table size in megabytes.
pub const DEFAULT_TT_MB: u32 = 4;

/// History scores: a direct-mapped table indexed by the move's hash.
pub(super) const HISTORY_SIZE: usize = 1 << 12;

/// A small hasher for moves (a few bytes each): each write folds its value in with a
/// multiply; the slot is the top bits of a last multiply (Fibonacci hashing).
struct MoveHasher(u64);

impl MoveHasher {
    #[inline]
    fn fold(&mut self, value: u64) {
        self.0 = (self.0 ^ value).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
}

impl Hasher for MoveHasher {
    #[inline]
    fn finish(&self) -> u64 {
        self.0
    }
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.fold(u64::from(b));
        }
    }
    #[inline]
    fn write_u8(&mut self, value: u8) {
        self.fold(u64::from(value));
    }
    #[inline]
    fn write_u16(&mut self, value: u16) {
        self.fold(u64::from(value));
    }
    #[inline]
    fn write_u32(&mut self, value: u32) {
        self.fold(u64::from(value));
    }
    #[inline]
    fn write_u64(&mut self, value: u64) {
        self.fold(value);
    }
    #[inline]
    fn write_usize(&mut self, value: usize) {
        self.fold(value as u64);
    }
}

/// Puts `mv` first in `moves` if it is there (the others keeping their order), and
/// says whether it was.
pub(super) fn move_to_front<M: PartialEq>(moves: &mut [M], mv: M) -> bool {
    let at = moves.iter().position(|m| *m == mv);
    if let Some(at) = at {
        moves[..=at].rotate_right(1);
    }
    at.is_some()
}

pub(super) fn history_slot<M: Hash>(mv: &M) -> usize {
    let mut hasher = MoveHasher(0);
    mv.hash(&mut hasher);
    (hasher.finish() >> (64 - HISTORY_SIZE.trailing_zeros())) as usize
}

impl<G: Game, E: Evaluator<G>> Searcher<G, E> {
    /// Allocates the table (`tt_mb` megabytes, a power of two of entries) on first use.
    pub(super) fn ensure_table(&mut self) {
        if self.tt.is_empty() {
            let bytes = (self.tt_mb.max(1) as usize) << 20;
            let fit = (bytes / std::mem::size_of::<Entry<G::Move>>()).max(1024);
            let entries = if fit.is_power_of_two() {
                fit
            } else {
                fit.next_power_of_two() / 2
            };
            self.tt = crate::core::tables::huge(
                entries,
                Entry {
                    key: 0,
                    value: 0.0,
                    best: None,
                    depth: 0,
                    bound: Bound::Exact,
                },
            );
            self.history = vec![0; HISTORY_SIZE];
        }
    }

    /// The position, the root player and the evaluator's noise seed: what a value depends on.
    #[inline]
    fn table_key(&self, state: &G) -> u64 {
        state.position_hash() ^ self.table_salt
    }

    /// The table slot of `key` (the table's length is a power of two).
    fn slot(&self, key: u64) -> usize {
        (key as usize) & (self.tt.len() - 1)
    }

    /// The table's best move for `state`, if it holds the position.
    pub(super) fn table_move(&self, state: &G) -> Option<G::Move> {
        let key = self.table_key(state);
        let entry = self.tt[self.slot(key)];
        (entry.key == key).then_some(entry.best).flatten()
    }

    /// Alpha-beta with the table below the root.
    pub(super) fn alphabeta_tt(
        &mut self,
        state: &G,
        depth: usize,
        level: usize,
        mut alpha: f64,
        mut beta: f64,
    ) -> f64 {
        if depth == 0 {
            // A leaf (most nodes): no table.
            return self.leaf(state, level);
        }
        // One ply above the leaves the table costs more (a cache miss) than it saves
        // (a few cheap leaves): those nodes, and the leaves, neither read nor write it.
        let use_table = depth >= 2;
        let key = if use_table { self.table_key(state) } else { 0 };
        let slot = self.slot(key);
        if use_table {
            crate::core::tables::prefetch(&self.tt[slot]);
        }
        if self.out_of_time() {
            return 0.0;
        }
        // The table holds only positions that were expanded, never a finished one, so
        // it is read before the game's end is tested: that test comes free with the
        // move list below (a finished game has no moves).
        let entry = self.tt[slot];
        let mut table_move = None;
        if use_table && entry.key == key {
            table_move = entry.best;
            if usize::from(entry.depth) == depth {
                match entry.bound {
                    Bound::Exact => {
                        self.stats.count_evaluated(level);
                        return entry.value;
                    }
                    Bound::Lower => alpha = alpha.max(entry.value),
                    Bound::Upper => beta = beta.min(entry.value),
                }
                if alpha >= beta {
                    self.stats.count_evaluated(level);
                    return entry.value;
                }
            }
        }
        let (window_alpha, window_beta) = (alpha, beta);
        let (mut moves, maximizing) = match self.expand_unless_finished(state, level) {
            Ok(expanded) => expanded,
            Err(value) => return value,
        };
        // Staged ordering: the table's move first, then the level's killers, then the
        // other moves by score; each stage is prepared only when the ones before it did
        // not cut off (most cutoffs come from the first move tried).
        let mut front = 0;
        if let Some(first) = table_move
            && move_to_front(&mut moves, first)
        {
            front = 1;
        }
        let (mut killers_placed, mut sorted) = (false, false);
        let mut scores = std::mem::take(&mut self.scores[level]);
        scores.clear();
        let mut best = if maximizing {
            f64::NEG_INFINITY
        } else {
            f64::INFINITY
        };
        let mut best_move = None;
        for index in 0..moves.len() {
            if index == front && !killers_placed {
                killers_placed = true;
                front = self.place_killers(state, &mut moves, front, level);
            }
            if index == front && !sorted {
                sorted = true;
                self.score_tt(state, &moves[front..], &mut scores);
                super::insertion_sort_descending(&mut scores, &mut moves[front..]);
            }
            let mv = moves[index];
            let mut child = state.clone();
            child.apply(mv);
            // Principal variation search: the first move with the whole window, the
            // others with a null window proving them no better, searched again with the
            // whole window when the proof fails (so values stay exact). A leaf's value is
            // exact whatever the window, so one ply above the leaves there is no probe.
            let value = if depth == 1 {
                // The children are leaves: valued here, without a call of this (large)
                // function per leaf.
                self.leaf_value(&child, 0, level + 1).unwrap_or(0.0)
            } else if index == 0 {
                self.alphabeta_tt(&child, depth - 1, level + 1, alpha, beta)
            } else if maximizing {
                let probe = self.alphabeta_tt(&child, depth - 1, level + 1, alpha, alpha.next_up());
                if probe > alpha && probe < beta && !self.aborted {
                    self.alphabeta_tt(&child, depth - 1, level + 1, alpha, beta)
                } else {
                    probe
                }
            } else {
                let probe = self.alphabeta_tt(&child, depth - 1, level + 1, beta.next_down(), beta);
                if probe < beta && probe > alpha && !self.aborted {
                    self.alphabeta_tt(&child, depth - 1, level + 1, alpha, beta)
                } else {
                    probe
                }
            };
            if self.aborted {
                break;
            }
            let better = if maximizing {
                value > best
            } else {
                value < best
            };
            if better || best_move.is_none() {
                best_move = Some(mv);
            }
            narrow(maximizing, value, &mut best, &mut alpha, &mut beta);
            if alpha >= beta {
                self.remember_killer(mv, level);
                let slot = history_slot(&mv);
                self.history[slot] = self.history[slot].saturating_add((depth * depth) as u32);
                break;
            }
        }
        self.buffers[level] = moves;
        self.scores[level] = scores;
        if use_table && !self.aborted {
            let bound = if best <= window_alpha {
                Bound::Upper
            } else if best >= window_beta {
                Bound::Lower
            } else {
                Bound::Exact
            };
            self.tt[slot] = Entry {
                key,
                value: best,
                best: best_move,
                depth: depth.min(usize::from(u8::MAX)) as u8,
                bound,
            };
        }
        best
    }

    /// Moves the level's killer moves found in `moves[front..]` (the moves not searched
    /// yet: a killer that is the table's move is not there) to `front`, the one with the
    /// better move-order score first; returns the index after them.
    fn place_killers(&self, state: &G, moves: &mut [G::Move], front: usize, level: usize) -> usize {
        let mut placed = front;
        for killer in self.killers[level].into_iter().flatten() {
            if move_to_front(&mut moves[placed..], killer) {
                placed += 1;
            }
        }
        if placed == front + 2
            && state.move_order_score(moves[front + 1]) > state.move_order_score(moves[front])
        {
            moves.swap(front, front + 1);
        }
        placed
    }

    /// Scores `moves` for the table variant into `scores` (highest is searched first):
    /// by the move-order score (captures, advances), then by history.
    pub(super) fn score_tt(&self, state: &G, moves: &[G::Move], scores: &mut Vec<f64>) {
        scores.clear();
        scores.extend(moves.iter().map(|&mv| {
            let history = f64::from(self.history[history_slot(&mv)]);
            f64::from(state.move_order_score(mv)) * 1e9 + history
        }));
    }
}
