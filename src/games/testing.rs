//! Property checks every game must pass, run from each game's tests.

use crate::core::{Game, seeds};

/// The legal moves of `state` in notation, sorted.
pub fn move_names<G: Game>(state: &G) -> Vec<String> {
    let mut moves = Vec::new();
    state.legal_moves(&mut moves);
    let mut names: Vec<String> = moves.iter().map(|&m| state.format_move(m)).collect();
    names.sort();
    names
}

/// Plays `games` seeded random playouts from `start` and checks, at every position:
/// a position is finished iff it has no legal moves; `count_moves` agrees with
/// `legal_moves`, and `count_grandchildren` with the children's `count_moves`; move
/// generation is a pure function of the position; every move's notation parses back to
/// the same move; no game exceeds `max_plies`.
pub fn check_random_playouts<G: Game>(start: &G, games: u64, max_plies: usize) {
    let mut moves = Vec::new();
    let mut again = Vec::new();
    for game in 0..games {
        let mut rng = seeds::rng(seeds::derive(99, &[game]));
        let mut state = start.clone();
        let mut plies = 0;
        loop {
            state.legal_moves(&mut moves);
            state.legal_moves(&mut again);
            assert_eq!(moves, again, "move generation is not repeatable");
            assert_eq!(
                moves.len() as u64,
                state.count_moves(),
                "count_moves disagrees"
            );
            // The children's moves summed, counted the game's way and one by one.
            let mut by_child = 0;
            for &mv in &moves {
                let mut child = state.clone();
                child.apply(mv);
                by_child += child.count_moves();
            }
            assert_eq!(
                state.count_grandchildren(&mut again),
                by_child,
                "count_grandchildren disagrees at\n{}",
                state.board_dump()
            );
            let finished = state.outcome().is_some();
            assert_eq!(
                finished,
                moves.is_empty(),
                "finished iff no moves, at\n{}",
                state.board_dump()
            );
            if finished {
                break;
            }
            for &mv in &moves {
                let text = state.format_move(mv);
                assert_eq!(
                    state.parse_move(&text),
                    Ok(mv),
                    "notation round trip of {text}"
                );
            }
            let mv = moves[seeds::below(&mut rng, moves.len())];
            state.apply(mv);
            plies += 1;
            assert!(plies <= max_plies, "game longer than {max_plies} plies");
        }
    }
}

/// The final margin of `state` for its side to move ([`Game::final_margin`]) by plain
/// minimax: every move, no pruning, no order.
pub fn minimax_margin<G: Game>(state: &G) -> i32 {
    if state.outcome().is_some() {
        return state.final_margin().expect("a game that scores margins");
    }
    let mut moves = Vec::new();
    state.legal_moves(&mut moves);
    moves
        .iter()
        .map(|&mv| {
            let mut child = state.clone();
            child.apply(mv);
            -minimax_margin(&child)
        })
        .max()
        .expect("a move or a pass")
}
