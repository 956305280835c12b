//! Cost of the two Double Card heuristics per call as cards accumulate (report 003
//! compared their computing time as the board fills), and of alpha-beta with the variants
//! of report 003's search improvements, checked against plain alpha-beta's value.

use arbiter::core::{Evaluator, Player, seeds};
use arbiter::evals::double_card::Heuristic;
use arbiter::games::double_card::{DoubleCard, Params};
use arbiter::search::{Algorithm, Searcher};
use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;

/// A position with `cards` cards, reached by seeded random placements that make no line.
fn position(cards: usize, seed: u64) -> DoubleCard {
    DoubleCard::new(Params::default()).quiet_filling(cards, seed)
}

fn bench_heuristics(c: &mut Criterion) {
    let mut group = c.benchmark_group("double-card heuristic per call");
    for cards in [4, 12, 24] {
        let state = position(cards, cards as u64);
        for name in ["lines", "danger"] {
            let heuristic = Heuristic::from_spec(name, &[]).expect("known");
            group.bench_function(format!("{name}, {cards} cards"), |b| {
                b.iter(|| heuristic.evaluate(black_box(&state), Player::P1, 0))
            });
        }
    }
    group.finish();
}

fn bench_search_variants(c: &mut Criterion) {
    let state = position(8, 3);
    let heuristic = Heuristic::from_spec("danger", &[]).expect("known");
    let value = |algorithm| {
        let mut searcher = Searcher::new(heuristic, 1);
        searcher
            .search(&state, algorithm, 2, &mut seeds::rng(1))
            .expect("moves")
            .value
    };
    let reference = value(Algorithm::AlphaBeta);
    let mut group = c.benchmark_group("double-card alpha-beta depth 2");
    for algorithm in [
        Algorithm::AlphaBeta,
        Algorithm::AlphaBetaSorted,
        Algorithm::AlphaBetaCached,
    ] {
        assert_eq!(
            value(algorithm),
            reference,
            "{algorithm} must find alpha-beta's value"
        );
        group.bench_function(algorithm.name(), |b| b.iter(|| value(algorithm)));
    }
    group.finish();
}

// No plots: criterion's plotters backend would look for a system font, and this crate
// turns on plotters' embedded-font feature, which has none registered for criterion.
criterion_group! {
    name = benches;
    config = Criterion::default().without_plots();
    targets = bench_heuristics, bench_search_variants
}
criterion_main!(benches);
