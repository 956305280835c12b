//! Flow Free solve times: the public set's hardest puzzles (the target: each under
//! 1 s on one core) with the clause-learning `sat` solver, and the path-extension `paths`
//! solver on the ones it finishes quickly. Every solve must end solved (the solvers check
//! their answers) with the counters recorded here (nodes, backtracks): a change of search
//! shows as a failed count, a change of speed alone as criterion's comparison with the
//! previous run (`cargo bench --bench flow -- --save-baseline before`, then
//! `--baseline before` after a change). jumbo_14x14_30 took 67 ms when `sat` was new and
//! about 1.2x that before the learnt-clause deletion stopped costing the propagation loop
//! a check per watched clause (issue 36).

use arbiter::csp::Limits;
use arbiter::csp::flow::{Puzzle, Solver, Status, solve};
use criterion::{Criterion, criterion_group, criterion_main};
use std::path::PathBuf;
use std::time::Duration;

fn puzzle(name: &str) -> Puzzle {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join("matchups/puzzles/flow/public")
        .join(format!("{name}.txt"));
    Puzzle::read(&path).expect("a shipped puzzle")
}

fn solves(c: &mut Criterion) {
    let mut group = c.benchmark_group("flow");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(3));
    // (solver, puzzle, nodes, backtracks) as `arbiter solve` prints them.
    let cases = [
        (Solver::Sat, "jumbo_14x14_19", 6175, 2472),
        (Solver::Sat, "jumbo_14x14_30", 9328, 3370),
        (Solver::Sat, "jumbo_14x14_01", 2767, 1014),
        (Solver::Sat, "extreme_12x12_29", 2692, 1177),
        (Solver::Paths, "jumbo_13x13_26", 8125, 7981),
    ];
    for (solver, name, nodes, backtracks) in cases {
        let puzzle = puzzle(name);
        let (_, expected) = solve(&puzzle, solver, 1, Limits::default());
        assert_eq!(
            (expected.nodes, expected.backtracks),
            (nodes, backtracks),
            "{solver} on {name}: the search changed"
        );
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
