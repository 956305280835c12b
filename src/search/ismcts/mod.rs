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
mod tests;
