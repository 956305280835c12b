//! Breakthrough, the CS440/ECE448 variant with three rule sets (`standard` 8x8,
//! `three-to-base` 8x8, `long` 5x10). See `docs/games.md` for the rules as implemented.
//!
//! The board is two bitboards (`u64`, one per side), square index `row * cols + col`, row 0
//! being P1's home row. A move is generated for all pieces at once by shifting a side's
//! bitboard one row forward (and one column left or right for diagonal moves).

#[cfg(test)]
mod tests;

use crate::core::{
    ByPlayer, Game, MoveError, Outcome, Player, Playout, check_legal, json, seeds::mix64,
};
use std::fmt;
use std::ops::ControlFlow;
use std::str::FromStr;

/// The rule set in force.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Rules {
    /// 8x8, one piece on the far row or all enemy pieces captured wins.
    Standard,
    /// 8x8, three pieces on the far row, or the enemy down to fewer than three, wins.
    ThreeToBase,
    /// 5x10, two rows of ten pieces each, standard win condition.
    Long,
    /// 5x5, two rows of five pieces each, standard win condition: small enough to solve
    /// (a win for the second player, in 26 plies under perfect play).
    Small,
}

impl Rules {
    /// Every rule set, in the order `list` shows them.
    pub const ALL: [Rules; 4] = [
        Rules::Standard,
        Rules::ThreeToBase,
        Rules::Long,
        Rules::Small,
    ];

    /// The name used in game specs, e.g. `breakthrough(rules=long)`.
    pub fn name(self) -> &'static str {
        match self {
            Rules::Standard => "standard",
            Rules::ThreeToBase => "three-to-base",
            Rules::Long => "long",
            Rules::Small => "small",
        }
    }

    /// The board geometry of this rule set.
    #[inline]
    pub fn geometry(self) -> &'static Geometry {
        match self {
            Rules::Standard | Rules::ThreeToBase => &GEOMETRY_8X8,
            Rules::Long => &GEOMETRY_5X10,
            Rules::Small => &GEOMETRY_5X5,
        }
    }
}

impl fmt::Display for Rules {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Rules {
    type Err = String;
    fn from_str(text: &str) -> Result<Self, String> {
        Rules::ALL
            .into_iter()
            .find(|r| r.name() == text)
            .ok_or_else(|| {
                format!("unknown rule set '{text}' (known: standard, three-to-base, long, small)")
            })
    }
}

/// Precomputed masks and tables of one board size.
#[derive(Debug)]
pub struct Geometry {
    /// Number of rows (R).
    pub rows: u32,
    /// Number of columns (C).
    pub cols: u32,
    /// Every square of the board.
    pub board: u64,
    /// Every square not in column 0.
    pub not_first_col: u64,
    /// Every square not in column C-1.
    pub not_last_col: u64,
    /// Each side's goal row (the other side's home row).
    pub goal_row: ByPlayer<u64>,
    /// Each side's home row.
    pub home_row: ByPlayer<u64>,
    /// Each side's two starting rows.
    pub start: ByPlayer<u64>,
    /// Every square of each row (rows beyond the board are empty).
    pub row_masks: [u64; 16],
    /// Every square not in the first or last column.
    pub inner_cols: u64,
    /// The row of each square.
    pub row_of: [u8; 64],
    /// The column of each square.
    pub col_of: [u8; 64],
    /// Squares diagonally forward of a square, for the side that moves in that direction.
    pub forward_diagonals: ByPlayer<[u64; 64]>,
    /// Squares diagonally backward of a square, for a side.
    pub backward_diagonals: ByPlayer<[u64; 64]>,
}

const fn row_mask(cols: u32, row: u32) -> u64 {
    ((1u64 << cols) - 1) << (row * cols)
}

impl Geometry {
    const fn new(rows: u32, cols: u32) -> Geometry {
        let squares = rows * cols;
        let board = if squares == 64 {
            u64::MAX
        } else {
            (1u64 << squares) - 1
        };
        let mut first_col = 0u64;
        let mut row_of = [0u8; 64];
        let mut col_of = [0u8; 64];
        let mut sq = 0;
        while sq < squares {
            row_of[sq as usize] = (sq / cols) as u8;
            col_of[sq as usize] = (sq % cols) as u8;
            if sq % cols == 0 {
                first_col |= 1 << sq;
            }
            sq += 1;
        }
        let last_col = first_col << (cols - 1);
        let mut forward = [[0u64; 64]; 2];
        let mut backward = [[0u64; 64]; 2];
        let mut sq = 0;
        while sq < squares {
            let row = (sq / cols) as i32;
            let col = (sq % cols) as i32;
            let mut side = 0;
            while side < 2 {
                let dir: i32 = if side == 0 { 1 } else { -1 };
                let mut dc = -1;
                while dc <= 1 {
                    let c = col + dc;
                    if c >= 0 && c < cols as i32 {
                        let fr = row + dir;
                        if fr >= 0 && fr < rows as i32 {
                            forward[side][sq as usize] |= 1 << (fr as u32 * cols + c as u32);
                        }
                        let br = row - dir;
                        if br >= 0 && br < rows as i32 {
                            backward[side][sq as usize] |= 1 << (br as u32 * cols + c as u32);
                        }
                    }
                    dc += 2;
                }
                side += 1;
            }
            sq += 1;
        }
        let mut row_masks = [0u64; 16];
        let mut row = 0;
        while row < rows {
            row_masks[row as usize] = row_mask(cols, row);
            row += 1;
        }
        Geometry {
            rows,
            cols,
            board,
            row_masks,
            inner_cols: board & !first_col & !last_col,
            not_first_col: board & !first_col,
            not_last_col: board & !last_col,
            goal_row: ByPlayer([row_mask(cols, rows - 1), row_mask(cols, 0)]),
            home_row: ByPlayer([row_mask(cols, 0), row_mask(cols, rows - 1)]),
            start: ByPlayer([
                row_mask(cols, 0) | row_mask(cols, 1),
                row_mask(cols, rows - 2) | row_mask(cols, rows - 1),
            ]),
            row_of,
            col_of,
            forward_diagonals: ByPlayer(forward),
            backward_diagonals: ByPlayer(backward),
        }
    }

    /// How many rows a piece of `player` on `square` is from its own home row.
    #[inline]
    pub fn advance(&self, player: Player, square: u32) -> u32 {
        let row = u32::from(self.row_of[square as usize]);
        match player {
            Player::P1 => row,
            _ => self.rows - 1 - row,
        }
    }

    /// The bitboard shifted one row forward for `player`, clipped to the board.
    #[inline]
    pub fn forward(&self, player: Player, bits: u64) -> u64 {
        match player {
            Player::P1 => (bits << self.cols) & self.board,
            _ => bits >> self.cols,
        }
    }

    /// Squares `player` attacks (diagonally forward of its pieces) as two bitboards, one
    /// per diagonal: towards higher columns, towards lower columns.
    #[inline]
    pub fn attacks(&self, player: Player, pieces: u64) -> (u64, u64) {
        let up = (self.forward(player, pieces & self.not_last_col) << 1) & self.board;
        let down = self.forward(player, pieces & self.not_first_col) >> 1;
        (up, down)
    }

    /// The square written as `<file><rank>`, e.g. `c2`.
    pub fn square_name(&self, square: u32) -> String {
        let (text, length) = self.square_text(square);
        text.to_le_bytes()[..length]
            .iter()
            .map(|&b| char::from(b))
            .collect()
    }

    /// `<file><rank>` as the bytes of a little-endian word (the rank is at most two
    /// digits), and its length.
    #[inline]
    fn square_text(&self, square: u32) -> (u64, usize) {
        let square = square as usize % 64;
        let file = u64::from(b'a' + self.col_of[square]);
        let rank = self.row_of[square] + 1;
        if rank >= 10 {
            let (tens, units) = (u64::from(b'0' + rank / 10), u64::from(b'0' + rank % 10));
            (file | tens << 8 | units << 16, 3)
        } else {
            (file | u64::from(b'0' + rank) << 8, 2)
        }
    }

    /// Reads `<file><rank>`.
    fn parse_square(&self, text: &str) -> Option<u32> {
        let mut chars = text.chars();
        let file = chars.next()?;
        let rank: u32 = chars.as_str().parse().ok()?;
        if !file.is_ascii_lowercase() {
            return None;
        }
        let col = file as u32 - 'a' as u32;
        if col >= self.cols || rank == 0 || rank > self.rows {
            return None;
        }
        Some((rank - 1) * self.cols + col)
    }
}

static GEOMETRY_8X8: Geometry = Geometry::new(8, 8);
static GEOMETRY_5X10: Geometry = Geometry::new(5, 10);
static GEOMETRY_5X5: Geometry = Geometry::new(5, 5);

/// A board size known when compiling, for the few loops written once per size (see
/// [`Game::count_grandchildren`]): their shifts and masks are constants folded from the
/// size's geometry, not fields loaded through a pointer chosen at run time. The other
/// methods keep one copy for every size: three copies of each made alpha-beta 1.2x
/// slower (its calls were no longer inlined).
trait Size {
    const GEOMETRY: &'static Geometry;
}

struct Size8x8;
struct Size5x10;
struct Size5x5;

impl Size for Size8x8 {
    const GEOMETRY: &'static Geometry = &GEOMETRY_8X8;
}
impl Size for Size5x10 {
    const GEOMETRY: &'static Geometry = &GEOMETRY_5X10;
}
impl Size for Size5x5 {
    const GEOMETRY: &'static Geometry = &GEOMETRY_5X5;
}

/// A Breakthrough move: one piece, one square forward.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    /// Square moved from.
    pub from: u8,
    /// Square moved to.
    pub to: u8,
}

/// A Breakthrough position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Breakthrough {
    pieces: ByPlayer<u64>,
    to_move: Player,
    rules: Rules,
}

impl Breakthrough {
    /// The start position of a rule set, P1 to move.
    pub fn new(rules: Rules) -> Breakthrough {
        let geometry = rules.geometry();
        Breakthrough {
            pieces: geometry.start,
            to_move: Player::P1,
            rules,
        }
    }

    /// A position from the digit dump (row 0 first; `0` empty, `1` P1, `2` P2; blanks
    /// between digits allowed).
    ///
    /// # Errors
    /// A message when the text does not have the rule set's rows and columns of digits.
    pub fn from_dump(rules: Rules, dump: &str, to_move: Player) -> Result<Breakthrough, String> {
        let geometry = rules.geometry();
        let lines: Vec<&str> = dump.lines().filter(|l| !l.trim().is_empty()).collect();
        if lines.len() != geometry.rows as usize {
            return Err(format!(
                "expected {} rows, found {}",
                geometry.rows,
                lines.len()
            ));
        }
        let mut pieces = ByPlayer([0u64; 2]);
        for (row, line) in lines.iter().enumerate() {
            let digits: Vec<char> = line.chars().filter(|c| !c.is_whitespace()).collect();
            if digits.len() != geometry.cols as usize {
                return Err(format!(
                    "row {row}: expected {} squares, found {}",
                    geometry.cols,
                    digits.len()
                ));
            }
            for (col, digit) in digits.into_iter().enumerate() {
                let bit = 1u64 << (row * geometry.cols as usize + col);
                match digit {
                    '0' => {}
                    '1' => pieces[Player::P1] |= bit,
                    '2' => pieces[Player::P2] |= bit,
                    other => return Err(format!("row {row}: unexpected '{other}'")),
                }
            }
        }
        Ok(Breakthrough {
            pieces,
            to_move,
            rules,
        })
    }

    /// The rule set.
    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// The board geometry.
    #[inline]
    pub fn geometry(&self) -> &'static Geometry {
        self.rules.geometry()
    }

    /// The bitboard of `player`'s pieces.
    #[inline]
    pub fn pieces(&self, player: Player) -> u64 {
        self.pieces[player]
    }

    /// Target squares of `player`'s moves on `geometry` (this position's): straight,
    /// diagonal towards higher columns, diagonal towards lower columns.
    #[inline(always)]
    fn targets_in(&self, geometry: &Geometry, player: Player) -> (u64, u64, u64) {
        let own = self.pieces[player];
        let empty = geometry.board & !(own | self.pieces.other(player));
        let straight = geometry.forward(player, own) & empty;
        let (up, down) = geometry.attacks(player, own);
        (straight, up & !own, down & !own)
    }

    /// The winner by the rule set's goal conditions, checked for the side that just moved.
    #[inline]
    fn goal_reached(&self) -> Option<Outcome> {
        self.goal_reached_in(self.geometry())
    }

    /// [`Breakthrough::goal_reached`] on `geometry` (this position's).
    #[inline(always)]
    fn goal_reached_in(&self, geometry: &Geometry) -> Option<Outcome> {
        let mover = self.to_move.opponent();
        let on_goal = self.pieces.other(self.to_move) & geometry.goal_row.other(self.to_move);
        let left = self.pieces[self.to_move].count_ones();
        let reason = match self.rules {
            Rules::Standard | Rules::Long | Rules::Small => {
                if on_goal != 0 {
                    Some("goal-row")
                } else if left == 0 {
                    Some("all-captured")
                } else {
                    None
                }
            }
            Rules::ThreeToBase => {
                if on_goal.count_ones() >= 3 {
                    Some("three-on-goal-row")
                } else if left < 3 {
                    Some("fewer-than-three")
                } else {
                    None
                }
            }
        };
        reason.map(|reason| Outcome {
            winner: Some(mover),
            reason,
        })
    }
}

/// Moves and children, written once for every size (`geometry`: this position's, or a
/// constant one in a loop written per size).
impl Breakthrough {
    /// `mover`'s three target sets in `legal_moves`' order (straight, then diagonally
    /// towards higher columns, then towards lower ones), each with the step from a
    /// move's origin to its target (`to - from`).
    #[inline(always)]
    fn steps_in(&self, geometry: &Geometry, mover: Player) -> [(u64, i32); 3] {
        let (straight, up, down) = self.targets_in(geometry, mover);
        let forward = geometry.cols as i32
            * match mover {
                Player::P1 => 1,
                _ => -1,
            };
        [(straight, forward), (up, forward + 1), (down, forward - 1)]
    }

    /// The position after `mover` moves from `from` to `to`, the other side to move.
    /// Both boards are computed in registers and stored whole: updating one side's board
    /// in place (`pieces[mover] ^= ...`) reads back half of a position copied a moment
    /// before, which stalls store forwarding on AMD processors (perf annotate of perft:
    /// 40% of its time on that read).
    #[inline(always)]
    fn after(&self, mover: Player, from: i32, to: i32) -> Breakthrough {
        let target = 1u64 << to;
        let step = (1u64 << from) | target;
        let [p1, p2] = self.pieces.0;
        Breakthrough {
            pieces: ByPlayer(match mover {
                Player::P1 => [p1 ^ step, p2 & !target],
                _ => [p1 & !target, p2 ^ step],
            }),
            to_move: mover.opponent(),
            rules: self.rules,
        }
    }

    /// [`Game::count_moves`] on `geometry` (this position's).
    #[inline(always)]
    fn count_moves_in(&self, geometry: &Geometry) -> u64 {
        if self.goal_reached_in(geometry).is_some() {
            return 0;
        }
        let (straight, up, down) = self.targets_in(geometry, self.to_move);
        u64::from(straight.count_ones() + up.count_ones() + down.count_ones())
    }

    /// [`Game::count_grandchildren`] with the board's size (`S`) and the side to move
    /// (`P2`) known when compiling: each child's boards stay in registers, and its goal
    /// check and targets shift and mask by constants, as a loop written for one board
    /// would (perft(7) in 0.56x the time of counting each child through `count_moves`).
    #[inline(always)]
    fn count_grandchildren_as<S: Size, const P2: bool>(&self) -> u64 {
        let geometry = S::GEOMETRY;
        let mover = if P2 { Player::P2 } else { Player::P1 };
        if self.goal_reached_in(geometry).is_some() {
            return 0;
        }
        let mut total = 0;
        for (mut set, step) in self.steps_in(geometry, mover) {
            while set != 0 {
                let to = set.trailing_zeros() as i32;
                set &= set - 1;
                total += self.after(mover, to - step, to).count_moves_in(geometry);
            }
        }
        total
    }
}

/// Random moves, written once for every size as the children are.
impl Breakthrough {
    /// [`Game::pick_move`] for `mover` (the side to move) on `geometry` (this
    /// position's): the k-th move from the three target sets' popcounts, in
    /// `legal_moves`' order (straight, then up, then down, each by increasing target
    /// square), as (from, to); `None` when the game is over.
    #[inline(always)]
    fn pick_in(
        &self,
        geometry: &Geometry,
        mover: Player,
        pick: &mut impl FnMut(usize) -> usize,
    ) -> Option<(i32, i32)> {
        if self.goal_reached_in(geometry).is_some() {
            return None;
        }
        let sets = self.steps_in(geometry, mover);
        let count: u32 = sets.iter().map(|(set, _)| set.count_ones()).sum();
        if count == 0 {
            return None;
        }
        let mut k = pick(count as usize) as u32;
        for (mut set, offset) in sets {
            let n = set.count_ones();
            if k >= n {
                k -= n;
                continue;
            }
            for _ in 0..k {
                set &= set - 1;
            }
            let to = set.trailing_zeros() as i32;
            return Some((to - offset, to));
        }
        None
    }

    /// One ply of a random playout on the board size `S`, the side to move being P2 when
    /// `P2` (P1 otherwise), `plies` counting the plies played: `Some(ended)` when the
    /// playout stops instead (`ended`: the side has no move; otherwise the limit is
    /// reached).
    #[inline(always)]
    fn playout_ply<S: Size, const P2: bool>(
        &mut self,
        pick: &mut impl FnMut(usize) -> usize,
        plies: &mut u32,
        max_plies: u32,
    ) -> Option<bool> {
        if *plies == max_plies {
            return Some(false);
        }
        let mover = if P2 { Player::P2 } else { Player::P1 };
        let Some((from, to)) = self.pick_in(S::GEOMETRY, mover, pick) else {
            return Some(true);
        };
        *self = self.after(mover, from, to);
        *plies += 1;
        None
    }

    /// [`Game::random_playout`] on the board size `S`, two plies a pass (P1's, then
    /// P2's), so that each ply's side, shifts and masks are constants and the position
    /// stays in registers, as a loop written for one board would.
    #[inline(always)]
    fn random_playout_as<S: Size>(
        &mut self,
        pick: &mut impl FnMut(usize) -> usize,
        max_plies: u32,
    ) -> Playout {
        let mut state = *self;
        let mut plies = 0;
        // P2 to move first: its ply, and then the passes.
        let first = match state.to_move {
            Player::P1 => None,
            _ => state.playout_ply::<S, true>(pick, &mut plies, max_plies),
        };
        let ended = first.unwrap_or_else(|| {
            loop {
                if let Some(ended) = state.playout_ply::<S, false>(pick, &mut plies, max_plies) {
                    break ended;
                }
                if let Some(ended) = state.playout_ply::<S, true>(pick, &mut plies, max_plies) {
                    break ended;
                }
            }
        });
        *self = state;
        Playout { plies, ended }
    }
}

/// Pushes one move per set bit of `targets`, the origin being `to - offset`.
#[inline]
fn push_moves(out: &mut Vec<Move>, mut targets: u64, offset: i32) {
    while targets != 0 {
        let to = targets.trailing_zeros() as i32;
        targets &= targets - 1;
        out.push(Move {
            from: (to - offset) as u8,
            to: to as u8,
        });
    }
}

impl Game for Breakthrough {
    type Move = Move;

    #[inline]
    fn to_move(&self) -> Player {
        self.to_move
    }

    fn legal_moves(&self, out: &mut Vec<Move>) {
        out.clear();
        if self.goal_reached().is_some() {
            return;
        }
        for (targets, step) in self.steps_in(self.geometry(), self.to_move) {
            push_moves(out, targets, step);
        }
    }

    /// From the target sets: the step from `from` to `to` names the set (straight, up or
    /// down) in which `to` must be, as `legal_moves` lists them.
    fn is_legal(&self, mv: Move) -> bool {
        if self.goal_reached().is_some() {
            return false;
        }
        let moved = i32::from(mv.to) - i32::from(mv.from);
        let set = self
            .steps_in(self.geometry(), self.to_move)
            .into_iter()
            .find_map(|(targets, step)| (step == moved).then_some(targets))
            .unwrap_or(0);
        1u64.checked_shl(u32::from(mv.to))
            .is_some_and(|bit| set & bit != 0)
    }

    #[inline]
    fn count_moves(&self) -> u64 {
        self.count_moves_in(self.geometry())
    }

    /// Each child's moves counted in one loop written for the board's size and the side
    /// to move (see `count_grandchildren_as`).
    fn count_grandchildren(&self, _scratch: &mut Vec<Move>) -> u64 {
        match (self.rules, self.to_move != Player::P1) {
            (Rules::Standard | Rules::ThreeToBase, false) => {
                self.count_grandchildren_as::<Size8x8, false>()
            }
            (Rules::Standard | Rules::ThreeToBase, true) => {
                self.count_grandchildren_as::<Size8x8, true>()
            }
            (Rules::Long, false) => self.count_grandchildren_as::<Size5x10, false>(),
            (Rules::Long, true) => self.count_grandchildren_as::<Size5x10, true>(),
            (Rules::Small, false) => self.count_grandchildren_as::<Size5x5, false>(),
            (Rules::Small, true) => self.count_grandchildren_as::<Size5x5, true>(),
        }
    }

    /// The k-th move found from the three target sets' popcounts, in `legal_moves`' order
    /// (straight, then up, then down, each by increasing target square), without listing.
    #[inline(always)]
    fn pick_move(
        &self,
        _scratch: &mut Vec<Move>,
        mut pick: impl FnMut(usize) -> usize,
    ) -> Option<Move> {
        self.pick_in(self.geometry(), self.to_move, &mut pick)
            .map(|(from, to)| Move {
                from: from as u8,
                to: to as u8,
            })
    }

    /// One loop per board size, the boards in registers (see `random_playout_as`).
    fn random_playout(
        &mut self,
        _scratch: &mut Vec<Move>,
        mut pick: impl FnMut(usize) -> usize,
        max_plies: u32,
    ) -> Playout {
        match self.rules {
            Rules::Standard | Rules::ThreeToBase => {
                self.random_playout_as::<Size8x8>(&mut pick, max_plies)
            }
            Rules::Long => self.random_playout_as::<Size5x10>(&mut pick, max_plies),
            Rules::Small => self.random_playout_as::<Size5x5>(&mut pick, max_plies),
        }
    }

    /// Each child made from the target bitboards in `legal_moves`' order, both boards
    /// computed in registers: no list, and no copy read back while half written (updating
    /// a fresh copy in place stalls store forwarding; perf annotate put 40% of perft there).
    #[inline]
    fn for_each_child<F>(&self, _scratch: &mut Vec<Move>, mut visit: F) -> u64
    where
        F: FnMut(Move, &Breakthrough) -> ControlFlow<()>,
    {
        if self.goal_reached().is_some() {
            return 0;
        }
        let mover = self.to_move;
        let sets = self.steps_in(self.geometry(), mover);
        let count = sets
            .iter()
            .map(|(set, _)| u64::from(set.count_ones()))
            .sum();
        for (mut set, step) in sets {
            while set != 0 {
                let to = set.trailing_zeros() as i32;
                set &= set - 1;
                let from = to - step;
                let mv = Move {
                    from: from as u8,
                    to: to as u8,
                };
                if visit(mv, &self.after(mover, from, to)).is_break() {
                    return count;
                }
            }
        }
        count
    }

    /// Captures first (the deeper the better), then moves by how far they advance.
    #[inline]
    fn move_order_score(&self, mv: Move) -> i32 {
        let advance = self.geometry().advance(self.to_move, u32::from(mv.to)) as i32;
        let capture = self.pieces[self.to_move.opponent()] & (1u64 << mv.to) != 0;
        if capture { 100 + advance } else { advance }
    }

    #[inline]
    fn apply(&mut self, mv: Move) {
        *self = self.after(self.to_move, i32::from(mv.from), i32::from(mv.to));
    }

    /// Inlined into the searches always: its goal test is a few bit operations, and a
    /// call of it at every node cost alpha-beta a fifth of its speed when the compiler
    /// stopped inlining it on its own (after `Player` grew to six seats).
    #[inline(always)]
    fn outcome(&self) -> Option<Outcome> {
        let geometry = self.geometry();
        if let Some(outcome) = self.goal_reached_in(geometry) {
            return Some(outcome);
        }
        // A side with pieces (the goal test saw to that) and none on its own goal row
        // always has a move: nothing of its own is ahead of its most advanced piece, so a
        // diagonal step ahead (every board is at least two columns wide, so one is on the
        // board) goes to an empty square or takes. Only a side with pieces standing on its
        // goal row (three-to-base) can be left without a move, so only then are the moves
        // looked at.
        if self.pieces[self.to_move] & geometry.goal_row[self.to_move] == 0 {
            return None;
        }
        let (straight, up, down) = self.targets_in(geometry, self.to_move);
        if straight | up | down == 0 {
            // Not in the assignment; chosen in the spec: a side that cannot move loses.
            return Some(Outcome {
                winner: Some(self.to_move.opponent()),
                reason: "no-moves",
            });
        }
        None
    }

    #[inline]
    fn position_hash(&self) -> u64 {
        mix64(
            self.pieces[Player::P1]
                ^ mix64(self.pieces[Player::P2] ^ ((self.to_move as u64 + 1) * 0x9E37)),
        )
    }

    fn piece_count(&self, player: Player) -> u32 {
        self.pieces[player].count_ones()
    }

    /// Made in one 64-bit word and appended as one piece of a constant length, then cut
    /// to the move's: a move's text is written at every ply of a recorded game.
    fn write_move(&self, mv: Move, out: &mut String) {
        let geometry = self.geometry();
        let (from, from_length) = geometry.square_text(u32::from(mv.from));
        let (to, to_length) = geometry.square_text(u32::from(mv.to));
        let word = from | u64::from(b'-') << (8 * from_length) | to << (8 * (from_length + 1));
        let start = out.len();
        // SAFETY: the word's bytes are ASCII (letters, digits, '-' and zeros), so the
        // string stays UTF-8 whatever is cut.
        let bytes = unsafe { out.as_mut_vec() };
        bytes.extend_from_slice(&word.to_le_bytes());
        bytes.truncate(start + from_length + 1 + to_length);
    }

    fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        let geometry = self.geometry();
        let error = |reason: String| MoveError {
            text: text.to_string(),
            reason,
        };
        let (from, to) = text.trim().split_once('-').ok_or_else(|| {
            error("expected <from>-<to> with squares like c2 (e.g. c2-d3)".to_string())
        })?;
        let square = |s: &str| {
            geometry.parse_square(s.trim()).ok_or_else(|| {
                error(format!(
                    "'{s}' is not a square of the {}x{} board (files a-{}, ranks 1-{})",
                    geometry.rows,
                    geometry.cols,
                    (b'a' + geometry.cols as u8 - 1) as char,
                    geometry.rows
                ))
            })
        };
        let mv = Move {
            from: square(from)? as u8,
            to: square(to)? as u8,
        };
        check_legal(self, mv, text, || {
            if self.pieces[self.to_move] & (1u64 << mv.from) == 0 {
                format!(
                    "no {} piece on {}",
                    self.to_move,
                    geometry.square_name(u32::from(mv.from))
                )
            } else {
                format!(
                    "illegal for {}: a piece moves one square forward, straight onto an empty square or diagonally onto an empty or enemy square",
                    self.to_move
                )
            }
        })
    }

    fn position_json(&self) -> serde_json::Value {
        let geometry = self.geometry();
        let board: Vec<String> = self.board_dump().lines().map(str::to_string).collect();
        serde_json::json!({
            "rules": self.rules.name(),
            "rows": geometry.rows,
            "cols": geometry.cols,
            "to_move": self.to_move.label(),
            "board": board,
        })
    }

    /// The object's keys in the order a JSON object's keys sort, each row's cells
    /// written from the bitboards.
    fn write_position_json(&self, out: &mut Vec<u8>) {
        let geometry = self.geometry();
        let [p1, p2] = self.pieces.0;
        out.reserve((geometry.rows * (geometry.cols + 3)) as usize + 80);
        out.extend_from_slice(b"{\"board\":[");
        for row in 0..geometry.rows {
            if row > 0 {
                out.push(b',');
            }
            // A row of at most 64 cells between its quotes, appended in one piece.
            let mut text = [b'"'; 66];
            let cols = (geometry.cols as usize).min(64);
            for (col, cell) in text[1..=cols].iter_mut().enumerate() {
                let bit = 1u64 << (row * geometry.cols + col as u32);
                *cell = b'0' + u8::from(p1 & bit != 0) + 2 * u8::from(p2 & bit != 0);
            }
            out.extend_from_slice(&text[..cols + 2]);
        }
        out.extend_from_slice(b"],\"cols\":");
        json::push_u64(out, u64::from(geometry.cols));
        out.extend_from_slice(b",\"rows\":");
        json::push_u64(out, u64::from(geometry.rows));
        out.extend_from_slice(b",\"rules\":");
        json::push_str(out, self.rules.name());
        out.extend_from_slice(b",\"to_move\":");
        json::push_str(out, self.to_move.label());
        out.push(b'}');
    }

    fn board_display(&self) -> String {
        let geometry = self.geometry();
        let files: Vec<String> = (0..geometry.cols)
            .map(|col| char::from(b'a' + col as u8).to_string())
            .collect();
        let mut text = format!("   {}\n", files.join(" "));
        for (rank, row) in self.board_dump().lines().enumerate() {
            let cells: Vec<String> = row.chars().map(String::from).collect();
            text.push_str(&format!("{:>2} {}\n", rank + 1, cells.join(" ")));
        }
        text
    }

    fn board_dump(&self) -> String {
        let geometry = self.geometry();
        let mut text = String::with_capacity((geometry.rows * (geometry.cols + 1)) as usize);
        for row in 0..geometry.rows {
            for col in 0..geometry.cols {
                let bit = 1u64 << (row * geometry.cols + col);
                text.push(if self.pieces[Player::P1] & bit != 0 {
                    '1'
                } else if self.pieces[Player::P2] & bit != 0 {
                    '2'
                } else {
                    '0'
                });
            }
            text.push('\n');
        }
        text
    }
}
