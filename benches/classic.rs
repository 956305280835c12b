//! Speed of Connect Four and Othello (issue 33's goals: Othello perft(9) under 0.2 s and
//! Connect Four perft(9) under 0.1 s on one core), alpha-beta on both, and the exact
//! solver on boards small enough to solve in a benchmark. Each benchmark checks what it
//! measured (published perft counts, alpha-beta = minimax, proven values) so a faster wrong
//! program fails.

use arbiter::core::{Limits, seeds};
use arbiter::games::connect_four::{ConnectFour, Params};
use arbiter::games::othello::Othello;
use arbiter::games::{perft, random_positions};
use arbiter::search::solve::{Solver, Value};
use arbiter::search::{Algorithm, Searcher};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use std::hint::black_box;

fn bench_perft(c: &mut Criterion) {
    let mut group = c.benchmark_group("perft depth 9");
    group.sample_size(10);
    // Othello's counts are published (passes counted as moves); Connect Four's 7-wide
    // board has 7^d leaves until the first game ends at ply 7 (OpenSpiel agrees, CI).
    let othello = Othello::new();
    assert_eq!(perft(&othello, 9), 3_005_288);
    group.throughput(Throughput::Elements(3_005_288));
    group.bench_function("othello (leaves)", |b| {
        b.iter(|| perft(black_box(&othello), 9))
    });
    let connect_four = ConnectFour::new(Params::default());
    let leaves = perft(&connect_four, 9);
    assert_eq!(leaves, 39_394_572);
    group.throughput(Throughput::Elements(leaves));
    group.bench_function("connect-four (leaves)", |b| {
        b.iter(|| perft(black_box(&connect_four), 9))
    });
    group.finish();
}

fn alphabeta_group<G: arbiter::registry::GameEntry>(
    c: &mut Criterion,
    label: &str,
    start: &G,
    heuristic: &str,
    depth: u32,
) {
    let positions = random_positions(start, 20, 6, 20, 2026);
    let heuristic = start.heuristic(heuristic, &[]).expect("known heuristic");
    let search = |algorithm| {
        let mut searcher = Searcher::new(heuristic.clone(), 7);
        let mut rng = seeds::rng(7);
        positions
            .iter()
            .map(|p| {
                let r = searcher
                    .search(p, algorithm, depth, &mut rng)
                    .expect("moves");
                (r.value, r.stats.nodes())
            })
            .collect::<Vec<_>>()
    };
    let ab = search(Algorithm::AlphaBeta);
    let mm = search(Algorithm::Minimax);
    for (a, m) in ab.iter().zip(&mm) {
        assert_eq!(a.0, m.0, "alpha-beta must return minimax's value");
        assert!(a.1 <= m.1, "alpha-beta must not visit more nodes");
    }
    let mut group = c.benchmark_group(format!("alphabeta depth {depth}"));
    let nodes: u64 = ab.iter().map(|r| r.1).sum();
    group.throughput(Throughput::Elements(nodes));
    group.bench_function(format!("{label} (nodes)"), |b| {
        b.iter(|| search(Algorithm::AlphaBeta))
    });
    group.finish();
}

fn bench_alphabeta(c: &mut Criterion) {
    alphabeta_group(
        c,
        "connect-four windows",
        &ConnectFour::new(Params::default()),
        "windows",
        6,
    );
    alphabeta_group(c, "othello squares", &Othello::new(), "squares", 5);
}

fn bench_solver(c: &mut Criterion) {
    let mut group = c.benchmark_group("solve");
    group.sample_size(10);
    for (rows, columns) in [(4, 5), (5, 4)] {
        let start = ConnectFour::new(Params { rows, columns });
        let solve = || {
            Solver::new(64, Limits::NONE)
                .solve(black_box(&start))
                .expect("no limit")
        };
        let solved = solve();
        assert_eq!(solved.value, Value::Draw, "{rows}x{columns} is a draw");
        group.throughput(Throughput::Elements(solved.visited));
        group.bench_function(format!("connect-four {rows}x{columns} (positions)"), |b| {
            b.iter(solve)
        });
    }
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().without_plots();
    targets = bench_perft, bench_alphabeta, bench_solver
}
criterion_main!(benches);
