//! Simultaneous perturbation stochastic approximation (SPSA) as chess engine testers run it
//! (fishtest's schedule): every iteration moves all parameters at once by +c or -c, plays
//! the two perturbed versions against each other, and steps each parameter along the
//! result. Pure math: the caller plays the games.
//!
//! With `N` iterations, a parameter's step size `c_end` and the learning rate `r_end`
//! (both at the last iteration), iteration `k` (from 0) uses
//! `c_k = c_end * N^gamma / (k+1)^gamma` and `a_k = r_end * c_end^2 * (A+N)^alpha / (A+k+1)^alpha`
//! with `alpha = 0.602`, `gamma = 0.101`, `A = N / 10`, and moves the parameter by
//! `a_k * result / (c_k * flip)`, `flip` being its perturbation's sign and `result` the
//! plus version's wins minus losses.

/// Fishtest's (and Spall's) exponent of the learning-rate decay.
pub const ALPHA: f64 = 0.602;
/// Fishtest's (and Spall's) exponent of the perturbation decay.
pub const GAMMA: f64 = 0.101;

/// One tuned parameter.
#[derive(Clone, Debug, PartialEq)]
pub struct Parameter {
    /// Its name (a key of the agent spec).
    pub name: String,
    /// The value the tuning starts from.
    pub start: f64,
    /// The smallest value tried.
    pub min: f64,
    /// The largest value tried.
    pub max: f64,
    /// The perturbation at the last iteration (`c_end`).
    pub step: f64,
    /// Whether the agent takes whole numbers (values are rounded when used).
    pub integer: bool,
}

impl Parameter {
    /// `value` within the parameter's range.
    pub fn clamp(&self, value: f64) -> f64 {
        value.clamp(self.min, self.max)
    }

    /// `value` as the agent receives it: rounded for a whole-number parameter, else to
    /// four decimals.
    pub fn used(&self, value: f64) -> f64 {
        if self.integer {
            value.round()
        } else {
            (value * 1e4).round() / 1e4
        }
    }
}

/// The schedule of one tuning run.
#[derive(Clone, Debug, PartialEq)]
pub struct Spsa {
    /// The parameters, in order.
    pub parameters: Vec<Parameter>,
    /// Iterations planned (`N`).
    pub iterations: u64,
    /// The learning rate at the last iteration (`r_end`).
    pub learning_rate: f64,
}

impl Spsa {
    /// The perturbation size of parameter `index` at iteration `k`.
    pub fn c(&self, index: usize, k: u64) -> f64 {
        let n = self.iterations.max(1) as f64;
        self.parameters[index].step * n.powf(GAMMA) / ((k + 1) as f64).powf(GAMMA)
    }

    /// The gain of parameter `index` at iteration `k`.
    pub fn a(&self, index: usize, k: u64) -> f64 {
        let n = self.iterations.max(1) as f64;
        let big_a = n / 10.0;
        let step = self.parameters[index].step;
        self.learning_rate * step * step * (big_a + n).powf(ALPHA)
            / (big_a + (k + 1) as f64).powf(ALPHA)
    }

    /// The starting values.
    pub fn start(&self) -> Vec<f64> {
        self.parameters.iter().map(|p| p.start).collect()
    }

    /// The values the plus (`sign` 1) or minus (`sign` -1) version plays with at iteration
    /// `k`, from `theta` and the perturbation signs `flips` (each 1 or -1).
    pub fn perturbed(&self, theta: &[f64], k: u64, flips: &[f64], sign: f64) -> Vec<f64> {
        self.parameters
            .iter()
            .enumerate()
            .map(|(i, p)| p.clamp(theta[i] + sign * self.c(i, k) * flips[i]))
            .collect()
    }

    /// The values after iteration `k`, whose plus version scored `result` (wins minus
    /// losses) against the minus version.
    pub fn step(&self, theta: &[f64], k: u64, flips: &[f64], result: f64) -> Vec<f64> {
        self.parameters
            .iter()
            .enumerate()
            .map(|(i, p)| p.clamp(theta[i] + self.a(i, k) * result / (self.c(i, k) * flips[i])))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spsa() -> Spsa {
        Spsa {
            parameters: vec![Parameter {
                name: "x".to_string(),
                start: 0.0,
                min: -100.0,
                max: 100.0,
                step: 2.0,
                integer: false,
            }],
            iterations: 100,
            learning_rate: 0.002,
        }
    }

    #[test]
    fn the_schedule_ends_at_the_given_step_and_rate() {
        let s = spsa();
        // c_{N-1} = c_end exactly; a_{N-1} = r_end * c_end^2.
        assert!((s.c(0, 99) - 2.0).abs() < 1e-12);
        assert!((s.a(0, 99) - 0.002 * 4.0).abs() < 1e-12);
        // Both shrink as the iterations go on: 100^0.101 = 1.592...
        assert!((s.c(0, 0) - 2.0 * 100f64.powf(0.101)).abs() < 1e-12);
        assert!(s.a(0, 0) > s.a(0, 50) && s.a(0, 50) > s.a(0, 99));
    }

    #[test]
    fn a_step_follows_the_result_and_stays_in_range() {
        let s = spsa();
        let plus = s.perturbed(&[1.0], 99, &[-1.0], 1.0);
        assert_eq!(plus, vec![-1.0]);
        // The plus version (x - 2) won by 4: x moves down by a/c * 4 = 0.008/2 * 4.
        let next = s.step(&[1.0], 99, &[-1.0], 4.0);
        assert!((next[0] - (1.0 - 0.016)).abs() < 1e-12, "{next:?}");
        // A draw leaves it; the range holds.
        assert_eq!(s.step(&[1.0], 99, &[1.0], 0.0), vec![1.0]);
        assert_eq!(s.step(&[99.99], 0, &[1.0], 1e6), vec![100.0]);
        assert_eq!(s.perturbed(&[-99.5], 0, &[-1.0], 1.0), vec![-100.0]);
    }

    #[test]
    fn used_values_are_rounded_as_the_agent_takes_them() {
        let mut p = spsa().parameters[0].clone();
        assert_eq!(p.used(1.234_56), 1.2346);
        p.integer = true;
        assert_eq!(p.used(2.5), 3.0);
        assert_eq!(p.used(-2.4), -2.0);
    }
}
