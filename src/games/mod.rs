//! The games, rules only (board, move generation, notation, outcome), one folder each, and
//! the tools that check rules (perft, replay); uses only core, never search, evals or files.

pub mod breakthrough;
pub mod chinese_checkers;
pub mod connect_four;
pub mod double_card;
pub mod einstein;
pub mod othello;
pub mod star_checkers;
#[cfg(test)]
pub mod testing;
pub mod wights;

use crate::core::seeds;
use crate::core::{Game, MoveError, Outcome};
use std::ops::ControlFlow;

/// The cells (bit indices) set in a board of up to 128 cells, lowest first: the Chinese
/// Checkers boards' marbles and destinations.
pub(crate) fn cells_of(mut bits: u128) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (bits != 0).then(|| {
            let cell = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            cell
        })
    })
}

/// Counts the leaves of the legal-move tree `depth` plies deep (finished games have no
/// moves). The last two plies are bulk-counted with [`Game::count_grandchildren`] (the
/// last one alone with [`Game::count_moves`]).
pub fn perft<G: Game>(state: &G, depth: u32) -> u64 {
    let mut buffers: Vec<Vec<G::Move>> = (0..depth).map(|_| Vec::with_capacity(64)).collect();
    perft_with(state, depth, &mut buffers)
}

fn perft_with<G: Game>(state: &G, depth: u32, buffers: &mut [Vec<G::Move>]) -> u64 {
    match depth {
        0 => 1,
        1 => state.count_moves(),
        2 => state.count_grandchildren(&mut buffers[0]),
        _ => {
            let (scratch, rest) = buffers.split_first_mut().expect("one buffer per ply");
            let mut total = 0;
            state.for_each_child(scratch, |_, child| {
                total += perft_with(child, depth - 1, rest);
                ControlFlow::Continue(())
            });
            total
        }
    }
}

/// The leaves of the legal-move tree at every depth from 1 to `depth` (`[perft(1), ...,
/// perft(depth)]`) in one walk: each position at depth `depth - 2` bulk-counts its moves
/// and its children's.
pub fn perft_by_depth<G: Game>(state: &G, depth: u32) -> Vec<u64> {
    let mut counts = vec![0; depth as usize];
    let mut buffers: Vec<Vec<G::Move>> = (0..depth).map(|_| Vec::with_capacity(64)).collect();
    if depth > 0 {
        count_by_depth(state, 0, &mut counts, &mut buffers);
    }
    counts
}

fn count_by_depth<G: Game>(
    state: &G,
    ply: usize,
    counts: &mut [u64],
    buffers: &mut [Vec<G::Move>],
) {
    if ply + 1 == counts.len() {
        counts[ply] += state.count_moves();
        return;
    }
    let (scratch, rest) = buffers.split_first_mut().expect("one buffer per ply");
    if ply + 2 == counts.len() {
        counts[ply] += state.count_moves();
        counts[ply + 1] += state.count_grandchildren(scratch);
        return;
    }
    counts[ply] += state.for_each_child(scratch, |_, child| {
        count_by_depth(child, ply + 1, counts, rest);
        ControlFlow::Continue(())
    });
}

/// A move list that failed to replay: which ply (1-based) and why.
#[derive(Debug, thiserror::Error)]
#[error("ply {ply}: {source}")]
pub struct ReplayError {
    /// 1-based ply of the offending move.
    pub ply: usize,
    /// Why the move was rejected.
    #[source]
    pub source: MoveError,
}

/// Plays moves written in the game's notation from `start`; returns the final position
/// and its outcome (`None`: unfinished).
///
/// # Errors
/// The first move that is malformed or illegal, with its ply number.
pub fn replay<'a, G: Game>(
    start: &G,
    moves: impl IntoIterator<Item = &'a str>,
) -> Result<(G, Option<Outcome>), ReplayError> {
    let mut state = start.clone();
    for (index, text) in moves.into_iter().enumerate() {
        let mv = state.parse_move(text).map_err(|source| ReplayError {
            ply: index + 1,
            source,
        })?;
        state.apply(mv);
    }
    let outcome = state.outcome();
    Ok((state, outcome))
}

/// `count` unfinished positions reached by `min_plies..=max_plies` uniformly random moves
/// from `start`, reproducibly from `seed`. Playouts that end early are discarded; in a game
/// too short for those plies (tic-tac-toe asked for 10 to 40), once 100 playouts in a row
/// have ended early, each playout gives its last unfinished position instead, so the call
/// always ends.
pub fn random_positions<G: Game>(
    start: &G,
    count: usize,
    min_plies: usize,
    max_plies: usize,
    seed: u64,
) -> Vec<G> {
    let mut rng = seeds::rng(seed);
    let mut positions = Vec::with_capacity(count);
    let mut moves = Vec::new();
    let mut ended_early = 0;
    while positions.len() < count {
        let mut state = start.clone();
        let mut last_unfinished = state.clone();
        let plies = min_plies + seeds::below(&mut rng, max_plies - min_plies + 1);
        for _ in 0..plies {
            state.legal_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            last_unfinished = state.clone();
            state.apply(moves[seeds::below(&mut rng, moves.len())]);
        }
        if state.outcome().is_none() {
            positions.push(state);
            ended_early = 0;
        } else if ended_early >= 100 {
            positions.push(last_unfinished);
        } else {
            ended_early += 1;
        }
    }
    positions
}

/// Plays `games` uniformly random games from `start` to their end, moves drawn from one
/// generator seeded with `seed` ([`seeds::random_move`], as the `random` agent and MCTS
/// rollouts draw them); returns the plies played in all. The game alone, with
/// no agent, clock or record: what `arbiter bench` sets beside the bare kernel's playouts
/// and the scheduler's games.
pub fn random_playouts<G: Game>(start: &G, games: u64, seed: u64) -> u64 {
    let mut rng = seeds::rng(seed);
    let mut scratch = Vec::new();
    let mut plies = 0;
    for _ in 0..games {
        let mut state = start.clone();
        plies +=
            u64::from(seeds::random_playout(&mut state, &mut scratch, &mut rng, u32::MAX).plies);
    }
    plies
}

/// The rows of a board dump with the spaces between cells taken out (a position's JSON
/// form, for games whose dump separates cells by spaces).
pub fn compact_rows(dump: &str) -> Vec<String> {
    dump.lines()
        .map(|line| line.split_whitespace().collect())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `random_playouts` as a list of the legal moves would play them: the same draws give
    /// the same moves, every game is played to its end, and the plies are summed.
    fn plays_as_the_move_list_does<G: Game>(start: &G, name: &str) {
        for seed in [1, 2, 3] {
            let mut rng = seeds::rng(seed);
            let mut moves = Vec::new();
            let mut plies = 0;
            for _ in 0..20 {
                let mut state = start.clone();
                loop {
                    state.legal_moves(&mut moves);
                    if moves.is_empty() {
                        break;
                    }
                    state.apply(moves[seeds::below(&mut rng, moves.len())]);
                    plies += 1;
                }
                assert!(state.outcome().is_some(), "{name}: a game left unfinished");
            }
            assert!(plies >= 20 * 5, "{name}: {plies} plies in 20 games");
            assert_eq!(
                random_playouts(start, 20, seed),
                plies,
                "{name}, seed {seed}"
            );
        }
    }

    #[test]
    fn random_playouts_draw_the_moves_a_move_list_gives() {
        use crate::games::breakthrough::{Breakthrough, Rules};
        for rules in [Rules::Standard, Rules::Small, Rules::ThreeToBase] {
            plays_as_the_move_list_does(&Breakthrough::new(rules), "breakthrough");
        }
        plays_as_the_move_list_does(&othello::Othello::new(), "othello");
        plays_as_the_move_list_does(
            &connect_four::ConnectFour::new(connect_four::Params::default()),
            "connect four",
        );
    }
}
