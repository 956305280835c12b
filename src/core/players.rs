//! Players: the seats of a game ([`Player`]), a two-player game's per-player pairs
//! ([`ByPlayer`]), each player's returns and places ([`Returns`]) and how a game ended
//! ([`Outcome`]).

use std::fmt;

/// A seat at the table: one of the two sides of a two-player game, or one of up to six
/// players ([`Game::players`](super::Game::players)). `P1` is the side that starts on the low rows (Breakthrough)
/// or otherwise the side the rules call "player 1"; seats move in order P1, P2, P3, ...
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
#[repr(u8)]
pub enum Player {
    /// Player 1.
    P1,
    /// Player 2.
    P2,
    /// Player 3 (games of three or more).
    P3,
    /// Player 4.
    P4,
    /// Player 5.
    P5,
    /// Player 6.
    P6,
}

impl Player {
    /// The most players a game may have.
    pub const MAX: usize = 6;

    /// Both players of a two-player game, P1 first.
    pub const BOTH: [Player; 2] = [Player::P1, Player::P2];

    /// Every seat, P1 first.
    pub const ALL: [Player; Player::MAX] = [
        Player::P1,
        Player::P2,
        Player::P3,
        Player::P4,
        Player::P5,
        Player::P6,
    ];

    /// The first `players` seats, P1 first (all six when `players` is larger).
    pub fn seats(players: usize) -> &'static [Player] {
        &Player::ALL[..players.min(Player::MAX)]
    }

    /// The seat of index `index` (0 for P1), if there is one.
    pub fn seat(index: usize) -> Option<Player> {
        Player::ALL.get(index).copied()
    }

    /// The other side of a two-player game. A seat past P2 has no single opponent (a game
    /// of more players names whom it means with [`Player::next`]); it is given its
    /// neighbour P3-P4, P5-P6, so that the two-player case stays one exclusive or: written
    /// as a `match`, the compiler made it a table lookup, and Breakthrough's alpha-beta
    /// lost 5% of its speed.
    #[inline]
    pub fn opponent(self) -> Player {
        // SAFETY: `Player` is `repr(u8)` with the discriminants 0 to 5 and no others;
        // flipping the lowest bit maps each of them to another of them (0-1, 2-3, 4-5).
        unsafe { std::mem::transmute::<u8, Player>(self as u8 ^ 1) }
    }

    /// The seat after this one at a table of `players`, P1 again after the last.
    #[inline]
    pub fn next(self, players: usize) -> Player {
        let next = self.index() + 1;
        Player::ALL[if next >= players.min(Player::MAX) {
            0
        } else {
            next
        }]
    }

    /// 0 for P1, 1 for P2, ...: the index into a [`ByPlayer`] or [`Returns`].
    #[inline]
    pub fn index(self) -> usize {
        self as usize
    }

    /// 0 for P1, 1 for P2: the index into a two-player game's per-player pair, known to
    /// be 0 or 1 so that the hot loops indexing a [`ByPlayer`] carry no bounds check (as
    /// they did not when a player could only be P1 or P2). A seat past P2 in a pair is a
    /// mistake caught by the debug builds. Written as a comparison, not `index & 1`: the
    /// mask let the compiler read the side to move with a wider load than the store that
    /// wrote it, which missed store forwarding and cost random games 15% of their speed.
    #[inline(always)]
    pub fn pair_index(self) -> usize {
        debug_assert!(self.index() < 2, "{self} indexes a two-player pair");
        usize::from(self != Player::P1)
    }

    /// The label used in files and on screen: `P1`, `P2`, ... `P6`.
    pub fn label(self) -> &'static str {
        ["P1", "P2", "P3", "P4", "P5", "P6"][self.index()]
    }
}

impl fmt::Display for Player {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.label())
    }
}

/// Per-player data of a two-player game, indexed by [`Player`] (P1 and P2 only).
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize,
)]
pub struct ByPlayer<T>(pub [T; 2]);

impl<T> std::ops::Index<Player> for ByPlayer<T> {
    type Output = T;
    #[inline]
    fn index(&self, player: Player) -> &T {
        &self.0[player.pair_index()]
    }
}

impl<T> std::ops::IndexMut<Player> for ByPlayer<T> {
    #[inline]
    fn index_mut(&mut self, player: Player) -> &mut T {
        &mut self.0[player.pair_index()]
    }
}

impl<T> ByPlayer<T> {
    /// The other player's entry: `self[player.opponent()]` read without making the other
    /// player (one exclusive or of the index), for the hot loops of two-player games.
    #[inline(always)]
    pub fn other(&self, player: Player) -> &T {
        &self.0[player.pair_index() ^ 1]
    }
}

/// A number for each player of a finished game, indexed by [`Player`]: what each scored
/// ([`Game::returns`](super::Game::returns)), more being better. Holds up to [`Player::MAX`] players.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Returns {
    players: u8,
    values: [f64; Player::MAX],
}

impl Returns {
    /// `players` zeros.
    pub fn zeros(players: usize) -> Returns {
        Returns {
            players: players.min(Player::MAX) as u8,
            values: [0.0; Player::MAX],
        }
    }

    /// A two-player game's returns.
    pub fn two(p1: f64, p2: f64) -> Returns {
        let mut returns = Returns::zeros(2);
        returns.values[0] = p1;
        returns.values[1] = p2;
        returns
    }

    /// The returns in `values`, P1's first (`None` for fewer than two or more than
    /// [`Player::MAX`]).
    pub fn of(values: &[f64]) -> Option<Returns> {
        if !(2..=Player::MAX).contains(&values.len()) {
            return None;
        }
        let mut returns = Returns::zeros(values.len());
        returns.values[..values.len()].copy_from_slice(values);
        Some(returns)
    }

    /// The number of players.
    pub fn players(&self) -> usize {
        usize::from(self.players)
    }

    /// The returns, P1's first.
    pub fn as_slice(&self) -> &[f64] {
        &self.values[..self.players()]
    }

    /// P1's and P2's returns, as a two-player record keeps them.
    pub fn pair(&self) -> ByPlayer<f64> {
        ByPlayer([self.values[0], self.values[1]])
    }

    /// Each player's place, 1 for the best: one more than the number of players who
    /// scored more (players who scored alike share a place).
    pub fn places(&self) -> [u8; Player::MAX] {
        let mut places = [0u8; Player::MAX];
        for (i, place) in places.iter_mut().enumerate().take(self.players()) {
            let ahead = self
                .as_slice()
                .iter()
                .filter(|&&v| v > self.values[i])
                .count();
            *place = ahead as u8 + 1;
        }
        places
    }
}

impl std::ops::Index<Player> for Returns {
    type Output = f64;
    #[inline]
    fn index(&self, player: Player) -> &f64 {
        &self.values[player.index()]
    }
}

impl std::ops::IndexMut<Player> for Returns {
    #[inline]
    fn index_mut(&mut self, player: Player) -> &mut f64 {
        &mut self.values[player.index()]
    }
}

/// How a finished game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// The winner, or `None` for a draw.
    pub winner: Option<Player>,
    /// A short machine-readable reason, e.g. `goal-row` or `no-moves`.
    pub reason: &'static str,
}

impl Outcome {
    /// `P1`, `P2`, ... or `draw`.
    pub fn winner_label(&self) -> &'static str {
        self.winner.map_or("draw", Player::label)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seats_go_round_the_table_and_keep_their_labels() {
        assert_eq!(
            Player::seats(4),
            &[Player::P1, Player::P2, Player::P3, Player::P4]
        );
        assert_eq!(Player::P4.next(4), Player::P1);
        assert_eq!(Player::P2.next(4), Player::P3);
        assert_eq!(Player::P2.next(2), Player::P1);
        assert_eq!(Player::P1.opponent(), Player::P2);
        assert_eq!(Player::P2.opponent(), Player::P1);
        assert_eq!(Player::P3.opponent(), Player::P4);
        assert_eq!(Player::P6.opponent(), Player::P5);
        assert_eq!(Player::seat(5), Some(Player::P6));
        assert_eq!(Player::seat(6), None);
        let labels: Vec<&str> = Player::ALL.iter().map(|p| p.label()).collect();
        assert_eq!(labels, ["P1", "P2", "P3", "P4", "P5", "P6"]);
        assert_eq!(serde_json::to_string(&Player::P3).unwrap(), "\"P3\"");
    }

    #[test]
    fn places_rank_more_first_and_share_ties() {
        let returns = Returns::of(&[1.0, 3.0, 1.0, 0.0]).unwrap();
        assert_eq!(&returns.places()[..4], &[2, 1, 2, 4]);
        assert_eq!(returns[Player::P2], 3.0);
        assert_eq!(returns.pair(), ByPlayer([1.0, 3.0]));
        assert_eq!(Returns::two(-1.0, 1.0).as_slice(), &[-1.0, 1.0]);
        assert!(Returns::of(&[1.0]).is_none());
        assert!(Returns::of(&[0.0; 7]).is_none());
    }
}
