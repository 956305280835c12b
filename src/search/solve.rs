//! Exact values: the game-theoretic value of a position (a win, a loss or a draw for the
//! side to move, and in how many plies under perfect play) by a complete search:
//! negamax alpha-beta to the end of the game, with a transposition table of bounds and the
//! table's best move, then the game's move order, tried first. A win is scored
//! `WIN - plies to the end` from the root, so a faster win (and a slower loss) is preferred
//! and the score says the distance; scores in the table are kept relative to their
//! position, so a position met again at another depth reads right.
//!
//! Complete means no depth limit: the games must end (every game here does: Breakthrough
//! and Connect Four fill or advance, Othello fills, the others have ply limits). The search
//! stops early, with no value, when its [`Limits`] say so.

use crate::core::{Game, Limits, Player};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

/// The score of a win at the root itself; a win in `d` plies scores `WIN - d`.
const WIN: i32 = 1_000_000;
/// Scores this close to [`WIN`] are wins or losses (distances up to this many plies).
const DECIDED: i32 = WIN - 100_000;

/// What a position is worth under perfect play, for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Value {
    /// The side to move wins in this many plies.
    Win(u32),
    /// The side to move loses in this many plies.
    Loss(u32),
    /// Neither side can force a win.
    Draw,
}

impl std::fmt::Display for Value {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Value::Win(plies) => write!(f, "win in {plies} plies"),
            Value::Loss(plies) => write!(f, "loss in {plies} plies"),
            Value::Draw => f.write_str("draw"),
        }
    }
}

/// A solved position.
#[derive(Clone, Debug)]
pub struct Solved<M> {
    /// The value for the side to move.
    pub value: Value,
    /// The side that was to move.
    pub to_move: Player,
    /// A best move (none in a finished position).
    pub best: Option<M>,
    /// Nodes whose moves were generated.
    pub expanded: u64,
    /// Positions the search visited (finished ones included).
    pub visited: u64,
}

#[derive(Clone, Copy)]
enum Bound {
    Exact,
    Lower,
    Upper,
}

#[derive(Clone, Copy)]
struct Entry<M> {
    key: u64,
    score: i32,
    bound: Bound,
    best: Option<M>,
}

/// A complete alpha-beta search with a transposition table.
pub struct Solver<G: Game> {
    table: Vec<Option<Entry<G::Move>>>,
    mask: usize,
    limits: Limits,
    expanded: u64,
    visited: u64,
    buffers: Vec<Vec<G::Move>>,
    stopped: bool,
    progress: Arc<AtomicU64>,
}

impl<G: Game> Solver<G> {
    /// A solver with a table of about `megabytes` MB (rounded down to a power of two of
    /// entries), stopped by `limits`.
    pub fn new(megabytes: usize, limits: Limits) -> Solver<G> {
        let entry = std::mem::size_of::<Option<Entry<G::Move>>>().max(1);
        let wanted = (megabytes.max(1) << 20) / entry;
        let size = wanted.next_power_of_two() / 2;
        let size = size.max(1024);
        Solver {
            table: vec![None; size],
            mask: size - 1,
            limits,
            expanded: 0,
            visited: 0,
            buffers: Vec::new(),
            stopped: false,
            progress: Arc::new(AtomicU64::new(0)),
        }
    }

    /// The positions visited so far, updated every few thousand, for a progress display
    /// on another thread.
    pub fn progress(&self) -> Arc<AtomicU64> {
        Arc::clone(&self.progress)
    }

    /// The table's size in entries.
    pub fn table_entries(&self) -> usize {
        self.table.len()
    }

    /// The value of `state` for its side to move, or `None` if the limits stopped the
    /// search first. The table is kept between calls (solving the moves of one position
    /// one by one shares what was proven); the counts add up.
    pub fn solve(&mut self, state: &G) -> Option<Solved<G::Move>> {
        let score = self.negamax(state, 0, -WIN - 1, WIN + 1);
        if self.stopped {
            return None;
        }
        let value = if score > DECIDED {
            Value::Win((WIN - score) as u32)
        } else if score < -DECIDED {
            Value::Loss((WIN + score) as u32)
        } else {
            Value::Draw
        };
        let best = self.probe(state.position_hash()).and_then(|e| e.best);
        Some(Solved {
            value,
            to_move: state.to_move(),
            best,
            expanded: self.expanded,
            visited: self.visited,
        })
    }

    fn probe(&self, key: u64) -> Option<Entry<G::Move>> {
        self.table[key as usize & self.mask].filter(|e| e.key == key)
    }

    /// The score of `state` at `ply` from the root, for its side to move.
    fn negamax(&mut self, state: &G, ply: usize, mut alpha: i32, beta: i32) -> i32 {
        self.visited += 1;
        if let Some(outcome) = state.outcome() {
            return match outcome.winner {
                None => 0,
                Some(winner) if winner == state.to_move() => WIN - ply as i32,
                Some(_) => -(WIN - ply as i32),
            };
        }
        if self.visited.is_multiple_of(4096) {
            self.progress.store(self.visited, Ordering::Relaxed);
            if self.limits.reached() {
                self.stopped = true;
            }
        }
        if self.stopped {
            return 0;
        }
        let key = state.position_hash();
        let original_alpha = alpha;
        let mut table_move = None;
        if let Some(entry) = self.probe(key) {
            table_move = entry.best;
            let score = from_table(entry.score, ply);
            match entry.bound {
                Bound::Exact => return score,
                Bound::Lower if score >= beta => return score,
                Bound::Upper if score <= alpha => return score,
                _ => {}
            }
        }
        self.expanded += 1;
        if self.buffers.len() <= ply {
            self.buffers.resize_with(ply + 1, Vec::new);
        }
        let mut moves = std::mem::take(&mut self.buffers[ply]);
        state.legal_moves(&mut moves);
        // The table's move first, then the game's order (stable: ties keep theirs).
        moves.sort_by_key(|&m| {
            (
                Some(m) != table_move,
                std::cmp::Reverse(state.move_order_score(m)),
            )
        });
        let mut best = -WIN - 1;
        let mut best_move = None;
        for &mv in &moves {
            let mut child = state.clone();
            child.apply(mv);
            let score = -self.negamax(&child, ply + 1, -beta, -alpha);
            if self.stopped {
                break;
            }
            if score > best {
                best = score;
                best_move = Some(mv);
            }
            alpha = alpha.max(score);
            if alpha >= beta {
                break;
            }
        }
        self.buffers[ply] = moves;
        if self.stopped {
            return 0;
        }
        let bound = if best <= original_alpha {
            Bound::Upper
        } else if best >= beta {
            Bound::Lower
        } else {
            Bound::Exact
        };
        self.table[key as usize & self.mask] = Some(Entry {
            key,
            score: to_table(best, ply),
            bound,
            best: best_move,
        });
        best
    }
}

/// A score measured from the root at `ply`, as the table keeps it (from its position).
fn to_table(score: i32, ply: usize) -> i32 {
    if score > DECIDED {
        score + ply as i32
    } else if score < -DECIDED {
        score - ply as i32
    } else {
        score
    }
}

/// A score from the table, measured again from the root at `ply`.
fn from_table(score: i32, ply: usize) -> i32 {
    if score > DECIDED {
        score - ply as i32
    } else if score < -DECIDED {
        score + ply as i32
    } else {
        score
    }
}

impl Value {
    /// The value of a move for the side that plays it, given the value of the position it
    /// leads to (for the other side): one ply further away.
    pub fn before_move(self) -> Value {
        match self {
            Value::Win(plies) => Value::Loss(plies + 1),
            Value::Loss(plies) => Value::Win(plies + 1),
            Value::Draw => Value::Draw,
        }
    }

    /// A number that orders values from the mover's view: the fastest win highest, the
    /// slowest loss above a faster one.
    pub fn rank(self) -> i64 {
        match self {
            Value::Win(plies) => i64::from(WIN) - i64::from(plies),
            Value::Loss(plies) => i64::from(plies) - i64::from(WIN),
            Value::Draw => 0,
        }
    }
}

/// Solves `state` with a table of `megabytes` MB under `limits`.
pub fn solve<G: Game>(state: &G, megabytes: usize, limits: Limits) -> Option<Solved<G::Move>> {
    Solver::new(megabytes, limits).solve(state)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::connect_four::{ConnectFour, Params};

    /// The exact value by plain minimax with the same scoring, no table, no pruning.
    fn plain<G: Game>(state: &G, ply: i32) -> i32 {
        if let Some(outcome) = state.outcome() {
            return match outcome.winner {
                None => 0,
                Some(w) if w == state.to_move() => WIN - ply,
                Some(_) => -(WIN - ply),
            };
        }
        let mut moves = Vec::new();
        state.legal_moves(&mut moves);
        moves
            .iter()
            .map(|&m| {
                let mut child = state.clone();
                child.apply(m);
                -plain(&child, ply + 1)
            })
            .max()
            .expect("moves")
    }

    #[test]
    fn the_solver_equals_plain_minimax_on_late_positions() {
        let params = Params {
            rows: 4,
            columns: 4,
        };
        let start = ConnectFour::new(params);
        let positions = crate::games::random_positions(&start, 60, 7, 11, 3);
        for state in &positions {
            let solved = solve(state, 1, Limits::NONE).expect("no limit");
            let score = plain(state, 0);
            let expected = if score > DECIDED {
                Value::Win((WIN - score) as u32)
            } else if score < -DECIDED {
                Value::Loss((WIN + score) as u32)
            } else {
                Value::Draw
            };
            assert_eq!(solved.value, expected, "{}", state.board_dump());
        }
    }

    #[test]
    fn a_position_is_worth_its_best_move_one_ply_further() {
        let start = ConnectFour::new(Params {
            rows: 4,
            columns: 5,
        });
        let positions = crate::games::random_positions(&start, 20, 8, 12, 5);
        let mut solver = Solver::new(8, Limits::NONE);
        for state in &positions {
            let whole = solver.solve(state).expect("no limit");
            let mut moves = Vec::new();
            state.legal_moves(&mut moves);
            let best = moves
                .iter()
                .map(|&m| {
                    let mut child = *state;
                    child.apply(m);
                    solver.solve(&child).expect("no limit").value.before_move()
                })
                .max_by_key(|v| v.rank())
                .expect("moves");
            assert_eq!(whole.value, best, "{}", state.board_dump());
            // The move the solver names is worth the position's value.
            let mv = whole.best.expect("a move");
            let mut child = *state;
            child.apply(mv);
            assert_eq!(
                solver.solve(&child).expect("no limit").value.before_move(),
                whole.value
            );
        }
    }

    #[test]
    fn a_win_in_one_is_found_and_played() {
        // P1 holds columns 1-3 of the bottom row, P2 sits on them: P1 wins by playing 4.
        let state = ConnectFour::from_moves(Params::default(), "112233").expect("legal");
        let solved = solve(&state, 4, Limits::NONE).expect("no limit");
        assert_eq!(solved.value, Value::Win(1));
        assert_eq!(solved.best.map(|m| state.format_move(m)), Some("4".into()));
    }
}
