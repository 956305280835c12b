//! `arbiter play`: a person against an agent in the terminal.

use anyhow::Result;
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
    /// the Wights, P2, do); p1 to pN at a table of more (the agent takes every other seat).
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

/// What a player can type besides a move.
const HELP: &str = "Type a move as listed (upper or lower case), or: moves (list them), undo (take back your last move and the reply), save FILE (the moves so far, for `arbiter replay`), help, quit.";

/// `arbiter play`.
pub fn play(args: PlayArgs) -> Result<()> {
    use crate::experiment::play::{PlayRequest, Reply, Turn, start};
    let mut game = start(PlayRequest {
        game: args.game,
        agent: args.agent,
        side: args.side,
        seed: args.seed,
        agents: args.agents,
    })?;
    let stdin = std::io::stdin();
    let mut lines = stdin.lock().lines();
    let others = game.players().saturating_sub(1);
    println!(
        "You play {} against {}{}; {} moves first. {HELP}",
        game.person(),
        if others > 1 {
            format!("{others} x ")
        } else {
            String::new()
        },
        game.agent_name(),
        game.first()
    );
    loop {
        print!("\n{}", game.board());
        let listed = match game.turn() {
            Turn::Over(result) => {
                println!("{result}");
                return Ok(());
            }
            Turn::Agent => {
                match game.agent_moves() {
                    Reply::Played {
                        seat,
                        text,
                        expanded,
                    } => {
                        let who = if others > 1 {
                            format!("{} ({seat})", game.agent_name())
                        } else {
                            game.agent_name().to_string()
                        };
                        println!("{who} plays {text} ({expanded} nodes expanded)");
                    }
                    Reply::Failed(reason) => {
                        println!("{} failed to move ({reason}); you win", game.agent_name());
                        return Ok(());
                    }
                }
                continue;
            }
            Turn::Chance(text) => {
                println!("chance: {text}");
                continue;
            }
            Turn::Person(listed) => listed,
        };
        println!("{} to move; legal: {}", game.person(), listed.join(", "));
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
                    let (record, moves) = game.record(path);
                    match std::fs::write(path, record) {
                        Ok(()) => println!("saved {moves} moves to {path}"),
                        Err(e) => println!("cannot write {path}: {e}"),
                    }
                }
                "save" => println!("save FILE: give the file to write"),
                "undo" => match game.undo() {
                    Some(ply) => {
                        println!("took back to ply {ply}");
                        break;
                    }
                    None => println!("nothing to undo"),
                },
                _ => match game.person_moves(text) {
                    Ok(()) => break,
                    Err(e) => println!("{e} (type help for commands)"),
                },
            }
        }
    }
}
