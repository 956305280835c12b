//! Plackett-Luce ratings from the places of games of two or more players, on the Elo scale.
//!
//! Model: a game's finishing order is drawn a place at a time, each player still unplaced
//! taking the next place with probability `g_i / (sum of the unplaced g)`. For two players
//! it is Bradley-Terry ([`super::ratings`]), and the fit here gives the same ratings. The
//! strengths are fitted by maximum likelihood with Hunter's MM algorithm (D. R. Hunter,
//! "MM algorithms for generalized Bradley-Terry models", Annals of Statistics 32, 2004,
//! section 5). Players who share a place count as every order of them alike (each order
//! weighing 1/k! for k tied; a tie of more than four is taken in the order given). As the
//! pairwise fit does, one virtual drawn two-player game between every two agents keeps every
//! rating finite. Ratings are `400 log10 g`, averaging 0; the 95% intervals come from
//! the Fisher information of `ln g` under that sum-zero constraint.

use super::ratings::{Rating, invert, rescale};

/// The most players sharing a place whose every order is weighed; a bigger tie is taken
/// in the order given.
const MAX_TIE_ORDERS: usize = 4;

/// The agents of one game with their places (1 for the best; equal places are a tie).
pub type Finish = [(usize, u8)];

/// One finishing order (agents best first) and its weight.
struct Order {
    agents: Vec<usize>,
    weight: f64,
}

/// The orders a finish counts as: every order of each tie, weighed alike.
fn orders(finish: &Finish) -> Vec<Order> {
    let mut sorted: Vec<(usize, u8)> = finish.to_vec();
    sorted.sort_by_key(|&(_, place)| place);
    let mut groups: Vec<Vec<usize>> = Vec::new();
    for (i, &(agent, place)) in sorted.iter().enumerate() {
        match groups.last_mut() {
            Some(group) if i > 0 && sorted[i - 1].1 == place => group.push(agent),
            _ => groups.push(vec![agent]),
        }
    }
    let mut orders = vec![Order {
        agents: Vec::new(),
        weight: 1.0,
    }];
    for group in groups {
        let arrangements = if group.len() <= MAX_TIE_ORDERS {
            permutations(&group)
        } else {
            vec![group]
        };
        let share = 1.0 / arrangements.len() as f64;
        orders = orders
            .iter()
            .flat_map(|order| {
                arrangements.iter().map(move |arrangement| Order {
                    agents: order.agents.iter().chain(arrangement).copied().collect(),
                    weight: order.weight * share,
                })
            })
            .collect();
    }
    orders
}

/// Every order of `items`.
fn permutations(items: &[usize]) -> Vec<Vec<usize>> {
    if items.len() <= 1 {
        return vec![items.to_vec()];
    }
    let mut all = Vec::new();
    for (i, &first) in items.iter().enumerate() {
        let rest: Vec<usize> = items
            .iter()
            .enumerate()
            .filter(|&(j, _)| j != i)
            .map(|(_, &x)| x)
            .collect();
        for mut tail in permutations(&rest) {
            tail.insert(0, first);
            all.push(tail);
        }
    }
    all
}

/// Fits the ratings of `agents` agents from `finishes` (see the module's text). Each
/// rating's `games` is the number of finishes the agent is in.
pub fn plackett_luce(agents: usize, finishes: &[Vec<(usize, u8)>]) -> Vec<Rating> {
    let counted: Vec<(Vec<(usize, u8)>, u64)> = finishes.iter().map(|f| (f.clone(), 1)).collect();
    plackett_luce_counted(agents, &counted)
}

/// As [`plackett_luce`], each distinct finish given once with how often it happened (a
/// run's data then takes the room of the orders there are, not of the games).
pub fn plackett_luce_counted(agents: usize, finishes: &[(Vec<(usize, u8)>, u64)]) -> Vec<Rating> {
    if agents == 0 {
        return Vec::new();
    }
    let mut data: Vec<Order> = finishes
        .iter()
        .flat_map(|(f, count)| {
            orders(f).into_iter().map(move |order| Order {
                weight: order.weight * *count as f64,
                ..order
            })
        })
        .filter(|order| order.agents.len() > 1)
        .collect();
    // The prior: a virtual drawn game between every two agents.
    for i in 0..agents {
        for j in i + 1..agents {
            data.extend(orders(&[(i, 1), (j, 1)]));
        }
    }
    let mut strength = vec![1.0f64; agents];
    for _ in 0..10_000 {
        let mut wins = vec![0.0; agents];
        let mut denominator = vec![0.0; agents];
        for order in &data {
            let mut remaining: f64 = order.agents.iter().map(|&a| strength[a]).sum();
            for (stage, &winner) in order.agents.iter().enumerate().take(order.agents.len() - 1) {
                wins[winner] += order.weight;
                for &a in &order.agents[stage..] {
                    denominator[a] += order.weight / remaining;
                }
                remaining -= strength[winner];
            }
        }
        let mut next: Vec<f64> = (0..agents)
            .map(|i| {
                if denominator[i] > 0.0 {
                    wins[i] / denominator[i]
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
    // Fisher information of ln g: each stage adds weight x (diag(p) - p p^T) over the
    // agents still unplaced, p their chances of the place.
    let mut information = vec![vec![0.0; agents]; agents];
    for order in &data {
        for stage in 0..order.agents.len() - 1 {
            let rest = &order.agents[stage..];
            let total: f64 = rest.iter().map(|&a| strength[a]).sum();
            for &a in rest {
                let pa = strength[a] / total;
                information[a][a] += order.weight * pa;
                for &b in rest {
                    information[a][b] -= order.weight * pa * strength[b] / total;
                }
            }
        }
    }
    let n = agents as f64;
    let shifted: Vec<Vec<f64>> = information
        .iter()
        .map(|row| row.iter().map(|v| v + 1.0 / n).collect())
        .collect();
    let inverse = invert(shifted);
    let ln10_over_400 = std::f64::consts::LN_10 / 400.0;
    (0..agents)
        .map(|i| {
            let variance = inverse
                .as_ref()
                .map_or(f64::INFINITY, |m| m[i][i] - 1.0 / n)
                .max(0.0);
            Rating {
                elo: strength[i].ln() / ln10_over_400,
                margin: super::Z95 * variance.sqrt() / ln10_over_400,
                games: finishes
                    .iter()
                    .filter(|(f, _)| f.iter().any(|&(a, _)| a == i))
                    .map(|(_, count)| count)
                    .sum(),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::seeds;
    use crate::stats::ratings::{Results, bradley_terry};

    #[test]
    fn two_player_games_give_the_bradley_terry_ratings() {
        // 0 beats 1 12 times, loses 5, draws 3; 1 beats 2 7 times, loses 6; 0 and 2 draw 4.
        let mut finishes = Vec::new();
        let mut results = Results::new(3);
        let mut add = |a: usize, b: usize, places: (u8, u8), times: usize| {
            for _ in 0..times {
                finishes.push(vec![(a, places.0), (b, places.1)]);
                let score = match places.0.cmp(&places.1) {
                    std::cmp::Ordering::Less => 1.0,
                    std::cmp::Ordering::Equal => 0.5,
                    std::cmp::Ordering::Greater => 0.0,
                };
                results.add(a, b, score);
            }
        };
        add(0, 1, (1, 2), 12);
        add(0, 1, (2, 1), 5);
        add(0, 1, (1, 1), 3);
        add(1, 2, (1, 2), 7);
        add(1, 2, (2, 1), 6);
        add(0, 2, (1, 1), 4);
        let pl = plackett_luce(3, &finishes);
        let bt = bradley_terry(&results);
        for (a, b) in pl.iter().zip(&bt) {
            assert!((a.elo - b.elo).abs() < 1e-6, "{a:?} against {b:?}");
            assert!((a.margin - b.margin).abs() < 1e-6, "{a:?} against {b:?}");
            assert_eq!(a.games, b.games);
        }
    }

    /// Four agents of known strengths play 3,000 four-player games drawn from the model:
    /// the fit finds each within its interval of the truth (all four, at 95% each, the
    /// seed fixed) and in the right order.
    #[test]
    fn it_recovers_the_strengths_of_simulated_four_player_games() {
        let truth = [300.0, 100.0, -100.0, -300.0];
        let strength: Vec<f64> = truth.iter().map(|e: &f64| 10f64.powf(e / 400.0)).collect();
        let mut rng = seeds::rng(2026);
        let mut finishes = Vec::new();
        for _ in 0..3000 {
            let mut left: Vec<usize> = (0..4).collect();
            let mut finish = Vec::new();
            let mut place = 1;
            while !left.is_empty() {
                let total: f64 = left.iter().map(|&a| strength[a]).sum();
                let mut u = seeds::unit(&mut rng) * total;
                let mut pick = left.len() - 1;
                for (k, &a) in left.iter().enumerate() {
                    if u < strength[a] {
                        pick = k;
                        break;
                    }
                    u -= strength[a];
                }
                finish.push((left.remove(pick), place));
                place += 1;
            }
            finishes.push(finish);
        }
        let ratings = plackett_luce(4, &finishes);
        for (rating, expected) in ratings.iter().zip(truth) {
            assert!(
                (rating.elo - expected).abs() < rating.margin,
                "{rating:?} against {expected}"
            );
            assert!(rating.margin > 5.0 && rating.margin < 40.0, "{rating:?}");
            assert_eq!(rating.games, 3000);
        }
        assert!(ratings.windows(2).all(|w| w[0].elo > w[1].elo));
    }

    #[test]
    fn ties_count_as_every_order_alike() {
        let all = orders(&[(0, 1), (1, 2), (2, 2), (3, 2)]);
        assert_eq!(all.len(), 6);
        assert!(
            all.iter()
                .all(|o| o.agents[0] == 0 && (o.weight - 1.0 / 6.0).abs() < 1e-12)
        );
        // Everyone tied in every game: everyone rates 0.
        let finishes = vec![vec![(0, 1), (1, 1), (2, 1)]; 10];
        for rating in plackett_luce(3, &finishes) {
            assert!(rating.elo.abs() < 1e-9, "{rating:?}");
        }
    }
}
