//! An agent spec: inline (`alphabeta(heuristic=offensive2,depth=4)`) or an agent file's
//! entry, validated, printed in its canonical form, and made into agents for a game.

use crate::external::{ExternalSpec, Shared};
use crate::registry::spec::Spec;
use crate::registry::spec::SpecError;
use crate::registry::{AgentFactory, GameEntry};
use crate::search::ismcts::IsmctsAgent;
use crate::search::mcts::{MctsAgent, MctsConfig, Rollout, Rounds};
use crate::search::tt::DEFAULT_TT_MB;
use crate::search::{Algorithm, MAX_DEEPENING, MAX_DEPTH, RandomAgent, SearchAgent, SearchConfig};

/// The depth of minimax and alpha-beta when a spec gives none.
pub const DEFAULT_DEPTH: u32 = 3;

/// The beam width when a spec gives none (report 004's final code).
pub const DEFAULT_BEAM_WIDTH: usize = 4;

/// An agent: algorithm, depth, heuristic and heuristic parameters.
#[derive(Clone, Debug, PartialEq)]
pub struct AgentSpec {
    /// Display name: the registered name, or the canonical inline spec.
    pub name: String,
    /// Search algorithm.
    pub algorithm: Algorithm,
    /// Depth in plies (1 for greedy, 0 for random; beam: own moves; with a time budget,
    /// the deepest iteration, 0 for no limit).
    pub depth: u32,
    /// Beam width k (beam only).
    pub beam_width: usize,
    /// Beam decay gamma (beam only).
    pub gamma: f64,
    /// Time budget per move in milliseconds (iterative deepening), if any.
    pub time_ms: Option<u64>,
    /// A node budget per move (iterative deepening), if any: minimax and alpha-beta only.
    pub nodes: Option<u64>,
    /// Heuristic name (`None` for random).
    pub heuristic: Option<String>,
    /// Heuristic parameters as written.
    pub params: Vec<(String, String)>,
    /// MCTS's parameters (mcts only).
    pub mcts: MctsConfig,
    /// The transposition table's megabytes (alphabeta-tt only).
    pub tt_mb: u32,
    /// The aspiration window's half-width, 0 for none (alphabeta-tt only).
    pub aspiration: f64,
    /// The centred heuristic's bound that turns on shallow pruning (maxn only).
    pub bound: Option<f64>,
    /// Set for an agent that is another program (then the fields above are unused).
    pub external: Option<ExternalSpec>,
}

/// The largest node budget per move.
const MAX_NODE_BUDGET: u64 = 1 << 40;

/// What marks an external agent's inline spec (the form meta.json records).
const EXTERNAL_PREFIX: &str = "external:";

/// Whether an inline spec (as meta.json records agents) is an external program's.
pub fn is_external_spec(text: &str) -> bool {
    text.trim_start().starts_with(EXTERNAL_PREFIX)
}

/// What an agent plays as, from its inline spec as meta.json records it, in game `game`
/// (a game spec): the spec with its keys sorted, numbers written one way (`2.0` as `2`)
/// and the heuristic's parameters left at their defaults dropped. Two agents with one
/// identity play alike (a sweep's variant `enemy_weight=1` and `ab3-offensive2`); other
/// specs (external programs, unparsable text) are their own identity.
pub fn agent_identity(game: &str, spec: &str) -> String {
    let Ok(parsed) = spec.parse::<Spec>() else {
        return spec.to_string();
    };
    let game = game.split('(').next().unwrap_or(game).trim();
    let heuristic = parsed
        .params
        .iter()
        .find(|(k, _)| k == "heuristic")
        .map(|(_, h)| h.as_str());
    let defaults = crate::registry::GAMES
        .iter()
        .find(|g| g.name == game)
        .and_then(|g| g.heuristics.iter().find(|h| Some(h.name) == heuristic))
        .map_or(&[][..], |h| h.params);
    let number = |text: &str| text.trim().parse::<f64>().ok().filter(|v| v.is_finite());
    let mut params: Vec<(String, String)> = parsed
        .params
        .into_iter()
        .filter(|(k, v)| {
            !defaults
                .iter()
                .any(|p| p.key == k && number(v) == Some(p.default))
        })
        .map(|(k, v)| match number(&v) {
            Some(n) => (k, n.to_string()),
            None => (k, v),
        })
        .collect();
    params.sort();
    Spec {
        name: parsed.name,
        params,
    }
    .to_string()
}

/// MCTS's parameters from their keys (`iterations`, `c`, `rollout`, `rollout_plies`,
/// `epsilon`, in that order), which only mcts takes.
fn mcts_config(
    algorithm: Algorithm,
    keys: &[Option<String>; 5],
    timed: bool,
) -> Result<MctsConfig, SpecError> {
    const NAMES: [&str; 5] = ["iterations", "c", "rollout", "rollout_plies", "epsilon"];
    let mut config = MctsConfig::default();
    if !algorithm.is_mcts() {
        return match keys.iter().zip(NAMES).find(|(k, _)| k.is_some()) {
            Some((_, name)) => Err(SpecError::at(
                name,
                format!("{name} is a parameter of mcts and ismcts, not {algorithm}'s"),
            )),
            None => Ok(config),
        };
    }
    let [iterations, c, rollout, plies, epsilon] = keys;
    if let Some(text) = iterations {
        config.iterations = text
            .trim()
            .parse::<u64>()
            .ok()
            .filter(|&n| n <= 100_000_000 && (n > 0 || timed))
            .ok_or_else(|| {
                SpecError::at("iterations", format!("iterations '{text}' must be a whole number from 1 to 100000000 (0: as many as time_ms allows)"))
            })?;
    } else if timed {
        config.iterations = 0;
    }
    if let Some(text) = c {
        config.c = text
            .trim()
            .parse::<f64>()
            .ok()
            .filter(|c| c.is_finite() && *c >= 0.0)
            .ok_or_else(|| SpecError::at("c", format!("c '{text}' must be a number, 0 or more")))?;
    }
    if let Some(text) = rollout {
        config.rollout = match text.trim() {
            "random" => Rollout::Random,
            "heuristic" => Rollout::Heuristic,
            other => {
                return Err(SpecError::at(
                    "rollout",
                    format!("rollout '{other}' must be random or heuristic"),
                ));
            }
        };
    }
    if let Some(text) = plies {
        config.rollout_plies = text
            .trim()
            .parse::<u32>()
            .ok()
            .filter(|&n| n <= 10_000)
            .ok_or_else(|| {
                SpecError::at(
                    "rollout_plies",
                    format!(
                        "rollout_plies '{text}' must be a whole number from 0 (to the end) to 10000"
                    ),
                )
            })?;
    }
    if let Some(text) = epsilon {
        config.epsilon = text
            .trim()
            .parse::<f64>()
            .ok()
            .filter(|e| (0.0..=1.0).contains(e))
            .ok_or_else(|| {
                SpecError::at(
                    "epsilon",
                    format!("epsilon '{text}' must be a number from 0 to 1"),
                )
            })?;
    }
    Ok(config)
}

/// The keys of the searching algorithms: a node budget (minimax and the alphabeta
/// variants), and the transposition table's size and aspiration window (alphabeta-tt).
fn search_keys(
    algorithm: Algorithm,
    nodes: Option<String>,
    tt_mb: Option<String>,
    aspiration: Option<String>,
) -> Result<(Option<u64>, u32, f64), SpecError> {
    let nodes = match nodes {
        None => None,
        Some(_) if !algorithm.searches() => {
            return Err(SpecError::at("nodes", format!(
                "{algorithm} takes no nodes (a node budget is for minimax and the alphabeta variants; mcts counts iterations)"
            )));
        }
        Some(text) => Some(
            text.trim()
                .parse::<u64>()
                .ok()
                .filter(|n| (1..=MAX_NODE_BUDGET).contains(n))
                .ok_or_else(|| {
                    SpecError::at("nodes", format!(
                        "nodes '{text}' must be a whole number of nodes from 1 to {MAX_NODE_BUDGET}"
                    ))
                })?,
        ),
    };
    let tt_mb = match tt_mb {
        None => DEFAULT_TT_MB,
        Some(_) if algorithm != Algorithm::AlphaBetaTt => {
            return Err(SpecError::at(
                "tt_mb",
                format!("tt_mb is alphabeta-tt's parameter, not {algorithm}'s"),
            ));
        }
        Some(text) => text
            .trim()
            .parse::<u32>()
            .ok()
            .filter(|mb| (1..=65_536).contains(mb))
            .ok_or_else(|| {
                SpecError::at(
                    "tt_mb",
                    format!("tt_mb '{text}' must be a whole number of megabytes from 1 to 65536"),
                )
            })?,
    };
    let aspiration = match aspiration {
        None => 0.0,
        Some(_) if algorithm != Algorithm::AlphaBetaTt => {
            return Err(SpecError::at(
                "aspiration",
                format!("aspiration is alphabeta-tt's parameter, not {algorithm}'s"),
            ));
        }
        Some(text) => text
            .trim()
            .parse::<f64>()
            .ok()
            .filter(|w| w.is_finite() && *w >= 0.0)
            .ok_or_else(|| {
                SpecError::at(
                    "aspiration",
                    format!(
                        "aspiration '{text}' must be a half-width of at least 0 (0 turns it off)"
                    ),
                )
            })?,
    };
    Ok((nodes, tt_mb, aspiration))
}

/// The depth of an `algorithm` agent from its `depth` key: the default when not given
/// (none when the search is `budgeted` by time or nodes), checked against what the
/// algorithm searches.
fn depth_of(algorithm: Algorithm, depth: Option<String>, budgeted: bool) -> Result<u32, SpecError> {
    Ok(match (algorithm, depth) {
        (Algorithm::Beam, None) => DEFAULT_DEPTH,
        (Algorithm::Beam, Some(text)) => match text.trim().parse::<u32>() {
            Ok(d) if d <= MAX_DEPTH => d,
            _ => {
                return Err(SpecError::at(
                    "depth",
                    format!("depth '{text}' must be a whole number from 0 to {MAX_DEPTH}"),
                ));
            }
        },
        (a, None) if a.searches() && budgeted => 0,
        (a, None) if a.searches() => DEFAULT_DEPTH,
        (a, Some(text)) if a.searches() => match text.trim().parse::<u32>() {
            Ok(d) if (1..=MAX_DEPTH).contains(&d) => d,
            // No depth limit (0), or a maximum for iterative deepening: stopped by a
            // time or node budget, or by a game clock (which the experiment checks).
            Ok(d) if d <= MAX_DEEPENING => d,
            _ => {
                return Err(SpecError::at(
                    "depth",
                    format!(
                        "depth '{text}' must be a whole number from 1 to {MAX_DEPTH}, or up to {MAX_DEEPENING} (0: no limit) for iterative deepening on a time or node budget or a game clock"
                    ),
                ));
            }
        },
        (Algorithm::Greedy, None) => 1,
        (Algorithm::Greedy, Some(text)) if text.trim() == "1" => 1,
        (Algorithm::Greedy, Some(text)) => {
            return Err(SpecError::at(
                "depth",
                format!(
                    "greedy searches exactly one ply; depth '{text}' is not allowed (use alphabeta for deeper search)"
                ),
            ));
        }
        (a, Some(_)) => {
            return Err(SpecError::at("depth", format!("{a} takes no depth")));
        }
        (_, None) => 0,
    })
}

impl AgentSpec {
    /// Whether nothing of its own stops its search: a searching algorithm with no depth
    /// limit (0) or one past a fixed search's, and neither a time nor a node budget. Only
    /// a game clock can stop it (the clock's share of each move), so a run without one
    /// refuses it.
    pub fn deepens_unbounded(&self) -> bool {
        self.algorithm.searches()
            && (self.depth == 0 || self.depth > MAX_DEPTH)
            && self.time_ms.is_none()
            && self.nodes.is_none()
    }

    /// Builds a spec from an algorithm name and its keys; `depth` and `heuristic` are
    /// the algorithm's, every other key goes to the heuristic (checked by
    /// [`AgentSpec::factory`]).
    ///
    /// # Errors
    /// A message: unknown algorithm, bad depth, missing heuristic, or keys that do not fit.
    pub fn from_parts(
        name: Option<String>,
        algorithm: &str,
        depth: Option<String>,
        heuristic: Option<String>,
        mut params: Vec<(String, String)>,
    ) -> Result<AgentSpec, SpecError> {
        let algorithm: Algorithm = algorithm
            .parse()
            .map_err(|e: String| SpecError::at("algorithm", e))?;
        let mut take = |key: &str| {
            params
                .iter()
                .position(|(k, _)| k == key)
                .map(|i| params.remove(i).1)
        };
        let (k, gamma, time_ms) = (take("k"), take("gamma"), take("time_ms"));
        let rounds = match take("rounds") {
            None => Rounds::Decoupled,
            Some(_) if algorithm != Algorithm::Ismcts => {
                return Err(SpecError::at(
                    "rounds",
                    format!(
                        "rounds is a parameter of ismcts (how it searches simultaneous moves), not {algorithm}'s"
                    ),
                ));
            }
            Some(text) => match text.trim() {
                "regret" => Rounds::Regret,
                "decoupled" => Rounds::Decoupled,
                "turns" => Rounds::Turns,
                other => {
                    return Err(SpecError::at(
                        "rounds",
                        format!(
                            "rounds '{other}' must be decoupled (each player blind, by UCT), regret (each player blind, by regret matching) or turns (as moves in turn)"
                        ),
                    ));
                }
            },
        };
        let bound = match take("bound") {
            None if matches!(algorithm, Algorithm::Star1 | Algorithm::Star2) => {
                return Err(SpecError::at(
                    "bound",
                    format!("{algorithm} needs bound=B, the most a heuristic value strays from 0 (wins are then worth B), e.g. {algorithm}(heuristic=race,depth=3,bound=40)"),
                ));
            }
            None => None,
            Some(_)
                if !matches!(
                    algorithm,
                    Algorithm::Maxn | Algorithm::Star1 | Algorithm::Star2
                ) =>
            {
                return Err(SpecError::at(
                    "bound",
                    format!("bound is a parameter of maxn (its shallow pruning), star1 and star2, not {algorithm}'s"),
                ));
            }
            Some(text) => Some(
                text.trim()
                    .parse::<f64>()
                    .ok()
                    .filter(|b| b.is_finite() && *b > 0.0)
                    .ok_or_else(|| {
                        SpecError::at(
                            "bound",
                            format!("bound '{text}' must be a positive number (the most a centred heuristic value may stray from 0)"),
                        )
                    })?,
            ),
        };
        let (nodes, tt_mb, aspiration) =
            search_keys(algorithm, take("nodes"), take("tt_mb"), take("aspiration"))?;
        let mcts_keys = [
            take("iterations"),
            take("c"),
            take("rollout"),
            take("rollout_plies"),
            take("epsilon"),
        ];
        let deepens = algorithm.searches() || algorithm == Algorithm::Beam || algorithm.is_mcts();
        let time_ms = match time_ms {
            None => None,
            Some(_) if !deepens => {
                return Err(SpecError::at("time_ms", format!(
                    "{algorithm} takes no time_ms (only minimax, the alphabeta variants, beam and mcts use a time budget)"
                )));
            }
            Some(text) => Some(
                text.trim()
                    .parse::<i128>()
                    .ok()
                    .filter(|&ms| crate::core::time_limit_ms(ms).is_ok())
                    .map(|ms| ms as u64)
                    .ok_or_else(|| {
                        SpecError::at("time_ms", format!(
                            "time_ms '{text}' must be a whole number of milliseconds from 1 to {}",
                            crate::core::MAX_SECONDS * 1000
                        ))
                    })?,
            ),
        };
        if algorithm != Algorithm::Beam && (k.is_some() || gamma.is_some()) {
            return Err(SpecError::at(
                "k",
                format!("k and gamma are beam's parameters, not {algorithm}'s"),
            ));
        }
        let beam_width = match &k {
            None => DEFAULT_BEAM_WIDTH,
            Some(text) => text
                .trim()
                .parse::<usize>()
                .ok()
                .filter(|k| (1..=100).contains(k))
                .ok_or_else(|| {
                    SpecError::at(
                        "k",
                        format!("k '{text}' must be a whole number from 1 to 100"),
                    )
                })?,
        };
        let gamma = match &gamma {
            None => 1.0,
            Some(text) => text
                .trim()
                .parse::<f64>()
                .ok()
                .filter(|g| *g > 0.0 && *g <= 1.0)
                .ok_or_else(|| {
                    SpecError::at(
                        "gamma",
                        format!("gamma '{text}' must be a number in (0, 1]"),
                    )
                })?,
        };
        let depth = depth_of(algorithm, depth, time_ms.is_some() || nodes.is_some())?;
        let mut mcts = mcts_config(algorithm, &mcts_keys, time_ms.is_some())?;
        mcts.rounds = rounds;
        if algorithm.is_mcts()
            && heuristic.is_none()
            && (mcts.rollout == Rollout::Heuristic || mcts.rollout_plies > 0)
        {
            return Err(SpecError::at(
                "heuristic",
                "mcts with rollout=heuristic or rollout_plies needs a heuristic, e.g. mcts(heuristic=offensive2,rollout_plies=20)",
            ));
        }
        let takes_heuristic = algorithm.uses_heuristic() || algorithm.is_mcts();
        // A searching agent without a heuristic is refused for a game that has no default
        // one (every built-in game), when it meets the game: see `factory`.
        if !takes_heuristic && (heuristic.is_some() || !params.is_empty()) {
            return Err(SpecError::at(
                "heuristic",
                format!("{algorithm} takes no heuristic or parameters"),
            ));
        }
        let mut spec = AgentSpec {
            name: String::new(),
            algorithm,
            depth,
            beam_width,
            gamma,
            time_ms,
            nodes,
            heuristic,
            params,
            mcts,
            tt_mb,
            aspiration,
            bound,
            external: None,
        };
        spec.name = name.unwrap_or_else(|| spec.canonical());
        Ok(spec)
    }

    /// An agent that is another program.
    pub fn external(name: Option<String>, spec: ExternalSpec) -> AgentSpec {
        let mut agent = AgentSpec {
            name: String::new(),
            algorithm: Algorithm::Random,
            depth: 0,
            beam_width: DEFAULT_BEAM_WIDTH,
            gamma: 1.0,
            time_ms: spec.time_ms,
            nodes: None,
            heuristic: None,
            params: Vec::new(),
            mcts: MctsConfig::default(),
            tt_mb: DEFAULT_TT_MB,
            aspiration: 0.0,
            bound: None,
            external: Some(spec),
        };
        agent.name = name.unwrap_or_else(|| agent.canonical());
        agent
    }

    /// The agent in a few words for listings: the inline spec, or for a program its
    /// command line, folder and time per move.
    pub fn describe(&self) -> String {
        match &self.external {
            None => self.canonical(),
            Some(external) => format!(
                "program `{}` in {}{}",
                external.command_line(),
                external.cwd.display(),
                external
                    .time_ms
                    .map_or(String::new(), |ms| format!(", {ms} ms a move"))
            ),
        }
    }

    /// The spec as inline text, e.g. `alphabeta(heuristic=offensive2,depth=4)`.
    pub fn canonical(&self) -> String {
        if let Some(external) = &self.external {
            let json = serde_json::to_string(external).unwrap_or_default();
            return format!("{EXTERNAL_PREFIX}{json}");
        }
        let mut params = Vec::new();
        if let Some(h) = &self.heuristic {
            params.push(("heuristic".to_string(), h.clone()));
        }
        if self.algorithm.searches() || self.algorithm == Algorithm::Beam {
            params.push(("depth".to_string(), self.depth.to_string()));
        }
        if self.algorithm == Algorithm::Beam {
            params.push(("k".to_string(), self.beam_width.to_string()));
            params.push(("gamma".to_string(), self.gamma.to_string()));
        }
        if self.algorithm.is_mcts() {
            let (mcts, default) = (self.mcts, MctsConfig::default());
            if mcts.iterations != 0 {
                params.push(("iterations".to_string(), mcts.iterations.to_string()));
            }
            if mcts.c != default.c {
                params.push(("c".to_string(), mcts.c.to_string()));
            }
            if mcts.rollout != default.rollout {
                params.push(("rollout".to_string(), mcts.rollout.name().to_string()));
            }
            if mcts.rollout_plies != default.rollout_plies {
                params.push(("rollout_plies".to_string(), mcts.rollout_plies.to_string()));
            }
            if mcts.epsilon != default.epsilon {
                params.push(("epsilon".to_string(), mcts.epsilon.to_string()));
            }
            if mcts.rounds != default.rounds {
                params.push(("rounds".to_string(), mcts.rounds.name().to_string()));
            }
        }
        if self.algorithm == Algorithm::AlphaBetaTt && self.tt_mb != DEFAULT_TT_MB {
            params.push(("tt_mb".to_string(), self.tt_mb.to_string()));
        }
        if self.algorithm == Algorithm::AlphaBetaTt && self.aspiration > 0.0 {
            params.push(("aspiration".to_string(), self.aspiration.to_string()));
        }
        if let Some(bound) = self.bound {
            params.push(("bound".to_string(), bound.to_string()));
        }
        if let Some(ms) = self.time_ms {
            params.push(("time_ms".to_string(), ms.to_string()));
        }
        if let Some(nodes) = self.nodes {
            params.push(("nodes".to_string(), nodes.to_string()));
        }
        params.extend(self.params.iter().cloned());
        Spec {
            name: self.algorithm.name().to_string(),
            params,
        }
        .to_string()
    }

    /// Checks the heuristic and its parameters against game `G` and returns a function
    /// that builds a fresh agent from a seed.
    ///
    /// # Errors
    /// An unknown heuristic for this game, or a bad parameter.
    pub fn factory<G: GameEntry>(&self, game: &G) -> Result<AgentFactory<G>, SpecError> {
        if let Some(external) = &self.external {
            // A typo in `command` is found now, not after every game is lost to it.
            // (A Python callable: that it is hosted here, and not asked for a sandbox.)
            external
                .check_program()
                .map_err(|e| SpecError::at("command", e))?;
            let shared = Shared::<G>::new(
                self.name.clone(),
                external.clone(),
                Box::new(|game: &G| game.game_spec().to_string()),
            );
            return Ok(Box::new(move |seed| Box::new(shared.agent(seed))));
        }
        let config = SearchConfig {
            algorithm: self.algorithm,
            depth: self.depth,
            beam_width: self.beam_width,
            gamma: self.gamma,
            time_ms: self.time_ms,
            nodes: self.nodes,
            mcts: self.mcts,
            tt_mb: self.tt_mb,
            aspiration: self.aspiration,
            bound: self.bound,
        };
        let heuristic = match &self.heuristic {
            None if self.algorithm.uses_heuristic() => {
                let Some(name) = G::default_heuristic() else {
                    let algorithm = self.algorithm;
                    // A misspelt key first: `depht=3` is why `depth` seems missing.
                    if let Some((key, known)) = self.params.iter().find_map(|(key, _)| {
                        crate::core::closest(key, crate::evals::ALGORITHM_KEYS)
                            .map(|known| (key, known))
                    }) {
                        return Err(SpecError::at(
                            key.as_str(),
                            format!(
                                "unknown parameter '{key}': did you mean '{known}'? ({algorithm} also needs a heuristic, e.g. {algorithm}(heuristic=offensive2))"
                            ),
                        ));
                    }
                    return Err(SpecError::at(
                        "heuristic",
                        format!(
                            "{algorithm} needs a heuristic, e.g. {algorithm}(heuristic=offensive2)"
                        ),
                    ));
                };
                game.heuristic(name, &self.params)?
            }
            Some(name) => {
                if !G::heuristics().iter().any(|h| h.name == name) {
                    let known: Vec<&str> = G::heuristics().iter().map(|h| h.name).collect();
                    return Err(SpecError::at(
                        "heuristic",
                        format!(
                            "unknown heuristic '{name}' for this game (known: {})",
                            known.join(", ")
                        ),
                    ));
                }
                game.heuristic(name, &self.params)?
            }
            // Random never evaluates; any heuristic of the game will do as a placeholder.
            None => game.heuristic(G::heuristics()[0].name, &[])?,
        };
        // After the heuristic: a heuristic that no game with chance or hidden information
        // has is the telling mistake.
        let players = game.players();
        if players > 2 && !self.algorithm.handles_many() {
            return Err(SpecError::at(
                "algorithm",
                format!(
                    "{} needs a two-player game, and '{}' seats {players}; use maxn, paranoid, brs, mcts, greedy or random",
                    self.algorithm,
                    game.game_spec()
                ),
            ));
        }
        if self.algorithm == Algorithm::Brs && !game.clone().put_to_move(game.to_move()) {
            return Err(SpecError::at(
                "algorithm",
                format!(
                    "brs needs a game that can put any player to move (its opponents reply out of turn), and '{}' cannot; use paranoid or maxn",
                    game.game_spec()
                ),
            ));
        }
        if game.has_hidden() && !self.algorithm.handles_hidden() {
            return Err(SpecError::at(
                "algorithm",
                format!(
                    "{} reads the whole position, and some of it is hidden from a player in '{}'; use ismcts or random",
                    self.algorithm,
                    game.game_spec()
                ),
            ));
        }
        if game.has_chance() && !self.algorithm.handles_chance() {
            return Err(SpecError::at(
                "algorithm",
                format!(
                    "{} needs a game without chance; use expectimax or mcts for '{}'",
                    self.algorithm,
                    game.game_spec()
                ),
            ));
        }
        if self.algorithm == Algorithm::Ismcts && !game.can_determinize() {
            return Err(SpecError::at(
                "algorithm",
                format!(
                    "ismcts needs a game that can draw the positions a player cannot tell apart, and '{}' cannot (its rules program does not answer `sample`)",
                    game.game_spec()
                ),
            ));
        }
        if self.algorithm == Algorithm::Random {
            return Ok(Box::new(|seed| Box::new(RandomAgent::<G>::new(seed))));
        }
        if self.algorithm == Algorithm::Ismcts {
            return Ok(Box::new(move |seed| {
                Box::new(IsmctsAgent::<G, G::Heuristic>::new(
                    config.mcts,
                    config.time_ms,
                    heuristic.clone(),
                    seed,
                ))
            }));
        }
        if self.algorithm == Algorithm::Mcts {
            return Ok(Box::new(move |seed| {
                Box::new(MctsAgent::<G, G::Heuristic>::new(
                    config.mcts,
                    config.time_ms,
                    heuristic.clone(),
                    seed,
                ))
            }));
        }
        Ok(Box::new(move |seed| {
            Box::new(SearchAgent::<G, G::Heuristic>::new(
                config,
                heuristic.clone(),
                seed,
            ))
        }))
    }
}

/// Factories of inline agent specs that must be valid for game `G` (for tests).
///
/// # Panics
/// On a spec that is not valid for `G`.
#[cfg(test)]
pub fn test_factories<G: GameEntry>(start: &G, specs: &[&str]) -> Vec<AgentFactory<G>> {
    specs
        .iter()
        .map(|s| {
            s.parse::<AgentSpec>()
                .and_then(|a| a.factory(start))
                .unwrap_or_else(|e| panic!("{s}: {e}"))
        })
        .collect()
}

impl std::str::FromStr for AgentSpec {
    type Err = SpecError;

    /// Reads an inline spec such as `minimax(heuristic=defensive1,depth=3)`.
    fn from_str(text: &str) -> Result<AgentSpec, SpecError> {
        if let Some(json) = text.trim().strip_prefix(EXTERNAL_PREFIX) {
            let external: ExternalSpec = serde_json::from_str(json)
                .map_err(|e| SpecError::new(format!("external agent '{}': {e}", text.trim())))?;
            return Ok(AgentSpec::external(None, external));
        }
        let mut spec: Spec = text.parse()?;
        let depth = spec.take("depth");
        let heuristic = spec.take("heuristic");
        AgentSpec::from_parts(None, &spec.name, depth, heuristic, spec.params).map_err(|e| {
            SpecError {
                key: e.key,
                message: format!("agent '{}': {}", text.trim(), e.message),
            }
        })
    }
}
