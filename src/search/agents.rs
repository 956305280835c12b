//! Agents that search: the configuration an agent is made from, the random agent, and
//! the search agent with its time management on a clock.

use super::*;

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
