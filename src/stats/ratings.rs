//! Bradley-Terry ratings of every agent from all games of a run, on the Elo scale.
//!
//! Model: agent i beats j with probability `g_i / (g_i + g_j)`; a draw counts half a win
//! to each side. Strengths are fitted by maximum likelihood with the MM algorithm of
//! D. R. Hunter, "MM algorithms for generalized Bradley-Terry models", Annals of
//! Statistics 32 (2004). One virtual draw between every two agents (a weak prior, as
//! BayesElo adds) keeps every rating finite even after all-win records and ties groups
//! that never met. Ratings are `400 log10 g`, shifted to average 0; the 95% intervals
//! come from the Fisher information of `ln g` under that sum-zero constraint.

/// An agent's fitted rating.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rating {
    /// Elo-scale rating, the agents averaging 0.
    pub elo: f64,
    /// Half-width of the 95% interval.
    pub margin: f64,
    /// Games played.
    pub games: u64,
}

/// Points (wins + draws/2) and games of every agent against every other.
#[derive(Clone, Debug, PartialEq)]
pub struct Results {
    /// `points[i][j]`: points agent i scored against j.
    pub points: Vec<Vec<f64>>,
    /// `games[i][j]`: games between i and j (symmetric).
    pub games: Vec<Vec<u64>>,
}

impl Results {
    /// No games among `n` agents.
    pub fn new(n: usize) -> Results {
        Results {
            points: vec![vec![0.0; n]; n],
            games: vec![vec![0; n]; n],
        }
    }

    /// Adds one game between `i` and `j` in which `i` scored `score` (1, 0.5 or 0).
    pub fn add(&mut self, i: usize, j: usize, score: f64) {
        if i == j {
            return;
        }
        self.points[i][j] += score;
        self.points[j][i] += 1.0 - score;
        self.games[i][j] += 1;
        self.games[j][i] += 1;
    }

    /// Adds `wins` games `i` won against `j`, `losses` it lost and `draws` drawn.
    pub fn add_many(&mut self, i: usize, j: usize, wins: u64, losses: u64, draws: u64) {
        if i == j {
            return;
        }
        let games = wins + losses + draws;
        let points = wins as f64 + draws as f64 / 2.0;
        self.points[i][j] += points;
        self.points[j][i] += games as f64 - points;
        self.games[i][j] += games;
        self.games[j][i] += games;
    }
}

const PRIOR_GAMES: f64 = 1.0;
const LN10_OVER_400: f64 = std::f64::consts::LN_10 / 400.0;

/// Fits the ratings of every agent in `results`, averaging 0 (see the module's text).
pub fn bradley_terry(results: &Results) -> Vec<Rating> {
    bradley_terry_anchored(results, None)
}

/// Fits the ratings of every agent in `results`: averaging 0, or with agent `anchor` at
/// 0 exactly (as Ordo and BayesElo anchor a reference engine). Anchored, each interval is
/// that of the agent's difference from the anchor (the anchor's own is 0).
pub fn bradley_terry_anchored(results: &Results, anchor: Option<usize>) -> Vec<Rating> {
    let n = results.games.len();
    if n == 0 {
        return Vec::new();
    }
    // Games and points with the prior: one virtual draw between every two agents.
    let games =
        |i: usize, j: usize| results.games[i][j] as f64 + if i == j { 0.0 } else { PRIOR_GAMES };
    let points = |i: usize| -> f64 {
        (0..n)
            .filter(|&j| j != i)
            .map(|j| results.points[i][j] + PRIOR_GAMES / 2.0)
            .sum()
    };
    let mut strength = vec![1.0f64; n];
    for _ in 0..10_000 {
        let mut next: Vec<f64> = (0..n)
            .map(|i| {
                let denominator: f64 = (0..n)
                    .filter(|&j| j != i)
                    .map(|j| games(i, j) / (strength[i] + strength[j]))
                    .sum();
                if denominator > 0.0 {
                    points(i) / denominator
                } else {
                    strength[i]
                }
            })
            .collect();
        let change = rescale(&mut next, &strength);
        strength = next;
        if change < 1e-12 {
            break;
        }
    }
    // Fisher information of ln g: a graph Laplacian with weights n_ij p_ij (1 - p_ij).
    let mut information = vec![vec![0.0; n]; n];
    for i in 0..n {
        for j in 0..n {
            if i != j {
                let p = strength[i] / (strength[i] + strength[j]);
                let w = games(i, j) * p * (1.0 - p);
                information[i][j] -= w;
                information[i][i] += w;
            }
        }
    }
    // Pseudo-inverse under the sum-zero constraint: (L + J/n)^-1 - J/n, the covariance
    // of the ln g.
    let shifted: Vec<Vec<f64>> = information
        .iter()
        .map(|row| row.iter().map(|v| v + 1.0 / n as f64).collect())
        .collect();
    let inverse = invert(shifted);
    let covariance = |i: usize, j: usize| {
        inverse
            .as_ref()
            .map_or(f64::INFINITY, |m| m[i][j] - 1.0 / n as f64)
    };
    let origin = anchor.map_or(0.0, |a| strength[a].ln());
    (0..n)
        .map(|i| {
            let variance = match anchor {
                None => covariance(i, i),
                Some(a) => covariance(i, i) + covariance(a, a) - 2.0 * covariance(i, a),
            }
            .max(0.0);
            Rating {
                elo: (strength[i].ln() - origin) / LN10_OVER_400,
                margin: super::Z95 * variance.sqrt() / LN10_OVER_400,
                games: results.games[i].iter().sum(),
            }
        })
        .collect()
}

/// Scales an MM iteration's `next` strengths to a geometric mean of 1 (strengths are
/// known up to a factor) and returns the largest change of a log strength from `previous`.
pub(super) fn rescale(next: &mut [f64], previous: &[f64]) -> f64 {
    let log_mean = next.iter().map(|g| g.ln()).sum::<f64>() / next.len() as f64;
    next.iter_mut().for_each(|g| *g /= log_mean.exp());
    next.iter()
        .zip(previous)
        .map(|(a, b)| (a.ln() - b.ln()).abs())
        .fold(0.0, f64::max)
}

/// The inverse of a square matrix by Gauss-Jordan elimination with partial pivoting;
/// `None` if it is singular.
pub(super) fn invert(mut a: Vec<Vec<f64>>) -> Option<Vec<Vec<f64>>> {
    let n = a.len();
    let mut inverse: Vec<Vec<f64>> = (0..n)
        .map(|i| (0..n).map(|j| f64::from(u8::from(i == j))).collect())
        .collect();
    for column in 0..n {
        let pivot =
            (column..n).max_by(|&x, &y| a[x][column].abs().total_cmp(&a[y][column].abs()))?;
        if a[pivot][column].abs() < 1e-12 {
            return None;
        }
        a.swap(column, pivot);
        inverse.swap(column, pivot);
        let scale = a[column][column];
        for k in 0..n {
            a[column][k] /= scale;
            inverse[column][k] /= scale;
        }
        for row in 0..n {
            if row != column {
                let factor = a[row][column];
                if factor != 0.0 {
                    for k in 0..n {
                        a[row][k] -= factor * a[column][k];
                        inverse[row][k] -= factor * inverse[column][k];
                    }
                }
            }
        }
    }
    Some(inverse)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_agents_match_the_logistic_elo_of_their_score_with_the_prior() {
        // 30 of 40 points plus the virtual draw: 30.5 of 41; BT for two players gives
        // g1/g2 = 30.5/10.5, so the difference is 400 log10(30.5/10.5) = 185.3.
        let mut results = Results::new(2);
        for _ in 0..30 {
            results.add(0, 1, 1.0);
        }
        for _ in 0..10 {
            results.add(0, 1, 0.0);
        }
        let ratings = bradley_terry(&results);
        let difference = ratings[0].elo - ratings[1].elo;
        assert!(
            (difference - 400.0 * (30.5f64 / 10.5).log10()).abs() < 1e-6,
            "{ratings:?}"
        );
        assert!((ratings[0].elo + ratings[1].elo).abs() < 1e-9, "centred");
        assert_eq!((ratings[0].games, ratings[1].games), (40, 40));
        assert!(ratings[0].margin > 0.0 && ratings[0].margin.is_finite());
    }

    #[test]
    fn order_follows_strength_and_edge_cases_stay_finite() {
        let mut results = Results::new(3);
        for _ in 0..20 {
            results.add(0, 1, 1.0);
            results.add(1, 2, 1.0);
            results.add(0, 2, 1.0);
        }
        let ratings = bradley_terry(&results);
        assert!(ratings[0].elo > ratings[1].elo && ratings[1].elo > ratings[2].elo);
        assert!(
            ratings
                .iter()
                .all(|r| r.elo.is_finite() && r.margin.is_finite())
        );
        // No games at all: every rating 0.
        let empty = bradley_terry(&Results::new(3));
        assert!(
            empty
                .iter()
                .all(|r| r.elo.abs() < 1e-9 && r.margin.is_finite())
        );
        assert!(bradley_terry(&Results::new(0)).is_empty());
        // All draws: equal ratings.
        let mut draws = Results::new(2);
        draws.add(0, 1, 0.5);
        assert!(bradley_terry(&draws)[0].elo.abs() < 1e-9);
        // More games, narrower interval.
        let mut many = Results::new(2);
        for _ in 0..400 {
            many.add(0, 1, 1.0);
            many.add(0, 1, 0.0);
        }
        assert!(bradley_terry(&many)[0].margin < bradley_terry(&draws)[0].margin);
    }

    #[test]
    fn inversion_is_exact_on_a_small_matrix() {
        let inverse = invert(vec![vec![4.0, 7.0], vec![2.0, 6.0]]).expect("invertible");
        let expected = [[0.6, -0.7], [-0.2, 0.4]];
        for i in 0..2 {
            for j in 0..2 {
                assert!((inverse[i][j] - expected[i][j]).abs() < 1e-12);
            }
        }
        assert!(invert(vec![vec![1.0, 2.0], vec![2.0, 4.0]]).is_none());
    }
}
