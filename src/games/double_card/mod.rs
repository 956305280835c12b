//! Double Card (Concordia COMP 472/6721): two-cell cards on an 8x12 board under gravity,
//! one player winning with four equal colours in a line, the other with four equal dots;
//! after the 24 cards are down, cards are picked up and put down elsewhere ("recycling").
//!
//! Cell `row * 8 + col` (row 0 is the board's row 1, at the bottom) of three 96-bit masks:
//! occupied, red halves, solid halves. The cards on the board are kept as (anchor, type)
//! pairs for recycling.

#[cfg(test)]
mod tests;

use crate::core::{Game, MoveError, Outcome, Player, check_legal, seeds::mix64};
use std::fmt::Write as _;

/// Columns.
pub const COLS: u32 = 8;
/// Rows.
pub const ROWS: u32 = 12;
/// The most cards a game can have.
pub const MAX_CARDS: usize = 48;
const BOARD: u128 = (1u128 << 96) - 1;

/// The two halves of each type 1..8: (anchor half, other half), each (red, solid).
const HALVES: [((bool, bool), (bool, bool)); 8] = [
    ((true, true), (false, false)), // 1: red solid | white hollow, horizontal
    ((false, false), (true, true)), // 2: white hollow / red solid, vertical
    ((false, false), (true, true)), // 3: horizontal
    ((true, true), (false, false)), // 4: vertical
    ((true, false), (false, true)), // 5: red hollow | white solid, horizontal
    ((false, true), (true, false)), // 6: white solid / red hollow, vertical
    ((false, true), (true, false)), // 7: horizontal
    ((true, false), (false, true)), // 8: vertical
];

/// Which feature a player plays for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Role {
    /// Four equal colours in a line.
    Colors,
    /// Four equal dots in a line.
    Dots,
}

/// Game parameters.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Params {
    /// The role of player 1 (player 2 has the other).
    pub p1: Role,
    /// Cards to place before recycling starts (24).
    pub cards: u8,
    /// Moves after which the game is a draw (60).
    pub move_limit: u8,
    /// Only placements touching an occupied cell (report 003's "discard isolated cards"):
    /// fewer moves, but it changes the game, so off by default.
    pub neighbours_only: bool,
}

impl Default for Params {
    fn default() -> Self {
        Params {
            p1: Role::Dots,
            cards: 24,
            move_limit: 60,
            neighbours_only: false,
        }
    }
}

impl std::fmt::Display for Params {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let role = match self.p1 {
            Role::Colors => "colors",
            Role::Dots => "dots",
        };
        write!(
            f,
            "p1={role},cards={},moves={}",
            self.cards, self.move_limit
        )?;
        if self.neighbours_only {
            f.write_str(",neighbours_only=1")?;
        }
        Ok(())
    }
}

/// A move: place a new card (`lift` is `None`) or pick up card `lift` (an index into the
/// cards on the board) and put it down as `card_type` at `anchor`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    /// The card picked up, for a recycling move.
    pub lift: Option<u8>,
    /// Type 1..8.
    pub card_type: u8,
    /// The anchor cell (bottom-left cell of the card).
    pub anchor: u8,
}

/// The two cells a card of `card_type` at `anchor` covers, if both are on the board.
pub fn cells(card_type: u8, anchor: u8) -> Option<(u8, u8)> {
    let (row, col) = (u32::from(anchor) / COLS, u32::from(anchor) % COLS);
    if row >= ROWS {
        return None;
    }
    if !card_type.is_multiple_of(2) {
        (col + 1 < COLS).then_some((anchor, anchor + 1))
    } else {
        (row + 1 < ROWS).then_some((anchor, anchor + COLS as u8))
    }
}

fn bit(cell: u8) -> u128 {
    1u128 << cell
}

/// Every cell set in `bits` that starts a line of four set cells in some direction.
fn lines_of_four(bits: u128) -> bool {
    let not_left = BOARD & !(0..ROWS).map(|r| 1u128 << (r * COLS)).sum::<u128>();
    let not_right = BOARD & !(0..ROWS).map(|r| 1u128 << (r * COLS + 7)).sum::<u128>();
    let run = |shift: u32, keep: u128| {
        // keep: cells from which a step in this direction stays on the board.
        let mut acc = bits;
        for _ in 0..3 {
            acc = ((acc & keep) << shift) & bits;
        }
        acc != 0
    };
    run(1, not_right) || run(COLS, BOARD) || run(COLS + 1, not_right) || run(COLS - 1, not_left)
}

/// Every cell next to (in the eight directions) a cell of `bits`.
fn neighbourhood(bits: u128) -> u128 {
    let not_left = BOARD & !(0..ROWS).map(|r| 1u128 << (r * COLS)).sum::<u128>();
    let not_right = BOARD & !(0..ROWS).map(|r| 1u128 << (r * COLS + 7)).sum::<u128>();
    let sideways = ((bits & not_right) << 1) | ((bits & not_left) >> 1) | bits;
    (sideways | (sideways << COLS) | (sideways >> COLS)) & BOARD
}

/// The cell name, e.g. `D1`.
pub fn cell_name(cell: u8) -> String {
    let (row, col) = (u32::from(cell) / COLS, u32::from(cell) % COLS);
    format!("{}{}", (b'A' + col as u8) as char, row + 1)
}

fn parse_cell(column: &str, row: &str) -> Option<u8> {
    let mut letters = column.chars();
    let letter = letters.next()?.to_ascii_uppercase();
    if letters.next().is_some() || !('A'..='H').contains(&letter) {
        return None;
    }
    let row: u32 = row.parse().ok()?;
    (1..=ROWS)
        .contains(&row)
        .then(|| ((row - 1) * COLS + (letter as u32 - 'A' as u32)) as u8)
}

/// A position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct DoubleCard {
    occupied: u128,
    red: u128,
    solid: u128,
    cards: [(u8, u8); MAX_CARDS],
    placed: u8,
    moves: u8,
    /// The card placed or moved by the previous move (it may not be lifted next).
    last: Option<u8>,
    to_move: Player,
    params: Params,
}

impl DoubleCard {
    /// The empty board, player 1 to move.
    pub fn new(params: Params) -> DoubleCard {
        DoubleCard {
            occupied: 0,
            red: 0,
            solid: 0,
            cards: [(0, 0); MAX_CARDS],
            placed: 0,
            moves: 0,
            last: None,
            to_move: Player::P1,
            params,
        }
    }

    /// The parameters.
    pub fn params(&self) -> Params {
        self.params
    }

    /// The role of `player`.
    pub fn role(&self, player: Player) -> Role {
        match (player, self.params.p1) {
            (Player::P1, role) => role,
            (_, Role::Colors) => Role::Dots,
            (_, Role::Dots) => Role::Colors,
        }
    }

    /// Occupied cells, red halves, solid halves.
    pub fn masks(&self) -> (u128, u128, u128) {
        (self.occupied, self.red, self.solid)
    }

    /// Moves played so far.
    pub fn moves_played(&self) -> u8 {
        self.moves
    }

    /// Cards on the board.
    pub fn cards_on_board(&self) -> usize {
        usize::from(self.placed)
    }

    /// This position after random placements (seeded) that never end the game, until
    /// `cards` cards are on the board: quiet positions for tests and benchmarks.
    ///
    /// # Panics
    /// If every placement would end the game before `cards` cards (it does not happen
    /// from the start position with up to the 24 cards of the rules).
    pub fn quiet_filling(mut self, cards: usize, seed: u64) -> DoubleCard {
        let mut rng = crate::core::seeds::rng(seed);
        let mut moves = Vec::new();
        while self.cards_on_board() < cards {
            self.legal_moves(&mut moves);
            let quiet: Vec<Move> = moves
                .iter()
                .copied()
                .filter(|&m| {
                    let mut next = self;
                    next.apply(m);
                    next.outcome().is_none()
                })
                .collect();
            assert!(!quiet.is_empty(), "a quiet filling exists");
            self.apply(quiet[crate::core::seeds::below(&mut rng, quiet.len())]);
        }
        self
    }

    fn recycling(&self) -> bool {
        self.placed >= self.params.cards
    }

    /// Whether a card of `card_type` at `anchor` can be placed on the board `occupied`.
    fn fits(occupied: u128, card_type: u8, anchor: u8) -> bool {
        let Some((a, b)) = cells(card_type, anchor) else {
            return false;
        };
        if occupied & (bit(a) | bit(b)) != 0 {
            return false;
        }
        let supported = |cell: u8| cell < COLS as u8 || occupied & bit(cell - COLS as u8) != 0;
        supported(a) && (card_type.is_multiple_of(2) || supported(b))
    }

    /// The half-card on the cell of mask `b`: `R`/`W` (red or white) and `X`/`O` (solid
    /// or open dot); `None` when it is empty.
    fn cell_code(&self, b: u128) -> Option<&'static str> {
        (self.occupied & b != 0).then_some(match (self.red & b != 0, self.solid & b != 0) {
            (true, true) => "RX",
            (true, false) => "RO",
            (false, true) => "WX",
            (false, false) => "WO",
        })
    }

    fn card_cells(&self, index: u8) -> (u8, u8) {
        let (anchor, card_type) = self.cards[usize::from(index)];
        cells(card_type, anchor).expect("cards on the board are on the board")
    }

    /// Whether card `index` may be lifted: not the previous move's card, nothing on top.
    fn liftable(&self, index: u8) -> bool {
        if self.last == Some(index) {
            return false;
        }
        let (a, b) = self.card_cells(index);
        let own = bit(a) | bit(b);
        let above = |cell: u8| {
            if u32::from(cell) + COLS < 96 {
                bit(cell + COLS as u8)
            } else {
                0
            }
        };
        (above(a) | above(b)) & self.occupied & !own == 0
    }

    /// Every legal placement on the board `occupied`; with `neighbours_only`, only those
    /// touching an occupied cell (any of the eight neighbours of either cell), except on an
    /// empty board.
    fn placements(occupied: u128, neighbours_only: bool, mut emit: impl FnMut(u8, u8)) {
        let near = (neighbours_only && occupied != 0).then(|| neighbourhood(occupied));
        for anchor in 0..96u8 {
            for card_type in 1..=8u8 {
                if !Self::fits(occupied, card_type, anchor) {
                    continue;
                }
                if let Some(near) = near {
                    let (a, b) = cells(card_type, anchor).expect("fits");
                    if near & (bit(a) | bit(b)) == 0 {
                        continue;
                    }
                }
                emit(card_type, anchor);
            }
        }
    }

    fn decided(&self) -> Option<Outcome> {
        if self.moves == 0 {
            return None;
        }
        let white = self.occupied & !self.red;
        let hollow = self.occupied & !self.solid;
        let colour = lines_of_four(self.red & self.occupied) || lines_of_four(white);
        let dot = lines_of_four(self.solid & self.occupied) || lines_of_four(hollow);
        let mover = self.to_move.opponent();
        let player_of = |role: Role| {
            if self.role(Player::P1) == role {
                Player::P1
            } else {
                Player::P2
            }
        };
        let winner = match (colour, dot) {
            (true, true) => Some((mover, "both-lines")),
            (true, false) => Some((player_of(Role::Colors), "colour-line")),
            (false, true) => Some((player_of(Role::Dots), "dot-line")),
            (false, false) => None,
        };
        if let Some((winner, reason)) = winner {
            return Some(Outcome {
                winner: Some(winner),
                reason,
            });
        }
        (self.moves >= self.params.move_limit).then_some(Outcome {
            winner: None,
            reason: "move-limit",
        })
    }

    fn place(&mut self, card_type: u8, anchor: u8, index: u8) {
        let (a, b) = cells(card_type, anchor).expect("legal placement");
        let (first, second) = HALVES[usize::from(card_type - 1)];
        for (cell, (red, solid)) in [(a, first), (b, second)] {
            self.occupied |= bit(cell);
            if red {
                self.red |= bit(cell);
            }
            if solid {
                self.solid |= bit(cell);
            }
        }
        self.cards[usize::from(index)] = (anchor, card_type);
    }
}

impl Game for DoubleCard {
    type Move = Move;

    fn to_move(&self) -> Player {
        self.to_move
    }

    fn legal_moves(&self, out: &mut Vec<Move>) {
        out.clear();
        if self.decided().is_some() {
            return;
        }
        if !self.recycling() {
            Self::placements(
                self.occupied,
                self.params.neighbours_only,
                |card_type, anchor| {
                    out.push(Move {
                        lift: None,
                        card_type,
                        anchor,
                    })
                },
            );
            return;
        }
        for index in 0..self.placed {
            if !self.liftable(index) {
                continue;
            }
            let (a, b) = self.card_cells(index);
            let without = self.occupied & !(bit(a) | bit(b));
            let (old_anchor, old_type) = self.cards[usize::from(index)];
            Self::placements(without, self.params.neighbours_only, |card_type, anchor| {
                if (anchor, card_type) != (old_anchor, old_type) {
                    out.push(Move {
                        lift: Some(index),
                        card_type,
                        anchor,
                    });
                }
            });
        }
    }

    /// Placements low on the board first (they build on what is there).
    fn move_order_score(&self, mv: Move) -> i32 {
        -(i32::from(mv.anchor) / COLS as i32)
    }

    fn apply(&mut self, mv: Move) {
        let index = match mv.lift {
            Some(index) => {
                let (a, b) = self.card_cells(index);
                let clear = !(bit(a) | bit(b));
                self.occupied &= clear;
                self.red &= clear;
                self.solid &= clear;
                index
            }
            None => {
                self.placed += 1;
                self.placed - 1
            }
        };
        self.place(mv.card_type, mv.anchor, index);
        self.last = Some(index);
        self.moves += 1;
        self.to_move = self.to_move.opponent();
    }

    fn outcome(&self) -> Option<Outcome> {
        if let Some(outcome) = self.decided() {
            return Some(outcome);
        }
        // Only conceivable while recycling; chosen: a draw.
        (self.count_moves() == 0).then_some(Outcome {
            winner: None,
            reason: "no-moves",
        })
    }

    fn position_hash(&self) -> u64 {
        let fold = |x: u128| mix64(x as u64 ^ mix64((x >> 64) as u64));
        mix64(
            fold(self.occupied)
                ^ fold(self.red).rotate_left(21)
                ^ fold(self.solid).rotate_left(42)
                ^ (u64::from(self.moves) << 8
                    | u64::from(self.last.unwrap_or(255)) << 16
                    | self.to_move as u64),
        )
    }

    fn piece_count(&self, _player: Player) -> u32 {
        0
    }

    fn write_move(&self, mv: Move, out: &mut String) {
        let (row, col) = (u32::from(mv.anchor) / COLS + 1, u32::from(mv.anchor) % COLS);
        let column = (b'A' + col as u8) as char;
        match mv.lift {
            None => {
                let _ = write!(out, "0 {} {column} {row}", mv.card_type);
            }
            Some(index) => {
                let (a, b) = self.card_cells(index);
                let name = |c: u8| {
                    let n = cell_name(c);
                    format!("{} {}", &n[..1], &n[1..])
                };
                let _ = write!(
                    out,
                    "{} {} {} {column} {row}",
                    name(a),
                    name(b),
                    mv.card_type
                );
            }
        }
    }

    fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        let error = |reason: String| MoveError {
            text: text.to_string(),
            reason,
        };
        let parts: Vec<&str> = text.split_whitespace().collect();
        let card_type = |t: &str| {
            t.parse::<u8>()
                .ok()
                .filter(|t| (1..=8).contains(t))
                .ok_or_else(|| error(format!("card type '{t}' must be 1 to 8")))
        };
        let cell = |c: &str, r: &str| {
            parse_cell(c, r)
                .ok_or_else(|| error(format!("'{c} {r}' is not a cell (columns A-H, rows 1-12)")))
        };
        let mv = match parts.as_slice() {
            ["0", t, c, r] => {
                if self.recycling() {
                    return Err(error(format!(
                        "all {} cards are down: from move {} on, every move recycles a card (C1 R1 C2 R2 T C R)",
                        self.params.cards,
                        self.params.cards + 1
                    )));
                }
                let (card_type, anchor) = (card_type(t)?, cell(c, r)?);
                if cells(card_type, anchor).is_none() {
                    return Err(error("the card's second cell is off the board".to_string()));
                }
                if !Self::fits(self.occupied, card_type, anchor) {
                    let (a, b) = cells(card_type, anchor).expect("checked");
                    let reason = if self.occupied & (bit(a) | bit(b)) != 0 {
                        "a cell of the card is already occupied"
                    } else {
                        "the card would hang over an empty cell"
                    };
                    return Err(error(reason.to_string()));
                }
                Move {
                    lift: None,
                    card_type,
                    anchor,
                }
            }
            [c1, r1, c2, r2, t, c, r] => {
                if !self.recycling() {
                    return Err(error(format!(
                        "recycling starts once all {} cards are down; place a card with 0 T C R",
                        self.params.cards
                    )));
                }
                let (x, y) = (cell(c1, r1)?, cell(c2, r2)?);
                let index = (0..self.placed)
                    .find(|&i| {
                        let (a, b) = self.card_cells(i);
                        (a, b) == (x, y) || (a, b) == (y, x)
                    })
                    .ok_or_else(|| {
                        error("those two cells are not the halves of one card".to_string())
                    })?;
                if self.last == Some(index) {
                    return Err(error(
                        "that card was just placed or moved by the opponent".to_string(),
                    ));
                }
                if !self.liftable(index) {
                    return Err(error("another card lies on top of that card".to_string()));
                }
                let (card_type, anchor) = (card_type(t)?, cell(c, r)?);
                if self.cards[usize::from(index)] == (anchor, card_type) {
                    return Err(error(
                        "the card must move or turn: same anchor and type".to_string(),
                    ));
                }
                let (a, b) = self.card_cells(index);
                let without = self.occupied & !(bit(a) | bit(b));
                if cells(card_type, anchor).is_none() {
                    return Err(error("the card's second cell is off the board".to_string()));
                }
                if !Self::fits(without, card_type, anchor) {
                    return Err(error(
                        "the new place is occupied or would hang over an empty cell".to_string(),
                    ));
                }
                Move {
                    lift: Some(index),
                    card_type,
                    anchor,
                }
            }
            _ => {
                return Err(error(
                    "expected '0 T C R' (place a card) or 'C1 R1 C2 R2 T C R' (recycle one)"
                        .to_string(),
                ));
            }
        };
        check_legal(self, mv, text, || "not a legal move here".to_string())
    }

    fn position_json(&self) -> serde_json::Value {
        let board: Vec<Vec<&str>> = (0..ROWS)
            .map(|row| {
                (0..COLS)
                    .map(|col| self.cell_code(bit((row * COLS + col) as u8)).unwrap_or(""))
                    .collect()
            })
            .collect();
        let cards: Vec<serde_json::Value> = (0..self.placed)
            .map(|index| {
                let (a, b) = self.card_cells(index);
                serde_json::json!({
                    "type": self.cards[usize::from(index)].1,
                    "cells": [cell_name(a), cell_name(b)],
                })
            })
            .collect();
        let role = |player: Player| match self.role(player) {
            Role::Colors => "colors",
            Role::Dots => "dots",
        };
        serde_json::json!({
            "to_move": self.to_move.label(),
            "moves": self.moves,
            "cards_placed": self.placed,
            "last_card": self.last,
            "roles": { "P1": role(Player::P1), "P2": role(Player::P2) },
            "rules": {
                "cards": self.params.cards,
                "moves": self.params.move_limit,
                "neighbours_only": self.params.neighbours_only,
            },
            "cards": cards,
            "board": board,
        })
    }

    fn board_dump(&self) -> String {
        let mut text = String::with_capacity(12 * 28);
        for row in (0..ROWS).rev() {
            let _ = write!(text, "{:>2}", row + 1);
            for col in 0..COLS {
                let b = bit((row * COLS + col) as u8);
                let cell = self.cell_code(b).unwrap_or("..");
                text.push(' ');
                text.push_str(cell);
            }
            text.push('\n');
        }
        text.push_str("   A  B  C  D  E  F  G  H\n");
        text
    }
}
