use super::*;
use crate::core::{Agent, Limits, MoveError, Outcome, seeds, seeds::mix64};
use crate::games::star_checkers::{Rules, StarCheckers};
use crate::search::{Algorithm, SearchAgent, SearchConfig, agent_rng};

/// A game tree for tests: `players` seats moving in turn, `branching` moves everywhere,
/// `plies` deep; a position is its path (hashed). Any seat may be put to move.
#[derive(Clone, Debug, PartialEq)]
struct Tree {
    players: usize,
    branching: u8,
    plies: u8,
    path: u64,
    played: u8,
    to_move: Player,
}

impl Tree {
    fn new(players: usize, branching: u8, plies: u8, seed: u64) -> Tree {
        Tree {
            players,
            branching,
            plies,
            path: seed,
            played: 0,
            to_move: Player::P1,
        }
    }
}

impl Game for Tree {
    type Move = u8;

    fn to_move(&self) -> Player {
        self.to_move
    }

    fn players(&self) -> usize {
        self.players
    }

    fn put_to_move(&mut self, player: Player) -> bool {
        self.to_move = player;
        true
    }

    fn legal_moves(&self, out: &mut Vec<u8>) {
        out.clear();
        if self.played < self.plies {
            out.extend(0..self.branching);
        }
    }

    fn apply(&mut self, mv: u8) {
        self.path = mix64(self.path ^ (u64::from(mv) + 1) ^ (self.to_move.index() as u64) << 8);
        self.played += 1;
        self.to_move = self.to_move.next(self.players);
    }

    fn outcome(&self) -> Option<Outcome> {
        (self.played >= self.plies).then_some(Outcome {
            winner: None,
            reason: "leaf",
        })
    }

    fn position_hash(&self) -> u64 {
        self.path
    }

    fn piece_count(&self, _player: Player) -> u32 {
        0
    }

    fn write_move(&self, mv: u8, out: &mut String) {
        out.push_str(&mv.to_string());
    }

    fn parse_move(&self, text: &str) -> Result<u8, MoveError> {
        text.parse().map_err(|_| MoveError {
            text: text.to_string(),
            reason: "not a number".to_string(),
        })
    }

    fn board_dump(&self) -> String {
        format!("{:x}", self.path)
    }

    fn position_json(&self) -> serde_json::Value {
        serde_json::json!(self.path)
    }
}

/// Each seat's share of a position (from its hash, summing to 1), scaled so that the
/// values sum to 0 and stay within [-B, (n - 1) B]: the bound max^n's pruning needs.
#[derive(Clone, Copy)]
struct Shares {
    bound: f64,
}

impl Shares {
    fn shares(state: &Tree) -> Vec<f64> {
        let raw: Vec<f64> = (0..state.players)
            .map(|i| (mix64(state.path ^ (i as u64 + 7)) % 1000) as f64 + 1.0)
            .collect();
        let total: f64 = raw.iter().sum();
        raw.iter().map(|r| r / total).collect()
    }
}

impl Evaluator<Tree> for Shares {
    fn evaluate(&self, state: &Tree, root: Player, _noise_seed: u64) -> f64 {
        // Leaves only: a finished tree has no winner, so its evaluation is the heuristic.
        let n = state.players as f64;
        n * self.bound * Shares::shares(state)[root.index()] - self.bound
    }
}

/// A leaf's values as the searches see them: a finished tree is a draw for all (0),
/// any other position its heuristic.
fn leaf(state: &Tree, root: Player, evaluator: &Shares) -> f64 {
    if state.outcome().is_some() {
        0.0
    } else {
        evaluator.evaluate(state, root, 0)
    }
}

fn children(state: &Tree) -> Vec<Tree> {
    let mut moves = Vec::new();
    state.legal_moves(&mut moves);
    moves
        .into_iter()
        .map(|mv| {
            let mut child = state.clone();
            child.apply(mv);
            child
        })
        .collect()
}

/// max^n by its definition: every seat's centred values, the mover's best child (the
/// first of equals).
fn brute_maxn(state: &Tree, depth: usize, evaluator: &Shares) -> Vec<f64> {
    if depth == 0 || state.outcome().is_some() {
        if state.outcome().is_some() {
            return vec![0.0; state.players];
        }
        let values: Vec<f64> = Player::seats(state.players)
            .iter()
            .map(|&p| evaluator.evaluate(state, p, 0))
            .collect();
        let mean = values.iter().sum::<f64>() / values.len() as f64;
        return values.iter().map(|v| v - mean).collect();
    }
    let mover = state.to_move().index();
    let mut best: Option<Vec<f64>> = None;
    for child in children(state) {
        let values = brute_maxn(&child, depth - 1, evaluator);
        if best.as_ref().is_none_or(|b| values[mover] > b[mover]) {
            best = Some(values);
        }
    }
    best.expect("moves")
}

/// The paranoid value by its definition: the root maximises, everyone else minimises.
fn brute_paranoid(state: &Tree, depth: usize, root: Player, evaluator: &Shares) -> f64 {
    if depth == 0 || state.outcome().is_some() {
        return leaf(state, root, evaluator);
    }
    let values = children(state)
        .into_iter()
        .map(|child| brute_paranoid(&child, depth - 1, root, evaluator));
    if state.to_move() == root {
        values.fold(f64::NEG_INFINITY, f64::max)
    } else {
        values.fold(f64::INFINITY, f64::min)
    }
}

/// Best-reply search by its definition: at the root's layers its moves, at the others'
/// every move of every opponent (put to move), the worst for the root.
fn brute_brs(
    state: &Tree,
    depth: usize,
    root: Player,
    maximizing: bool,
    evaluator: &Shares,
) -> f64 {
    if depth == 0 || state.outcome().is_some() {
        return leaf(state, root, evaluator);
    }
    let movers: Vec<Player> = if maximizing {
        vec![root]
    } else {
        Player::seats(state.players)
            .iter()
            .copied()
            .filter(|&p| p != root)
            .collect()
    };
    let mut values = Vec::new();
    for mover in movers {
        let mut turn = state.clone();
        turn.put_to_move(mover);
        for child in children(&turn) {
            values.push(brute_brs(&child, depth - 1, root, !maximizing, evaluator));
        }
    }
    let fold = if maximizing { f64::max } else { f64::min };
    let start = if maximizing {
        f64::NEG_INFINITY
    } else {
        f64::INFINITY
    };
    values.into_iter().fold(start, fold)
}

/// The root value of the best root move by a brute-force rule.
fn brute_root(state: &Tree, value: impl Fn(&Tree) -> f64) -> f64 {
    children(state)
        .iter()
        .map(value)
        .fold(f64::NEG_INFINITY, f64::max)
}

fn searcher(bound: f64) -> Searcher<Tree, Shares> {
    Searcher::new(Shares { bound }, 1)
}

#[test]
fn maxn_equals_max_n_by_its_definition_and_shallow_pruning_changes_no_value() {
    let mut pruned_somewhere = false;
    for (players, branching, depth, seed) in [
        (3, 3, 4, 1),
        (4, 3, 4, 2),
        (3, 4, 3, 3),
        (2, 3, 4, 4),
        (6, 2, 6, 5),
    ] {
        for position in 0..20u64 {
            let start = Tree::new(players, branching, 8, seed * 100 + position);
            let evaluator = Shares { bound: 10.0 };
            let expected = brute_root(&start, |child| brute_maxn(child, depth - 1, &evaluator)[0]);
            let mut rng = agent_rng(position);
            let plain = searcher(10.0)
                .maxn(&start, depth as u32, None, &mut rng)
                .unwrap();
            let mut rng = agent_rng(position);
            let mut pruning = searcher(10.0);
            let shallow = pruning
                .maxn(&start, depth as u32, Some(10.0), &mut rng)
                .unwrap();
            assert!(
                (plain.value - expected).abs() < 1e-9,
                "{players} players: {} against {expected}",
                plain.value
            );
            assert!(
                (shallow.value - expected).abs() < 1e-9,
                "pruned: {} against {expected}",
                shallow.value
            );
            assert!(shallow.stats.nodes() <= plain.stats.nodes());
            // The searcher's one entry point (search comparisons, agents) runs max^n too.
            let mut rng = agent_rng(position);
            let mut entry = searcher(10.0);
            entry.set_bound(Some(10.0));
            let through = entry
                .search(&start, Algorithm::Maxn, depth as u32, &mut rng)
                .unwrap();
            assert_eq!(through.stats.nodes(), shallow.stats.nodes());
            assert!((through.value - expected).abs() < 1e-9);
            pruned_somewhere |= shallow.stats.nodes() < plain.stats.nodes();
        }
    }
    assert!(
        pruned_somewhere,
        "shallow pruning never cut a node: the test proves nothing"
    );
}

#[test]
fn paranoid_and_best_reply_search_equal_their_definitions() {
    for (players, branching, depth, seed) in
        [(3, 3, 4, 1), (4, 3, 3, 2), (2, 4, 4, 3), (6, 2, 5, 4)]
    {
        for position in 0..20u64 {
            let start = Tree::new(players, branching, 9, seed * 100 + position);
            let evaluator = Shares { bound: 10.0 };
            let root = start.to_move();
            let paranoid = brute_root(&start, |child| {
                brute_paranoid(child, depth - 1, root, &evaluator)
            });
            let mut rng = agent_rng(position);
            let found = searcher(10.0)
                .search(&start, Algorithm::AlphaBeta, depth as u32, &mut rng)
                .unwrap();
            assert!(
                (found.value - paranoid).abs() < 1e-9,
                "paranoid {} against {paranoid}",
                found.value
            );
            let brs = brute_root(&start, |child| {
                brute_brs(child, depth - 1, root, false, &evaluator)
            });
            let mut rng = agent_rng(position);
            let found = searcher(10.0).brs(&start, depth as u32, &mut rng).unwrap();
            assert!(
                (found.value - brs).abs() < 1e-9,
                "brs {} against {brs}",
                found.value
            );
        }
    }
}

/// Three players on the star, one searching and two playing at random: the searcher is
/// placed first (by the returns) in every game, at every algorithm.
#[test]
fn each_search_for_more_players_outplays_two_random_players_on_the_star() {
    use crate::evals::star_checkers::Heuristic;
    for algorithm in [Algorithm::Maxn, Algorithm::Paranoid, Algorithm::Brs] {
        for game in 0..2u64 {
            let mut state = StarCheckers::new(Rules {
                players: 3,
                max_plies: 120,
            });
            let mut agent =
                SearchAgent::new(SearchConfig::fixed(algorithm, 2), Heuristic::Distance, game);
            let mut rng = agent_rng(game + 10);
            let mut moves = Vec::new();
            while state.outcome().is_none() {
                let mv = if state.to_move() == Player::P1 {
                    agent.decide(&state, &Limits::NONE).mv
                } else {
                    state.legal_moves(&mut moves);
                    moves[seeds::below(&mut rng, moves.len())]
                };
                state.apply(mv);
            }
            let places = state.returns().expect("returns").places();
            assert_eq!(
                places[0],
                1,
                "{algorithm}, game {game}: {:?}\n{}",
                state.returns(),
                state.board_dump()
            );
        }
    }
}

/// A game of more players stopped at its ply limit is worth the searcher's return less the
/// others' mean, as a share of a win (paranoid and brs score it so), not a draw.
#[test]
fn a_star_game_stopped_at_its_ply_limit_is_scored_by_its_returns() {
    let mut state = StarCheckers::new(Rules {
        players: 3,
        max_plies: 4,
    });
    let mut moves = Vec::new();
    let mut rng = agent_rng(5);
    while state.outcome().is_none() {
        state.legal_moves(&mut moves);
        state.apply(moves[seeds::below(&mut rng, moves.len())]);
    }
    let outcome = state.outcome().expect("over");
    assert_eq!(outcome.winner, None);
    let returns = state.returns().expect("returns");
    for root in Player::seats(3).iter().copied() {
        let others: f64 = Player::seats(3)
            .iter()
            .filter(|&&p| p != root)
            .map(|&p| returns[p])
            .sum::<f64>()
            / 2.0;
        let expected = crate::search::WIN_SCORE * (returns[root] - others);
        let found = crate::search::finished_value(&state, outcome, root);
        assert!(
            (found - expected).abs() < 1e-9,
            "{root}: {found} against {expected}"
        );
    }
    // Here P1, with two moves to the others' one, is furthest on and scores above 0.
    assert!(crate::search::finished_value(&state, outcome, Player::P1) > 0.0);
}

/// max^n scores a star game stopped at its ply limit by the same shares: one ply before
/// the limit, the root's value is the best share of a win its moves leave it, with and
/// without shallow pruning (the shares sum to 0 and none passes a win, as it needs).
#[test]
fn maxn_scores_a_game_stopped_at_its_ply_limit_by_its_returns() {
    let mut state = StarCheckers::new(Rules {
        players: 3,
        max_plies: 5,
    });
    let mut moves = Vec::new();
    let mut rng = agent_rng(7);
    for _ in 0..4 {
        state.legal_moves(&mut moves);
        state.apply(moves[seeds::below(&mut rng, moves.len())]);
    }
    let root = state.to_move();
    state.legal_moves(&mut moves);
    let best = moves
        .iter()
        .map(|&mv| {
            let mut child = state.clone();
            child.apply(mv);
            let outcome = child.outcome().expect("the ply limit");
            assert_eq!(outcome.winner, None);
            crate::search::return_shares(&child.returns().expect("returns"))[root.index()]
        })
        .fold(f64::NEG_INFINITY, f64::max);
    assert!(best.abs() > 0.0, "some move changes the shares");
    for bound in [None, Some(10.0)] {
        let mut searcher = Searcher::new(crate::evals::star_checkers::Heuristic::Distance, 1);
        let found = searcher
            .maxn(&state, 1, bound, &mut agent_rng(1))
            .expect("a move")
            .value;
        let win = bound.unwrap_or(WIN_SCORE);
        assert!(
            (found - win * best).abs() < 1e-9,
            "bound {bound:?}: {found} against {}",
            win * best
        );
    }
}

#[test]
fn return_shares_sum_to_zero_and_stay_within_a_win() {
    let shares =
        crate::search::return_shares(&crate::core::Returns::of(&[3.0, -1.0, 0.5, 0.5]).unwrap());
    assert!(shares[..4].iter().sum::<f64>().abs() < 1e-12);
    assert!(shares[..4].iter().all(|s| s.abs() <= 1.0 + 1e-12));
    // P1 leads by 3 - 0 = 3 over the others' mean: the widest, so exactly a win.
    assert!((shares[0] - 1.0).abs() < 1e-12, "{shares:?}");
    let small = crate::search::return_shares(&crate::core::Returns::of(&[0.5, 0.2, 0.2]).unwrap());
    assert!((small[0] - 0.3).abs() < 1e-12, "{small:?}");
}
