//! Logistic regression of game results on position features (the "Texel" way of fitting
//! an evaluation to recorded games): the probability that the side to move goes on to win
//! is modelled as `sigmoid(b + w . x)`, and `w` minimises the mean cross-entropy against
//! the results (1 win, 1/2 draw, 0 loss) plus a small L2 penalty. Full-batch gradient
//! descent with Adam on standardised features: deterministic, no randomness at all.

/// The fitted model.
#[derive(Clone, Debug, PartialEq)]
pub struct Fit {
    /// The weight of each feature, in the features' own units (logits per unit).
    pub weights: Vec<f64>,
    /// The intercept (logits).
    pub intercept: f64,
    /// Mean cross-entropy of the fitted model.
    pub loss: f64,
    /// Mean cross-entropy of the best constant model (the base rate alone).
    pub base_loss: f64,
}

fn sigmoid(z: f64) -> f64 {
    1.0 / (1.0 + (-z).exp())
}

/// Cross-entropy of predicting `p` for result `y` (clamped away from 0 and 1).
fn cross_entropy(y: f64, p: f64) -> f64 {
    let p = p.clamp(1e-12, 1.0 - 1e-12);
    -(y * p.ln() + (1.0 - y) * (1.0 - p).ln())
}

/// Fits `results` (each in [0, 1]) on the feature rows `x` (all of one length) with
/// `iterations` Adam steps; `l2`: the penalty on the standardised weights.
///
/// # Panics
/// Never: empty input gives zero weights.
pub fn fit(x: &[Vec<f64>], results: &[f64], iterations: usize, l2: f64) -> Fit {
    let n = x.len().min(results.len());
    let width = x.first().map_or(0, Vec::len);
    if n == 0 {
        return Fit {
            weights: vec![0.0; width],
            intercept: 0.0,
            loss: 0.0,
            base_loss: 0.0,
        };
    }
    // Standardise: a feature that never varies gets weight 0.
    let mut mean = vec![0.0; width];
    let mut scale = vec![0.0; width];
    for row in &x[..n] {
        for (j, v) in row.iter().enumerate() {
            mean[j] += v / n as f64;
        }
    }
    for row in &x[..n] {
        for (j, v) in row.iter().enumerate() {
            scale[j] += (v - mean[j]).powi(2) / n as f64;
        }
    }
    for (s, m) in scale.iter_mut().zip(&mean) {
        *s = s.sqrt();
        // Rounding leaves a constant feature a tiny spread: treat it as none.
        if *s <= 1e-9 * (1.0 + m.abs()) {
            *s = 0.0;
        }
    }
    let z = |row: &[f64], j: usize| {
        if scale[j] > 0.0 {
            (row[j] - mean[j]) / scale[j]
        } else {
            0.0
        }
    };
    let base = results[..n].iter().sum::<f64>() / n as f64;
    let base_loss = results[..n]
        .iter()
        .map(|&y| cross_entropy(y, base))
        .sum::<f64>()
        / n as f64;
    // Parameters: the standardised weights, then the intercept.
    let mut theta = vec![0.0; width + 1];
    theta[width] = (base.clamp(1e-6, 1.0 - 1e-6) / (1.0 - base.clamp(1e-6, 1.0 - 1e-6))).ln();
    let (mut m, mut v) = (vec![0.0; width + 1], vec![0.0; width + 1]);
    let (rate, beta1, beta2, epsilon) = (0.05, 0.9, 0.999, 1e-8);
    let mut gradient = vec![0.0; width + 1];
    for step in 1..=iterations {
        gradient.iter_mut().for_each(|g| *g = 0.0);
        for (row, &y) in x[..n].iter().zip(&results[..n]) {
            let logit = theta[width] + (0..width).map(|j| theta[j] * z(row, j)).sum::<f64>();
            let error = sigmoid(logit) - y;
            for (j, g) in gradient[..width].iter_mut().enumerate() {
                *g += error * z(row, j) / n as f64;
            }
            gradient[width] += error / n as f64;
        }
        for (g, t) in gradient[..width].iter_mut().zip(&theta) {
            *g += l2 * t;
        }
        for j in 0..=width {
            m[j] = beta1 * m[j] + (1.0 - beta1) * gradient[j];
            v[j] = beta2 * v[j] + (1.0 - beta2) * gradient[j] * gradient[j];
            let m_hat = m[j] / (1.0 - beta1.powi(step as i32));
            let v_hat = v[j] / (1.0 - beta2.powi(step as i32));
            theta[j] -= rate * m_hat / (v_hat.sqrt() + epsilon);
        }
    }
    // Back to the features' own units.
    let weights: Vec<f64> = (0..width)
        .map(|j| {
            if scale[j] > 0.0 {
                theta[j] / scale[j]
            } else {
                0.0
            }
        })
        .collect();
    let intercept = theta[width] - (0..width).map(|j| weights[j] * mean[j]).sum::<f64>();
    let loss = x[..n]
        .iter()
        .zip(&results[..n])
        .map(|(row, &y)| {
            let logit = intercept + row.iter().zip(&weights).map(|(a, w)| a * w).sum::<f64>();
            cross_entropy(y, sigmoid(logit))
        })
        .sum::<f64>()
        / n as f64;
    Fit {
        weights,
        intercept,
        loss,
        base_loss,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_known_model_is_recovered_from_its_own_outcomes() {
        // Results drawn (deterministically) from sigmoid(0.8 a - 0.3 b + 0.1); c is noise.
        let mut rng = crate::stats::tests_rng::Rng(7);
        let (mut x, mut y) = (Vec::new(), Vec::new());
        for _ in 0..20_000 {
            let (a, b, c) = (rng.unit() * 6.0 - 3.0, rng.unit() * 10.0, rng.unit());
            let p = sigmoid(0.8 * a - 0.3 * b + 0.1);
            x.push(vec![a, b, c, 5.0]);
            y.push(if rng.unit() < p { 1.0 } else { 0.0 });
        }
        let fit = fit(&x, &y, 400, 0.0);
        assert!((fit.weights[0] - 0.8).abs() < 0.06, "{fit:?}");
        assert!((fit.weights[1] + 0.3).abs() < 0.03, "{fit:?}");
        assert!(fit.weights[2].abs() < 0.2, "{fit:?}");
        assert_eq!(fit.weights[3], 0.0, "a constant feature gets no weight");
        assert!(fit.loss < fit.base_loss);
    }

    #[test]
    fn no_positions_give_zero_weights() {
        let fit = fit(&[], &[], 10, 0.0);
        assert!(fit.weights.is_empty() && fit.loss == 0.0);
    }
}
