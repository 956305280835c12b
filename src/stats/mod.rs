//! Pure statistics used by summaries and reports (intervals, Elo, SPRT, ratings, SPSA steps,
//! logistic fits); uses no other layer and touches no file.

pub mod elo;
pub mod logistic;
pub mod plackett_luce;
pub mod ratings;
pub mod spsa;

/// The two-sided 95% normal quantile.
pub const Z95: f64 = 1.959_963_984_540_054;

/// A running count, sum and sum of squares of numbers (a player's returns): their mean and
/// its normal-approximation interval.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Moments {
    /// Numbers added.
    pub count: u64,
    /// Their sum.
    pub sum: f64,
    /// The sum of their squares.
    pub squares: f64,
}

impl Moments {
    /// Adds `x`.
    pub fn add(&mut self, x: f64) {
        self.count += 1;
        self.sum += x;
        self.squares += x * x;
    }

    /// The mean (`None` before the first number).
    pub fn mean(&self) -> Option<f64> {
        (self.count > 0).then(|| self.sum / self.count as f64)
    }

    /// The mean's interval at `z` standard errors, from the sample's standard deviation
    /// (`None` before two numbers).
    pub fn interval(&self, z: f64) -> Option<(f64, f64)> {
        if self.count < 2 {
            return None;
        }
        let n = self.count as f64;
        let mean = self.sum / n;
        let variance = ((self.squares - n * mean * mean) / (n - 1.0)).max(0.0);
        let half = z * (variance / n).sqrt();
        Some((mean - half, mean + half))
    }
}

/// The Wilson score interval for `successes` out of `trials` at normal quantile `z`
/// (E. B. Wilson, 1927). With no trials the interval is the whole of [0, 1].
pub fn wilson_interval(successes: u64, trials: u64, z: f64) -> (f64, f64) {
    if trials == 0 {
        return (0.0, 1.0);
    }
    let n = trials as f64;
    let p = successes as f64 / n;
    let z2 = z * z;
    let centre = (p + z2 / (2.0 * n)) / (1.0 + z2 / n);
    let half = z / (1.0 + z2 / n) * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    // At p = 0 or 1 the bound is exactly 0 or 1; say so rather than trust rounding.
    let low = if successes == 0 {
        0.0
    } else {
        (centre - half).max(0.0)
    };
    let high = if successes >= trials {
        1.0
    } else {
        (centre + half).min(1.0)
    };
    (low, high)
}

/// The two-sided p-value of Fisher's exact test on the 2x2 table `[[a, b], [c, d]]` (two
/// samples: `a` successes and `b` failures against `c` and `d`): the probability, with the
/// margins fixed, of every table no more likely than the one observed (the convention of
/// R's `fisher.test`, with a relative tolerance of 1e-7 for ties).
pub fn fisher_exact(a: u64, b: u64, c: u64, d: u64) -> f64 {
    let n = a + b + c + d;
    let (row, column) = (a + b, a + c);
    if n == 0 || row == 0 || row == n || column == 0 || column == n {
        return 1.0;
    }
    // ln k! for k = 0..=n.
    let mut ln_factorial = Vec::with_capacity(n as usize + 1);
    let mut sum = 0.0f64;
    ln_factorial.push(0.0);
    for k in 1..=n {
        sum += (k as f64).ln();
        ln_factorial.push(sum);
    }
    let lf = |k: u64| ln_factorial[k as usize];
    // The probability of the table whose top-left cell is x.
    let fixed = lf(row) + lf(n - row) + lf(column) + lf(n - column) - lf(n);
    let probability =
        |x: u64| (fixed - lf(x) - lf(row - x) - lf(column - x) - lf(n + x - row - column)).exp();
    let observed = probability(a);
    let lowest = (row + column).saturating_sub(n);
    let highest = row.min(column);
    (lowest..=highest)
        .map(probability)
        .filter(|&p| p <= observed * (1.0 + 1e-7))
        .sum::<f64>()
        .min(1.0)
}

/// The standard normal distribution function, from the complementary error function
/// approximation of W. H. Press et al., Numerical Recipes (3rd ed.), section 6.2.2
/// (Chebyshev fit, fractional error below 1.2e-7).
pub fn normal_cdf(x: f64) -> f64 {
    let z = x.abs() / std::f64::consts::SQRT_2;
    let t = 1.0 / (1.0 + 0.5 * z);
    let polynomial = -z * z - 1.265_512_23
        + t * (1.000_023_68
            + t * (0.374_091_96
                + t * (0.096_784_18
                    + t * (-0.186_288_06
                        + t * (0.278_868_07
                            + t * (-1.135_203_98
                                + t * (1.488_515_87 + t * (-0.822_152_23 + t * 0.170_872_77))))))));
    let erfc = t * polynomial.exp();
    if x >= 0.0 {
        1.0 - 0.5 * erfc
    } else {
        0.5 * erfc
    }
}

/// `numerator / denominator`, or 0 when the denominator is 0.
pub fn ratio(numerator: f64, denominator: f64) -> f64 {
    if denominator == 0.0 {
        0.0
    } else {
        numerator / denominator
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Hand-computed: with margins fixed the top-left cell x has probability
    /// C(r, x) C(n - r, c - x) / C(n, c).
    #[test]
    fn fisher_exact_matches_hand_computed_tables() {
        // Margins 4/4 of 8: P(x) = C(4,x)^2 / 70 = 1, 16, 36, 16, 1 (/70); x = 3 sums all
        // but the 36.
        assert!((fisher_exact(3, 1, 1, 3) - 34.0 / 70.0).abs() < 1e-12);
        // Perfect separation of 10 and 10: the two extreme tables, 2 / C(20, 10).
        assert!((fisher_exact(10, 0, 0, 10) - 2.0 / 184_756.0).abs() < 1e-15);
        // Margins 2 and 3 of 6: P = 0.2, 0.6, 0.2; x = 2 gives 0.4.
        assert!((fisher_exact(2, 0, 1, 3) - 0.4).abs() < 1e-12);
        // The same samples in the other order, or with rows swapped: the same test.
        assert!((fisher_exact(1, 3, 2, 0) - 0.4).abs() < 1e-12);
        // Equal proportions are as likely as anything: p = 1.
        assert_eq!(fisher_exact(1, 0, 0, 1), 1.0);
        assert_eq!(fisher_exact(50, 50, 50, 50), 1.0);
        // Degenerate margins (no successes at all): nothing to test.
        assert_eq!(fisher_exact(0, 100, 0, 100), 1.0);
        assert_eq!(fisher_exact(0, 0, 0, 0), 1.0);
    }

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 5e-4
    }

    #[test]
    fn normal_cdf_known_values() {
        assert!((normal_cdf(0.0) - 0.5).abs() < 1e-7);
        assert!((normal_cdf(1.959964) - 0.975).abs() < 1e-6);
        assert!((normal_cdf(-1.0) - 0.158655).abs() < 1e-6);
        assert!((normal_cdf(3.0) - 0.998650).abs() < 1e-6);
    }

    #[test]
    fn wilson_matches_hand_computed_values() {
        // 8 of 10: centre (0.8 + 0.19208)/1.38415 = 0.71677, half 0.22846.
        let (lo, hi) = wilson_interval(8, 10, Z95);
        assert!(close(lo, 0.4902) && close(hi, 0.9433), "{lo} {hi}");
        // 50 of 100: symmetric about one half.
        let (lo, hi) = wilson_interval(50, 100, Z95);
        assert!(close(lo, 0.4038) && close(hi, 0.5962), "{lo} {hi}");
    }

    #[test]
    fn moments_give_the_mean_and_its_interval_by_hand() {
        let mut m = Moments::default();
        assert_eq!((m.mean(), m.interval(Z95)), (None, None));
        for x in [2.0, -1.0, 1.0, -2.0, 5.0] {
            m.add(x);
        }
        // Mean 1, sample variance (1 + 4 + 0 + 9 + 16) / 4 = 7.5, standard error
        // sqrt(7.5 / 5) = 1.2247.
        assert_eq!(m.mean(), Some(1.0));
        let (low, high) = m.interval(Z95).expect("five numbers");
        assert!((low - (1.0 - Z95 * 1.5f64.sqrt())).abs() < 1e-12, "{low}");
        assert!((high - (1.0 + Z95 * 1.5f64.sqrt())).abs() < 1e-12, "{high}");
    }

    #[test]
    fn wilson_edge_cases_stay_in_range() {
        let (lo, hi) = wilson_interval(0, 10, Z95);
        assert_eq!(lo, 0.0);
        assert!(close(hi, 0.2775), "{hi}");
        let (lo, hi) = wilson_interval(10, 10, Z95);
        assert!(close(lo, 0.7225), "{lo}");
        assert_eq!(hi, 1.0);
        assert_eq!(wilson_interval(0, 0, Z95), (0.0, 1.0));
        assert_eq!(ratio(1.0, 0.0), 0.0);
        assert_eq!(ratio(3.0, 2.0), 1.5);
    }
}

/// A tiny seeded generator for the statistics tests' simulations (SplitMix64), so that the
/// pure-math layer needs no random-number crate.
#[cfg(test)]
pub(crate) mod tests_rng {
    /// SplitMix64 state.
    pub struct Rng(pub u64);

    impl Rng {
        /// A uniform number in [0, 1).
        pub fn unit(&mut self) -> f64 {
            self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = self.0;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            z ^= z >> 31;
            (z >> 11) as f64 / (1u64 << 53) as f64
        }
    }
}
