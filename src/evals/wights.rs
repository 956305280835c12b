//! The Dragon Queen heuristic of report 002: material, with a Queen worth more as she
//! advances. `x` in the Queen's worth `300 + 10x` is her row, 1 (start) to 5 (goal); the
//! report never defines it, this is the spec's reading.

use super::{HeuristicInfo, ParamError, ParamSpec, lookup};
use crate::core::{ActionEvaluator, Evaluator, Player, score_by_child};
use crate::games::wights::Wights;

/// Every Dragon Queen heuristic.
pub const HEURISTICS: &[HeuristicInfo] = &[HeuristicInfo {
    name: "material",
    formula: "Wights' side: wight * #W - dragon * #D - (queen + queen_row * row(Q)); Queen's side: its negation   (report 002)",
    params: &[
        ParamSpec::new("wight", 20.0, "worth of a Wight"),
        ParamSpec::new("dragon", 30.0, "worth of a Dragon"),
        ParamSpec::new("queen", 300.0, "base worth of the Queen"),
        ParamSpec::new(
            "queen_row",
            10.0,
            "added to the Queen's worth per row (1-5, her start row is 1)",
        ),
    ],
}];

/// Report 002's material evaluation with its weights.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Material {
    /// Worth of a Wight.
    pub wight: f64,
    /// Worth of a Dragon.
    pub dragon: f64,
    /// Base worth of the Queen.
    pub queen: f64,
    /// Queen's worth per row.
    pub queen_row: f64,
}

impl Material {
    /// The heuristic called `name` with parameters.
    ///
    /// # Errors
    /// An unknown name or parameter, or a value that is not a number.
    pub fn from_spec(name: &str, params: &[(String, String)]) -> Result<Material, ParamError> {
        let v = lookup("wights", HEURISTICS, name, params)?;
        Ok(Material {
            wight: v[0],
            dragon: v[1],
            queen: v[2],
            queen_row: v[3],
        })
    }

    /// The score for the Wights' side (P2).
    pub fn wights_score(&self, state: &Wights) -> f64 {
        let queen = state
            .queen_row()
            .map_or(0.0, |row| self.queen + self.queen_row * f64::from(row));
        self.wight * f64::from(state.wights().count_ones())
            - self.dragon * f64::from(state.dragons().count_ones())
            - queen
    }
}

impl Evaluator<Wights> for Material {
    fn evaluate(&self, state: &Wights, root: Player, _noise_seed: u64) -> f64 {
        let score = self.wights_score(state);
        match root {
            Player::P2 => score,
            Player::P1 => -score,
        }
    }
}

/// A move scores the evaluation of the position it leads to, for the mover.
impl ActionEvaluator<Wights> for Material {
    fn score(&self, state: &Wights, mv: crate::games::wights::Move, noise_seed: u64) -> f64 {
        score_by_child(self, state, mv, noise_seed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn worked_example_2() {
        let material = Material::from_spec("material", &[]).expect("known");
        let start = Wights::new();
        assert_eq!(material.evaluate(&start, Player::P2, 0), -300.0);
        assert_eq!(material.evaluate(&start, Player::P1, 0), 300.0);
        let advanced = Wights::from_dump(
            ". . . . .\n. D D D .\n. . Q . .\n. . . . .\nW W W W W\n",
            Player::P2,
            4,
        )
        .expect("valid");
        assert_eq!(material.evaluate(&advanced, Player::P2, 0), -320.0);
        let heavier =
            Material::from_spec("material", &[("queen".into(), "500".into())]).expect("valid");
        assert_eq!(heavier.evaluate(&start, Player::P1, 0), 500.0);
        assert!(Material::from_spec("mobility", &[]).is_err());
    }
}
