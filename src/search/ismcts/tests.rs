//! IS-MCTS against small games checked by hand: Kuhn poker and matching pennies with a
//! way out, its moves made together.

use super::*;
use crate::core::{Agent, MoveError, Outcome};

/// The rules of a test game that these tests never call, alike for every one.
macro_rules! unused_rules {
    () => {
        fn piece_count(&self, _player: Player) -> u32 {
            0
        }

        fn write_move(&self, mv: u8, out: &mut String) {
            out.push_str(&format!("{mv}"));
        }

        fn parse_move(&self, text: &str) -> Result<u8, MoveError> {
            Err(MoveError {
                text: text.to_string(),
                reason: String::from("not read here"),
            })
        }

        fn board_dump(&self) -> String {
            format!("{self:?}")
        }

        fn position_json(&self) -> serde_json::Value {
            serde_json::Value::Null
        }
    };
}

/// Kuhn poker, small enough to check by hand: three cards (J, Q, K), one to each
/// player, an ante of 1 each; P1 passes or bets 1, and so on (pass-pass and bet-call
/// go to a showdown, a pass after a bet folds). Chance deals P1's card, then P2's.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct Kuhn {
    cards: [Option<u8>; 2],
    /// The bets so far: `b'p'` (pass) or `b'b'` (bet), at most three.
    history: Vec<u8>,
}

/// A deal of card c is move `DEAL + c` (below the bets' letters).
const DEAL: u8 = 1;

impl Kuhn {
    fn new() -> Kuhn {
        Kuhn {
            cards: [None, None],
            history: Vec::new(),
        }
    }
}

impl Game for Kuhn {
    type Move = u8;
    const CHANCE: bool = true;
    const HIDDEN: bool = true;

    fn is_chance(&self) -> bool {
        self.cards[1].is_none()
    }

    fn to_move(&self) -> Player {
        if self.history.len().is_multiple_of(2) {
            Player::P1
        } else {
            Player::P2
        }
    }

    fn legal_moves(&self, out: &mut Vec<u8>) {
        out.clear();
        if self.outcome().is_some() {
            return;
        }
        if self.is_chance() {
            out.extend(
                (0..3)
                    .filter(|&c| self.cards[0] != Some(c))
                    .map(|c| DEAL + c),
            );
        } else {
            out.extend([b'p', b'b']);
        }
    }

    fn apply(&mut self, mv: u8) {
        if mv < b'b' {
            let slot = usize::from(self.cards[0].is_some());
            self.cards[slot] = Some(mv - DEAL);
        } else {
            self.history.push(mv);
        }
    }

    fn outcome(&self) -> Option<Outcome> {
        let showdown = |reason| {
            let p1 = self.cards[0] > self.cards[1];
            Some(Outcome {
                winner: Some(if p1 { Player::P1 } else { Player::P2 }),
                reason,
            })
        };
        let fold = |winner| {
            Some(Outcome {
                winner: Some(winner),
                reason: "fold",
            })
        };
        match self.history.as_slice() {
            b"pp" | b"bb" | b"pbb" => showdown("showdown"),
            b"bp" => fold(Player::P1),
            b"pbp" => fold(Player::P2),
            _ => None,
        }
    }

    fn determinize(&self, player: Player, seed: u64) -> Option<Kuhn> {
        let mut drawn = self.clone();
        let (own, other) = (player.index(), player.opponent().index());
        if let (Some(mine), Some(_)) = (self.cards[own], self.cards[other]) {
            let left: Vec<u8> = (0..3).filter(|&c| c != mine).collect();
            drawn.cards[other] = Some(left[(seed % 2) as usize]);
        }
        Some(drawn)
    }

    fn observation(&self, player: Player) -> String {
        format!(
            "{:?} {}",
            self.cards[player.index()],
            String::from_utf8_lossy(&self.history)
        )
    }

    fn position_hash(&self) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut hasher = std::collections::hash_map::DefaultHasher::new();
        self.hash(&mut hasher);
        hasher.finish()
    }

    unused_rules!();
}

struct Nothing;
impl Evaluator<Kuhn> for Nothing {
    fn evaluate(&self, _state: &Kuhn, _root: Player, _noise_seed: u64) -> f64 {
        0.0
    }
}

fn agent(seed: u64) -> IsmctsAgent<Kuhn, Nothing> {
    let config = MctsConfig {
        iterations: 500,
        ..MctsConfig::default()
    };
    IsmctsAgent::new(config, None, Nothing, seed)
}

/// Every position of Kuhn poker where a player moves, with the cards dealt.
fn decision_points() -> Vec<Kuhn> {
    let mut points = Vec::new();
    for p1 in 0..3 {
        for p2 in (0..3).filter(|&c| c != p1) {
            for history in [&b""[..], b"p", b"b", b"pb"] {
                points.push(Kuhn {
                    cards: [Some(p1), Some(p2)],
                    history: history.to_vec(),
                });
            }
        }
    }
    points
}

#[test]
fn its_choice_does_not_depend_on_what_is_hidden_from_it() {
    for state in decision_points() {
        let me = state.to_move();
        for other in (0..3).filter(|&c| Some(c) != state.cards[me.index()]) {
            let mut twin = state.clone();
            twin.cards[me.opponent().index()] = Some(other);
            let a = agent(5).decide(&state, &Limits::NONE);
            let b = agent(5).decide(&twin, &Limits::NONE);
            assert_eq!(
                (a.mv, a.value, a.stats.evaluated),
                (b.mv, b.value, b.stats.evaluated),
                "{state:?} against {twin:?}"
            );
        }
    }
}

#[test]
fn it_plays_kuhn_poker_as_its_cards_say() {
    // Holding the king after a bet, calling wins every showdown; holding the jack
    // after a bet, calling loses every one: it calls with the king and folds the jack.
    for (card, call) in [(2u8, true), (0, false)] {
        let state = Kuhn {
            cards: [Some((card + 1) % 3), Some(card)],
            history: b"b".to_vec(),
        };
        let decision = agent(11).decide(&state, &Limits::NONE);
        assert_eq!(decision.mv == b'b', call, "P2 holding card {card}");
    }
}

#[test]
fn it_beats_random_at_kuhn_poker_and_replays_from_its_seed() {
    let play = |seed: u64| {
        let mut wins = 0;
        let mut moves = Vec::new();
        for game in 0..300u64 {
            let mut rng = seeds::rng(seeds::derive(seed, &[game]));
            let mut state = Kuhn::new();
            let mut me = agent(seeds::derive(seed, &[game, 1]));
            let seat = if game % 2 == 0 {
                Player::P1
            } else {
                Player::P2
            };
            let mut outcomes = Vec::new();
            while state.outcome().is_none() {
                let mv = if state.is_chance() {
                    state
                        .chance_move(seeds::unit(&mut rng), &mut outcomes)
                        .expect("a card")
                } else if state.to_move() == seat {
                    me.decide(&state, &Limits::NONE).mv
                } else {
                    [b'p', b'b'][seeds::below(&mut rng, 2)]
                };
                moves.push(mv);
                state.apply(mv);
            }
            wins += u32::from(state.outcome().and_then(|o| o.winner) == Some(seat));
        }
        (wins, moves)
    };
    let (wins, moves) = play(3);
    // Random against random wins half; a player who folds its jacks to bets and calls
    // with its kings wins far more.
    assert!(wins > 180, "{wins} of 300");
    assert_eq!(play(3).1, moves);
}

#[test]
fn counts_one_new_node_and_one_rollout_an_iteration() {
    let state = Kuhn {
        cards: [Some(1), Some(0)],
        history: Vec::new(),
    };
    let decision = agent(2).decide(&state, &Limits::NONE);
    let total = &decision.stats;
    assert_eq!(total.evaluated, 500);
    assert!(total.expanded <= 500 && total.expanded > 0);
    assert_eq!(total.expanded, decision.stats.generated);
}

/// Matching pennies with a way out, its moves made together and played in turns: P1
/// shows heads (0), tails (1) or walks away (2); P2, not seeing it, shows heads or
/// tails. Matched coins win P1 1 (P2 loses 1), unmatched ones lose it 1; walking away
/// costs P1 0.2. Played blind, the coins are worth 0 to P1 (each side mixing half and
/// half) and walking away loses; a P2 that saw P1's coin would always win it, and then
/// walking away would be P1's best.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct Pennies {
    moves: Vec<u8>,
}

impl Game for Pennies {
    type Move = u8;
    const HIDDEN: bool = true;

    fn to_move(&self) -> Player {
        if self.moves.is_empty() {
            Player::P1
        } else {
            Player::P2
        }
    }

    fn has_returns(&self) -> bool {
        true
    }

    fn returns(&self) -> Option<crate::core::Returns> {
        let p1 = match self.moves.as_slice() {
            [2, _] => -0.2,
            [a, b] if a == b => 1.0,
            [_, _] => -1.0,
            _ => return None,
        };
        Some(crate::core::Returns::two(p1, -p1))
    }

    fn in_round(&self) -> bool {
        self.moves.len() == 1
    }

    fn round_start(&self) -> Option<Pennies> {
        self.in_round().then(|| Pennies { moves: Vec::new() })
    }

    fn legal_moves(&self, out: &mut Vec<u8>) {
        out.clear();
        match self.moves.len() {
            0 => out.extend([0, 1, 2]),
            1 => out.extend([0, 1]),
            _ => {}
        }
    }

    fn apply(&mut self, mv: u8) {
        self.moves.push(mv);
    }

    fn outcome(&self) -> Option<Outcome> {
        let returns = self.returns()?;
        Some(Outcome {
            winner: Some(if returns[Player::P1] > 0.0 {
                Player::P1
            } else {
                Player::P2
            }),
            reason: "shown",
        })
    }

    fn determinize(&self, player: Player, seed: u64) -> Option<Pennies> {
        let mut drawn = self.clone();
        if player == Player::P2 && self.in_round() {
            drawn.moves[0] = (seed % 3) as u8;
        }
        Some(drawn)
    }

    fn observation(&self, player: Player) -> String {
        match (player, self.moves.as_slice()) {
            (Player::P2, [_]) => "P1 has chosen".to_string(),
            (_, moves) => format!("{moves:?}"),
        }
    }

    fn position_hash(&self) -> u64 {
        self.moves.iter().fold(7, |h, &m| mix64(h ^ u64::from(m)))
    }

    unused_rules!();
}

impl Evaluator<Pennies> for Nothing {
    fn evaluate(&self, _state: &Pennies, _root: Player, _noise_seed: u64) -> f64 {
        0.0
    }
}

fn rounds_agent(seed: u64, rounds: Rounds) -> IsmctsAgent<Pennies, Nothing> {
    let config = MctsConfig {
        iterations: 2000,
        rounds,
        ..MctsConfig::default()
    };
    IsmctsAgent::new(config, None, Nothing, seed)
}

/// How often each move is chosen in `state` by agents of seeds 0 to 59.
fn choices_by(state: &Pennies, rounds: Rounds) -> [u32; 3] {
    let mut counts = [0; 3];
    for seed in 0..60 {
        let decision = rounds_agent(seed, rounds).decide(state, &Limits::NONE);
        counts[usize::from(decision.mv)] += 1;
    }
    counts
}

#[test]
fn in_a_round_of_simultaneous_moves_it_searches_blind() {
    // P2's choice rests on the round's start, not on P1's hidden coin: the same seed
    // chooses alike whatever P1 showed, and P2 mixes its coins across seeds.
    for rounds in [Rounds::Decoupled, Rounds::Regret] {
        for seed in 0..20 {
            let decided: Vec<_> = (0..3)
                .map(|coin| {
                    let state = Pennies { moves: vec![coin] };
                    let d = rounds_agent(seed, rounds).decide(&state, &Limits::NONE);
                    (d.mv, d.value, d.stats.evaluated)
                })
                .collect();
            assert!(
                decided.windows(2).all(|w| w[0] == w[1]),
                "{rounds:?}: {decided:?}"
            );
        }
        let [heads, tails, _] = choices_by(&Pennies { moves: vec![0] }, rounds);
        assert!(
            heads >= 15 && tails >= 15,
            "{rounds:?}: P2 heads {heads}, tails {tails}"
        );
    }
    // With regret matching P1 plays its coins, heads or tails as its seed falls, and
    // does not walk away: P2's replies are searched at the round's node, blind to
    // P1's coin, and regret matching's values there tend to the game's (0 for the
    // coins). (Decoupled UCT's do not: it walked away 20 times in 60 here.)
    let start = Pennies { moves: Vec::new() };
    let [heads, tails, away] = choices_by(&start, Rounds::Regret);
    assert!(away <= 6, "regret: walked away {away} times in 60");
    assert!(
        heads >= 15 && tails >= 15,
        "regret: heads {heads}, tails {tails}"
    );
    // Searched as moves in turn (`rounds=turns`), P2's node sees P1's coin, and P1
    // walks away.
    let [_, _, away] = choices_by(&start, Rounds::Turns);
    assert!(away >= 54, "rounds=turns walked away {away} times in 60");
}
