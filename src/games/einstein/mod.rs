//! EinStein würfelt nicht! (`einstein`), the dice game of the ICGA tournaments, as
//! OpenSpiel's `einstein_wurfelt_nicht` plays it: a 5x5 board, six cubes numbered 1 to 6
//! a side in opposite corners, placed by chance. A turn is a roll of the die, then a move
//! of the cube with the number rolled; when that cube is gone, the side moves the next
//! lower or the next higher of its cubes, its choice. A cube steps one cell towards the
//! opposite corner (P1 right, up or diagonally up-right; P2 left, down or diagonally
//! down-left) and removes any cube on that cell, its own side's too. A side wins by
//! reaching the opposite corner or by removing every cube of the other side. P1 moves
//! first; there are no draws.
//!
//! Cells are numbered `5 * row + column` from a1 (P1's corner, 0) to e5 (P2's, 24).
//! Chance acts three ways, each a move of the move list so that a game replays exactly:
//! P1's cubes are placed (`setup` and the numbers on a1, b1, c1, a2, b2, a3, one of
//! 720 placements alike), then P2's (`setup` and the numbers on e3, d4, e4, c5, d5, e5),
//! then a die is rolled before every move (`roll4`). A move is written from and to
//! (`b2-c3`).

#[cfg(test)]
mod tests;

use crate::core::{Game, MoveError, Outcome, Player, Playout, check_legal, seeds::mix64};

/// A cube no longer on the board.
const GONE: u8 = 25;
/// The cells of P1's cubes at the start, and of P2's.
pub const HOMES: [[u8; 6]; 2] = [[0, 1, 2, 5, 6, 10], [14, 18, 19, 22, 23, 24]];
/// The corner each side makes for.
const GOALS: [u8; 2] = [24, 0];
/// The placements of six cubes.
pub const PLACEMENTS: u16 = 720;

/// What happens next.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Phase {
    /// Chance places P1's cubes.
    SetupP1,
    /// Chance places P2's cubes.
    SetupP2,
    /// Chance rolls the die for the side to move.
    Roll,
    /// The side to move moves a cube the die allows.
    Move,
}

/// A position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Einstein {
    /// The cell of each side's cube numbered `n` at index `n - 1` ([`GONE`] once removed).
    at: [[u8; 6]; 2],
    /// What stands on each cell: 0 nothing, `8 * side + n` side's cube numbered `n`.
    board: [u8; 25],
    /// Each side's cubes on the board.
    left: [u8; 2],
    phase: Phase,
    /// The die rolled (1 to 6) in [`Phase::Move`], else 0.
    die: u8,
    /// The side to move (0: P1).
    mover: u8,
    /// 0: going on; 1 or 2: P1 or P2 reached the corner; 3 or 4: P1 or P2 removed every
    /// cube of the other side.
    result: u8,
}

/// The placement numbered `index` (0 to 719, in lexicographic order of the cubes' numbers
/// listed from the side's highest home cell to its lowest, as OpenSpiel numbers its
/// placements): the number on each home cell, in [`HOMES`]' order.
#[inline]
fn placement(index: u16) -> [u8; 6] {
    PLACEMENT_TABLE[usize::from(index)]
}

/// Every placement, made at compile time (a setup is played in every random playout).
static PLACEMENT_TABLE: [[u8; 6]; 720] = {
    let mut table = [[0u8; 6]; 720];
    let mut index = 0;
    while index < 720 {
        let mut left = [1u8, 2, 3, 4, 5, 6];
        let mut remaining = 6;
        let mut k = index;
        let mut listed = [0u8; 6];
        let mut i = 0;
        while i < 6 {
            let mut block = 1;
            let mut f = 2;
            while f <= 5 - i {
                block *= f;
                f += 1;
            }
            let pick = k / block;
            k %= block;
            listed[i] = left[pick];
            // Close the gap the pick left.
            let mut j = pick;
            while j + 1 < remaining {
                left[j] = left[j + 1];
                j += 1;
            }
            remaining -= 1;
            i += 1;
        }
        // Listed from the last home cell to the first.
        let mut cell = 0;
        while cell < 6 {
            table[index][cell] = listed[5 - cell];
            cell += 1;
        }
        index += 1;
    }
    table
};

/// The cells a cube of each side can step to from each cell, in the order right (left for
/// P2), up (down), diagonal, and how many.
static STEPS: [[([u8; 3], u8); 25]; 2] = {
    let mut table = [[([0u8; 3], 0u8); 25]; 2];
    let mut cell = 0;
    while cell < 25 {
        let (row, column) = (cell / 5, cell % 5);
        let (mut to, mut n) = ([0u8; 3], 0);
        if column < 4 {
            to[n] = (cell + 1) as u8;
            n += 1;
        }
        if row < 4 {
            to[n] = (cell + 5) as u8;
            n += 1;
        }
        if row < 4 && column < 4 {
            to[n] = (cell + 6) as u8;
            n += 1;
        }
        table[0][cell] = (to, n as u8);
        let (mut to, mut n) = ([0u8; 3], 0);
        if column > 0 {
            to[n] = (cell - 1) as u8;
            n += 1;
        }
        if row > 0 {
            to[n] = (cell - 5) as u8;
            n += 1;
        }
        if row > 0 && column > 0 {
            to[n] = (cell - 6) as u8;
            n += 1;
        }
        table[1][cell] = (to, n as u8);
        cell += 1;
    }
    table
};

/// The index of the placement putting `numbers` on the home cells in [`HOMES`]' order,
/// if they are 1 to 6 once each.
fn placement_index(numbers: [u8; 6]) -> Option<u16> {
    let mut listed = numbers;
    listed.reverse();
    let mut left: Vec<u8> = (1..=6).collect();
    let mut index = 0;
    for (i, n) in listed.iter().enumerate() {
        let position = left.iter().position(|x| x == n)?;
        left.remove(position);
        index += position * (1..=5 - i).product::<usize>();
    }
    u16::try_from(index).ok()
}

/// A cell's name: `a1` to `e5`.
fn cell_name(cell: u8, out: &mut String) {
    out.push(char::from(b'a' + cell % 5));
    out.push(char::from(b'1' + cell / 5));
}

fn parse_cell(text: &str) -> Option<u8> {
    let bytes = text.as_bytes();
    match bytes {
        [file @ b'a'..=b'e', rank @ b'1'..=b'5'] => Some((rank - b'1') * 5 + (file - b'a')),
        _ => None,
    }
}

impl Default for Einstein {
    fn default() -> Einstein {
        Einstein::new()
    }
}

impl Einstein {
    /// The empty board, chance to place P1's cubes.
    pub fn new() -> Einstein {
        Einstein {
            at: [[GONE; 6]; 2],
            board: [0; 25],
            left: [0; 2],
            phase: Phase::SetupP1,
            die: 0,
            mover: 0,
            result: 0,
        }
    }

    /// The cube on `cell`: its side and number.
    pub fn cube(&self, cell: u8) -> Option<(Player, u8)> {
        match self.board[usize::from(cell)] {
            0 => None,
            code => Some((Player::BOTH[usize::from(code / 8)], code % 8)),
        }
    }

    /// The cell of each of `player`'s cubes, numbered 1 to 6 at indices 0 to 5 (`None`:
    /// removed, or not placed yet).
    pub fn cubes(&self, player: Player) -> [Option<u8>; 6] {
        self.at[player.pair_index()].map(|cell| (cell != GONE).then_some(cell))
    }

    /// `player`'s cubes on the board.
    pub fn piece_count_of(&self, player: Player) -> u32 {
        self.cubes_left(player.index())
    }

    /// The die rolled for the side to move, once rolled.
    pub fn die(&self) -> Option<u8> {
        (self.phase == Phase::Move).then_some(self.die)
    }

    /// The cubes the die lets the side to move move: the one numbered as the die, else
    /// the next lower and the next higher it still has (their numbers, lower first).
    #[inline(always)]
    fn movable(&self) -> ([u8; 2], usize) {
        let own = &self.at[usize::from(self.mover)];
        let die = self.die;
        if own[usize::from(die - 1)] != GONE {
            return ([die, 0], 1);
        }
        let mut found = [0u8; 2];
        let mut count = 0;
        if let Some(lower) = (1..die).rev().find(|&n| own[usize::from(n - 1)] != GONE) {
            found[count] = lower;
            count += 1;
        }
        if let Some(higher) = (die + 1..=6).find(|&n| own[usize::from(n - 1)] != GONE) {
            found[count] = higher;
            count += 1;
        }
        (found, count)
    }

    /// The steps the die allows, written into `out` in `legal_moves`' order; their number.
    #[inline(always)]
    fn steps_into(&self, out: &mut [Move; 6]) -> usize {
        let side = self.mover;
        let (cubes, count) = self.movable();
        let mut n = 0;
        for &cube in &cubes[..count] {
            let from = self.at[usize::from(side)][usize::from(cube - 1)];
            let (to, steps) = &STEPS[usize::from(side)][usize::from(from)];
            for &to in &to[..usize::from(*steps)] {
                out[n] = u16::from(from) * 32 + u16::from(to);
                n += 1;
            }
        }
        n
    }

    /// Plays the cube step `mv` (`from * 32 + to`) of the side to move.
    #[inline(always)]
    fn step(&mut self, mv: Move) {
        let side = usize::from(self.mover);
        let (from, to) = ((mv / 32) as u8, (mv % 32) as u8);
        let taken = self.board[usize::from(to)];
        if taken != 0 {
            let owner = usize::from(taken / 8);
            self.at[owner][usize::from(taken % 8 - 1)] = GONE;
            self.left[owner] -= 1;
        }
        let cube = self.board[usize::from(from)];
        self.at[side][usize::from(cube % 8 - 1)] = to;
        self.board[usize::from(to)] = cube;
        self.board[usize::from(from)] = 0;
        if to == GOALS[side] {
            self.result = 1 + side as u8;
        } else if self.cubes_left(1 - side) == 0 {
            self.result = 3 + side as u8;
        }
        self.die = 0;
        self.mover ^= 1;
        self.phase = Phase::Roll;
    }

    #[inline(always)]
    fn place(&mut self, side: usize, index: u16) {
        for (cell, n) in HOMES[side].iter().zip(placement(index)) {
            self.at[side][usize::from(n - 1)] = *cell;
            self.board[usize::from(*cell)] = 8 * side as u8 + n;
        }
        self.left[side] = 6;
    }

    #[inline]
    fn cubes_left(&self, side: usize) -> u32 {
        u32::from(self.left[side])
    }
}

/// Chance's outcome among `n` alike for a 30-bit draw of `pick`, as the default playout
/// loop draws it and [`Game::chance_move`] reads it.
#[inline(always)]
fn chance(pick: &mut impl FnMut(usize) -> usize, n: u16) -> u16 {
    alike(pick(1 << 30) as f64 / f64::from(1u32 << 30), n)
}

/// The outcome among `n` alike that a uniform draw `u` in [0, 1) picks.
#[inline(always)]
fn alike(u: f64, n: u16) -> u16 {
    ((u * f64::from(n)) as u16).min(n - 1)
}

/// A move: a placement's index (0 to 719) while chance places the cubes, the die's face
/// (1 to 6) when it rolls, `from * 32 + to` for a cube's step.
pub type Move = u16;

impl Game for Einstein {
    type Move = Move;

    const CHANCE: bool = true;

    #[inline]
    fn to_move(&self) -> Player {
        Player::BOTH[usize::from(self.mover)]
    }

    #[inline]
    fn is_chance(&self) -> bool {
        self.phase != Phase::Move && self.result == 0
    }

    fn chance_outcomes(&self, out: &mut Vec<(Move, f64)>) {
        out.clear();
        match self.phase {
            _ if self.result != 0 => {}
            Phase::SetupP1 | Phase::SetupP2 => {
                let p = 1.0 / f64::from(PLACEMENTS);
                out.extend((0..PLACEMENTS).map(|i| (i, p)));
            }
            Phase::Roll => out.extend((1..=6).map(|face| (face, 1.0 / 6.0))),
            Phase::Move => {}
        }
    }

    /// Every outcome alike: the draw picks one without listing them.
    #[inline]
    fn chance_move(&self, u: f64, _: &mut Vec<(Move, f64)>) -> Option<Move> {
        let pick = |n: u16| alike(u, n);
        match self.phase {
            _ if self.result != 0 => None,
            Phase::SetupP1 | Phase::SetupP2 => Some(pick(PLACEMENTS)),
            Phase::Roll => Some(1 + pick(6)),
            Phase::Move => None,
        }
    }

    fn legal_moves(&self, out: &mut Vec<Move>) {
        out.clear();
        if self.result != 0 {
            return;
        }
        match self.phase {
            Phase::SetupP1 | Phase::SetupP2 => out.extend(0..PLACEMENTS),
            Phase::Roll => out.extend(1..=6),
            Phase::Move => {
                let mut steps = [0; 6];
                let n = self.steps_into(&mut steps);
                out.extend_from_slice(&steps[..n]);
            }
        }
    }

    /// The move at `pick(n)` of `legal_moves`' order, found without a list.
    #[inline]
    fn pick_move(
        &self,
        _scratch: &mut Vec<Move>,
        mut pick: impl FnMut(usize) -> usize,
    ) -> Option<Move> {
        if self.result != 0 {
            return None;
        }
        match self.phase {
            Phase::SetupP1 | Phase::SetupP2 => Some(pick(usize::from(PLACEMENTS)) as Move),
            Phase::Roll => Some(1 + pick(6) as Move),
            Phase::Move => {
                let mut steps = [0; 6];
                let n = self.steps_into(&mut steps);
                Some(steps[pick(n)])
            }
        }
    }

    fn count_moves(&self) -> u64 {
        if self.result != 0 {
            return 0;
        }
        match self.phase {
            Phase::SetupP1 | Phase::SetupP2 => u64::from(PLACEMENTS),
            Phase::Roll => 6,
            Phase::Move => {
                let (cubes, count) = self.movable();
                cubes[..count]
                    .iter()
                    .map(|&n| {
                        let from = self.at[usize::from(self.mover)][usize::from(n - 1)];
                        u64::from(STEPS[usize::from(self.mover)][usize::from(from)].1)
                    })
                    .sum()
            }
        }
    }

    /// Reaching the corner first, then removing a cube of the other side.
    fn move_order_score(&self, mv: Move) -> i32 {
        if self.phase != Phase::Move {
            return 0;
        }
        let to = (mv % 32) as u8;
        let side = usize::from(self.mover);
        if to == GOALS[side] {
            return 100;
        }
        let taken = self.board[usize::from(to)];
        if taken != 0 && usize::from(taken / 8) != side {
            return 10;
        }
        0
    }

    #[inline]
    fn apply(&mut self, mv: Move) {
        match self.phase {
            Phase::SetupP1 => {
                self.place(0, mv);
                self.phase = Phase::SetupP2;
            }
            Phase::SetupP2 => {
                self.place(1, mv);
                self.phase = Phase::Roll;
            }
            Phase::Roll => {
                self.die = mv as u8;
                self.phase = Phase::Move;
            }
            Phase::Move => self.step(mv),
        }
    }

    /// As [`Game::random_playout`]'s default loop plays it (the same draws give the same
    /// game: a test compares them), in one loop with the rules inlined: a roll and the
    /// step after it in one pass, the placements straight from their table.
    #[inline]
    fn random_playout(
        &mut self,
        _scratch: &mut Vec<Move>,
        mut pick: impl FnMut(usize) -> usize,
        max_plies: u32,
    ) -> Playout {
        let mut plies = 0;
        while plies < max_plies && self.result == 0 {
            match self.phase {
                Phase::SetupP1 => {
                    self.place(0, chance(&mut pick, PLACEMENTS));
                    self.phase = Phase::SetupP2;
                }
                Phase::SetupP2 => {
                    self.place(1, chance(&mut pick, PLACEMENTS));
                    self.phase = Phase::Roll;
                }
                Phase::Roll => {
                    self.die = 1 + chance(&mut pick, 6) as u8;
                    self.phase = Phase::Move;
                    // The step the roll allows, in the same pass when a ply is left.
                    if plies + 1 < max_plies {
                        let mut steps = [0; 6];
                        let n = self.steps_into(&mut steps);
                        self.step(steps[pick(n)]);
                        plies += 1;
                    }
                }
                Phase::Move => {
                    let mut steps = [0; 6];
                    let n = self.steps_into(&mut steps);
                    self.step(steps[pick(n)]);
                }
            }
            plies += 1;
        }
        Playout {
            plies,
            // As the default says it: a game that ends on the last ply allowed is not
            // seen to have ended.
            ended: self.result != 0 && plies < max_plies,
        }
    }

    fn outcome(&self) -> Option<Outcome> {
        let (winner, reason) = match self.result {
            1 => (Player::P1, "corner"),
            2 => (Player::P2, "corner"),
            3 => (Player::P1, "all-removed"),
            4 => (Player::P2, "all-removed"),
            _ => return None,
        };
        Some(Outcome {
            winner: Some(winner),
            reason,
        })
    }

    fn position_hash(&self) -> u64 {
        let mut packed = [0u8; 8];
        packed[..6].copy_from_slice(&self.at[0]);
        let first = u64::from_le_bytes(packed);
        packed[..6].copy_from_slice(&self.at[1]);
        let second = u64::from_le_bytes(packed);
        let state = u64::from(self.die)
            | u64::from(self.mover) << 8
            | (self.phase as u64) << 16
            | u64::from(self.result) << 24;
        mix64(first ^ mix64(second ^ mix64(state ^ 0x45_696e)))
    }

    fn piece_count(&self, player: Player) -> u32 {
        self.cubes_left(player.index())
    }

    fn write_move(&self, mv: Move, out: &mut String) {
        match self.phase {
            Phase::SetupP1 | Phase::SetupP2 => {
                out.push_str("setup");
                for n in placement(mv) {
                    out.push(char::from(b'0' + n));
                }
            }
            Phase::Roll => {
                out.push_str("roll");
                out.push(char::from(b'0' + mv as u8));
            }
            Phase::Move => {
                cell_name((mv / 32) as u8, out);
                out.push('-');
                cell_name((mv % 32) as u8, out);
            }
        }
    }

    fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        let error = |reason: String| MoveError {
            text: text.to_string(),
            reason,
        };
        let trimmed = text.trim();
        let mv = match self.phase {
            Phase::SetupP1 | Phase::SetupP2 => {
                let cells = if self.phase == Phase::SetupP1 {
                    "a1, b1, c1, a2, b2, a3"
                } else {
                    "e3, d4, e4, c5, d5, e5"
                };
                let digits: Vec<u8> = trimmed
                    .strip_prefix("setup")
                    .unwrap_or("")
                    .bytes()
                    .map(|b| b.wrapping_sub(b'0'))
                    .collect();
                <[u8; 6]>::try_from(digits)
                    .ok()
                    .and_then(placement_index)
                    .ok_or_else(|| {
                        error(format!(
                            "chance places the cubes now: expected setup and the numbers 1 to 6 on {cells} (setup123456)"
                        ))
                    })?
            }
            Phase::Roll => trimmed
                .strip_prefix("roll")
                .and_then(|face| face.parse::<u16>().ok())
                .filter(|face| (1..=6).contains(face))
                .ok_or_else(|| error("chance rolls the die now: expected roll1 to roll6".into()))?,
            Phase::Move => {
                let (from, to) = trimmed
                    .split_once('-')
                    .and_then(|(from, to)| Some((parse_cell(from)?, parse_cell(to)?)))
                    .ok_or_else(|| {
                        error("expected a step from a cell to the next, as b2-c3".into())
                    })?;
                u16::from(from) * 32 + u16::from(to)
            }
        };
        check_legal(self, mv, text, || match self.phase {
            Phase::Move => {
                let (cubes, count) = self.movable();
                let numbers: Vec<String> = cubes[..count].iter().map(u8::to_string).collect();
                format!(
                    "the die shows {}: {} may move only cube {} one step towards the far corner",
                    self.die,
                    self.to_move(),
                    numbers.join(" or ")
                )
            }
            _ => "not one of chance's outcomes here".to_string(),
        })
    }

    /// Rows from the top (row 5): P1's cubes `X1` to `X6`, P2's `O1` to `O6`, `..`
    /// empty; then what comes next (the die to roll, or the die rolled).
    fn board_dump(&self) -> String {
        let mut text = String::new();
        for row in (0..5u8).rev() {
            for column in 0..5u8 {
                if column > 0 {
                    text.push(' ');
                }
                match self.cube(row * 5 + column) {
                    Some((player, n)) => {
                        text.push(if player == Player::P1 { 'X' } else { 'O' });
                        text.push(char::from(b'0' + n));
                    }
                    None => text.push_str(".."),
                }
            }
            text.push('\n');
        }
        let next = match self.phase {
            _ if self.result != 0 => String::new(),
            Phase::SetupP1 => "chance places P1's cubes".to_string(),
            Phase::SetupP2 => "chance places P2's cubes".to_string(),
            Phase::Roll => format!("chance rolls the die for {}", self.to_move()),
            Phase::Move => format!("{} rolled {}", self.to_move(), self.die),
        };
        if !next.is_empty() {
            text.push_str(&next);
            text.push('\n');
        }
        text
    }

    fn board_display(&self) -> String {
        let dump = self.board_dump();
        let mut lines = dump.lines();
        let mut text = String::new();
        for row in (1..=5).rev() {
            text.push_str(&format!("{row} {}\n", lines.next().unwrap_or("")));
        }
        text.push_str("  a  b  c  d  e\n");
        for line in lines {
            text.push_str(line);
            text.push('\n');
        }
        text
    }

    fn position_json(&self) -> serde_json::Value {
        let board: Vec<i8> = (0..25u8)
            .map(|cell| match self.cube(cell) {
                Some((Player::P1, n)) => n as i8,
                Some((_, n)) => -(n as i8),
                None => 0,
            })
            .collect();
        let phase = match self.phase {
            Phase::SetupP1 | Phase::SetupP2 => "setup",
            Phase::Roll => "roll",
            Phase::Move => "move",
        };
        serde_json::json!({
            "to_move": self.to_move().label(),
            "phase": phase,
            "die": self.die,
            "board": board,
        })
    }
}
