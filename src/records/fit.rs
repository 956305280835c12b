//! `linear` weights fitted to a run's recorded games (the "Texel" method): every position
//! of every game of games.csv from a given ply on is replayed by the game's rules, its
//! features for the side to move (own and opponent's) are the inputs and the game's result
//! for that side the target of a logistic regression ([`crate::stats::logistic`]). The
//! weights come out in hundredths of a logit per unit of a feature, ready for a `linear`
//! agent spec; fit.csv keeps them.

use super::Meta;
use super::load::csv_rows;
use crate::core::Player;
use crate::registry::InputError;
use crate::registry::{GameEntry, GameSpec, GameTask, dispatch};
use crate::stats::logistic::{Fit, fit};
use serde::Deserialize;
use std::path::{Path, PathBuf};

/// The file the weights are written to.
pub const FIT: &str = "fit.csv";

/// A fit and what it was made from.
#[derive(Clone, Debug)]
pub struct Fitted {
    /// The `linear` parameter names (`own_<feature>`, then `opp_<feature>`).
    pub names: Vec<String>,
    /// The regression.
    pub fit: Fit,
    /// Positions used.
    pub positions: usize,
    /// Games replayed.
    pub games: usize,
}

impl Fitted {
    /// The weights as a `linear` heuristic spec, in hundredths of a logit, rounded to 2
    /// decimals; weights that round to 0 are left out.
    pub fn heuristic(&self) -> String {
        format!("linear({})", self.weights().join(","))
    }

    /// A ready agent spec playing the fitted weights: alpha-beta at depth 3 (change the
    /// algorithm and depth at will).
    pub fn agent(&self) -> String {
        let mut keys = vec!["heuristic=linear".to_string(), "depth=3".to_string()];
        keys.extend(self.weights());
        format!("alphabeta({})", keys.join(","))
    }

    /// `name=weight` for every weight that does not round to 0.
    fn weights(&self) -> Vec<String> {
        self.names
            .iter()
            .zip(&self.fit.weights)
            .map(|(name, w)| (name, (w * 100.0 * 100.0).round() / 100.0))
            .filter(|(_, w)| *w != 0.0)
            .map(|(name, w)| format!("{name}={w}"))
            .collect()
    }
}

#[derive(Deserialize)]
struct Row {
    game_id: u64,
    winner: String,
    moves: String,
}

/// Replays the games and fits.
struct Fitting {
    games: Vec<Row>,
    from_ply: usize,
    iterations: usize,
}

impl GameTask for Fitting {
    type Output = Result<Fitted, InputError>;

    fn run<G: GameEntry>(self, start: G) -> Result<Fitted, InputError> {
        let (mut x, mut y) = (Vec::new(), Vec::new());
        for game in &self.games {
            let winner = match game.winner.as_str() {
                "P1" => Some(Player::P1),
                "P2" => Some(Player::P2),
                _ => None,
            };
            let mut state = start.clone();
            let moves: Vec<&str> = game.moves.split(';').filter(|m| !m.is_empty()).collect();
            for (ply, text) in moves.iter().enumerate() {
                if ply >= self.from_ply && state.outcome().is_none() {
                    let side = state.to_move();
                    let mut row = state.features_of(side);
                    row.extend(state.features_of(side.opponent()));
                    x.push(row);
                    y.push(match winner {
                        Some(w) if w == side => 1.0,
                        Some(_) => 0.0,
                        None => 0.5,
                    });
                }
                let mv = state.parse_move(text).map_err(|e| {
                    InputError::new(format!("game {}: ply {}: {e}", game.game_id, ply + 1))
                })?;
                state.apply(mv);
            }
        }
        let names: Vec<String> = ["own", "opp"]
            .iter()
            .flat_map(|side| {
                start
                    .feature_names()
                    .into_iter()
                    .map(move |f| format!("{side}_{f}"))
            })
            .collect();
        let positions = x.len();
        Ok(Fitted {
            names,
            // A light penalty keeps features that always move together (pieces and
            // pieces taken) from trading weight without end.
            fit: fit(&x, &y, self.iterations, 1e-3),
            positions,
            games: self.games.len(),
        })
    }
}

/// Fits `linear` weights to the games of the run in `folder`, positions from ply
/// `from_ply` on, with `iterations` gradient steps.
///
/// # Errors
/// Not a game run, unreadable files, a move that does not replay, or no positions.
pub fn fit_run(folder: &Path, from_ply: usize, iterations: usize) -> Result<Fitted, InputError> {
    let games_csv = folder.join("games.csv");
    if !games_csv.is_file() {
        return Err(InputError::in_file(
            folder,
            None,
            "no games.csv: fit reads the games of a game run".to_string(),
        ));
    }
    let meta = Meta::read(folder)?;
    let game: GameSpec = meta
        .game
        .parse()
        .map_err(|e: crate::registry::spec::SpecError| {
            InputError::in_file(folder.join("meta.json"), None, format!("game: {e}"))
        })?;
    let games: Vec<Row> = csv_rows(&games_csv)?;
    let fitted = dispatch(
        game,
        Fitting {
            games,
            from_ply,
            iterations,
        },
    )
    .map_err(|e| InputError::in_file(&games_csv, None, e.to_string()))?;
    if fitted.positions == 0 {
        return Err(InputError::in_file(
            &games_csv,
            None,
            format!("no positions from ply {from_ply} on (the games are shorter)"),
        ));
    }
    Ok(fitted)
}

/// Writes fit.csv (parameter, weight in hundredths of a logit) into `folder`.
///
/// # Errors
/// The file cannot be written.
pub fn write_fit(folder: &Path, fitted: &Fitted) -> Result<PathBuf, InputError> {
    let path = folder.join(FIT);
    let fail = |e: &dyn std::fmt::Display| InputError::in_file(&path, None, e.to_string());
    let mut writer = csv::Writer::from_path(&path).map_err(|e| fail(&e))?;
    writer
        .write_record(["parameter", "weight"])
        .map_err(|e| fail(&e))?;
    for (name, w) in fitted.names.iter().zip(&fitted.fit.weights) {
        writer
            .write_record([name.clone(), format!("{:.4}", w * 100.0)])
            .map_err(|e| fail(&e))?;
    }
    writer.flush().map_err(|e| fail(&e))?;
    Ok(path)
}
