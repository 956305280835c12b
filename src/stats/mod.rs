//! Pure statistics used by summaries and reports (intervals, Elo, SPRT, ratings); uses no
//! other layer and touches no file.

pub mod elo;
pub mod ratings;

/// The two-sided 95% normal quantile.
pub const Z95: f64 = 1.959_963_984_540_054;

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
