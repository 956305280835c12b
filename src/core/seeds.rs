//! Seeds and randomness. One generator type everywhere ([`GameRng`]); every seed is
//! derived from its parent by hashing, never from a clock or a global.

use super::{Game, Playout};
use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::{Rng, SeedableRng};

/// The only random number generator used in arbiter.
pub type GameRng = ChaCha8Rng;

/// SplitMix64's finaliser: a bijective 64-bit mixer with good avalanche.
#[inline]
pub fn mix64(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// A child seed from a parent seed and a path of tags, e.g.
/// `derive(experiment_seed, &[matchup, game_index])`.
pub fn derive(parent: u64, tags: &[u64]) -> u64 {
    tags.iter()
        .fold(mix64(parent), |acc, &tag| mix64(acc ^ mix64(tag)))
}

/// A generator seeded from `seed`.
pub fn rng(seed: u64) -> GameRng {
    GameRng::seed_from_u64(seed)
}

/// The generator's next 64 bits: a seed for something drawn from it.
#[inline]
pub fn next_u64(rng: &mut GameRng) -> u64 {
    rng.next_u64()
}

/// A uniform integer in `0..n` (`n > 0`), by Lemire's multiply-shift (bias below 2^-32
/// for the small `n` used here).
#[inline]
pub fn below(rng: &mut GameRng, n: usize) -> usize {
    debug_assert!(n > 0);
    ((u128::from(rng.next_u64()) * n as u128) >> 64) as usize
}

/// A uniformly random legal move of `state`, one draw from `rng` ([`Game::pick_move`]
/// with [`below`]); `None` when the game is over. The one way arbiter plays a random
/// move: the `random` agent, MCTS's random rollouts and the game's playouts in
/// `arbiter bench` all draw through it, so the same stream gives the same moves in each.
#[inline]
pub fn random_move<G: Game>(
    state: &G,
    scratch: &mut Vec<G::Move>,
    rng: &mut GameRng,
) -> Option<G::Move> {
    state.pick_move(scratch, |n| below(rng, n))
}

/// A random playout from `state` ([`Game::random_playout`] with [`below`]): the moves
/// [`random_move`] would draw one after another from the same stream, until the game is
/// over or `max_plies` are played.
#[inline]
pub fn random_playout<G: Game>(
    state: &mut G,
    scratch: &mut Vec<G::Move>,
    rng: &mut GameRng,
    max_plies: u32,
) -> Playout {
    state.random_playout(scratch, |n| below(rng, n), max_plies)
}

/// A uniform number in [0, 1).
pub fn unit(rng: &mut GameRng) -> f64 {
    (rng.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
}

/// Shuffles `items` in place (Fisher-Yates).
pub fn shuffle<T>(rng: &mut GameRng, items: &mut [T]) {
    for i in (1..items.len()).rev() {
        let j = below(rng, i + 1);
        items.swap(i, j);
    }
}

/// A number in [0, 1) that is a pure function of a position hash and a seed: the
/// reports' random term U, made reproducible and identical for every algorithm.
#[inline]
pub fn unit_noise(position_hash: u64, seed: u64) -> f64 {
    (mix64(position_hash ^ seed) >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn derived_seeds_differ_by_path_and_repeat() {
        let a = derive(7, &[0, 1]);
        assert_eq!(a, derive(7, &[0, 1]));
        assert_ne!(a, derive(7, &[1, 0]));
        assert_ne!(a, derive(8, &[0, 1]));
        assert_ne!(derive(7, &[0]), derive(7, &[0, 0]));
    }

    #[test]
    fn noise_is_in_unit_interval_and_pure() {
        let mut sum = 0.0;
        for h in 0..10_000u64 {
            let u = unit_noise(h, 42);
            assert!((0.0..1.0).contains(&u));
            assert_eq!(u, unit_noise(h, 42));
            sum += u;
        }
        let mean = sum / 10_000.0;
        assert!((mean - 0.5).abs() < 0.02, "mean {mean}");
        assert_ne!(unit_noise(5, 1), unit_noise(5, 2));
    }

    #[test]
    fn below_covers_range_and_shuffle_permutes() {
        let mut r = rng(3);
        let mut seen = [0usize; 5];
        for _ in 0..1000 {
            seen[below(&mut r, 5)] += 1;
        }
        assert!(seen.iter().all(|&c| c > 150), "{seen:?}");
        let mut items: Vec<u32> = (0..20).collect();
        shuffle(&mut r, &mut items);
        assert_ne!(items, (0..20).collect::<Vec<_>>());
        items.sort_unstable();
        assert_eq!(items, (0..20).collect::<Vec<_>>());
    }
}
