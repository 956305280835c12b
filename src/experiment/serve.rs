//! The commands that put arbiter behind a protocol or check a program against one, with
//! the game they play chosen by name: a built-in agent served on the agent protocol
//! (`serve-agent`), a game served on the game protocol (`serve-game`), and the compliance
//! check of an agent program (`check-agent`). The cli gives them its input and output.

use super::Error;
use crate::external::ExternalSpec;
use crate::external::check::{CheckTimes, Verdict, check};
use crate::external::serve::serve;
use crate::external::serve_game::{Served, serve_game as serve_rules};
use crate::registry::spec::Spec;
use crate::registry::{AgentSpec, GameEntry, GameSpec, GameTask, dispatch};
use std::io::{BufRead, Write};
use std::path::Path;

/// Serves built-in `agent` playing `game` on the agent protocol: requests read from
/// `input`, replies written to `output`, notes to `log`, until `quit` or the input ends.
///
/// # Errors
/// An agent that does not fit the game, or an input or output that fails.
pub fn serve_agent(
    game: GameSpec,
    agent: AgentSpec,
    input: impl BufRead,
    output: impl Write,
    log: &mut dyn Write,
) -> Result<(), Error> {
    if agent.external.is_some() {
        return Err(Error::Message(format!(
            "agent '{}' is a program already; serve-agent serves arbiter's built-in agents",
            agent.name
        )));
    }
    struct Task<'l, I, O> {
        agent: AgentSpec,
        game: String,
        input: I,
        output: O,
        log: &'l mut dyn Write,
    }
    impl<I: BufRead, O: Write> GameTask for Task<'_, I, O> {
        type Output = Result<(), Error>;
        fn run<G: GameEntry>(self, start: G) -> Result<(), Error> {
            crate::registry::two_players(&start, "the protocols")?;
            let factory = self.agent.factory(&start).map_err(|e| {
                Error::Message(format!("agent '{}': {}", self.agent.name, e.message))
            })?;
            serve(
                &start,
                &self.game,
                &self.agent.name,
                &|seed| factory(seed),
                self.input,
                self.output,
                self.log,
            )
            .map_err(|e| Error::Message(e.to_string()))
        }
    }
    let name = game.to_string();
    dispatch(
        game,
        Task {
            agent,
            game: name,
            input,
            output,
            log,
        },
    )
}

/// Serves `game` on the game protocol, with `heuristic` answering `evaluate` when given:
/// requests read from `input`, replies written to `output`.
///
/// # Errors
/// A heuristic the game does not have, or an input or output that fails.
pub fn serve_game(
    game: GameSpec,
    heuristic: Option<Spec>,
    input: impl BufRead,
    output: impl Write,
) -> Result<(), Error> {
    struct Task<I, O> {
        name: String,
        heuristic: Option<Spec>,
        input: I,
        output: O,
    }
    impl<I: BufRead, O: Write> GameTask for Task<I, O> {
        type Output = Result<(), Error>;
        fn run<G: GameEntry>(self, start: G) -> Result<(), Error> {
            crate::registry::two_players(&start, "the protocols")?;
            let evaluator = match &self.heuristic {
                Some(spec) => Some(
                    start
                        .heuristic(&spec.name, &spec.params)
                        .map_err(|e| Error::Message(format!("--heuristic: {e}")))?,
                ),
                None => None,
            };
            let features = |state: &G, side| state.features_of(side);
            let served = Served {
                name: &self.name,
                features: (start.feature_names(), &features),
                evaluator: evaluator.as_ref(),
            };
            serve_rules(&start, &served, self.input, self.output)
                .map_err(|e| Error::Message(e.to_string()))
        }
    }
    let name = game.to_string();
    dispatch(
        game,
        Task {
            name,
            heuristic,
            input,
            output,
        },
    )
}

/// Checks agent program `spec` (called `name`) on `game`, each step a line on `out`; its
/// stderr is kept in `logs` while it runs. The verdict: failures and warnings.
///
/// # Errors
/// Writing to `out` fails.
pub fn check_agent(
    game: GameSpec,
    name: &str,
    spec: &ExternalSpec,
    times: CheckTimes,
    logs: &Path,
    out: &mut dyn Write,
) -> Result<Verdict, Error> {
    struct Task<'a> {
        name: &'a str,
        spec: &'a ExternalSpec,
        game: String,
        times: CheckTimes,
        logs: &'a Path,
        out: &'a mut dyn Write,
    }
    impl GameTask for Task<'_> {
        type Output = Result<Verdict, Error>;
        fn run<G: GameEntry>(self, start: G) -> Result<Verdict, Error> {
            crate::registry::two_players(&start, "the protocols")?;
            check(
                self.name, self.spec, &start, &self.game, self.times, self.logs, self.out,
            )
            .map_err(|e| Error::Message(e.to_string()))
        }
    }
    let game_name = game.to_string();
    dispatch(
        game,
        Task {
            name,
            spec,
            game: game_name,
            times,
            logs,
            out,
        },
    )
}
