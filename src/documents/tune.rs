//! A tuning run's documents: its parameter and strength tables, its charts (each
//! parameter against the iteration, the Elo of the checkpoints), its report.

use super::charts::{self, Chart, fail, font, style};
use super::page::write_folder_documents;
use super::section::{Figure, Section};
use super::table::Table;
use crate::records::Meta;
use crate::records::loaded::LoadedRun;
use crate::records::tally::Tally;
use crate::records::tune::{IterationRow, Stage, TuneGameRow, TuneValues};
use crate::registry::AgentRegistry;
use crate::registry::InputError;
use crate::registry::tune_experiment::TuneExperiment;
use crate::stats::elo::{EloEstimate, Sprt, SprtDecision, elo_pentanomial, elo_trinomial};
use plotters::coord::Shift;
use plotters::prelude::*;
use std::path::{Path, PathBuf};

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
                    crate::records::elo_text(elo.elo, elo.low, elo.high),
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

    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<(), InputError> {
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

    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<(), InputError> {
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
) -> Result<Vec<PathBuf>, InputError> {
    let folder = &run.folder;
    let experiment = experiment_of(run.meta.as_ref());
    let strengths = strengths(games);
    let mut charts_made = Vec::new();
    if !values.rows.is_empty() {
        let svg = charts::save(
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
        charts_made.push(Figure::new(
            "tune_parameters",
            "Each parameter against the iteration",
            svg,
        ));
    }
    // One opponent per chart: the checkpoints' (the yardstick, or the start like the
    // verification).
    if let Some(first) = strengths.first() {
        let iterations = values.rows.last().map_or(1, |r| r.iteration);
        let against = first.against.clone();
        let svg = charts::save(
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
        charts_made.push(Figure::new(
            "tune_elo",
            "Estimated Elo against the iteration",
            svg,
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
