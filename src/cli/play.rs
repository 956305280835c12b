//! `arbiter play`: a person against an agent in the terminal.

use super::parse_game;
use crate::core::{GameContext, Limits, Player, seeds};
use crate::registry::{AgentRegistry, AgentSpec, GameEntry, GameTask, dispatch};
use anyhow::{Result, anyhow, bail};
use std::io::{BufRead, Write};
use std::path::PathBuf;

/// Arguments of `arbiter play`.
#[derive(clap::Args, Debug)]
pub struct PlayArgs {
    /// The game, e.g. `breakthrough(rules=long)`.
    game: String,
    /// The opponent: a registered name or an inline spec.
    #[arg(long, default_value = "alphabeta(heuristic=offensive2,depth=3)")]
    agent: String,
    /// Which side you play: p1 (moves first) or p2.
    #[arg(long, default_value = "p1")]
    side: String,
    /// The agent's seed.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Folder of agent files.
    #[arg(long, default_value = "agents")]
    agents: PathBuf,
}

struct PlayTask {
    agent: AgentSpec,
    human: Player,
    seed: u64,
}

impl GameTask for PlayTask {
    type Output = Result<()>;

    fn run<G: GameEntry>(self, start: G) -> Result<()> {
        let factory = self
            .agent
            .factory::<G>()
            .map_err(|e| anyhow!("agent '{}': {e}", self.agent.name))?;
        let mut agent = factory(seeds::derive(
            self.seed,
            &[self.human.opponent().index() as u64],
        ));
        let seat = self.human.opponent();
        agent.start_game(
            &start,
            &GameContext {
                id: 0,
                seat,
                seed: seeds::derive(self.seed, &[seat.index() as u64]),
                opening: "",
                move_time: None,
                logs: None,
            },
        );
        let mut state = start;
        let stdin = std::io::stdin();
        let mut lines = stdin.lock().lines();
        let mut moves = Vec::new();
        println!(
            "You play {} against {}. Type a move (e.g. as listed), 'moves' to list them, 'quit' to stop.",
            self.human, self.agent.name
        );
        loop {
            print!("\n{}", state.board_dump());
            if let Some(outcome) = state.outcome() {
                agent.end_game(outcome.winner, outcome.reason);
                println!("result: {} ({})", outcome.winner_label(), outcome.reason);
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
                agent.observe(&text);
                continue;
            }
            state.legal_moves(&mut moves);
            let listed: Vec<String> = moves.iter().map(|&m| state.format_move(m)).collect();
            println!("{} to move; legal: {}", self.human, listed.join(" "));
            loop {
                print!("your move> ");
                std::io::stdout().flush()?;
                let Some(line) = lines.next() else {
                    println!("\nend of input: game left unfinished");
                    return Ok(());
                };
                let line = line?;
                let text = line.trim();
                match text {
                    "" => continue,
                    "quit" | "exit" => return Ok(()),
                    "moves" => println!("{}", listed.join(" ")),
                    _ => match state.parse_move(text) {
                        Ok(mv) => {
                            agent.observe(&state.format_move(mv));
                            state.apply(mv);
                            break;
                        }
                        Err(e) => println!("{e}"),
                    },
                }
            }
        }
    }
}

/// `arbiter play`.
pub fn play(args: PlayArgs) -> Result<()> {
    let spec = parse_game(&args.game)?;
    let registry = AgentRegistry::load(&args.agents)?;
    let agent = registry.resolve(&args.agent).map_err(|e| anyhow!(e))?;
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
        },
    )
}
