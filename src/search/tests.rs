use super::*;
use crate::core::seeds;
use crate::evals::breakthrough::{HEURISTICS, Heuristic};
use crate::games::breakthrough::{Breakthrough, Rules};
use crate::games::perft;

fn search(
    state: &Breakthrough,
    algorithm: Algorithm,
    depth: u32,
    heuristic: Heuristic,
    seed: u64,
) -> SearchResult<crate::games::breakthrough::Move> {
    let mut searcher = Searcher::new(heuristic, seed);
    let mut rng = seeds::rng(seed);
    searcher
        .search(state, algorithm, depth, &mut rng)
        .expect("position has moves")
}

/// The oracle every game must pass: on `count` seeded positions reached by random plies,
/// alpha-beta picks minimax's move with minimax's value and never counts more nodes.
fn check_alphabeta_matches_minimax<G: Game, E: Evaluator<G> + Clone>(
    start: &G,
    heuristics: &[E],
    count: usize,
    depths: &[u32],
    deep: u32,
    seed: u64,
) {
    let positions = crate::games::random_positions(start, count, 10, 40, seed);
    // One table searcher per heuristic, kept across positions and depths: its table holds
    // entries of other positions and depths, which must never change a value.
    let mut kept: Vec<Searcher<G, E>> = heuristics
        .iter()
        .map(|h| {
            let mut searcher = Searcher::new(h.clone(), seed);
            searcher.set_table_megabytes(1);
            searcher
        })
        .collect();
    for (i, state) in positions.iter().enumerate() {
        let heuristic = heuristics[i % heuristics.len()].clone();
        let mut all = depths.to_vec();
        if i % 10 == 0 {
            all.push(deep);
        }
        for depth in all {
            let seed = seeds::derive(i as u64, &[u64::from(depth)]);
            let run = |algorithm| {
                let mut searcher = Searcher::new(heuristic.clone(), seed);
                searcher
                    .search(state, algorithm, depth, &mut seeds::rng(seed))
                    .expect("unfinished position")
            };
            let mm = run(Algorithm::Minimax);
            let ab = run(Algorithm::AlphaBeta);
            let context = format!("position {i} depth {depth}\n{}", state.board_dump());
            assert_eq!(ab.best, mm.best, "{context}");
            assert_eq!(ab.value, mm.value, "{context}");
            assert!(ab.stats.expanded <= mm.stats.expanded, "{context}");
            assert!(ab.stats.evaluated <= mm.stats.evaluated, "{context}");
            assert!(ab.stats.generated <= mm.stats.generated, "{context}");
            assert_eq!(mm.stats.expanded_by_level[0], 1);
            // Ordering may pick another move of equal value, never another value.
            for algorithm in [
                Algorithm::AlphaBetaOrdered,
                Algorithm::AlphaBetaKiller,
                Algorithm::AlphaBetaSorted,
                Algorithm::AlphaBetaTt,
            ] {
                let ordered = run(algorithm);
                assert_eq!(ordered.value, mm.value, "{algorithm} {context}");
            }
            let searcher = &mut kept[i % heuristics.len()];
            searcher.noise_seed = seed;
            let tt = searcher
                .search(state, Algorithm::AlphaBetaTt, depth, &mut seeds::rng(seed))
                .expect("unfinished position");
            assert_eq!(tt.value, mm.value, "kept table {context}");
            assert_eq!(tt.reached, depth, "{context}");
            // A narrow aspiration window: iterations that fall outside are searched again,
            // so the value stays minimax's.
            let mut aspiring = Searcher::new(heuristic.clone(), seed);
            aspiring.set_aspiration(0.5);
            let narrow = aspiring
                .search(state, Algorithm::AlphaBetaTt, depth, &mut seeds::rng(seed))
                .expect("unfinished position");
            assert_eq!(narrow.value, mm.value, "aspiration {context}");
            // The evaluation table changes nothing but the number of evaluator calls.
            let cached = run(Algorithm::AlphaBetaCached);
            assert_eq!(
                (cached.best, cached.value),
                (ab.best, ab.value),
                "cached {context}"
            );
            assert_eq!(cached.stats.expanded, ab.stats.expanded, "cached {context}");
            // Its hits are counted apart, among the evaluated leaves.
            assert_eq!(
                cached.stats.evaluated, ab.stats.evaluated,
                "cached {context}"
            );
            assert!(
                cached.stats.cache_hits <= cached.stats.evaluated,
                "{context}"
            );
            assert_eq!(ab.stats.cache_hits, 0, "{context}");
        }
    }
}

#[test]
fn alphabeta_chooses_minimax_move_and_value_with_no_more_nodes() {
    let heuristics: Vec<Heuristic> = HEURISTICS
        .iter()
        .map(|h| Heuristic::from_spec(h.name, &[]).expect("known"))
        .collect();
    for (r, rules) in Rules::ALL.into_iter().enumerate() {
        check_alphabeta_matches_minimax(
            &Breakthrough::new(rules),
            &heuristics,
            200,
            &[1, 2, 3],
            4,
            11 + r as u64,
        );
    }
}

#[test]
fn alphabeta_matches_minimax_on_wights() {
    let material = crate::evals::wights::Material::from_spec("material", &[]).expect("known");
    let queen_heavy =
        crate::evals::wights::Material::from_spec("material", &[("queen_row".into(), "40".into())])
            .expect("valid");
    check_alphabeta_matches_minimax(
        &crate::games::wights::Wights::new(),
        &[material, queen_heavy],
        200,
        &[1, 2, 3, 4],
        6,
        5,
    );
}

#[test]
fn alphabeta_prunes_on_the_start_position() {
    let start = Breakthrough::new(Rules::Standard);
    let heuristic = Heuristic::from_spec("offensive2", &[]).expect("known");
    let mm = search(&start, Algorithm::Minimax, 4, heuristic, 3);
    let ab = search(&start, Algorithm::AlphaBeta, 4, heuristic, 3);
    assert!(ab.stats.evaluated * 3 < mm.stats.evaluated, "{ab:?}");
}

#[test]
fn ordering_buys_fewer_nodes_over_many_positions() {
    let heuristic = Heuristic::from_spec("offensive2", &[]).expect("known");
    let positions =
        crate::games::random_positions(&Breakthrough::new(Rules::Standard), 40, 10, 40, 3);
    let total = |algorithm| -> u64 {
        positions
            .iter()
            .map(|p| search(p, algorithm, 4, heuristic, 9).stats.nodes())
            .sum()
    };
    let plain = total(Algorithm::AlphaBeta);
    let ordered = total(Algorithm::AlphaBetaOrdered);
    let killer = total(Algorithm::AlphaBetaKiller);
    assert!(ordered < plain, "ordered {ordered} vs plain {plain}");
    assert!(killer < plain, "killer {killer} vs plain {plain}");
}

#[test]
fn the_table_saves_nodes_in_deep_searches() {
    // Its iterations are counted too: at depth 6 on the Dragon Queen (many
    // transpositions) it still visits far fewer nodes than the killer variant.
    let material = crate::evals::wights::Material::from_spec("material", &[]).expect("known");
    let positions =
        crate::games::random_positions(&crate::games::wights::Wights::new(), 30, 4, 20, 8);
    let total = |algorithm| -> u64 {
        positions
            .iter()
            .map(|p| {
                let mut searcher = Searcher::new(material, 5);
                searcher
                    .search(p, algorithm, 6, &mut seeds::rng(5))
                    .map_or(0, |r| r.stats.nodes())
            })
            .sum()
    };
    let killer = total(Algorithm::AlphaBetaKiller);
    let table = total(Algorithm::AlphaBetaTt);
    assert!(table * 10 < killer * 8, "tt {table} vs killer {killer}");
}

#[test]
fn aspiration_windows_search_again_when_the_value_falls_outside() {
    let heuristic = Heuristic::from_spec("offensive2", &[]).expect("known");
    let positions =
        crate::games::random_positions(&Breakthrough::new(Rules::Standard), 20, 10, 30, 3);
    let mut researched = 0;
    let (mut narrow_nodes, mut whole_nodes) = (0, 0);
    for state in &positions {
        let whole = search(state, Algorithm::AlphaBetaTt, 4, heuristic, 9);
        let mut searcher = Searcher::new(heuristic, 9);
        searcher.set_aspiration(0.01);
        let narrow = searcher
            .search(state, Algorithm::AlphaBetaTt, 4, &mut seeds::rng(9))
            .expect("moves");
        assert_eq!(narrow.value, whole.value, "{}", state.board_dump());
        researched += searcher.aspiration_researches();
        narrow_nodes += narrow.stats.nodes();
        whole_nodes += whole.stats.nodes();
    }
    // offensive2's values move by whole units between iterations: a 0.01 window misses.
    assert!(researched > 10, "only {researched} searched again");
    assert_ne!(narrow_nodes, whole_nodes);
}

#[test]
fn minimax_counts_every_node_of_the_tree() {
    // No game can end within 3 plies of the start: minimax visits the whole perft tree.
    let start = Breakthrough::new(Rules::Standard);
    let result = search(&start, Algorithm::Minimax, 3, Heuristic::Material, 1);
    let stats = result.stats;
    assert_eq!(stats.expanded_by_level[..3], [1, 22, 484]);
    assert_eq!(stats.expanded, 1 + 22 + 484);
    assert_eq!(stats.evaluated, perft(&start, 3));
    assert_eq!(stats.evaluated_by_level[3], 11_132);
    assert_eq!(stats.generated, stats.expanded + stats.evaluated - 1);
    assert!(stats.peak_bytes > 0);
    assert_eq!(stats.levels_used(), 4);
}

#[test]
fn greedy_expands_the_root_and_evaluates_each_child() {
    let start = Breakthrough::new(Rules::Long);
    let result = search(&start, Algorithm::Greedy, 7, Heuristic::Material, 1);
    assert_eq!(result.stats.expanded, 1);
    assert_eq!(result.stats.evaluated, 28);
}

fn win_in_one() -> Breakthrough {
    // P1 on b7 can step to b8 (win) or take on a8/c8; P2 threatens to win next move.
    Breakthrough::from_dump(
        Rules::Standard,
        "00000000\n20000000\n00000000\n00000000\n00000000\n00000000\n01000000\n00000022\n",
        Player::P1,
    )
    .expect("valid")
}

#[test]
fn every_searching_algorithm_takes_a_win_in_one() {
    let state = win_in_one();
    for algorithm in [Algorithm::Minimax, Algorithm::AlphaBeta, Algorithm::Greedy] {
        for depth in 1..=3 {
            let result = search(&state, algorithm, depth, Heuristic::Material, 5);
            assert_eq!(result.value, WIN_SCORE, "{algorithm} depth {depth}");
            let to = state.geometry().row_of[result.best.to as usize];
            assert_eq!(to, 7, "{algorithm} moves onto the goal row");
        }
    }
}

#[test]
fn depth_two_sees_the_opponent_win_and_scores_the_loss() {
    // P2 on a2 wins next move whatever P1 does (P1 cannot reach it): every P1 move loses.
    let state = Breakthrough::from_dump(
        Rules::Standard,
        "00000001\n20000000\n00000000\n00000000\n00000000\n00000000\n00000000\n22000000\n",
        Player::P1,
    )
    .expect("valid");
    let result = search(&state, Algorithm::AlphaBeta, 2, Heuristic::Material, 5);
    assert_eq!(result.value, -WIN_SCORE);
    let greedy = search(&state, Algorithm::Greedy, 1, Heuristic::Material, 5);
    assert!(greedy.value > -WIN_SCORE, "one ply does not see it");
}

#[test]
fn agents_are_reproducible_from_their_seed() {
    let start = Breakthrough::new(Rules::Standard);
    for algorithm in Algorithm::ALL {
        let play = |seed: u64| {
            let mut agent =
                SearchAgent::new(SearchConfig::fixed(algorithm, 2), Heuristic::Material, seed);
            let mut state = start;
            let mut line = Vec::new();
            for _ in 0..12 {
                let decision = agent.decide(&state, &Limits::NONE);
                line.push(decision.mv);
                state.apply(decision.mv);
            }
            line
        };
        assert_eq!(play(1), play(1), "{algorithm}");
        assert_ne!(play(1), play(2), "{algorithm}: seed changes tie-breaks");
    }
}

/// The `random` agent draws the moves a search agent with `Algorithm::Random` and the
/// same seed draws, to the end of whole games (two Breakthrough rule sets and Othello),
/// so that runs of random agents record the games they recorded before it existed.
#[test]
fn the_random_agent_plays_as_a_random_search_agent() {
    fn games<G: Game, E: Evaluator<G> + ActionEvaluator<G> + Clone>(start: &G, evaluator: E) {
        for seed in 0..20 {
            let mut search = SearchAgent::new(
                SearchConfig::fixed(Algorithm::Random, 0),
                evaluator.clone(),
                seed,
            );
            let mut random = RandomAgent::<G>::new(seed);
            let mut state = start.clone();
            let mut plies = 0;
            while state.outcome().is_none() && plies < 400 {
                let mv = random.decide(&state, &Limits::NONE).mv;
                assert!(
                    mv == search.decide(&state, &Limits::NONE).mv,
                    "seed {seed}, ply {plies}"
                );
                state.apply(mv);
                plies += 1;
            }
            assert!(plies > 2, "seed {seed}: a whole game");
        }
    }
    games(&Breakthrough::new(Rules::Standard), Heuristic::Material);
    games(&Breakthrough::new(Rules::Long), Heuristic::Material);
    games(
        &crate::games::othello::Othello::new(),
        crate::evals::othello::Heuristic::Discs(1.0),
    );
}

#[test]
fn algorithm_names_round_trip() {
    for algorithm in Algorithm::ALL {
        assert_eq!(algorithm.name().parse::<Algorithm>(), Ok(algorithm));
    }
    let err = "uct".parse::<Algorithm>().expect_err("unknown");
    assert!(err.contains("unknown algorithm 'uct'") && err.contains("alphabeta"));
}

mod beam_and_budgets {
    use super::*;
    use crate::core::ActionEvaluator;
    use crate::evals::chinese_checkers::Heuristic as CcHeuristic;
    use crate::games::chinese_checkers::{ChineseCheckers, Rules as CcRules};

    fn cc_positions(count: usize) -> Vec<ChineseCheckers> {
        crate::games::random_positions(&ChineseCheckers::new(CcRules::default()), count, 4, 30, 8)
    }

    #[test]
    fn beam_at_depth_zero_is_greedy_on_the_action_score() {
        let heuristic = CcHeuristic::Report004 { hex: false };
        for state in cc_positions(20) {
            let mut searcher = Searcher::new(heuristic, 1);
            let result = searcher
                .beam(&state, 0, 4, 1.0, &mut seeds::rng(3))
                .expect("moves");
            let mut moves = Vec::new();
            state.legal_moves(&mut moves);
            let best = moves
                .iter()
                .map(|&m| heuristic.score(&state, m, 1))
                .fold(f64::NEG_INFINITY, f64::max);
            assert_eq!(result.value, best);
            assert_eq!(heuristic.score(&state, result.best, 1), best);
            assert_eq!(result.stats.expanded, 1);
            assert_eq!(result.stats.evaluated, moves.len() as u64);
        }
    }

    #[test]
    fn deeper_beam_looks_at_k_moves_and_replies() {
        let heuristic = CcHeuristic::Report004 { hex: false };
        let start = ChineseCheckers::new(CcRules::default());
        let mut searcher = Searcher::new(heuristic, 1);
        let result = searcher
            .beam(&start, 2, 3, 0.9, &mut seeds::rng(3))
            .expect("moves");
        let mut moves = Vec::new();
        start.legal_moves(&mut moves);
        assert!(moves.contains(&result.best));
        // Root, 3 replies, 3 second-level positions, 3 x 3 replies and leaves at level 2.
        assert!(result.stats.expanded > 10, "{:?}", result.stats);
        assert!(result.complete);
    }

    #[test]
    fn a_one_millisecond_budget_still_gives_a_legal_move() {
        let cc = ChineseCheckers::new(CcRules::default());
        for algorithm in [Algorithm::AlphaBeta, Algorithm::Minimax, Algorithm::Beam] {
            let config = SearchConfig {
                time_ms: Some(1),
                depth: 0,
                ..SearchConfig::fixed(algorithm, 0)
            };
            let mut agent = SearchAgent::new(config, CcHeuristic::Distance, 5);
            let mut state = cc;
            for _ in 0..6 {
                let decision = agent.decide(&state, &Limits::NONE);
                let mut legal = Vec::new();
                state.legal_moves(&mut legal);
                assert!(legal.contains(&decision.mv), "{algorithm}");
                state.apply(decision.mv);
            }
        }
        // A generous budget on Breakthrough reaches at least depth 2 (depth 3 is the cap,
        // reached in milliseconds, so the budget is not spent unless the machine is loaded).
        let config = SearchConfig {
            time_ms: Some(10_000),
            ..SearchConfig::fixed(Algorithm::AlphaBeta, 3)
        };
        let mut agent = SearchAgent::new(config, Heuristic::Material, 5);
        let decision = agent.decide(&Breakthrough::new(Rules::Standard), &Limits::NONE);
        assert!(decision.depth >= 2, "reached {}", decision.depth);
        assert!(decision.depth <= 3, "never deeper than the depth cap");
    }

    #[test]
    fn a_node_budget_deepens_as_far_as_it_allows_and_replays_exactly() {
        let heuristic = Heuristic::from_spec("offensive2", &[]).expect("known");
        let start = Breakthrough::new(Rules::Standard);
        for algorithm in [
            Algorithm::AlphaBeta,
            Algorithm::AlphaBetaTt,
            Algorithm::Minimax,
        ] {
            let agent = |nodes| {
                let config = SearchConfig {
                    nodes: Some(nodes),
                    ..SearchConfig::fixed(algorithm, 0)
                };
                SearchAgent::new(config, heuristic, 5)
            };
            let mut depths = Vec::new();
            for nodes in [30, 600, 20_000] {
                let first = agent(nodes).decide(&start, &Limits::NONE);
                let again = agent(nodes).decide(&start, &Limits::NONE);
                assert_eq!(
                    (first.mv, first.depth, first.stats.nodes()),
                    (again.mv, again.depth, again.stats.nodes()),
                    "{algorithm} {nodes}: a node budget is deterministic"
                );
                // The search stops at the first node past the budget.
                assert!(
                    first.stats.nodes() <= nodes + 1,
                    "{algorithm}: {} nodes for a budget of {nodes}",
                    first.stats.nodes()
                );
                depths.push(first.depth);
            }
            // Minimax's depth 2 from the start counts 1 + 22 + 484 = 507 nodes, depth 3 more.
            assert!(depths[0] <= 1 && depths[1] >= 2, "{algorithm} {depths:?}");
            assert!(
                depths.windows(2).all(|w| w[0] <= w[1]),
                "{algorithm} {depths:?}"
            );
            assert!(depths[2] >= 3, "{algorithm} {depths:?}");
        }
    }

    #[test]
    fn simple_greedy_plays_a_largest_advance() {
        let mut agent = SearchAgent::new(
            SearchConfig::fixed(Algorithm::SimpleGreedy, 0),
            CcHeuristic::Distance,
            2,
        );
        for state in cc_positions(20) {
            let decision = agent.decide(&state, &Limits::NONE);
            let mut moves = Vec::new();
            state.legal_moves(&mut moves);
            let best = moves
                .iter()
                .map(|&m| state.move_order_score(m))
                .max()
                .expect("moves");
            assert_eq!(state.move_order_score(decision.mv), best);
        }
    }
}

#[test]
fn alphabeta_matches_minimax_on_double_card() {
    use crate::evals::double_card::Heuristic as DcHeuristic;
    use crate::games::double_card::{DoubleCard, Params};
    let heuristics = [
        DcHeuristic::from_spec("lines", &[]).expect("known"),
        DcHeuristic::from_spec("danger", &[]).expect("known"),
    ];
    check_alphabeta_matches_minimax(
        &DoubleCard::new(Params::default()),
        &heuristics,
        30,
        &[1, 2],
        2,
        9,
    );
}

#[test]
fn tables_allocated_before_the_search_change_nothing() {
    // compare allocates a fresh searcher's tables before its clock starts; the search
    // must then be the one it would have been (and allocate nothing more).
    let heuristic = Heuristic::from_spec("offense", &[]).expect("known");
    let positions =
        crate::games::random_positions(&Breakthrough::new(Rules::Standard), 10, 10, 30, 4);
    for algorithm in [Algorithm::AlphaBetaCached, Algorithm::AlphaBetaTt] {
        for state in &positions {
            let mut ahead = Searcher::new(heuristic, 3);
            assert!(ahead.tt.is_empty() && ahead.cache.is_empty());
            ahead.allocate_tables(algorithm);
            let table = (ahead.tt.len(), ahead.cache.len());
            assert!(table.0 + table.1 > 0, "{algorithm}: nothing allocated");
            let mut rng = seeds::rng(3);
            let early = ahead.search(state, algorithm, 3, &mut rng).expect("moves");
            assert_eq!((ahead.tt.len(), ahead.cache.len()), table);
            let late = search(state, algorithm, 3, heuristic, 3);
            assert_eq!(
                (early.best, early.value, early.stats.nodes()),
                (late.best, late.value, late.stats.nodes()),
                "{algorithm}"
            );
        }
    }
}

#[test]
fn a_harness_deadline_is_aimed_at_a_little_early() {
    use super::aim_before;
    use std::time::{Duration, Instant};
    let now = Instant::now();
    let ms = Duration::from_millis;
    assert_eq!(aim_before(now + ms(100), now), now + ms(95));
    assert_eq!(aim_before(now + ms(1000), now), now + ms(990));
    assert_eq!(
        aim_before(now + ms(1), now),
        now + Duration::from_micros(950)
    );
    // A deadline already past is left as it is.
    assert_eq!(aim_before(now, now + ms(5)), now);
}

#[test]
fn alphabeta_matches_minimax_on_connect_four() {
    use crate::evals::connect_four::Heuristic as C4Heuristic;
    use crate::games::connect_four::{ConnectFour, Params};
    let heuristics = [
        C4Heuristic::from_spec("windows", &[]).expect("known"),
        C4Heuristic::from_spec("threats", &[]).expect("known"),
    ];
    for params in [
        Params::default(),
        Params {
            rows: 4,
            columns: 5,
        },
    ] {
        check_alphabeta_matches_minimax(
            &ConnectFour::new(params),
            &heuristics,
            200,
            &[1, 2, 3, 4],
            6,
            12,
        );
    }
}

#[test]
fn alphabeta_matches_minimax_on_othello() {
    use crate::evals::othello::Heuristic as OthelloHeuristic;
    use crate::games::othello::Othello;
    let heuristics = [
        OthelloHeuristic::from_spec("squares", &[]).expect("known"),
        OthelloHeuristic::from_spec("mobility", &[]).expect("known"),
    ];
    check_alphabeta_matches_minimax(&Othello::new(), &heuristics, 100, &[1, 2, 3], 5, 13);
}

/// Expectimax by brute force: every position of the tree to `depth` players' moves, chance
/// averaged; also counts the inner positions (expanded) and the leaves (evaluated).
fn brute_expectimax(
    state: &crate::games::einstein::Einstein,
    depth: u32,
    root: Player,
    heuristic: &crate::evals::einstein::Heuristic,
    counts: &mut (u64, u64),
) -> f64 {
    if let Some(outcome) = state.outcome() {
        counts.1 += 1;
        return terminal_score(outcome, root);
    }
    if state.is_chance() {
        counts.0 += 1;
        let mut outcomes = Vec::new();
        state.chance_outcomes(&mut outcomes);
        return outcomes
            .iter()
            .map(|&(mv, p)| {
                let mut child = *state;
                child.apply(mv);
                p * brute_expectimax(&child, depth, root, heuristic, counts)
            })
            .sum();
    }
    if depth == 0 {
        counts.1 += 1;
        return heuristic.evaluate(state, root, 0);
    }
    counts.0 += 1;
    let mut moves = Vec::new();
    state.legal_moves(&mut moves);
    let values = moves.iter().map(|&mv| {
        let mut child = *state;
        child.apply(mv);
        brute_expectimax(&child, depth - 1, root, heuristic, counts)
    });
    let values: Vec<f64> = values.collect();
    if state.to_move() == root {
        values.into_iter().fold(f64::NEG_INFINITY, f64::max)
    } else {
        values.into_iter().fold(f64::INFINITY, f64::min)
    }
}

#[test]
fn expectimax_equals_the_brute_force_expectation_and_counts_every_position() {
    use crate::games::einstein::Einstein;
    let heuristic = crate::evals::einstein::Heuristic::from_spec("race", &[]).expect("race");
    let mut outcomes = Vec::new();
    let mut moves = Vec::new();
    let mut tested = 0;
    for game in 0..12u64 {
        // A position some random plies into a game, with the die rolled.
        let mut rng = seeds::rng(seeds::derive(41, &[game]));
        let mut state = Einstein::new();
        let plies = 3 + seeds::below(&mut rng, 20);
        for _ in 0..plies {
            if state.outcome().is_some() {
                break;
            }
            if state.is_chance() {
                state.chance_outcomes(&mut outcomes);
                let mv = crate::core::chance_outcome(&outcomes, seeds::unit(&mut rng));
                state.apply(mv.expect("outcome"));
            } else {
                state.legal_moves(&mut moves);
                state.apply(moves[seeds::below(&mut rng, moves.len())]);
            }
        }
        if state.outcome().is_some() || state.is_chance() {
            continue;
        }
        tested += 1;
        for depth in 1..=3 {
            let mut counts = (0, 0);
            let expected =
                brute_expectimax(&state, depth, state.to_move(), &heuristic, &mut counts);
            let mut searcher = Searcher::new(heuristic, 7);
            let result = searcher
                .search(&state, Algorithm::Expectimax, depth, &mut seeds::rng(7))
                .expect("moves");
            assert!(
                (result.value - expected).abs() < 1e-9 * expected.abs().max(1.0),
                "game {game} depth {depth}: {} against {expected}",
                result.value
            );
            assert_eq!(
                (result.stats.expanded, result.stats.evaluated),
                counts,
                "game {game} depth {depth}"
            );
        }
    }
    assert!(tested >= 4, "only {tested} positions tested");
}

#[test]
fn expectimax_without_chance_is_minimax() {
    let start = Breakthrough::new(Rules::Small);
    let heuristic =
        Heuristic::from_spec("offensive2", &[("noise".into(), "0".into())]).expect("offensive2");
    for depth in 1..=3 {
        let a = search(&start, Algorithm::Expectimax, depth, heuristic, 3);
        let b = search(&start, Algorithm::Minimax, depth, heuristic, 3);
        assert_eq!(
            (a.best, a.value, a.stats.nodes()),
            (b.best, b.value, b.stats.nodes())
        );
    }
}

#[test]
fn the_margin_solver_equals_plain_minimax_on_late_othello_positions_and_plays_its_margin() {
    use crate::games::othello::Othello;
    use crate::games::testing::minimax_margin;
    let mut checked = 0;
    for seed in 0..10u64 {
        // A seeded random game to 11 empty squares: two more than Othello's own endgame
        // search takes, so the solver's table and order run above it.
        let Some(state) = late_othello(seed, 53) else {
            continue;
        };
        let solved = crate::search::solve::Solver::<Othello>::new(4, crate::core::Limits::NONE)
            .by_margin()
            .solve(&state)
            .expect("no limit");
        let exact = minimax_margin(&state);
        assert_eq!(solved.margin, Some(exact), "seed {seed}");
        let mut child = state;
        child.apply(solved.best.expect("a best move"));
        assert_eq!(-minimax_margin(&child), exact, "seed {seed}: the best move");
        checked += 1;
    }
    assert!(checked >= 8, "{checked}");
}

#[test]
fn a_wipe_out_is_worth_the_whole_board_and_the_margin_solver_plays_it() {
    use crate::games::othello::Othello;
    // Black (X) on d4 and e4, White's only disc on f4, Black to move: g4 takes it and ends
    // the game, 61 empty squares to the winner: +64, the best margin there is.
    let mut board = ['-'; 64];
    board[27] = 'X';
    board[28] = 'X';
    board[29] = 'O';
    let text: String = board.iter().collect::<String>() + " X";
    let state = Othello::new()
        .read_position(&text)
        .expect("Othello reads boards")
        .expect("a good board");
    let solved = crate::search::solve::Solver::<Othello>::new(4, crate::core::Limits::NONE)
        .by_margin()
        .solve(&state)
        .expect("no limit");
    assert_eq!(solved.margin, Some(64));
    assert_eq!(solved.best, Some(30), "g4");
    // The solver's first test is at the best its game promises (64 here: White has no
    // disc that can never turn), and it holds.
    assert!(solved.visited <= 8, "{} positions", solved.visited);
}

#[test]
fn the_value_of_a_margin_game_is_the_sign_of_its_margin_and_its_move_keeps_it() {
    use crate::games::othello::Othello;
    use crate::games::testing::minimax_margin;
    use crate::search::solve::{Solver, Value};
    let sign = Value::of_margin;
    let mut seen = [0usize; 3];
    for seed in 0..60u64 {
        // Seeded random games to 10 or 11 empty squares (above Othello's own endgame
        // search, so the solver's table and order run too).
        let Some(state) = late_othello(seed, 53 + (seed % 2) as u32) else {
            continue;
        };
        let solved = Solver::<Othello>::new(4, crate::core::Limits::NONE)
            .value_for(&state)
            .solve(&state)
            .expect("no limit");
        let exact = minimax_margin(&state);
        assert_eq!(solved.value, sign(exact), "seed {seed}: margin {exact}");
        assert_eq!(solved.margin, None, "the value alone");
        let mut child = state;
        child.apply(solved.best.expect("a best move"));
        let kept = if child.to_move() == state.to_move() {
            minimax_margin(&child)
        } else {
            -minimax_margin(&child)
        };
        assert_eq!(
            sign(kept),
            sign(exact),
            "seed {seed}: the move keeps the value"
        );
        seen[match sign(exact) {
            Value::Win(_) => 0,
            Value::Draw => 1,
            Value::Loss(_) => 2,
        }] += 1;
    }
    eprintln!("won, drawn, lost: {seen:?}");
    assert!(seen.iter().all(|&n| n > 0), "every kind of value: {seen:?}");
}

/// A seeded random Othello game played until `filled` squares hold discs, or `None` if it
/// ended first.
fn late_othello(seed: u64, filled: u32) -> Option<crate::games::othello::Othello> {
    let mut state = crate::games::othello::Othello::new();
    let mut moves = Vec::new();
    let mut ply = 0u64;
    while state.outcome().is_none()
        && state.piece_count(Player::P1) + state.piece_count(Player::P2) < filled
    {
        state.legal_moves(&mut moves);
        let pick = seeds::mix64(seed ^ ply.wrapping_mul(0x9e37)) as usize;
        state.apply(moves[pick % moves.len()]);
        ply += 1;
    }
    state.outcome().is_none().then_some(state)
}
