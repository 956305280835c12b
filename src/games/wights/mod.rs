//! The Dragon Queen (Wights vs Dragons and Queen), USask CMPT 317: a 5x5 asymmetric game.
//!
//! P1 is the Queen's side (a Queen and three Dragons, moving and capturing like chess
//! kings); P2 is the Wights' side (five Wights stepping orthogonally and capturing
//! diagonally). The Wights move first. The Queen wins on row 5, the Wights by taking the
//! Queen; 50 plies, or a side to move with no move, is a draw.
//!
//! Squares are `(row, col)` with rows 1..5 top to bottom and columns 1..5; internally
//! square `(row - 1) * 5 + (col - 1)` of a 25-bit mask per piece kind.

#[cfg(test)]
mod tests;

use crate::core::{Game, MoveError, Outcome, Player, check_legal, seeds::mix64};

/// Plies after which the game is drawn (25 moves by each side).
pub const PLY_LIMIT: u8 = 50;

const BOARD: u32 = (1 << 25) - 1;
const COL1: u32 = 0b00001_00001_00001_00001_00001;
const COL5: u32 = COL1 << 4;
const ROW1: u32 = 0b11111;
const ROW5: u32 = ROW1 << 20;

/// The eight king steps as (row delta, col delta).
const KING_STEPS: [(i32, i32); 8] = [
    (-1, 0),
    (1, 0),
    (0, -1),
    (0, 1),
    (-1, -1),
    (-1, 1),
    (1, -1),
    (1, 1),
];

/// `bits` moved by (row delta, col delta), dropping squares that leave the board.
#[inline]
fn shift(bits: u32, dr: i32, dc: i32) -> u32 {
    let bits = match dc {
        -1 => (bits & !COL1) >> 1,
        1 => (bits & !COL5) << 1,
        _ => bits,
    };
    match dr {
        -1 => bits >> 5,
        1 => (bits << 5) & BOARD,
        _ => bits,
    }
}

/// A move: from-square and to-square (0..25).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    /// Square moved from.
    pub from: u8,
    /// Square moved to.
    pub to: u8,
}

/// A position: one mask per piece kind, the side to move and plies played.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Wights {
    wights: u32,
    dragons: u32,
    queen: u32,
    to_move: Player,
    plies: u8,
}

impl Default for Wights {
    fn default() -> Self {
        Wights::new()
    }
}

/// `(row, col)` (1-based) of a square.
#[inline]
pub fn row_col(square: u32) -> (u32, u32) {
    (square / 5 + 1, square % 5 + 1)
}

/// The square of 1-based `(row, col)`, if on the board.
pub fn square(row: u32, col: u32) -> Option<u32> {
    ((1..=5).contains(&row) && (1..=5).contains(&col)).then(|| (row - 1) * 5 + col - 1)
}

impl Wights {
    /// The start position, Wights (P2) to move.
    pub fn new() -> Wights {
        Wights {
            wights: ROW5,
            dragons: 0b01110 << 5,
            queen: 0b00100,
            to_move: Player::P2,
            plies: 0,
        }
    }

    /// A position from the board dump (5 rows of `Q`, `D`, `W`, `.`; spaces optional).
    ///
    /// # Errors
    /// A message when the text is not a 5x5 board with at most one Queen.
    pub fn from_dump(dump: &str, to_move: Player, plies: u8) -> Result<Wights, String> {
        let rows: Vec<Vec<char>> = dump
            .lines()
            .map(|l| l.chars().filter(|c| !c.is_whitespace()).collect::<Vec<_>>())
            .filter(|r| !r.is_empty())
            .collect();
        if rows.len() != 5 || rows.iter().any(|r| r.len() != 5) {
            return Err("expected 5 rows of 5 squares".to_string());
        }
        let mut state = Wights {
            wights: 0,
            dragons: 0,
            queen: 0,
            to_move,
            plies,
        };
        for (r, row) in rows.iter().enumerate() {
            for (c, &symbol) in row.iter().enumerate() {
                let bit = 1u32 << (r * 5 + c);
                match symbol {
                    'W' => state.wights |= bit,
                    'D' => state.dragons |= bit,
                    'Q' if state.queen == 0 => state.queen |= bit,
                    'Q' => return Err("more than one Queen".to_string()),
                    '.' => {}
                    other => return Err(format!("unexpected '{other}'")),
                }
            }
        }
        Ok(state)
    }

    /// The Wights' mask.
    pub fn wights(&self) -> u32 {
        self.wights
    }

    /// The Dragons' mask.
    pub fn dragons(&self) -> u32 {
        self.dragons
    }

    /// The Queen's row (1..5), or `None` once captured.
    pub fn queen_row(&self) -> Option<u32> {
        (self.queen != 0).then(|| row_col(self.queen.trailing_zeros()).0)
    }

    /// Plies played.
    pub fn plies(&self) -> u8 {
        self.plies
    }

    fn queen_side(&self) -> u32 {
        self.dragons | self.queen
    }

    fn occupied(&self) -> u32 {
        self.wights | self.dragons | self.queen
    }

    /// Calls `emit(from, to)` for every legal move, ignoring the end of the game.
    #[inline]
    fn for_each_move(&self, mut emit: impl FnMut(u32, u32)) {
        let empty = BOARD & !self.occupied();
        let (movers, targets_step, targets_diagonal) = match self.to_move {
            // Wights: orthogonal steps onto empty squares, diagonal captures of Q/D.
            Player::P2 => (self.wights, empty, self.queen_side()),
            // Queen and Dragons: any king step onto an empty square or a Wight.
            _ => (self.queen_side(), empty | self.wights, empty | self.wights),
        };
        for (index, &(dr, dc)) in KING_STEPS.iter().enumerate() {
            let targets = if index < 4 {
                targets_step
            } else {
                targets_diagonal
            };
            let mut to = shift(movers, dr, dc) & targets;
            while to != 0 {
                let square = to.trailing_zeros() as i32;
                to &= to - 1;
                emit((square - dr * 5 - dc) as u32, square as u32);
            }
        }
    }

    fn decided(&self) -> Option<Outcome> {
        if self.queen == 0 {
            return Some(Outcome {
                winner: Some(Player::P2),
                reason: "queen-captured",
            });
        }
        if self.queen & ROW5 != 0 {
            return Some(Outcome {
                winner: Some(Player::P1),
                reason: "queen-home",
            });
        }
        if self.plies >= PLY_LIMIT {
            return Some(Outcome {
                winner: None,
                reason: "ply-limit",
            });
        }
        None
    }

    /// Reads a report-style move `r c d`: the piece on (r, c) moves in direction d
    /// (1 forward, 2 backward, 3 left, 4 right, 5 forward-left, 6 forward-right,
    /// 7 backward-left, 8 backward-right). Forward is towards the other side: row - 1 for
    /// a Wight, row + 1 for the Queen's side; left is column - 1.
    fn direction_move(&self, row: u32, col: u32, direction: u32) -> Option<Move> {
        let forward = match self.to_move {
            Player::P2 => -1,
            _ => 1,
        };
        let (dr, dc) = match direction {
            1 => (forward, 0),
            2 => (-forward, 0),
            3 => (0, -1),
            4 => (0, 1),
            5 => (forward, -1),
            6 => (forward, 1),
            7 => (-forward, -1),
            8 => (-forward, 1),
            _ => return None,
        };
        let from = square(row, col)?;
        let to = square(
            u32::try_from(row as i32 + dr).ok()?,
            u32::try_from(col as i32 + dc).ok()?,
        )?;
        Some(Move {
            from: from as u8,
            to: to as u8,
        })
    }
}

impl Game for Wights {
    type Move = Move;

    #[inline]
    fn to_move(&self) -> Player {
        self.to_move
    }

    fn legal_moves(&self, out: &mut Vec<Move>) {
        out.clear();
        if self.decided().is_some() {
            return;
        }
        self.for_each_move(|from, to| {
            out.push(Move {
                from: from as u8,
                to: to as u8,
            })
        });
    }

    fn count_moves(&self) -> u64 {
        if self.decided().is_some() {
            return 0;
        }
        let mut count = 0;
        self.for_each_move(|_, _| count += 1);
        count
    }

    /// Captures first, by the worth of the piece taken (Queen, Dragon, Wight); then the
    /// Queen's advancing steps.
    fn move_order_score(&self, mv: Move) -> i32 {
        let to = 1u32 << mv.to;
        if self.queen & to != 0 {
            300
        } else if self.dragons & to != 0 {
            30
        } else if self.wights & to != 0 {
            20
        } else if self.queen & (1 << mv.from) != 0 && mv.to > mv.from + 2 {
            10
        } else {
            0
        }
    }

    #[inline]
    fn apply(&mut self, mv: Move) {
        let from = 1u32 << mv.from;
        let to = 1u32 << mv.to;
        match self.to_move {
            Player::P2 => {
                self.wights ^= from | to;
                self.dragons &= !to;
                self.queen &= !to;
            }
            _ => {
                if self.queen & from != 0 {
                    self.queen = to;
                } else {
                    self.dragons ^= from | to;
                }
                self.wights &= !to;
            }
        }
        self.to_move = self.to_move.opponent();
        self.plies = self.plies.saturating_add(1);
    }

    fn outcome(&self) -> Option<Outcome> {
        if let Some(outcome) = self.decided() {
            return Some(outcome);
        }
        let mut any = false;
        self.for_each_move(|_, _| any = true);
        (!any).then_some(Outcome {
            winner: None,
            reason: "no-moves",
        })
    }

    fn position_hash(&self) -> u64 {
        let pieces = u64::from(self.wights) | (u64::from(self.dragons) << 25);
        mix64(
            pieces
                ^ mix64(u64::from(self.queen) << 8 | u64::from(self.plies))
                ^ self.to_move as u64,
        )
    }

    fn piece_count(&self, player: Player) -> u32 {
        match player {
            Player::P1 => self.queen_side().count_ones(),
            _ => self.wights.count_ones(),
        }
    }

    fn write_move(&self, mv: Move, out: &mut String) {
        let (r1, c1) = row_col(u32::from(mv.from));
        let (r2, c2) = row_col(u32::from(mv.to));
        for (i, n) in [r1, c1, r2, c2].into_iter().enumerate() {
            if i > 0 {
                out.push(' ');
            }
            out.push((b'0' + n as u8) as char);
        }
    }

    fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        let error = |reason: String| MoveError {
            text: text.to_string(),
            reason,
        };
        let numbers: Vec<u32> = text
            .split(|c: char| c.is_whitespace() || c == ',')
            .filter(|t| !t.is_empty())
            .map(|t| t.parse::<u32>())
            .collect::<Result<_, _>>()
            .map_err(|_| {
                error("expected 'r c r2 c2' (from and to squares, rows and columns 1-5) or 'r c d' (a direction code 1-8)".to_string())
            })?;
        let off_board = || error("squares are rows and columns 1-5".to_string());
        let mv = match *numbers.as_slice() {
            [r1, c1, r2, c2] => Move {
                from: square(r1, c1).ok_or_else(off_board)? as u8,
                to: square(r2, c2).ok_or_else(off_board)? as u8,
            },
            [r, c, d] => {
                if !(1..=8).contains(&d) {
                    return Err(error(format!("direction {d} is not 1-8")));
                }
                self.direction_move(r, c, d)
                    .ok_or_else(|| error("that step leaves the board".to_string()))?
            }
            _ => {
                return Err(error(
                    "expected 'r c r2 c2' or 'r c d' (direction code 1-8)".to_string(),
                ));
            }
        };
        check_legal(self, mv, text, || {
            let own = match self.to_move {
                Player::P1 => self.queen_side(),
                _ => self.wights,
            };
            let (r, c) = row_col(u32::from(mv.from));
            if own & (1 << mv.from) == 0 {
                format!("no piece of {} on ({r},{c})", self.to_move)
            } else if self.to_move == Player::P2 {
                "illegal for a Wight: it steps orthogonally onto an empty square or captures a Dragon or the Queen diagonally".to_string()
            } else {
                "illegal: the Queen and Dragons step one square onto an empty square or a Wight"
                    .to_string()
            }
        })
    }

    fn position_json(&self) -> serde_json::Value {
        let board = crate::games::compact_rows(&self.board_dump());
        serde_json::json!({
            "to_move": self.to_move.label(),
            "plies": self.plies,
            "board": board,
        })
    }

    fn board_display(&self) -> String {
        let mut text = String::from("  1 2 3 4 5\n");
        for (row, line) in self.board_dump().lines().enumerate() {
            text.push_str(&format!("{} {line}\n", row + 1));
        }
        text
    }

    fn board_dump(&self) -> String {
        let mut text = String::with_capacity(50);
        for row in 0..5 {
            for col in 0..5 {
                let bit = 1u32 << (row * 5 + col);
                if col > 0 {
                    text.push(' ');
                }
                text.push(if self.queen & bit != 0 {
                    'Q'
                } else if self.dragons & bit != 0 {
                    'D'
                } else if self.wights & bit != 0 {
                    'W'
                } else {
                    '.'
                });
            }
            text.push('\n');
        }
        text
    }
}
