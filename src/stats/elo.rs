//! Elo, likelihood of superiority, pentanomial pair statistics and the SPRT, as engine
//! testers compute them.
//!
//! * Elo from a score s (wins + draws/2 per game): `elo = -400 log10(1/s - 1)` (logistic
//!   model). The 95% interval maps `s +- 1.96 sqrt(var / n)` through the same function, with
//!   `var` the variance of the per-game (or per-pair) scores: the normal approximation used
//!   by cutechess-cli and fastchess.
//! * Likelihood of superiority: `LOS = Phi((W - L) / sqrt(W + L))`, draws ignored.
//! * SPRT: the generalised SPRT of M. Van den Bergh ("A practical introduction to the
//!   GSPRT", 2016; as used by fishtest): with logistic scores `s0`, `s1` of the two
//!   hypotheses' Elo and the sample mean `x` and variance `var` of the per-game (trinomial)
//!   or per-pair (pentanomial) scores over `n` samples,
//!   `LLR = n (s1 - s0) (2x - s0 - s1) / (2 var)`; accept H1 when `LLR >= ln((1-beta)/alpha)`,
//!   H0 when `LLR <= ln(beta/(1-alpha))`.

use super::normal_cdf;

/// The expected score of a player `elo` points stronger (logistic model).
pub fn score_of_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The Elo difference of a score in [0, 1]; +-infinity at 1 and 0.
pub fn elo_of_score(score: f64) -> f64 {
    if score <= 0.0 {
        f64::NEG_INFINITY
    } else if score >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / score - 1.0).log10()
    }
}

/// An Elo difference with its 95% interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EloEstimate {
    /// The point estimate.
    pub elo: f64,
    /// Lower end of the 95% interval (may be -infinity).
    pub low: f64,
    /// Upper end of the 95% interval (may be +infinity).
    pub high: f64,
}

/// Mean and variance of samples given as (value, count) pairs; `None` without samples.
fn mean_variance(samples: &[(f64, u64)]) -> Option<(f64, f64, f64)> {
    let n: u64 = samples.iter().map(|s| s.1).sum();
    if n == 0 {
        return None;
    }
    let n = n as f64;
    let mean = samples.iter().map(|&(v, c)| v * c as f64).sum::<f64>() / n;
    let variance = samples
        .iter()
        .map(|&(v, c)| (v - mean).powi(2) * c as f64)
        .sum::<f64>()
        / n;
    Some((n, mean, variance))
}

fn estimate(samples: &[(f64, u64)]) -> EloEstimate {
    match mean_variance(samples) {
        None => EloEstimate {
            elo: 0.0,
            low: f64::NEG_INFINITY,
            high: f64::INFINITY,
        },
        Some((n, mean, variance)) => {
            let half = super::Z95 * (variance / n).sqrt();
            EloEstimate {
                elo: elo_of_score(mean),
                low: elo_of_score(mean - half),
                high: elo_of_score(mean + half),
            }
        }
    }
}

/// Per-game samples of a win/draw/loss count.
fn trinomial(wins: u64, draws: u64, losses: u64) -> [(f64, u64); 3] {
    [(1.0, wins), (0.5, draws), (0.0, losses)]
}

/// Per-pair samples of pentanomial counts (pair scores 0, 1/4, 1/2, 3/4, 1).
fn pentanomial(counts: &[u64; 5]) -> [(f64, u64); 5] {
    [
        (0.0, counts[0]),
        (0.25, counts[1]),
        (0.5, counts[2]),
        (0.75, counts[3]),
        (1.0, counts[4]),
    ]
}

/// Elo and 95% interval from wins, draws and losses (per-game normal approximation).
/// With no games: 0 and an unbounded interval.
pub fn elo_trinomial(wins: u64, draws: u64, losses: u64) -> EloEstimate {
    estimate(&trinomial(wins, draws, losses))
}

/// Elo and 95% interval from colour-swapped pairs, counted by pair score 0, 1/4, 1/2,
/// 3/4, 1 (per-pair normal approximation: it accounts for the correlation the shared
/// opening puts between the two games of a pair).
pub fn elo_pentanomial(counts: &[u64; 5]) -> EloEstimate {
    estimate(&pentanomial(counts))
}

/// Likelihood of superiority: the probability that the player is stronger, from wins and
/// losses (draws carry no information here). 0.5 with neither.
pub fn likelihood_of_superiority(wins: u64, losses: u64) -> f64 {
    if wins + losses == 0 {
        return 0.5;
    }
    normal_cdf((wins as f64 - losses as f64) / ((wins + losses) as f64).sqrt())
}

/// A sequential probability ratio test of H0: elo = elo0 against H1: elo = elo1.
#[derive(Clone, Copy, Debug, PartialEq, serde::Deserialize, serde::Serialize)]
#[serde(deny_unknown_fields)]
pub struct Sprt {
    /// Elo under H0.
    pub elo0: f64,
    /// Elo under H1.
    pub elo1: f64,
    /// Probability of accepting H1 when H0 holds.
    pub alpha: f64,
    /// Probability of accepting H0 when H1 holds.
    pub beta: f64,
}

/// The state of an SPRT.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum SprtDecision {
    /// Keep playing.
    Continue,
    /// H0 accepted (the lower bound was crossed).
    H0,
    /// H1 accepted (the upper bound was crossed).
    H1,
}

impl SprtDecision {
    /// `continue`, `H0` or `H1`.
    pub fn label(self) -> &'static str {
        match self {
            SprtDecision::Continue => "continue",
            SprtDecision::H0 => "H0",
            SprtDecision::H1 => "H1",
        }
    }
}

impl Sprt {
    /// Checks the parameters.
    ///
    /// # Errors
    /// A message when alpha or beta is not in (0, 0.5) or elo0 >= elo1.
    pub fn validate(&self) -> Result<(), String> {
        let probability = |p: f64| p > 0.0 && p < 0.5;
        if !probability(self.alpha) || !probability(self.beta) {
            return Err(format!(
                "sprt: alpha ({}) and beta ({}) must be between 0 and 0.5",
                self.alpha, self.beta
            ));
        }
        if self.elo0 >= self.elo1 || !self.elo0.is_finite() || !self.elo1.is_finite() {
            return Err(format!(
                "sprt: elo0 ({}) must be below elo1 ({})",
                self.elo0, self.elo1
            ));
        }
        Ok(())
    }

    /// The lower and upper bounds of the log-likelihood ratio.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    fn llr(&self, samples: &[(f64, u64)]) -> f64 {
        let Some((n, mean, variance)) = mean_variance(samples) else {
            return 0.0;
        };
        if variance <= 0.0 {
            // Every sample equal: no information on the spread yet.
            return 0.0;
        }
        let (s0, s1) = (score_of_elo(self.elo0), score_of_elo(self.elo1));
        n * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * variance)
    }

    /// The log-likelihood ratio from game results.
    pub fn llr_trinomial(&self, wins: u64, draws: u64, losses: u64) -> f64 {
        self.llr(&trinomial(wins, draws, losses))
    }

    /// The log-likelihood ratio from colour-swapped pairs.
    pub fn llr_pentanomial(&self, counts: &[u64; 5]) -> f64 {
        self.llr(&pentanomial(counts))
    }

    /// What an LLR means against the bounds.
    pub fn decide(&self, llr: f64) -> SprtDecision {
        let (lower, upper) = self.bounds();
        if llr >= upper {
            SprtDecision::H1
        } else if llr <= lower {
            SprtDecision::H0
        } else {
            SprtDecision::Continue
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tolerance: f64) -> bool {
        (a - b).abs() < tolerance
    }

    #[test]
    fn elo_and_score_are_inverse() {
        assert_eq!(elo_of_score(0.5), 0.0);
        // 75%: -400 log10(1/3) = 190.85.
        assert!(close(elo_of_score(0.75), 190.849, 1e-3));
        assert!(close(score_of_elo(190.849), 0.75, 1e-6));
        assert_eq!(elo_of_score(1.0), f64::INFINITY);
        assert_eq!(elo_of_score(0.0), f64::NEG_INFINITY);
    }

    #[test]
    fn trinomial_elo_matches_hand_computation() {
        // 60 wins, 20 draws, 20 losses: score 0.7; per-game variance
        // (0.6*0.09 + 0.2*0.04 + 0.2*0.49) = 0.16; se = 0.04; interval 0.7 -+ 0.0784.
        let e = elo_trinomial(60, 20, 20);
        assert!(close(e.elo, 147.19, 0.01), "{e:?}");
        assert!(close(e.low, elo_of_score(0.7 - 1.959964 * 0.04), 1e-6));
        assert!(close(e.high, elo_of_score(0.7 + 1.959964 * 0.04), 1e-6));
        assert!(
            close(e.low, 86.23, 0.01) && close(e.high, 218.25, 0.01),
            "{e:?}"
        );
    }

    #[test]
    fn edge_cases_give_no_nan() {
        let all_wins = elo_trinomial(10, 0, 0);
        assert_eq!(all_wins.elo, f64::INFINITY);
        assert_eq!(all_wins.low, f64::INFINITY, "zero variance: a point");
        let all_draws = elo_trinomial(0, 10, 0);
        assert_eq!(
            (all_draws.elo, all_draws.low, all_draws.high),
            (0.0, 0.0, 0.0)
        );
        let none = elo_trinomial(0, 0, 0);
        assert_eq!(none.elo, 0.0);
        assert!(none.low.is_infinite() && none.high.is_infinite());
        for e in [
            all_wins,
            all_draws,
            none,
            elo_pentanomial(&[0; 5]),
            elo_pentanomial(&[0, 0, 0, 0, 3]),
        ] {
            assert!(
                !e.elo.is_nan() && !e.low.is_nan() && !e.high.is_nan(),
                "{e:?}"
            );
        }
        assert_eq!(likelihood_of_superiority(0, 0), 0.5);
        let sprt = Sprt {
            elo0: 0.0,
            elo1: 10.0,
            alpha: 0.05,
            beta: 0.05,
        };
        assert_eq!(sprt.llr_trinomial(0, 0, 0), 0.0);
        assert_eq!(sprt.llr_trinomial(5, 0, 0), 0.0);
        assert_eq!(sprt.llr_pentanomial(&[0, 0, 4, 0, 0]), 0.0);
    }

    #[test]
    fn pentanomial_elo_matches_hand_computation() {
        // 10 pairs: scores 1/4 x2, 1/2 x4, 3/4 x2, 1 x2: mean 0.6, variance
        // (2*0.1225 + 4*0.01 + 2*0.0225 + 2*0.16)/10 = 0.065; se = sqrt(0.0065).
        let e = elo_pentanomial(&[0, 2, 4, 2, 2]);
        assert!(close(e.elo, elo_of_score(0.6), 1e-9));
        let half = 1.959964 * 0.0065f64.sqrt();
        assert!(close(e.low, elo_of_score(0.6 - half), 1e-3));
        assert!(close(e.high, elo_of_score(0.6 + half), 1e-3));
    }

    #[test]
    fn likelihood_of_superiority_by_hand() {
        // W=60, L=40: Phi(20/10) = Phi(2) = 0.97725.
        assert!(close(likelihood_of_superiority(60, 40), 0.97725, 1e-4));
        assert!(close(likelihood_of_superiority(40, 60), 0.02275, 1e-4));
        assert!(close(likelihood_of_superiority(5, 5), 0.5, 1e-7));
    }

    #[test]
    fn sprt_bounds_and_llr_by_hand() {
        let sprt = Sprt {
            elo0: 0.0,
            elo1: 50.0,
            alpha: 0.05,
            beta: 0.05,
        };
        let (lower, upper) = sprt.bounds();
        assert!(close(lower, -2.944439, 1e-5) && close(upper, 2.944439, 1e-5));
        // 60/20/20: n=100, x=0.7, var=0.16; s0=0.5, s1=score_of_elo(50)=0.571463.
        let s1 = score_of_elo(50.0);
        let expected = 100.0 * (s1 - 0.5) * (1.4 - 0.5 - s1) / 0.32;
        assert!(close(sprt.llr_trinomial(60, 20, 20), expected, 1e-9));
        assert!(close(expected, 7.337, 1e-3), "{expected}");
        assert_eq!(sprt.decide(expected), SprtDecision::H1);
        assert_eq!(sprt.decide(-3.0), SprtDecision::H0);
        assert_eq!(sprt.decide(0.1), SprtDecision::Continue);
        assert!(
            Sprt {
                elo0: 5.0,
                elo1: 0.0,
                alpha: 0.05,
                beta: 0.05
            }
            .validate()
            .is_err()
        );
        assert!(
            Sprt {
                elo0: 0.0,
                elo1: 5.0,
                alpha: 0.0,
                beta: 0.05
            }
            .validate()
            .is_err()
        );
        assert!(sprt.validate().is_ok());
    }
}
