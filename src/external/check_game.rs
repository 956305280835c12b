//! `arbiter check-game`: what a student's rules program gets wrong, one line each, before a
//! tournament finds out. It speaks to the program directly (nothing cached), so asking the
//! same question twice shows whether the answers are deterministic.

use super::clip;
use super::rules::{RulesSpec, Session, read_status};
use crate::core::{MOVE_SEPARATOR, Player, seeds};
use serde_json::{Value, json};
use std::collections::HashSet;
use std::io::{self, Write};
use std::time::Instant;

/// How many legal moves of a position near the start are each applied; a position with
/// more has a seeded sample of this many applied.
const ALL_MOVES_AT_MOST: usize = 1_000;

/// How thoroughly to check.
#[derive(Clone, Copy, Debug)]
pub struct CheckGameOptions {
    /// Seeded random playouts from the start.
    pub playouts: u64,
    /// A playout longer than this fails the check.
    pub max_plies: u64,
    /// The seed of the playouts.
    pub seed: u64,
}

/// What the check found.
#[derive(Clone, Copy, Debug, Default)]
pub struct GameVerdict {
    /// Steps that failed.
    pub failures: u64,
    /// Steps that passed with a remark.
    pub warnings: u64,
}

struct Report<'a> {
    out: &'a mut dyn Write,
    verdict: GameVerdict,
}

impl Report<'_> {
    fn ok(&mut self, text: &str) -> io::Result<()> {
        writeln!(self.out, "ok    {text}")
    }
    fn fail(&mut self, text: &str) -> io::Result<()> {
        self.verdict.failures += 1;
        writeln!(self.out, "FAIL  {text}")
    }
    fn warn(&mut self, text: &str) -> io::Result<()> {
        self.verdict.warnings += 1;
        writeln!(self.out, "warn  {text}")
    }
}

/// One position's facts, each asked twice.
struct Facts {
    to_move: Player,
    /// Whether chance acts here (its legal moves are chance's outcomes).
    chance: bool,
    over: Option<(Option<Player>, String)>,
    legal: Vec<String>,
}

/// A failure found while walking the game: what to print.
type Found = String;

struct Walker<'a> {
    session: &'a mut Session,
    features: usize,
    evaluate: bool,
    render: bool,
    /// Whether `ready` says some of a position is hidden (`observation` is then asked).
    hidden: bool,
    /// Whether it answers `sample`.
    sample: bool,
    /// Its players (1 to 6).
    players: usize,
}

impl Walker<'_> {
    fn ask(&mut self, message: Value, expected: &str, about: &str) -> Result<Value, Found> {
        let request = message["type"].as_str().unwrap_or("?").to_string();
        self.session
            .ask(&message, expected)
            .map_err(|e| format!("`{request}` {about}: {e}"))
    }

    /// Status and legal moves of `position`, each asked twice and checked against each
    /// other.
    fn facts(&mut self, position: &str) -> Result<Facts, Found> {
        let about = format!("of position '{}'", clip(position));
        let mut seen = Vec::new();
        let mut chance = false;
        let mut round_start = Value::Null;
        for _ in 0..2 {
            let status = self.ask(
                json!({"type": "status", "position": position}),
                "status",
                &about,
            )?;
            let (to_move, over) =
                read_status(&status, self.players).map_err(|e| format!("`status` {about}: {e}"))?;
            chance = status["chance"].as_bool() == Some(true) && over.is_none();
            round_start = status["round_start"].clone();
            let reply = self.ask(
                json!({"type": "legal", "position": position}),
                "legal",
                &about,
            )?;
            let legal: Vec<String> = reply["moves"]
                .as_array()
                .and_then(|m| m.iter().map(|v| v.as_str().map(str::to_string)).collect())
                .ok_or_else(|| {
                    format!(
                        "`legal` {about}: answered {} (no \"moves\" list of strings)",
                        clip(&reply.to_string())
                    )
                })?;
            seen.push((to_move, over, legal));
        }
        let (first, second) = (&seen[0], &seen[1]);
        if first.0 != second.0 || first.1 != second.1 {
            return Err(format!(
                "`status` {about} is not deterministic: asked twice, it answered differently"
            ));
        }
        if first.2 != second.2 {
            return Err(format!(
                "`legal` {about} is not deterministic: asked twice, it gave {} and then {}",
                clip(&first.2.join(",")),
                clip(&second.2.join(","))
            ));
        }
        self.round(position, &round_start)?;
        let (to_move, over, legal) = seen.swap_remove(0);
        let mut distinct = HashSet::new();
        for mv in &legal {
            if mv.trim().is_empty() || mv.trim() != mv {
                return Err(format!(
                    "`legal` {about} gave the move '{mv}': a move is non-empty text without spaces at its ends"
                ));
            }
            if mv.contains(MOVE_SEPARATOR) || mv.contains('\n') {
                return Err(format!(
                    "`legal` {about} gave the move '{}': a move may not contain ';' or a line break (records separate moves with ';')",
                    clip(mv)
                ));
            }
            if !distinct.insert(mv.as_str()) {
                return Err(format!("`legal` {about} gave the move '{mv}' twice"));
            }
        }
        match (&over, legal.is_empty()) {
            (Some(_), false) => Err(format!(
                "`status` and `legal` disagree {about}: the game is over but {} moves are legal",
                legal.len()
            )),
            (None, true) => Err(format!(
                "`status` and `legal` disagree {about}: {to_move} is to move but no move is legal (a side that cannot move needs a move such as \"pass\", or the game is over)"
            )),
            _ => Ok(Facts {
                to_move,
                chance,
                over,
                legal,
            }),
        }
    }

    /// A status's `round_start` (a position inside a round of simultaneous moves names
    /// where the round began): a position string, in a game that hides moves, naming a
    /// position where a player is to move and no round is under way.
    fn round(&mut self, position: &str, start: &Value) -> Result<(), Found> {
        let about = format!("of position '{}'", clip(position));
        let start = match start {
            Value::Null => return Ok(()),
            Value::String(start) => start,
            other => {
                return Err(format!(
                    "`status` {about}: \"round_start\" must be the position string where the round of simultaneous moves began (got {})",
                    clip(&other.to_string())
                ));
            }
        };
        if !self.hidden {
            return Err(format!(
                "`status` {about} names where a round of simultaneous moves began, but `ready` does not say \"hidden\": true (a round's moves are hidden from the players who move after them)"
            ));
        }
        let status = self.ask(
            json!({"type": "status", "position": start}),
            "status",
            &format!("of position '{}' (where the round began)", clip(start)),
        )?;
        if !status["round_start"].is_null()
            || status["over"].as_bool() == Some(true)
            || status["chance"].as_bool() == Some(true)
        {
            return Err(format!(
                "`status` {about}: its round began at '{}', but that position is not one where a round begins (it is over, chance's, or itself inside a round)",
                clip(start)
            ));
        }
        Ok(())
    }

    /// The position after `mv`, asked twice.
    fn apply(&mut self, position: &str, mv: &str) -> Result<String, Found> {
        let about = format!(
            "of legal move '{}' in position '{}'",
            clip(mv),
            clip(position)
        );
        let mut children = Vec::new();
        for _ in 0..2 {
            let reply = self.ask(
                json!({"type": "apply", "position": position, "move": mv}),
                "position",
                &about,
            )?;
            let child = reply["position"].as_str().ok_or_else(|| {
                format!(
                    "`apply` {about}: answered {} (no \"position\" string)",
                    clip(&reply.to_string())
                )
            })?;
            if let Some(status) = reply.get("status") {
                read_status(status, self.players)
                    .map_err(|e| format!("`apply` {about}: its \"status\": {e}"))?;
            }
            children.push(child.to_string());
        }
        if children[0] != children[1] {
            return Err(format!(
                "`apply` {about} is not deterministic: '{}' and then '{}'",
                clip(&children[0]),
                clip(&children[1])
            ));
        }
        Ok(children.swap_remove(0))
    }

    /// `player`'s observation of `position`, asked twice.
    fn observation(&mut self, position: &str, player: Player) -> Result<String, Found> {
        let about = format!("of position '{}' for {player}", clip(position));
        let mut seen = Vec::new();
        for _ in 0..2 {
            let reply = self.ask(
                json!({"type": "observation", "position": position, "player": player.label()}),
                "observation",
                &about,
            )?;
            let text = reply["observation"].as_str().ok_or_else(|| {
                format!(
                    "`observation` {about}: answered {} (no \"observation\" string)",
                    clip(&reply.to_string())
                )
            })?;
            seen.push(text.to_string());
        }
        if seen[0] != seen[1] {
            return Err(format!(
                "`observation` {about} is not deterministic: asked twice, it answered differently"
            ));
        }
        Ok(seen.swap_remove(0))
    }

    /// In a game with hidden information: each player's observation of `position`, and
    /// that of two positions `sample` draws as ones the player cannot tell from it, which
    /// must be the same (else the observation shows something hidden: it leaks).
    fn hidden(&mut self, position: &str, over: bool) -> Result<(), Found> {
        for player in Player::BOTH {
            let seen = self.observation(position, player)?;
            if !self.sample || over {
                continue;
            }
            for seed in [1u64, 2] {
                let about = format!("of position '{}' for {player}", clip(position));
                let reply = self.ask(
                    json!({"type": "sample", "position": position, "player": player.label(), "seed": seed}),
                    "position",
                    &about,
                )?;
                let drawn = reply["position"].as_str().ok_or_else(|| {
                    format!(
                        "`sample` {about}: answered {} (no \"position\" string)",
                        clip(&reply.to_string())
                    )
                })?;
                let theirs = self.observation(drawn, player)?;
                if theirs != seen {
                    return Err(format!(
                        "hidden information leaks: {player} observes '{}' in position '{}' but '{}' in '{}', which `sample` drew as a position {player} cannot tell from it (an observation holds only what its player knows)",
                        clip(&seen),
                        clip(position),
                        clip(&theirs),
                        clip(drawn)
                    ));
                }
            }
        }
        Ok(())
    }

    /// The optional requests the program offers, on `position`.
    fn extras(&mut self, position: &str) -> Result<(), Found> {
        let about = format!("of position '{}'", clip(position));
        if self.features > 0 {
            let reply = self.ask(
                json!({"type": "features", "position": position}),
                "features",
                &about,
            )?;
            for side in ["P1", "P2"] {
                let values = reply[side].as_array();
                let fine = values.is_some_and(|v| {
                    v.len() == self.features
                        && v.iter().all(|x| x.as_f64().is_some_and(f64::is_finite))
                });
                if !fine {
                    return Err(format!(
                        "`features` {about}: \"{side}\" must be a list of {} finite numbers (one per feature in `ready`), got {}",
                        self.features,
                        clip(&reply[side].to_string())
                    ));
                }
            }
        }
        if self.evaluate {
            for player in Player::BOTH {
                let reply = self.ask(
                    json!({"type": "evaluate", "position": position, "player": player.label()}),
                    "value",
                    &about,
                )?;
                if !reply["value"].as_f64().is_some_and(f64::is_finite) {
                    return Err(format!(
                        "`evaluate` {about} for {player}: \"value\" must be a finite number, got {}",
                        clip(&reply["value"].to_string())
                    ));
                }
            }
        }
        if self.render {
            let reply = self.ask(
                json!({"type": "render", "position": position}),
                "render",
                &about,
            )?;
            // A board as rows of cells, or as the text the game prints.
            let text_ok = reply["text"].is_string() && reply.get("rows").is_none();
            let rows_ok = text_ok
                || reply["rows"].as_array().is_some_and(|rows| {
                    !rows.is_empty()
                        && rows.iter().all(|row| {
                            row.as_array().is_some_and(|cells| {
                                cells
                                    .iter()
                                    .all(|c| c.is_string() || c["symbol"].is_string())
                            })
                        })
                });
            if !rows_ok {
                return Err(format!(
                    "`render` {about}: \"rows\" must be a list of rows, each a list of cells (a symbol string, or {{\"symbol\": ...}}), or \"text\" the board as a string"
                ));
            }
        }
        Ok(())
    }
}

/// Random playouts: every position's status and legal moves (twice), every legal move of
/// the positions on the way applied (twice for the one played), the extras; one line of
/// the report, or the first failure.
fn random_playouts(
    walker: &mut Walker<'_>,
    initial: &str,
    options: CheckGameOptions,
    report: &mut Report<'_>,
) -> io::Result<()> {
    let mut rng = seeds::rng(options.seed);
    let (mut positions, mut applied, mut longest) = (0u64, 0u64, 0u64);
    let mut results = std::collections::BTreeMap::<String, u64>::new();
    let mut failed = None;
    'playouts: for playout in 0..options.playouts {
        let mut position = initial.to_string();
        let mut plies = 0u64;
        let mut movers = Vec::new();
        loop {
            let facts = match walker.facts(&position) {
                Ok(facts) => facts,
                Err(why) => {
                    failed = Some(why);
                    break 'playouts;
                }
            };
            positions += 1;
            if let Err(why) = walker.extras(&position) {
                failed = Some(why);
                break 'playouts;
            }
            if walker.hidden
                && let Err(why) = walker.hidden(&position, facts.over.is_some())
            {
                failed = Some(why);
                break 'playouts;
            }
            if let Some((winner, reason)) = &facts.over {
                let result = format!("{} ({reason})", winner.map_or("draw", Player::label));
                *results.entry(result).or_default() += 1;
                break;
            }
            if !facts.chance {
                movers.push(facts.to_move);
            }
            if plies >= options.max_plies {
                failed = Some(format!(
                    "random playout {} did not end within {} plies (--max-plies): does the game always end?",
                    playout + 1,
                    options.max_plies
                ));
                break 'playouts;
            }
            // Every legal move applies: all of them near the start (a seeded sample of
            // ALL_MOVES_AT_MOST in a position with more: a game of 100,000 moves a position
            // took minutes), a sample of 8 later on.
            let (all, most) = if plies < 2 {
                (ALL_MOVES_AT_MOST, ALL_MOVES_AT_MOST)
            } else {
                (8, 8)
            };
            let sample: Vec<&String> = if facts.legal.len() <= all {
                facts.legal.iter().collect()
            } else {
                (0..most)
                    .map(|_| &facts.legal[seeds::below(&mut rng, facts.legal.len())])
                    .collect()
            };
            for mv in sample {
                if let Err(why) = walker.apply(&position, mv) {
                    failed = Some(why);
                    break 'playouts;
                }
                applied += 1;
            }
            let mv = facts.legal[seeds::below(&mut rng, facts.legal.len())].clone();
            position = match walker.apply(&position, &mv) {
                Ok(child) => child,
                Err(why) => {
                    failed = Some(why);
                    break 'playouts;
                }
            };
            plies += 1;
        }
        longest = longest.max(plies);
        if playout == 0 && movers.windows(2).all(|w| w[0] == w[1]) && movers.len() > 1 {
            report.warn("the same side moved at every ply of a playout: does `status` give \"to_move\" for the side to move?")?;
        }
    }
    match failed {
        Some(why) => report.fail(&why)?,
        None => {
            let results: Vec<String> = results.iter().map(|(r, n)| format!("{r} x{n}")).collect();
            report.ok(&format!(
                "{} random playouts (seed {}): {positions} positions, {applied} moves applied, every answer the same when asked twice; longest {longest} plies; results: {}",
                options.playouts,
                options.seed,
                results.join(", ")
            ))?;
        }
    }
    Ok(())
}

/// Checks the rules program `spec` for game `name` with `params`, printing one line per
/// step to `out`.
///
/// # Errors
/// Writing to `out` fails.
pub fn check_game(
    name: &str,
    params: &[(String, String)],
    spec: &RulesSpec,
    options: CheckGameOptions,
    out: &mut dyn Write,
) -> io::Result<GameVerdict> {
    let mut report = Report {
        out,
        verdict: GameVerdict::default(),
    };
    writeln!(
        report.out,
        "checking `{}` (in {}) as game '{name}', game protocol {}",
        spec.command_line(),
        spec.cwd.display(),
        super::rules::GAME_PROTOCOL_VERSION
    )?;
    let clock = Instant::now();
    let (mut session, ready) = match Session::open(spec, name, params) {
        Ok(opened) => opened,
        Err(why) => {
            report.fail(&format!("handshake: {why}"))?;
            return Ok(report.verdict);
        }
    };
    let features = ready["features"].as_array().map_or(0, Vec::len);
    let flag = |key: &str| ready[key].as_bool().unwrap_or(false);
    let offers: Vec<String> = [
        (features > 0).then(|| format!("{features} features")),
        flag("evaluate").then(|| "evaluate".to_string()),
        flag("render").then(|| "render".to_string()),
        flag("view").then(|| "view".to_string()),
        flag("chance").then(|| "chance".to_string()),
        flag("hidden").then(|| "hidden information".to_string()),
        flag("sample").then(|| "sample".to_string()),
    ]
    .into_iter()
    .flatten()
    .collect();
    report.ok(&format!(
        "handshake: `ready` as '{}' in {} ms{}",
        ready["name"].as_str().unwrap_or(name),
        clock.elapsed().as_millis(),
        if offers.is_empty() {
            String::new()
        } else {
            format!(" (offers {})", offers.join(", "))
        }
    ))?;
    let players = match ready.get("players").map(serde_json::Value::as_u64) {
        None => 2,
        Some(Some(n @ 1..=6)) => n as usize,
        Some(_) => {
            report.fail(&format!(
                "handshake: `ready` says players = {}; arbiter plays games of 1 to 6 players",
                ready["players"]
            ))?;
            2
        }
    };
    let mut walker = Walker {
        session: &mut session,
        features,
        evaluate: flag("evaluate"),
        render: flag("render"),
        hidden: flag("hidden"),
        sample: flag("sample"),
        players,
    };
    let initial = (|| -> Result<String, Found> {
        let mut starts = Vec::new();
        for _ in 0..2 {
            let reply = walker.ask(json!({"type": "initial"}), "position", "")?;
            let position = reply["position"]
                .as_str()
                .ok_or("`initial`: no \"position\" string in the reply")?;
            starts.push(position.to_string());
        }
        if starts[0] != starts[1] {
            return Err(
                "`initial` is not deterministic: asked twice, it gave two positions".to_string(),
            );
        }
        Ok(starts.swap_remove(0))
    })();
    let initial = match initial {
        Ok(position) => {
            report.ok(&format!("initial: position '{}'", clip(&position)))?;
            position
        }
        Err(why) => {
            report.fail(&why)?;
            session.stop();
            return Ok(report.verdict);
        }
    };

    random_playouts(&mut walker, &initial, options, &mut report)?;
    // A move that is not legal must be refused.
    match walker.session.ask(
        &json!({"type": "apply", "position": initial, "move": "no-such-move"}),
        "position",
    ) {
        Err(why) if why.contains("failed:") => {
            report.ok("apply of a move that is not legal: refused with an `error` reply")?;
        }
        Err(why) => report.fail(&format!("apply of a move that is not legal: {why}"))?,
        Ok(_) => report.warn(
            "apply of the move 'no-such-move' was answered with a position: a program should refuse a move that is not legal with an `error` reply",
        )?,
    }
    if walker.session.garbage_lines() > 0 {
        report.warn(&format!(
            "{} stdout lines were not JSON objects (skipped): print only replies on stdout",
            walker.session.garbage_lines()
        ))?;
    }
    session.stop();
    Ok(report.verdict)
}
