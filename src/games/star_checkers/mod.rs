//! Chinese Checkers on the full star board, for 2, 3, 4 or 6 players: 121 cells, 10
//! marbles a player in one of the six points of the star, steps to a neighbouring cell and
//! chains of short jumps over one neighbouring marble (any player's) to the empty cell
//! just behind it. A player wins when its goal (the point opposite its home) is full and
//! holds at least one of its own marbles (so that a marble left in it cannot block it).
//!
//! Cells are `(row, column)` as printed: rows 1..17 from the top, columns from 1 at the
//! left of each row. Internally a cell is its axial coordinates `(q, r)`, `r` = row - 9,
//! the star being the cells of two big triangles, `q >= -4, r >= -4, q + r <= 4` and
//! `q <= 4, r <= 4, q + r >= -4`; each player's marbles are a `u128` of cell bits.
//!
//! The six points, clockwise from the top, are numbered 0 (top) to 5 (upper left). P1
//! starts at the bottom (point 3) and goes for the top; the others sit clockwise from it:
//! two players on opposite points, three on every other point, four on two pairs of
//! opposite points, six on all. Players move in seat order, P1 first.

#[cfg(test)]
mod tests;

use crate::core::{Game, MoveError, Outcome, Player, Returns, check_legal, seeds::mix64};
use crate::games::cells_of;
use std::fmt;
use std::sync::OnceLock;

/// Number of cells.
pub const CELLS: usize = 121;
/// Marbles a player.
pub const MARBLES: u32 = 10;
/// The player counts the star seats.
pub const PLAYER_COUNTS: [usize; 4] = [2, 3, 4, 6];
/// The six axial directions.
const DIRECTIONS: [(i32, i32); 6] = [(1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1)];
/// No cell (off the board).
const NONE: u8 = u8::MAX;
/// The home point of each seat, by the number of players (index: players - 2).
const HOMES: [&[usize]; 5] = [&[3, 0], &[3, 5, 1], &[3, 4, 0, 1], &[], &[3, 4, 5, 0, 1, 2]];
/// Each point's far tip, clockwise from the top, as `(q, r)`.
const TIPS: [(i32, i32); 6] = [(4, -8), (8, -4), (4, 4), (-4, 8), (-8, 4), (-4, -4)];

/// The rules' parameters: the number of players and when a game ends undecided.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Rules {
    /// 2, 3, 4 or 6.
    pub players: u8,
    /// Plies (one move of one player) after which the game ends without a winner, the
    /// players placed by how far their marbles have come; 0 for 100 per player.
    pub max_plies: u16,
}

impl Default for Rules {
    fn default() -> Self {
        Rules {
            players: 2,
            max_plies: 0,
        }
    }
}

impl Rules {
    /// The ply limit (100 a player unless set).
    pub fn ply_limit(&self) -> u16 {
        if self.max_plies == 0 {
            100 * u16::from(self.players)
        } else {
            self.max_plies
        }
    }
}

impl fmt::Display for Rules {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "players={}", self.players)?;
        if self.max_plies != 0 {
            write!(f, ",max_plies={}", self.max_plies)?;
        }
        Ok(())
    }
}

/// A move: a marble from one cell to another (a step or a chain of jumps), or a pass when
/// the player has no move (`from == to == 255`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    /// Where the marble stands.
    pub from: u8,
    /// Where it ends.
    pub to: u8,
}

/// The pass of a player without a move.
pub const PASS: Move = Move {
    from: NONE,
    to: NONE,
};

/// The board's geometry, computed once.
pub struct Geometry {
    /// Each cell's axial `(q, r)`.
    pub axial: [(i8, i8); CELLS],
    /// Each cell's printed `(row, column)`, both from 1.
    pub row_col: [(u8, u8); CELLS],
    /// Each cell's neighbour in each direction ([`DIRECTIONS`]), 255 off the board.
    pub neighbours: [[u8; 6]; CELLS],
    /// The cells of each point, clockwise from the top.
    pub points: [u128; 6],
    /// Hex steps from each cell to each point's tip.
    pub to_tip: [[u8; CELLS]; 6],
    /// The first cell of each printed row (rows 1..17 at 0..16) and its width.
    pub rows: [(u8, u8); 17],
    /// Zobrist keys: a marble of seat `s` on a cell, and the seat to move.
    keys: Vec<[u64; CELLS]>,
}

fn on_star(q: i32, r: i32) -> bool {
    (q >= -4 && r >= -4 && q + r <= 4) || (q <= 4 && r <= 4 && q + r >= -4)
}

fn hex_distance((q1, r1): (i32, i32), (q2, r2): (i32, i32)) -> u32 {
    let (dq, dr) = (q1 - q2, r1 - r2);
    ((dq.abs() + dr.abs() + (dq + dr).abs()) / 2) as u32
}

/// The point a cell belongs to (0 top, clockwise), if any.
fn point_of(q: i32, r: i32) -> Option<usize> {
    if r < -4 {
        Some(0)
    } else if q > 4 {
        Some(1)
    } else if q + r > 4 {
        Some(2)
    } else if r > 4 {
        Some(3)
    } else if q < -4 {
        Some(4)
    } else if q + r < -4 {
        Some(5)
    } else {
        None
    }
}

/// The board geometry.
pub fn geometry() -> &'static Geometry {
    static GEOMETRY: OnceLock<Geometry> = OnceLock::new();
    GEOMETRY.get_or_init(|| {
        let mut axial = [(0i8, 0i8); CELLS];
        let mut row_col = [(0u8, 0u8); CELLS];
        let mut rows = [(0u8, 0u8); 17];
        let mut index = std::collections::HashMap::new();
        let mut n = 0usize;
        for r in -8..=8 {
            let start = n;
            for q in -8..=8 {
                if on_star(q, r) {
                    axial[n] = (q as i8, r as i8);
                    row_col[n] = ((r + 9) as u8, (n - start + 1) as u8);
                    index.insert((q, r), n as u8);
                    n += 1;
                }
            }
            rows[(r + 8) as usize] = (start as u8, (n - start) as u8);
        }
        let mut neighbours = [[NONE; 6]; CELLS];
        let mut points = [0u128; 6];
        let mut to_tip = [[0u8; CELLS]; 6];
        for c in 0..CELLS {
            let (q, r) = (i32::from(axial[c].0), i32::from(axial[c].1));
            for (d, (dq, dr)) in DIRECTIONS.iter().enumerate() {
                neighbours[c][d] = index.get(&(q + dq, r + dr)).copied().unwrap_or(NONE);
            }
            if let Some(p) = point_of(q, r) {
                points[p] |= 1u128 << c;
            }
            for (p, &tip) in TIPS.iter().enumerate() {
                to_tip[p][c] = hex_distance((q, r), tip) as u8;
            }
        }
        let mut keys = vec![[0u64; CELLS]; Player::MAX + 1];
        for (s, seat_keys) in keys.iter_mut().enumerate() {
            for (c, key) in seat_keys.iter_mut().enumerate() {
                *key = mix64(0x5354_4152 ^ ((s as u64) << 8 | c as u64));
            }
        }
        Geometry {
            axial,
            row_col,
            neighbours,
            points,
            to_tip,
            rows,
            keys,
        }
    })
}

/// The cell printed at `(row, column)`, if there is one.
pub fn cell(row: u32, column: u32) -> Option<usize> {
    let (first, width) = *geometry().rows.get(row.checked_sub(1)? as usize)?;
    (1..=u32::from(width))
        .contains(&column)
        .then(|| usize::from(first) + column as usize - 1)
}

/// A position of Chinese Checkers on the star.
#[derive(Clone, PartialEq, Eq)]
pub struct StarCheckers {
    /// Each seat's marbles.
    marbles: [u128; Player::MAX],
    /// Every marble.
    occupied: u128,
    rules: Rules,
    to_move: Player,
    plies: u16,
    /// 0 while the game goes on, the winner's seat + 1, or 7 at the ply limit.
    ended: u8,
}

impl fmt::Debug for StarCheckers {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.board_dump())
    }
}

const PLY_LIMIT: u8 = 7;

impl StarCheckers {
    /// The start position (`rules.players` must be 2, 3, 4 or 6: the registry checks it;
    /// any other number seats 2).
    pub fn new(rules: Rules) -> StarCheckers {
        let players = if PLAYER_COUNTS.contains(&usize::from(rules.players)) {
            rules.players
        } else {
            2
        };
        let rules = Rules { players, ..rules };
        let geometry = geometry();
        let mut marbles = [0u128; Player::MAX];
        for (seat, &home) in HOMES[usize::from(players) - 2].iter().enumerate() {
            marbles[seat] = geometry.points[home];
        }
        StarCheckers {
            marbles,
            occupied: marbles.iter().fold(0, |all, m| all | m),
            rules,
            to_move: Player::P1,
            plies: 0,
            ended: 0,
        }
    }

    /// The rules.
    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// The marbles of `player`.
    pub fn marbles(&self, player: Player) -> u128 {
        self.marbles[player.index()]
    }

    /// Plies played.
    pub fn plies(&self) -> u16 {
        self.plies
    }

    /// The point `player` starts on (0 top, clockwise).
    pub fn home(&self, player: Player) -> usize {
        HOMES[usize::from(self.rules.players) - 2]
            .get(player.index())
            .copied()
            .unwrap_or(0)
    }

    /// The point `player` goes for: the one opposite its home.
    pub fn goal(&self, player: Player) -> usize {
        (self.home(player) + 3) % 6
    }

    /// The hex steps `player`'s marbles still have to go to its goal's tip, less the
    /// least they can have (20, the goal full): 0 when all are home in the goal, 120 at
    /// the start.
    pub fn distance(&self, player: Player) -> u32 {
        let to_tip = &geometry().to_tip[self.goal(player)];
        let total: u32 = cells_of(self.marbles(player))
            .map(|c| u32::from(to_tip[c]))
            .sum();
        total.saturating_sub(20)
    }

    /// Whether `player`'s goal is full with at least one of its own marbles.
    fn has_won(&self, player: Player) -> bool {
        let goal = geometry().points[self.goal(player)];
        self.occupied & goal == goal && self.marbles(player) & goal != 0
    }

    /// The destinations of the marble on `from`: steps to empty neighbours, and every
    /// empty cell a chain of jumps reaches (the marble's own cell counting as empty).
    fn destinations(&self, geometry: &Geometry, from: usize) -> u128 {
        let occupied = self.occupied & !(1u128 << from);
        let mut steps = 0u128;
        for &n in &geometry.neighbours[from] {
            if n != NONE && occupied & (1u128 << n) == 0 {
                steps |= 1u128 << n;
            }
        }
        let mut reached = 1u128 << from;
        let mut frontier = 1u128 << from;
        while frontier != 0 {
            let at = frontier.trailing_zeros() as usize;
            frontier &= frontier - 1;
            for d in 0..6 {
                let over = geometry.neighbours[at][d];
                if over == NONE || occupied & (1u128 << over) == 0 {
                    continue;
                }
                let land = geometry.neighbours[usize::from(over)][d];
                if land == NONE {
                    continue;
                }
                let bit = 1u128 << land;
                if occupied & bit == 0 && reached & bit == 0 {
                    reached |= bit;
                    frontier |= bit;
                }
            }
        }
        (steps | reached) & !(1u128 << from)
    }

    fn key(&self) -> u64 {
        let keys = &geometry().keys;
        let mut hash = keys[Player::MAX][self.to_move.index()];
        for (seat, &marbles) in self.marbles[..self.players()].iter().enumerate() {
            for c in cells_of(marbles) {
                hash ^= keys[seat][c];
            }
        }
        hash ^ u64::from(self.plies).rotate_left(40)
    }

    /// `(row, column)` of a cell.
    fn row_col(cell: usize) -> (u8, u8) {
        geometry().row_col[cell]
    }
}

impl Game for StarCheckers {
    type Move = Move;

    #[inline]
    fn to_move(&self) -> Player {
        self.to_move
    }

    fn players(&self) -> usize {
        usize::from(self.rules.players)
    }

    fn put_to_move(&mut self, player: Player) -> bool {
        if player.index() >= self.players() {
            return false;
        }
        self.to_move = player;
        true
    }

    fn has_returns(&self) -> bool {
        true
    }

    /// Each player's share of the way home: 1 for the winner, and for the others the
    /// steps their marbles have come towards their goal over the 120 a whole crossing
    /// takes (below 0 for a player gone backwards).
    fn returns(&self) -> Option<Returns> {
        if self.ended == 0 {
            return None;
        }
        let mut returns = Returns::zeros(self.players());
        for &seat in Player::seats(self.players()) {
            returns[seat] = if usize::from(self.ended) == seat.index() + 1 {
                1.0
            } else {
                (120.0 - f64::from(self.distance(seat))) / 120.0
            };
        }
        // The winner's 1 stays above a loser whose marbles are as far on (a blocked goal).
        if self.ended != PLY_LIMIT {
            let winner = usize::from(self.ended) - 1;
            for &seat in Player::seats(self.players()) {
                if seat.index() != winner && returns[seat] >= 1.0 {
                    returns[seat] = 0.999;
                }
            }
        }
        Some(returns)
    }

    fn legal_moves(&self, out: &mut Vec<Move>) {
        out.clear();
        if self.ended != 0 {
            return;
        }
        let geometry = geometry();
        for from in cells_of(self.marbles(self.to_move)) {
            for to in cells_of(self.destinations(geometry, from)) {
                out.push(Move {
                    from: from as u8,
                    to: to as u8,
                });
            }
        }
        if out.is_empty() {
            out.push(PASS);
        }
    }

    fn apply(&mut self, mv: Move) {
        let mover = self.to_move;
        if mv != PASS {
            let step = (1u128 << mv.from) | (1u128 << mv.to);
            self.marbles[mover.index()] ^= step;
            self.occupied ^= step;
        }
        self.plies += 1;
        self.to_move = mover.next(self.players());
        // The mover first, then the others in turn (a move may fill another's goal).
        let mut seat = mover;
        for _ in 0..self.players() {
            if self.has_won(seat) {
                self.ended = seat.index() as u8 + 1;
                return;
            }
            seat = seat.next(self.players());
        }
        if self.plies >= self.rules.ply_limit() {
            self.ended = PLY_LIMIT;
        }
    }

    fn outcome(&self) -> Option<Outcome> {
        match self.ended {
            0 => None,
            PLY_LIMIT => Some(Outcome {
                winner: None,
                reason: "ply-limit",
            }),
            winner => Some(Outcome {
                winner: Player::seat(usize::from(winner) - 1),
                reason: "goal-filled",
            }),
        }
    }

    fn position_hash(&self) -> u64 {
        self.key()
    }

    fn piece_count(&self, player: Player) -> u32 {
        self.marbles(player).count_ones()
    }

    fn move_order_score(&self, mv: Move) -> i32 {
        if mv == PASS {
            return 0;
        }
        let to_tip = &geometry().to_tip[self.goal(self.to_move)];
        i32::from(to_tip[usize::from(mv.from)]) - i32::from(to_tip[usize::from(mv.to)])
    }

    fn write_move(&self, mv: Move, out: &mut String) {
        use std::fmt::Write;
        if mv == PASS {
            out.push_str("pass");
            return;
        }
        let (r1, c1) = Self::row_col(usize::from(mv.from));
        let (r2, c2) = Self::row_col(usize::from(mv.to));
        let _ = write!(out, "{r1} {c1} {r2} {c2}");
    }

    fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        let error = |reason: String| MoveError {
            text: text.to_string(),
            reason,
        };
        let mv = if text.trim() == "pass" {
            PASS
        } else {
            let numbers: Vec<u32> = text
                .split(|c: char| c.is_whitespace() || c == ',' || c == '-')
                .filter(|t| !t.is_empty())
                .map(str::parse)
                .collect::<Result<_, _>>()
                .map_err(|_| {
                    error("expected 'r1 c1 r2 c2' (from and to cells) or 'pass'".to_string())
                })?;
            let [r1, c1, r2, c2] = numbers[..] else {
                return Err(error("expected four numbers 'r1 c1 r2 c2'".to_string()));
            };
            let on_board = |r: u32, c: u32| {
                cell(r, c).ok_or_else(|| {
                    error(format!(
                        "({r}, {c}) is not a cell of the star (rows 1-17, columns from 1)"
                    ))
                })
            };
            Move {
                from: on_board(r1, c1)? as u8,
                to: on_board(r2, c2)? as u8,
            }
        };
        check_legal(self, mv, text, || {
            if mv == PASS {
                format!("{} has a move and may not pass", self.to_move)
            } else if self.marbles(self.to_move) & (1u128 << mv.from) == 0 {
                format!("no marble of {} on the first cell", self.to_move)
            } else {
                "the marble cannot step or jump to that cell".to_string()
            }
        })
    }

    fn board_dump(&self) -> String {
        let geometry = geometry();
        let min_x = -12;
        let mut text = String::with_capacity(600);
        for &(first, width) in &geometry.rows {
            let first = usize::from(first);
            let (q, r) = geometry.axial[first];
            let x = 2 * i32::from(q) + i32::from(r);
            text.push_str(&" ".repeat((x - min_x) as usize));
            for c in first..first + usize::from(width) {
                if c > first {
                    text.push(' ');
                }
                let seat = (0..self.players()).find(|&s| self.marbles[s] & (1u128 << c) != 0);
                text.push(match seat {
                    Some(s) => char::from(b'1' + s as u8),
                    None => '.',
                });
            }
            text.push('\n');
        }
        text
    }

    fn board_display(&self) -> String {
        let mut text = self.board_dump();
        let players: Vec<String> = Player::seats(self.players())
            .iter()
            .map(|&seat| format!("{} {} to go", seat.index() + 1, self.distance(seat)))
            .collect();
        text.push_str(&format!(
            "{} to move; steps left: {}\n",
            self.to_move,
            players.join(", ")
        ));
        text
    }

    fn position_json(&self) -> serde_json::Value {
        serde_json::json!({
            "to_move": self.to_move.label(),
            "players": self.rules.players,
            "plies": self.plies,
            "rows": crate::games::compact_rows(&self.board_dump()),
        })
    }
}
