//! Search algorithms, generic over any [`Game`] and [`Evaluator`]; uses core only (its
//! tests use real games and heuristics), knows no game and no file.
//!
//! Every algorithm counts nodes the same way (see [`SearchStats`]): the root and every
//! inner node whose children are generated is *expanded*; every position scored (by the
//! heuristic at the depth limit, or as won/lost/drawn when the game is over) is
//! *evaluated*. Values are from the root player's point of view; a finished game scores
//! `+WIN_SCORE`, `-WIN_SCORE` or 0.
//!
//! Root moves are shuffled with the agent's seeded generator before the search and the
//! first move reaching the best value is kept, so exact ties are broken at random but
//! reproducibly; minimax and alpha-beta given the same generator state see the same order
//! and therefore choose the same move with the same value.

mod agents;
mod algorithm;
mod beam;
pub mod ismcts;
pub mod mcts;
mod multi;
pub mod solve;
mod star;
#[cfg(test)]
mod tests;
pub mod tt;

use crate::core::seeds::{self, GameRng};
use crate::core::{
    ActionEvaluator, Agent, Clock, Decision, Evaluator, Game, Limits, Outcome, Player, Returns,
    SearchStats,
};
use std::fmt;
use std::ops::ControlFlow;
use std::str::FromStr;
use std::time::{Duration, Instant};

pub use agents::*;
pub use algorithm::*;

/// The score of a won game for the winner (and minus it for the loser).
pub const WIN_SCORE: f64 = 1_000_000.0;

/// When a search should stop to answer by `deadline`, asked at `now`: a twentieth of the
/// time left earlier, at most 10 ms (the time from the last stop check to the answer).
pub fn aim_before(deadline: Instant, now: Instant) -> Instant {
    let reserve = (deadline.saturating_duration_since(now) / 20).min(Duration::from_millis(10));
    deadline - reserve
}

/// The deepest fixed-depth search the registry accepts, in plies (and how deep an agent
/// with no depth limit deepens when nothing else stops it).
pub const MAX_DEPTH: u32 = 12;

/// The deepest iterative deepening goes, in plies: a depth above [`MAX_DEPTH`] (or 0, no
/// limit) is only a maximum, for an agent stopped by its time or node budget or by its
/// game clock.
pub const MAX_DEEPENING: u32 = 64;

/// Entries in the evaluation table of the cached variant (a power of two).
const CACHE_SIZE: usize = 1 << 16;

/// Sorts `moves` by `scores`, largest first, ties keeping their order (a stable insertion
/// sort: move lists are short and it allocates nothing).
fn insertion_sort_descending<M: Copy>(scores: &mut [f64], moves: &mut [M]) {
    for i in 1..moves.len().min(scores.len()) {
        let (score, mv) = (scores[i], moves[i]);
        let mut j = i;
        while j > 0 && scores[j - 1] < score {
            scores[j] = scores[j - 1];
            moves[j] = moves[j - 1];
            j -= 1;
        }
        scores[j] = score;
        moves[j] = mv;
    }
}

/// Takes a child's `value` into an alpha-beta node: its `best` so far and, on the side
/// of the player moving there, its window bound.
#[inline]
fn narrow(maximizing: bool, value: f64, best: &mut f64, alpha: &mut f64, beta: &mut f64) {
    if maximizing {
        *best = best.max(value);
        *alpha = alpha.max(*best);
    } else {
        *best = best.min(value);
        *beta = beta.min(*best);
    }
}

/// Whether a node's remaining children are cut off (its window closed).
#[inline(always)]
fn cutoff(alpha: f64, beta: f64) -> ControlFlow<()> {
    if alpha >= beta {
        ControlFlow::Break(())
    } else {
        ControlFlow::Continue(())
    }
}

/// The value a node's best starts from: the worst there is for the side moving there
/// (`maximizing`: the root player).
#[inline]
fn worst(maximizing: bool) -> f64 {
    if maximizing {
        f64::NEG_INFINITY
    } else {
        f64::INFINITY
    }
}

/// The score of a finished game for `root`.
#[inline]
fn terminal_score(outcome: Outcome, root: Player) -> f64 {
    match outcome.winner {
        Some(winner) if winner == root => WIN_SCORE,
        Some(_) => -WIN_SCORE,
        None => 0.0,
    }
}

/// The score of a finished game `state` for `root`: [`terminal_score`], except that a
/// game of more than two players that ended without a winner but with returns (the star
/// at its ply limit) is worth `root`'s share of a win by [`return_shares`].
#[inline]
pub(crate) fn finished_value<G: Game>(state: &G, outcome: Outcome, root: Player) -> f64 {
    if let Some(shares) = no_winner_shares(state, outcome) {
        return WIN_SCORE * shares[root.index()];
    }
    terminal_score(outcome, root)
}

/// [`return_shares`] of a game of more than two players that ended without a winner but
/// with returns; `None` for every other finished game (scored by who won).
#[inline]
pub(crate) fn no_winner_shares<G: Game>(state: &G, outcome: Outcome) -> Option<[f64; Player::MAX]> {
    if outcome.winner.is_some() || state.players() <= 2 {
        return None;
    }
    state.returns().map(|returns| return_shares(&returns))
}

/// Each player's share of a win in a finished game scored by its returns: its return less
/// the others' mean, all divided alike by the largest such difference when that passes 1,
/// so that every share lies in [-1, 1] and they sum to 0 (what max^n's shallow pruning
/// needs of a leaf).
pub(crate) fn return_shares(returns: &Returns) -> [f64; Player::MAX] {
    let values = returns.as_slice();
    let n = values.len();
    let mut shares = [0.0; Player::MAX];
    if n < 2 {
        return shares;
    }
    let total: f64 = values.iter().sum();
    for (share, &mine) in shares.iter_mut().zip(values) {
        *share = mine - (total - mine) / (n - 1) as f64;
    }
    let widest = shares[..n].iter().fold(1.0f64, |m, s| m.max(s.abs()));
    for share in &mut shares[..n] {
        *share /= widest;
    }
    shares
}

/// A reusable searcher: the evaluator, the agent's noise seed and one move buffer per
/// level, so searching allocates nothing once the buffers have grown.
pub struct Searcher<G: Game, E> {
    evaluator: E,
    noise_seed: u64,
    root: Player,
    stats: SearchStats,
    buffers: Vec<Vec<G::Move>>,
    /// Chance's outcomes with their probabilities, one buffer per level (expectimax only).
    outcomes: Vec<Vec<(G::Move, f64)>>,
    /// Move-ordering scores, one buffer per level (ordered variants only).
    scores: Vec<Vec<f64>>,
    /// Order moves by the static evaluation of their positions.
    eval_order: bool,
    /// Evaluated positions: (key, value), direct-mapped (cached variant only).
    cache: Vec<(u64, f64)>,
    use_cache: bool,
    /// Up to two moves per level that caused a cutoff (killer variant only).
    killers: Vec<[Option<G::Move>; 2]>,
    ordering: bool,
    use_killers: bool,
    /// Beam search: the scored moves of each level.
    scored: Vec<Vec<(f64, G::Move)>>,
    /// No node is searched once these are reached (a time budget, a per-move limit, a stop).
    limits: Limits,
    /// At most this many nodes in one search (a node budget), if set.
    node_limit: Option<u64>,
    /// Calls of `out_of_time` left before it looks at the limits again (1: the next call).
    countdown: u32,
    /// Set when the limits were reached during the current search.
    aborted: bool,
    ticks: u32,
    /// The transposition table (alphabeta-tt only), its size in MB, the history scores.
    tt: Vec<tt::Entry<G::Move>>,
    tt_mb: u32,
    history: Vec<u32>,
    /// What the table's keys mix into the position hash: the root player and the noise
    /// seed (a value depends on both), set at the start of each search.
    table_salt: u64,
    /// The aspiration half-width (0: none) and how often a root iteration was redone.
    aspiration: f64,
    aspiration_researches: u64,
    use_tt: bool,
    /// The bound of maxn's shallow pruning and star1's cutoffs ([`Searcher::set_bound`]).
    bound: Option<f64>,
}

/// What one search found at the root.
#[derive(Clone, Copy, Debug)]
pub struct SearchResult<M> {
    /// The chosen move.
    pub best: M,
    /// Its value for the player to move at the root.
    pub value: f64,
    /// Nodes counted.
    pub stats: SearchStats,
    /// False when the deadline stopped the search: the move is the best among the root
    /// moves searched completely.
    pub complete: bool,
    /// The depth of the search the move comes from (alphabeta-tt: its deepest iteration
    /// finished, or 0 when not even the first finished).
    pub reached: u32,
}

impl<G: Game, E: Evaluator<G>> Searcher<G, E> {
    /// A searcher using `evaluator`, whose random term is keyed by `noise_seed`.
    pub fn new(evaluator: E, noise_seed: u64) -> Self {
        Searcher {
            evaluator,
            noise_seed,
            root: Player::P1,
            stats: SearchStats::default(),
            buffers: Vec::new(),
            outcomes: Vec::new(),
            scores: Vec::new(),
            killers: Vec::new(),
            eval_order: false,
            cache: Vec::new(),
            use_cache: false,
            ordering: false,
            use_killers: false,
            scored: Vec::new(),
            limits: Limits::NONE,
            countdown: 1,
            node_limit: None,
            aborted: false,
            ticks: 0,
            tt: Vec::new(),
            tt_mb: tt::DEFAULT_TT_MB,
            history: Vec::new(),
            table_salt: 0,
            aspiration: 0.0,
            aspiration_researches: 0,
            use_tt: false,
            bound: None,
        }
    }

    /// The transposition table's size in megabytes (alphabeta-tt), before its first search.
    pub fn set_table_megabytes(&mut self, megabytes: u32) {
        self.tt_mb = megabytes;
    }

    /// alphabeta-tt's aspiration window: from the second iteration on, the root is first
    /// searched within the previous value ± `half_width` (in heuristic units) and again
    /// with the whole window when the value falls outside. 0 (the default) turns it off.
    pub fn set_aspiration(&mut self, half_width: f64) {
        self.aspiration = half_width;
    }

    /// The bound on the values that lets maxn prune shallowly and star1 cut at chance's
    /// positions (none: maxn does not prune, star1 takes a win's score as the bound).
    pub fn set_bound(&mut self, bound: Option<f64>) {
        self.bound = bound;
    }

    /// How many root iterations fell outside their aspiration window and were searched
    /// again (since this searcher was made).
    pub fn aspiration_researches(&self) -> u64 {
        self.aspiration_researches
    }

    /// Allocates the tables `algorithm` uses (the cached variant's evaluations, the table
    /// variant's transposition table), if not done yet. A search does it on first use; a
    /// caller timing single searches of fresh searchers calls this before the clock
    /// starts, as an agent allocates them once per game, not per move.
    pub fn allocate_tables(&mut self, algorithm: Algorithm) {
        match algorithm {
            Algorithm::AlphaBetaCached if self.cache.is_empty() => {
                self.cache = vec![(0, 0.0); CACHE_SIZE];
            }
            Algorithm::AlphaBetaTt => self.ensure_table(),
            _ => {}
        }
    }

    /// Searches `state` (not finished) to `depth` plies with `algorithm` (minimax, the
    /// alpha-beta variants, expectimax, star1, the searches for more players, or greedy,
    /// which ignores `depth`), shuffling the root moves with `rng`. Returns `None` when
    /// the position has no legal move.
    pub fn search(
        &mut self,
        state: &G,
        algorithm: Algorithm,
        depth: u32,
        rng: &mut GameRng,
    ) -> Option<SearchResult<G::Move>> {
        let algorithm = match algorithm {
            Algorithm::Maxn => return self.maxn(state, depth, self.bound, rng),
            Algorithm::Brs => return self.brs(state, depth, rng),
            Algorithm::Star1 => {
                let bound = self.bound.unwrap_or(WIN_SCORE);
                return self.star1(state, depth, bound, rng);
            }
            Algorithm::Star2 => {
                let bound = self.bound.unwrap_or(WIN_SCORE);
                return self.star2(state, depth, bound, rng);
            }
            // Alpha-beta on the root player's value: the others minimise it.
            Algorithm::Paranoid => Algorithm::AlphaBetaOrdered,
            algorithm => algorithm,
        };
        let depth = if algorithm == Algorithm::Greedy {
            1
        } else {
            depth.max(1)
        } as usize;
        // Chance's positions take a level each between the players' moves.
        let levels = if G::CHANCE { 2 * depth + 2 } else { depth };
        self.begin_plain(state, levels);
        self.ordering = matches!(
            algorithm,
            Algorithm::AlphaBetaOrdered | Algorithm::AlphaBetaKiller
        );
        self.use_killers = algorithm == Algorithm::AlphaBetaKiller;
        self.eval_order = algorithm == Algorithm::AlphaBetaSorted;
        self.use_cache = algorithm == Algorithm::AlphaBetaCached;
        self.use_tt = algorithm == Algorithm::AlphaBetaTt;
        self.allocate_tables(algorithm);
        self.killers.iter_mut().for_each(|k| *k = [None; 2]);
        if self.use_tt {
            let mut moves = std::mem::take(&mut self.buffers[0]);
            state.legal_moves(&mut moves);
            seeds::shuffle(rng, &mut moves);
            self.table_salt = (self.root.index() as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15)
                ^ seeds::mix64(self.noise_seed);
            let result = self.deepen_with_table(state, &mut moves, depth);
            self.buffers[0] = moves;
            return result;
        }
        self.root_search(state, depth, rng, |search, child, best| {
            if algorithm == Algorithm::Expectimax {
                search.expectimax(child, depth - 1, 1)
            } else if algorithm.prunes() {
                let alpha = best.unwrap_or(f64::NEG_INFINITY);
                search.alphabeta(child, depth - 1, 1, alpha, f64::INFINITY)
            } else {
                search.minimax(child, depth - 1, 1)
            }
        })
    }

    /// Readies the searcher for a search of `levels` levels from `state`: a move buffer
    /// per level, counts at 0, no ordering (a caller that orders sets it after).
    fn begin_plain(&mut self, state: &G, levels: usize) {
        while self.buffers.len() <= levels {
            self.buffers.push(Vec::with_capacity(64));
            self.outcomes.push(Vec::new());
            self.scores.push(Vec::with_capacity(64));
            self.killers.push([None; 2]);
        }
        self.root = state.to_move();
        self.stats = SearchStats::default();
        self.aborted = false;
        self.countdown = 1;
        self.ordering = false;
        self.use_killers = false;
        self.eval_order = false;
        self.use_cache = false;
        self.use_tt = false;
    }

    /// The best root move of a search whose root children are valued by `value` (given
    /// the best value found so far), the moves shuffled by `rng` then put in the search's
    /// order; with the search's counts.
    fn root_search(
        &mut self,
        state: &G,
        depth: usize,
        rng: &mut GameRng,
        mut value: impl FnMut(&mut Self, &G, Option<f64>) -> f64,
    ) -> Option<SearchResult<G::Move>> {
        let mut moves = std::mem::take(&mut self.buffers[0]);
        state.legal_moves(&mut moves);
        seeds::shuffle(rng, &mut moves);
        self.order(state, &mut moves, 0);
        if !moves.is_empty() {
            self.stats.count_expanded(0);
        }
        let mut best: Option<(G::Move, f64)> = None;
        for &mv in &moves {
            let mut child = state.clone();
            child.apply(mv);
            let found = value(self, &child, best.map(|(_, v)| v));
            if self.aborted {
                break;
            }
            if best.is_none_or(|(_, v)| found > v) {
                best = Some((mv, found));
            }
        }
        self.stats.generated += moves.len() as u64;
        self.buffers[0] = moves;
        self.stats.peak_bytes = self.state_bytes(depth);
        best.map(|(best, value)| SearchResult {
            best,
            value,
            stats: self.stats,
            complete: !self.aborted,
            reached: depth as u32,
        })
    }

    /// alphabeta-tt at the root: iterations of depth 1 to `depth`, each with the previous
    /// iteration's best move first; the result of the deepest one finished.
    fn deepen_with_table(
        &mut self,
        state: &G,
        moves: &mut [G::Move],
        depth: usize,
    ) -> Option<SearchResult<G::Move>> {
        if moves.is_empty() {
            return None;
        }
        let mut scores = std::mem::take(&mut self.scores[0]);
        self.score_tt(state, moves, &mut scores);
        insertion_sort_descending(&mut scores, moves);
        self.scores[0] = scores;
        if let Some(first) = self.table_move(state) {
            tt::move_to_front(moves, first);
        }
        let mut done: Option<(G::Move, f64, u32)> = None;
        let mut partial: Option<(G::Move, f64)> = None;
        for iteration in 1..=depth {
            // The aspiration window around the previous iteration's value, if any; a
            // value on or outside its edge is only a bound, so the iteration is searched
            // again with the whole window.
            let mut window = match done {
                Some((_, value, _)) if self.aspiration > 0.0 && value.abs() < WIN_SCORE => {
                    (value - self.aspiration, value + self.aspiration)
                }
                _ => (f64::NEG_INFINITY, f64::INFINITY),
            };
            let best = loop {
                self.stats.count_expanded(0);
                self.stats.generated += moves.len() as u64;
                let mut best: Option<(G::Move, f64)> = None;
                for &mv in moves.iter() {
                    let mut child = state.clone();
                    child.apply(mv);
                    let alpha = best.map_or(window.0, |(_, v)| v.max(window.0));
                    let value = self.alphabeta_tt(&child, iteration - 1, 1, alpha, window.1);
                    if self.aborted {
                        break;
                    }
                    if best.is_none_or(|(_, v)| value > v) {
                        best = Some((mv, value));
                    }
                    if value >= window.1 {
                        break;
                    }
                }
                let whole = window == (f64::NEG_INFINITY, f64::INFINITY);
                match best {
                    Some((_, value))
                        if !self.aborted && !whole && (value <= window.0 || value >= window.1) =>
                    {
                        self.aspiration_researches += 1;
                        window = (f64::NEG_INFINITY, f64::INFINITY);
                    }
                    _ => break best,
                }
            };
            if self.aborted {
                partial = best;
                break;
            }
            let Some((mv, value)) = best else { break };
            done = Some((mv, value, iteration as u32));
            tt::move_to_front(moves, mv);
        }
        self.stats.peak_bytes = self.state_bytes(depth)
            + (self.tt.len() * std::mem::size_of::<tt::Entry<G::Move>>()) as u64;
        match (done, partial) {
            (Some((best, value, reached)), _) => Some(SearchResult {
                best,
                value,
                stats: self.stats,
                complete: true,
                reached,
            }),
            (None, Some((best, value))) => Some(SearchResult {
                best,
                value,
                stats: self.stats,
                complete: false,
                reached: 0,
            }),
            (None, None) => None,
        }
    }

    /// Sets (or clears) when searches stop early.
    pub fn set_limits(&mut self, limits: Limits) {
        self.limits = limits;
        self.countdown = 1;
    }

    /// Stops each following search once it has counted `nodes` nodes (expanded plus
    /// evaluated), as a deadline stops it; `None` for no budget.
    pub fn set_node_limit(&mut self, nodes: Option<u64>) {
        self.node_limit = nodes;
        self.countdown = 1;
    }

    /// Whether the limits are reached. Most calls only count down: the limits are looked
    /// at on every call under a node budget (the clock and the stop flag every 256th) or
    /// once the search is aborted, every 256 calls under a deadline or a stop flag alone
    /// (inside a run the Ctrl-C flag is always set), and never without any limit.
    #[inline]
    fn out_of_time(&mut self) -> bool {
        self.countdown -= 1;
        if self.countdown > 0 {
            return false;
        }
        self.look_at_limits()
    }

    /// `out_of_time`'s look at the limits; sets when the next one is due.
    #[inline]
    fn look_at_limits(&mut self) -> bool {
        let watched = self.limits.deadline.is_some() || self.limits.stop.is_some();
        if !self.aborted {
            if let Some(limit) = self.node_limit {
                if self.stats.nodes() >= limit {
                    self.aborted = true;
                } else if watched {
                    self.ticks = self.ticks.wrapping_add(1);
                    self.aborted = self.ticks.is_multiple_of(256) && self.limits.reached();
                }
            } else {
                self.aborted = watched && self.limits.reached();
            }
        }
        self.countdown = if self.aborted || self.node_limit.is_some() {
            1
        } else if watched {
            256
        } else {
            u32::MAX
        };
        self.aborted
    }

    /// Bytes of search state: every level's move list (its allocated capacity) and one
    /// position per level of the current path.
    fn state_bytes(&self, depth: usize) -> u64 {
        let lists: usize = self
            .buffers
            .iter()
            .map(|b| b.capacity() * std::mem::size_of::<G::Move>())
            .sum();
        (lists + (depth + 1) * std::mem::size_of::<G>()) as u64
    }

    /// Puts `moves` in search order for the ordered variants: killer moves of `level`
    /// first, then by the game's move-order score, ties keeping their order (a stable
    /// insertion sort: the lists are short and it allocates nothing).
    fn order(&mut self, state: &G, moves: &mut [G::Move], level: usize) {
        if self.use_tt {
            // The table variant orders its moves itself, in stages (see tt.rs).
            return;
        }
        if self.eval_order {
            // Best first for the player moving here: descending at the root player's
            // nodes, ascending at the opponent's (values are the root player's).
            let sign = if state.to_move() == self.root {
                1.0
            } else {
                -1.0
            };
            let mut scores = std::mem::take(&mut self.scores[level]);
            scores.clear();
            for &mv in moves.iter() {
                let mut child = state.clone();
                child.apply(mv);
                self.stats.count_evaluated(level + 1);
                scores.push(sign * self.evaluator.evaluate(&child, self.root, self.noise_seed));
            }
            insertion_sort_descending(&mut scores, moves);
            self.scores[level] = scores;
            return;
        }
        if !self.ordering {
            return;
        }
        let killers = self.killers[level];
        let scores = &mut self.scores[level];
        scores.clear();
        scores.extend(moves.iter().map(|&mv| {
            if self.use_killers && killers.contains(&Some(mv)) {
                f64::INFINITY
            } else {
                f64::from(state.move_order_score(mv))
            }
        }));
        insertion_sort_descending(scores, moves);
    }

    /// Remembers `mv` as a killer move of `level` (the newest first, two kept).
    fn remember_killer(&mut self, mv: G::Move, level: usize) {
        let killers = &mut self.killers[level];
        if killers[0] != Some(mv) {
            killers[1] = killers[0];
            killers[0] = Some(mv);
        }
    }

    /// The value of a leaf, or `None` when `state` must be searched further.
    #[inline(always)]
    fn leaf_value(&mut self, state: &G, depth: usize, level: usize) -> Option<f64> {
        if self.out_of_time() {
            return Some(0.0);
        }
        if let Some(outcome) = state.outcome() {
            self.stats.count_evaluated(level);
            return Some(finished_value(state, outcome, self.root));
        }
        if depth == 0 {
            self.stats.count_evaluated(level);
            if self.use_cache {
                let key = state.position_hash()
                    ^ (self.root.index() as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15);
                let slot = (key as usize) & (CACHE_SIZE - 1);
                if self.cache[slot].0 == key {
                    self.stats.cache_hits += 1;
                    return Some(self.cache[slot].1);
                }
                let value = self.evaluator.evaluate(state, self.root, self.noise_seed);
                self.cache[slot] = (key, value);
                return Some(value);
            }
            return Some(self.evaluator.evaluate(state, self.root, self.noise_seed));
        }
        None
    }

    /// The value of a position at depth 0 (`leaf_value`, which always has one there).
    #[inline(always)]
    fn leaf(&mut self, state: &G, level: usize) -> f64 {
        self.leaf_value(state, 0, level).unwrap_or_default()
    }

    /// Expands an inner node: counts it, takes the level's move buffer (hand it back to
    /// `self.buffers[level]` when done), fills it with the moves in search order and says
    /// whether the root player moves here.
    #[inline]
    fn expand(&mut self, state: &G, level: usize) -> (Vec<G::Move>, bool) {
        self.stats.count_expanded(level);
        let mut moves = std::mem::take(&mut self.buffers[level]);
        state.legal_moves(&mut moves);
        self.stats.generated += moves.len() as u64;
        self.order(state, &mut moves, level);
        (moves, state.to_move() == self.root)
    }

    /// Like `expand` for a position not known to be unfinished: the move list tells
    /// (a finished game has none), so the game's end is not tested twice. A finished
    /// position counts as evaluated and gives its score.
    #[inline]
    fn expand_unless_finished(
        &mut self,
        state: &G,
        level: usize,
    ) -> Result<(Vec<G::Move>, bool), f64> {
        let mut moves = std::mem::take(&mut self.buffers[level]);
        state.legal_moves(&mut moves);
        if moves.is_empty() {
            self.buffers[level] = moves;
            return Err(self.finished_score(state, level));
        }
        self.stats.count_expanded(level);
        self.stats.generated += moves.len() as u64;
        self.order(state, &mut moves, level);
        Ok((moves, state.to_move() == self.root))
    }

    /// The score of a position found to have no move, counted as evaluated at `level`:
    /// every game's contract (tested per game) is that no moves means finished.
    fn finished_score(&mut self, state: &G, level: usize) -> f64 {
        self.stats.count_evaluated(level);
        let outcome = state.outcome().unwrap_or(Outcome {
            winner: None,
            reason: "no-moves",
        });
        finished_value(state, outcome, self.root)
    }

    /// Whether the searches take moves in `legal_moves`' order (no ordering, no table),
    /// so inner nodes can walk [`Game::for_each_child`] instead of a move list.
    #[inline]
    fn in_listed_order(&self) -> bool {
        !(self.ordering || self.eval_order || self.use_tt)
    }

    /// An inner node (`depth` > 0) of minimax or alpha-beta in listed order:
    /// `child(self, position, maximizing, &mut best)` searches each child and folds its
    /// value into `best` until it breaks; returns `best` (0 once out of time). Counts as
    /// `expand_unless_finished` does: the node is counted expanded before its first child
    /// is searched (so a node budget stops at the same node), and a finished position,
    /// seen by its having no move, is counted evaluated instead and scores as such.
    #[inline]
    fn walk_children(
        &mut self,
        state: &G,
        level: usize,
        mut child: impl FnMut(&mut Self, &G, bool, &mut f64) -> ControlFlow<()>,
    ) -> f64 {
        if self.out_of_time() {
            return 0.0;
        }
        let maximizing = state.to_move() == self.root;
        let mut best = worst(maximizing);
        let mut scratch = std::mem::take(&mut self.buffers[level]);
        // Counted before the first child is searched (a node budget stops at the same
        // node), and taken back when there was none.
        self.stats.count_expanded(level);
        let count = state.for_each_child(&mut scratch, |_, position| {
            child(self, position, maximizing, &mut best)
        });
        self.buffers[level] = scratch;
        if count == 0 {
            self.stats.uncount_expanded(level);
            return self.finished_score(state, level);
        }
        self.stats.generated += count;
        best
    }

    /// `minimax` in listed order: its own recursion, so a node does not ask again which
    /// path it is on (the plain searches spend most of their time in these two).
    fn minimax_listed(&mut self, state: &G, depth: usize, level: usize) -> f64 {
        if depth == 0 {
            return self.leaf(state, level);
        }
        self.walk_children(state, level, |searcher, child, maximizing, best| {
            let value = searcher.minimax_listed(child, depth - 1, level + 1);
            *best = if maximizing {
                best.max(value)
            } else {
                best.min(value)
            };
            ControlFlow::Continue(())
        })
    }

    /// `alphabeta` in listed order, as `minimax_listed`.
    fn alphabeta_listed(
        &mut self,
        state: &G,
        depth: usize,
        level: usize,
        mut alpha: f64,
        mut beta: f64,
    ) -> f64 {
        if depth == 0 {
            return self.leaf(state, level);
        }
        if depth == 1 {
            // The frontier's children are leaves, scored here rather than through a call
            // (most nodes of a fixed-depth search are leaves), in a walk of its own.
            return self.walk_children(state, level, |searcher, child, maximizing, best| {
                let value = searcher.leaf(child, level + 1);
                narrow(maximizing, value, best, &mut alpha, &mut beta);
                cutoff(alpha, beta)
            });
        }
        self.walk_children(state, level, |searcher, child, maximizing, best| {
            let value = searcher.alphabeta_listed(child, depth - 1, level + 1, alpha, beta);
            narrow(maximizing, value, best, &mut alpha, &mut beta);
            cutoff(alpha, beta)
        })
    }

    /// Expectimax: minimax at the players' positions, the probability-weighted mean of
    /// the outcomes' values at chance's (counted as expanded, and not using up depth).
    fn expectimax(&mut self, state: &G, depth: usize, level: usize) -> f64 {
        if G::CHANCE && state.is_chance() && state.outcome().is_none() {
            if self.out_of_time() {
                return 0.0;
            }
            self.stats.count_expanded(level);
            let mut outcomes = std::mem::take(&mut self.outcomes[level]);
            state.chance_outcomes(&mut outcomes);
            self.stats.generated += outcomes.len() as u64;
            let mut mean = 0.0;
            for &(mv, p) in &outcomes {
                let mut child = state.clone();
                child.apply(mv);
                mean += p * self.expectimax(&child, depth, level + 1);
            }
            self.outcomes[level] = outcomes;
            return mean;
        }
        self.best_child(state, depth, level, Self::expectimax)
    }

    fn minimax(&mut self, state: &G, depth: usize, level: usize) -> f64 {
        if self.in_listed_order() {
            return self.minimax_listed(state, depth, level);
        }
        self.best_child(state, depth, level, Self::minimax)
    }

    /// A players' position to `depth`: its leaf value, or the best of its children for
    /// the side moving there, each valued by `value` one ply deeper (minimax's recursion
    /// or expectimax's).
    #[inline]
    fn best_child(
        &mut self,
        state: &G,
        depth: usize,
        level: usize,
        value: impl Fn(&mut Self, &G, usize, usize) -> f64 + Copy,
    ) -> f64 {
        if let Some(value) = self.leaf_value(state, depth, level) {
            return value;
        }
        let (moves, maximizing) = self.expand(state, level);
        let mut best = worst(maximizing);
        for &mv in &moves {
            let mut child = state.clone();
            child.apply(mv);
            let value = value(self, &child, depth - 1, level + 1);
            best = if maximizing {
                best.max(value)
            } else {
                best.min(value)
            };
        }
        self.buffers[level] = moves;
        best
    }

    fn alphabeta(
        &mut self,
        state: &G,
        depth: usize,
        level: usize,
        mut alpha: f64,
        mut beta: f64,
    ) -> f64 {
        if self.in_listed_order() {
            return self.alphabeta_listed(state, depth, level, alpha, beta);
        }
        if let Some(value) = self.leaf_value(state, depth, level) {
            return value;
        }
        let (moves, maximizing) = self.expand(state, level);
        let mut best = worst(maximizing);
        for &mv in &moves {
            let mut child = state.clone();
            child.apply(mv);
            let value = self.alphabeta(&child, depth - 1, level + 1, alpha, beta);
            narrow(maximizing, value, &mut best, &mut alpha, &mut beta);
            if alpha >= beta {
                if self.use_killers {
                    self.remember_killer(mv, level);
                }
                break;
            }
        }
        self.buffers[level] = moves;
        best
    }
}
