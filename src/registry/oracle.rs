//! The search ladder checked against exact values: on positions of every built-in game whose
//! value the solver proves ([`crate::search::solve`]), every complete search algorithm at a
//! depth that reaches the end under perfect play returns that value and plays a move that
//! keeps it.
//!
//! Why a proven value pins a depth-limited search: if the side to move wins in `d` plies,
//! every line of its winning strategy ends within `d` plies, so any minimax-equivalent search
//! of depth `d` or more scores the position `WIN_SCORE` (heuristic values stay below it);
//! a loss in `d` scores `-WIN_SCORE`. A draw is pinned only where every line ends within the
//! depth (the search then sees no heuristic value at all) and scores 0.

use super::{GameEntry, GameSpec, GameTask, dispatch};
use crate::core::{Game, Limits, seeds};
use crate::search::solve::{Solver, Value};
use crate::search::{Algorithm, Searcher, WIN_SCORE};

/// The alpha-beta family: every algorithm that must return minimax's value.
const ALPHA_BETAS: [Algorithm; 6] = [
    Algorithm::AlphaBeta,
    Algorithm::AlphaBetaOrdered,
    Algorithm::AlphaBetaKiller,
    Algorithm::AlphaBetaSorted,
    Algorithm::AlphaBetaCached,
    Algorithm::AlphaBetaTt,
];

/// Positions to draw and what to check on them.
struct Oracle {
    count: usize,
    min_plies: usize,
    max_plies: usize,
    /// The deepest search run (alpha-beta family); minimax only to `minimax_depth`.
    max_depth: u32,
    minimax_depth: u32,
    seed: u64,
}

/// What one game's check covered.
#[derive(Debug, Default)]
struct Covered {
    /// Positions proven won or lost, searched by every algorithm.
    decisive: usize,
    /// Drawn positions whose every line ends within the depth, searched the same way.
    draws: usize,
}

/// Whether every line from `state` ends within `plies` plies.
fn ends_within<G: Game>(state: &G, plies: u32) -> bool {
    if state.outcome().is_some() {
        return true;
    }
    if plies == 0 {
        return false;
    }
    let mut moves = Vec::new();
    state.legal_moves(&mut moves);
    moves.iter().all(|&m| {
        let mut child = state.clone();
        child.apply(m);
        ends_within(&child, plies - 1)
    })
}

impl GameTask for Oracle {
    type Output = Covered;

    fn run<G: GameEntry>(self, start: G) -> Covered {
        let name = G::heuristics()[0].name;
        let heuristic = start.heuristic(name, &[]).expect("default parameters");
        let spec = start.game_spec();
        let mut covered = Covered::default();
        let positions = crate::games::random_positions(
            &start,
            self.count,
            self.min_plies,
            self.max_plies,
            self.seed,
        );
        for (i, state) in positions.iter().enumerate() {
            let mut solver = Solver::new(4, Limits::NONE).with_node_limit(200_000);
            let Some(solved) = solver.solve(state) else {
                continue;
            };
            let depth = match solved.value {
                Value::Win(Some(d)) | Value::Loss(Some(d)) if d <= self.max_depth => d,
                Value::Draw if self.max_depth <= 8 && ends_within(state, self.max_depth.min(8)) => {
                    self.max_depth.min(8)
                }
                _ => continue,
            };
            let expected = match solved.value {
                Value::Win(_) => WIN_SCORE,
                Value::Loss(_) => -WIN_SCORE,
                Value::Draw => 0.0,
            };
            let mut algorithms = ALPHA_BETAS.to_vec();
            if depth <= self.minimax_depth {
                algorithms.push(Algorithm::Minimax);
            }
            let context = format!(
                "{spec}, position {i} ({}):\n{}",
                solved.value,
                state.board_dump()
            );
            for algorithm in algorithms {
                let seed = seeds::derive(self.seed, &[i as u64]);
                let mut searcher = Searcher::new(heuristic.clone(), seed);
                let result = searcher
                    .search(state, algorithm, depth.max(1), &mut seeds::rng(seed))
                    .expect("an unfinished position has moves");
                assert_eq!(
                    result.value, expected,
                    "{algorithm} at depth {depth} on {context}"
                );
                // The move keeps the value: after it, the other side has the opposite.
                let mut child = state.clone();
                child.apply(result.best);
                let after = Solver::new(4, Limits::NONE)
                    .solve(&child)
                    .expect("no limit")
                    .value
                    .before_move();
                assert_eq!(
                    after.rank().signum(),
                    solved.value.rank().signum(),
                    "{algorithm} at depth {depth} plays {} ({after}) on {context}",
                    state.format_move(result.best)
                );
            }
            match solved.value {
                Value::Draw => covered.draws += 1,
                _ => covered.decisive += 1,
            }
        }
        covered
    }
}

fn check(spec: &str, oracle: Oracle) -> Covered {
    let game: GameSpec = spec.parse().expect("a built-in game");
    dispatch(game, oracle)
}

#[test]
fn small_connect_four_boards_every_algorithm_returns_the_proven_value() {
    for spec in [
        "connect-four(rows=4,columns=4)",
        "connect-four(rows=4,columns=5)",
        "connect-four(rows=5,columns=4)",
    ] {
        let covered = check(
            spec,
            Oracle {
                count: 150,
                min_plies: 6,
                max_plies: 14,
                max_depth: 8,
                minimax_depth: 6,
                seed: 3,
            },
        );
        assert!(covered.decisive >= 30, "{spec}: {covered:?}");
        assert!(covered.draws >= 10, "{spec}: {covered:?}");
    }
}

#[test]
fn late_positions_of_every_game_every_algorithm_returns_the_proven_value() {
    // (game, plies into the game, least decisive positions checked)
    let cases = [
        ("breakthrough", 40, 70, 12),
        ("breakthrough(rules=three-to-base)", 60, 110, 6),
        ("breakthrough(rules=long)", 30, 60, 40),
        ("breakthrough(rules=small)", 10, 24, 35),
        ("wights", 10, 40, 7),
        ("chinese-checkers", 60, 120, 3),
        ("double-card", 20, 40, 40),
        ("connect-four", 20, 36, 30),
        ("othello", 50, 58, 12),
    ];
    for (spec, min_plies, max_plies, least) in cases {
        let covered = check(
            spec,
            Oracle {
                count: 80,
                min_plies,
                max_plies,
                max_depth: 5,
                minimax_depth: 3,
                seed: 17,
            },
        );
        eprintln!("{spec}: {covered:?}");
        assert!(covered.decisive >= least, "{spec}: {covered:?}");
    }
}

#[test]
fn tic_tac_toe_through_its_rules_program_every_algorithm_returns_the_proven_value() {
    let python = std::process::Command::new("python3")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !python {
        assert!(
            std::env::var_os("ARBITER_REQUIRE_COMPONENTS").is_none(),
            "python3 is missing and ARBITER_REQUIRE_COMPONENTS is set"
        );
        eprintln!("\n*** SKIPPED: python3 is missing; install python3 ***\n");
        return;
    }
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let program = root.join("clients/python/examples/tic_tac_toe_game.py");
    let mut registry = super::AgentRegistry::default();
    registry.record_game(
        "ttt",
        crate::external::rules::RulesSpec::new(
            vec!["python3".into(), program.display().to_string()],
            root.to_path_buf(),
        ),
        &root.join("agents/games.toml"),
    );
    let game = registry.game("ttt").expect("the rules program starts");
    // Every position from the second ply on ends within 8 plies: draws are checked too.
    let covered = dispatch(
        game,
        Oracle {
            count: 40,
            min_plies: 1,
            max_plies: 6,
            max_depth: 8,
            minimax_depth: 6,
            seed: 9,
        },
    );
    crate::external::rules::stop_rules_programs();
    assert!(covered.decisive >= 10, "{covered:?}");
    assert!(covered.draws >= 5, "{covered:?}");
}
