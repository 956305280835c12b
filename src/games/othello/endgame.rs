//! Othello's last empty squares, solved by the game itself for the exact solver's margin
//! mode (`solve-game --margin`): a plain fail-soft alpha-beta on the two bitboards, no
//! table (so near the end that a table costs more than it saves), fastest-first order while
//! there are more than [`PARITY_BELOW`] empties and the empties of odd regions first after
//! that, the last empty square counted without making the move, and a cut where the
//! opponent's discs that can never turn leave the mover no way to reach the window. The
//! generic solver hands a position over at [`SMALL`] empties and keeps its table above
//! that; above it, the game gives the stability cut and the move order (the pattern
//! evaluation with [`order_key`] from [`PATTERNS_FROM`] empties, a [`shallow`] search of it
//! from [`ORDER_SEARCH_FROM`], else [`order_key`] alone).
//!
//! Scores are disc margins for the side to move, the empty squares of a finished game going
//! to its winner (as the FFO test positions count).

use super::{flips, moves_of};
use crate::core::SearchCounts;

/// Every square but column a's, and every square but column h's.
const NOT_A: u64 = 0xfefe_fefe_fefe_fefe;
const NOT_H: u64 = 0x7f7f_7f7f_7f7f_7f7f;

/// The solver hands positions with at most this many empty squares to [`search`].
pub const SMALL: u32 = 9;

/// From this many empties the opponent's stable discs are counted for a cut.
const STABILITY_FROM: u32 = 4;

/// Below this many empties the order is by region parity, not by the opponent's mobility.
const PARITY_BELOW: u32 = 6;

/// The final margin of a finished game for the side with `own` discs.
#[inline]
pub fn final_margin(own: u64, other: u64) -> i32 {
    let (own, other) = (own.count_ones() as i32, other.count_ones() as i32);
    let empties = 64 - own - other;
    match own.cmp(&other) {
        std::cmp::Ordering::Greater => own - other + empties,
        std::cmp::Ordering::Less => own - other - empties,
        std::cmp::Ordering::Equal => 0,
    }
}

/// The exact margin for the side with `own` discs to move, fail-soft within
/// `alpha..beta`; counts as the generic solver does (a pass is a move, its position visited
/// and expanded).
pub fn search(own: u64, other: u64, alpha: i32, beta: i32, counts: &mut SearchCounts) -> i32 {
    counts.visited += 1;
    let empty = !(own | other);
    let empties = empty.count_ones();
    if empties == 1 {
        return last_square(own, other, empty.trailing_zeros() as u8, counts);
    }
    if empties == 2 {
        return two_empties(own, other, empty, alpha, beta, counts);
    }
    if empties >= STABILITY_FROM
        && let Some(bound) = stability_cut(own, other, alpha)
    {
        return bound;
    }
    if empties <= PARITY_BELOW {
        return few_empties(own, other, empty, alpha, beta, counts);
    }
    let moves = moves_of(own, other);
    if moves == 0 {
        return pass(own, other, alpha, beta, counts);
    }
    counts.expanded += 1;
    // Fastest first (see `order_key`).
    let mut order = [(0u32, 0u64, 0u8); 32];
    let mut count = 0;
    let mut squares = moves;
    while squares != 0 {
        let square = squares.trailing_zeros() as u8;
        squares &= squares - 1;
        let turned = flips(own, other, square);
        let key = order_key(other & !turned, own | turned | (1 << square));
        order[count] = (key, turned, square);
        count += 1;
    }
    let order = &mut order[..count];
    order.sort_unstable_by_key(|&(key, _, _)| key);
    let mut node = Node::new(own, other, alpha, beta);
    for &(_, turned, square) in order.iter() {
        if node.play(square, turned, counts) {
            return node.best;
        }
    }
    node.best
}

/// How late to try a move that leaves the opponent `theirs` to move against `mine`:
/// fewest replies first (a corner reply counting double), then fewest empty squares next
/// to the mover's discs (the opponent's replies to come).
#[inline]
pub(super) fn order_key(theirs: u64, mine: u64) -> u32 {
    order_key_of(moves_of(theirs, mine), mine, theirs | mine)
}

/// [`order_key`] from the opponent's `replies`, the mover's discs and every disc.
#[inline]
pub(super) fn order_key_of(replies: u64, mine: u64, filled: u64) -> u32 {
    let replies = (replies & !CORNERS).count_ones() + 2 * (replies & CORNERS).count_ones();
    let frontier = neighbours(mine) & !filled;
    replies * 4 + frontier.count_ones()
}

/// The squares next to `discs` (in the eight directions), the discs' own included.
#[inline]
fn neighbours(discs: u64) -> u64 {
    let row = discs | ((discs << 1) & NOT_A) | ((discs >> 1) & NOT_H);
    row | (row << 8) | (row >> 8)
}

/// A fail-soft upper bound at or below `alpha` for the side with `own` discs when the
/// opponent has so many discs that can never turn that the mover cannot do better (its
/// margin is at most 64 less twice those discs); `None` when no such cut is proven.
#[inline]
pub fn stability_cut(own: u64, other: u64, alpha: i32) -> Option<i32> {
    // Even if every disc of the opponent were stable, the bound would not reach alpha.
    if 64 - 2 * other.count_ones() as i32 > alpha {
        return None;
    }
    let best = 64 - 2 * stable_discs(other, own | other).count_ones() as i32;
    (best <= alpha).then_some(best)
}

/// Discs of `discs` that can never turn (`filled`: every disc on the board): in each of
/// the four line directions, the line through it is full, or its neighbour one way along
/// it is the edge or a disc of its own known never to turn (a turn along that line would
/// turn the neighbour too).
#[inline]
pub(super) fn stable_discs(discs: u64, filled: u64) -> u64 {
    // Squares whose whole line is filled, per direction.
    let full_row = {
        let mut f = filled;
        f &= f >> 4;
        f &= f >> 2;
        f &= f >> 1;
        (f & 0x0101_0101_0101_0101) * 0xff
    };
    let full_column = {
        let mut f = filled;
        f &= f.rotate_right(32);
        f &= f.rotate_right(16);
        f &= f.rotate_right(8);
        f
    };
    let full_diagonal = |up: fn(u64) -> u64, down: fn(u64) -> u64| {
        // A square's diagonal is full when every square of it is: spread the empties
        // along the diagonal both ways.
        let mut empty = !filled;
        for _ in 0..7 {
            empty |= up(empty) | down(empty);
        }
        !empty
    };
    let full_down_right = full_diagonal(|b| (b << 9) & NOT_A, |b| (b >> 9) & NOT_H);
    let full_down_left = full_diagonal(|b| (b << 7) & NOT_H, |b| (b >> 7) & NOT_A);
    // The edge counts as a stable neighbour: off-board squares are "stable" in a shift.
    let mut stable = 0u64;
    loop {
        let next = discs
            & (full_row | ((stable << 1) | !NOT_A) | ((stable >> 1) | !NOT_H))
            & (full_column | (stable << 8) | (stable >> 8) | 0xff00_0000_0000_00ff)
            & (full_down_right
                | (stable << 9)
                | (stable >> 9)
                | !NOT_A
                | !NOT_H
                | 0xff00_0000_0000_00ff)
            & (full_down_left
                | (stable << 7)
                | (stable >> 7)
                | !NOT_A
                | !NOT_H
                | 0xff00_0000_0000_00ff);
        if next == stable {
            return stable;
        }
        stable = next;
    }
}

/// Below any margin: the best score of a position before its first move is searched.
const NO_SCORE: i32 = -65;

/// A position being searched: its sides, its window and the best score so far.
struct Node {
    own: u64,
    other: u64,
    alpha: i32,
    beta: i32,
    best: i32,
}

impl Node {
    /// Nothing searched yet: the best score below any margin.
    #[inline(always)]
    fn new(own: u64, other: u64, alpha: i32, beta: i32) -> Node {
        Node {
            own,
            other,
            alpha,
            beta,
            best: NO_SCORE,
        }
    }

    /// Searches the move to `square` that turns `turned`, raising the best score and alpha
    /// by its score; whether it cuts (alpha reached beta).
    #[inline(always)]
    fn play(&mut self, square: u8, turned: u64, counts: &mut SearchCounts) -> bool {
        let (theirs, mine) = (self.other & !turned, self.own | turned | (1 << square));
        let score = -search(theirs, mine, -self.beta, -self.alpha, counts);
        if score > self.best {
            self.best = score;
            self.alpha = self.alpha.max(score);
        }
        self.alpha >= self.beta
    }
}

/// A position whose side to move has no move: the game is over, or it passes.
#[inline]
fn pass(own: u64, other: u64, alpha: i32, beta: i32, counts: &mut SearchCounts) -> i32 {
    if moves_of(other, own) == 0 {
        return final_margin(own, other);
    }
    counts.expanded += 1;
    -search(other, own, -beta, -alpha, counts)
}

/// Few empties: each empty square tried as it comes (no move generation), those of
/// regions with an odd count of empties first (the side moving there often gets the
/// region's last move).
fn few_empties(
    own: u64,
    other: u64,
    empty: u64,
    alpha: i32,
    beta: i32,
    counts: &mut SearchCounts,
) -> i32 {
    let mut node = Node::new(own, other, alpha, beta);
    let odd = odd_regions(empty);
    let mut moved = false;
    for part in [empty & odd, empty & !odd] {
        let mut squares = part;
        while squares != 0 {
            let square = squares.trailing_zeros() as u8;
            squares &= squares - 1;
            let turned = flips(own, other, square);
            if turned == 0 {
                continue;
            }
            if !moved {
                moved = true;
                counts.expanded += 1;
            }
            if node.play(square, turned, counts) {
                return node.best;
            }
        }
    }
    if !moved {
        return pass(own, other, alpha, beta, counts);
    }
    node.best
}

/// Two empties: each tried in turn (the lower square first, as [`few_empties`] would
/// order them: two squares are both odd regions or one even one), the other then the last
/// square; the same positions counted, without the loop's bookkeeping.
#[inline]
fn two_empties(
    own: u64,
    other: u64,
    empty: u64,
    alpha: i32,
    beta: i32,
    counts: &mut SearchCounts,
) -> i32 {
    let first = empty.trailing_zeros() as u8;
    let second = (63 - empty.leading_zeros()) as u8;
    let mut best = NO_SCORE;
    for (square, last) in [(first, second), (second, first)] {
        let turned = flips(own, other, square);
        if turned == 0 {
            continue;
        }
        if best == NO_SCORE {
            counts.expanded += 1;
        }
        counts.visited += 1;
        let (theirs, mine) = (other & !turned, own | turned | (1 << square));
        let score = -last_square(theirs, mine, last, counts);
        if score > best {
            best = score;
            if score >= beta {
                return best;
            }
        }
    }
    if best == NO_SCORE {
        return pass(own, other, alpha, beta, counts);
    }
    best
}

/// Moves leaving at least this many empties are ordered by the pattern evaluation (with
/// [`FASTEST_WEIGHT`]), those leaving fewer (9: the game's own search takes the position)
/// by [`order_key`] alone. From 9 (every move the solver orders), in the tuning's
/// configuration (docs/speed.md): #44, #45, #47 and #48 4% fewer positions, 5% more time.
pub const PATTERNS_FROM: u32 = 10;

/// Moves leaving at least this many empties are ordered by a [`shallow`] search
/// [`ORDER_DEPTH`] plies deep on the pattern evaluation; below, by the evaluation of the
/// position after the move. From 16: 10% fewer positions, 15% more time; from 20: 9% more
/// positions, about the same time (FFO #44, #45, #47, #48).
pub const ORDER_SEARCH_FROM: u32 = 18;

/// A margin this large leaves the opponent one disc at most (a margin is at most 64 less
/// twice the opponent's discs): tests for it order fastest first at any depth.
pub const WIPE_OUT: i32 = 62;

/// How deep the ordering search of [`ORDER_SEARCH_FROM`] looks (1: 16% more positions).
pub const ORDER_DEPTH: u32 = 3;

/// What a unit of [`order_key`] (4 a reply, 1 an empty square next to the mover's discs)
/// costs a move in the order, in the evaluation's 1/32 of a disc: a reply a move leaves
/// the opponent counts 4 discs against it. 8, 16, 32, 48, 64 tried: 32 best by time.
pub const FASTEST_WEIGHT: i32 = 32;

/// A plain alpha-beta `depth` plies deep on the pattern evaluation `weights` (a finished
/// game: its margin at the evaluation's scale), for move order.
pub(super) fn shallow(
    weights: &super::patterns::Weights,
    own: u64,
    other: u64,
    depth: u32,
    mut alpha: i32,
    beta: i32,
) -> i32 {
    if depth == 0 {
        return weights.evaluate(own, other);
    }
    let moves = moves_of(own, other);
    if moves == 0 {
        if moves_of(other, own) == 0 {
            return final_margin(own, other) * super::patterns::SCALE as i32;
        }
        return -shallow(weights, other, own, depth - 1, -beta, -alpha);
    }
    let mut best = i32::MIN + 1;
    let mut squares = moves;
    while squares != 0 {
        let square = squares.trailing_zeros() as u8;
        squares &= squares - 1;
        let (theirs, mine) = super::after(own, other, square);
        let score = -shallow(weights, theirs, mine, depth - 1, -beta, -alpha);
        if score > best {
            best = score;
            alpha = alpha.max(score);
            if alpha >= beta {
                break;
            }
        }
    }
    best
}

pub(super) const CORNERS: u64 = 0x8100_0000_0000_0081;

/// The squares of the board's quarters that hold an odd number of `empty` squares.
#[inline]
fn odd_regions(empty: u64) -> u64 {
    const QUARTERS: [u64; 4] = [
        0x0000_0000_0f0f_0f0f,
        0x0000_0000_f0f0_f0f0,
        0x0f0f_0f0f_0000_0000,
        0xf0f0_f0f0_0000_0000,
    ];
    let mut odd = 0;
    for quarter in QUARTERS {
        if (empty & quarter).count_ones() % 2 == 1 {
            odd |= quarter;
        }
    }
    odd
}

/// The margin with one empty square left, `square`: the side to move takes it if it turns
/// something, else the other side does, else it stays empty; counted without a board.
#[inline]
fn last_square(own: u64, other: u64, square: u8, counts: &mut SearchCounts) -> i32 {
    // Every other square is filled: 63 discs, `mine` of them the mover's.
    let mine = own.count_ones() as i32;
    let turned = last_turns(own, square) as i32;
    if turned != 0 {
        counts.expanded += 1;
        counts.visited += 1;
        // The mover ends with mine + turned + 1 of the 64 discs.
        return 2 * (mine + turned) - 62;
    }
    let turned = last_turns(other, square) as i32;
    if turned != 0 {
        // A pass, then the opponent's move: two positions more, as the solver counts.
        counts.expanded += 2;
        counts.visited += 2;
        return 2 * (mine - turned) - 64;
    }
    // The square stays empty and goes to the winner (63 discs: never a tie).
    let margin = 2 * mine - 63;
    margin + margin.signum()
}

/// Every square of column a.
const FILE_A: u64 = 0x0101_0101_0101_0101;

/// How many discs a disc of `own`'s side on `square` turns when every other square is
/// filled (the last empty square): the sum over its four lines of [`LINE_TURNS`], each line
/// gathered into a byte by one multiplication.
#[inline]
pub(super) fn last_turns(own: u64, square: u8) -> u32 {
    let (row, column) = (u32::from(square / 8), u32::from(square % 8));
    let lines = &LINES_THROUGH[usize::from(square)];
    // A row: its byte. A column: turned onto the top byte, row i at bit 7 - i. A diagonal:
    // each square in its own column, so the multiplication stacks them in the top byte,
    // the square of column j at bit j (squares off the diagonal read as the opponent's:
    // a run of them meets the edge, as the diagonal's own run would).
    let row_bits = (own >> (8 * row)) & 0xff;
    let column_bits = ((own >> column) & FILE_A).wrapping_mul(0x8040_2010_0804_0201) >> 56;
    let down_bits = (own & lines[0]).wrapping_mul(FILE_A) >> 56;
    let up_bits = (own & lines[1]).wrapping_mul(FILE_A) >> 56;
    let turns = |place: u32, bits: u64| u32::from(LINE_TURNS[place as usize][bits as usize]);
    turns(column, row_bits)
        + turns(7 - row, column_bits)
        + turns(column, down_bits)
        + turns(column, up_bits)
}

/// The two diagonals through each square: down-right (a1 towards h8) and up-right.
const LINES_THROUGH: [[u64; 2]; 64] = {
    let mut lines = [[0u64; 2]; 64];
    let mut square = 0;
    while square < 64 {
        let (row, column) = (square as i32 / 8, square as i32 % 8);
        let mut other: usize = 0;
        while other < 64 {
            let (r, c) = (other as i32 / 8, other as i32 % 8);
            if r - c == row - column {
                lines[square][0] |= 1 << other;
            }
            if r + c == row + column {
                lines[square][1] |= 1 << other;
            }
            other += 1;
        }
        square += 1;
    }
    lines
};

/// The discs turned along a full line of eight squares by a disc placed at `place`, when
/// bit j of the index says square j is the mover's (else the opponent's): the run of the
/// opponent's discs each way, if the mover's disc closes it before the edge.
const LINE_TURNS: [[u8; 256]; 8] = {
    let mut table = [[0u8; 256]; 8];
    let mut place = 0;
    while place < 8 {
        let mut bits = 0;
        while bits < 256 {
            let mut turned = 0;
            let mut j = place + 1;
            while j < 8 && bits & (1 << j) == 0 {
                j += 1;
            }
            if j < 8 {
                turned += j - place - 1;
            }
            let mut j = place as i32 - 1;
            while j >= 0 && bits & (1 << j) == 0 {
                j -= 1;
            }
            if j >= 0 {
                turned += place - j as usize - 1;
            }
            table[place][bits] = turned as u8;
            bits += 1;
        }
        place += 1;
    }
    table
};
