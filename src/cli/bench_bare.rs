//! Bare loops for `arbiter bench` to measure itself against: Breakthrough 8x8 written
//! directly on two `u64` bitboards (bit `8 * row + col`, P1 on rows 0-1 moving up), with no
//! trait, no move list type and no record: perft and random playouts. arbiter's own
//! figures are shown as a ratio to these, which holds on any machine.

/// Columns a..g and b..h: where a diagonal step to the right or to the left may start.
const NOT_LAST_COL: u64 = 0x7f7f_7f7f_7f7f_7f7f;
const NOT_FIRST_COL: u64 = 0xfefe_fefe_fefe_fefe;
const LAST_ROW: u64 = 0xff00_0000_0000_0000;
const FIRST_ROW: u64 = 0x0000_0000_0000_00ff;

/// A position: the side to move's pieces, the other side's, and whether the side to move
/// goes up (P1).
#[derive(Clone, Copy)]
struct Board {
    own: u64,
    opp: u64,
    up: bool,
}

impl Board {
    fn start() -> Board {
        Board {
            own: 0xffff,
            opp: 0xffff_0000_0000_0000,
            up: true,
        }
    }

    /// Whether the side that just moved has won: a piece on its goal row, or no enemy left.
    fn over(&self) -> bool {
        let goal = if self.up { FIRST_ROW } else { LAST_ROW };
        self.opp & goal != 0 || self.own == 0
    }

    /// The targets of the three move directions: straight (to an empty square), and the
    /// two diagonals (to a square not one's own); each with the shift back to its origin.
    fn targets(&self) -> [(u64, i32); 3] {
        let empty = !(self.own | self.opp);
        if self.up {
            [
                ((self.own << 8) & empty, -8),
                (((self.own & NOT_FIRST_COL) << 7) & !self.own, -7),
                (((self.own & NOT_LAST_COL) << 9) & !self.own, -9),
            ]
        } else {
            [
                ((self.own >> 8) & empty, 8),
                (((self.own & NOT_LAST_COL) >> 7) & !self.own, 7),
                (((self.own & NOT_FIRST_COL) >> 9) & !self.own, 9),
            ]
        }
    }

    fn count(&self) -> u64 {
        self.targets()
            .iter()
            .map(|(t, _)| u64::from(t.count_ones()))
            .sum()
    }

    /// The position after moving from `from` to `to`, the other side to move.
    fn after(&self, from: u32, to: u32) -> Board {
        let own = (self.own & !(1u64 << from)) | (1u64 << to);
        Board {
            own: self.opp & !(1u64 << to),
            opp: own,
            up: !self.up,
        }
    }
}

/// Leaves of the legal-move tree `depth` plies deep from the start, the last ply counted
/// in bulk (as arbiter's perft).
pub fn perft(depth: u32) -> u64 {
    fn walk(board: &Board, depth: u32) -> u64 {
        if board.over() {
            return 0;
        }
        if depth == 1 {
            return board.count();
        }
        let mut total = 0;
        for (mut targets, back) in board.targets() {
            while targets != 0 {
                let to = targets.trailing_zeros();
                targets &= targets - 1;
                total += walk(&board.after((to as i32 + back) as u32, to), depth - 1);
            }
        }
        total
    }
    if depth == 0 {
        1
    } else {
        walk(&Board::start(), depth)
    }
}

/// Plays `games` random games from the start (moves drawn uniformly by a xorshift
/// generator seeded with `seed`); returns the plies played in all.
pub fn random_playouts(games: u64, seed: u64) -> u64 {
    let mut state = seed | 1;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let mut plies = 0;
    for _ in 0..games {
        let mut board = Board::start();
        while !board.over() {
            let targets = board.targets();
            let count = board.count();
            if count == 0 {
                break;
            }
            // The k-th move in the order of the three directions.
            let mut k = next() % count;
            for (mut set, back) in targets {
                let n = u64::from(set.count_ones());
                if k >= n {
                    k -= n;
                    continue;
                }
                for _ in 0..k {
                    set &= set - 1;
                }
                let to = set.trailing_zeros();
                board = board.after((to as i32 + back) as u32, to);
                break;
            }
            plies += 1;
        }
    }
    plies
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_bare_kernel_counts_as_the_game_does() {
        use crate::games::perft;
        let start = crate::games::breakthrough::Breakthrough::new(
            crate::games::breakthrough::Rules::Standard,
        );
        for depth in 1..=4 {
            assert_eq!(super::perft(depth), perft(&start, depth), "depth {depth}");
        }
        // Random games end, with a goal reached, after a plausible number of plies.
        let plies = super::random_playouts(100, 7);
        assert!((100 * 20..100 * 200).contains(&plies), "{plies}");
    }
}
