//! `arbiter play`: a person against an agent in the terminal.

use crate::core::{Agent, GameContext, Limits, MoveError, Outcome, Player, seeds};
use crate::experiment::launch::parse_game;
use crate::registry::{AgentFactory, AgentSpec, GameEntry, GameTask, dispatch};
use anyhow::{Result, anyhow, bail};
use std::io::{BufRead, Write};
use std::path::PathBuf;

/// Arguments of `arbiter play`.
#[derive(clap::Args, Debug)]
pub struct PlayArgs {
    /// The game, e.g. `breakthrough(rules=long)`.
    game: String,
    /// The opponent: a registered name or an inline spec [default: alpha-beta with the
    /// game's own heuristic, e.g. `alphabeta(heuristic=material,depth=4)` for wights].
    #[arg(long)]
    agent: Option<String>,
    /// Which side you play: p1 or p2 (the game says which moves first: in the Dragon Queen
    /// the Wights, P2, do).
    #[arg(long, default_value = "p1")]
    side: String,
    /// The agent's seed.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Folder of agent files [default: $ARBITER_AGENTS, else agents/ beside the experiment
    /// (its folder or the one above) together with ./agents].
    #[arg(long)]
    agents: Option<PathBuf>,
}

struct PlayTask {
    agent: AgentSpec,
    human: Player,
    seed: u64,
    game: String,
}

/// What a player can type besides a move.
const HELP: &str = "Type a move as listed (upper or lower case), or: moves (list them), undo (take back your last move and the reply), save FILE (the moves so far, for `arbiter replay`), help, quit.";

impl PlayTask {
    /// A fresh agent that has seen `history` played from `start`.
    fn agent_after<G: GameEntry>(
        &self,
        factory: &AgentFactory<G>,
        start: &G,
        history: &[G::Move],
    ) -> Box<dyn Agent<G>> {
        let seat = self.human.opponent();
        let mut agent = factory(seeds::derive(self.seed, &[seat.index() as u64]));
        agent.start_game(
            start,
            &GameContext {
                id: 0,
                seat,
                seed: seeds::derive(self.seed, &[seat.index() as u64]),
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

    /// The result in words, from the person's side.
    fn result_text(&self, outcome: &Outcome) -> String {
        match outcome.winner {
            None => format!("Draw ({}).", outcome.reason),
            Some(winner) if winner == self.human => format!("You win ({}).", outcome.reason),
            Some(_) => format!("{} wins ({}).", self.agent.name, outcome.reason),
        }
    }
}

/// `text` as a move of `state`: as typed, else in lower or upper case.
fn read_move<G: GameEntry>(state: &G, text: &str) -> Result<G::Move, MoveError> {
    state.parse_move(text).or_else(|error| {
        [text.to_lowercase(), text.to_uppercase()]
            .iter()
            .find_map(|t| state.parse_move(t).ok())
            .ok_or(error)
    })
}

impl GameTask for PlayTask {
    type Output = Result<()>;

    fn run<G: GameEntry>(self, start: G) -> Result<()> {
        let factory = self
            .agent
            .factory(&start)
            .map_err(|e| anyhow!("agent '{}': {e}", self.agent.name))?;
        let mut history: Vec<G::Move> = Vec::new();
        let mut agent = self.agent_after(&factory, &start, &history);
        let mut state = start.clone();
        let stdin = std::io::stdin();
        let mut lines = stdin.lock().lines();
        let mut moves = Vec::new();
        println!(
            "You play {} against {}; {} moves first. {HELP}",
            self.human,
            self.agent.name,
            start.to_move()
        );
        loop {
            print!("\n{}", state.board_display());
            if let Some(outcome) = state.outcome() {
                agent.end_game(outcome.winner, outcome.reason);
                println!("{}", self.result_text(&outcome));
                return Ok(());
            }
            if let Some(reason) = crate::core::stuck(&state) {
                agent.end_game(None, reason);
                println!("The game's rules program failed: the game ends as {reason}.");
                return Ok(());
            }
            if state.to_move() != self.human {
                let decision = agent.decide(&state, &Limits::NONE);
                let text = state.format_move(decision.mv);
                if let Some(fault) = decision.fault {
                    println!(
                        "{} failed to move ({}); you win",
                        self.agent.name,
                        fault.reason.name()
                    );
                    return Ok(());
                }
                println!(
                    "{} plays {text} ({} nodes expanded)",
                    self.agent.name, decision.stats.expanded
                );
                state.apply(decision.mv);
                history.push(decision.mv);
                agent.observe(&text);
                continue;
            }
            state.legal_moves(&mut moves);
            let listed: Vec<String> = moves.iter().map(|&m| state.format_move(m)).collect();
            println!("{} to move; legal: {}", self.human, listed.join(", "));
            loop {
                print!("your move> ");
                std::io::stdout().flush()?;
                let Some(line) = lines.next() else {
                    println!("\nend of input: game left unfinished");
                    return Ok(());
                };
                let line = line?;
                let text = line.trim();
                let (command, argument) = text.split_once(' ').unwrap_or((text, ""));
                match command.to_lowercase().as_str() {
                    "" => continue,
                    "quit" | "exit" => return Ok(()),
                    "help" | "?" => println!("{HELP}"),
                    "moves" => println!("{}", listed.join(", ")),
                    "save" if !argument.trim().is_empty() => {
                        let path = argument.trim();
                        let mut replay = start.clone();
                        let mut text = format!(
                            "# arbiter play {}: you ({}) against {}; replay with: arbiter replay '{}' {path}\n",
                            self.game, self.human, self.agent.name, self.game
                        );
                        for &mv in &history {
                            text.push_str(&replay.format_move(mv));
                            text.push('\n');
                            replay.apply(mv);
                        }
                        match std::fs::write(path, text) {
                            Ok(()) => println!("saved {} moves to {path}", history.len()),
                            Err(e) => println!("cannot write {path}: {e}"),
                        }
                    }
                    "save" => println!("save FILE: give the file to write"),
                    "undo" => {
                        // Back to the person's previous turn: their move and the reply.
                        let Some(keep) = (0..history.len()).rev().find(|&keep| {
                            replay_to_state(&start, &history[..keep]).to_move() == self.human
                        }) else {
                            println!("nothing to undo");
                            continue;
                        };
                        history.truncate(keep);
                        agent.end_game(None, "undone");
                        agent = self.agent_after(&factory, &start, &history);
                        state = replay_to_state(&start, &history);
                        println!("took back to ply {keep}");
                        break;
                    }
                    _ => match read_move(&state, text) {
                        Ok(mv) => {
                            agent.observe(&state.format_move(mv));
                            state.apply(mv);
                            history.push(mv);
                            break;
                        }
                        Err(e) => println!("{e} (type help for commands)"),
                    },
                }
            }
        }
    }
}

/// The position after `history` from `start`.
fn replay_to_state<G: GameEntry>(start: &G, history: &[G::Move]) -> G {
    let mut state = start.clone();
    for &mv in history {
        state.apply(mv);
    }
    state
}

/// `arbiter play`.
pub fn play(args: PlayArgs) -> Result<()> {
    let (registry, _) = super::load_agents(args.agents.as_deref(), None)?;
    let spec = parse_game(&args.game, &registry)?;
    let name = args
        .agent
        .clone()
        .unwrap_or_else(|| spec.default_opponent().to_string());
    let agent = registry.resolve(&name).map_err(|e| anyhow!(e))?;
    let human = match args.side.to_ascii_lowercase().as_str() {
        "p1" | "1" => Player::P1,
        "p2" | "2" => Player::P2,
        other => bail!("--side '{other}': expected p1 or p2"),
    };
    dispatch(
        spec,
        PlayTask {
            agent,
            human,
            seed: args.seed,
            game: args.game.clone(),
        },
    )
}
