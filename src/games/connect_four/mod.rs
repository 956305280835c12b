//! Connect Four (`connect-four(rows=6,columns=7)`): discs dropped into columns fall to the
//! lowest empty cell; four of one side's discs in a row (across, up, or diagonally) win;
//! a full board is a draw. P1 moves first. Rows 4 to 8, columns 4 to 9.
//!
//! Bitboards: column `c` holds bits `c * (rows + 1)` up, row 1 (the bottom) first, with one
//! empty bit above the top row so that shifts never carry a line from one column into the
//! next. A position is P1's discs and all discs; a move is a column (0-based). Moves are
//! written as the column number from 1 (leftmost), as Connect Four solvers and their
//! databases write games (`4453...`).

#[cfg(test)]
mod tests;

use crate::core::{Game, MoveError, Outcome, Player, Tactics, check_legal, seeds::mix64};

/// The fewest and most rows.
pub const ROWS: std::ops::RangeInclusive<u8> = 4..=8;
/// The fewest and most columns.
pub const COLUMNS: std::ops::RangeInclusive<u8> = 4..=9;

/// The board's size.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Params {
    /// Rows, 4 to 8.
    pub rows: u8,
    /// Columns, 4 to 9.
    pub columns: u8,
}

impl Default for Params {
    fn default() -> Params {
        Params {
            rows: 6,
            columns: 7,
        }
    }
}

impl std::fmt::Display for Params {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "rows={},columns={}", self.rows, self.columns)
    }
}

/// The masks of a board size.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Geometry {
    /// Bits per column (rows + 1).
    pub height: u32,
    /// The bottom cell of every column.
    pub bottom: u128,
    /// Every cell of the board.
    pub board: u128,
    /// The cells of odd rows (row 1 at the bottom is odd).
    pub odd_rows: u128,
    /// Each column's cells.
    pub columns: [u128; 9],
}

impl Params {
    /// The masks of this size (from a table made at compile time: the move generator asks
    /// for them at every move).
    #[inline]
    pub fn geometry(self) -> &'static Geometry {
        &GEOMETRIES[usize::from(self.rows - ROWS.start())]
            [usize::from(self.columns - COLUMNS.start())]
    }
}

/// The masks of every board size, by rows and columns from the smallest.
static GEOMETRIES: [[Geometry; 6]; 5] = {
    let empty = Geometry {
        height: 0,
        bottom: 0,
        board: 0,
        odd_rows: 0,
        columns: [0; 9],
    };
    let mut table = [[empty; 6]; 5];
    let mut r = 0;
    while r < 5 {
        let mut c = 0;
        while c < 6 {
            table[r][c] = geometry_of(r as u32 + 4, c as u32 + 4);
            c += 1;
        }
        r += 1;
    }
    table
};

const fn geometry_of(rows: u32, columns: u32) -> Geometry {
    let height = rows + 1;
    let mut bottom = 0u128;
    let mut odd_rows = 0u128;
    let mut masks = [0u128; 9];
    let mut column = 0;
    while column < columns {
        bottom |= 1 << (column * height);
        masks[column as usize] = ((1u128 << rows) - 1) << (column * height);
        let mut row = 0;
        while row < rows {
            odd_rows |= 1 << (column * height + row);
            row += 2;
        }
        column += 1;
    }
    Geometry {
        height,
        bottom,
        board: bottom * ((1u128 << rows) - 1),
        odd_rows,
        columns: masks,
    }
}

/// A position: P1's discs, every disc, the plies played and how the game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ConnectFour {
    p1: u128,
    all: u128,
    plies: u8,
    params: Params,
    /// 0: going on, 1: P1 won, 2: P2 won, 3: drawn.
    result: u8,
}

/// Whether `discs` hold four in a row on a board `height` bits per column.
#[inline]
pub fn has_four(discs: u128, height: u32) -> bool {
    // Boards of up to 64 cells with their guard row (6x7 among them) fit a u64, whose
    // shifts are single instructions.
    if discs >> 64 == 0 {
        let discs = discs as u64;
        for shift in [1, height, height - 1, height + 1] {
            let pairs = discs & (discs >> shift);
            if pairs & (pairs >> (2 * shift)) != 0 {
                return true;
            }
        }
        return false;
    }
    for shift in [1, height, height - 1, height + 1] {
        let pairs = discs & (discs >> shift);
        if pairs & (pairs >> (2 * shift)) != 0 {
            return true;
        }
    }
    false
}

/// The empty cells (not necessarily playable yet) where one more of `discs` would make four
/// in a row: the side's threats.
#[inline]
pub fn threats(discs: u128, all: u128, geometry: &Geometry) -> u128 {
    // Boards of up to 64 cells with their guard row (6x7 among them) in a u64, whose
    // shifts are single instructions: the solver and the heuristics ask at every node.
    if geometry.board >> 64 == 0 {
        let found = threat_cells(discs as u64, geometry.height);
        return u128::from(found) & geometry.board & !all;
    }
    threat_cells(discs, geometry.height) & geometry.board & !all
}

/// Every cell where one more of `discs` makes four in a row (occupied or off the board
/// included), on a board `h` bits per column.
#[inline]
fn threat_cells<B>(discs: B, h: u32) -> B
where
    B: Copy
        + std::ops::Shl<u32, Output = B>
        + std::ops::Shr<u32, Output = B>
        + std::ops::BitAnd<Output = B>
        + std::ops::BitOr<Output = B>
        + std::ops::BitOrAssign,
{
    // Up a column: three below.
    let mut found = (discs << 1) & (discs << 2) & (discs << 3);
    for shift in [h, h - 1, h + 1] {
        let pair = (discs << shift) & (discs << (2 * shift));
        found |= pair & (discs << (3 * shift));
        found |= pair & (discs >> shift);
        let pair = (discs >> shift) & (discs >> (2 * shift));
        found |= pair & (discs << shift);
        found |= pair & (discs >> (3 * shift));
    }
    found
}

/// `bits` with its columns (`height` bits each, `column` masking one) right to left.
#[inline]
fn mirror<B>(bits: B, column: B, height: u32, columns: u32) -> B
where
    B: Copy
        + Default
        + std::ops::Shl<u32, Output = B>
        + std::ops::Shr<u32, Output = B>
        + std::ops::BitAnd<Output = B>
        + std::ops::BitOrAssign,
{
    let mut mirrored = B::default();
    for c in 0..columns {
        mirrored |= ((bits >> (c * height)) & column) << ((columns - 1 - c) * height);
    }
    mirrored
}

impl ConnectFour {
    /// The empty board of `params` (which must be in range), P1 to move.
    pub fn new(params: Params) -> ConnectFour {
        ConnectFour {
            p1: 0,
            all: 0,
            plies: 0,
            params,
            result: 0,
        }
    }

    /// The board's size.
    pub fn params(&self) -> Params {
        self.params
    }

    /// `player`'s discs.
    pub fn discs(&self, player: Player) -> u128 {
        match player {
            Player::P1 => self.p1,
            _ => self.all ^ self.p1,
        }
    }

    /// Every disc.
    pub fn occupied(&self) -> u128 {
        self.all
    }

    /// Plies played.
    pub fn plies(&self) -> u8 {
        self.plies
    }

    /// The cells where a disc can be dropped now, one per column that is not full.
    #[inline]
    pub fn playable(&self) -> u128 {
        let geometry = self.params.geometry();
        (self.all + geometry.bottom) & geometry.board
    }

    /// The disc of `player` at 0-based `(row from the bottom, column)`.
    fn cell(&self, row: u32, column: u32) -> Option<Player> {
        let bit = 1u128 << (column * (u32::from(self.params.rows) + 1) + row);
        if self.p1 & bit != 0 {
            Some(Player::P1)
        } else if self.all & bit != 0 {
            Some(Player::P2)
        } else {
            None
        }
    }

    /// The position after playing the columns of `moves` (1-based digits, `4453`).
    ///
    /// # Errors
    /// The first move that is not a column or not legal.
    pub fn from_moves(params: Params, moves: &str) -> Result<ConnectFour, MoveError> {
        let mut state = ConnectFour::new(params);
        for digit in moves.chars() {
            let mv = state.parse_move(&digit.to_string())?;
            state.apply(mv);
        }
        Ok(state)
    }
}

impl Game for ConnectFour {
    /// The column, from 0 (leftmost).
    type Move = u8;

    #[inline]
    fn to_move(&self) -> Player {
        if self.plies.is_multiple_of(2) {
            Player::P1
        } else {
            Player::P2
        }
    }

    fn legal_moves(&self, out: &mut Vec<u8>) {
        out.clear();
        if self.result != 0 {
            return;
        }
        let geometry = self.params.geometry();
        let playable = (self.all + geometry.bottom) & geometry.board;
        for column in 0..self.params.columns {
            if playable & geometry.columns[usize::from(column)] != 0 {
                out.push(column);
            }
        }
    }

    #[inline]
    fn count_moves(&self) -> u64 {
        if self.result != 0 {
            return 0;
        }
        u64::from(self.playable().count_ones())
    }

    /// A cell of the mover's threats that is playable wins at once; two of the opponent's
    /// playable threats cannot both be blocked; else the one playable threat of the
    /// opponent's must be blocked, and no disc goes right under an opponent's threat (it
    /// would make the threat playable).
    #[inline]
    fn tactics(&self, out: &mut Vec<u8>) -> Option<Tactics<u8>> {
        if self.result != 0 {
            return None;
        }
        out.clear();
        let geometry = self.params.geometry();
        let possible = self.playable();
        let mover = self.discs(self.to_move());
        let wins = threats(mover, self.all, geometry) & possible;
        if wins != 0 {
            return Some(Tactics::Win(
                (wins.trailing_zeros() / geometry.height) as u8,
            ));
        }
        let theirs = threats(self.all ^ mover, self.all, geometry);
        let forced = possible & theirs;
        let mut next = possible;
        if forced != 0 {
            if forced & (forced - 1) != 0 {
                return Some(Tactics::Lost);
            }
            next = forced;
        }
        next &= !(theirs >> 1);
        for column in 0..self.params.columns {
            if next & geometry.columns[usize::from(column)] != 0 {
                out.push(column);
            }
        }
        Some(if out.is_empty() {
            Tactics::Lost
        } else {
            Tactics::Moves
        })
    }

    /// The board and its mirror image (columns right to left) hash alike: the key of the
    /// two that is smaller, `p1 + all` (unique: a column's sum stays under its guard bit
    /// and its top bit marks the column's height), mixed. Symmetry 1 is the mirror.
    #[inline]
    fn symmetric_hash(&self) -> (u64, u8) {
        let key = self.p1 + self.all;
        let height = u32::from(self.params.rows) + 1;
        let columns = u32::from(self.params.columns);
        let (key, symmetry) = if self.params.geometry().board >> 64 == 0 {
            let key = key as u64;
            let mirrored = mirror(key, (1 << height) - 1, height, columns);
            (u128::from(key.min(mirrored)), u8::from(mirrored < key))
        } else {
            let mirrored = mirror(key, (1 << height) - 1, height, columns);
            (key.min(mirrored), u8::from(mirrored < key))
        };
        let high = (key >> 64) as u64;
        let folded = if high == 0 { 0 } else { mix64(high) };
        (mix64(key as u64 ^ folded), symmetry)
    }

    #[inline]
    fn map_move(&self, mv: u8, symmetry: u8, _inverse: bool) -> u8 {
        if symmetry == 1 {
            self.params.columns - 1 - mv
        } else {
            mv
        }
    }

    /// Moves that make the most new threats (cells where one more disc would make four)
    /// first, as Connect Four solvers order them; then centre columns (they take part in
    /// the most lines).
    #[inline]
    fn move_order_score(&self, mv: u8) -> i32 {
        let geometry = self.params.geometry();
        let disc = (self.all + geometry.bottom) & geometry.columns[usize::from(mv)];
        let own = self.discs(self.to_move()) | disc;
        let made = threats(own, self.all | disc, geometry).count_ones() as i32;
        let centre = i32::from(self.params.columns - 1);
        16 * made - (2 * i32::from(mv) - centre).abs()
    }

    #[inline]
    fn apply(&mut self, mv: u8) {
        let geometry = self.params.geometry();
        let disc = (self.all + geometry.bottom) & geometry.columns[usize::from(mv)];
        self.all |= disc;
        let mover = self.to_move();
        if mover == Player::P1 {
            self.p1 |= disc;
        }
        self.plies += 1;
        if has_four(self.discs(mover), geometry.height) {
            self.result = 1 + mover.index() as u8;
        } else if self.all == geometry.board {
            self.result = 3;
        }
    }

    #[inline]
    fn outcome(&self) -> Option<Outcome> {
        match self.result {
            1 => Some(Outcome {
                winner: Some(Player::P1),
                reason: "four-in-a-row",
            }),
            2 => Some(Outcome {
                winner: Some(Player::P2),
                reason: "four-in-a-row",
            }),
            3 => Some(Outcome {
                winner: None,
                reason: "board-full",
            }),
            _ => None,
        }
    }

    fn position_hash(&self) -> u64 {
        let fold = |bits: u128| mix64(bits as u64 ^ mix64((bits >> 64) as u64 ^ 0x9e37));
        mix64(fold(self.p1) ^ fold(self.all).rotate_left(17))
    }

    fn piece_count(&self, player: Player) -> u32 {
        self.discs(player).count_ones()
    }

    fn write_move(&self, mv: u8, out: &mut String) {
        out.push(char::from(b'1' + mv));
    }

    fn parse_move(&self, text: &str) -> Result<u8, MoveError> {
        let error = |reason: String| MoveError {
            text: text.to_string(),
            reason,
        };
        let column = text
            .trim()
            .parse::<u8>()
            .ok()
            .filter(|c| (1..=self.params.columns).contains(c))
            .ok_or_else(|| {
                error(format!(
                    "expected a column number from 1 to {}",
                    self.params.columns
                ))
            })?;
        check_legal(self, column - 1, text, || {
            format!("column {column} is full")
        })
    }

    fn split_moves(&self, token: &str) -> Option<Vec<String>> {
        (token.len() > 1 && token.chars().all(|c| c.is_ascii_digit()))
            .then(|| token.chars().map(String::from).collect())
    }

    /// Rows from the top, `X` P1's disc, `O` P2's, `.` empty.
    fn board_dump(&self) -> String {
        let mut text = String::new();
        for row in (0..u32::from(self.params.rows)).rev() {
            for column in 0..u32::from(self.params.columns) {
                if column > 0 {
                    text.push(' ');
                }
                text.push(match self.cell(row, column) {
                    Some(Player::P1) => 'X',
                    Some(_) => 'O',
                    None => '.',
                });
            }
            text.push('\n');
        }
        text
    }

    fn board_display(&self) -> String {
        let mut text = self.board_dump();
        let labels: Vec<String> = (1..=self.params.columns).map(|c| c.to_string()).collect();
        text.push_str(&labels.join(" "));
        text.push('\n');
        text
    }

    fn position_json(&self) -> serde_json::Value {
        let rows: Vec<String> = (0..u32::from(self.params.rows))
            .map(|row| {
                (0..u32::from(self.params.columns))
                    .map(|column| match self.cell(row, column) {
                        Some(Player::P1) => '1',
                        Some(_) => '2',
                        None => '0',
                    })
                    .collect()
            })
            .collect();
        serde_json::json!({
            "to_move": self.to_move().label(),
            "rows": self.params.rows,
            "columns": self.params.columns,
            "board": rows,
        })
    }
}
