//! A dedicated Connect Four solver, the yardstick `arbiter bench --game connect-four`
//! holds the generic exact solver (`search::solve`) against: written for this one game and
//! for speed alone, in the way the published Connect Four solvers work.
//!
//! - Two `u64` bitboards (the mover's discs and every disc, a guard bit above each column)
//!   and the position's key `mover + all` (unique: it marks the top of every column).
//! - Negamax on scores that say the distance: a win whose last disc is the board's `n`-th
//!   scores `(cells + 2 - n) / 2` for the winner (the sooner, the larger), a draw 0.
//! - Only moves that do not lose at once: a forced block is the only move, two threats to
//!   block lose, and a cell under an opponent's threat is never played.
//! - Bounds from the discs left to play, a table of upper and lower bounds (one `u64` an
//!   entry, the key's bits above the score's), moves ordered by the threats they make,
//!   centre columns first among equals.
//! - The exact score by null-window tests that halve the interval, leaning towards 0.
//!
//! Boards of up to 55 bits with their guard row (6x7 is 49): larger ones are not measured.

use crate::core::Game;
use crate::games::connect_four::ConnectFour;
use crate::search::solve::Value;

/// The solver and its table (kept between positions, cleared for each).
pub struct Solver {
    columns: u32,
    height: u32,
    cells: i32,
    bottom: u64,
    board: u64,
    column_masks: [u64; 9],
    /// Columns from the centre out.
    order: [u32; 9],
    table: Vec<u64>,
    shift: u32,
    /// Positions visited, over every call.
    pub nodes: u64,
}

/// The score of an entry holds its value plus this (always positive, so an entry is
/// never 0, which marks an empty slot), and the flag of a lower bound above it.
const OFFSET: i32 = 64;
const LOWER: u64 = 128;

/// The empty cells where one more of `own` makes four in a row.
#[inline]
fn threats(own: u64, all: u64, height: u32, board: u64) -> u64 {
    let mut found = (own << 1) & (own << 2) & (own << 3);
    for shift in [height, height - 1, height + 1] {
        let pair = (own << shift) & (own << (2 * shift));
        found |= pair & (own << (3 * shift));
        found |= pair & (own >> shift);
        let pair = (own >> shift) & (own >> (2 * shift));
        found |= pair & (own << shift);
        found |= pair & (own >> (3 * shift));
    }
    found & board & !all
}

impl Solver {
    /// A solver of `rows` x `columns` boards with a table of `2^table_bits` entries (8
    /// bytes each), or `None` when the board does not fit.
    pub fn new(rows: u32, columns: u32, table_bits: u32) -> Option<Solver> {
        let height = rows + 1;
        if !(4..=8).contains(&rows) || !(4..=9).contains(&columns) || height * columns > 55 {
            return None;
        }
        let mut bottom = 0;
        let mut column_masks = [0; 9];
        let mut order = [0; 9];
        for c in 0..columns {
            bottom |= 1u64 << (c * height);
            column_masks[c as usize] = ((1u64 << rows) - 1) << (c * height);
            // 3, 2, 4, 1, 5, 0, 6 on seven columns.
            let step = (c as i32 + 1) / 2;
            let side = if c % 2 == 1 { -1 } else { 1 };
            order[c as usize] = (columns as i32 / 2 + side * step) as u32;
        }
        Some(Solver {
            columns,
            height,
            cells: (rows * columns) as i32,
            bottom,
            board: bottom * ((1 << rows) - 1),
            column_masks,
            order,
            table: crate::core::tables::huge(1 << table_bits, 0),
            shift: 64 - table_bits,
            nodes: 0,
        })
    }

    /// The exact score of the position where the side to move has the discs `mover` and
    /// `all` are every disc (`moves` of them), nobody has four yet and the board is not
    /// full: positive when the mover wins, the larger the sooner (see [`plies_to_end`]).
    pub fn solve(&mut self, mover: u64, all: u64, moves: u32) -> i32 {
        self.table.fill(0);
        let moves = moves as i32;
        let possible = (all + self.bottom) & self.board;
        if threats(mover, all, self.height, self.board) & possible != 0 {
            return (self.cells + 1 - moves) / 2;
        }
        let (mut min, mut max) = (-(self.cells - moves) / 2, (self.cells + 1 - moves) / 2);
        while min < max {
            let mut middle = min + (max - min) / 2;
            if middle <= 0 && min / 2 < middle {
                middle = min / 2;
            } else if middle >= 0 && max / 2 > middle {
                middle = max / 2;
            }
            let score = self.negamax(mover, all, moves, middle, middle + 1);
            if score <= middle {
                max = score;
            } else {
                min = score;
            }
        }
        min
    }

    #[inline]
    fn slot(&self, key: u64) -> usize {
        (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> self.shift) as usize
    }

    fn negamax(&mut self, mover: u64, all: u64, moves: i32, mut alpha: i32, mut beta: i32) -> i32 {
        self.nodes += 1;
        let possible = (all + self.bottom) & self.board;
        let theirs = threats(mover ^ all, all, self.height, self.board);
        let forced = possible & theirs;
        let mut next = possible;
        if forced != 0 {
            if forced & (forced - 1) != 0 {
                return -(self.cells - moves) / 2;
            }
            next = forced;
        }
        next &= !(theirs >> 1);
        if next == 0 {
            return -(self.cells - moves) / 2;
        }
        if moves >= self.cells - 2 {
            return 0;
        }
        let min = -(self.cells - 2 - moves) / 2;
        if alpha < min {
            alpha = min;
            if alpha >= beta {
                return alpha;
            }
        }
        let max = (self.cells - 1 - moves) / 2;
        if beta > max {
            beta = max;
            if alpha >= beta {
                return beta;
            }
        }
        let key = mover + all;
        let slot = self.slot(key);
        let entry = self.table[slot];
        if entry != 0 && entry >> 8 == key {
            let value = (entry & 127) as i32 - OFFSET;
            if entry & LOWER != 0 {
                if alpha < value {
                    alpha = value;
                    if alpha >= beta {
                        return alpha;
                    }
                }
            } else if beta > value {
                beta = value;
                if alpha >= beta {
                    return beta;
                }
            }
        }
        // Moves by the threats they make, the centre first among equals.
        let mut moves_found = [(0u32, 0u64); 9];
        let mut count = 0;
        for &column in &self.order[..self.columns as usize] {
            let disc = next & self.column_masks[column as usize];
            if disc != 0 {
                let made = threats(mover | disc, all, self.height, self.board).count_ones();
                let mut at = count;
                while at > 0 && moves_found[at - 1].0 < made {
                    moves_found[at] = moves_found[at - 1];
                    at -= 1;
                }
                moves_found[at] = (made, disc);
                count += 1;
            }
        }
        for &(_, disc) in &moves_found[..count] {
            let score = -self.negamax(mover ^ all, all | disc, moves + 1, -beta, -alpha);
            if score >= beta {
                self.table[slot] = key << 8 | LOWER | (score + OFFSET) as u64;
                return score;
            }
            alpha = alpha.max(score);
        }
        self.table[slot] = key << 8 | (alpha + OFFSET) as u64;
        alpha
    }
}

/// The plies to the end of the game, played perfectly, from a position with `moves` discs
/// on a board of `cells` whose score is `score` (0 for a draw, which fills the board).
pub fn plies_to_end(score: i32, moves: u32, cells: u32) -> u32 {
    if score == 0 {
        return cells - moves;
    }
    // The last disc is the board's n-th, with |score| = (cells + 2 - n) / 2 rounded down:
    // n is one of two numbers, of the winner's parity (the mover's discs are the odd
    // ones after `moves`, counting from 1).
    let n = (cells + 2) as i32 - 2 * score.abs();
    let winner_parity = if score > 0 { moves + 1 } else { moves } % 2;
    let n = if n as u32 % 2 == winner_parity {
        n
    } else {
        n - 1
    };
    n as u32 - moves
}

/// What the dedicated solver finds for `state` (nobody has four, the board is not full),
/// as the generic solver says it.
pub fn value(solver: &mut Solver, state: &ConnectFour) -> Value {
    let mover = state.discs(state.to_move()) as u64;
    let all = state.occupied() as u64;
    let moves = u32::from(state.plies());
    let cells = u32::from(state.params().rows) * u32::from(state.params().columns);
    let score = solver.solve(mover, all, moves);
    let plies = plies_to_end(score, moves, cells);
    match score.signum() {
        1 => Value::Win(Some(plies)),
        -1 => Value::Loss(Some(plies)),
        _ => Value::Draw,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::{Limits, Player};
    use crate::games::connect_four::Params;
    use crate::search::solve::Solver as Generic;

    #[test]
    fn the_dedicated_solver_equals_the_generic_one_with_distances() {
        // Positions of seeded random games on boards small enough to solve quickly, every
        // few plies, values and distances both.
        for (rows, columns, from) in [
            (4, 4, 0),
            (4, 5, 0),
            (5, 4, 0),
            (4, 6, 0),
            (5, 5, 2),
            (5, 6, 8),
            (6, 7, 14),
        ] {
            let params = Params { rows, columns };
            let mut bare = Solver::new(u32::from(rows), u32::from(columns), 16).unwrap();
            let mut rng = crate::core::seeds::rng(u64::from(rows * 10 + columns));
            let mut checked = 0;
            for _ in 0..4 {
                let mut state = ConnectFour::new(params);
                let mut moves = Vec::new();
                let mut ply = 0;
                while state.outcome().is_none() {
                    if ply >= from && ply % 3 == 0 {
                        let generic = Generic::new(16, Limits::NONE).solve(&state).unwrap();
                        assert_eq!(
                            value(&mut bare, &state),
                            generic.value,
                            "{rows}x{columns} at ply {ply}, {} to move",
                            if state.to_move() == Player::P1 {
                                "P1"
                            } else {
                                "P2"
                            }
                        );
                        checked += 1;
                    }
                    state.legal_moves(&mut moves);
                    let pick = crate::core::seeds::below(&mut rng, moves.len());
                    state.apply(moves[pick]);
                    ply += 1;
                }
            }
            assert!(checked >= 8, "{rows}x{columns}: only {checked} positions");
        }
    }

    #[test]
    fn the_known_values_of_small_boards_come_out() {
        // 4x4, 4x5 and 5x4 are draws.
        for (rows, columns) in [(4, 4), (4, 5), (5, 4)] {
            let mut bare = Solver::new(rows, columns, 16).unwrap();
            assert_eq!(bare.solve(0, 0, 0), 0, "{rows}x{columns} is a draw");
        }
        assert!(Solver::new(7, 7, 10).is_none(), "56 bits do not fit");
    }
}
