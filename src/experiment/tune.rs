//! Tuning experiments: the plan is every game of every SPSA iteration, with the checkpoint
//! matches between iterations and the verification match at the end; a job plays one
//! game. An iteration's games wait (a pool barrier) until the previous iteration is
//! reported, since its values follow from that iteration's result; the results are
//! folded in plan order, so the run is the same on any thread count and resumes like
//! every run. tune.csv and tune_games.csv are its files.

use super::{Error, Finished, Kind, Task, Work, execute};
use crate::core::{Agent, ByPlayer, Player, seeds};
use crate::records::tally::Tally;
use crate::records::tune::{History, IterationRow, Stage, TuneCsv, TuneRecord};
use crate::records::{Meta, Reporter};
use crate::registry::tune_experiment::TuneExperiment;
use crate::registry::{AgentFactory, GameEntry, GameTask};
use crate::stats::elo::SprtDecision;
use crate::tournament::{GameJob, Openings, PlayLimits, play_from};
use std::io;
use std::path::Path;

/// Seed tags of the three stages and of the perturbation signs.
const ITERATION_TAG: u64 = 0x7370_7361;
const CHECKPOINT_TAG: u64 = 0x6368_6b70;
const VERIFY_TAG: u64 = 0x7665_7269;
const FLIP_TAG: u64 = 0x666c_6970;

/// A run of consecutive games of one stage.
#[derive(Clone, Copy, Debug)]
struct Block {
    /// The first game's id.
    start: u64,
    stage: Stage,
    iteration: u64,
    games: u64,
}

/// Who plays a game of the plan.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Side {
    /// The values perturbed up (`1`) or down (`-1`) at the game's iteration.
    Perturbed(f64),
    /// The values at the game's iteration.
    Current,
    /// The same, as an opponent of the perturbed versions in an iteration.
    CurrentOpponent,
    /// The starting values.
    Start,
    /// The yardstick agent.
    Yardstick,
    /// A fixed opponent (index).
    Opponent(usize),
}

/// A tuning experiment ready to play on game `G`.
struct Tuning<'a, G: GameEntry> {
    experiment: &'a TuneExperiment,
    start: G,
    openings: Openings<G>,
    /// The opponents' factories, then the yardstick's.
    opponents: Vec<AgentFactory<G>>,
    limits: PlayLimits,
    blocks: Vec<Block>,
    /// Per iteration, the id after its last game (its values are known once every game
    /// before it is reported).
    iteration_ends: Vec<u64>,
    history: History,
}

impl<G: GameEntry> Tuning<'_, G> {
    fn block_of(&self, id: u64) -> Block {
        let index = self.blocks.partition_point(|b| b.start <= id) - 1;
        self.blocks[index]
    }

    /// The sides of game `index` of a block, and its pair (seed) within the block.
    fn sides(&self, block: &Block, index: u64) -> ([Side; 2], u64) {
        let pair = index / 2;
        match block.stage {
            Stage::Iteration if self.experiment.iteration_opponents() == 0 => {
                ([Side::Perturbed(1.0), Side::Perturbed(-1.0)], pair)
            }
            Stage::Iteration => {
                // Per opponent: the plus version's pairs, then the minus version's on the
                // same seeds (a paired comparison).
                let per_version = 2 * self.experiment.pairs;
                let opponent = (index / (2 * per_version)) as usize;
                let version = if (index / per_version).is_multiple_of(2) {
                    1.0
                } else {
                    -1.0
                };
                let pair = opponent as u64 * self.experiment.pairs + (index % per_version) / 2;
                let side = if opponent < self.experiment.opponents.len() {
                    Side::Opponent(opponent)
                } else {
                    Side::CurrentOpponent
                };
                ([Side::Perturbed(version), side], pair)
            }
            Stage::Checkpoint if self.experiment.yardstick.is_some() => {
                ([Side::Current, Side::Yardstick], pair)
            }
            Stage::Checkpoint | Stage::Verify => ([Side::Current, Side::Start], pair),
        }
    }

    fn label(&self, side: Side) -> String {
        match side {
            Side::Perturbed(sign) if sign > 0.0 => "plus".to_string(),
            Side::Perturbed(_) => "minus".to_string(),
            Side::Current => "tuned".to_string(),
            Side::CurrentOpponent => crate::registry::tune_experiment::CURRENT.to_string(),
            Side::Start => "start".to_string(),
            Side::Yardstick => self
                .experiment
                .yardstick
                .as_ref()
                .map_or(String::new(), |(text, _)| text.clone()),
            Side::Opponent(o) => self.experiment.opponents[o].name.clone(),
        }
    }

    /// The perturbation signs of iteration `k`.
    fn flips(&self, k: u64) -> Vec<f64> {
        (0..self.experiment.spsa.parameters.len() as u64)
            .map(|i| {
                if seeds::derive(self.experiment.seed, &[FLIP_TAG, k, i]) & 1 == 0 {
                    1.0
                } else {
                    -1.0
                }
            })
            .collect()
    }

    /// The values at the start of iteration `k`, once known.
    fn values(&self, k: u64) -> Option<Vec<f64>> {
        let rows = self.history.lock().unwrap_or_else(|e| e.into_inner());
        rows.get(k as usize).map(|row| row.values.clone())
    }

    /// `side`'s agent at iteration `k` with its seed; `None` if its values are not known
    /// (cannot happen after the barrier) or not taken (checked when the file was read).
    fn agent(&self, side: Side, k: u64, seed: u64) -> Option<Box<dyn Agent<G>>> {
        let spsa = &self.experiment.spsa;
        let values = match side {
            Side::Opponent(o) => return Some(self.opponents[o](seed)),
            Side::Yardstick => return self.opponents.last().map(|f| f(seed)),
            Side::Start => spsa.start(),
            Side::Current | Side::CurrentOpponent => self.values(k)?,
            Side::Perturbed(sign) => spsa.perturbed(&self.values(k)?, k, &self.flips(k), sign),
        };
        let factory = self
            .experiment
            .agent_with(&values)
            .ok()?
            .factory(&self.start)
            .ok()?;
        Some(factory(seed))
    }
}

impl<G: GameEntry> Work for Tuning<'_, G> {
    type Record = TuneRecord;

    fn jobs(&self) -> u64 {
        self.blocks.last().map_or(0, |b| b.start + b.games)
    }

    /// The verification is a group of its own: its SPRT may end it early.
    fn groups(&self) -> usize {
        2
    }

    fn group(&self, id: u64) -> usize {
        usize::from(self.block_of(id).stage == Stage::Verify)
    }

    fn barrier(&self, id: u64) -> u64 {
        let block = self.block_of(id);
        match block.iteration {
            0 => 0,
            k => self.iteration_ends[k as usize - 1],
        }
    }

    fn execute(&self, id: u64) -> Option<TuneRecord> {
        let block = self.block_of(id);
        let index = id - block.start;
        let (sides, pair) = self.sides(&block, index);
        let tag = match block.stage {
            Stage::Iteration => ITERATION_TAG,
            Stage::Checkpoint => CHECKPOINT_TAG,
            Stage::Verify => VERIFY_TAG,
        };
        let job = GameJob {
            id,
            matchup: 0,
            game_index: index,
            pair,
            seed: seeds::derive(self.experiment.seed, &[tag, block.iteration, pair]),
            agents: [0, 1],
            first_is_p1: index.is_multiple_of(2),
        };
        let seat = |player: Player| {
            self.agent(
                sides[job.slot(player)],
                block.iteration,
                job.agent_seed(player),
            )
        };
        let mut seats = ByPlayer([seat(Player::P1)?, seat(Player::P2)?]);
        let (opening, moves) = self.openings.position(&self.start, &job);
        let mut game = play_from(opening, moves, job, &mut seats, &self.limits)?;
        game.moves = Vec::new();
        Some(TuneRecord {
            stage: block.stage,
            iteration: block.iteration,
            first: self.label(sides[0]),
            second: self.label(sides[1]),
            game,
        })
    }
}

/// Folds the iterations' results into the next values (in plan order, so on any thread
/// count the same), and ends the verification when its SPRT decides.
struct Stepper<'a, 'b, G: GameEntry> {
    tuning: &'b Tuning<'a, G>,
    /// The current iteration's wins minus losses of the plus version, and games.
    result: f64,
    games: u64,
    verify: Tally,
}

impl<G: GameEntry> super::Control<TuneRecord> for Stepper<'_, '_, G> {
    fn decided(&mut self, id: u64, record: &TuneRecord) -> bool {
        match record.stage {
            Stage::Verify => {
                let (sprt, _) = &self.tuning.experiment.verify;
                self.verify.add(&record.game);
                self.verify.pair_count() > 0
                    && !record.game.job.first_is_p1
                    && sprt.decide(self.verify.llr(sprt)) != SprtDecision::Continue
            }
            Stage::Checkpoint => false,
            Stage::Iteration => {
                let k = record.iteration;
                // The plus version's score, +1 win, -1 loss; against opponents, the minus
                // version's counts the other way, each half.
                let score = f64::from(record.halves()) - 1.0;
                let plus = record.first == "plus";
                self.result += match (self.tuning.experiment.iteration_opponents() == 0, plus) {
                    (true, _) => score,
                    (false, true) => score / 2.0,
                    (false, false) => -score / 2.0,
                };
                self.games += 1;
                // Stepped once every game of the iteration is in: a run stopped with a
                // gap (a job dropped at the budget) hands in the games after it too.
                let complete = self.games == self.tuning.experiment.iteration_games();
                if complete && id + 1 == self.tuning.iteration_ends[k as usize] {
                    let spsa = &self.tuning.experiment.spsa;
                    let mut rows = self
                        .tuning
                        .history
                        .lock()
                        .unwrap_or_else(|e| e.into_inner());
                    let theta = rows[k as usize].values.clone();
                    rows[k as usize].result = Some(self.result);
                    rows[k as usize].games = self.games;
                    rows.push(IterationRow {
                        iteration: k + 1,
                        values: spsa.step(&theta, k, &self.tuning.flips(k), self.result),
                        games: 0,
                        result: None,
                    });
                    self.result = 0.0;
                    self.games = 0;
                }
                false
            }
        }
    }
}

impl<G: GameEntry> Kind for Tuning<'_, G> {
    fn unit(&self) -> &'static str {
        "games"
    }

    fn describe(&self) -> String {
        let e = self.experiment;
        format!(
            "{} parameter{} of {} over {} iterations of {} games, then up to {} verification games",
            e.spsa.parameters.len(),
            if e.spsa.parameters.len() == 1 {
                ""
            } else {
                "s"
            },
            e.agent_text,
            e.spsa.iterations,
            e.iteration_games(),
            e.verify.1
        )
    }

    fn recorder(&self, folder: &Path) -> io::Result<Box<dyn Reporter<TuneRecord> + '_>> {
        let names: Vec<String> = self
            .experiment
            .spsa
            .parameters
            .iter()
            .map(|p| p.name.clone())
            .collect();
        Ok(Box::new(TuneCsv::create(
            folder,
            &names,
            &self.history,
            self.experiment.spsa.iterations,
        )?))
    }

    fn control(&self) -> Box<dyn super::Control<TuneRecord> + '_> {
        Box::new(Stepper {
            tuning: self,
            result: 0.0,
            games: 0,
            verify: Tally::default(),
        })
    }
}

/// The plan: each iteration's games, a checkpoint match before the iterations it falls
/// on, the verification at the end; and where each iteration ends.
fn plan(experiment: &TuneExperiment, iteration_games: u64) -> (Vec<Block>, Vec<u64>) {
    let n = experiment.spsa.iterations;
    let checkpoints = experiment.checkpoint_iterations();
    let mut blocks = Vec::new();
    let mut ends = Vec::new();
    let mut next = 0u64;
    let mut push = |stage: Stage, iteration: u64, games: u64| {
        blocks.push(Block {
            start: next,
            stage,
            iteration,
            games,
        });
        next += games;
        next
    };
    for k in 0..n {
        if checkpoints.contains(&k) {
            push(Stage::Checkpoint, k, experiment.checkpoint_games);
        }
        ends.push(push(Stage::Iteration, k, iteration_games));
    }
    if checkpoints.contains(&n) {
        push(Stage::Checkpoint, n, experiment.checkpoint_games);
    }
    push(Stage::Verify, n, 2 * experiment.verify.1.div_ceil(2));
    (blocks, ends)
}

/// Tunes on the game type chosen by [`crate::registry::dispatch`].
impl GameTask for Task<'_, TuneExperiment> {
    type Output = Result<Finished, Error>;

    fn run<G: GameEntry>(self, start_position: G) -> Result<Finished, Error> {
        crate::registry::two_players(&start_position, "tuning")?;
        let Task {
            experiment,
            start,
            options,
        } = self;
        // Everything is checked before anything is written.
        let opponents = experiment.factories(&start_position)?;
        let openings = super::games::openings_of(&experiment.openings, &start_position)?;
        let iteration_games = experiment.iteration_games();
        let (blocks, iteration_ends) = plan(&experiment, iteration_games);
        let tuning = Tuning {
            experiment: &experiment,
            start: start_position,
            openings,
            opponents,
            limits: PlayLimits {
                max_plies: experiment.max_plies,
                move_time: None,
                stop: Some(super::interrupt_flag()),
                logs: None,
                time_control: None,
                cpu_clock: false,
                adjudication: Default::default(),
                // Its games keep their move text (tune.csv); the per-move records are
                // dropped after each game.
                no_moves: false,
                independent_chance: false,
            },
            blocks,
            iteration_ends,
            history: History::new(vec![IterationRow {
                iteration: 0,
                values: experiment.spsa.start(),
                games: 0,
                result: None,
            }]),
        };
        let (folder, meta) = start.open(&experiment.name, options.quiet, || Meta {
            games_per_matchup: iteration_games,
            max_plies: experiment.max_plies,
            agents: std::iter::once((experiment.agent_text.clone(), experiment.agent_canonical()))
                .chain(
                    experiment
                        .opponents
                        .iter()
                        .chain(experiment.yardstick.iter().map(|(_, spec)| spec))
                        .map(|a| (a.name.clone(), a.canonical())),
                )
                .collect(),
            deterministic: true,
            ..super::game_meta!(experiment, crate::records::RunKind::Tune, options.threads)
        })?;
        execute(&tuning, &folder, meta, options)
    }
}
