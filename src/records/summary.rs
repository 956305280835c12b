//! Per matchup and agent totals: summary.csv, nodes_by_depth.csv and `show`'s tables.

use super::tally::Tally;
use super::{RunContext, millis};
use crate::core::{Player, SearchStats};
use crate::registry::InputError;
use crate::stats::elo::{elo_pentanomial, elo_trinomial, likelihood_of_superiority};
use crate::stats::{Moments, Z95, ratio, wilson_interval};
use crate::tournament::GameRecord;
use serde::{Deserialize, Serialize};
use std::path::Path;

#[derive(Clone, Debug, Default)]
struct Totals {
    games: u64,
    wins: u64,
    losses: u64,
    draws: u64,
    games_as_p1: u64,
    wins_as_p1: u64,
    draws_as_p1: u64,
    moves: u64,
    /// The agent's search counts, added up (`peak_bytes`: the largest).
    stats: SearchStats,
    nanos: u64,
    captures: u64,
    plies: u64,
    /// Games won, lost and drawn, by how they ended ([`ENDINGS`]).
    by_ending: [[u64; ENDINGS.len()]; 3],
    /// Its returns, in the games that have them.
    returns: Moments,
}

/// How a game can end, as results are counted by: the game's own rules (`goal`), an
/// adjudication rule, the ply cap, and each way an agent can fail (a time limit or flag,
/// a program that stalled, crashed, answered an illegal move or something else, never
/// started, or ran into a sandbox limit).
pub const ENDINGS: [&str; 10] = [
    "goal",
    "adjudicated",
    "ply_cap",
    "timeout",
    "stall",
    "crash",
    "illegal_move",
    "bad_output",
    "startup_failure",
    "sandbox",
];

/// The ending (an index into [`ENDINGS`]) a game's reason counts under.
pub fn ending_of(reason: &str) -> usize {
    let name = match reason {
        crate::tournament::PLY_CAP_REASON => "ply_cap",
        "memory" | "processes" | "cpu_time" | "output" => "sandbox",
        r if r.starts_with("adjudicated") => "adjudicated",
        r => r,
    };
    ENDINGS.iter().position(|&e| e == name).unwrap_or(0)
}

/// Counts by ending as `goal=30;timeout=2` (endings with no game left out).
pub fn endings_text(counts: &[u64; ENDINGS.len()]) -> String {
    ENDINGS
        .iter()
        .zip(counts)
        .filter(|(_, n)| **n > 0)
        .map(|(e, n)| format!("{e}={n}"))
        .collect::<Vec<_>>()
        .join(";")
}

/// Accumulates finished games into per (matchup, listed agent) totals.
#[derive(Clone, Debug)]
pub struct Summary {
    context: RunContext,
    totals: Vec<[Totals; 2]>,
    tallies: Vec<Tally>,
}

/// One row of summary.csv: one agent of one matchup.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct SummaryRow {
    /// Matchup index.
    pub matchup: usize,
    /// The agent.
    pub agent: String,
    /// Its opponent.
    pub opponent: String,
    /// Games played.
    pub games: u64,
    /// Games won.
    pub wins: u64,
    /// Games lost.
    pub losses: u64,
    /// Games drawn.
    pub draws: u64,
    /// wins / games.
    pub win_rate: f64,
    /// Lower end of the 95% Wilson interval of the win rate.
    pub win_rate_low95: f64,
    /// Upper end of the 95% Wilson interval of the win rate.
    pub win_rate_high95: f64,
    /// Games it played as P1.
    pub games_as_p1: u64,
    /// Games it won as P1.
    pub wins_as_p1: u64,
    /// Games it drew as P1.
    pub draws_as_p1: u64,
    /// Points per game: (wins + draws / 2) / games.
    pub score: f64,
    /// Elo difference from the score (logistic model).
    pub elo: f64,
    /// Lower end of the Elo's 95% interval (per-game normal approximation).
    pub elo_low95: f64,
    /// Upper end of the Elo's 95% interval.
    pub elo_high95: f64,
    /// Likelihood of superiority.
    pub los: f64,
    /// Colour-swapped pairs by its pair score 0, 1/4, 1/2, 3/4, 1 (`;`-separated).
    pub pairs: String,
    /// The same counts, one column each (tidy for data frames): pairs scoring 0.
    #[serde(rename = "pairs_score_0", default)]
    pub pairs_score_0: u64,
    /// Pairs scoring 1/4.
    #[serde(rename = "pairs_score_0.25", default)]
    pub pairs_score_quarter: u64,
    /// Pairs scoring 1/2.
    #[serde(rename = "pairs_score_0.5", default)]
    pub pairs_score_half: u64,
    /// Pairs scoring 3/4.
    #[serde(rename = "pairs_score_0.75", default)]
    pub pairs_score_three_quarters: u64,
    /// Pairs scoring 1.
    #[serde(rename = "pairs_score_1", default)]
    pub pairs_score_1: u64,
    /// Lower end of the Elo's 95% interval from the pairs (empty without pairs).
    pub pair_elo_low95: Option<f64>,
    /// Upper end of the Elo's 95% interval from the pairs.
    pub pair_elo_high95: Option<f64>,
    /// The matchup's SPRT verdict (`H0`, `H1`, `continue`; empty without SPRT).
    pub sprt: String,
    /// The SPRT's log-likelihood ratio from this agent's side.
    pub llr: Option<f64>,
    /// Moves it made.
    pub moves: u64,
    /// Nodes expanded per move.
    pub avg_expanded_per_move: f64,
    /// Leaves evaluated per move.
    pub avg_evaluated_per_move: f64,
    /// Children generated per move.
    pub avg_generated_per_move: f64,
    /// The most bytes of search state any of its moves used.
    pub peak_bytes: u64,
    /// Milliseconds per move.
    pub avg_ms_per_move: f64,
    /// Enemy pieces captured per game.
    pub avg_captures: f64,
    /// Plies (both sides' moves) per game.
    pub avg_plies: f64,
    /// Its wins by how the games ended: `goal=30;timeout=2` ([`ENDINGS`]).
    #[serde(default)]
    pub wins_by: String,
    /// Its losses by how the games ended.
    #[serde(default)]
    pub losses_by: String,
    /// Its draws by how the games ended.
    #[serde(default)]
    pub draws_by: String,
    /// Its mean return per game, in a game that scores more than who won (chips at
    /// poker); empty for the others.
    #[serde(default)]
    pub mean_return: Option<f64>,
    /// Lower end of the mean return's 95% interval (normal approximation).
    #[serde(default)]
    pub mean_return_low95: Option<f64>,
    /// Upper end of the mean return's 95% interval.
    #[serde(default)]
    pub mean_return_high95: Option<f64>,
    /// Lower end of the 95% interval of its mean return per game from the colour-swapped
    /// pairs (each pair's two returns summed: with duplicate deals the luck of the cards
    /// cancels).
    #[serde(default)]
    pub pair_return_low95: Option<f64>,
    /// Upper end of that interval.
    #[serde(default)]
    pub pair_return_high95: Option<f64>,
}

/// One row of nodes_by_depth.csv.
#[derive(Clone, Debug, Serialize)]
pub struct LevelRow {
    /// Matchup index.
    pub matchup: usize,
    /// The agent.
    pub agent: String,
    /// Distance from the root (root = 0).
    pub level: usize,
    /// Nodes expanded at this level, all moves together.
    pub expanded: u64,
    /// Leaves evaluated at this level, all moves together.
    pub evaluated: u64,
    /// Expanded per move.
    pub expanded_per_move: f64,
    /// Evaluated per move.
    pub evaluated_per_move: f64,
}

fn round(value: f64, decimals: i32) -> f64 {
    let scale = 10f64.powi(decimals);
    (value * scale).round() / scale
}

impl Summary {
    /// An empty summary for a run.
    pub fn new(context: RunContext) -> Summary {
        let totals = vec![[Totals::default(), Totals::default()]; context.matchups.len()];
        let tallies = vec![Tally::default(); context.matchups.len()];
        Summary {
            context,
            totals,
            tallies,
        }
    }

    /// Adds a finished game.
    pub fn add(&mut self, record: &GameRecord) {
        self.tallies[record.job.matchup].add(record);
        for player in Player::BOTH {
            let slot = record.job.slot(player);
            let side = &record.sides[player];
            let totals = &mut self.totals[record.job.matchup][slot];
            totals.games += 1;
            let result = match record.winner {
                None => {
                    totals.draws += 1;
                    2
                }
                Some(winner) if winner == player => {
                    totals.wins += 1;
                    0
                }
                Some(_) => {
                    totals.losses += 1;
                    1
                }
            };
            totals.by_ending[result][ending_of(&record.reason)] += 1;
            if player == Player::P1 {
                totals.games_as_p1 += 1;
                totals.wins_as_p1 += u64::from(record.winner == Some(player));
                totals.draws_as_p1 += u64::from(record.winner.is_none());
            }
            totals.moves += u64::from(side.moves);
            totals.stats += side.stats;
            totals.nanos += side.nanos;
            totals.captures += u64::from(side.captures);
            totals.plies += u64::from(record.plies);
            if let Some(returns) = &record.returns {
                totals.returns.add(returns[player]);
            }
        }
    }

    /// The matchups the summary lists, with their totals: all, or those that played
    /// (`played_only`).
    fn shown(&self) -> impl Iterator<Item = (usize, &[Totals; 2])> {
        self.totals
            .iter()
            .enumerate()
            .filter(|(_, pair)| !self.context.played_only || pair[0].games > 0)
    }

    /// One row per matchup and listed agent, matchups in order.
    pub fn rows(&self) -> Vec<SummaryRow> {
        let mut rows = Vec::new();
        for (matchup, pair) in self.shown() {
            for (slot, t) in pair.iter().enumerate() {
                let agents = self.context.matchups[matchup];
                let (low, high) = wilson_interval(t.wins, t.games, Z95);
                let moves = t.moves as f64;
                let tally = if slot == 0 {
                    self.tallies[matchup].clone()
                } else {
                    self.tallies[matchup].mirrored()
                };
                let elo = elo_trinomial(t.wins, t.draws, t.losses);
                let pair_elo = elo_pentanomial(&tally.pairs);
                // One test per matchup, of its first agent against its second: both rows
                // show the same verdict and LLR.
                let llr = self
                    .context
                    .sprt
                    .filter(|_| {
                        self.context
                            .sequential
                            .get(matchup)
                            .copied()
                            .unwrap_or(false)
                    })
                    .map(|s| (s, self.tallies[matchup].llr(&s)));
                let mut row = SummaryRow {
                    matchup,
                    agent: self.context.agents[agents[slot]].clone(),
                    opponent: self.context.agents[agents[1 - slot]].clone(),
                    games: t.games,
                    wins: t.wins,
                    losses: t.losses,
                    draws: t.draws,
                    win_rate: round(ratio(t.wins as f64, t.games as f64), 4),
                    win_rate_low95: round(low, 4),
                    win_rate_high95: round(high, 4),
                    games_as_p1: t.games_as_p1,
                    wins_as_p1: t.wins_as_p1,
                    draws_as_p1: t.draws_as_p1,
                    score: round(
                        ratio(t.wins as f64 + t.draws as f64 / 2.0, t.games as f64),
                        4,
                    ),
                    elo: round(elo.elo, 1),
                    elo_low95: round(elo.low, 1),
                    elo_high95: round(elo.high, 1),
                    los: round(likelihood_of_superiority(t.wins, t.losses), 4),
                    pairs: tally.pairs.map(|c| c.to_string()).join(";"),
                    pairs_score_0: tally.pairs[0],
                    pairs_score_quarter: tally.pairs[1],
                    pairs_score_half: tally.pairs[2],
                    pairs_score_three_quarters: tally.pairs[3],
                    pairs_score_1: tally.pairs[4],
                    pair_elo_low95: (tally.pair_count() > 0).then(|| round(pair_elo.low, 1)),
                    pair_elo_high95: (tally.pair_count() > 0).then(|| round(pair_elo.high, 1)),
                    sprt: llr.map_or(String::new(), |(s, llr)| s.decide(llr).label().to_string()),
                    llr: llr.map(|(_, llr)| round(llr, 3)),
                    moves: t.moves,
                    avg_expanded_per_move: round(ratio(t.stats.expanded as f64, moves), 2),
                    avg_evaluated_per_move: round(ratio(t.stats.evaluated as f64, moves), 2),
                    avg_generated_per_move: round(ratio(t.stats.generated as f64, moves), 2),
                    peak_bytes: t.stats.peak_bytes,
                    avg_ms_per_move: round(ratio(millis(t.nanos), moves), 4),
                    avg_captures: round(ratio(t.captures as f64, t.games as f64), 3),
                    avg_plies: round(ratio(t.plies as f64, t.games as f64), 2),
                    wins_by: endings_text(&t.by_ending[0]),
                    losses_by: endings_text(&t.by_ending[1]),
                    draws_by: endings_text(&t.by_ending[2]),
                    mean_return: t.returns.mean().map(|m| round(m, 4)),
                    mean_return_low95: t.returns.interval(Z95).map(|(low, _)| round(low, 4)),
                    mean_return_high95: t.returns.interval(Z95).map(|(_, high)| round(high, 4)),
                    // Per game: half a pair's summed return.
                    pair_return_low95: tally.pair_returns[0]
                        .interval(Z95)
                        .map(|(low, _)| round(low / 2.0, 4)),
                    pair_return_high95: tally.pair_returns[0]
                        .interval(Z95)
                        .map(|(_, high)| round(high / 2.0, 4)),
                };
                if t.games == 0 {
                    // Not played (a partial run): no rate or average, empty to pandas.
                    for value in [
                        &mut row.win_rate,
                        &mut row.win_rate_low95,
                        &mut row.win_rate_high95,
                        &mut row.score,
                        &mut row.elo,
                        &mut row.elo_low95,
                        &mut row.elo_high95,
                        &mut row.los,
                        &mut row.avg_expanded_per_move,
                        &mut row.avg_evaluated_per_move,
                        &mut row.avg_generated_per_move,
                        &mut row.avg_ms_per_move,
                        &mut row.avg_captures,
                        &mut row.avg_plies,
                    ] {
                        *value = f64::NAN;
                    }
                }
                rows.push(row);
            }
        }
        rows
    }

    /// Per-level node counts of every agent that searched.
    pub fn level_rows(&self) -> Vec<LevelRow> {
        let mut rows = Vec::new();
        for (matchup, pair) in self.shown() {
            for (slot, t) in pair.iter().enumerate() {
                let agent = &self.context.agents[self.context.matchups[matchup][slot]];
                for level in 0..t.stats.levels_used() {
                    let moves = t.moves as f64;
                    rows.push(LevelRow {
                        matchup,
                        agent: agent.clone(),
                        level,
                        expanded: t.stats.expanded_by_level[level],
                        evaluated: t.stats.evaluated_by_level[level],
                        expanded_per_move: round(
                            ratio(t.stats.expanded_by_level[level] as f64, moves),
                            3,
                        ),
                        evaluated_per_move: round(
                            ratio(t.stats.evaluated_by_level[level] as f64, moves),
                            3,
                        ),
                    });
                }
            }
        }
        rows
    }
}

/// Reads a results folder's summary.csv, its run's agents as `meta` gives them. An external program that never reported its
/// search (`info`) counts no nodes: its nodes per move are read as unknown (NaN, shown
/// `-`), not as zero.
///
/// # Errors
/// A message naming the file when it is missing or not a summary.
pub fn read_summary(
    folder: &Path,
    meta: Option<&super::Meta>,
) -> Result<Vec<SummaryRow>, InputError> {
    let mut rows: Vec<SummaryRow> = super::load::csv_rows(&folder.join("summary.csv"))?;
    if let Some(meta) = meta {
        let external = |name: &str| {
            meta.agents
                .iter()
                .any(|(n, spec)| n == name && crate::registry::is_external_spec(spec))
        };
        for row in &mut rows {
            if row.avg_expanded_per_move == 0.0 && external(&row.agent) {
                row.avg_expanded_per_move = f64::NAN;
            }
        }
    }
    Ok(rows)
}

/// An Elo estimate as text: `+147 (+86 .. +218)`, infinities as `+inf` / `-inf`.
pub fn elo_text(elo: f64, low: f64, high: f64) -> String {
    let one = |x: f64| {
        // -0 prints as "-0": a score of exactly one half is plain 0.
        let x = if x == 0.0 { 0.0 } else { x };
        if x.is_infinite() {
            if x > 0.0 {
                "+inf".to_string()
            } else {
                "-inf".to_string()
            }
        } else {
            format!("{x:+.0}")
        }
    };
    format!("{} ({} .. {})", one(elo), one(low), one(high))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::records::tally::tests::record;
    use crate::stats::elo::{EloModel, Sprt};

    #[test]
    fn both_rows_of_a_matchup_show_one_sequential_test() {
        let mut context = RunContext::new(
            "breakthrough".into(),
            String::new(),
            vec!["a".into(), "b".into()],
            vec![[0, 1]],
        );
        context.sprt = Some(Sprt {
            elo0: 0.0,
            elo1: 40.0,
            alpha: 0.05,
            beta: 0.05,
            model: EloModel::Logistic,
        });
        context.sequential = vec![true];
        let mut summary = Summary::new(context);
        // The first agent wins 7 of 10 single games (as P1 in the even ones).
        for game in 0..10u64 {
            let first_is_p1 = game % 2 == 0;
            let first_wins = game < 7;
            let winner = if first_wins == first_is_p1 {
                Player::P1
            } else {
                Player::P2
            };
            summary.add(&record(game, first_is_p1, Some(winner), false));
        }
        let rows = summary.rows();
        assert_eq!((rows[0].wins, rows[1].wins), (7, 3));
        let test = summary.context.sprt.expect("sprt");
        let llr = test.llr_trinomial(7, 0, 3);
        assert!(llr > 0.0, "{llr}");
        for row in &rows {
            assert_eq!(row.llr, Some(round(llr, 3)));
            assert_eq!(row.sprt, test.decide(llr).label());
        }
    }
}
