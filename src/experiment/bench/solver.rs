//! The exact solver against a dedicated one: Connect Four positions from seeded random
//! games solved by `search::solve` (value and distance, the table `solve-game` gives it)
//! and by the dedicated solver of `bare_connect_four`, in turn, the values compared.

use super::bare_connect_four as bare;
use super::{Error, Figure, Result, Say};
use crate::core::{Game, Limits};
use crate::games::connect_four::{ConnectFour, Params};
use crate::games::random_positions;
use crate::search::solve::Solver;
use std::time::Instant;

/// The dedicated solver's table: 2^22 entries of 8 bytes (32 MB), cleared per position.
const BARE_TABLE_BITS: u32 = 22;

/// The moves of `state` from the start, as solvers write them (`4453`).
fn moves_text(state: &ConnectFour, start: &ConnectFour) -> String {
    // Replays are cheaper than keeping the lines: find each disc's column by playing.
    let mut text = String::new();
    let mut position = *start;
    let mut moves = Vec::new();
    while position.plies() < state.plies() {
        position.legal_moves(&mut moves);
        let Some(&mv) = moves.iter().find(|&&mv| {
            let mut next = position;
            next.apply(mv);
            next.occupied() & !state.occupied() == 0
                && next.discs(position.to_move()) & !state.discs(position.to_move()) == 0
        }) else {
            break;
        };
        position.write_move(mv, &mut text);
        position.apply(mv);
    }
    text
}

/// `count` positions `min..=max` plies into seeded random games, each solved by both
/// solvers `rounds` times in turn; the values must agree.
pub fn compare(
    params: Params,
    count: usize,
    plies: (usize, usize),
    rounds: u32,
    say: Say,
) -> Result<()> {
    let start = ConnectFour::new(params);
    let Some(mut dedicated) = bare::Solver::new(
        u32::from(params.rows),
        u32::from(params.columns),
        BARE_TABLE_BITS,
    ) else {
        say(format!(
            "exact solver: no dedicated solver for {params} (boards up to 55 bits with a guard row)"
        ));
        return Ok(());
    };
    let positions = random_positions(&start, count, plies.0, plies.1, 2026);
    let megabytes = crate::experiment::solve_game::DEFAULT_TT_MB as usize;
    let mut figures = [
        Figure::new("exact solver (search::solve), whole set", "s"),
        Figure::new("dedicated Connect Four solver, whole set", "s"),
    ];
    let mut ratio = Figure::new("exact solver time / dedicated solver time", "x");
    let mut visits = [0u64; 2];
    for _ in 0..rounds {
        let mut seconds = [0.0f64; 2];
        visits = [0; 2];
        for position in &positions {
            let clock = Instant::now();
            let mut solver = Solver::<ConnectFour>::new(megabytes, Limits::NONE);
            let generic = solver.solve(position).map(|s| s.value);
            seconds[0] += clock.elapsed().as_secs_f64();
            visits[0] += solver.visited();
            let before = dedicated.nodes;
            let clock = Instant::now();
            let value = bare::value(&mut dedicated, position);
            seconds[1] += clock.elapsed().as_secs_f64();
            visits[1] += dedicated.nodes - before;
            if generic != Some(value) {
                return Err(Error::Message(format!(
                    "the exact solver says {} and the dedicated solver {value} for connect-four({params}) after {}",
                    generic.map_or("nothing".to_string(), |v| v.to_string()),
                    moves_text(position, &start)
                )));
            }
        }
        figures[0].values.push(seconds[0]);
        figures[1].values.push(seconds[1]);
        ratio.values.push(seconds[0] / seconds[1].max(1e-9));
    }
    say(format!(
        "exact solver against a dedicated Connect Four solver: {} positions {}-{} plies into seeded random games, values and distances equal ({rounds} round{} in turn; median [min .. max], 1 thread):",
        positions.len(),
        plies.0,
        plies.1,
        if rounds == 1 { "" } else { "s" }
    ));
    for figure in figures.iter().chain([&ratio]) {
        say(format!("  {}", figure.line()));
    }
    say(format!(
        "  positions visited: {} against {} ({:.2}x)",
        visits[0],
        visits[1],
        visits[0] as f64 / visits[1].max(1) as f64
    ));
    Ok(())
}
