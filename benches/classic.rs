//! Speed of Connect Four and Othello (issue 33's goals: Othello perft(9) under 0.2 s and
//! Connect Four perft(9) under 0.1 s on one core), alpha-beta on both, and the exact
//! solver on boards small enough to solve in a benchmark, on one of Tromp's 8-ply 6x7
//! positions by value and on two FFO endgame positions by margin (issue 61). Each benchmark checks what it measured (published perft counts,
//! alpha-beta = minimax, proven values, published margins and best moves) so a faster
//! wrong program fails.

use arbiter::core::{Game, Limits, seeds};
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
    // One of John Tromp's 8-ply positions by value alone (P1 to move wins; about 1 s):
    // the table grows to 128 MB, far beyond the caches, where fetching the children's
    // slots ahead pays (docs/speed.md).
    let mut tromp = ConnectFour::new(Params::default());
    for column in "11117177".chars() {
        let mv = tromp.parse_move(&column.to_string()).expect("a column");
        tromp.apply(mv);
    }
    let solve = || {
        Solver::new(256, Limits::NONE)
            .value_only()
            .solve(black_box(&tromp))
            .expect("no limit")
    };
    let solved = solve();
    assert_eq!(solved.value, Value::Win(None), "Tromp's 11117177 is won");
    group.throughput(Throughput::Elements(solved.visited));
    group.bench_function("connect-four 6x7 11117177 by value (positions)", |b| {
        b.iter(solve)
    });
    // FFO #40 (20 empties, +38) and #44 (23 empties, -14): the whole set is in
    // docs/speed.md; these two take about 0.3 s and 1.2 s.
    for number in [40, 44] {
        let (position, margin, best) = ffo_position(number);
        let solve = || {
            Solver::<Othello>::new(256, Limits::NONE)
                .by_margin()
                .solve(black_box(&position))
                .expect("no limit")
        };
        let solved = solve();
        assert_eq!(solved.margin, Some(margin), "FFO #{number}");
        let played = position.format_move(solved.best.expect("a best move"));
        assert!(
            best.contains(&played),
            "FFO #{number}: {played}, not {best:?}"
        );
        group.throughput(Throughput::Elements(solved.visited));
        group.bench_function(
            format!("othello FFO #{number} by margin (positions)"),
            |b| b.iter(solve),
        );
    }
    group.finish();
}

/// FFO position `number` of tests/oracles/ffo-40-59.txt: the position, its published
/// margin for the side to move and its published best moves.
fn ffo_position(number: u32) -> (Othello, i32, Vec<String>) {
    let text = include_str!("../tests/oracles/ffo-40-59.txt");
    let wanted = number.to_string();
    let line = text
        .lines()
        .find(|l| l.split_whitespace().next() == Some(wanted.as_str()))
        .expect("the position is in the set");
    let fields: Vec<&str> = line.split_whitespace().collect();
    let position = Othello::new()
        .read_position(&format!("{} {}", fields[1], fields[2]))
        .expect("Othello reads positions")
        .expect("a position");
    let margin = fields[3].parse().expect("a margin");
    let best = fields[4].split(',').map(String::from).collect();
    (position, margin, best)
}

criterion_group! {
    name = benches;
    config = Criterion::default().without_plots();
    targets = bench_perft, bench_alphabeta, bench_solver
}
criterion_main!(benches);
