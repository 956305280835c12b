//! Monte Carlo tree search with UCT, generic over any [`Game`] (and, for its heuristic
//! rollouts, any [`Evaluator`]).
//!
//! Each iteration descends the tree from the root by UCT (an unvisited child first, in the
//! shuffled order the node's moves were generated in; then the largest
//! `reward / visits + c * sqrt(ln(parent visits) / visits)`), expands the leaf it reaches
//! (all its children at once), plays a rollout from the first new child and backs the
//! result up. A rollout plays uniformly random moves (or, with `rollout = heuristic`,
//! the move whose position evaluates best for the mover, a random one with probability
//! `epsilon`) to the end of the game, or for `rollout_plies` plies after which the
//! heuristic's sign says who is ahead. Rewards are 1 for a win, 0.5 for a draw, 0 for a
//! loss. The move played is the root child visited most.
//!
//! Counted like the other algorithms, per level of the tree: an *expanded* node is one
//! whose children were generated (`generated` counts them: the nodes created); an
//! *evaluated* node is where an iteration's descent ended and its rollout began, so
//! `evaluated` is the number of iterations. The deepest level holding an evaluated node is
//! the depth reached.

use crate::core::seeds::{self, GameRng};
use crate::core::{Agent, Clock, Decision, Evaluator, Game, Limits, Outcome, Player, SearchStats};
use std::time::Instant;

/// How rollouts choose their moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rollout {
    /// Uniformly random moves.
    Random,
    /// The move whose position the heuristic scores best for the mover (random with
    /// probability `epsilon`).
    Heuristic,
}

impl Rollout {
    /// The name in agent specs.
    pub fn name(self) -> &'static str {
        match self {
            Rollout::Random => "random",
            Rollout::Heuristic => "heuristic",
        }
    }
}

/// MCTS parameters.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MctsConfig {
    /// Iterations per move (0: as many as the time allows).
    pub iterations: u64,
    /// The exploration constant c of UCT.
    pub c: f64,
    /// How rollouts move.
    pub rollout: Rollout,
    /// Plies a rollout plays before the heuristic judges (0: to the end of the game).
    pub rollout_plies: u32,
    /// The share of random moves in heuristic rollouts.
    pub epsilon: f64,
    /// How `ismcts` searches a round of simultaneous moves.
    pub rounds: Rounds,
}

/// How `ismcts` searches a round of simultaneous moves played in turns
/// ([`crate::core::Game::in_round`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rounds {
    /// Each player of the round by its own UCT statistics at the round's node (decoupled
    /// UCT), blind to the round's earlier moves; the most visited move played.
    Decoupled,
    /// Each player of the round by regret matching at the round's node, blind to the
    /// round's earlier moves; the move played drawn from the average strategy.
    Regret,
    /// As moves in turn: a later player's node hangs below the earlier moves, as if it
    /// had seen them (information-set MCTS as it plays a sequential game).
    Turns,
}

impl Rounds {
    /// The name in an agent spec.
    pub fn name(self) -> &'static str {
        match self {
            Rounds::Regret => "regret",
            Rounds::Decoupled => "decoupled",
            Rounds::Turns => "turns",
        }
    }
}

impl Default for MctsConfig {
    fn default() -> Self {
        MctsConfig {
            iterations: 1000,
            c: std::f64::consts::SQRT_2,
            rollout: Rollout::Random,
            rollout_plies: 0,
            epsilon: 0.1,
            rounds: Rounds::Decoupled,
        }
    }
}

/// How many iterations a search runs: `iterations`, or until `limits` are reached (checked
/// every 16 iterations), at least one. No iteration budget and no deadline: the default
/// budget, not an endless search.
pub(super) struct Budget {
    iterations: u64,
    timed: bool,
    done: u64,
}

impl Budget {
    pub(super) fn new(config: &MctsConfig, limits: &Limits) -> Budget {
        Budget {
            iterations: match config.iterations {
                0 if limits.deadline.is_none() => MctsConfig::default().iterations,
                n => n,
            },
            timed: limits.deadline.is_some() || limits.stop.is_some(),
            done: 0,
        }
    }

    /// Whether to run another iteration (counting it).
    pub(super) fn another(&mut self, limits: &Limits) -> bool {
        if self.done > 0 {
            if self.iterations > 0 && self.done >= self.iterations {
                return false;
            }
            if self.timed && self.done.is_multiple_of(16) && limits.reached() {
                return false;
            }
        }
        self.done += 1;
        true
    }
}

/// The longest rollout, in plies: every game here ends long before (their own caps), so
/// this only guards against a rule set without one.
const MAX_ROLLOUT_PLIES: u32 = 10_000;

/// A tree node: the move that led to it, who made it, its children (a range of the arena)
/// and its statistics (rewards for the player who made the move).
#[derive(Clone, Copy, Debug)]
struct Node<M> {
    mv: Option<M>,
    mover: Player,
    first_child: u32,
    children: u32,
    visits: u32,
    /// The summed reward in half points (see [`WIN`]): the same sum as in a `f64` of
    /// rewards 0, 0.5 and 1, kept in 20 bytes a node instead of 32 with a `f64` sum and a
    /// cached mean. (At most twice the visits: 2^31 iterations would need a tree of a
    /// terabyte first.)
    halves: u32,
}

impl<M> Node<M> {
    /// A node not yet visited nor expanded, reached by `mv` played by `mover`.
    fn new(mv: Option<M>, mover: Player) -> Self {
        Node {
            mv,
            mover,
            first_child: 0,
            children: 0,
            visits: 0,
            halves: 0,
        }
    }

    /// Whether its children were generated: they start after the root, so a node whose
    /// children start at 0 has none yet (a flag would make the node 40 bytes, not 32).
    #[inline]
    fn expanded(&self) -> bool {
        self.first_child != 0
    }

    /// The summed reward.
    #[inline]
    fn reward(&self) -> f64 {
        f64::from(self.halves) * 0.5
    }
}

/// What one search found (MCTS's or IS-MCTS's).
#[derive(Clone, Copy, Debug)]
pub struct MctsResult<M> {
    /// The root child visited most (a move of the real position).
    pub best: M,
    /// Its mean reward for the player to move at the root (0 to 1).
    pub value: f64,
    /// Nodes counted (see the module's documentation).
    pub stats: SearchStats,
    /// The deepest tree level an iteration reached.
    pub depth: u32,
}

/// A reusable MCTS searcher: the node arena, the move buffers and the path are kept from
/// move to move, so a search allocates only when the tree outgrows them.
pub struct Mcts<G: Game, E> {
    config: MctsConfig,
    rollouts: Rollouts<G, E>,
    nodes: Vec<Node<G::Move>>,
    path: Vec<u32>,
    moves: Vec<G::Move>,
}

/// What plays rollouts: the parameters, the heuristic and the buffers a rollout uses
/// (shared by MCTS and information-set MCTS).
pub(super) struct Rollouts<G: Game, E> {
    config: MctsConfig,
    evaluator: E,
    noise_seed: u64,
    pub(super) scratch: Vec<G::Move>,
    /// Chance's outcomes with their probabilities (games with chance only).
    pub(super) outcomes: Vec<(G::Move, f64)>,
}

impl<G: Game, E: Evaluator<G>> Mcts<G, E> {
    /// A searcher with `config`; the heuristic (for heuristic rollouts and cut-offs) and
    /// its random term's seed.
    pub fn new(config: MctsConfig, evaluator: E, noise_seed: u64) -> Self {
        Mcts {
            config,
            rollouts: Rollouts::new(config, evaluator, noise_seed),
            nodes: Vec::new(),
            path: Vec::new(),
            moves: Vec::new(),
        }
    }

    /// Searches `state` (not finished) until the iterations are done or `limits` are
    /// reached (at least one iteration). `None` when it has no legal move.
    pub fn search(
        &mut self,
        state: &G,
        limits: &Limits,
        rng: &mut GameRng,
    ) -> Option<MctsResult<G::Move>> {
        let root_player = state.to_move();
        self.nodes.clear();
        self.nodes.push(Node::new(None, root_player.opponent()));
        let mut stats = SearchStats::default();
        let mut depth = 0u32;
        let mut budget = Budget::new(&self.config, limits);
        while budget.another(limits) {
            let level = self.iterate(state, rng, &mut stats);
            depth = depth.max(level);
            if self.nodes[0].children == 0 {
                return None;
            }
        }
        let root = self.nodes[0];
        let children = root.first_child..root.first_child + root.children;
        // The most visited child; ties to the first in the (shuffled) generation order.
        let best = children.fold(None::<u32>, |best, i| match best {
            Some(b) if self.nodes[b as usize].visits >= self.nodes[i as usize].visits => Some(b),
            _ => Some(i),
        })?;
        let node = self.nodes[best as usize];
        stats.peak_bytes = (self.nodes.capacity() * std::mem::size_of::<Node<G::Move>>()
            + (self.moves.capacity() + self.rollouts.scratch.capacity())
                * std::mem::size_of::<G::Move>()) as u64;
        Some(MctsResult {
            best: node.mv?,
            value: if node.visits == 0 {
                0.5
            } else {
                node.reward() / f64::from(node.visits)
            },
            stats,
            depth,
        })
    }

    /// One iteration; returns the tree level where its rollout began.
    fn iterate(&mut self, root: &G, rng: &mut GameRng, stats: &mut SearchStats) -> u32 {
        let mut state = root.clone();
        self.path.clear();
        let mut node = 0u32;
        self.path.push(node);
        // Selection: down through expanded nodes.
        while self.nodes[node as usize].expanded() && self.nodes[node as usize].children > 0 {
            node = if G::CHANCE && state.is_chance() {
                self.sample_chance(node, &state, rng)
            } else {
                self.select(node)
            };
            state.apply(self.nodes[node as usize].mv.expect("a child has a move"));
            self.path.push(node);
        }
        // Expansion: every child of the leaf, unless the game is over there.
        let outcome = state.outcome();
        if outcome.is_none() && !self.nodes[node as usize].expanded() {
            let level = self.path.len() - 1;
            state.legal_moves(&mut self.moves);
            seeds::shuffle(rng, &mut self.moves);
            stats.count_expanded(level);
            stats.generated += self.moves.len() as u64;
            let first_child = self.nodes.len() as u32;
            let mover = state.to_move();
            for &mv in &self.moves {
                self.nodes.push(Node::new(Some(mv), mover));
            }
            let leaf = &mut self.nodes[node as usize];
            leaf.first_child = first_child;
            leaf.children = self.moves.len() as u32;
            if leaf.children > 0 {
                node = if G::CHANCE && state.is_chance() {
                    self.sample_chance(node, &state, rng)
                } else {
                    first_child
                };
                state.apply(self.nodes[node as usize].mv.expect("a child has a move"));
                self.path.push(node);
            }
        }
        let level = self.path.len() - 1;
        stats.count_evaluated(level);
        // Simulation, then backpropagation of each mover's reward.
        let winner = match state.outcome() {
            Some(_) => winner_of(&state),
            None => self.rollouts.rollout(&mut state, rng),
        };
        for &i in &self.path {
            let node = &mut self.nodes[i as usize];
            node.visits += 1;
            node.halves += halves_for(winner, node.mover);
        }
        level as u32
    }

    /// The child of `node`, a chance position (`state`), that chance gives: drawn by the
    /// outcomes' probabilities, not by their statistics.
    fn sample_chance(&mut self, node: u32, state: &G, rng: &mut GameRng) -> u32 {
        let drawn = state.chance_move(seeds::unit(rng), &mut self.rollouts.outcomes);
        let parent = self.nodes[node as usize];
        let children = parent.first_child..parent.first_child + parent.children;
        children
            .clone()
            .find(|&i| self.nodes[i as usize].mv == drawn)
            .unwrap_or(children.start)
    }

    /// The child of `node` to descend to.
    fn select(&self, node: u32) -> u32 {
        let parent = self.nodes[node as usize];
        let children = parent.first_child..parent.first_child + parent.children;
        let log_visits = f64::from(parent.visits.max(1)).ln();
        let mut best = (f64::NEG_INFINITY, parent.first_child);
        for i in children {
            let child = &self.nodes[i as usize];
            if child.visits == 0 {
                return i;
            }
            let visits = f64::from(child.visits);
            let score = child.reward() / visits + self.config.c * (log_visits / visits).sqrt();
            if score > best.0 {
                best = (score, i);
            }
        }
        best.1
    }
}

impl<G: Game, E: Evaluator<G>> Rollouts<G, E> {
    pub(super) fn new(config: MctsConfig, evaluator: E, noise_seed: u64) -> Self {
        Rollouts {
            config,
            evaluator,
            noise_seed,
            scratch: Vec::new(),
            outcomes: Vec::new(),
        }
    }

    /// Plays a rollout from `state` (not finished), leaving `state` where it stopped;
    /// returns who won it ([`winner_of`]; `None`: a draw).
    pub(super) fn rollout(&mut self, state: &mut G, rng: &mut GameRng) -> Option<Player> {
        let cap = if self.config.rollout_plies == 0 {
            MAX_ROLLOUT_PLIES
        } else {
            self.config.rollout_plies
        };
        if self.config.rollout == Rollout::Random {
            // Random moves, found without listing them all where the game can; none left
            // means the game is over (every game's contract), so its end is not tested
            // apart.
            let playout = seeds::random_playout(state, &mut self.scratch, rng, cap);
            if playout.ended {
                return winner_of(state);
            }
            return self.cut_off(state);
        }
        for _ in 0..cap {
            if state.outcome().is_some() {
                return winner_of(state);
            }
            if G::CHANCE && state.is_chance() {
                match state.chance_move(seeds::unit(rng), &mut self.outcomes) {
                    Some(mv) => state.apply(mv),
                    None => return None,
                }
                continue;
            }
            state.legal_moves(&mut self.scratch);
            if self.scratch.is_empty() {
                return None;
            }
            let greedy = seeds::unit(rng) >= self.config.epsilon;
            let mv = if greedy {
                let mover = state.to_move();
                let mut best = (f64::NEG_INFINITY, self.scratch[0]);
                for &mv in &self.scratch {
                    let mut child = state.clone();
                    child.apply(mv);
                    let value = match child.outcome() {
                        Some(Outcome { winner: None, .. }) => 0.0,
                        Some(Outcome {
                            winner: Some(winner),
                            ..
                        }) if winner == mover => f64::INFINITY,
                        Some(_) => f64::NEG_INFINITY,
                        None => self.evaluator.evaluate(&child, mover, self.noise_seed),
                    };
                    if value > best.0 {
                        best = (value, mv);
                    }
                }
                best.1
            } else {
                self.scratch[seeds::below(rng, self.scratch.len())]
            };
            state.apply(mv);
        }
        self.cut_off(state)
    }

    /// Who won where a rollout stopped: the game's winner, or when cut off, who the
    /// heuristic says is ahead (two players: the sign of P1's value; more: the one player
    /// it values most, none when several tie).
    fn cut_off(&self, state: &G) -> Option<Player> {
        if state.outcome().is_some() {
            return winner_of(state);
        }
        let players = state.players();
        if players == 2 {
            let value = self.evaluator.evaluate(state, Player::P1, self.noise_seed);
            return if value > 0.0 {
                Some(Player::P1)
            } else if value < 0.0 {
                Some(Player::P2)
            } else {
                None
            };
        }
        let values = Player::seats(players)
            .iter()
            .map(|&seat| (seat, self.evaluator.evaluate(state, seat, self.noise_seed)));
        sole_best(values)
    }
}

/// The seat with the highest value, if no other has it too.
fn sole_best(values: impl Iterator<Item = (Player, f64)>) -> Option<Player> {
    let mut best: Option<(Player, f64)> = None;
    let mut tied = false;
    for (seat, value) in values {
        match best {
            Some((_, b)) if value == b => tied = true,
            Some((_, b)) if value < b => {}
            _ => {
                best = Some((seat, value));
                tied = false;
            }
        }
    }
    best.filter(|_| !tied).map(|(seat, _)| seat)
}

/// Who won a finished position: its winner; where the game ended without one and more
/// than two played, the one player its returns place first, if any (the star at its ply
/// limit places the players by how far they came).
#[inline]
pub(super) fn winner_of<G: Game>(state: &G) -> Option<Player> {
    let outcome = state.outcome()?;
    if outcome.winner.is_some() || state.players() == 2 {
        return outcome.winner;
    }
    let returns = state.returns()?;
    sole_best(
        Player::seats(returns.players())
            .iter()
            .map(|&seat| (seat, returns[seat])),
    )
}

/// The reward, in half points, of the player who made a move when `winner` won.
#[inline]
pub(super) fn halves_for(winner: Option<Player>, mover: Player) -> u32 {
    match winner {
        Some(winner) if winner == mover => WIN,
        Some(_) => LOSS,
        None => DRAW,
    }
}

/// Rewards in half points, so that a node's sum is a whole number: a win is 1 (two
/// halves), a draw 0.5, a loss 0.
pub(super) const WIN: u32 = 2;
const DRAW: u32 = 1;
const LOSS: u32 = 0;

/// A tree search an agent plays by: MCTS, or IS-MCTS.
pub trait TreeSearch<G: Game>: Send {
    /// Searches `state` within `limits`, drawing from `rng`; `None` when it found nothing.
    fn search(
        &mut self,
        state: &G,
        limits: &Limits,
        rng: &mut GameRng,
    ) -> Option<MctsResult<G::Move>>;
}

impl<G: Game, E: Evaluator<G>> TreeSearch<G> for Mcts<G, E> {
    fn search(
        &mut self,
        state: &G,
        limits: &Limits,
        rng: &mut GameRng,
    ) -> Option<MctsResult<G::Move>> {
        Mcts::search(self, state, limits, rng)
    }
}

/// An agent playing by a tree search: `iterations` per move, or as many as `time_ms` (and
/// the harness's limit) allow; seeded, so a fixed iteration budget replays the same game.
pub struct TreeAgent<S> {
    search: S,
    time_ms: Option<u64>,
    rng: GameRng,
    /// The game clocks before this move, when the game has them.
    clock: Option<Clock>,
}

/// An agent playing by MCTS.
pub type MctsAgent<G, E> = TreeAgent<Mcts<G, E>>;

impl<S> TreeAgent<S> {
    /// An agent playing by `search`, drawing from `seed`.
    pub fn with(search: S, time_ms: Option<u64>, seed: u64) -> Self {
        TreeAgent {
            search,
            time_ms,
            rng: super::agent_rng(seed),
            clock: None,
        }
    }
}

impl<G: Game, E: Evaluator<G>> MctsAgent<G, E> {
    /// An agent whose tree and rollouts draw from `seed`.
    pub fn new(config: MctsConfig, time_ms: Option<u64>, evaluator: E, seed: u64) -> Self {
        TreeAgent::with(
            Mcts::new(config, evaluator, seeds::derive(seed, &[1])),
            time_ms,
            seed,
        )
    }
}

impl<G: Game, S: TreeSearch<G>> Agent<G> for TreeAgent<S> {
    fn see_clock(&mut self, clock: &Clock) {
        self.clock = Some(*clock);
    }

    fn decide(&mut self, state: &G, limits: &Limits) -> Decision<G::Move> {
        let first = first_move(state);
        let limits = move_limits(self.time_ms, self.clock.take(), state, limits);
        let found = self.search.search(state, &limits, &mut self.rng);
        tree_decision(first, found)
    }
}

/// The limits of a tree search's move: its own budget (`time_ms`, or a share of its
/// `clock`), and the harness's deadline and stop flag; the earlier deadline wins.
fn move_limits<G: Game>(
    time_ms: Option<u64>,
    clock: Option<Clock>,
    state: &G,
    limits: &Limits,
) -> Limits {
    let budget = super::budget_on_clock(time_ms, clock, state.to_move())
        .and_then(|time| Instant::now().checked_add(time));
    let deadline = match (budget, limits.deadline) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    };
    Limits {
        deadline,
        stop: limits.stop.clone(),
    }
}

/// The first legal move of `state`, taken before a search: the move played if the
/// search finds nothing (a rules program that fails during it leaves no legal move to
/// ask for afterwards, and the move then ends the game as a rules failure).
fn first_move<G: Game>(state: &G) -> G::Move {
    let mut moves = Vec::new();
    state.legal_moves(&mut moves);
    *moves.first().expect("decide called on a finished game")
}

/// The decision of what a tree search found, or `first` when it found nothing.
fn tree_decision<M>(first: M, found: Option<MctsResult<M>>) -> Decision<M> {
    match found {
        Some(result) => Decision {
            value: Some(result.value),
            stats: result.stats.into(),
            depth: result.depth,
            ..Decision::just(result.best)
        },
        None => Decision::just(first),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::breakthrough::{Breakthrough, Rules};
    use crate::games::chinese_checkers::ChineseCheckers;
    use crate::games::double_card::{DoubleCard, Params};
    use crate::games::wights::Wights;

    #[test]
    fn a_node_of_a_small_move_takes_20_bytes() {
        // The tree's memory (peak_bytes) and its cache footprint: three to a cache line.
        assert_eq!(
            std::mem::size_of::<Node<crate::games::breakthrough::Move>>(),
            20
        );
    }

    /// No opinion on any position (random rollouts never ask).
    #[derive(Clone, Copy)]
    struct Nothing;

    impl<G: Game> Evaluator<G> for Nothing {
        fn evaluate(&self, _state: &G, _root: Player, _noise_seed: u64) -> f64 {
            0.0
        }
    }

    fn agent<G: Game>(iterations: u64, seed: u64) -> MctsAgent<G, Nothing> {
        let config = MctsConfig {
            iterations,
            ..MctsConfig::default()
        };
        MctsAgent::new(config, None, Nothing, seed)
    }

    fn wins_now<G: Game>(state: &G, mv: G::Move) -> bool {
        let mut child = state.clone();
        child.apply(mv);
        child
            .outcome()
            .is_some_and(|o| o.winner == Some(state.to_move()))
    }

    /// Whether after `mv` the opponent has a move that wins at once.
    fn allows_a_win<G: Game>(state: &G, mv: G::Move) -> bool {
        let mut child = state.clone();
        child.apply(mv);
        if child.outcome().is_some() {
            return false;
        }
        let mut replies = Vec::new();
        child.legal_moves(&mut replies);
        replies.iter().any(|&r| wins_now(&child, r))
    }

    /// Positions of seeded random playouts where the side to move can win at once (but
    /// not with every move), and positions where it cannot but must stop the opponent's
    /// win (some moves allow it, some do not).
    fn tactical_positions<G: Game>(start: &G, seed: u64, wanted: usize) -> (Vec<G>, Vec<G>) {
        let (mut wins, mut blocks) = (Vec::new(), Vec::new());
        let mut rng = seeds::rng(seed);
        let mut moves = Vec::new();
        for _ in 0..3000 {
            let mut state = start.clone();
            while state.outcome().is_none() && (wins.len() < wanted || blocks.len() < wanted) {
                state.legal_moves(&mut moves);
                let winning = moves.iter().filter(|&&m| wins_now(&state, m)).count();
                if winning > 0 && winning < moves.len() && wins.len() < wanted {
                    wins.push(state.clone());
                } else if winning == 0 {
                    let unsafe_moves = moves.iter().filter(|&&m| allows_a_win(&state, m)).count();
                    if unsafe_moves > 0 && unsafe_moves < moves.len() && blocks.len() < wanted {
                        blocks.push(state.clone());
                    }
                }
                state.apply(moves[seeds::below(&mut rng, moves.len())]);
            }
            if wins.len() >= wanted && blocks.len() >= wanted {
                break;
            }
        }
        (wins, blocks)
    }

    fn takes_wins_and_stops_losses<G: Game>(start: &G, name: &str, iterations: u64) {
        let (wins, blocks) = tactical_positions(start, 11, 6);
        assert!(
            wins.len() >= 3 && blocks.len() >= 3,
            "{name}: too few positions"
        );
        for (i, state) in wins.iter().enumerate() {
            let decision = agent::<G>(iterations, i as u64).decide(state, &Limits::NONE);
            assert!(
                wins_now(state, decision.mv),
                "{name}: missed a win in one\n{}",
                state.board_dump()
            );
        }
        for (i, state) in blocks.iter().enumerate() {
            let decision = agent::<G>(iterations, i as u64).decide(state, &Limits::NONE);
            assert!(
                !allows_a_win(state, decision.mv),
                "{name}: allowed a win in one\n{}",
                state.board_dump()
            );
        }
    }

    #[test]
    fn it_takes_a_win_in_one_and_stops_a_loss_in_one() {
        takes_wins_and_stops_losses(&Breakthrough::new(Rules::Standard), "breakthrough", 2000);
        takes_wins_and_stops_losses(&Wights::new(), "wights", 2000);
        takes_wins_and_stops_losses(&DoubleCard::new(Params::default()), "double card", 4000);
    }

    #[test]
    fn it_takes_a_chinese_checkers_win_in_one() {
        // P1 has filled P2's home but for (4,4), its special marbles on (2,1), (2,2) and
        // (3,2); its last marble on (5,4) steps in. P2's marbles wait mid-board.
        let mut marbles = vec![(2, 1, '3'), (2, 2, '3'), (3, 2, '3'), (5, 4, '1')];
        for (r, c) in [(1, 1), (3, 1), (3, 3), (4, 1), (4, 2), (4, 3)] {
            marbles.push((r, c, '1'));
        }
        for c in 1..=10 {
            marbles.push((10, c, if c <= 3 { '4' } else { '2' }));
        }
        let state = ChineseCheckers::from_marbles(&marbles, Player::P1, 20);
        assert!(state.outcome().is_none());
        let decision = agent::<ChineseCheckers>(2000, 3).decide(&state, &Limits::NONE);
        assert!(
            wins_now(&state, decision.mv),
            "{}",
            state.format_move(decision.mv)
        );
    }

    /// Plays `agent` (as P1 and P2 in turn) against uniformly random moves; returns the
    /// games it won and the moves of each game.
    fn play_random<G: Game>(start: &G, games: u64, iterations: u64) -> (u64, Vec<Vec<String>>) {
        let mut won = 0;
        let mut records = Vec::new();
        let mut moves = Vec::new();
        for game in 0..games {
            let seat = if game % 2 == 0 {
                Player::P1
            } else {
                Player::P2
            };
            let mut mcts = agent::<G>(iterations, 100 + game);
            let mut rng = seeds::rng(game);
            let mut state = start.clone();
            let mut record = Vec::new();
            while state.outcome().is_none() {
                let mv = if state.to_move() == seat {
                    mcts.decide(&state, &Limits::NONE).mv
                } else {
                    state.legal_moves(&mut moves);
                    moves[seeds::below(&mut rng, moves.len())]
                };
                record.push(state.format_move(mv));
                state.apply(mv);
            }
            won += u64::from(state.outcome().and_then(|o| o.winner) == Some(seat));
            records.push(record);
        }
        (won, records)
    }

    #[test]
    fn it_beats_random_and_replays_the_same_games_from_the_same_seed() {
        let start = Breakthrough::new(Rules::Standard);
        let (won, games) = play_random(&start, 10, 200);
        assert!(won >= 9, "won {won} of 10 against random");
        let (_, again) = play_random(&start, 10, 200);
        assert_eq!(games, again);
        let (won, _) = play_random(&Wights::new(), 10, 300);
        assert!(
            won >= 7,
            "won {won} of 10 at the Dragon Queen against random"
        );
    }

    #[test]
    fn counts_iterations_nodes_and_depth() {
        let state = Breakthrough::new(Rules::Standard);
        let mut mcts = Mcts::new(
            MctsConfig {
                iterations: 500,
                ..MctsConfig::default()
            },
            Nothing,
            1,
        );
        let result = mcts
            .search(&state, &Limits::NONE, &mut seeds::rng(1))
            .expect("moves");
        assert_eq!(
            result.stats.evaluated, 500,
            "one evaluated leaf per iteration"
        );
        assert_eq!(result.stats.expanded_by_level[0], 1);
        // The root's 22 children are all tried before any grandchild: 1 + 21 expansions
        // below the root cannot be more than the iterations.
        assert!(result.stats.expanded <= 500 && result.stats.expanded > 22);
        assert!(result.depth >= 2);
        assert!(result.stats.generated >= 22);
        assert!((0.0..=1.0).contains(&result.value));
    }
}
