//! Speed of the Breakthrough path: perft, alpha-beta with a costly and a cheap evaluation,
//! random games through the whole scheduler with CSV output, the record path alone (journal
//! and CSV rows of finished games), random playouts (MCTS's rollouts), and the `linear`
//! heuristic against the hand-written ones it expresses. Each benchmark checks what it
//! measured (perft count, alpha-beta = minimax, the playouts' plies, equal values) so a
//! faster wrong program fails.

use arbiter::core::Limits;
use arbiter::core::{Game, pick_move_playout, seeds};
use arbiter::evals::breakthrough::Heuristic;
use arbiter::experiment::play_all;
use arbiter::games::breakthrough::{Breakthrough, Rules};
use arbiter::games::{perft, random_playouts, random_positions};
use arbiter::records::journal::Journal;
use arbiter::records::{CsvRecorder, Reporter, RunContext, RunOutcome};
use arbiter::registry::{AgentFactory, AgentSpec, Colours};
use arbiter::search::mcts::{Mcts, MctsConfig};
use arbiter::search::{Algorithm, Searcher};
use arbiter::tournament::{GameRecord, MatchupPlan, Schedule, play_game, seat_agents};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use std::hint::black_box;

fn bench_perft(c: &mut Criterion) {
    let start = Breakthrough::new(Rules::Standard);
    // 22, 484, 11132, 256036 are published; depth 5 is checked against the naive
    // generator in the unit tests, and equals the sum over depth-4 subtrees here.
    let leaves = perft(&start, 5);
    let mut moves = Vec::new();
    start.legal_moves(&mut moves);
    let by_subtree: u64 = moves
        .iter()
        .map(|&m| {
            let mut child = start;
            child.apply(m);
            perft(&child, 4)
        })
        .sum();
    assert_eq!(leaves, by_subtree);
    let mut group = c.benchmark_group("perft");
    group.throughput(Throughput::Elements(leaves));
    group.bench_function("standard depth 5 (leaves)", |b| {
        b.iter(|| perft(black_box(&start), 5))
    });
    group.finish();
}

fn bench_alphabeta(c: &mut Criterion) {
    let positions = random_positions(&Breakthrough::new(Rules::Standard), 20, 10, 40, 2024);
    let mut group = c.benchmark_group("alphabeta depth 4");
    for name in ["offensive2", "material"] {
        let heuristic = Heuristic::from_spec(name, &[]).expect("known heuristic");
        let search = |algorithm| {
            let mut searcher = Searcher::new(heuristic, 7);
            let mut rng = seeds::rng(7);
            positions
                .iter()
                .map(|p| {
                    let r = searcher.search(p, algorithm, 4, &mut rng).expect("moves");
                    (r.best, r.stats.nodes())
                })
                .collect::<Vec<_>>()
        };
        let ab = search(Algorithm::AlphaBeta);
        let mm = search(Algorithm::Minimax);
        for (a, m) in ab.iter().zip(&mm) {
            assert_eq!(a.0, m.0, "alpha-beta must choose minimax's move");
            assert!(a.1 <= m.1, "alpha-beta must not visit more nodes");
        }
        let nodes: u64 = ab.iter().map(|r| r.1).sum();
        group.throughput(Throughput::Elements(nodes));
        group.bench_function(format!("{name} (nodes)"), |b| {
            b.iter(|| search(Algorithm::AlphaBeta))
        });
    }
    group.finish();
}

/// A random agent against itself for `games` games, colours alternating.
fn random_self_play(
    start: &Breakthrough,
    games: u64,
) -> (Vec<AgentFactory<Breakthrough>>, Schedule) {
    let random: AgentSpec = "random".parse().expect("valid");
    let factories = vec![random.factory(start).expect("valid")];
    let schedule = Schedule::new(
        1,
        vec![MatchupPlan {
            agents: [0, 0],
            seed_key: 0,
            games,
        }],
        Colours::Alternate,
    );
    (factories, schedule)
}

fn bench_random_games(c: &mut Criterion) {
    let start = Breakthrough::new(Rules::Standard);
    let games = 2000;
    let (factories, schedule) = random_self_play(&start, games);
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut group = c.benchmark_group("scheduler");
    group.throughput(Throughput::Elements(games));
    group.sample_size(10);
    group.bench_function("random vs random with CSV, all cores (games)", |b| {
        b.iter(|| {
            let folder = tempfile::tempdir().expect("temp dir");
            let context = RunContext::new(
                "breakthrough".into(),
                "standard".into(),
                vec!["random".into()],
                vec![[0, 0]],
            );
            let mut recorder = CsvRecorder::create(folder.path(), context, true).expect("files");
            let outcome =
                play_all(&start, &schedule, &factories, threads, true, &mut recorder).expect("run");
            assert_eq!(outcome.played, games as usize);
        })
    });
    group.finish();
}

/// The record path alone: 2,000 finished random games (played once, beforehand) written
/// through the journal and the CSV recorder, as a run writes them, with moves.csv and
/// without (`--no-moves`: the records carry no moves). The games.csv written must hold
/// every game.
fn bench_record_path(c: &mut Criterion) {
    let start = Breakthrough::new(Rules::Standard);
    let games = 2000;
    let (factories, schedule) = random_self_play(&start, games);
    let records: Vec<GameRecord> = (0..games)
        .map(|id| {
            let job = schedule.job(id);
            let mut seats = seat_agents(&factories, &job);
            play_game(&start, job, &mut seats, 1000)
        })
        .collect();
    let lean: Vec<GameRecord> = records
        .iter()
        .cloned()
        .map(|mut record| {
            record.moves.clear();
            record.move_text.clear();
            record
        })
        .collect();
    let mut group = c.benchmark_group("records");
    group.throughput(Throughput::Elements(games));
    group.sample_size(10);
    for (name, records, moves) in [
        ("journal + games.csv + moves.csv (games)", &records, true),
        ("journal + games.csv, --no-moves (games)", &lean, false),
    ] {
        group.bench_function(name, |b| {
            b.iter(|| {
                let folder = tempfile::tempdir().expect("temp dir");
                let context = RunContext::new(
                    "breakthrough".into(),
                    "standard".into(),
                    vec!["random".into()],
                    vec![[0, 0]],
                );
                let mut journal = Journal::<GameRecord>::open(folder.path(), 0).expect("journal");
                let mut recorder =
                    CsvRecorder::create(folder.path(), context, moves).expect("files");
                for record in records.iter() {
                    journal.finished(record).expect("journal row");
                    recorder.finished(record).expect("csv rows");
                }
                let outcome = RunOutcome {
                    played: records.len(),
                    skipped: 0,
                    total: records.len(),
                    cancelled: false,
                };
                journal.ended(&outcome).expect("flush");
                recorder.ended(&outcome).expect("flush");
                drop(recorder);
                let text =
                    std::fs::read_to_string(folder.path().join("games.csv")).expect("games.csv");
                assert_eq!(text.lines().count(), records.len() + 1);
            })
        });
    }
    group.finish();
}

// No plots: criterion's plotters backend would look for a system font, and this crate
// turns on plotters' embedded-font feature, which has none registered for criterion.
/// MCTS simulations from the start (random rollouts to the end), after a warm-up search
/// that grows the node arena; the table variant's nodes against the killer variant's.
fn bench_mcts_and_table(c: &mut Criterion) {
    let start = Breakthrough::new(Rules::Standard);
    let heuristic = Heuristic::from_spec("offensive2", &[]).expect("known heuristic");
    let iterations = 5_000;
    let config = MctsConfig {
        iterations,
        ..MctsConfig::default()
    };
    let mut mcts = Mcts::new(config, heuristic, 7);
    let mut rng = seeds::rng(7);
    let warm = mcts.search(&start, &Limits::NONE, &mut rng).expect("moves");
    assert_eq!(
        warm.stats.evaluated, iterations,
        "one simulation per iteration"
    );
    let mut group = c.benchmark_group("mcts");
    group.throughput(Throughput::Elements(iterations));
    group.bench_function("simulations from the start", |b| {
        b.iter(|| mcts.search(black_box(&start), &Limits::NONE, &mut rng))
    });
    group.finish();

    let positions = random_positions(&start, 20, 10, 40, 2024);
    let mut group = c.benchmark_group("alphabeta table depth 5");
    for algorithm in [Algorithm::AlphaBetaKiller, Algorithm::AlphaBetaTt] {
        let mut searcher = Searcher::new(heuristic, 7);
        let mut rng = seeds::rng(7);
        let nodes: u64 = positions
            .iter()
            .map(|p| {
                searcher
                    .search(p, algorithm, 5, &mut rng)
                    .expect("moves")
                    .stats
                    .nodes()
            })
            .sum();
        group.throughput(Throughput::Elements(nodes));
        // A fresh searcher (and table) per round: a table kept from round to round would
        // answer from the previous round's entries.
        group.bench_function(algorithm.name(), |b| {
            b.iter(|| {
                let mut searcher = Searcher::new(heuristic, 7);
                let mut rng = seeds::rng(7);
                for p in &positions {
                    black_box(searcher.search(p, algorithm, 5, &mut rng));
                }
            })
        });
    }
    group.finish();
}

/// Random playouts from the start through `Game::random_playout` (what MCTS's random
/// rollouts play), their plies checked first against the same draws played one
/// `pick_move` and `apply` at a time.
fn bench_playouts(c: &mut Criterion) {
    let start = Breakthrough::new(Rules::Standard);
    let games = 1_000;
    let plies = random_playouts(&start, games, 7);
    let mut rng = seeds::rng(7);
    let mut scratch = Vec::new();
    let by_move: u64 = (0..games)
        .map(|_| {
            let pick = |n| seeds::below(&mut rng, n);
            u64::from(pick_move_playout(&mut start.clone(), &mut scratch, pick, u32::MAX).plies)
        })
        .sum();
    assert_eq!(plies, by_move, "the playout loop plays pick_move's moves");
    let mut group = c.benchmark_group("random playouts");
    group.throughput(Throughput::Elements(plies));
    group.bench_function("from the start (plies)", |b| {
        b.iter(|| random_playouts(black_box(&start), games, 7))
    });
    group.finish();
}

/// Each of report 001's heuristics (and material) against the same weights given to
/// `linear`: one call each on 40 positions, both sides. The values are checked equal first.
fn bench_linear(c: &mut Criterion) {
    use arbiter::core::{Evaluator, Player};
    let positions = random_positions(&Breakthrough::new(Rules::Standard), 40, 10, 40, 2024);
    let mut group = c.benchmark_group("heuristic cost");
    group.throughput(Throughput::Elements(2 * positions.len() as u64));
    for &(name, weights) in arbiter::evals::breakthrough::LINEAR_FORMS {
        let weights: Vec<(String, String)> = weights
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        let named = Heuristic::from_spec(name, &[]).expect("known heuristic");
        let linear = Heuristic::from_spec("linear", &weights).expect("linear");
        let total = |h: &Heuristic| {
            positions
                .iter()
                .flat_map(|p| [Player::P1, Player::P2].map(|root| h.evaluate(p, root, 7)))
                .sum::<f64>()
        };
        assert_eq!(total(&named), total(&linear), "{name} as linear");
        for (label, heuristic) in [
            (name.to_string(), named),
            (format!("{name} as linear"), linear),
        ] {
            group.bench_function(label, |b| b.iter(|| total(black_box(&heuristic))));
        }
    }
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().without_plots();
    targets = bench_perft, bench_alphabeta, bench_random_games, bench_record_path, bench_mcts_and_table, bench_playouts, bench_linear
}
criterion_main!(benches);
