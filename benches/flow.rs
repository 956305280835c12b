//! Flow Free solve times: the public set's hardest puzzles (the target: each under
//! 1 s on one core) with the clause-learning `sat` solver, and the path-extension `paths`
//! solver on the ones it finishes quickly. Every solve must end solved (the solvers check
//! their answers) with the same counters as the first.

use arbiter::csp::Limits;
use arbiter::csp::flow::{Puzzle, Solver, Status, solve};
use criterion::{Criterion, criterion_group, criterion_main};
use std::path::PathBuf;
use std::time::Duration;

fn puzzle(name: &str) -> Puzzle {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("matchups/puzzles/flow/public")
        .join(format!("{name}.txt"));
    Puzzle::read(&path).expect("a shipped puzzle")
}

fn solves(c: &mut Criterion) {
    let mut group = c.benchmark_group("flow");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(3));
    let cases = [
        (Solver::Sat, "jumbo_14x14_19"),
        (Solver::Sat, "jumbo_14x14_30"),
        (Solver::Sat, "jumbo_14x14_01"),
        (Solver::Sat, "extreme_12x12_29"),
        (Solver::Paths, "jumbo_13x13_26"),
    ];
    for (solver, name) in cases {
        let puzzle = puzzle(name);
        // The counters of a first solve: every timed solve must repeat them exactly.
        let (_, expected) = solve(&puzzle, solver, 1, Limits::default());
        group.bench_function(format!("{solver}/{name}"), |b| {
            b.iter(|| {
                let (status, stats) = solve(&puzzle, solver, 1, Limits::default());
                assert!(matches!(status, Status::Solved(_)), "{solver} on {name}");
                assert_eq!(stats, expected, "{solver} on {name}: counters changed");
                stats
            })
        });
    }
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().without_plots();
    targets = solves
}
criterion_main!(benches);
