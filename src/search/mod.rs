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

/// A search algorithm.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Algorithm {
    /// Full-width minimax to a fixed depth.
    Minimax,
    /// Minimax with alpha-beta pruning (fail-soft), same move order as minimax.
    AlphaBeta,
    /// Alpha-beta searching the game's likely-best moves first (captures, advances).
    AlphaBetaOrdered,
    /// Ordered alpha-beta that also tries first the moves that caused cutoffs at the same
    /// level before (two killer moves per level).
    AlphaBetaKiller,
    /// Alpha-beta ordering every node's moves by the static evaluation of the position each
    /// leads to: best first for the root player at its nodes, worst first at the opponent's
    /// (report 003's "solution 4"). The ordering evaluations count as evaluated nodes.
    AlphaBetaSorted,
    /// Alpha-beta that keeps the heuristic values of positions already evaluated in a table
    /// keyed by the position hash, so a position reached again is not evaluated again
    /// (report 003's "history table").
    AlphaBetaCached,
    /// Iterative deepening alpha-beta with a transposition table (bounds, best move,
    /// depth), the table's move first, then captures, killer moves and the history
    /// heuristic ([`Searcher::search`] with a table of `tt_mb` megabytes).
    AlphaBetaTt,
    /// One-ply search: the move whose resulting position evaluates best.
    Greedy,
    /// A uniformly random legal move; no search, no heuristic.
    Random,
    /// Report 004's top-k beam search: the k best-scored moves, each answered by the
    /// opponent's best-scored reply, to `depth` own moves, rewards decayed by `gamma`;
    /// depth 0 is greedy on the action score.
    Beam,
    /// The course baseline: a random move among those with the best move-order score
    /// (Chinese Checkers: the largest row advance).
    SimpleGreedy,
    /// Monte Carlo tree search with UCT and random (or heuristic) rollouts ([`mcts`]).
    Mcts,
    /// Minimax where chance acts: a chance position is worth its outcomes' values weighed
    /// by their probabilities; chance does not use up depth (the players' moves do).
    Expectimax,
    /// Information-set MCTS ([`ismcts`]): each iteration plays in a position drawn from
    /// what the player has seen, for games where some of a position is hidden.
    Ismcts,
    /// max^n for games of any number of players: a value per player, each choosing the
    /// best for itself; shallow pruning with a bound ([`multi`]).
    Maxn,
    /// Paranoid search: ordered alpha-beta where every other player minimises the root
    /// player's value.
    Paranoid,
    /// Best-reply search: the root player's moves against the best single reply of any
    /// opponent, with alpha-beta ([`multi`]).
    Brs,
    /// Ballard's Star1: expectimax with alpha-beta at the players' positions and cutoffs
    /// at chance's, for values within a bound ([`star`]).
    Star1,
    /// Ballard's Star2: Star1 with a probe beneath each chance outcome ([`star`]).
    Star2,
}

impl Algorithm {
    /// Every algorithm, in the order `list` shows them.
    pub const ALL: [Algorithm; 19] = [
        Algorithm::Minimax,
        Algorithm::AlphaBeta,
        Algorithm::AlphaBetaOrdered,
        Algorithm::AlphaBetaKiller,
        Algorithm::AlphaBetaSorted,
        Algorithm::AlphaBetaCached,
        Algorithm::AlphaBetaTt,
        Algorithm::Expectimax,
        Algorithm::Star1,
        Algorithm::Star2,
        Algorithm::Maxn,
        Algorithm::Paranoid,
        Algorithm::Brs,
        Algorithm::Greedy,
        Algorithm::Beam,
        Algorithm::Mcts,
        Algorithm::Ismcts,
        Algorithm::SimpleGreedy,
        Algorithm::Random,
    ];

    /// The name used in agent specs.
    pub fn name(self) -> &'static str {
        match self {
            Algorithm::Minimax => "minimax",
            Algorithm::AlphaBeta => "alphabeta",
            Algorithm::AlphaBetaOrdered => "alphabeta-ordered",
            Algorithm::AlphaBetaKiller => "alphabeta-killer",
            Algorithm::AlphaBetaSorted => "alphabeta-sorted",
            Algorithm::AlphaBetaCached => "alphabeta-cached",
            Algorithm::AlphaBetaTt => "alphabeta-tt",
            Algorithm::Greedy => "greedy",
            Algorithm::Random => "random",
            Algorithm::Beam => "beam",
            Algorithm::SimpleGreedy => "simple-greedy",
            Algorithm::Mcts => "mcts",
            Algorithm::Expectimax => "expectimax",
            Algorithm::Ismcts => "ismcts",
            Algorithm::Maxn => "maxn",
            Algorithm::Paranoid => "paranoid",
            Algorithm::Brs => "brs",
            Algorithm::Star1 => "star1",
            Algorithm::Star2 => "star2",
        }
    }

    /// One line for `list` and `--help`.
    pub fn describe(self) -> &'static str {
        match self {
            Algorithm::Minimax => "full-width minimax to `depth` plies",
            Algorithm::AlphaBeta => "alpha-beta pruning; same move and value as minimax",
            Algorithm::AlphaBetaOrdered => {
                "alpha-beta, likely-best moves first; same value as minimax"
            }
            Algorithm::AlphaBetaKiller => {
                "ordered alpha-beta with two killer moves per level; same value as minimax"
            }
            Algorithm::AlphaBetaSorted => {
                "alpha-beta, moves sorted by the evaluation of their positions; same value as minimax"
            }
            Algorithm::AlphaBetaCached => {
                "alpha-beta with a table of evaluated positions; same move and value as minimax"
            }
            Algorithm::AlphaBetaTt => {
                "iterative deepening alpha-beta, transposition table, table move/killers/captures/history first, PVS; same value as minimax"
            }
            Algorithm::Greedy => "one ply: the move whose position evaluates best",
            Algorithm::Random => "a uniformly random legal move",
            Algorithm::Beam => {
                "top-k beam with the opponent's best reply, decay gamma (report 004)"
            }
            Algorithm::SimpleGreedy => "random among the moves with the best move-order score",
            Algorithm::Mcts => {
                "Monte Carlo tree search (UCT), random or heuristic rollouts, chance sampled; the most visited move"
            }
            Algorithm::Expectimax => {
                "minimax to `depth` moves with chance's outcomes averaged by their probabilities (dice games); minimax where there is no chance"
            }
            Algorithm::Ismcts => {
                "information-set MCTS: each iteration plays in a position drawn from what the player has seen (cards, hidden moves); MCTS where nothing is hidden"
            }
            Algorithm::Maxn => {
                "max^n to `depth` plies for any number of players: each player picks the child best for itself; `bound` (the centred heuristic's bound) turns on shallow pruning"
            }
            Algorithm::Paranoid => {
                "paranoid search for any number of players: alpha-beta where all the others minimise the root player's value; alphabeta-ordered for two"
            }
            Algorithm::Brs => {
                "best-reply search for any number of players: the root player's moves against the one best reply of any opponent, alpha-beta"
            }
            Algorithm::Star1 => {
                "Ballard's Star1: expectimax's value with alpha-beta cutoffs, also at chance's positions, for heuristic values within `bound`"
            }
            Algorithm::Star2 => {
                "Ballard's Star2: Star1 that first probes one move beneath each chance outcome, cutting off on the probes' bounds; the same value"
            }
        }
    }

    /// Whether the algorithm takes a depth (and a heuristic).
    pub fn searches(self) -> bool {
        matches!(
            self,
            Algorithm::Minimax
                | Algorithm::AlphaBeta
                | Algorithm::AlphaBetaOrdered
                | Algorithm::AlphaBetaKiller
                | Algorithm::AlphaBetaSorted
                | Algorithm::AlphaBetaCached
                | Algorithm::AlphaBetaTt
                | Algorithm::Expectimax
                | Algorithm::Maxn
                | Algorithm::Paranoid
                | Algorithm::Brs
                | Algorithm::Star1
                | Algorithm::Star2
        )
    }

    /// Whether the algorithm plays games of more than two players ([`Game::players`]):
    /// those written for them, MCTS (each node's reward is its mover's), and those that
    /// look no further than one move.
    pub fn handles_many(self) -> bool {
        matches!(
            self,
            Algorithm::Maxn
                | Algorithm::Paranoid
                | Algorithm::Brs
                | Algorithm::Mcts
                | Algorithm::Ismcts
                | Algorithm::Greedy
                | Algorithm::Random
                | Algorithm::SimpleGreedy
        )
    }

    /// Whether the algorithm plays games where chance acts ([`crate::core::Game::CHANCE`]):
    /// those that average over chance's outcomes or sample them, and those that look no
    /// further than the next position.
    pub fn handles_chance(self) -> bool {
        matches!(
            self,
            Algorithm::Expectimax
                | Algorithm::Star1
                | Algorithm::Star2
                | Algorithm::Mcts
                | Algorithm::Ismcts
                | Algorithm::Greedy
                | Algorithm::Random
                | Algorithm::SimpleGreedy
        )
    }

    /// Whether the algorithm plays games where some of a position is hidden from a player
    /// ([`crate::core::Game::HIDDEN`]) without reading it: those that draw what is hidden,
    /// and random.
    pub fn handles_hidden(self) -> bool {
        matches!(self, Algorithm::Ismcts | Algorithm::Random)
    }

    /// Whether it is one of the Monte Carlo tree searches (taking `iterations`, `c` and
    /// the rollout's parameters).
    pub fn is_mcts(self) -> bool {
        matches!(self, Algorithm::Mcts | Algorithm::Ismcts)
    }

    /// Whether the algorithm prunes with alpha-beta.
    pub fn prunes(self) -> bool {
        matches!(
            self,
            Algorithm::AlphaBeta
                | Algorithm::AlphaBetaOrdered
                | Algorithm::AlphaBetaKiller
                | Algorithm::AlphaBetaSorted
                | Algorithm::AlphaBetaCached
                | Algorithm::AlphaBetaTt
        )
    }

    /// Whether the algorithm uses a heuristic.
    /// (MCTS takes one only for heuristic rollouts or cut-offs.)
    pub fn uses_heuristic(self) -> bool {
        !matches!(
            self,
            Algorithm::Random | Algorithm::SimpleGreedy | Algorithm::Mcts | Algorithm::Ismcts
        )
    }
}

impl fmt::Display for Algorithm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Algorithm {
    type Err = String;
    fn from_str(text: &str) -> Result<Self, String> {
        Algorithm::ALL
            .into_iter()
            .find(|a| a.name() == text)
            .ok_or_else(|| {
                let known: Vec<&str> = Algorithm::ALL.iter().map(|a| a.name()).collect();
                format!("unknown algorithm '{text}' (known: {})", known.join(", "))
            })
    }
}

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

impl<G: Game, E: Evaluator<G> + ActionEvaluator<G>> Searcher<G, E> {
    /// Report 004's top-k beam search to `depth` own moves (0: greedy on the action
    /// score). Every position whose moves are scored counts as expanded, every scored move
    /// as evaluated. Returns `None` without legal moves.
    pub fn beam(
        &mut self,
        state: &G,
        depth: u32,
        k: usize,
        gamma: f64,
        rng: &mut GameRng,
    ) -> Option<SearchResult<G::Move>> {
        let depth = depth as usize;
        while self.scored.len() <= depth + 1 {
            self.scored.push(Vec::with_capacity(64));
        }
        while self.buffers.len() <= depth + 1 {
            self.buffers.push(Vec::with_capacity(64));
            self.scores.push(Vec::new());
            self.killers.push([None; 2]);
        }
        self.root = state.to_move();
        self.stats = SearchStats::default();
        self.aborted = false;
        self.countdown = 1;
        let mut moves = std::mem::take(&mut self.buffers[0]);
        state.legal_moves(&mut moves);
        seeds::shuffle(rng, &mut moves);
        let ranked = self.rank(state, &moves, 0);
        self.buffers[0] = moves;
        let mut best: Option<(G::Move, f64)> = None;
        for &(score, mv) in ranked.iter().take(if depth == 0 { 1 } else { k.max(1) }) {
            let value = if depth == 0 {
                score
            } else {
                let (next, reply) = self.reply(state, mv, 1);
                self.beam_value(&next, 1, depth, k, gamma, score - reply)
            };
            if self.aborted {
                break;
            }
            if best.is_none_or(|(_, v)| value > v) {
                best = Some((mv, value));
            }
        }
        self.scored[0] = ranked;
        self.stats.peak_bytes = self.state_bytes(depth + 1);
        best.map(|(best, value)| SearchResult {
            best,
            value,
            stats: self.stats,
            complete: !self.aborted,
            reached: depth as u32,
        })
    }

    /// The legal moves of `state` scored for its mover, best first (stable: ties keep
    /// their order). Counts the position as expanded and each move as evaluated.
    fn rank(&mut self, state: &G, moves: &[G::Move], level: usize) -> Vec<(f64, G::Move)> {
        let mut ranked = std::mem::take(&mut self.scored[level]);
        ranked.clear();
        self.stats.count_expanded(level);
        self.stats.generated += moves.len() as u64;
        for &mv in moves {
            self.stats.count_evaluated(level + 1);
            ranked.push((self.evaluator.score(state, mv, self.noise_seed), mv));
        }
        ranked.sort_by(|a, b| b.0.total_cmp(&a.0));
        ranked
    }

    /// Plays `mv` and the opponent's best-scored reply (none once the armies have
    /// separated, or when the game is over); returns the position and the reply's score.
    fn reply(&mut self, state: &G, mv: G::Move, level: usize) -> (G, f64) {
        let mut next = state.clone();
        next.apply(mv);
        if next.outcome().is_some() || self.evaluator.separated(&next) {
            return (next, 0.0);
        }
        let mut moves = std::mem::take(&mut self.buffers[level]);
        next.legal_moves(&mut moves);
        let ranked = self.rank(&next, &moves, level);
        self.buffers[level] = moves;
        let reply = ranked.first().copied();
        self.scored[level] = ranked;
        match reply {
            Some((score, answer)) => {
                next.apply(answer);
                (next, score)
            }
            None => (next, 0.0),
        }
    }

    /// The value of a beam node `t` own moves deep, `path` the decayed reward so far.
    fn beam_value(
        &mut self,
        state: &G,
        t: usize,
        depth: usize,
        k: usize,
        gamma: f64,
        path: f64,
    ) -> f64 {
        if self.out_of_time() {
            return path;
        }
        if let Some(outcome) = state.outcome() {
            return path + finished_value(state, outcome, self.root);
        }
        let mut moves = std::mem::take(&mut self.buffers[t]);
        state.legal_moves(&mut moves);
        let ranked = self.rank(state, &moves, t);
        self.buffers[t] = moves;
        let decay = gamma.powi(t as i32);
        let value = if t == depth {
            path + decay * ranked.first().map_or(0.0, |r| r.0)
        } else {
            let mut best = f64::NEG_INFINITY;
            for &(score, mv) in ranked.iter().take(k.max(1)) {
                let (next, reply) = self.reply(state, mv, t + 1);
                let value = self.beam_value(
                    &next,
                    t + 1,
                    depth,
                    k,
                    gamma,
                    path + decay * (score - reply),
                );
                best = best.max(value);
            }
            if best.is_finite() { best } else { path }
        };
        self.scored[t] = ranked;
        value
    }
}

/// How an agent searches: the algorithm and its parameters.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SearchConfig {
    /// The algorithm.
    pub algorithm: Algorithm,
    /// Depth in plies (beam: own moves; with a time budget: the deepest iteration).
    pub depth: u32,
    /// Beam width k.
    pub beam_width: usize,
    /// Beam decay gamma.
    pub gamma: f64,
    /// A time budget per move: iterative deepening, keeping the move of the deepest
    /// iteration finished in time (MCTS: iterations until then).
    pub time_ms: Option<u64>,
    /// A node budget per move: iterative deepening, keeping the move of the deepest
    /// iteration finished within the budget (nodes as [`SearchStats::nodes`] counts them).
    pub nodes: Option<u64>,
    /// MCTS's parameters.
    pub mcts: mcts::MctsConfig,
    /// alphabeta-tt's table size in megabytes.
    pub tt_mb: u32,
    /// alphabeta-tt's aspiration half-width (0: none).
    pub aspiration: f64,
    /// The bound on the values that lets maxn prune shallowly and star1 cut at chance's
    /// positions (maxn: none, no pruning; star1: always given).
    pub bound: Option<f64>,
}

impl SearchConfig {
    /// A fixed-depth search with the default beam parameters.
    pub fn fixed(algorithm: Algorithm, depth: u32) -> SearchConfig {
        SearchConfig {
            algorithm,
            depth,
            beam_width: 4,
            gamma: 1.0,
            time_ms: None,
            nodes: None,
            mcts: mcts::MctsConfig::default(),
            tt_mb: tt::DEFAULT_TT_MB,
            aspiration: 0.0,
            bound: None,
        }
    }
}

/// The generator of an agent's own draws (tie-breaks, random moves, MCTS), from the seed
/// the harness gives the agent for a game.
pub fn agent_rng(seed: u64) -> GameRng {
    seeds::rng(seeds::derive(seed, &[2]))
}

/// A uniformly random legal move of `state` (not finished), drawn from `rng`.
#[inline]
fn random_move<G: Game>(state: &G, buffer: &mut Vec<G::Move>, rng: &mut GameRng) -> G::Move {
    seeds::random_move(state, buffer, rng).expect("decide called on a finished game")
}

/// The `random` agent: what a [`SearchAgent`] with [`Algorithm::Random`] plays, without
/// the searcher that agent carries (its construction, boxed for every game, was most of
/// the cost of seating two random agents).
pub struct RandomAgent<G: Game> {
    rng: GameRng,
    buffer: Vec<G::Move>,
}

impl<G: Game> RandomAgent<G> {
    /// An agent whose moves derive from `seed`.
    pub fn new(seed: u64) -> Self {
        RandomAgent {
            rng: agent_rng(seed),
            buffer: Vec::new(),
        }
    }
}

impl<G: Game> Agent<G> for RandomAgent<G> {
    fn decide(&mut self, state: &G, _limits: &Limits) -> Decision<G::Move> {
        Decision::just(random_move(state, &mut self.buffer, &mut self.rng))
    }
}

/// An agent that plays by one algorithm with one heuristic.
pub struct SearchAgent<G: Game, E> {
    config: SearchConfig,
    searcher: Searcher<G, E>,
    rng: GameRng,
    buffer: Vec<G::Move>,
    /// The game clocks before this move, when the game has them.
    clock: Option<Clock>,
}

impl<G: Game, E: Evaluator<G> + ActionEvaluator<G>> SearchAgent<G, E> {
    /// An agent whose tie-breaks and random term derive from `seed`.
    pub fn new(config: SearchConfig, evaluator: E, seed: u64) -> Self {
        let mut searcher = Searcher::new(evaluator, seeds::derive(seed, &[1]));
        searcher.set_table_megabytes(config.tt_mb);
        searcher.set_aspiration(config.aspiration);
        searcher.set_bound(config.bound);
        SearchAgent {
            config,
            searcher,
            rng: agent_rng(seed),
            buffer: Vec::new(),
            clock: None,
        }
    }

    fn search_once(&mut self, state: &G, depth: u32) -> Option<SearchResult<G::Move>> {
        let config = self.config;
        match config.algorithm {
            Algorithm::Beam => {
                self.searcher
                    .beam(state, depth, config.beam_width, config.gamma, &mut self.rng)
            }
            algorithm => self.searcher.search(state, algorithm, depth, &mut self.rng),
        }
    }
}

/// An agent's time budget for its next move (`time_ms`), on a game clock at most the
/// clock's share of its time left ([`Clock::share`]); a fixed-depth agent (no budget)
/// keeps none, and only the clock's deadline cuts its search.
pub fn budget_on_clock(
    time_ms: Option<u64>,
    clock: Option<Clock>,
    side: Player,
) -> Option<Duration> {
    let own = time_ms.map(Duration::from_millis)?;
    Some(clock.map_or(own, |clock| own.min(clock.share(side))))
}

impl<G: Game, E: Evaluator<G> + ActionEvaluator<G>> Agent<G> for SearchAgent<G, E> {
    fn see_clock(&mut self, clock: &Clock) {
        self.clock = Some(*clock);
    }

    fn decide(&mut self, state: &G, limits: &Limits) -> Decision<G::Move> {
        let algorithm = self.config.algorithm;
        if algorithm == Algorithm::Random {
            return Decision::just(random_move(state, &mut self.buffer, &mut self.rng));
        }
        if algorithm == Algorithm::SimpleGreedy {
            state.legal_moves(&mut self.buffer);
            assert!(!self.buffer.is_empty(), "decide called on a finished game");
            let best = self
                .buffer
                .iter()
                .map(|&m| state.move_order_score(m))
                .max()
                .unwrap_or(0);
            self.buffer.retain(|&m| state.move_order_score(m) == best);
            let mv = self.buffer[seeds::below(&mut self.rng, self.buffer.len())];
            return Decision::just(mv);
        }
        // The agent's own budget (iterative deepening) and the harness's limits: the
        // earlier deadline counts. An agent that manages its time (a budget of its own)
        // aims at the harness's deadline a little early (a twentieth of the time left, at
        // most 10 ms), so that answering after the last check does not carry the move past
        // it: one whose budget equals the experiment's move_time_ms must not forfeit every
        // game by microseconds. A fixed-depth search cut by the deadline still overruns it.
        // On a game clock, a time budget is at most the clock's share for this move.
        let now = Instant::now();
        let clock = self.clock.take();
        // No depth to stop at (0, or deeper than a fixed search goes) and no budget of its
        // own: on a game clock, the agent spends its clock's share on each move.
        let deepening = self.config.depth == 0 || self.config.depth > MAX_DEPTH;
        let budget = match (self.config.time_ms, clock) {
            (None, Some(clock)) if deepening && self.config.nodes.is_none() => {
                Some(clock.share(state.to_move()))
            }
            (time_ms, clock) => budget_on_clock(time_ms, clock, state.to_move()),
        }
        .and_then(|time| now.checked_add(time));
        let harness = limits.deadline.map(|deadline| match budget {
            Some(_) => aim_before(deadline, now),
            None => deadline,
        });
        let deadline = match (budget, harness) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        self.searcher.set_limits(Limits {
            deadline,
            stop: limits.stop.clone(),
        });
        let node_budget = self.config.nodes;
        let (first, last) = match (budget, node_budget) {
            // Fixed depth: one search.
            (None, None) if !deepening => (self.config.depth, self.config.depth),
            // Nothing stops it but the harness's deadline, if any: no deeper than a fixed
            // search may go when there is none.
            (None, None) => {
                let most = if deadline.is_some() {
                    MAX_DEEPENING
                } else {
                    MAX_DEPTH
                };
                let depth = if self.config.depth == 0 {
                    most
                } else {
                    self.config.depth
                };
                (1, depth.min(most))
            }
            _ => {
                let first = if algorithm == Algorithm::Beam { 0 } else { 1 };
                let last = if self.config.depth == 0 {
                    MAX_DEEPENING
                } else {
                    self.config.depth.max(first)
                };
                (first, last)
            }
        };
        // alphabeta-tt deepens by itself, its table carrying each iteration to the next.
        let first = if algorithm == Algorithm::AlphaBetaTt {
            last
        } else {
            first
        };
        // The move of the deepest search finished in time; if not even the first
        // finished, its best completely searched root move.
        let mut stats = SearchStats::default();
        let mut chosen: Option<(SearchResult<G::Move>, u32)> = None;
        for depth in first..=last {
            // What is left of the node budget for this iteration.
            let left = node_budget.map(|n| n.saturating_sub(stats.nodes()));
            if left == Some(0) {
                break;
            }
            self.searcher.set_node_limit(left);
            let Some(result) = self.search_once(state, depth) else {
                break;
            };
            stats += result.stats;
            if result.complete {
                chosen = Some((result, result.reached.min(depth)));
            } else {
                if chosen.is_none() {
                    chosen = Some((result, 0));
                }
                break;
            }
            if deadline.is_some_and(|d| Instant::now() >= d) {
                break;
            }
        }
        self.searcher.set_limits(Limits::NONE);
        self.searcher.set_node_limit(None);
        let Some((result, depth)) = chosen else {
            // Stopped before any root move was searched: any legal move.
            state.legal_moves(&mut self.buffer);
            let mv = *self
                .buffer
                .first()
                .expect("decide called on a finished game");
            return Decision {
                stats: stats.into(),
                ..Decision::just(mv)
            };
        };
        Decision {
            value: Some(result.value),
            stats: stats.into(),
            depth,
            ..Decision::just(result.best)
        }
    }
}
