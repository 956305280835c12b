//! A bare loop of EinStein würfelt nicht! for `arbiter bench` to measure the built-in game
//! against: random playouts on a plain array of 25 cells and each side's six cube cells,
//! no trait, no move type, no record; the cubes placed by a shuffle, a die rolled every
//! turn, a step drawn among those the die allows. The rules are the game's (checked in its
//! test against the built-in game's share of wins and game lengths).

/// A cube removed.
const GONE: u8 = 25;

/// Plays `games` random games (a xorshift generator seeded with `seed` for the placements,
/// the dice and the steps); returns P1's wins and the plies played in all, counted as the
/// game counts them (the two placements, every roll and every step).
pub fn random_playouts(games: u64, seed: u64) -> (u64, u64) {
    let mut next = super::bare::xorshift(seed);
    const HOMES: [[u8; 6]; 2] = [[0, 1, 2, 5, 6, 10], [14, 18, 19, 22, 23, 24]];
    let (mut wins, mut plies) = (0, 0);
    for _ in 0..games {
        // cell -> side * 8 + number (0: empty); side -> number -> cell.
        let mut board = [0u8; 25];
        let mut at = [[GONE; 6]; 2];
        let mut left = [6u32; 2];
        for side in 0..2 {
            let mut numbers = [1u8, 2, 3, 4, 5, 6];
            for i in (1..6).rev() {
                numbers.swap(i, (next() % (i as u64 + 1)) as usize);
            }
            for (&cell, &n) in HOMES[side].iter().zip(&numbers) {
                board[usize::from(cell)] = (side as u8) * 8 + n;
                at[side][usize::from(n - 1)] = cell;
            }
        }
        plies += 2;
        let mut side = 0usize;
        loop {
            let die = (next() % 6) as usize;
            let own = &at[side];
            let mut cubes = [0usize; 2];
            let mut count = 0;
            if own[die] != GONE {
                cubes[0] = die;
                count = 1;
            } else {
                if let Some(lower) = (0..die).rev().find(|&n| own[n] != GONE) {
                    cubes[count] = lower;
                    count += 1;
                }
                if let Some(higher) = (die + 1..6).find(|&n| own[n] != GONE) {
                    cubes[count] = higher;
                    count += 1;
                }
            }
            let mut steps = [(0u8, 0u8); 6];
            let mut n = 0;
            for &cube in &cubes[..count] {
                let from = own[cube];
                let (row, column) = (from / 5, from % 5);
                let forward: [(bool, i8); 3] = if side == 0 {
                    [(column < 4, 1), (row < 4, 5), (row < 4 && column < 4, 6)]
                } else {
                    [(column > 0, -1), (row > 0, -5), (row > 0 && column > 0, -6)]
                };
                for (open, delta) in forward {
                    if open {
                        steps[n] = (from, (from as i8 + delta) as u8);
                        n += 1;
                    }
                }
            }
            let (from, to) = steps[(next() % n as u64) as usize];
            let taken = board[usize::from(to)];
            if taken != 0 {
                let owner = usize::from(taken / 8);
                at[owner][usize::from(taken % 8 - 1)] = GONE;
                left[owner] -= 1;
            }
            let cube = board[usize::from(from)];
            board[usize::from(to)] = cube;
            board[usize::from(from)] = 0;
            at[side][usize::from(cube % 8 - 1)] = to;
            plies += 2;
            let goal = if side == 0 { 24 } else { 0 };
            if to == goal || left[1 - side] == 0 {
                wins += u64::from(side == 0);
                break;
            }
            side ^= 1;
        }
    }
    (wins, plies)
}

#[cfg(test)]
mod tests {
    use crate::core::{Game, Player, seeds};
    use crate::games::einstein::Einstein;

    #[test]
    fn the_bare_kernel_plays_the_games_rules() {
        // 20,000 games each: the same share of P1 wins and the same mean length within
        // what chance allows (about four standard errors).
        let games = 20_000;
        let (wins, plies) = super::random_playouts(games, 7);
        let (mut game_wins, mut game_plies) = (0u64, 0u64);
        let mut scratch = Vec::new();
        for game in 0..games {
            let mut state = Einstein::new();
            let mut rng = seeds::rng(seeds::derive(3, &[game]));
            let playout = state.random_playout(&mut scratch, |n| seeds::below(&mut rng, n), 10_000);
            assert!(playout.ended);
            game_plies += u64::from(playout.plies);
            game_wins += u64::from(state.outcome().and_then(|o| o.winner) == Some(Player::P1));
        }
        let share = |w: u64| w as f64 / games as f64;
        assert!(
            (share(wins) - share(game_wins)).abs() < 0.02,
            "{wins} against {game_wins}"
        );
        let mean = |p: u64| p as f64 / games as f64;
        assert!(
            (mean(plies) - mean(game_plies)).abs() < 0.02 * mean(game_plies),
            "{plies} against {game_plies}"
        );
    }
}
