//! Information-set Monte Carlo tree search (single-observer IS-MCTS, after Cowling, Powley
//! and Whitehouse, 2012), for games where some of a position is hidden from a player.
//!
//! The tree holds the moves as the searching player sees them. Each iteration first draws
//! a position the player cannot tell from the real one ([`Game::determinize`]: the hidden
//! part guessed from the game's seeded stream, never read), then descends the tree playing
//! in that drawn position: at chance's turn the outcome chance gives there; at a player's
//! turn, among the node's children whose move is legal in the drawn position, an untried
//! move first (a random one), else the largest
//! `reward / visits + c * sqrt(ln(availability) / visits)`, where a child's availability
//! counts the iterations in which its move could have been played. The leaf gets one new
//! child, a rollout is played from it ([`MctsConfig`]'s rollouts, as MCTS plays them) and
//! the result is backed up. Moves are matched across drawn positions by
//! [`Game::move_key`]. The move played is the root child visited most. Where nothing is
//! hidden, every drawn position is the real one and this is MCTS growing one node per
//! iteration. A game scored by more than who won ([`Game::returns`]: chips at poker) is
//! played for its returns: a node's mean is its mover's return, UCT comparing means on the
//! range of the returns seen so far in the search.
//!
//! Moves made simultaneously, in rounds played in turns ([`Game::in_round`]), are searched
//! blind: every player of a round chooses at the node where the round began, not seeing
//! the moves made before it in the round, and the position after the round hangs below
//! the first mover's child, keyed by the later moves; a player to move inside a round
//! searches from the round's start ([`Game::round_start`]). How each chooses there
//! ([`Rounds`]): by its own UCT statistics (decoupled UCT, the default, the most visited
//! move played); or by regret matching, as Lanctot, Lisý and Winands (2013) search
//! simultaneous moves (its move drawn with probability `(1 - γ) σ + γ / k`, σ its share of
//! the positive regrets, γ [`EXPLORE`]; once the iteration's result `u` is known, the
//! drawn move's regret grows by `u / p - u` and every other's by `-u`, none falling below
//! 0 (regret matching+), and the t-th visit's σ is added to the average strategy with
//! weight t; the move played is the one the average strategy favours most); or as moves
//! in turn, a later player's node below the earlier moves as if it had seen them.
//!
//! Counted per level of the tree like MCTS: an *expanded* node is one that got a new
//! child in an iteration (`generated` counts the children made, one per iteration at
//! most); an *evaluated* node is where an iteration's rollout began, so `evaluated` is the
//! number of iterations.

use super::mcts::{
    Budget, MctsConfig, MctsResult, Rollouts, Rounds, TreeAgent, TreeSearch, WIN, halves_for,
    winner_of,
};
use crate::core::seeds::{self, GameRng, mix64};
use crate::core::{Evaluator, Game, Limits, Player, SearchStats};

/// No node: node 0 is the root, which is nobody's child or sibling.
const NONE: u32 = 0;

/// Regret matching's exploration γ in a round of simultaneous moves: the share of the
/// draws made uniformly among the legal moves.
const EXPLORE: f64 = 0.1;

/// A tree node: the move that led to it (by key), who made it, its first child and next
/// sibling, and its statistics (rewards for the player who made the move).
#[derive(Clone, Copy, Debug)]
struct Node {
    key: u64,
    mover: Player,
    first_child: u32,
    next_sibling: u32,
    visits: u32,
    /// Iterations in which its move was legal when its parent was reached.
    available: u32,
    /// The summed reward of the player who made the move: 1 a win, 0.5 a draw, 0 a loss;
    /// in a game with returns, the returns themselves (see [`Scale`]).
    reward: f64,
    /// In a round of simultaneous moves: the move's regret and its summed probability
    /// (regret matching's average strategy, what the move played is drawn from).
    regret: f64,
    strategy: f64,
    /// Whether a round of simultaneous moves begins here (its players choose by regret
    /// matching).
    blind: bool,
}

impl Node {
    fn new(key: u64, mover: Player) -> Node {
        Node {
            key,
            mover,
            first_child: NONE,
            next_sibling: NONE,
            visits: 0,
            available: 0,
            reward: 0.0,
            regret: 0.0,
            strategy: 0.0,
            blind: false,
        }
    }
}

/// The range of the rewards a search has backed up, for UCT's means in [0, 1]: a win 1
/// and a loss 0 in a game scored by who won; in a game with returns, the least and most
/// return seen in this search so far (the means are compared on that range).
#[derive(Clone, Copy, Debug, PartialEq)]
struct Scale {
    low: f64,
    high: f64,
    /// Whether returns were seen (the range is theirs, not the unit one).
    seen: bool,
}

impl Scale {
    /// The unit range: a win 1, a loss 0.
    const UNIT: Scale = Scale {
        low: 0.0,
        high: 1.0,
        seen: false,
    };

    /// Widens the range to hold `returns` (the first returns replace the unit range).
    fn see(&mut self, returns: &[f64]) {
        if !self.seen {
            *self = Scale {
                low: f64::INFINITY,
                high: f64::NEG_INFINITY,
                seen: true,
            };
        }
        for &r in returns {
            self.low = self.low.min(r);
            self.high = self.high.max(r);
        }
    }

    /// A mean reward as a number in [0, 1] (0.5 while the range is a point).
    fn unit(&self, mean: f64) -> f64 {
        let span = self.high - self.low;
        if span > 0.0 {
            (mean - self.low) / span
        } else {
            0.5
        }
    }

    /// A score in half points (a win 2) on this range.
    fn of_halves(&self, halves: u32) -> f64 {
        self.low + (self.high - self.low) * f64::from(halves) / f64::from(WIN)
    }
}

/// A reusable IS-MCTS searcher: the node arena and buffers are kept from move to move.
pub struct Ismcts<G: Game, E> {
    config: MctsConfig,
    rollouts: Rollouts<G, E>,
    nodes: Vec<Node>,
    path: Vec<u32>,
    moves: Vec<G::Move>,
    /// The legal moves of a node's drawn position with their keys and child (or `NONE`).
    options: Vec<(G::Move, u64, u32)>,
    /// The range of the rewards backed up in the current search.
    scale: Scale,
    /// The children chosen by the later movers of the rounds of simultaneous moves in an
    /// iteration (statistics of a round's node, not positions on its path).
    arms: Vec<u32>,
    /// Whether the root's move is made in a round with others' moves unseen.
    simultaneous: bool,
    /// The moves regret matching offered in an iteration (child, probability if drawn,
    /// else 0), and each choice's range in it.
    drawn: Vec<(u32, f64)>,
    groups: Vec<(usize, usize)>,
}

impl<G: Game, E: Evaluator<G>> Ismcts<G, E> {
    /// A searcher with `config`; the heuristic (for heuristic rollouts and cut-offs) and
    /// its random term's seed.
    pub fn new(config: MctsConfig, evaluator: E, noise_seed: u64) -> Self {
        Ismcts {
            config,
            rollouts: Rollouts::new(config, evaluator, noise_seed),
            nodes: Vec::new(),
            path: Vec::new(),
            moves: Vec::new(),
            options: Vec::new(),
            scale: Scale::UNIT,
            arms: Vec::new(),
            simultaneous: false,
            drawn: Vec::new(),
            groups: Vec::new(),
        }
    }

    /// Searches `state` (not finished, the searcher's turn) until the iterations are done
    /// or `limits` are reached (at least one iteration). `None` when it has no legal move
    /// or no position could be drawn.
    pub fn search(
        &mut self,
        state: &G,
        limits: &Limits,
        rng: &mut GameRng,
    ) -> Option<MctsResult<G::Move>> {
        let me = state.to_move();
        // Inside a round of simultaneous moves, the search starts where the round began:
        // the moves made in it since are the others' choices, searched, not seen.
        let start = if self.config.rounds != Rounds::Turns && state.in_round() {
            state.round_start()
        } else {
            None
        };
        let root = start.as_ref().unwrap_or(state);
        self.scale = Scale::UNIT;
        self.simultaneous = false;
        self.nodes.clear();
        self.nodes.push(Node::new(0, me.opponent()));
        let mut stats = SearchStats::default();
        let mut depth = 0u32;
        let mut budget = Budget::new(&self.config, limits);
        while budget.another(limits) {
            let drawn = root.determinize(me, seeds::next_u64(rng))?;
            depth = depth.max(self.iterate(drawn, rng, &mut stats));
        }
        // The real position's moves, matched to the root's children of this player by key.
        state.legal_moves(&mut self.moves);
        self.options.clear();
        for &mv in &self.moves {
            let key = state.move_key(mv);
            let child = self.child_by(0, key, me);
            if child != NONE {
                self.options.push((mv, key, child));
            }
        }
        let visits = |&(_, _, child): &(G::Move, u64, u32)| self.nodes[child as usize].visits;
        let strategy = |&(_, _, child): &(G::Move, u64, u32)| self.nodes[child as usize].strategy;
        let total: f64 = self.options.iter().map(strategy).sum();
        let chosen = if self.simultaneous && self.config.rounds == Rounds::Regret && total > 0.0 {
            // Regret matching plays the move its average strategy favours most: drawn from
            // that strategy after a few hundred iterations, the move was often one of the
            // many it still spread a little weight over (it lost 0-34 to `rounds=turns` at
            // oshi_zumo that way, against 10-19 so).
            self.options.iter().copied().reduce(|best, o| {
                if strategy(&o) > strategy(&best) {
                    o
                } else {
                    best
                }
            })
        } else {
            self.options
                .iter()
                .copied()
                .reduce(|best, o| if visits(&o) > visits(&best) { o } else { best })
        };
        let (mv, node) = chosen
            .map(|(mv, _, child)| (mv, self.nodes[child as usize]))
            .or_else(|| self.moves.first().map(|&mv| (mv, Node::new(0, me))))?;
        stats.peak_bytes = (self.nodes.capacity() * std::mem::size_of::<Node>()) as u64;
        Some(MctsResult {
            best: mv,
            value: if node.visits == 0 {
                0.5
            } else {
                self.scale.unit(node.reward / f64::from(node.visits))
            },
            stats,
            depth,
        })
    }

    /// The children of `node`, first to last.
    fn children(&self, node: u32) -> impl Iterator<Item = u32> + '_ {
        let mut next = self.nodes[node as usize].first_child;
        std::iter::from_fn(move || {
            (next != NONE).then(|| {
                let this = next;
                next = self.nodes[this as usize].next_sibling;
                this
            })
        })
    }

    /// Adds a child reached by `key`, played by `mover`, in front of `node`'s children.
    fn add_child(&mut self, node: u32, key: u64, mover: Player) -> u32 {
        let child = self.nodes.len() as u32;
        let mut new = Node::new(key, mover);
        new.next_sibling = self.nodes[node as usize].first_child;
        self.nodes.push(new);
        self.nodes[node as usize].first_child = child;
        child
    }

    /// The child of `node` reached by `key`, if it has one.
    fn child_by_key(&self, node: u32, key: u64) -> u32 {
        self.children(node)
            .find(|&i| self.nodes[i as usize].key == key)
            .unwrap_or(NONE)
    }

    /// The child of `node` reached by `mover`'s move `key`, if it has one.
    fn child_by(&self, node: u32, key: u64, mover: Player) -> u32 {
        self.children(node)
            .find(|&i| self.nodes[i as usize].key == key && self.nodes[i as usize].mover == mover)
            .unwrap_or(NONE)
    }

    /// Fills `options` with the legal moves of `state` (the player to move's), their keys
    /// and their children of `node` (`NONE` for a move without one, unless `create` makes
    /// them). Returns whether a child was made; `None` without a legal move.
    fn list_options(&mut self, node: u32, state: &G, create: bool) -> Option<bool> {
        let mover = state.to_move();
        state.legal_moves(&mut self.moves);
        if self.moves.is_empty() {
            return None;
        }
        self.options.clear();
        let mut created = false;
        for i in 0..self.moves.len() {
            let mv = self.moves[i];
            let key = state.move_key(mv);
            let mut child = self.child_by(node, key, mover);
            if child == NONE && create {
                child = self.add_child(node, key, mover);
                created = true;
            }
            self.options.push((mv, key, child));
        }
        Some(created)
    }

    /// The move of the player to move in `state`, by its statistics among `node`'s
    /// children: an untried move first (a random one, given a new child), else the
    /// largest UCT score among the children whose move is legal here (each one's
    /// availability counted). Returns the move, its key, its child and whether the child
    /// is new; `None` without a legal move.
    fn choose(
        &mut self,
        node: u32,
        state: &G,
        rng: &mut GameRng,
    ) -> Option<(G::Move, u64, u32, bool)> {
        let mover = state.to_move();
        self.list_options(node, state, false)?;
        let untried = self.options.iter().filter(|o| o.2 == NONE).count();
        if untried > 0 {
            // Expansion: a random untried move gets a node.
            let pick = seeds::below(rng, untried);
            let &(mv, key, _) = self
                .options
                .iter()
                .filter(|o| o.2 == NONE)
                .nth(pick)
                .expect("an untried move");
            for &(_, _, child) in &self.options {
                if child != NONE {
                    self.nodes[child as usize].available += 1;
                }
            }
            let child = self.add_child(node, key, mover);
            self.nodes[child as usize].available += 1;
            return Some((mv, key, child, true));
        }
        // Selection among the children whose move is legal here.
        let mut best = (f64::NEG_INFINITY, self.options[0]);
        for &option in &self.options {
            let node = &mut self.nodes[option.2 as usize];
            node.available += 1;
            let visits = f64::from(node.visits.max(1));
            let score = self.scale.unit(node.reward / visits)
                + self.config.c * (f64::from(node.available).ln() / visits).sqrt();
            if score > best.0 {
                best = (score, option);
            }
        }
        let (mv, key, child) = best.1;
        Some((mv, key, child, false))
    }

    /// The move of the player to move in `state` in a round of simultaneous moves begun at
    /// `node`, by regret matching: each legal move is drawn with probability
    /// `(1 - γ) σ + γ / k`, σ its share of the positive regrets (all alike while none is
    /// positive), γ [`EXPLORE`], and σ is added to its strategy sum; the regrets are
    /// updated once the iteration's result is known ([`Ismcts::settle_regrets`]). Returns
    /// the move, its key, its child and whether the child is new; `None` without a legal
    /// move.
    fn regret_choose(
        &mut self,
        node: u32,
        state: &G,
        rng: &mut GameRng,
    ) -> Option<(G::Move, u64, u32, bool)> {
        let created = self.list_options(node, state, true)?;
        let positive: f64 = self
            .options
            .iter()
            .map(|o| self.nodes[o.2 as usize].regret.max(0.0))
            .sum();
        let k = self.options.len() as f64;
        let share = |regret: f64| {
            if positive > 0.0 {
                regret.max(0.0) / positive
            } else {
                1.0 / k
            }
        };
        let mut ticket = seeds::unit(rng);
        let mut picked = self.options.len() - 1;
        for (i, option) in self.options.iter().enumerate() {
            let p = (1.0 - EXPLORE) * share(self.nodes[option.2 as usize].regret) + EXPLORE / k;
            if ticket < p {
                picked = i;
                break;
            }
            ticket -= p;
        }
        let group = self.drawn.len();
        // Linear averaging: the t-th visit's σ weighs t, so the first, nearly uniform
        // draws fade from the average strategy.
        let t = f64::from(self.nodes[node as usize].visits) + 1.0;
        for (i, option) in self.options.iter().enumerate() {
            let node = &mut self.nodes[option.2 as usize];
            let sigma = share(node.regret);
            node.strategy += t * sigma;
            let p = (1.0 - EXPLORE) * sigma + EXPLORE / k;
            self.drawn
                .push((option.2, if i == picked { p } else { 0.0 }));
        }
        self.groups.push((group, self.drawn.len()));
        let (mv, key, child) = self.options[picked];
        Some((mv, key, child, created))
    }

    /// Regret matching's update, once an iteration's rewards are known: in each group of
    /// moves drawn by [`Ismcts::regret_choose`], with `u` the drawn move's reward on the
    /// unit range and `p` its probability, each move's regret grows by `u / p` for the
    /// drawn move and 0 for the others, less `u` (the sampled estimate of what playing
    /// it instead would have gained).
    fn settle_regrets(&mut self, rewards: &[f64; Player::MAX]) {
        for &(from, to) in &self.groups {
            let Some(&(arm, p)) = self.drawn[from..to].iter().find(|d| d.1 > 0.0) else {
                continue;
            };
            let u = self
                .scale
                .unit(rewards[self.nodes[arm as usize].mover.index()]);
            for &(child, q) in &self.drawn[from..to] {
                let gain = if q > 0.0 { u / p } else { 0.0 };
                // Regret matching+: a regret never falls below 0, so a move that turns
                // good is played again at once.
                let regret = &mut self.nodes[child as usize].regret;
                *regret = (*regret + gain - u).max(0.0);
            }
        }
        self.groups.clear();
        self.drawn.clear();
    }

    /// One iteration in the drawn position `state`; returns the tree level where its
    /// rollout began.
    fn iterate(&mut self, mut state: G, rng: &mut GameRng, stats: &mut SearchStats) -> u32 {
        self.path.clear();
        self.arms.clear();
        self.groups.clear();
        self.drawn.clear();
        let mut node = 0u32;
        self.path.push(node);
        let mut grown = false;
        while state.outcome().is_none() {
            let level = self.path.len() - 1;
            if G::CHANCE && state.is_chance() {
                let Some(mv) = state.chance_move(seeds::unit(rng), &mut self.rollouts.outcomes)
                else {
                    break;
                };
                let key = state.move_key(mv);
                let mut child = self.child_by_key(node, key);
                if child == NONE {
                    if grown {
                        break;
                    }
                    grown = true;
                    child = self.add_child(node, key, state.to_move());
                    stats.count_expanded(level);
                    stats.generated += 1;
                }
                state.apply(mv);
                node = child;
                self.path.push(node);
                if grown {
                    break;
                }
                continue;
            }
            // A player's turn begins a round: one move in a game of sequential moves. In a
            // game of simultaneous moves played in turns, every player of the round chooses
            // by its own statistics at this node, blind to the moves made before it in the
            // round (decoupled UCT); the position after the round hangs below the first
            // mover's child, keyed by the later moves.
            let round = node;
            let chosen = if self.nodes[round as usize].blind {
                self.regret_choose(round, &state, rng)
            } else {
                self.choose(round, &state, rng)
            };
            let Some((mv, _, first, new)) = chosen else {
                break;
            };
            state.apply(mv);
            self.path.push(first);
            let mut later = 0u64;
            let mut blind = false;
            while self.config.rounds != Rounds::Turns
                && state.in_round()
                && state.outcome().is_none()
                && !(G::CHANCE && state.is_chance())
            {
                let chosen = if self.config.rounds == Rounds::Regret {
                    self.nodes[round as usize].blind = true;
                    self.regret_choose(round, &state, rng)
                } else {
                    self.choose(round, &state, rng)
                };
                let Some((mv, key, arm, _)) = chosen else {
                    break;
                };
                later = mix64(later ^ mix64(key ^ state.to_move().index() as u64));
                state.apply(mv);
                self.arms.push(arm);
                blind = true;
            }
            if !blind {
                node = first;
                if new {
                    stats.count_expanded(level);
                    stats.generated += 1;
                    break;
                }
                continue;
            }
            if round == 0 {
                self.simultaneous = true;
            }
            let after = self.child_by_key(first, later);
            if after == NONE {
                let after = self.add_child(first, later, state.to_move());
                stats.count_expanded(level);
                stats.generated += 1;
                self.path.push(after);
                break;
            }
            node = after;
            self.path.push(node);
        }
        let level = self.path.len() - 1;
        stats.count_evaluated(level);
        let winner = match state.outcome() {
            Some(_) => winner_of(&state),
            None => self.rollouts.rollout(&mut state, rng),
        };
        // A game with returns (chips) is played for them where the game ended; a rollout
        // the heuristic judged scores its winner the most seen and the others the least
        // (every player half way on a draw).
        let mut rewards = [0.0; Player::MAX];
        match state.returns() {
            Some(returns) if state.outcome().is_some() => {
                self.scale.see(returns.as_slice());
                rewards[..returns.players()].copy_from_slice(returns.as_slice());
            }
            _ => {
                for (seat, reward) in rewards.iter_mut().enumerate().take(state.players()) {
                    let seat = Player::seat(seat).unwrap_or(Player::P1);
                    *reward = self.scale.of_halves(halves_for(winner, seat));
                }
            }
        }
        for &i in self.path.iter().chain(&self.arms) {
            let node = &mut self.nodes[i as usize];
            node.visits += 1;
            node.reward += rewards[node.mover.index()];
        }
        self.settle_regrets(&rewards);
        level as u32
    }
}

impl<G: Game, E: Evaluator<G>> TreeSearch<G> for Ismcts<G, E> {
    fn search(
        &mut self,
        state: &G,
        limits: &Limits,
        rng: &mut GameRng,
    ) -> Option<MctsResult<G::Move>> {
        Ismcts::search(self, state, limits, rng)
    }
}

/// An agent playing by IS-MCTS.
pub type IsmctsAgent<G, E> = TreeAgent<Ismcts<G, E>>;

impl<G: Game, E: Evaluator<G>> IsmctsAgent<G, E> {
    /// An agent whose draws, tree and rollouts come from `seed`.
    pub fn new(config: MctsConfig, time_ms: Option<u64>, evaluator: E, seed: u64) -> Self {
        TreeAgent::with(
            Ismcts::new(config, evaluator, seeds::derive(seed, &[1])),
            time_ms,
            seed,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::{Agent, MoveError, Outcome};

    /// The rules of a test game that these tests never call, alike for every one.
    macro_rules! unused_rules {
        () => {
            fn piece_count(&self, _player: Player) -> u32 {
                0
            }

            fn write_move(&self, mv: u8, out: &mut String) {
                out.push_str(&format!("{mv}"));
            }

            fn parse_move(&self, text: &str) -> Result<u8, MoveError> {
                Err(MoveError {
                    text: text.to_string(),
                    reason: String::from("not read here"),
                })
            }

            fn board_dump(&self) -> String {
                format!("{self:?}")
            }

            fn position_json(&self) -> serde_json::Value {
                serde_json::Value::Null
            }
        };
    }

    /// Kuhn poker, small enough to check by hand: three cards (J, Q, K), one to each
    /// player, an ante of 1 each; P1 passes or bets 1, and so on (pass-pass and bet-call
    /// go to a showdown, a pass after a bet folds). Chance deals P1's card, then P2's.
    #[derive(Clone, Debug, PartialEq, Eq, Hash)]
    struct Kuhn {
        cards: [Option<u8>; 2],
        /// The bets so far: `b'p'` (pass) or `b'b'` (bet), at most three.
        history: Vec<u8>,
    }

    /// A deal of card c is move `DEAL + c` (below the bets' letters).
    const DEAL: u8 = 1;

    impl Kuhn {
        fn new() -> Kuhn {
            Kuhn {
                cards: [None, None],
                history: Vec::new(),
            }
        }
    }

    impl Game for Kuhn {
        type Move = u8;
        const CHANCE: bool = true;
        const HIDDEN: bool = true;

        fn is_chance(&self) -> bool {
            self.cards[1].is_none()
        }

        fn to_move(&self) -> Player {
            if self.history.len().is_multiple_of(2) {
                Player::P1
            } else {
                Player::P2
            }
        }

        fn legal_moves(&self, out: &mut Vec<u8>) {
            out.clear();
            if self.outcome().is_some() {
                return;
            }
            if self.is_chance() {
                out.extend(
                    (0..3)
                        .filter(|&c| self.cards[0] != Some(c))
                        .map(|c| DEAL + c),
                );
            } else {
                out.extend([b'p', b'b']);
            }
        }

        fn apply(&mut self, mv: u8) {
            if mv < b'b' {
                let slot = usize::from(self.cards[0].is_some());
                self.cards[slot] = Some(mv - DEAL);
            } else {
                self.history.push(mv);
            }
        }

        fn outcome(&self) -> Option<Outcome> {
            let showdown = |reason| {
                let p1 = self.cards[0] > self.cards[1];
                Some(Outcome {
                    winner: Some(if p1 { Player::P1 } else { Player::P2 }),
                    reason,
                })
            };
            let fold = |winner| {
                Some(Outcome {
                    winner: Some(winner),
                    reason: "fold",
                })
            };
            match self.history.as_slice() {
                b"pp" | b"bb" | b"pbb" => showdown("showdown"),
                b"bp" => fold(Player::P1),
                b"pbp" => fold(Player::P2),
                _ => None,
            }
        }

        fn determinize(&self, player: Player, seed: u64) -> Option<Kuhn> {
            let mut drawn = self.clone();
            let (own, other) = (player.index(), player.opponent().index());
            if let (Some(mine), Some(_)) = (self.cards[own], self.cards[other]) {
                let left: Vec<u8> = (0..3).filter(|&c| c != mine).collect();
                drawn.cards[other] = Some(left[(seed % 2) as usize]);
            }
            Some(drawn)
        }

        fn observation(&self, player: Player) -> String {
            format!(
                "{:?} {}",
                self.cards[player.index()],
                String::from_utf8_lossy(&self.history)
            )
        }

        fn position_hash(&self) -> u64 {
            use std::hash::{Hash, Hasher};
            let mut hasher = std::collections::hash_map::DefaultHasher::new();
            self.hash(&mut hasher);
            hasher.finish()
        }

        unused_rules!();
    }

    struct Nothing;
    impl Evaluator<Kuhn> for Nothing {
        fn evaluate(&self, _state: &Kuhn, _root: Player, _noise_seed: u64) -> f64 {
            0.0
        }
    }

    fn agent(seed: u64) -> IsmctsAgent<Kuhn, Nothing> {
        let config = MctsConfig {
            iterations: 500,
            ..MctsConfig::default()
        };
        IsmctsAgent::new(config, None, Nothing, seed)
    }

    /// Every position of Kuhn poker where a player moves, with the cards dealt.
    fn decision_points() -> Vec<Kuhn> {
        let mut points = Vec::new();
        for p1 in 0..3 {
            for p2 in (0..3).filter(|&c| c != p1) {
                for history in [&b""[..], b"p", b"b", b"pb"] {
                    points.push(Kuhn {
                        cards: [Some(p1), Some(p2)],
                        history: history.to_vec(),
                    });
                }
            }
        }
        points
    }

    #[test]
    fn its_choice_does_not_depend_on_what_is_hidden_from_it() {
        for state in decision_points() {
            let me = state.to_move();
            for other in (0..3).filter(|&c| Some(c) != state.cards[me.index()]) {
                let mut twin = state.clone();
                twin.cards[me.opponent().index()] = Some(other);
                let a = agent(5).decide(&state, &Limits::NONE);
                let b = agent(5).decide(&twin, &Limits::NONE);
                assert_eq!(
                    (a.mv, a.value, a.stats.evaluated),
                    (b.mv, b.value, b.stats.evaluated),
                    "{state:?} against {twin:?}"
                );
            }
        }
    }

    #[test]
    fn it_plays_kuhn_poker_as_its_cards_say() {
        // Holding the king after a bet, calling wins every showdown; holding the jack
        // after a bet, calling loses every one: it calls with the king and folds the jack.
        for (card, call) in [(2u8, true), (0, false)] {
            let state = Kuhn {
                cards: [Some((card + 1) % 3), Some(card)],
                history: b"b".to_vec(),
            };
            let decision = agent(11).decide(&state, &Limits::NONE);
            assert_eq!(decision.mv == b'b', call, "P2 holding card {card}");
        }
    }

    #[test]
    fn it_beats_random_at_kuhn_poker_and_replays_from_its_seed() {
        let play = |seed: u64| {
            let mut wins = 0;
            let mut moves = Vec::new();
            for game in 0..300u64 {
                let mut rng = seeds::rng(seeds::derive(seed, &[game]));
                let mut state = Kuhn::new();
                let mut me = agent(seeds::derive(seed, &[game, 1]));
                let seat = if game % 2 == 0 {
                    Player::P1
                } else {
                    Player::P2
                };
                let mut outcomes = Vec::new();
                while state.outcome().is_none() {
                    let mv = if state.is_chance() {
                        state
                            .chance_move(seeds::unit(&mut rng), &mut outcomes)
                            .expect("a card")
                    } else if state.to_move() == seat {
                        me.decide(&state, &Limits::NONE).mv
                    } else {
                        [b'p', b'b'][seeds::below(&mut rng, 2)]
                    };
                    moves.push(mv);
                    state.apply(mv);
                }
                wins += u32::from(state.outcome().and_then(|o| o.winner) == Some(seat));
            }
            (wins, moves)
        };
        let (wins, moves) = play(3);
        // Random against random wins half; a player who folds its jacks to bets and calls
        // with its kings wins far more.
        assert!(wins > 180, "{wins} of 300");
        assert_eq!(play(3).1, moves);
    }

    #[test]
    fn counts_one_new_node_and_one_rollout_an_iteration() {
        let state = Kuhn {
            cards: [Some(1), Some(0)],
            history: Vec::new(),
        };
        let decision = agent(2).decide(&state, &Limits::NONE);
        let total = &decision.stats;
        assert_eq!(total.evaluated, 500);
        assert!(total.expanded <= 500 && total.expanded > 0);
        assert_eq!(total.expanded, decision.stats.generated);
    }

    /// Matching pennies with a way out, its moves made together and played in turns: P1
    /// shows heads (0), tails (1) or walks away (2); P2, not seeing it, shows heads or
    /// tails. Matched coins win P1 1 (P2 loses 1), unmatched ones lose it 1; walking away
    /// costs P1 0.2. Played blind, the coins are worth 0 to P1 (each side mixing half and
    /// half) and walking away loses; a P2 that saw P1's coin would always win it, and then
    /// walking away would be P1's best.
    #[derive(Clone, Debug, PartialEq, Eq, Hash)]
    struct Pennies {
        moves: Vec<u8>,
    }

    impl Game for Pennies {
        type Move = u8;
        const HIDDEN: bool = true;

        fn to_move(&self) -> Player {
            if self.moves.is_empty() {
                Player::P1
            } else {
                Player::P2
            }
        }

        fn has_returns(&self) -> bool {
            true
        }

        fn returns(&self) -> Option<crate::core::Returns> {
            let p1 = match self.moves.as_slice() {
                [2, _] => -0.2,
                [a, b] if a == b => 1.0,
                [_, _] => -1.0,
                _ => return None,
            };
            Some(crate::core::Returns::two(p1, -p1))
        }

        fn in_round(&self) -> bool {
            self.moves.len() == 1
        }

        fn round_start(&self) -> Option<Pennies> {
            self.in_round().then(|| Pennies { moves: Vec::new() })
        }

        fn legal_moves(&self, out: &mut Vec<u8>) {
            out.clear();
            match self.moves.len() {
                0 => out.extend([0, 1, 2]),
                1 => out.extend([0, 1]),
                _ => {}
            }
        }

        fn apply(&mut self, mv: u8) {
            self.moves.push(mv);
        }

        fn outcome(&self) -> Option<Outcome> {
            let returns = self.returns()?;
            Some(Outcome {
                winner: Some(if returns[Player::P1] > 0.0 {
                    Player::P1
                } else {
                    Player::P2
                }),
                reason: "shown",
            })
        }

        fn determinize(&self, player: Player, seed: u64) -> Option<Pennies> {
            let mut drawn = self.clone();
            if player == Player::P2 && self.in_round() {
                drawn.moves[0] = (seed % 3) as u8;
            }
            Some(drawn)
        }

        fn observation(&self, player: Player) -> String {
            match (player, self.moves.as_slice()) {
                (Player::P2, [_]) => "P1 has chosen".to_string(),
                (_, moves) => format!("{moves:?}"),
            }
        }

        fn position_hash(&self) -> u64 {
            self.moves.iter().fold(7, |h, &m| mix64(h ^ u64::from(m)))
        }

        unused_rules!();
    }

    impl Evaluator<Pennies> for Nothing {
        fn evaluate(&self, _state: &Pennies, _root: Player, _noise_seed: u64) -> f64 {
            0.0
        }
    }

    fn rounds_agent(seed: u64, rounds: Rounds) -> IsmctsAgent<Pennies, Nothing> {
        let config = MctsConfig {
            iterations: 2000,
            rounds,
            ..MctsConfig::default()
        };
        IsmctsAgent::new(config, None, Nothing, seed)
    }

    /// How often each move is chosen in `state` by agents of seeds 0 to 59.
    fn choices_by(state: &Pennies, rounds: Rounds) -> [u32; 3] {
        let mut counts = [0; 3];
        for seed in 0..60 {
            let decision = rounds_agent(seed, rounds).decide(state, &Limits::NONE);
            counts[usize::from(decision.mv)] += 1;
        }
        counts
    }

    #[test]
    fn in_a_round_of_simultaneous_moves_it_searches_blind() {
        // P2's choice rests on the round's start, not on P1's hidden coin: the same seed
        // chooses alike whatever P1 showed, and P2 mixes its coins across seeds.
        for rounds in [Rounds::Decoupled, Rounds::Regret] {
            for seed in 0..20 {
                let decided: Vec<_> = (0..3)
                    .map(|coin| {
                        let state = Pennies { moves: vec![coin] };
                        let d = rounds_agent(seed, rounds).decide(&state, &Limits::NONE);
                        (d.mv, d.value, d.stats.evaluated)
                    })
                    .collect();
                assert!(
                    decided.windows(2).all(|w| w[0] == w[1]),
                    "{rounds:?}: {decided:?}"
                );
            }
            let [heads, tails, _] = choices_by(&Pennies { moves: vec![0] }, rounds);
            assert!(
                heads >= 15 && tails >= 15,
                "{rounds:?}: P2 heads {heads}, tails {tails}"
            );
        }
        // With regret matching P1 plays its coins, heads or tails as its seed falls, and
        // does not walk away: P2's replies are searched at the round's node, blind to
        // P1's coin, and regret matching's values there tend to the game's (0 for the
        // coins). (Decoupled UCT's do not: it walked away 20 times in 60 here.)
        let start = Pennies { moves: Vec::new() };
        let [heads, tails, away] = choices_by(&start, Rounds::Regret);
        assert!(away <= 6, "regret: walked away {away} times in 60");
        assert!(
            heads >= 15 && tails >= 15,
            "regret: heads {heads}, tails {tails}"
        );
        // Searched as moves in turn (`rounds=turns`), P2's node sees P1's coin, and P1
        // walks away.
        let [_, _, away] = choices_by(&start, Rounds::Turns);
        assert!(away >= 54, "rounds=turns walked away {away} times in 60");
    }
}
