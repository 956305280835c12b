//! Bare loops for `arbiter bench` to measure itself against: Breakthrough 8x8 written
//! directly on two `u64` bitboards (bit `8 * row + col`, P1 on rows 0-1 moving up), with no
//! trait, no move list type and no record: perft, random playouts and alpha-beta with
//! material (visiting the nodes arbiter's alpha-beta visits, in its order). arbiter's own
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

    /// The three move directions' targets in arbiter's `legal_moves` order: straight,
    /// then the diagonal towards higher columns, then towards lower ones.
    fn targets(&self) -> [(u64, i32); 3] {
        let empty = !(self.own | self.opp);
        if self.up {
            [
                ((self.own << 8) & empty, -8),
                (((self.own & NOT_LAST_COL) << 9) & !self.own, -9),
                (((self.own & NOT_FIRST_COL) << 7) & !self.own, -7),
            ]
        } else {
            [
                ((self.own >> 8) & empty, 8),
                (((self.own & NOT_LAST_COL) >> 7) & !self.own, 7),
                (((self.own & NOT_FIRST_COL) >> 9) & !self.own, 9),
            ]
        }
    }

    /// Whether the side to move has no move. As in arbiter's `outcome`, only a side with a
    /// piece on its own goal row can be without one (its most advanced piece otherwise has
    /// a diagonal step ahead), so only then are the moves counted.
    fn stuck(&self) -> bool {
        let goal = if self.up { LAST_ROW } else { FIRST_ROW };
        self.own & goal != 0 && self.count() == 0
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

/// The value of a won game in the alpha-beta below (arbiter's `WIN_SCORE`).
const WIN: f64 = 1_000_000.0;

/// Fail-soft alpha-beta to a fixed depth with material (own pieces minus the other side's,
/// for the side to move at the root) as arbiter's `alphabeta` with `material` searches:
/// the same move order, the same terminal scores, nodes counted the same way (an inner
/// node expanded, a leaf or finished position evaluated). `board`: the position, whose
/// side to move is the root's; `root_moves`: (from, to) in the order to try them.
/// Returns the nodes visited (expanded + evaluated).
pub fn alphabeta(own: u64, opp: u64, up: bool, root_moves: &[(u32, u32)], depth: u32) -> u64 {
    fn search(
        board: &Board,
        root_to_move: bool,
        depth: u32,
        mut alpha: f64,
        mut beta: f64,
        nodes: &mut u64,
    ) -> f64 {
        // A finished game: the side that just moved reached its goal or took every piece,
        // or the side to move has no move.
        if board.over() || board.stuck() {
            *nodes += 1;
            // The side that just moved won: the root's side unless the root is to move.
            return if root_to_move { -WIN } else { WIN };
        }
        if depth == 0 {
            *nodes += 1;
            let (mine, theirs) = if root_to_move {
                (board.own, board.opp)
            } else {
                (board.opp, board.own)
            };
            return f64::from(mine.count_ones()) - f64::from(theirs.count_ones());
        }
        *nodes += 1;
        let maximizing = root_to_move;
        let mut best = if maximizing {
            f64::NEG_INFINITY
        } else {
            f64::INFINITY
        };
        for (mut targets, back) in board.targets() {
            while targets != 0 {
                let to = targets.trailing_zeros();
                targets &= targets - 1;
                let child = board.after((to as i32 + back) as u32, to);
                let value = search(&child, !root_to_move, depth - 1, alpha, beta, nodes);
                if maximizing {
                    best = best.max(value);
                    alpha = alpha.max(best);
                } else {
                    best = best.min(value);
                    beta = beta.min(best);
                }
                if alpha >= beta {
                    return best;
                }
            }
        }
        best
    }
    let board = Board { own, opp, up };
    let mut nodes = u64::from(!root_moves.is_empty());
    let mut best: Option<f64> = None;
    for &(from, to) in root_moves {
        let child = board.after(from, to);
        let alpha = best.unwrap_or(f64::NEG_INFINITY);
        let value = search(&child, false, depth - 1, alpha, f64::INFINITY, &mut nodes);
        if best.is_none_or(|b| value > b) {
            best = Some(value);
        }
    }
    nodes
}

/// A root of the bare alpha-beta: the side to move's pieces, the other's, whether it moves
/// up, its moves in the order arbiter's search tries them.
pub type Root = (u64, u64, bool, Vec<(u32, u32)>);

/// The roots of `positions` for the bare alpha-beta, their moves in the order arbiter's
/// search tries them: shuffled by a generator seeded 7, as `alphabeta_on` in the bench
/// seeds the search's.
pub fn alphabeta_roots(positions: &[crate::games::breakthrough::Breakthrough]) -> Vec<Root> {
    use crate::core::{Game, Player, seeds};
    let mut order = seeds::rng(7);
    let mut moves = Vec::new();
    positions
        .iter()
        .map(|position| {
            position.legal_moves(&mut moves);
            seeds::shuffle(&mut order, &mut moves);
            let side = position.to_move();
            (
                position.pieces(side),
                position.pieces(side.opponent()),
                side == Player::P1,
                moves
                    .iter()
                    .map(|m| (u32::from(m.from), u32::from(m.to)))
                    .collect(),
            )
        })
        .collect()
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
                let child = board.after((to as i32 + back) as u32, to);
                // The last ply counted in the loop, as arbiter's perft does.
                total += if depth == 2 {
                    if child.over() { 0 } else { child.count() }
                } else {
                    walk(&child, depth - 1)
                };
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

/// The bare kernels' generator: xorshift64 seeded with `seed`, the cheapest there is.
pub fn xorshift(seed: u64) -> impl FnMut() -> u64 {
    let mut state = seed | 1;
    move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    }
}

/// Plays `games` random games from the start (moves drawn uniformly by a xorshift
/// generator seeded with `seed`); returns the plies played in all.
pub fn random_playouts(games: u64, seed: u64) -> u64 {
    let mut next = xorshift(seed);
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

    /// Nodes of arbiter's `alphabeta` with `material` to `depth` on `positions` (as
    /// `arbiter bench` searches them) and of the bare alpha-beta on the same positions in
    /// the same root order: (arbiter's, the kernel's).
    fn alphabeta_nodes(
        positions: &[crate::games::breakthrough::Breakthrough],
        depth: u32,
    ) -> (u64, u64) {
        use crate::registry::GameEntry;
        let material = positions[0]
            .heuristic("material", &[])
            .expect("material exists");
        let (arbiter, _, _) = super::super::measure::alphabeta_on(positions, material, depth);
        let bare = super::alphabeta_roots(positions)
            .iter()
            .map(|(own, opp, up, moves)| super::alphabeta(*own, *opp, *up, moves, depth))
            .sum();
        (arbiter, bare)
    }

    #[test]
    fn the_bare_alphabeta_visits_the_nodes_arbiters_visits() {
        use crate::games::breakthrough::{Breakthrough, Rules};
        let start = Breakthrough::new(Rules::Standard);
        let positions = crate::games::random_positions(&start, 12, 10, 60, 5);
        for depth in 1..=4 {
            let nodes = alphabeta_nodes(&positions, depth);
            assert_eq!(nodes.0, nodes.1, "depth {depth}");
            assert!(nodes.0 > 12, "depth {depth}");
        }
    }
}
