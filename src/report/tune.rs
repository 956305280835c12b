//! Tuning runs' records: tune_games.csv (one row per game, written in plan order),
//! tune.csv (the parameters' values at the start of each iteration and what the iteration
//! measured), the tables of the tuned values and of their strength against the start
//! (checkpoints and the verification match with its SPRT), the charts and the report.
//! Everything can be recomputed from the two CSV files and meta.json.

use super::charts::{self, Chart, fail, font, style};
use super::loaded::LoadedRun;
use super::page::write_folder_documents;
use super::section::Section;
use super::table::Table;
use super::tally::Tally;
use super::{JobRecord, Meta, Reporter, RunOutcome};
use crate::registry::AgentRegistry;
use crate::registry::tune_experiment::TuneExperiment;
use crate::stats::elo::{EloEstimate, Sprt, SprtDecision, elo_pentanomial, elo_trinomial};
use crate::tournament::GameRecord;
use plotters::coord::Shift;
use plotters::prelude::*;
use serde::{Deserialize, Serialize};
use std::fs::File;
use std::io::{self, BufWriter};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// The file of a tuning run's games.
pub const TUNE_GAMES: &str = "tune_games.csv";
/// The file of a tuning run's parameter values per iteration.
pub const TUNE: &str = "tune.csv";

/// What a game of a tuning run is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Stage {
    /// An SPSA iteration: the plus version against the minus version (or an opponent).
    Iteration,
    /// The values at an iteration against the starting values.
    Checkpoint,
    /// The tuned values against the starting values, under the SPRT.
    Verify,
}

/// A finished game of a tuning run (the journal's record).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct TuneRecord {
    /// What the game is for.
    pub stage: Stage,
    /// The iteration whose values played (for the verification: the iteration count).
    pub iteration: u64,
    /// The first agent: `plus`, `minus` or `tuned`.
    pub first: String,
    /// The second agent: `minus`, `start`, `current` (the values at the iteration) or an
    /// opponent's name.
    pub second: String,
    /// The game (without per-move records).
    pub game: GameRecord,
}

impl TuneRecord {
    /// The first agent's score in half points: 2 win, 1 draw, 0 loss.
    pub fn halves(&self) -> u8 {
        let seat = if self.game.job.first_is_p1 {
            crate::core::Player::P1
        } else {
            crate::core::Player::P2
        };
        match self.game.winner {
            None => 1,
            Some(winner) if winner == seat => 2,
            Some(_) => 0,
        }
    }
}

impl JobRecord for TuneRecord {
    fn id(&self) -> u64 {
        self.game.job.id
    }
}

/// One row of tune_games.csv.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct TuneGameRow {
    /// The game's place in the plan.
    pub id: u64,
    /// iteration, checkpoint or verify.
    pub stage: Stage,
    /// The iteration whose values played.
    pub iteration: u64,
    /// The pair (shared seed and opening) within its stage.
    pub pair: u64,
    /// The first agent.
    pub first: String,
    /// The second agent.
    pub second: String,
    /// Whether the first agent played P1.
    pub first_is_p1: bool,
    /// The game's seed.
    pub seed: u64,
    /// The first agent's score: 1, 0.5 or 0.
    pub score: f64,
    /// Why the game ended.
    pub reason: String,
    /// Plies played.
    pub plies: u32,
    /// The opening's moves.
    pub opening: String,
}

/// The values at the start of one iteration and what it measured (a row of tune.csv).
#[derive(Clone, Debug, PartialEq)]
pub struct IterationRow {
    /// The iteration (the last row, numbered the iteration count, holds the final values).
    pub iteration: u64,
    /// The parameters' values at its start.
    pub values: Vec<f64>,
    /// Games it played (0 for the final row).
    pub games: u64,
    /// The plus version's wins minus losses (`None` until it is complete, and for the
    /// final row).
    pub result: Option<f64>,
}

/// The rows of tune.csv as the run computes them, shared by the run (which appends them)
/// and its recorder (which writes the complete ones).
pub type History = Mutex<Vec<IterationRow>>;

/// Writes tune_games.csv as games finish and tune.csv as iterations complete.
pub struct TuneCsv<'a> {
    games: csv::Writer<BufWriter<File>>,
    values: csv::Writer<BufWriter<File>>,
    staged: [super::staged::Staged; 2],
    history: &'a History,
    iterations: u64,
    written: usize,
}

impl<'a> TuneCsv<'a> {
    /// Creates both files (headers included) in `folder`; `names`: the parameters.
    ///
    /// # Errors
    /// A file that cannot be created.
    pub fn create(
        folder: &Path,
        names: &[String],
        history: &'a History,
        iterations: u64,
    ) -> io::Result<TuneCsv<'a>> {
        let (games_file, games_place) = super::staged::create(folder, TUNE_GAMES)?;
        let (values_file, values_place) = super::staged::create(folder, TUNE)?;
        let games = csv::Writer::from_writer(BufWriter::new(games_file));
        let mut values = csv::WriterBuilder::new()
            .has_headers(false)
            .from_writer(BufWriter::new(values_file));
        let header = ["iteration", "games", "result"]
            .iter()
            .map(|h| h.to_string())
            .chain(names.iter().cloned());
        values.write_record(header).map_err(io::Error::other)?;
        Ok(TuneCsv {
            games,
            values,
            staged: [games_place, values_place],
            history,
            iterations,
            written: 0,
        })
    }

    /// Writes the rows of tune.csv that are complete and not yet written.
    fn write_values(&mut self) -> io::Result<()> {
        let rows = self.history.lock().unwrap_or_else(|e| e.into_inner());
        while let Some(row) = rows.get(self.written) {
            if row.result.is_none() && row.iteration < self.iterations {
                break;
            }
            let mut cells = vec![
                row.iteration.to_string(),
                row.games.to_string(),
                row.result.map_or(String::new(), |r| r.to_string()),
            ];
            cells.extend(row.values.iter().map(|v| format!("{:.4}", v)));
            self.values.write_record(&cells).map_err(io::Error::other)?;
            self.written += 1;
        }
        Ok(())
    }
}

impl Reporter<TuneRecord> for TuneCsv<'_> {
    fn finished(&mut self, record: &TuneRecord) -> io::Result<()> {
        let game = &record.game;
        self.games
            .serialize(TuneGameRow {
                id: game.job.id,
                stage: record.stage,
                iteration: record.iteration,
                pair: game.job.pair,
                first: record.first.clone(),
                second: record.second.clone(),
                first_is_p1: game.job.first_is_p1,
                seed: game.job.seed,
                score: f64::from(record.halves()) / 2.0,
                reason: game.reason.to_string(),
                plies: game.plies,
                opening: game.opening.clone(),
            })
            .map_err(io::Error::other)?;
        self.write_values()
    }

    fn ended(&mut self, _outcome: &RunOutcome) -> io::Result<()> {
        self.write_values()?;
        self.games.flush()?;
        self.values.flush()?;
        self.staged
            .iter_mut()
            .try_for_each(super::staged::Staged::commit)
    }

    fn standings(&self) -> Vec<String> {
        let rows = self.history.lock().unwrap_or_else(|e| e.into_inner());
        rows.last()
            .map(|row| {
                vec![format!(
                    "iteration {} of {}: {}",
                    row.iteration,
                    self.iterations,
                    row.values
                        .iter()
                        .map(|v| format!("{v:.2}"))
                        .collect::<Vec<_>>()
                        .join(" ")
                )]
            })
            .unwrap_or_default()
    }
}

/// tune.csv read back: parameter names and rows.
pub struct TuneValues {
    /// The parameters' names.
    pub names: Vec<String>,
    /// The rows, in iteration order.
    pub rows: Vec<IterationRow>,
}

/// Reads tune.csv.
///
/// # Errors
/// A missing or malformed file, naming it and the line.
pub fn read_values(folder: &Path) -> Result<TuneValues, String> {
    let path = folder.join(TUNE);
    let mut reader = csv::Reader::from_path(&path)
        .map_err(|e| format!("{}: cannot read: {e}", path.display()))?;
    let headers = reader
        .headers()
        .map_err(|e| format!("{}: {e}", path.display()))?
        .clone();
    let names: Vec<String> = headers.iter().skip(3).map(str::to_string).collect();
    let mut rows = Vec::new();
    for (index, record) in reader.records().enumerate() {
        let line = index + 2;
        let bad = |what: &str| format!("{}: line {line}: {what}", path.display());
        let record = record.map_err(|e| bad(&e.to_string()))?;
        let number = |i: usize| -> Result<f64, String> {
            record
                .get(i)
                .unwrap_or("")
                .parse::<f64>()
                .map_err(|_| bad(&format!("column {} is not a number", i + 1)))
        };
        if record.len() != names.len() + 3 {
            return Err(bad(&format!(
                "{} cells, the header has {}",
                record.len(),
                names.len() + 3
            )));
        }
        rows.push(IterationRow {
            iteration: number(0)? as u64,
            games: number(1)? as u64,
            result: match record.get(2) {
                Some("") | None => None,
                Some(_) => Some(number(2)?),
            },
            values: (3..record.len()).map(number).collect::<Result<_, _>>()?,
        });
    }
    Ok(TuneValues { names, rows })
}

/// One match of the values at an iteration against the start.
struct Strength {
    stage: Stage,
    iteration: u64,
    /// Who the values played: `start` or the yardstick.
    against: String,
    tally: Tally,
}

impl Strength {
    fn elo(&self) -> EloEstimate {
        if self.tally.pair_count() > 0 {
            elo_pentanomial(&self.tally.pairs)
        } else {
            elo_trinomial(self.tally.wins, self.tally.draws, self.tally.losses)
        }
    }
}

/// The checkpoint matches and the verification match, from tune_games.csv.
fn strengths(games: &[TuneGameRow]) -> Vec<Strength> {
    let mut out: Vec<Strength> = Vec::new();
    for row in games.iter().filter(|r| r.stage != Stage::Iteration) {
        let same = out.last().is_some_and(|s| {
            s.stage == row.stage && s.iteration == row.iteration && s.against == row.second
        });
        if !same {
            out.push(Strength {
                stage: row.stage,
                iteration: row.iteration,
                against: row.second.clone(),
                tally: Tally::default(),
            });
        }
        if let Some(last) = out.last_mut() {
            last.tally
                .add_result(row.seed, row.first_is_p1, (row.score * 2.0).round() as u8);
        }
    }
    out
}

/// The experiment a run's meta.json keeps, with the agents it recorded (`None` if it no
/// longer parses: the tables then leave out what only the file says).
fn experiment_of(meta: Option<&Meta>) -> Option<TuneExperiment> {
    let meta = meta?;
    let path = Path::new(&meta.experiment_file);
    let agents = AgentRegistry::recorded(&meta.agents, path).ok()?;
    TuneExperiment::parse(path, meta.experiment_source.clone(), &agents).ok()
}

/// The parameters: start, tuned (the last row), range and step.
fn parameter_table(values: &TuneValues, experiment: Option<&TuneExperiment>) -> Table {
    let first = values.rows.first();
    let last = values.rows.last();
    Table {
        headers: ["parameter", "start", "tuned", "min", "max", "step"]
            .iter()
            .map(|h| h.to_string())
            .collect(),
        rows: values
            .names
            .iter()
            .enumerate()
            .map(|(i, name)| {
                let param =
                    experiment.and_then(|e| e.spsa.parameters.iter().find(|p| p.name == *name));
                let cell = |row: Option<&IterationRow>| {
                    row.and_then(|r| r.values.get(i))
                        .map_or(String::new(), |v| format!("{v:.2}"))
                };
                let bound = |f: fn(&crate::stats::spsa::Parameter) -> f64| {
                    param.map_or(String::new(), |p| format!("{}", f(p)))
                };
                vec![
                    name.clone(),
                    cell(first),
                    cell(last),
                    bound(|p| p.min),
                    bound(|p| p.max),
                    bound(|p| p.step),
                ]
            })
            .collect(),
    }
}

/// The strength of the values against the start at each checkpoint and at the end, with
/// the verification's SPRT.
fn strength_table(strengths: &[Strength], sprt: Option<&Sprt>) -> Table {
    Table {
        headers: [
            "match",
            "iteration",
            "against",
            "games",
            "wins-draws-losses",
            "Elo (95%)",
            "SPRT",
        ]
        .iter()
        .map(|h| h.to_string())
        .collect(),
        rows: strengths
            .iter()
            .map(|s| {
                let elo = s.elo();
                let t = &s.tally;
                let verdict = match (s.stage, sprt) {
                    (Stage::Verify, Some(sprt)) => {
                        let llr = t.llr(sprt);
                        let decision = match sprt.decide(llr) {
                            SprtDecision::Continue => "no decision".to_string(),
                            other => other.label().to_string(),
                        };
                        let (low, high) = sprt.bounds();
                        format!(
                            "{decision} (LLR {llr:.2} in [{low:.2}, {high:.2}], elo0 {} elo1 {})",
                            sprt.elo0, sprt.elo1
                        )
                    }
                    _ => String::new(),
                };
                vec![
                    match s.stage {
                        Stage::Verify => "verification",
                        _ => "checkpoint",
                    }
                    .to_string(),
                    s.iteration.to_string(),
                    s.against.clone(),
                    t.games().to_string(),
                    format!("{}-{}-{}", t.wins, t.draws, t.losses),
                    super::summary::elo_text(elo.elo, elo.low, elo.high),
                    verdict,
                ]
            })
            .collect(),
    }
}

/// The tables `show` prints for a tuning run.
///
/// # Errors
/// A file that cannot be read, named in the message.
pub fn tables(run: &LoadedRun, values: &TuneValues, games: &[TuneGameRow]) -> String {
    let experiment = experiment_of(run.meta.as_ref());
    let sprt = experiment.as_ref().map(|e| e.verify.0);
    format!(
        "parameters:\n{}\nstrength (checkpoints and the verification):\n{}",
        parameter_table(values, experiment.as_ref()).aligned(),
        strength_table(&strengths(games), sprt.as_ref()).aligned()
    )
}

/// Each parameter's value against the iteration, one panel per parameter.
pub struct ParameterTraces {
    /// The parameters' names.
    pub names: Vec<String>,
    /// Per iteration: its number and the values.
    pub rows: Vec<(f64, Vec<f64>)>,
}

/// Panels per row of [`ParameterTraces`].
const PANELS_PER_ROW: usize = 3;

impl Chart for ParameterTraces {
    fn size(&self) -> (u32, u32) {
        let rows = self.names.len().div_ceil(PANELS_PER_ROW).max(1) as u32;
        (style::WIDTH + 60, 50 + 260 * rows)
    }

    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<(), String> {
        let (title, body) = root.split_vertically(50);
        title
            .draw(&Text::new(
                "Tuned parameters against the SPSA iteration".to_string(),
                (15, 15),
                font(style::TITLE),
            ))
            .map_err(fail)?;
        let rows = self.names.len().div_ceil(PANELS_PER_ROW).max(1);
        let columns = self.names.len().clamp(1, PANELS_PER_ROW);
        let panels = body.split_evenly((rows, columns));
        let last = self.rows.last().map_or(1.0, |r| r.0).max(1.0);
        for (index, (name, panel)) in self.names.iter().zip(&panels).enumerate() {
            let points: Vec<(f64, f64)> = self
                .rows
                .iter()
                .filter_map(|(x, values)| values.get(index).map(|&v| (*x, v)))
                .collect();
            let (low, high) = points.iter().fold((f64::MAX, f64::MIN), |(lo, hi), p| {
                (lo.min(p.1), hi.max(p.1))
            });
            let pad = ((high - low) * 0.1).max(0.5);
            let mut chart = ChartBuilder::on(panel)
                .caption(name, font(style::LABEL))
                .margin(10)
                .x_label_area_size(40)
                .y_label_area_size(55)
                .build_cartesian_2d(0f64..last, (low - pad)..(high + pad))
                .map_err(fail)?;
            chart
                .configure_mesh()
                .x_labels(5)
                .y_labels(6)
                .x_desc("iteration")
                .x_label_formatter(&|x| format!("{x:.0}"))
                .y_label_formatter(&|y| format!("{y:.1}"))
                .label_style(font(style::SMALL))
                .axis_desc_style(font(style::SMALL))
                .light_line_style(WHITE)
                .draw()
                .map_err(fail)?;
            chart
                .draw_series(LineSeries::new(
                    points,
                    style::colour(index).stroke_width(2),
                ))
                .map_err(fail)?;
        }
        Ok(())
    }
}

/// The Elo of the values at each checkpoint (and at the end) against one opponent, with
/// 95% intervals.
pub struct EloTrace {
    /// Who the values played (`the starting values` or the yardstick).
    pub against: String,
    /// (iteration, estimate) per match.
    pub points: Vec<(f64, EloEstimate)>,
    /// The last iteration (the axis's end).
    pub iterations: f64,
}

impl Chart for EloTrace {
    fn size(&self) -> (u32, u32) {
        (style::WIDTH, 480)
    }

    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<(), String> {
        // Unbounded values (every game won or lost) are drawn in a band beyond the
        // finite ones, labelled; unbounded interval ends reach the axis's edge.
        let finite = |v: f64| v.is_finite().then_some(v);
        let values: Vec<f64> = self
            .points
            .iter()
            .flat_map(|(_, e)| [finite(e.elo), finite(e.low), finite(e.high)])
            .flatten()
            .chain([0.0])
            .collect();
        let low = values.iter().copied().fold(f64::MAX, f64::min);
        let high = values.iter().copied().fold(f64::MIN, f64::max);
        let pad = ((high - low) * 0.1).max(10.0);
        let lost = self.points.iter().any(|(_, e)| e.elo == f64::NEG_INFINITY);
        let won = self.points.iter().any(|(_, e)| e.elo == f64::INFINITY);
        let bottom = low - pad * if lost { 3.0 } else { 1.0 };
        let top = high + pad * if won { 3.0 } else { 1.0 };
        let (all_lost, all_won) = (low - 2.0 * pad, high + 2.0 * pad);
        let mut chart = ChartBuilder::on(root)
            .caption(
                format!("Strength of the tuned values against {}", self.against),
                font(style::TITLE),
            )
            .margin(15)
            .x_label_area_size(45)
            .y_label_area_size(70)
            .build_cartesian_2d(0f64..self.iterations.max(1.0), bottom..top)
            .map_err(fail)?;
        chart
            .configure_mesh()
            .x_desc("SPSA iteration")
            .y_desc("Elo (bar: 95% interval)")
            .x_label_formatter(&|x| format!("{x:.0}"))
            // No numbers in the bands of unbounded values.
            .y_label_formatter(&|y| {
                // (Only where there is such a band: elsewhere the margin's ticks are
                // ordinary values and keep their numbers.)
                if (lost && *y < low - pad / 2.0) || (won && *y > high + pad / 2.0) {
                    String::new()
                } else {
                    format!("{y:+.0}")
                }
            })
            .label_style(font(style::LABEL))
            .axis_desc_style(font(style::LABEL))
            .light_line_style(WHITE)
            .draw()
            .map_err(fail)?;
        chart
            .draw_series(std::iter::once(PathElement::new(
                vec![(0.0, 0.0), (self.iterations.max(1.0), 0.0)],
                style::GREY.stroke_width(1),
            )))
            .map_err(fail)?;
        let clamp = |v: f64| {
            if v == f64::NEG_INFINITY && lost {
                all_lost
            } else if v == f64::INFINITY && won {
                all_won
            } else {
                v.clamp(bottom, top)
            }
        };
        let colour = style::colour(0);
        // The bands are shaded (they are not a series): from past the finite values to the
        // axis's edge, with what they mean written inside.
        for (band, from, to, y, text) in [
            (
                lost,
                bottom,
                low - pad / 2.0,
                all_lost,
                "every game lost (Elo -inf)",
            ),
            (
                won,
                high + pad / 2.0,
                top,
                all_won,
                "every game won (Elo +inf)",
            ),
        ] {
            if band {
                chart
                    .draw_series(std::iter::once(Rectangle::new(
                        [(0.0, from), (self.iterations.max(1.0), to)],
                        style::GREY.mix(0.15).filled(),
                    )))
                    .map_err(fail)?;
                let (x, y) = chart.backend_coord(&(self.iterations.max(1.0), y));
                root.draw(&Text::new(text, (x - 190, y - 18), font(style::SMALL)))
                    .map_err(fail)?;
            }
        }
        chart
            .draw_series(LineSeries::new(
                self.points.iter().map(|(x, e)| (*x, clamp(e.elo))),
                colour.stroke_width(2),
            ))
            .map_err(fail)?;
        for (x, e) in &self.points {
            chart
                .draw_series(std::iter::once(PathElement::new(
                    vec![(*x, clamp(e.low)), (*x, clamp(e.high))],
                    colour.stroke_width(1),
                )))
                .map_err(fail)?;
            chart
                .draw_series(std::iter::once(Circle::new(
                    (*x, clamp(e.elo)),
                    4,
                    colour.filled(),
                )))
                .map_err(fail)?;
        }
        Ok(())
    }
}

/// Whom the nudged versions played in the iterations, as the report says it.
fn opponents_text(experiment: Option<&TuneExperiment>) -> String {
    let Some(experiment) = experiment.filter(|e| e.iteration_opponents() > 0) else {
        return "against each other".to_string();
    };
    let mut names: Vec<String> = experiment
        .opponent_texts
        .iter()
        .map(|text| format!("`{text}`"))
        .collect();
    if experiment.against_current {
        names.push("`current` (the values at the iteration's start)".to_string());
    }
    format!("each against {}", names.join(" and "))
}

/// Charts, report.md and index.html of a tuning run, from its files.
///
/// # Errors
/// A file that cannot be read, drawn or written.
pub fn write_tune_report(
    run: &LoadedRun,
    values: &TuneValues,
    games: &[TuneGameRow],
) -> Result<Vec<PathBuf>, String> {
    let folder = &run.folder;
    let experiment = experiment_of(run.meta.as_ref());
    let strengths = strengths(games);
    let mut charts_made = Vec::new();
    if !values.rows.is_empty() {
        charts::save(
            &ParameterTraces {
                names: values.names.clone(),
                rows: values
                    .rows
                    .iter()
                    .map(|r| (r.iteration as f64, r.values.clone()))
                    .collect(),
            },
            folder,
            "tune_parameters",
        )?;
        charts_made.push((
            "tune_parameters".to_string(),
            "Each parameter against the iteration".to_string(),
        ));
    }
    // One opponent per chart: the checkpoints' (the yardstick, or the start like the
    // verification).
    if let Some(first) = strengths.first() {
        let iterations = values.rows.last().map_or(1, |r| r.iteration);
        let against = first.against.clone();
        charts::save(
            &EloTrace {
                against: if against == "start" {
                    "the starting values".to_string()
                } else {
                    against.clone()
                },
                points: strengths
                    .iter()
                    .filter(|s| s.against == against)
                    .map(|s| (s.iteration as f64, s.elo()))
                    .collect(),
                iterations: iterations as f64,
            },
            folder,
            "tune_elo",
        )?;
        charts_made.push((
            "tune_elo".to_string(),
            "Estimated Elo against the iteration".to_string(),
        ));
    }
    let sections = vec![
        Section {
            title: "Tuned parameters".to_string(),
            text: vec![
                format!(
                    "SPSA moved every parameter at once: each iteration played a version with every parameter nudged by +c and one with every parameter nudged by -c, {}, in colour-swapped pairs, and stepped each parameter along the result. `tune.csv` holds the values at the start of every iteration; `tune_games.csv` every game.",
                    opponents_text(experiment.as_ref())
                ),
            ],
            tables: vec![parameter_table(values, experiment.as_ref())],
            charts: Vec::new(),
            after: Vec::new(),
        },
        Section {
            title: "Strength: checkpoints and verification".to_string(),
            text: vec![
                "Checkpoints play the values reached at an iteration against the starting values, or against the experiment's yardstick (then also at the start and the end); the verification plays the final values against the starting values until its SPRT decides (or its most games). Elo from colour-swapped pairs (pentanomial); an interval reaching infinity means every game was won (or lost).".to_string(),
            ],
            tables: vec![strength_table(
                &strengths,
                experiment.as_ref().map(|e| &e.verify.0),
            )],
            charts: charts_made,
            after: Vec::new(),
        },
    ];
    write_folder_documents(run, "tuning", &sections)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(stage: Stage, iteration: u64, seed: u64, first_is_p1: bool, score: f64) -> TuneGameRow {
        TuneGameRow {
            id: 0,
            stage,
            iteration,
            pair: 0,
            first: "tuned".to_string(),
            second: "start".to_string(),
            first_is_p1,
            seed,
            score,
            reason: "goal".to_string(),
            plies: 10,
            opening: String::new(),
        }
    }

    #[test]
    fn matches_against_the_start_are_tallied_in_pairs() {
        let games = vec![
            row(Stage::Iteration, 0, 1, true, 1.0),
            row(Stage::Checkpoint, 5, 7, true, 1.0),
            row(Stage::Checkpoint, 5, 7, false, 0.5),
            row(Stage::Verify, 10, 9, true, 1.0),
            row(Stage::Verify, 10, 9, false, 1.0),
            row(Stage::Verify, 10, 11, true, 0.0),
        ];
        let s = strengths(&games);
        assert_eq!(s.len(), 2);
        assert_eq!((s[0].iteration, s[0].tally.pairs), (5, [0, 0, 0, 1, 0]));
        assert_eq!((s[1].tally.wins, s[1].tally.losses), (2, 1));
        assert_eq!(s[1].tally.pairs, [0, 0, 0, 0, 1]);
    }
}
