//! A matchup's results from its first-listed agent's side: wins, draws, losses, and the
//! colour-swapped pairs (two consecutive games with the same seed and swapped colours)
//! scored pentanomially. Shared by the summary and the sequential test.

use crate::core::Player;
use crate::stats::Moments;
use crate::stats::elo::Sprt;
use crate::tournament::GameRecord;

/// Results of one matchup, from the first-listed agent's side.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Tally {
    /// Games won by the first agent.
    pub wins: u64,
    /// Games drawn.
    pub draws: u64,
    /// Games lost by the first agent.
    pub losses: u64,
    /// Completed pairs by the first agent's pair score 0, 1/4, 1/2, 3/4, 1.
    pub pairs: [u64; 5],
    /// The first game of a pair waiting for its partner: (seed, first agent's score x2).
    open_pair: Option<(u64, u8, bool)>,
    /// Each agent's returns (the first listed agent's, then the second's) summed over each
    /// completed pair, in games with returns. Both are kept: returns need not sum to zero
    /// (Chinese Checkers' shares of the way home, a prisoner's dilemma).
    pub pair_returns: [Moments; 2],
    /// Both agents' returns in the open pair's game, the first agent's first.
    open_return: Option<[f64; 2]>,
}

impl Tally {
    /// Adds a game of this matchup; returns whether it completed a colour-swapped pair.
    pub fn add(&mut self, record: &GameRecord) -> bool {
        // The first listed agent's seat and its score in half points.
        let seat = if record.job.first_is_p1 {
            Player::P1
        } else {
            Player::P2
        };
        let halves = match record.winner {
            None => 1,
            Some(winner) if winner == seat => 2,
            Some(_) => 0,
        };
        let game_returns = record
            .returns
            .map(|returns| [returns[seat], returns[seat.opponent()]]);
        let completed = self.add_result(record.job.seed, record.job.first_is_p1, halves);
        if completed {
            if let (Some(open), Some(this)) = (self.open_return.take(), game_returns) {
                for (moments, (a, b)) in
                    self.pair_returns.iter_mut().zip(open.into_iter().zip(this))
                {
                    moments.add(a + b);
                }
            }
        } else {
            self.open_return = game_returns;
        }
        completed
    }

    /// Adds a game given by its seed, whether the first agent played P1, and the first
    /// agent's score in half points (0, 1 or 2); returns whether it completed a pair.
    pub fn add_result(&mut self, seed: u64, first_is_p1: bool, halves: u8) -> bool {
        match halves {
            0 => self.losses += 1,
            1 => self.draws += 1,
            _ => self.wins += 1,
        }
        let halves = halves.min(2);
        match self.open_pair.take() {
            Some((open_seed, first, open_p1)) if open_seed == seed && open_p1 != first_is_p1 => {
                self.pairs[usize::from(first + halves)] += 1;
                true
            }
            _ => {
                self.open_pair = Some((seed, halves, first_is_p1));
                false
            }
        }
    }

    /// Games counted.
    pub fn games(&self) -> u64 {
        self.wins + self.draws + self.losses
    }

    /// Completed pairs.
    pub fn pair_count(&self) -> u64 {
        self.pairs.iter().sum()
    }

    /// The log-likelihood ratio of `sprt`: pentanomial when the games come in pairs,
    /// trinomial otherwise.
    pub fn llr(&self, sprt: &Sprt) -> f64 {
        if self.pair_count() > 0 {
            sprt.llr_pentanomial(&self.pairs)
        } else {
            sprt.llr_trinomial(self.wins, self.draws, self.losses)
        }
    }

    /// The same results from the second agent's side.
    pub fn mirrored(&self) -> Tally {
        let mut pairs = self.pairs;
        pairs.reverse();
        Tally {
            wins: self.losses,
            draws: self.draws,
            losses: self.wins,
            pairs,
            open_pair: None,
            pair_returns: [self.pair_returns[1], self.pair_returns[0]],
            open_return: None,
        }
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::core::ByPlayer;
    use crate::tournament::GameJob;
    use std::borrow::Cow;

    pub(crate) fn record(
        game_index: u64,
        first_is_p1: bool,
        winner: Option<Player>,
        alternate: bool,
    ) -> GameRecord {
        let pair = if alternate {
            game_index / 2
        } else {
            game_index
        };
        GameRecord {
            job: GameJob {
                id: game_index,
                matchup: 0,
                game_index,
                pair,
                seed: 1000 + pair,
                agents: [0, 1],
                first_is_p1,
            },
            winner,
            reason: Cow::Borrowed("test"),
            opening: String::new(),
            plies: 1,
            sides: Default::default(),
            moves: Vec::new(),
            move_rows: 0,
            chance: Vec::new(),
            returns: None,
            move_text: String::new(),
        }
    }

    #[test]
    fn pairs_are_scored_pentanomially_from_the_first_agent() {
        let mut tally = Tally::default();
        // Pair 0: first agent wins as P1, draws as P2: pair score 3/4.
        assert!(!tally.add(&record(0, true, Some(Player::P1), true)));
        assert!(tally.add(&record(1, false, None, true)));
        // Pair 1: loses as P1 (P2 wins), wins as P2 (P2 wins): 1/2.
        tally.add(&record(2, true, Some(Player::P2), true));
        tally.add(&record(3, false, Some(Player::P2), true));
        assert_eq!(tally.pairs, [0, 0, 1, 1, 0]);
        assert_eq!((tally.wins, tally.draws, tally.losses), (2, 1, 1));
        let mirror = tally.mirrored();
        assert_eq!(mirror.pairs, [0, 1, 1, 0, 0]);
        assert_eq!((mirror.wins, mirror.losses), (1, 2));
    }

    /// Returns that do not sum to zero (the star's shares of the way home): each agent's
    /// pair sums are its own, not the other's negated.
    #[test]
    fn each_agent_keeps_its_own_pair_returns() {
        let mut tally = Tally::default();
        let with = |game, first_is_p1, p1: f64, p2: f64| GameRecord {
            returns: Some(ByPlayer([p1, p2])),
            ..record(game, first_is_p1, Some(Player::P1), true)
        };
        // The first agent plays P1 then P2: it scores 1.0 and 0.5, the second 0.25 and 1.0.
        tally.add(&with(0, true, 1.0, 0.25));
        tally.add(&with(1, false, 1.0, 0.5));
        assert_eq!(tally.pair_returns[0].mean(), Some(1.5));
        assert_eq!(tally.pair_returns[1].mean(), Some(1.25));
        let mirror = tally.mirrored();
        assert_eq!(mirror.pair_returns[0].mean(), Some(1.25));
        assert_eq!(mirror.pair_returns[1].mean(), Some(1.5));
    }
}
