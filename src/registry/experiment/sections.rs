//! The sections of an experiment file, each read and checked on its own: the counts, the
//! submissions folder, who plays in rounds and in the round robin, the listed matchups,
//! the sweeps, the rounds and the clocks. [`super::Experiment::parse`] calls them in order.

use super::*;
use crate::registry::submissions::Submissions;

/// An experiment's games per matchup, ply cap and colour policy, checked.
pub(super) fn counts(
    file: &ExperimentFile,
    at: &Located<'_>,
) -> Result<(i64, i64, Colours), InputError> {
    let games = file.games.unwrap_or(DEFAULT_GAMES as i64);
    if games < 1 || games as u64 > MAX_GAMES {
        return Err(at.fail(
            at.key("games"),
            format!("games = {games}: must be from 1 to {MAX_GAMES} games per matchup"),
        ));
    }
    let max_plies = file.max_plies.unwrap_or(i64::from(DEFAULT_MAX_PLIES));
    if !(1..=100_000).contains(&max_plies) {
        return Err(at.fail(
            at.key("max_plies"),
            format!("max_plies = {max_plies}: must be from 1 to 100000"),
        ));
    }
    let colours = match file.colours.as_deref() {
        None | Some("alternate") => Colours::Alternate,
        Some("as-listed") => Colours::AsListed,
        Some(other) => {
            return Err(at.fail(
                at.key("colours"),
                format!("colours = '{other}': expected 'alternate' or 'as-listed'"),
            ));
        }
    };
    Ok((games, max_plies, colours))
}

/// A folder of submissions (`agents_dir`): the registry with each valid one added, and
/// what was found (with what was left out and why); `None` without one.
pub(super) fn submitted(
    file: &ExperimentFile,
    at: &Located<'_>,
    registry: &AgentRegistry,
) -> Result<Option<(AgentRegistry, Submissions)>, InputError> {
    match &file.agents_dir {
        None if file.sandbox.is_some() => Err(at.fail(
            at.key("sandbox"),
            "sandbox: the submissions' sandbox and limits; give agents_dir beside it (an agent file's own agents set theirs in the agent file)".to_string(),
        )),
        None => Ok(None),
        Some(dir) => {
            let here = at.path.parent().unwrap_or(Path::new("."));
            let folder = here.join(dir);
            let sandbox = match &file.sandbox {
                Some(value) => crate::registry::agents::sandbox_entry(value, here)
                    .map_err(|e| at.fail(at.key("sandbox"), e.message))?,
                None => None,
            };
            let mut extended = registry.clone();
            let found = extended
                .add_submissions(&folder, sandbox.as_ref())
                .map_err(|e| at.fail(at.key("agents_dir"), format!("agents_dir = \"{dir}\": {e}")))?;
            Ok(Some((extended, found)))
        }
    }
}

/// Who plays a tournament in rounds (`swiss` or `knockout`, the key it is written at)
/// and who plays the round robin, the submissions joined to the one there is.
pub(super) fn players(
    file: &ExperimentFile,
    at: &Located<'_>,
    submissions: &Submissions,
) -> Result<(&'static str, Vec<String>, Vec<String>), InputError> {
    let in_rounds = file.swiss.is_some() || file.knockout.is_some();
    let (rounds_key, mut round_players) = match (&file.swiss, &file.knockout) {
        (Some(_), Some(_)) => {
            return Err(at.fail(
                at.key("knockout"),
                "give swiss or knockout, not both".to_string(),
            ));
        }
        (Some(swiss), None) => ("swiss", swiss.players.clone()),
        (None, Some(knockout)) => ("knockout", knockout.players.clone()),
        (None, None) => ("", Vec::new()),
    };
    if in_rounds
        && (!file.matchups.is_empty()
            || !file.round_robin.is_empty()
            || file.gauntlet.is_some()
            || !file.sweep.is_empty()
            || file.sprt.is_some())
    {
        return Err(at.fail(
            at.key(rounds_key),
            format!(
                "{rounds_key}: its players play alone; give no matchups, round_robin, gauntlet, sweep or sprt beside it"
            ),
        ));
    }
    let mut round_robin = file.round_robin.clone();
    let joined = if in_rounds {
        &mut round_players
    } else {
        &mut round_robin
    };
    for name in &submissions.agents {
        if !joined.contains(name) {
            joined.push(name.clone());
        }
    }
    Ok((rounds_key, round_players, round_robin))
}

/// An experiment file being read: its path and text, to name the line of what is wrong.
pub(crate) struct Located<'a> {
    pub(crate) path: &'a Path,
    pub(crate) source: &'a str,
}

impl Located<'_> {
    /// The line of `key = ...`, if written.
    pub(crate) fn key(&self, key: &str) -> Option<usize> {
        line_of_key(self.source, key)
    }

    /// The line where `text` is first written as a string, if it is.
    pub(crate) fn line_of(&self, text: &str) -> Option<usize> {
        line_of_string(self.source, text)
    }

    /// An error in the file, at `line` when known.
    pub(crate) fn fail(&self, line: Option<usize>, message: impl Into<String>) -> InputError {
        InputError::in_file(self.path, line, message)
    }

    /// A count the file may give as `key` (`value`): from 1 to `max`, `default` if absent.
    ///
    /// # Errors
    /// A value out of range, at its line.
    pub(crate) fn count(
        &self,
        key: &str,
        value: Option<i64>,
        default: u64,
        max: u64,
    ) -> Result<u64, InputError> {
        match value {
            None => Ok(default),
            Some(v) if v >= 1 && v as u64 <= max => Ok(v as u64),
            Some(v) => Err(self.fail(
                self.key(key),
                format!("{key} = {v}: must be from 1 to {max}"),
            )),
        }
    }

    /// The game the file names (`game = "..."`), looked up in `registry`.
    ///
    /// # Errors
    /// An unknown game or parameter, at the line of `game`.
    pub(crate) fn game(
        &self,
        registry: &crate::registry::AgentRegistry,
        text: &str,
    ) -> Result<crate::registry::GameSpec, InputError> {
        registry
            .game(text)
            .map_err(|e: String| self.fail(self.key("game"), e))
    }

    /// A factory for each of `agents` (written as `texts` in the file), each checked to
    /// play `game`, in order.
    ///
    /// # Errors
    /// The first agent whose algorithm, heuristic or parameters do not fit the game,
    /// naming the line that names it.
    pub(crate) fn factories<G: crate::registry::GameEntry>(
        &self,
        agents: &[crate::registry::AgentSpec],
        texts: &[String],
        game: &G,
    ) -> Result<Vec<crate::registry::AgentFactory<G>>, InputError> {
        agents
            .iter()
            .zip(texts)
            .map(|(agent, text)| {
                agent
                    .factory(game)
                    .map_err(|e| self.fail(self.line_of(text), format!("agent '{text}': {e}")))
            })
            .collect()
    }

    /// `move_time_ms`, checked to be a time limit arbiter can keep.
    ///
    /// # Errors
    /// A value out of range, at its line.
    pub(crate) fn move_time_ms(&self, value: Option<i64>) -> Result<Option<u64>, InputError> {
        match value {
            None => Ok(None),
            Some(ms) => match crate::core::time_limit_ms(i128::from(ms)) {
                Ok(_) => Ok(Some(ms as u64)),
                Err(e) => Err(self.fail(self.key("move_time_ms"), format!("move_time_ms = {e}"))),
            },
        }
    }
}

/// What an experiment's sections build together: its agents (in the order first named,
/// with the text each was named by) and its matchups.
pub(super) struct Roster<'a> {
    pub(super) registry: &'a AgentRegistry,
    pub(super) at: &'a Located<'a>,
    pub(super) agents: Vec<AgentSpec>,
    pub(super) texts: Vec<String>,
    pub(super) matchups: Vec<MatchupSpec>,
}

impl Roster<'_> {
    /// The index of the agent named by `text`, resolved and added the first time.
    pub(super) fn index_of(&mut self, text: &str) -> Result<usize, InputError> {
        if let Some(i) = self.texts.iter().position(|t| t == text) {
            return Ok(i);
        }
        let spec = self
            .registry
            .resolve(text)
            .map_err(|e| self.at.fail(self.at.line_of(text), e.message))?;
        self.texts.push(text.to_string());
        self.agents.push(spec);
        Ok(self.agents.len() - 1)
    }
}

/// The matchups an experiment lists: `matchups`, a round robin (its submissions joined
/// in `round_robin`), a gauntlet.
pub(super) fn listed_matchups(
    file: &ExperimentFile,
    round_robin: &[String],
    at: &Located<'_>,
    roster: &mut Roster<'_>,
) -> Result<(), InputError> {
    for pair in &file.matchups {
        if pair.len() != 2 {
            return Err(at.fail(
                at.key("matchups"),
                format!(
                    "each matchup lists exactly two agents, found {}: {pair:?}",
                    pair.len()
                ),
            ));
        }
        let agents = [roster.index_of(&pair[0])?, roster.index_of(&pair[1])?];
        roster.matchups.push(MatchupSpec {
            agents,
            seed_key: roster.matchups.len() as u64,
            sequential: true,
        });
    }
    if round_robin.len() == 1 {
        return Err(at.fail(
            at.key("round_robin").or(at.key("agents_dir")),
            "a round robin needs at least two agents".to_string(),
        ));
    }
    let members: Vec<usize> = round_robin
        .iter()
        .map(|t| roster.index_of(t))
        .collect::<Result<_, _>>()?;
    for (i, &a) in members.iter().enumerate() {
        for &b in &members[i + 1..] {
            if a == b {
                return Err(at.fail(
                    at.key("round_robin"),
                    format!("agent '{}' is listed twice in round_robin", roster.texts[a]),
                ));
            }
            roster.matchups.push(MatchupSpec {
                agents: [a, b],
                seed_key: roster.matchups.len() as u64,
                sequential: true,
            });
        }
    }
    if let Some(gauntlet) = &file.gauntlet {
        let hero = roster.index_of(&gauntlet.agent)?;
        if gauntlet.opponents.is_empty() {
            return Err(at.fail(
                at.key("gauntlet"),
                "a gauntlet needs at least one opponent".to_string(),
            ));
        }
        for opponent in &gauntlet.opponents {
            let opponent = roster.index_of(opponent)?;
            roster.matchups.push(MatchupSpec {
                agents: [hero, opponent],
                seed_key: roster.matchups.len() as u64,
                sequential: true,
            });
        }
    }
    Ok(())
}

/// An experiment's parameter sweeps: each variant of a swept agent meets each opponent,
/// with the same seeds for every variant (a paired comparison).
pub(super) fn sweeps(
    file: &ExperimentFile,
    at: &Located<'_>,
    roster: &mut Roster<'_>,
) -> Result<Vec<SweepInfo>, InputError> {
    let mut sweeps = Vec::new();
    for (number, sweep) in file.sweep.iter().enumerate() {
        let line = at.line_of(&sweep.agent);
        let template: Spec = sweep
            .agent
            .parse()
            .map_err(|e: SpecError| at.fail(line, format!("sweep: {e}")))?;
        let lists: Vec<(usize, Vec<String>)> = template
            .params
            .iter()
            .enumerate()
            .filter_map(|(i, (_, v))| list_values(v).map(|values| (i, values)))
            .collect();
        if lists.is_empty() || lists.iter().any(|(_, values)| values.is_empty()) {
            return Err(at.fail(
                line,
                format!(
                    "sweep '{}': give at least one parameter as a non-empty list, e.g. depth=[1,2,3]",
                    sweep.agent
                ),
            ));
        }
        if sweep.opponents.is_empty() {
            return Err(at.fail(line, "a sweep needs at least one opponent".to_string()));
        }
        let opponents: Vec<usize> = sweep
            .opponents
            .iter()
            .map(|o| roster.index_of(o))
            .collect::<Result<_, _>>()?;
        // The Cartesian product of the lists, first key slowest.
        let mut combinations: Vec<Vec<String>> = vec![Vec::new()];
        for (_, values) in &lists {
            combinations = combinations
                .into_iter()
                .flat_map(|prefix| {
                    values.iter().map(move |v| {
                        let mut next = prefix.clone();
                        next.push(v.clone());
                        next
                    })
                })
                .collect();
        }
        if combinations.len() > 1000 {
            return Err(at.fail(
                line,
                format!(
                    "sweep '{}' has {} variants (at most 1000)",
                    sweep.agent,
                    combinations.len()
                ),
            ));
        }
        let mut variants = Vec::new();
        for combination in &combinations {
            let mut spec = template.clone();
            for ((index, _), value) in lists.iter().zip(combination) {
                spec.params[*index].1 = value.clone();
            }
            let chosen: Vec<String> = lists
                .iter()
                .zip(combination)
                .map(|((index, _), value)| format!("{}={value}", template.params[*index].0))
                .collect();
            let text = spec.to_string();
            let mut agent: AgentSpec = roster
                .registry
                .resolve(&text)
                .map_err(|e| at.fail(line, format!("sweep: {e}")))?;
            agent.name = match &sweep.name {
                Some(name) => format!("{name}[{}]", chosen.join(",")),
                None => text.clone(),
            };
            let variant = match roster.texts.iter().position(|t| *t == agent.name) {
                Some(i) => i,
                None => {
                    roster.texts.push(agent.name.clone());
                    roster.agents.push(agent);
                    roster.agents.len() - 1
                }
            };
            variants.push(variant);
            for (o, &opponent) in opponents.iter().enumerate() {
                roster.matchups.push(MatchupSpec {
                    agents: [variant, opponent],
                    seed_key: 1_000_000 * (number as u64 + 1) + o as u64,
                    sequential: false,
                });
            }
        }
        // One key: its values; a grid: each combination written `a=1,b=2`.
        let keys: Vec<&str> = lists
            .iter()
            .map(|(i, _)| template.params[*i].0.as_str())
            .collect();
        let values = combinations
            .iter()
            .map(|combination| {
                if keys.len() == 1 {
                    combination[0].clone()
                } else {
                    keys.iter()
                        .zip(combination)
                        .map(|(k, v)| format!("{k}={v}"))
                        .collect::<Vec<_>>()
                        .join(",")
                }
            })
            .collect();
        sweeps.push(SweepInfo {
            key: keys.join(","),
            values,
            variants: variants
                .iter()
                .map(|&v| roster.agents[v].name.clone())
                .collect(),
            opponents: opponents
                .iter()
                .map(|&o| roster.agents[o].name.clone())
                .collect(),
        });
    }
    Ok(sweeps)
}

/// A tournament in rounds (`swiss` or `knockout`, written at `rounds_key`) of
/// `round_players`: every pair of them a matchup; `None` without one.
pub(super) fn rounds(
    file: &ExperimentFile,
    round_players: &[String],
    rounds_key: &str,
    at: &Located<'_>,
    roster: &mut Roster<'_>,
) -> Result<Option<RoundsSpec>, InputError> {
    if file.swiss.is_none() && file.knockout.is_none() {
        return Ok(None);
    }
    let line = at.key(rounds_key);
    if round_players.len() < 2 {
        return Err(at.fail(
            line,
            format!("{rounds_key}: give at least two players (players = [...], or agents_dir)"),
        ));
    }
    let players: Vec<usize> = round_players
        .iter()
        .map(|t| roster.index_of(t))
        .collect::<Result<_, _>>()?;
    let mut seen = players.clone();
    seen.sort_unstable();
    seen.dedup();
    if seen.len() != players.len() {
        return Err(at.fail(line, format!("{rounds_key}: a player is listed twice")));
    }
    // games: at least 1; tiebreak: 0 (none) or more.
    let whole = |key: &str,
                 value: Option<i64>,
                 default: i64,
                 least: i64,
                 most: i64|
     -> Result<u64, InputError> {
        match value.unwrap_or(default) {
            v if (least..=most).contains(&v) => Ok(v as u64),
            v => Err(at.fail(
                line,
                format!("{rounds_key}: {key} = {v}: give {least} to {most}"),
            )),
        }
    };
    let (format, games) = match (&file.swiss, &file.knockout) {
        (Some(swiss), _) => {
            let most = most_swiss_rounds(players.len());
            if swiss.rounds < 1 || swiss.rounds > i64::from(most) {
                return Err(at.fail(
                    line,
                    format!(
                        "swiss: rounds = {}: {} players can play 1 to {most} rounds (as many as a round robin has)",
                        swiss.rounds,
                        players.len()
                    ),
                ));
            }
            (
                Format::Swiss {
                    rounds: swiss.rounds as u32,
                },
                whole("games", swiss.games, 2, 1, 1000)?,
            )
        }
        (None, Some(knockout)) => (
            Format::Knockout {
                tiebreak: whole("tiebreak", knockout.tiebreak, 2, 0, 1000)?,
            },
            whole("games", knockout.games, 2, 1, 1000)?,
        ),
        (None, None) => unreachable!("in_rounds"),
    };
    // Every pair of players is a matchup, the earlier agent first.
    let mut sorted = players.clone();
    sorted.sort_unstable();
    for (i, &a) in sorted.iter().enumerate() {
        for &b in &sorted[i + 1..] {
            roster.matchups.push(MatchupSpec {
                agents: [a, b],
                seed_key: roster.matchups.len() as u64,
                sequential: false,
            });
        }
    }
    Ok(Some(RoundsSpec {
        format,
        players,
        games,
    }))
}

/// An experiment's game clock and its kind (`clock = "cpu"`), checked against its agents:
/// one told to deepen without end needs a clock.
pub(super) fn clocks(
    file: &ExperimentFile,
    at: &Located<'_>,
    roster: &Roster<'_>,
) -> Result<(Option<[TimeControl; 2]>, bool), InputError> {
    let time_control = match &file.time_control {
        None => None,
        Some(value) => {
            Some(time_control_spec(value).map_err(|e| at.fail(at.key("time_control"), e))?)
        }
    };
    let cpu_clock = match file.clock.as_deref() {
        None | Some("wall") => false,
        Some("cpu") => true,
        Some(other) => {
            return Err(at.fail(
                at.key("clock"),
                format!("clock = \"{other}\": expected \"wall\" (the default) or \"cpu\""),
            ));
        }
    };
    if time_control.is_none()
        && let Some((i, agent)) = roster
            .agents
            .iter()
            .enumerate()
            .find(|(_, a)| a.deepens_unbounded())
    {
        return Err(at.fail(
            at.line_of(&roster.texts[i]),
            format!(
                "agent '{}': depth {} deepens until something stops it: give it time_ms or nodes, or give the experiment a game clock (time_control = \"60+0.5\"), or a depth from 1 to {}",
                agent.name,
                agent.depth,
                crate::search::MAX_DEPTH
            ),
        ));
    }
    if file.clock.is_some() && time_control.is_none() {
        return Err(at.fail(
            at.key("clock"),
            "clock: there is no time_control for it to run (give time_control = \"60+0.5\")"
                .to_string(),
        ));
    }
    Ok((time_control, cpu_clock))
}
