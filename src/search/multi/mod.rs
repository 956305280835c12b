//! Searches for games of more than two players (they play two-player games too):
//!
//! - **max^n** (Luckhardt and Irani): every position is worth a value for each player, the
//!   player moving chooses the child best for itself. A leaf's values are the heuristic
//!   from each player's side, less their mean (so that they sum to 0); a finished game is
//!   worth `(n - 1) x W` to its winner and `-W` to every other player; without a winner,
//!   0 to all, or in a game with returns (the star at its ply limit) each player's share
//!   of `W` by its return ([`super::return_shares`]: they sum to 0, none past `W`), `W`
//!   being [`WIN_SCORE`]. With a `bound` B the heuristic promises never to
//!   leave [-B, (n - 1) B] once centred, wins are worth B, and Korf's **shallow pruning**
//!   applies: a player that has found `x` for itself leaves at most `(n - 2) B - x` to
//!   the player above, which stops looking when that is no better than what it has.
//! - **paranoid** (Sturtevant and Korf): the root player against a coalition of all the
//!   others, who minimise its value: alpha-beta as for two players, the root's value
//!   alone ([`Searcher::search`], ordered).
//! - **best-reply search** (Schadd and Winands): the root player's moves alternate with
//!   the single best reply of any one opponent (the others pass), so the root player
//!   looks deeper at its own moves; alpha-beta on the root's value. It needs a game that
//!   can put any player to move ([`Game::put_to_move`]).
//!
//! Nodes are counted as for the two-player searches: a position whose moves are listed is
//! expanded, a leaf (a finished game or the depth reached) is evaluated once, whatever the
//! number of heuristic calls behind it (max^n calls the heuristic once per player).

#[cfg(test)]
mod tests;

use super::{GameRng, SearchResult, Searcher, WIN_SCORE, no_winner_shares};
use crate::core::{Evaluator, Game, Player};

/// A value for each seat, indexed by [`Player::index`].
pub(super) type Values = [f64; Player::MAX];

impl<G: Game, E: Evaluator<G>> Searcher<G, E> {
    /// max^n to `depth` plies, with shallow pruning when the heuristic is bounded by
    /// `bound` (see the module's notes). `None` when the position has no legal move.
    pub fn maxn(
        &mut self,
        state: &G,
        depth: u32,
        bound: Option<f64>,
        rng: &mut GameRng,
    ) -> Option<SearchResult<G::Move>> {
        let depth = depth.max(1) as usize;
        self.begin_plain(state, depth);
        let root = self.root;
        self.root_search(state, depth, rng, |search, child, best| {
            search.maxn_values(child, depth - 1, 1, bound, best.map(|b| (root, b)))[root.index()]
        })
    }

    /// The max^n values of `state`; `above` is the player choosing at the parent and the
    /// best it has found there (for shallow pruning).
    fn maxn_values(
        &mut self,
        state: &G,
        depth: usize,
        level: usize,
        bound: Option<f64>,
        above: Option<(Player, f64)>,
    ) -> Values {
        let players = state.players();
        if self.out_of_time() {
            return [0.0; Player::MAX];
        }
        if state.outcome().is_some() || depth == 0 {
            self.stats.count_evaluated(level);
            return self.maxn_leaf(state, players, bound);
        }
        self.stats.count_expanded(level);
        let mover = state.to_move();
        let mut moves = std::mem::take(&mut self.buffers[level]);
        state.legal_moves(&mut moves);
        self.stats.generated += moves.len() as u64;
        let mut best: Option<Values> = None;
        for &mv in &moves {
            let mut child = state.clone();
            child.apply(mv);
            let own = best.map(|b| (mover, b[mover.index()]));
            let values = self.maxn_values(&child, depth - 1, level + 1, bound, own);
            if best.is_none_or(|b| values[mover.index()] > b[mover.index()]) {
                best = Some(values);
            }
            // Shallow pruning: whatever else the mover finds here, the player above gets
            // at most (n - 2) B - (the mover's best), no more than it already has.
            if let (Some(bound), Some((up, found)), Some(b)) = (bound, above, best) {
                let most = (players - 2) as f64 * bound - b[mover.index()];
                if up != mover && most <= found {
                    break;
                }
            }
        }
        self.buffers[level] = moves;
        best.unwrap_or_else(|| self.maxn_leaf(state, players, bound))
    }

    /// A leaf's values: a finished game's, or the heuristic from each player's side less
    /// their mean.
    fn maxn_leaf(&self, state: &G, players: usize, bound: Option<f64>) -> Values {
        let mut values = [0.0; Player::MAX];
        if let Some(outcome) = state.outcome() {
            let win = bound.unwrap_or(WIN_SCORE);
            if let Some(shares) = no_winner_shares(state, outcome) {
                for (value, share) in values.iter_mut().zip(shares).take(players) {
                    *value = win * share;
                }
            } else if let Some(winner) = outcome.winner {
                for (i, value) in values.iter_mut().enumerate().take(players) {
                    *value = if i == winner.index() {
                        (players - 1) as f64 * win
                    } else {
                        -win
                    };
                }
            }
            return values;
        }
        for (value, &seat) in values.iter_mut().zip(Player::seats(players)) {
            *value = self.evaluator.evaluate(state, seat, self.noise_seed);
        }
        let mean = values[..players].iter().sum::<f64>() / players as f64;
        for value in &mut values[..players] {
            *value -= mean;
        }
        values
    }

    /// Best-reply search to `depth` layers (the root player's moves and the opponents'
    /// best replies alternate). `None` when the position has no legal move.
    pub fn brs(
        &mut self,
        state: &G,
        depth: u32,
        rng: &mut GameRng,
    ) -> Option<SearchResult<G::Move>> {
        let depth = depth.max(1) as usize;
        self.begin_plain(state, depth);
        self.root_search(state, depth, rng, |search, child, best| {
            let alpha = best.unwrap_or(f64::NEG_INFINITY);
            search.brs_value(child, depth - 1, 1, alpha, f64::INFINITY, false)
        })
    }

    /// The root player's value of `state` where it moves (`maximizing`) or where one of
    /// the others replies, with alpha-beta bounds.
    fn brs_value(
        &mut self,
        state: &G,
        depth: usize,
        level: usize,
        mut alpha: f64,
        mut beta: f64,
        maximizing: bool,
    ) -> f64 {
        if let Some(value) = self.leaf_value(state, depth, level) {
            return value;
        }
        self.stats.count_expanded(level);
        let root = self.root;
        let alone = [root];
        let movers: &[Player] = if maximizing {
            &alone
        } else {
            Player::seats(state.players())
        };
        let mut best = if maximizing {
            f64::NEG_INFINITY
        } else {
            f64::INFINITY
        };
        let mut moves = std::mem::take(&mut self.buffers[level]);
        'movers: for &mover in movers.iter().filter(|&&p| maximizing || p != root) {
            let mut turn = state.clone();
            if !turn.put_to_move(mover) {
                continue;
            }
            turn.legal_moves(&mut moves);
            self.stats.generated += moves.len() as u64;
            for &mv in &moves {
                let mut child = turn.clone();
                child.apply(mv);
                let value = self.brs_value(&child, depth - 1, level + 1, alpha, beta, !maximizing);
                if maximizing {
                    best = best.max(value);
                    alpha = alpha.max(value);
                } else {
                    best = best.min(value);
                    beta = beta.min(value);
                }
                if alpha >= beta {
                    break 'movers;
                }
            }
        }
        self.buffers[level] = moves;
        if best.is_finite() {
            best
        } else {
            // No one could move (every opponent without a move): the position as it is.
            self.evaluator.evaluate(state, root, self.noise_seed)
        }
    }
}
