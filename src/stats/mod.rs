//! Pure statistics used by summaries and reports.

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
