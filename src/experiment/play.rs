//! `play`: a person against an agent, one move at a time (at a table of more players, the
//! agent takes every other seat, each copy with its own seed). A [`Session`] holds the game
//! and the agents; whoever talks to the person (the terminal, a notebook) asks it what to
//! show and hands it the person's moves.

use super::Error;
use crate::core::{Agent, GameContext, Limits, MoveError, Outcome, Player, seeds};
use crate::registry::{AgentFactory, AgentSpec, GameEntry, GameTask, dispatch, load_agents};
use std::path::PathBuf;

/// How a move hidden from the person is shown (a game with hidden information).
pub const HIDDEN_MOVE: &str = "(hidden)";

/// A game to play.
pub struct PlayRequest {
    /// The game, as a spec (`breakthrough(rules=long)`).
    pub game: String,
    /// The opponent, registered name or inline spec (`None`: the game's default).
    pub agent: Option<String>,
    /// The person's side: `p1`, `p2`, ... up to the game's seats.
    pub side: String,
    /// The agent's seed.
    pub seed: u64,
    /// The folder of agent files.
    pub agents: Option<PathBuf>,
}

/// Whose turn it is, or how the game stopped.
pub enum Turn {
    /// The person's: the legal moves, as written.
    Person(Vec<String>),
    /// The agent's: call [`Session::agent_moves`].
    Agent,
    /// Chance acted (a die rolled), drawn from the game's seed: its outcome, as written.
    Chance(String),
    /// Over: the result in words from the person's side (`You win (reason).`).
    Over(String),
}

/// What the agent did on its turn.
pub enum Reply {
    /// The agent in `seat` played this move after expanding this many nodes.
    Played {
        seat: Player,
        text: String,
        expanded: u64,
    },
    /// It failed to move (its reason): the person wins.
    Failed(String),
}

/// A game in progress between a person and an agent.
pub trait Session {
    /// The person's side.
    fn person(&self) -> Player;
    /// The agent's name.
    fn agent_name(&self) -> &str;
    /// The game's seats.
    fn players(&self) -> usize;
    /// The side that moves first.
    fn first(&self) -> Player;
    /// The board as the game draws it.
    fn board(&self) -> String;
    /// Whose turn it is (ends the game for the agent when it is over).
    fn turn(&mut self) -> Turn;
    /// The agent's move.
    fn agent_moves(&mut self) -> Reply;
    /// The person's move, as typed (upper or lower case is forgiven).
    ///
    /// # Errors
    /// The game's word on an illegal or unreadable move.
    fn person_moves(&mut self, text: &str) -> Result<(), MoveError>;
    /// Takes back the person's last move and the reply: the ply returned to, or `None`
    /// when there is nothing to take back.
    fn undo(&mut self) -> Option<usize>;
    /// The moves so far, one a line, after a comment saying how to replay them.
    fn record(&self, path: &str) -> (String, usize);
}

/// Starts a game between a person and an agent.
///
/// # Errors
/// An unknown game or agent, a side the game does not seat, an agent that does not play
/// this game.
pub fn start(request: PlayRequest) -> Result<Box<dyn Session>, Error> {
    let (registry, _) = load_agents(request.agents.as_deref(), None)?;
    let spec = super::launch::parse_game(&request.game, &registry)?;
    let name = request
        .agent
        .clone()
        .unwrap_or_else(|| spec.default_opponent().to_string());
    let agent = registry.resolve(&name).map_err(|e| e.to_string())?;
    dispatch(
        spec,
        Start {
            agent,
            side: request.side,
            seed: request.seed,
            game: request.game,
        },
    )
}

/// The seat `side` names (`p3` or `3`) in a game of `players`.
fn seat_of(side: &str, players: usize, game: &str) -> Result<Player, Error> {
    let text = side.to_ascii_lowercase();
    let number = text.strip_prefix('p').unwrap_or(&text);
    number
        .parse::<usize>()
        .ok()
        .and_then(|n| n.checked_sub(1))
        .filter(|&i| i < players)
        .and_then(Player::seat)
        .ok_or_else(|| {
            Error::Message(format!(
                "--side '{side}': expected {} ('{game}' seats {players})",
                if players == 2 {
                    "p1 or p2".to_string()
                } else {
                    format!("p1 to p{players}")
                }
            ))
        })
}

struct Start {
    agent: AgentSpec,
    side: String,
    seed: u64,
    game: String,
}

impl GameTask for Start {
    type Output = Result<Box<dyn Session>, Error>;

    fn run<G: GameEntry>(self, start: G) -> Self::Output {
        let person = seat_of(&self.side, start.players(), &self.game)?;
        let factory = self
            .agent
            .factory(&start)
            .map_err(|e| format!("agent '{}': {e}", self.agent.name))?;
        let agents = fresh_agents(&factory, person, self.seed, &start, &[]);
        Ok(Box::new(Game {
            state: start.clone(),
            start,
            history: Vec::new(),
            factory,
            agents,
            spec: self.agent,
            person,
            seed: self.seed,
            chance: seeds::rng(seeds::derive(
                self.seed,
                &[crate::tournament::CHANCE_STREAM],
            )),
            outcomes: Vec::new(),
            game: self.game,
            ended: false,
        }))
    }
}

/// A fresh agent for every seat but the person's, each having seen `history` played from
/// `start`.
fn fresh_agents<G: GameEntry>(
    factory: &AgentFactory<G>,
    person: Player,
    seed: u64,
    start: &G,
    history: &[G::Move],
) -> Vec<Option<Box<dyn Agent<G>>>> {
    Player::seats(start.players())
        .iter()
        .map(|&seat| (seat != person).then(|| fresh_agent(factory, seat, seed, start, history)))
        .collect()
}

/// A fresh agent for `seat` that has seen `history` played from `start`.
fn fresh_agent<G: GameEntry>(
    factory: &AgentFactory<G>,
    seat: Player,
    seed: u64,
    start: &G,
    history: &[G::Move],
) -> Box<dyn Agent<G>> {
    let seed = seeds::derive(seed, &[seat.index() as u64]);
    let mut agent = factory(seed);
    agent.start_game(
        start,
        &GameContext {
            id: 0,
            seat,
            seed,
            opening: "",
            move_time: None,
            logs: None,
        },
    );
    let mut state = start.clone();
    for &mv in history {
        agent.observe(&state.format_move(mv));
        state.apply(mv);
    }
    agent
}

/// The position after `history` from `start`.
fn after<G: GameEntry>(start: &G, history: &[G::Move]) -> G {
    let mut state = start.clone();
    for &mv in history {
        state.apply(mv);
    }
    state
}

struct Game<G: GameEntry> {
    start: G,
    state: G,
    history: Vec<G::Move>,
    factory: AgentFactory<G>,
    /// The agent in each seat (none in the person's).
    agents: Vec<Option<Box<dyn Agent<G>>>>,
    spec: AgentSpec,
    person: Player,
    seed: u64,
    game: String,
    /// Whether the agent was told the game ended.
    ended: bool,
    /// Chance's stream (a game with dice), and its outcomes' buffer.
    chance: crate::core::seeds::GameRng,
    outcomes: Vec<(G::Move, f64)>,
}

impl<G: GameEntry> Game<G> {
    /// The result in words, from the person's side (at a table of more, with the place
    /// the game's returns give the person).
    fn result_text(&self, outcome: &Outcome) -> String {
        let players = self.state.players();
        let said = match outcome.winner {
            None => format!("Draw ({}).", outcome.reason),
            Some(winner) if winner == self.person => format!("You win ({}).", outcome.reason),
            Some(winner) if players > 2 => {
                format!("{} ({winner}) wins ({}).", self.spec.name, outcome.reason)
            }
            Some(_) => format!("{} wins ({}).", self.spec.name, outcome.reason),
        };
        match self.state.returns() {
            Some(returns) if players > 2 => {
                let place = returns.places()[self.person.index()];
                format!(
                    "{said} You placed {place} of {players} (your return {:.3}).",
                    returns[self.person]
                )
            }
            _ => said,
        }
    }

    /// Tells every agent the move written `text`.
    fn tell(&mut self, text: &str) {
        for agent in self.agents.iter_mut().flatten() {
            agent.observe(text);
        }
    }

    /// A move as the person is told it: in a game with hidden information, not at all
    /// (what they may know of it is in what they see).
    fn shown(&self, text: String) -> String {
        if self.state.has_hidden() {
            HIDDEN_MOVE.to_string()
        } else {
            text
        }
    }

    fn end(&mut self, winner: Option<Player>, reason: &'static str) {
        if !self.ended {
            for agent in self.agents.iter_mut().flatten() {
                agent.end_game(winner, reason);
            }
            self.ended = true;
        }
    }
}

impl<G: GameEntry> Session for Game<G> {
    fn person(&self) -> Player {
        self.person
    }

    fn agent_name(&self) -> &str {
        &self.spec.name
    }

    fn players(&self) -> usize {
        self.start.players()
    }

    fn first(&self) -> Player {
        self.start.to_move()
    }

    fn board(&self) -> String {
        // What is hidden from the person stays hidden until the game is over.
        if self.state.has_hidden() && self.state.outcome().is_none() {
            return format!("what you see: {}\n", self.state.observation(self.person));
        }
        self.state.board_display()
    }

    fn turn(&mut self) -> Turn {
        if let Some(outcome) = self.state.outcome() {
            self.end(outcome.winner, outcome.reason);
            return Turn::Over(self.result_text(&outcome));
        }
        if let Some(reason) = crate::core::stuck(&self.state) {
            self.end(None, reason);
            return Turn::Over(format!(
                "The game's rules program failed: the game ends as {reason}."
            ));
        }
        if self.state.is_chance() {
            let u = seeds::unit(&mut self.chance);
            if let Some(mv) = self.state.chance_move(u, &mut self.outcomes) {
                let text = self.state.format_move(mv);
                self.tell(&text);
                self.state.apply(mv);
                self.history.push(mv);
                return Turn::Chance(self.shown(text));
            }
        }
        if self.state.to_move() != self.person {
            return Turn::Agent;
        }
        let mut moves = Vec::new();
        self.state.legal_moves(&mut moves);
        Turn::Person(moves.iter().map(|&m| self.state.format_move(m)).collect())
    }

    fn agent_moves(&mut self) -> Reply {
        let seat = self.state.to_move();
        let Some(agent) = self.agents.get_mut(seat.index()).and_then(Option::as_mut) else {
            return Reply::Failed("it is not an agent's turn".to_string());
        };
        let decision = agent.decide(&self.state, &Limits::NONE);
        if let Some(fault) = decision.fault {
            return Reply::Failed(fault.reason.name().to_string());
        }
        let text = self.state.format_move(decision.mv);
        self.state.apply(decision.mv);
        self.history.push(decision.mv);
        self.tell(&text);
        Reply::Played {
            seat,
            text: self.shown(text),
            expanded: decision.stats.expanded,
        }
    }

    fn person_moves(&mut self, text: &str) -> Result<(), MoveError> {
        let state = &self.state;
        let mv = state.parse_move(text).or_else(|error| {
            [text.to_lowercase(), text.to_uppercase()]
                .iter()
                .find_map(|t| state.parse_move(t).ok())
                .ok_or(error)
        })?;
        let text = self.state.format_move(mv);
        self.tell(&text);
        self.state.apply(mv);
        self.history.push(mv);
        Ok(())
    }

    fn undo(&mut self) -> Option<usize> {
        // Back to the person's previous turn: their move and the reply.
        let keep = (0..self.history.len()).rev().find(|&keep| {
            let then = after(&self.start, &self.history[..keep]);
            then.to_move() == self.person && !then.is_chance()
        })?;
        self.history.truncate(keep);
        for agent in self.agents.iter_mut().flatten() {
            agent.end_game(None, "undone");
        }
        self.agents = fresh_agents(
            &self.factory,
            self.person,
            self.seed,
            &self.start,
            &self.history,
        );
        self.state = after(&self.start, &self.history);
        self.ended = false;
        Some(keep)
    }

    fn record(&self, path: &str) -> (String, usize) {
        let mut replay = self.start.clone();
        let mut text = format!(
            "# arbiter play {}: you ({}) against {}; replay with: arbiter replay '{}' {path}\n",
            self.game, self.person, self.spec.name, self.game
        );
        for &mv in &self.history {
            text.push_str(&replay.format_move(mv));
            text.push('\n');
            replay.apply(mv);
        }
        (text, self.history.len())
    }
}
