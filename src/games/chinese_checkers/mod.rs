//! Chinese Checkers, the two-player diamond variant of SJTU AU332 (report 004): 100 cells,
//! 7 ordinary and 3 special marbles a side, steps and chains of long symmetric jumps.
//!
//! Cells are `(row, col)` as the course engine numbers them (rows 1..19, row r holding
//! min(r, 20 - r) cells). Internally a cell is its axial coordinates (i, j), both 0..9,
//! at bit `10 i + j` of a `u128` per side; the six directions are the axial offsets
//! (+1,0), (-1,0), (0,+1), (0,-1), (+1,-1), (-1,+1) and the row is `i + j + 1`.

#[cfg(test)]
mod tests;

use crate::core::{ByPlayer, Game, MoveError, Outcome, Player, check_legal, seeds::mix64};
use crate::games::cells_of;
use std::fmt;
use std::sync::OnceLock;

/// Number of cells.
pub const CELLS: usize = 100;
/// The six axial directions.
const DIRECTIONS: [(i32, i32); 6] = [(1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1)];

/// The `(row, col)` of a cell index.
pub fn row_col(cell: usize) -> (u32, u32) {
    let (i, j) = ((cell / 10) as u32, (cell % 10) as u32);
    let row = i + j + 1;
    let col = if row <= 10 { j + 1 } else { 10 - i };
    (row, col)
}

/// The cell index of `(row, col)`, if it is on the board.
pub fn cell(row: u32, col: u32) -> Option<usize> {
    if !(1..=19).contains(&row) {
        return None;
    }
    let width = if row <= 10 { row } else { 20 - row };
    if col == 0 || col > width {
        return None;
    }
    let (i, j) = if row <= 10 {
        (row - col, col - 1)
    } else {
        let i = 10 - col;
        (i, row - 1 - i)
    };
    Some((i * 10 + j) as usize)
}

fn bit(cell: usize) -> u128 {
    1u128 << cell
}

/// Precomputed geometry.
pub struct Geometry {
    /// Neighbour masks.
    pub neighbours: [u128; CELLS],
    /// For each cell and direction, the cells along the ray, nearest first.
    pub rays: Vec<[Vec<u8>; 6]>,
    /// Each side's home triangle (P1: rows 16-19, P2: rows 1-4).
    pub home: ByPlayer<u128>,
    /// Each side's special marbles' start (and the other side's special targets).
    pub special_start: ByPlayer<u128>,
}

/// The board geometry (computed once).
pub fn geometry() -> &'static Geometry {
    static GEOMETRY: OnceLock<Geometry> = OnceLock::new();
    GEOMETRY.get_or_init(|| {
        let mut neighbours = [0u128; CELLS];
        let mut rays = Vec::with_capacity(CELLS);
        for (c, cell_neighbours) in neighbours.iter_mut().enumerate() {
            let (i, j) = ((c / 10) as i32, (c % 10) as i32);
            let mut cell_rays: [Vec<u8>; 6] = Default::default();
            for (d, &(di, dj)) in DIRECTIONS.iter().enumerate() {
                let (mut x, mut y) = (i + di, j + dj);
                while (0..10).contains(&x) && (0..10).contains(&y) {
                    cell_rays[d].push((x * 10 + y) as u8);
                    x += di;
                    y += dj;
                }
                if let Some(&first) = cell_rays[d].first() {
                    *cell_neighbours |= bit(first as usize);
                }
            }
            rays.push(cell_rays);
        }
        let region = |rows: std::ops::RangeInclusive<u32>| -> u128 {
            (0..CELLS)
                .filter(|&c| rows.contains(&row_col(c).0))
                .map(bit)
                .sum()
        };
        let cells = |list: &[(u32, u32)]| -> u128 {
            list.iter()
                .map(|&(r, c)| bit(cell(r, c).expect("on board")))
                .sum()
        };
        Geometry {
            neighbours,
            rays,
            home: ByPlayer([region(16..=19), region(1..=4)]),
            special_start: ByPlayer([
                cells(&[(17, 2), (18, 1), (18, 2)]),
                cells(&[(2, 1), (2, 2), (3, 2)]),
            ]),
        }
    })
}

/// What happens to a side that does not move within the per-move time limit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Timeout {
    /// It loses (the handout's rule).
    Loss,
    /// A random legal move is played for it (the course engine's behaviour).
    Random,
}

/// Rule parameters.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Rules {
    /// Plies after which the game is a tie (200).
    pub max_plies: u16,
    /// After this many plies a side with a marble still at home loses (100).
    pub home_plies: u16,
    /// Long symmetric jumps (the engine) or only jumps over adjacent marbles (the handout).
    pub long_jumps: bool,
    /// The forfeit rule for the per-move time limit.
    pub timeout: Timeout,
}

impl Default for Rules {
    fn default() -> Self {
        Rules {
            max_plies: 200,
            home_plies: 100,
            long_jumps: true,
            timeout: Timeout::Loss,
        }
    }
}

impl fmt::Display for Rules {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "max_plies={},home_plies={},jumps={},timeout={}",
            self.max_plies,
            self.home_plies,
            if self.long_jumps { "long" } else { "short" },
            match self.timeout {
                Timeout::Loss => "loss",
                Timeout::Random => "random",
            }
        )
    }
}

/// A move: the marble's cell and its destination (a jump chain by its end points).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    /// From cell.
    pub from: u8,
    /// To cell.
    pub to: u8,
}

/// A position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ChineseCheckers {
    marbles: ByPlayer<u128>,
    specials: u128,
    to_move: Player,
    plies: u16,
    rules: Rules,
}

impl ChineseCheckers {
    /// The start position, player 1 to move.
    pub fn new(rules: Rules) -> ChineseCheckers {
        let g = geometry();
        ChineseCheckers {
            marbles: g.home,
            specials: g.special_start[Player::P1] | g.special_start[Player::P2],
            to_move: Player::P1,
            plies: 0,
            rules,
        }
    }

    /// For tests: a position holding only `marbles` as (row, column, digit) in dump terms
    /// (1 and 2 ordinary marbles, 3 and 4 special ones), default rules.
    #[cfg(test)]
    pub(crate) fn from_marbles(
        marbles: &[(u32, u32, char)],
        to_move: Player,
        plies: u16,
    ) -> ChineseCheckers {
        let mut rows: Vec<Vec<char>> = (1..=19u32)
            .map(|r| vec!['0'; if r <= 10 { r } else { 20 - r } as usize])
            .collect();
        for &(r, c, v) in marbles {
            rows[r as usize - 1][c as usize - 1] = v;
        }
        let dump: String = rows
            .iter()
            .map(|r| r.iter().collect::<String>() + "\n")
            .collect();
        ChineseCheckers::from_dump(Rules::default(), &dump, to_move, plies).expect("valid")
    }

    /// A position from a dump (19 rows of 0-4 digits, spaces ignored).
    ///
    /// # Errors
    /// A message when the text is not the board's 19 rows.
    pub fn from_dump(
        rules: Rules,
        dump: &str,
        to_move: Player,
        plies: u16,
    ) -> Result<ChineseCheckers, String> {
        let rows: Vec<Vec<char>> = dump
            .lines()
            .map(|l| l.chars().filter(|c| !c.is_whitespace()).collect::<Vec<_>>())
            .filter(|r| !r.is_empty())
            .collect();
        if rows.len() != 19 {
            return Err(format!("expected 19 rows, found {}", rows.len()));
        }
        let mut state = ChineseCheckers {
            marbles: ByPlayer([0, 0]),
            specials: 0,
            to_move,
            plies,
            rules,
        };
        for (r, row) in rows.iter().enumerate() {
            let r = r as u32 + 1;
            let width = if r <= 10 { r } else { 20 - r };
            if row.len() != width as usize {
                return Err(format!(
                    "row {r}: expected {width} cells, found {}",
                    row.len()
                ));
            }
            for (c, &digit) in row.iter().enumerate() {
                let b = bit(cell(r, c as u32 + 1).expect("on board"));
                match digit {
                    '0' => {}
                    '1' => state.marbles[Player::P1] |= b,
                    '2' => state.marbles[Player::P2] |= b,
                    '3' => {
                        state.marbles[Player::P1] |= b;
                        state.specials |= b;
                    }
                    '4' => {
                        state.marbles[Player::P2] |= b;
                        state.specials |= b;
                    }
                    other => return Err(format!("row {r}: unexpected '{other}'")),
                }
            }
        }
        Ok(state)
    }

    /// The rules in force.
    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// A side's marbles.
    pub fn marbles(&self, player: Player) -> u128 {
        self.marbles[player]
    }

    /// Special marbles of both sides.
    pub fn specials(&self) -> u128 {
        self.specials
    }

    /// Plies played.
    pub fn plies(&self) -> u16 {
        self.plies
    }

    /// Every cell `from` can move to (steps and jump chains), as a mask.
    pub fn destinations(&self, from: usize) -> u128 {
        let g = geometry();
        let occupied = (self.marbles[Player::P1] | self.marbles[Player::P2]) & !bit(from);
        let steps = g.neighbours[from] & !occupied;
        let mut reached = 0u128;
        let mut frontier = bit(from);
        while frontier != 0 {
            let at = frontier.trailing_zeros() as usize;
            frontier &= frontier - 1;
            for ray in &g.rays[at] {
                // The first marble on the ray, then as many empty cells beyond it as before.
                let Some(p) = ray.iter().position(|&c| occupied & bit(c as usize) != 0) else {
                    continue;
                };
                if !self.rules.long_jumps && p > 0 {
                    continue;
                }
                let landing = 2 * p + 1;
                if landing >= ray.len() {
                    continue;
                }
                let beyond_empty = ray[p + 1..=landing]
                    .iter()
                    .all(|&c| occupied & bit(c as usize) == 0);
                let land = bit(ray[landing] as usize);
                if beyond_empty && reached & land == 0 {
                    reached |= land;
                    frontier |= land;
                }
            }
        }
        (steps | reached) & !bit(from)
    }

    fn arrived(&self, player: Player) -> bool {
        let g = geometry();
        let target = g.home[player.opponent()];
        self.marbles[player] == target
            && self.specials & target == g.special_start[player.opponent()]
    }

    fn decided(&self) -> Option<Outcome> {
        let g = geometry();
        let late = self.plies > self.rules.home_plies;
        for player in Player::BOTH {
            let opponent = player.opponent();
            if self.arrived(player) {
                return Some(Outcome {
                    winner: Some(player),
                    reason: "arrived",
                });
            }
            if late && self.marbles[opponent] & g.home[opponent] != 0 {
                return Some(Outcome {
                    winner: Some(player),
                    reason: "home-rule",
                });
            }
        }
        (self.plies >= self.rules.max_plies).then_some(Outcome {
            winner: None,
            reason: "ply-limit",
        })
    }

    fn any_move(&self) -> bool {
        cells_of(self.marbles[self.to_move]).any(|from| self.destinations(from) != 0)
    }
}

impl Game for ChineseCheckers {
    type Move = Move;

    fn to_move(&self) -> Player {
        self.to_move
    }

    fn legal_moves(&self, out: &mut Vec<Move>) {
        out.clear();
        if self.decided().is_some() {
            return;
        }
        for from in cells_of(self.marbles[self.to_move]) {
            for to in cells_of(self.destinations(from)) {
                out.push(Move {
                    from: from as u8,
                    to: to as u8,
                });
            }
        }
    }

    /// Rows advanced towards the mover's target (P1 moves to lower rows).
    fn move_order_score(&self, mv: Move) -> i32 {
        let (from, to) = (
            row_col(mv.from as usize).0 as i32,
            row_col(mv.to as usize).0 as i32,
        );
        match self.to_move {
            Player::P1 => from - to,
            _ => to - from,
        }
    }

    fn apply(&mut self, mv: Move) {
        let (from, to) = (bit(mv.from as usize), bit(mv.to as usize));
        self.marbles[self.to_move] ^= from | to;
        if self.specials & from != 0 {
            self.specials ^= from | to;
        }
        self.to_move = self.to_move.opponent();
        self.plies = self.plies.saturating_add(1);
    }

    fn outcome(&self) -> Option<Outcome> {
        if let Some(outcome) = self.decided() {
            return Some(outcome);
        }
        // Not covered by the handout: chosen, a side with no move draws.
        (!self.any_move()).then_some(Outcome {
            winner: None,
            reason: "no-moves",
        })
    }

    fn position_hash(&self) -> u64 {
        let fold = |x: u128| mix64(x as u64 ^ mix64((x >> 64) as u64));
        mix64(
            fold(self.marbles[Player::P1])
                ^ fold(self.marbles[Player::P2]).rotate_left(17)
                ^ fold(self.specials).rotate_left(31)
                ^ (u64::from(self.plies) << 1 | self.to_move as u64),
        )
    }

    fn piece_count(&self, player: Player) -> u32 {
        self.marbles[player].count_ones()
    }

    fn timeout_forfeits(&self) -> bool {
        self.rules.timeout == Timeout::Loss
    }

    fn write_move(&self, mv: Move, out: &mut String) {
        let (r1, c1) = row_col(mv.from as usize);
        let (r2, c2) = row_col(mv.to as usize);
        use std::fmt::Write;
        let _ = write!(out, "{r1} {c1} {r2} {c2}");
    }

    fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        let error = |reason: String| MoveError {
            text: text.to_string(),
            reason,
        };
        let numbers: Vec<u32> = text
            .split(|c: char| c.is_whitespace() || c == ',')
            .filter(|t| !t.is_empty())
            .map(str::parse)
            .collect::<Result<_, _>>()
            .map_err(|_| error("expected 'r1 c1 r2 c2' (from and to cells)".to_string()))?;
        let [r1, c1, r2, c2] = numbers[..] else {
            return Err(error("expected four numbers 'r1 c1 r2 c2'".to_string()));
        };
        let on_board = |r, c| {
            cell(r, c).ok_or_else(|| {
                error(format!(
                    "({r},{c}) is not a cell (rows 1-19, row r has min(r, 20-r) cells)"
                ))
            })
        };
        let mv = Move {
            from: on_board(r1, c1)? as u8,
            to: on_board(r2, c2)? as u8,
        };
        check_legal(self, mv, text, || {
            if self.marbles[self.to_move] & bit(mv.from as usize) == 0 {
                format!("no marble of {} on ({r1},{c1})", self.to_move)
            } else {
                format!(
                    "({r1},{c1}) cannot reach ({r2},{c2}): a move is a step to an empty neighbour or a chain of symmetric jumps"
                )
            }
        })
    }

    fn position_json(&self) -> serde_json::Value {
        let rows = crate::games::compact_rows(&self.board_dump());
        serde_json::json!({
            "to_move": self.to_move.label(),
            "plies": self.plies,
            "rules": {
                "max_plies": self.rules.max_plies,
                "home_plies": self.rules.home_plies,
                "jumps": if self.rules.long_jumps { "long" } else { "short" },
            },
            "rows": rows,
        })
    }

    fn board_display(&self) -> String {
        // Cells are (row, place in the row from the left): rows labelled on the left.
        let mut text = String::from("row (cells counted from the left of each row)\n");
        for (row, line) in self.board_dump().lines().enumerate() {
            text.push_str(&format!("{:>2} {line}\n", row + 1));
        }
        text
    }

    fn board_dump(&self) -> String {
        let mut text = String::with_capacity(400);
        for row in 1..=19u32 {
            let width = if row <= 10 { row } else { 20 - row };
            text.push_str(&" ".repeat((10 - width) as usize));
            let cells: Vec<&str> = (1..=width)
                .map(|c| {
                    let b = bit(cell(row, c).expect("on board"));
                    let special = self.specials & b != 0;
                    if self.marbles[Player::P1] & b != 0 {
                        if special { "3" } else { "1" }
                    } else if self.marbles[Player::P2] & b != 0 {
                        if special { "4" } else { "2" }
                    } else {
                        "0"
                    }
                })
                .collect();
            text.push_str(&cells.join(" "));
            text.push('\n');
        }
        text
    }
}
