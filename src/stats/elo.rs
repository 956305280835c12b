//! Elo, likelihood of superiority, pentanomial pair statistics and the SPRT, as engine
//! testers compute them.
//!
//! * Elo from a score s (wins + draws/2 per game): `elo = -400 log10(1/s - 1)` (logistic
//!   model). The 95% interval maps `s +- 1.96 sqrt(var / n)` through the same function, with
//!   `var` the variance of the per-game (or per-pair) scores: the normal approximation used
//!   by cutechess-cli and fastchess.
//! * Likelihood of superiority: `LOS = Phi((W - L) / sqrt(W + L))`, draws ignored.
//! * SPRT: the generalised SPRT with the exact log-likelihood ratio, as fishtest
//!   (`LLR_logistic`, `LLR_normalized` in its `stat_util.py`) and fastchess compute it
//!   (M. Van den Bergh, "A practical introduction to the GSPRT", 2016, and "Normalized
//!   Elo", 2020). The outcomes are the N samples of a discrete distribution over the
//!   scores `a_i`: per game (trinomial, a = 0, 1/2, 1) or per colour-swapped pair
//!   (pentanomial, a = 0, 1/4, 1/2, 3/4, 1); `p_i` are the observed frequencies, an empty
//!   category counted as 0.001 (so a 60-0-0 record still has a spread). Under each
//!   hypothesis the maximum-likelihood distribution `q` with the hypothesis's statistic is
//!   `q_i = p_i / (1 + x h_i)`, x the root of the secular equation
//!   `sum_i p_i h_i / (1 + x h_i) = 0`:
//!   - logistic Elo (the default): the expected score is `s = 1 / (1 + 10^(-elo/400))`,
//!     and `h_i = a_i - s` (Proposition 1.1 of "support_MLE_multinomial");
//!   - normalized Elo: the t-value `(mu - 1/2) / sigma` equals `t = nelo / (800 / ln 10)`
//!     per game (times sqrt 2 per pair), and `h_i = a_i - 1/2 - t sigma (1 + ((mu - a_i) /
//!     sigma)^2) / 2` with mu, sigma those of the current `q`, iterated to a fixed point
//!     ("Normalized Elo practical", section 4.1).
//!
//!   Then `LLR = N sum_i p_i ln(q1_i / q0_i)`; accept H1 when `LLR >= ln((1-beta)/alpha)`,
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

/// The Elo scale an SPRT's hypotheses are written in.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Deserialize, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum EloModel {
    /// Logistic Elo: the expected score is `1 / (1 + 10^(-elo/400))`.
    #[default]
    Logistic,
    /// Normalized Elo: `(score - 1/2) / sigma` per game, scaled by `800 / ln 10`.
    Normalized,
}

impl EloModel {
    /// `logistic` or `normalized`, as experiment files write it.
    pub fn name(self) -> &'static str {
        match self {
            EloModel::Logistic => "logistic",
            EloModel::Normalized => "normalized",
        }
    }
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
    /// The scale of elo0 and elo1.
    #[serde(default)]
    pub model: EloModel,
}

/// The weight of an outcome category never observed (as fishtest regularizes).
const EMPTY_CATEGORY: f64 = 1e-3;

/// Normalized Elo per unit of t-value: 800 / ln 10.
const NELO_PER_T: f64 = 800.0 / std::f64::consts::LN_10;

/// Mean and variance of a distribution given as (score, probability) pairs.
fn moments(pdf: &[(f64, f64)]) -> (f64, f64) {
    let mean: f64 = pdf.iter().map(|&(a, p)| a * p).sum();
    let variance = pdf.iter().map(|&(a, p)| p * (a - mean).powi(2)).sum();
    (mean, variance)
}

/// The root x of `sum_i p_i h_i / (1 + x h_i) = 0` with every `1 + x h_i > 0`, for weights
/// `p_i > 0` and values `h_i` of both signs; `None` when the values do not straddle zero.
/// The function falls strictly on the interval, so Newton steps kept inside a shrinking
/// bracket (bisection when a step leaves it) find the root.
fn secular_root(p: &[f64], h: &[f64]) -> Option<f64> {
    let (low_h, high_h) = h
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(l, u), &v| {
            (l.min(v), u.max(v))
        });
    if !(low_h < 0.0 && high_h > 0.0) {
        return None;
    }
    let (mut low, mut high) = (-1.0 / high_h, -1.0 / low_h);
    let mut x = 0.0;
    for _ in 0..200 {
        let (mut value, mut slope) = (0.0, 0.0);
        for (&p, &h) in p.iter().zip(h) {
            let denominator = 1.0 + x * h;
            value += p * h / denominator;
            slope -= p * h * h / (denominator * denominator);
        }
        if value == 0.0 {
            return Some(x);
        }
        if value > 0.0 {
            low = x;
        } else {
            high = x;
        }
        let newton = x - value / slope;
        let next = if newton >= low && newton <= high && newton.is_finite() {
            newton
        } else {
            (low + high) / 2.0
        };
        if (next - x).abs() <= 1e-15 * (1.0 + x.abs()) {
            return Some(next);
        }
        x = next;
    }
    Some(x)
}

/// The maximum-likelihood distribution on the scores of `pdf` whose statistic is `target`
/// (the expected score for logistic Elo, the t-value against 1/2 for normalized Elo).
fn constrained_mle(pdf: &[(f64, f64)], model: EloModel, target: f64) -> Option<Vec<f64>> {
    let p: Vec<f64> = pdf.iter().map(|&(_, p)| p).collect();
    let project = |h: &[f64]| -> Option<Vec<f64>> {
        let x = secular_root(&p, h)?;
        Some(p.iter().zip(h).map(|(&p, &h)| p / (1.0 + x * h)).collect())
    };
    match model {
        EloModel::Logistic => {
            let h: Vec<f64> = pdf.iter().map(|&(a, _)| a - target).collect();
            project(&h)
        }
        EloModel::Normalized => {
            let mut q = vec![1.0 / pdf.len() as f64; pdf.len()];
            for _ in 0..100 {
                let current: Vec<(f64, f64)> =
                    pdf.iter().zip(&q).map(|(&(a, _), &q)| (a, q)).collect();
                let (mean, variance) = moments(&current);
                let sigma = variance.sqrt();
                let h: Vec<f64> = pdf
                    .iter()
                    .map(|&(a, _)| {
                        a - 0.5 - target * sigma * (1.0 + ((mean - a) / sigma).powi(2)) / 2.0
                    })
                    .collect();
                let next = project(&h)?;
                let change = next
                    .iter()
                    .zip(&q)
                    .map(|(a, b)| (a - b).abs())
                    .fold(0.0, f64::max);
                q = next;
                if change < 1e-12 {
                    break;
                }
            }
            Some(q)
        }
    }
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

    /// The exact generalized log-likelihood ratio of counted outcomes (module docs);
    /// `per_game` is 1 for single games, 2 for colour-swapped pairs (normalized Elo's
    /// t-value per sample grows by sqrt 2 with a pair).
    fn llr(&self, samples: &[(f64, u64)], per_game: f64) -> f64 {
        let n: u64 = samples.iter().map(|s| s.1).sum();
        if n == 0 {
            return 0.0;
        }
        let weights: Vec<f64> = samples
            .iter()
            .map(|&(_, count)| {
                if count == 0 {
                    EMPTY_CATEGORY
                } else {
                    count as f64
                }
            })
            .collect();
        let total: f64 = weights.iter().sum();
        let pdf: Vec<(f64, f64)> = samples
            .iter()
            .zip(&weights)
            .map(|(&(a, _), &w)| (a, w / total))
            .collect();
        let targets = match self.model {
            EloModel::Logistic => (score_of_elo(self.elo0), score_of_elo(self.elo1)),
            EloModel::Normalized => {
                let scale = per_game.sqrt() / NELO_PER_T;
                (self.elo0 * scale, self.elo1 * scale)
            }
        };
        let (Some(q0), Some(q1)) = (
            constrained_mle(&pdf, self.model, targets.0),
            constrained_mle(&pdf, self.model, targets.1),
        ) else {
            return 0.0;
        };
        let per_sample: f64 = pdf
            .iter()
            .zip(q0.iter().zip(&q1))
            .map(|(&(_, p), (&q0, &q1))| p * (q1.ln() - q0.ln()))
            .sum();
        total * per_sample
    }

    /// The log-likelihood ratio from game results.
    pub fn llr_trinomial(&self, wins: u64, draws: u64, losses: u64) -> f64 {
        self.llr(&trinomial(wins, draws, losses), 1.0)
    }

    /// The log-likelihood ratio from colour-swapped pairs.
    pub fn llr_pentanomial(&self, counts: &[u64; 5]) -> f64 {
        self.llr(&pentanomial(counts), 2.0)
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
            model: EloModel::Logistic,
        };
        assert_eq!(sprt.llr_trinomial(0, 0, 0), 0.0);
        assert!(
            sprt.llr_trinomial(5, 0, 0) > 0.0,
            "a perfect record moves the test"
        );
        assert!(sprt.llr_pentanomial(&[0, 0, 4, 0, 0]) < 0.0);
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
            model: EloModel::Logistic,
        };
        let (lower, upper) = sprt.bounds();
        assert!(close(lower, -2.944439, 1e-5) && close(upper, 2.944439, 1e-5));
        // Reference values from an independent Python transcription of the formulas in
        // the module docs (bisection for the secular equation, 3000 halvings).
        let llr = sprt.llr_trinomial(60, 20, 20);
        assert!(close(llr, 5.955639, 1e-5), "{llr}");
        assert_eq!(sprt.decide(llr), SprtDecision::H1);
        assert_eq!(sprt.decide(-3.0), SprtDecision::H0);
        assert_eq!(sprt.decide(0.1), SprtDecision::Continue);
        assert!(
            Sprt {
                elo0: 5.0,
                elo1: 0.0,
                alpha: 0.05,
                beta: 0.05,
                model: EloModel::Logistic,
            }
            .validate()
            .is_err()
        );
        assert!(
            Sprt {
                elo0: 0.0,
                elo1: 5.0,
                alpha: 0.0,
                beta: 0.05,
                model: EloModel::Logistic,
            }
            .validate()
            .is_err()
        );
        assert!(sprt.validate().is_ok());
    }

    fn sprt(elo0: f64, elo1: f64, model: EloModel) -> Sprt {
        Sprt {
            elo0,
            elo1,
            alpha: 0.05,
            beta: 0.05,
            model,
        }
    }

    #[test]
    fn exact_llr_matches_reference_values() {
        // (losses, draws, wins) or pentanomial counts, LLR for logistic SPRT(0, 50) and
        // normalized SPRT(0, 5), from the independent Python transcription.
        let logistic = sprt(0.0, 50.0, EloModel::Logistic);
        let normalized = sprt(0.0, 5.0, EloModel::Normalized);
        for (wins, draws, losses, expected, expected_normalized) in [
            (60, 20, 20, 5.955639396795771, 0.6333481402808693),
            (60, 0, 0, 8.015490130707235, 0.8572197128110111),
            (60, 1, 0, 8.14894281659289, 0.8643006693151766),
            (5, 0, 0, 0.6679385251741126, 0.07142821135404094),
        ] {
            let llr = logistic.llr_trinomial(wins, draws, losses);
            assert!(close(llr, expected, 1e-6), "{wins}-{draws}-{losses}: {llr}");
            let llr = normalized.llr_trinomial(wins, draws, losses);
            assert!(
                close(llr, expected_normalized, 1e-6),
                "normalized {wins}-{draws}-{losses}: {llr}"
            );
        }
        for (counts, expected, expected_normalized) in [
            ([0, 0, 100, 0, 0], -15.413429671371105, -0.03753988283644685),
            ([1, 3, 8, 5, 3], 0.7741183320495433, 0.10745584846444212),
            ([2, 4, 4, 5, 5], 0.6576494698680485, 0.10126753664120434),
        ] {
            let llr = logistic.llr_pentanomial(&counts);
            assert!(close(llr, expected, 1e-6), "{counts:?}: {llr}");
            let llr = normalized.llr_pentanomial(&counts);
            assert!(
                close(llr, expected_normalized, 1e-6),
                "normalized {counts:?}: {llr}"
            );
        }
    }

    #[test]
    fn records_without_spread_reach_a_verdict_and_one_draw_does_not_jump() {
        let test = sprt(0.0, 40.0, EloModel::Logistic);
        assert_eq!(test.decide(test.llr_trinomial(60, 0, 0)), SprtDecision::H1);
        assert_eq!(
            test.decide(test.llr_pentanomial(&[0, 0, 100, 0, 0])),
            SprtDecision::H0
        );
        assert!(close(
            test.llr_pentanomial(&[0, 0, 100, 0, 0]),
            -12.164627662096986,
            1e-6
        ));
        let perfect = test.llr_trinomial(60, 0, 0);
        let one_draw = test.llr_trinomial(60, 1, 0);
        assert!((one_draw - perfect).abs() < 1.0, "{perfect} -> {one_draw}");
        // Symmetry: the mirrored record gives the LLR of the mirrored test.
        let mirrored = sprt(-40.0, 0.0, EloModel::Logistic);
        assert!(close(
            test.llr_trinomial(30, 20, 10),
            -mirrored.llr_trinomial(10, 20, 30),
            1e-9
        ));
    }

    /// Runs SPRTs on simulated results whose true Elo is `elo` (draws with probability
    /// `draw`, pairs if `paired`) and returns the share of runs that accepted H1.
    fn share_accepting_h1(test: &Sprt, elo: f64, draw: f64, paired: bool, runs: u64) -> f64 {
        use crate::stats::tests_rng::Rng;
        let score = score_of_elo(elo);
        let win = score - draw / 2.0;
        let mut rng = Rng(elo.to_bits() ^ u64::from(paired) ^ 0x5eed);
        let mut game = move || -> u8 {
            let u = rng.unit();
            if u < win {
                2
            } else if u < win + draw {
                1
            } else {
                0
            }
        };
        let mut accepted = 0;
        for _ in 0..runs {
            let (mut trinomial, mut pentanomial) = ([0u64; 3], [0u64; 5]);
            let decision = loop {
                let llr = if paired {
                    pentanomial[usize::from(game() + game())] += 1;
                    test.llr_pentanomial(&pentanomial)
                } else {
                    trinomial[usize::from(game())] += 1;
                    test.llr_trinomial(trinomial[2], trinomial[1], trinomial[0])
                };
                match test.decide(llr) {
                    SprtDecision::Continue => {}
                    decided => break decided,
                }
            };
            accepted += u64::from(decision == SprtDecision::H1);
        }
        accepted as f64 / runs as f64
    }

    #[test]
    fn simulated_error_rates_are_alpha_and_beta() {
        // SPRT(0, 40), alpha = beta = 0.05, 30% draws: under H0 about 5% of runs accept
        // H1, under H1 about 5% accept H0 (the quadratic approximation gave 15-19%).
        let test = sprt(0.0, 40.0, EloModel::Logistic);
        for paired in [false, true] {
            let runs = 3000;
            let false_h1 = share_accepting_h1(&test, 0.0, 0.3, paired, runs);
            let false_h0 = 1.0 - share_accepting_h1(&test, 40.0, 0.3, paired, runs);
            assert!(
                (false_h1 - 0.05).abs() <= 0.015 && (false_h0 - 0.05).abs() <= 0.015,
                "paired {paired}: alpha {false_h1:.4}, beta {false_h0:.4}"
            );
        }
    }
}
