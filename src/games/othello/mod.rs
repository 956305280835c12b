//! Othello (`othello`): the standard 8x8 game. Black (P1) moves first; white starts on d4
//! and e5, black on d5 and e4. A move places a disc that brackets a line of the other
//! side's discs in any of the eight directions, and every bracketed disc turns. A side with
//! no such move passes (`pass`, a forced move); the game is over when neither side can
//! move, and the side with more discs wins (equal counts: a draw).
//!
//! Squares are `a1` to `h8`, columns `a` (left) to `h`, rows 1 (top) to 8, as OpenSpiel and
//! most Othello programs print them: black's first moves are d3, c4, f5 and e6. Square
//! `(row - 1) * 8 + column` is a bit of a `u64` per side.

mod endgame;
pub mod patterns;
#[cfg(test)]
mod tests;

use crate::core::{
    Game, MoveError, Outcome, Player, PositionError, SearchCounts, check_legal, seeds::mix64,
};

/// The move that passes.
pub const PASS: u8 = 64;

/// Every square but those of columns a and h: a line running sideways or diagonally
/// through discs kept to these never wraps from one row's end to the next row's start.
const INNER: u64 = 0x7e7e_7e7e_7e7e_7e7e;

/// The four line directions as a shift (each taken both ways) and the squares a line of
/// discs may run through in it.
const LINES: [(u32, u64); 4] = [(1, INNER), (7, INNER), (8, !0), (9, INNER)];

/// The discs of `through` in an unbroken line from `from`'s discs, one way (`shift`
/// upwards, or downwards when `up` is false): the six squares a line can run through.
#[inline(always)]
fn run(from: u64, through: u64, shift: u32, up: bool) -> u64 {
    let step = |b: u64| if up { b << shift } else { b >> shift };
    let mut line = step(from) & through;
    for _ in 0..5 {
        line |= step(line) & through;
    }
    line
}

/// The empty squares where the side with `own` discs can move against `other`.
#[inline]
pub fn moves_of(own: u64, other: u64) -> u64 {
    let mut moves = 0;
    for (shift, inside) in LINES {
        let through = other & inside;
        moves |= run(own, through, shift, true) << shift;
        moves |= run(own, through, shift, false) >> shift;
    }
    moves & !(own | other)
}

/// The squares beyond each square in each direction, to the board's edge: first the four
/// directions that go up the bits (right, down-left, down, down-right), then their
/// opposites.
const RAYS: [[u64; 64]; 8] = {
    let steps: [(i32, i32); 8] = [
        (0, 1),
        (1, -1),
        (1, 0),
        (1, 1),
        (0, -1),
        (-1, 1),
        (-1, 0),
        (-1, -1),
    ];
    let mut rays = [[0u64; 64]; 8];
    let mut direction = 0;
    while direction < 8 {
        let (dr, dc) = steps[direction];
        let mut square = 0;
        while square < 64 {
            let (mut row, mut column) = (square as i32 / 8 + dr, square as i32 % 8 + dc);
            while row >= 0 && row < 8 && column >= 0 && column < 8 {
                rays[direction][square] |= 1 << (row * 8 + column);
                row += dr;
                column += dc;
            }
            square += 1;
        }
        direction += 1;
    }
    rays
};

/// The discs of `other` that a disc of `own`'s side on `square` turns: along each ray,
/// the other's discs up to the nearest square that is not theirs, if that one is own.
#[inline]
fn flips(own: u64, other: u64, square: u8) -> u64 {
    let square = usize::from(square);
    let mut turned = 0;
    // Without branches: a run is kept by a mask of all ones or none.
    for rays in &RAYS[..4] {
        // Up the bits, the nearest is the lowest.
        let ray = rays[square];
        let stops = ray & !other;
        let nearest = stops & stops.wrapping_neg();
        let closed = 0u64.wrapping_sub(u64::from(nearest & own != 0));
        turned |= ray & nearest.wrapping_sub(1) & closed;
    }
    for rays in &RAYS[4..] {
        // Down the bits, the nearest is the highest (square 0 stands in when there is
        // none: it is on no ray going down, so own's disc there closes nothing).
        let ray = rays[square];
        let stops = ray & !other;
        let top = 1u64 << (63 - (stops | 1).leading_zeros());
        let closed = 0u64.wrapping_sub(u64::from(stops & own & top != 0));
        turned |= ray & !(top << 1).wrapping_sub(1) & closed;
    }
    turned
}

/// The sides after the side with `own` discs plays `square` against `other`: the
/// opponent's discs (now to move), then the mover's.
#[inline]
pub fn after(own: u64, other: u64, square: u8) -> (u64, u64) {
    let turned = flips(own, other, square);
    (other & !turned, own | turned | (1 << square))
}

/// A position: each side's discs, the side to move and its legal squares.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Othello {
    black: u64,
    white: u64,
    to_move: Player,
    /// The squares the side to move can play (0: it passes, or the game is over).
    mobility: u64,
    /// Whether neither side can move.
    over: bool,
}

impl Default for Othello {
    fn default() -> Othello {
        Othello::new()
    }
}

/// `(row, column)`, both from 0, of a square.
fn row_column(square: u8) -> (u8, u8) {
    (square / 8, square % 8)
}

impl Othello {
    /// The standard start, black (P1) to move.
    pub fn new() -> Othello {
        // d4 (row 4, column d) and e5 white; d5 and e4 black.
        let square = |column: u8, row: u8| 1u64 << ((row - 1) * 8 + column);
        let white = square(3, 4) | square(4, 5);
        let black = square(3, 5) | square(4, 4);
        Othello::with(black, white, Player::P1)
    }

    /// The position with these discs and `to_move` to play (its mobility and end worked out).
    pub fn with(black: u64, white: u64, to_move: Player) -> Othello {
        let mut state = Othello {
            black,
            white,
            to_move,
            mobility: 0,
            over: false,
        };
        state.settle();
        state
    }

    fn settle(&mut self) {
        let (own, other) = (
            self.discs(self.to_move),
            self.discs(self.to_move.opponent()),
        );
        self.mobility = moves_of(own, other);
        self.over = self.mobility == 0 && moves_of(other, own) == 0;
    }

    /// `player`'s discs (P1 black, P2 white).
    pub fn discs(&self, player: Player) -> u64 {
        match player {
            Player::P1 => self.black,
            _ => self.white,
        }
    }

    /// The discs of the side to move, then the other side's.
    fn sides(&self) -> (u64, u64) {
        (
            self.discs(self.to_move),
            self.discs(self.to_move.opponent()),
        )
    }

    /// The squares `player` could move to now (whoever is to move).
    pub fn mobility_of(&self, player: Player) -> u64 {
        if player == self.to_move {
            self.mobility
        } else {
            moves_of(self.discs(player), self.discs(player.opponent()))
        }
    }

    /// A position from 8 rows (row 1 first) of `X` (black), `O` (white) and `.`, spaces
    /// allowed.
    ///
    /// # Errors
    /// Text that is not 8 rows of 8 squares.
    pub fn from_rows(text: &str, to_move: Player) -> Result<Othello, String> {
        let rows: Vec<Vec<char>> = text
            .lines()
            .map(|l| l.chars().filter(|c| !c.is_whitespace()).collect::<Vec<_>>())
            .filter(|r| !r.is_empty())
            .collect();
        if rows.len() != 8 || rows.iter().any(|r| r.len() != 8) {
            return Err("expected 8 rows of 8 squares".to_string());
        }
        let (mut black, mut white) = (0u64, 0u64);
        for (r, row) in rows.iter().enumerate() {
            for (c, cell) in row.iter().enumerate() {
                let bit = 1u64 << (r * 8 + c);
                match cell {
                    'X' => black |= bit,
                    'O' => white |= bit,
                    '.' => {}
                    other => return Err(format!("unknown square '{other}'")),
                }
            }
        }
        Ok(Othello::with(black, white, to_move))
    }
}

/// A position as [`Game::read_position`] takes it.
fn read_position(text: &str) -> Result<Othello, PositionError> {
    let wrong = |reason: String| Err(PositionError { reason });
    let squares: Vec<char> = text.chars().filter(|c| !c.is_whitespace()).collect();
    let wanted = "64 squares a1 to h8 (X black, O white, - empty) then the side to move (X or O)";
    let (board, side) = match squares.as_slice() {
        [board @ .., side] if board.len() == 64 => (board, *side),
        _ => {
            return wrong(format!(
                "{} squares and marks where {wanted} are wanted",
                squares.len()
            ));
        }
    };
    let (mut black, mut white) = (0u64, 0u64);
    for (square, mark) in board.iter().enumerate() {
        match mark {
            'X' | 'x' | '*' => black |= 1 << square,
            'O' | 'o' => white |= 1 << square,
            '-' | '.' => {}
            other => return wrong(format!("square {}: '{other}' is not X, O or -", square + 1)),
        }
    }
    let to_move = match side {
        'X' | 'x' | '*' | 'B' | 'b' => Player::P1,
        'O' | 'o' | 'W' | 'w' => Player::P2,
        other => return wrong(format!("side to move '{other}': expected X or O")),
    };
    Ok(Othello::with(black, white, to_move))
}

impl Game for Othello {
    /// A square from 0 (a1) to 63 (h8), or [`PASS`].
    type Move = u8;

    #[inline]
    fn to_move(&self) -> Player {
        self.to_move
    }

    fn legal_moves(&self, out: &mut Vec<u8>) {
        out.clear();
        if self.over {
            return;
        }
        if self.mobility == 0 {
            out.push(PASS);
            return;
        }
        let mut squares = self.mobility;
        while squares != 0 {
            out.push(squares.trailing_zeros() as u8);
            squares &= squares - 1;
        }
    }

    #[inline]
    fn count_moves(&self) -> u64 {
        if self.over {
            0
        } else {
            u64::from(self.mobility.count_ones().max(1))
        }
    }

    /// Corners first, then edges; the squares next to an empty corner last.
    fn move_order_score(&self, mv: u8) -> i32 {
        if mv == PASS {
            return 0;
        }
        let (row, column) = row_column(mv);
        let edge = |v: u8| v == 0 || v == 7;
        let near = |v: u8| v == 1 || v == 6;
        match (edge(row), edge(column), near(row), near(column)) {
            (true, true, _, _) => 3,
            (_, _, true, true) => -2,
            (true, _, _, true) | (_, true, true, _) => -1,
            (true, _, _, _) | (_, true, _, _) => 1,
            _ => 0,
        }
    }

    /// `O--OOOOX-OOOOOOX... X`: 64 squares a1 to h8 row by row (`X` black, `O` white, `-`
    /// or `.` empty), then the side to move (`X` or `O`).
    fn read_position(&self, text: &str) -> Option<Result<Othello, PositionError>> {
        Some(read_position(text))
    }

    fn scores_margin(&self) -> bool {
        true
    }

    fn final_margin(&self) -> Option<i32> {
        let (own, other) = self.sides();
        self.over.then(|| endgame::final_margin(own, other))
    }

    fn solve_margin(&self, alpha: i32, beta: i32, counts: &mut SearchCounts) -> Option<i32> {
        let (own, other) = self.sides();
        if (own | other).count_zeros() <= endgame::SMALL {
            Some(endgame::search(own, other, alpha, beta, counts))
        } else {
            endgame::stability_cut(own, other, alpha)
        }
    }

    /// By the pattern evaluation ([`patterns`], trained on exact margins) of the position
    /// after the move, from 18 empties on by a 3-ply search of it, less a weight for each
    /// reply the move leaves the opponent (a corner reply counting double) and each empty
    /// square next to the mover's discs ([`endgame::FASTEST_WEIGHT`]); at 9 empties after
    /// the move, fastest first alone (the fewest replies first, the fewest such squares on
    /// a tie). A pass has none to order. FFO #44, #45, #47 and #48: 7.63e8 positions and
    /// 22.3 s against 1.52e9 and 29.7 s with the hand-set mobility estimate it replaced.
    ///
    /// Fastest first at any depth when only a wipe-out reaches `beta` (the opponent keeping
    /// one disc at most): an evaluation says little of whether the opponent's last discs
    /// can be taken. FFO #59's +64 (34 empties): 1,923 positions visited instead of 3.28e9
    /// (243 s).
    fn margin_order_score(&self, mv: u8, beta: i32) -> i32 {
        if mv == PASS {
            return 0;
        }
        let (own, other) = self.sides();
        let (theirs, mine) = after(own, other, mv);
        let empties = (theirs | mine).count_zeros();
        if beta >= endgame::WIPE_OUT || empties < endgame::PATTERNS_FROM {
            return -(endgame::order_key(theirs, mine) as i32);
        }
        let replies = moves_of(theirs, mine);
        let key = endgame::order_key_of(replies, mine, theirs | mine) as i32;
        let weights = patterns::shipped();
        let score = if empties >= endgame::ORDER_SEARCH_FROM {
            endgame::shallow(
                weights,
                theirs,
                mine,
                endgame::ORDER_DEPTH,
                -1_000_000,
                1_000_000,
            )
        } else {
            weights.evaluate_moving(theirs, mine, replies)
        };
        -score - endgame::FASTEST_WEIGHT * key
    }

    #[inline]
    fn apply(&mut self, mv: u8) {
        let mover = self.to_move;
        if mv != PASS {
            let (own, other) = (self.discs(mover), self.discs(mover.opponent()));
            let turned = flips(own, other, mv);
            let own = own | turned | (1 << mv);
            let other = other & !turned;
            (self.black, self.white) = match mover {
                Player::P1 => (own, other),
                _ => (other, own),
            };
        }
        self.to_move = mover.opponent();
        self.settle();
    }

    fn outcome(&self) -> Option<Outcome> {
        if !self.over {
            return None;
        }
        let (black, white) = (self.black.count_ones(), self.white.count_ones());
        Some(Outcome {
            winner: match black.cmp(&white) {
                std::cmp::Ordering::Greater => Some(Player::P1),
                std::cmp::Ordering::Less => Some(Player::P2),
                std::cmp::Ordering::Equal => None,
            },
            reason: "no-moves",
        })
    }

    fn position_hash(&self) -> u64 {
        mix64(self.black ^ mix64(self.white) ^ (self.to_move as u64).wrapping_mul(0x9e37_79b9))
    }

    fn piece_count(&self, player: Player) -> u32 {
        self.discs(player).count_ones()
    }

    fn write_move(&self, mv: u8, out: &mut String) {
        if mv == PASS {
            out.push_str("pass");
            return;
        }
        let (row, column) = row_column(mv);
        out.push(char::from(b'a' + column));
        out.push(char::from(b'1' + row));
    }

    /// `f5d6c3`, as Othello game databases write games (a pass is written `pass`, on
    /// its own).
    fn split_moves(&self, token: &str) -> Option<Vec<String>> {
        let bytes = token.as_bytes();
        let square = |pair: &[u8]| matches!(pair, [b'a'..=b'h' | b'A'..=b'H', b'1'..=b'8']);
        (bytes.len() > 2 && bytes.len().is_multiple_of(2) && bytes.chunks(2).all(square)).then(
            || {
                bytes
                    .chunks(2)
                    .map(|pair| String::from_utf8_lossy(pair).into_owned())
                    .collect()
            },
        )
    }

    fn parse_move(&self, text: &str) -> Result<u8, MoveError> {
        let error = |reason: String| MoveError {
            text: text.to_string(),
            reason,
        };
        let word = text.trim().to_ascii_lowercase();
        let mv = if word == "pass" {
            PASS
        } else {
            let bytes = word.as_bytes();
            match bytes {
                [column @ b'a'..=b'h', row @ b'1'..=b'8'] => (row - b'1') * 8 + (column - b'a'),
                _ => {
                    return Err(error(
                        "expected a square a1 to h8 (row 1 at the top) or pass".to_string(),
                    ));
                }
            }
        };
        check_legal(self, mv, text, || {
            if mv == PASS {
                format!("{} has a move, so it cannot pass", self.to_move)
            } else if (self.black | self.white) & (1 << mv) != 0 {
                "that square is taken".to_string()
            } else if self.mobility == 0 {
                format!("{} has no move and must pass", self.to_move)
            } else {
                "that disc would turn nothing".to_string()
            }
        })
    }

    /// Rows 1 (top) to 8, `X` black (P1), `O` white (P2), `.` empty.
    fn board_dump(&self) -> String {
        let mut text = String::with_capacity(136);
        for row in 0..8 {
            for column in 0..8 {
                let bit = 1u64 << (row * 8 + column);
                if column > 0 {
                    text.push(' ');
                }
                text.push(if self.black & bit != 0 {
                    'X'
                } else if self.white & bit != 0 {
                    'O'
                } else {
                    '.'
                });
            }
            text.push('\n');
        }
        text
    }

    fn board_display(&self) -> String {
        let mut text = String::new();
        for (row, line) in self.board_dump().lines().enumerate() {
            text.push_str(&format!("{} {line}\n", row + 1));
        }
        text.push_str("  a b c d e f g h\n");
        text
    }

    fn position_json(&self) -> serde_json::Value {
        serde_json::json!({
            "to_move": self.to_move.label(),
            "board": crate::games::compact_rows(&self.board_dump()),
        })
    }
}
