//! Tournaments played in rounds whose pairings depend on earlier results: Swiss rounds and
//! a knockout. The plan has a fixed size (rounds x boards x game slots), so ids, seeds and
//! resumes work as for a round robin; a round's pairing is made once every game of the
//! rounds before it has been reported, from those results alone, so it is the same on one
//! thread or many.
//!
//! **Swiss** (`rounds` rounds, `games` games a pairing, colours alternating): players are
//! ordered by a seeded draw (their seed rank). Round 1 pairs the top half against the
//! bottom half (1 against n/2+1, ...). Later rounds order the players by points, then seed
//! rank, and pair each unpaired player, from the top, with the nearest one below it it has
//! not met (a backtracking search, so the whole round is paired without a repeat whenever
//! that is possible; when it is not, with as few repeats as any pairing could have). With
//! an odd number of players, the lowest-placed player who has not had a bye sits out and
//! scores as if it had won every game of the pairing. A game won is 1 point, a draw 1/2.
//!
//! **Knockout** (`games` games a match, then up to `tiebreak` more, one at a time, while it
//! is level): players in seed-rank order fill a bracket of the next power of two in the
//! standard order (1 against the lowest seed, ...), the top seeds taking the byes. A match
//! ends as soon as one side cannot be caught; a match still level after its tie-break
//! games goes to the higher seed. Its unplayed game slots are skipped.

use super::GameJob;
use crate::core::seeds;
use std::collections::BTreeSet;
use std::sync::Mutex;

pub use crate::registry::experiment::{Format, most_swiss_rounds};

/// One round's pairings: players (indices into the tournament's players) by board, the
/// first of each pair playing P1 in the board's first game; and who sat out.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Pairing {
    /// Boards.
    pub boards: Vec<[usize; 2]>,
    /// The player with a bye (Swiss, odd numbers; knockout round 1, many).
    pub byes: Vec<usize>,
}

#[derive(Debug, Default)]
struct State {
    /// Per round, once made.
    pairings: Vec<Option<Pairing>>,
    /// Points of each board's two players (as paired), per round.
    points: Vec<Vec<[f64; 2]>>,
    /// Games played on each board, per round.
    played: Vec<Vec<u64>>,
    /// Knockout: each round's entrants in bracket order.
    lines: Vec<Vec<Option<usize>>>,
    /// Players that can no longer play (a program that failed its check).
    out: Vec<bool>,
}

/// One board of a round (or a bye) with its points so far.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BoardRow {
    /// The round, from 0.
    pub round: usize,
    /// The board, from 0; `None` for a bye.
    pub board: Option<usize>,
    /// The two players (a bye's player twice).
    pub players: [usize; 2],
    /// Their points on the board (a bye's points first).
    pub points: [f64; 2],
    /// Games played on the board.
    pub games: u64,
}

/// A plan of rounds between `players` agents: the jobs, their barriers and the pairings.
#[derive(Debug)]
pub struct Rounds {
    format: Format,
    /// The agents (indices into the experiment's agents) playing.
    players: Vec<usize>,
    /// Games a pairing (Swiss) or a match before its tie-breaks (knockout).
    games: u64,
    seed: u64,
    /// Each player's place in the seeded draw (0 = first).
    seed_rank: Vec<usize>,
    /// Boards of each round.
    boards: Vec<usize>,
    /// The id of each round's first job, and after the last the total.
    starts: Vec<u64>,
    state: Mutex<State>,
}

/// The standard bracket order of `size` (a power of two) seeds, 1-based: 1 and 2 meet
/// only in the final, 1 plays `size` first.
fn bracket(size: usize) -> Vec<usize> {
    let mut order = vec![1];
    while order.len() < size {
        let next = order.len() * 2;
        order = order.iter().flat_map(|&s| [s, next + 1 - s]).collect();
    }
    order
}

impl Rounds {
    /// A plan for `players` (at least two) under `format`, `games` a pairing.
    pub fn new(format: Format, players: Vec<usize>, games: u64, seed: u64) -> Rounds {
        let n = players.len();
        let mut draw: Vec<usize> = (0..n).collect();
        let mut rng = seeds::rng(seeds::derive(seed, &[0x726f_756e_6473]));
        for i in (1..n).rev() {
            draw.swap(i, seeds::below(&mut rng, i + 1));
        }
        let mut seed_rank = vec![0; n];
        for (rank, &player) in draw.iter().enumerate() {
            seed_rank[player] = rank;
        }
        let (boards, slots) = match format {
            Format::Swiss { rounds } => (vec![n / 2; rounds as usize], games),
            Format::Knockout { tiebreak } => {
                let size = n.next_power_of_two();
                let mut boards = vec![n - size / 2];
                let mut left = size / 2;
                while left > 1 {
                    boards.push(left / 2);
                    left /= 2;
                }
                (boards, games + tiebreak)
            }
        };
        let mut starts = vec![0u64];
        for &b in &boards {
            let last = *starts.last().unwrap_or(&0);
            starts.push(last + b as u64 * slots);
        }
        let rounds = boards.len();
        Rounds {
            format,
            players,
            games,
            seed,
            seed_rank,
            starts,
            state: Mutex::new(State {
                pairings: vec![None; rounds],
                points: boards.iter().map(|&b| vec![[0.0; 2]; b]).collect(),
                played: boards.iter().map(|&b| vec![0; b]).collect(),
                lines: Vec::new(),
                out: vec![false; n],
            }),
            boards,
        }
    }

    /// Game slots of a board.
    fn slots(&self) -> u64 {
        match self.format {
            Format::Swiss { .. } => self.games,
            Format::Knockout { tiebreak } => self.games + tiebreak,
        }
    }

    /// Jobs in the plan.
    pub fn len(&self) -> u64 {
        self.starts.last().copied().unwrap_or(0)
    }

    /// Whether the plan has no job.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Rounds in the plan.
    pub fn rounds(&self) -> usize {
        self.boards.len()
    }

    /// The round, board and game slot of job `id`.
    pub fn place(&self, id: u64) -> (usize, usize, u64) {
        let round = self.starts.partition_point(|&s| s <= id).saturating_sub(1);
        let offset = id - self.starts[round];
        (
            round,
            (offset / self.slots()) as usize,
            offset % self.slots(),
        )
    }

    /// Boards over all rounds: each board is a group of jobs decided together.
    pub fn groups(&self) -> usize {
        self.boards.iter().sum()
    }

    /// The group (a board of a round) of job `id`.
    pub fn group(&self, id: u64) -> usize {
        let (round, board, _) = self.place(id);
        self.boards[..round].iter().sum::<usize>() + board
    }

    /// Job `id` waits for every job of the rounds before its own.
    pub fn barrier(&self, id: u64) -> u64 {
        self.starts[self.place(id).0]
    }

    /// Marks `player` as out: it is paired no more (a program that failed its check).
    pub fn drop_player(&self, player: usize) {
        let mut state = self.state.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(out) = state.out.get_mut(player) {
            *out = true;
        }
    }

    /// The tournament's players (agent indices).
    pub fn players(&self) -> &[usize] {
        &self.players
    }

    /// Game `id`, once its round is paired (call it only after [`Rounds::barrier`]);
    /// `None` when its board has no game (a player left out, a match already decided).
    /// `matchup_of` gives the matchup index of two agents.
    pub fn job(&self, id: u64, matchup_of: &dyn Fn(usize, usize) -> usize) -> Option<GameJob> {
        let (round, board, slot) = self.place(id);
        let mut state = self.state.lock().unwrap_or_else(|e| e.into_inner());
        let pairing = self.pairing_locked(&mut state, round);
        let [a, b] = *pairing.boards.get(board)?;
        let (agent_a, agent_b) = (self.players[a], self.players[b]);
        // The matchup lists its agents in the experiment's order; the board's first
        // player is P1 in its even games.
        let first_is_a = matchup_first(agent_a, agent_b);
        let a_is_p1 = slot.is_multiple_of(2);
        let pair_key = (self.boards[..round].iter().sum::<usize>() + board) as u64;
        Some(GameJob {
            id,
            matchup: matchup_of(agent_a, agent_b),
            game_index: slot,
            pair: pair_key * self.slots() + slot / 2,
            seed: seeds::derive(self.seed, &[0x5357_4953, pair_key, slot / 2]),
            agents: if first_is_a {
                [agent_a, agent_b]
            } else {
                [agent_b, agent_a]
            },
            first_is_p1: a_is_p1 == first_is_a,
        })
    }

    /// Round `round`'s pairing, made now if it is not yet (every earlier round is over).
    pub fn pairing(&self, round: usize) -> Pairing {
        let mut state = self.state.lock().unwrap_or_else(|e| e.into_inner());
        self.pairing_locked(&mut state, round)
    }

    fn pairing_locked(&self, state: &mut State, round: usize) -> Pairing {
        if let Some(pairing) = &state.pairings[round] {
            return pairing.clone();
        }
        // Rounds are paired in order (a round whose boards were all void has not been).
        if round > 0 && state.pairings[round - 1].is_none() {
            self.pairing_locked(state, round - 1);
        }
        let pairing = match self.format {
            Format::Swiss { .. } => self.swiss(state, round),
            Format::Knockout { .. } => self.knockout(state, round),
        };
        state.pairings[round] = Some(pairing.clone());
        pairing
    }

    /// Each player's points after the rounds before `round` (byes included).
    fn points_before(&self, state: &State, round: usize) -> Vec<f64> {
        let mut points = vec![0.0; self.players.len()];
        for r in 0..round {
            if let Some(pairing) = &state.pairings[r] {
                for (board, [a, b]) in pairing.boards.iter().enumerate() {
                    points[*a] += state.points[r][board][0];
                    points[*b] += state.points[r][board][1];
                }
                for &bye in &pairing.byes {
                    points[bye] += self.games as f64;
                }
            }
        }
        points
    }

    fn swiss(&self, state: &State, round: usize) -> Pairing {
        let points = self.points_before(state, round);
        let mut met: BTreeSet<[usize; 2]> = BTreeSet::new();
        let mut had_bye = vec![false; self.players.len()];
        let mut firsts = vec![0u64; self.players.len()];
        for pairing in state.pairings[..round].iter().flatten() {
            for &[a, b] in &pairing.boards {
                met.insert([a.min(b), a.max(b)]);
                firsts[a] += 1;
            }
            for &bye in &pairing.byes {
                had_bye[bye] = true;
            }
        }
        let mut order: Vec<usize> = (0..self.players.len()).filter(|&p| !state.out[p]).collect();
        order.sort_by(|&a, &b| {
            points[b]
                .total_cmp(&points[a])
                .then(self.seed_rank[a].cmp(&self.seed_rank[b]))
        });
        let mut byes = Vec::new();
        if order.len() % 2 == 1 {
            let at = order
                .iter()
                .rposition(|&p| !had_bye[p])
                .unwrap_or(order.len() - 1);
            byes.push(order.remove(at));
        }
        let pairs = if round == 0 {
            let half = order.len() / 2;
            (0..half).map(|i| [order[i], order[i + half]]).collect()
        } else {
            pair_fewest_repeats(&order, &met)
        };
        // Colours: the player who has opened fewer pairings opens this one.
        let boards = pairs
            .into_iter()
            .map(|[a, b]| {
                if firsts[b] < firsts[a] {
                    [b, a]
                } else {
                    [a, b]
                }
            })
            .collect();
        Pairing { boards, byes }
    }

    fn knockout(&self, state: &mut State, round: usize) -> Pairing {
        // The round's entrants in bracket order: a place is empty where a seed is
        // missing (byes) or nobody advanced.
        let line: Vec<Option<usize>> = if round == 0 {
            let mut by_seed: Vec<usize> = (0..self.players.len()).collect();
            by_seed.sort_by_key(|&p| self.seed_rank[p]);
            let size = self.players.len().next_power_of_two();
            bracket(size)
                .into_iter()
                .map(|s| by_seed.get(s - 1).copied())
                .collect()
        } else {
            let previous = state.lines[round - 1].clone();
            let boards = state.pairings[round - 1].clone().unwrap_or_default().boards;
            let mut board = 0;
            previous
                .chunks(2)
                .map(|pair| match *pair {
                    [Some(a), Some(b)] if !state.out[a] && !state.out[b] => {
                        let winner = boards
                            .get(board)
                            .map(|&[x, y]| self.match_winner(state, round - 1, board, x, y));
                        board += 1;
                        winner
                    }
                    [Some(a), Some(b)] => [a, b].into_iter().find(|&p| !state.out[p]),
                    [Some(a), None] | [None, Some(a)] => (!state.out[a]).then_some(a),
                    _ => None,
                })
                .collect()
        };
        let mut boards = Vec::new();
        let mut byes = Vec::new();
        for pair in line.chunks(2) {
            match *pair {
                [Some(a), Some(b)] if !state.out[a] && !state.out[b] => boards.push([a, b]),
                [Some(a), Some(b)] => byes.extend([a, b].into_iter().filter(|&p| !state.out[p])),
                [Some(a), None] | [None, Some(a)] if !state.out[a] => byes.push(a),
                _ => {}
            }
        }
        state.lines.push(line);
        Pairing { boards, byes }
    }

    /// The winner of a knockout board: more points, else the higher seed; a player out
    /// loses.
    fn match_winner(&self, state: &State, round: usize, board: usize, a: usize, b: usize) -> usize {
        if state.out[a] != state.out[b] {
            return if state.out[a] { b } else { a };
        }
        let [pa, pb] = state.points[round][board];
        if pa > pb {
            a
        } else if pb > pa {
            b
        } else if self.seed_rank[a] <= self.seed_rank[b] {
            a
        } else {
            b
        }
    }

    /// Counts a finished game (in plan order); `true` when its board needs no more games
    /// (a knockout match decided early).
    pub fn record(&self, id: u64, winner_agent: Option<usize>) -> bool {
        let (round, board, _) = self.place(id);
        let mut state = self.state.lock().unwrap_or_else(|e| e.into_inner());
        // A resumed run replays its earlier games before any round is paired: records
        // come in plan order, so the rounds before this one are complete.
        let pairing = self.pairing_locked(&mut state, round);
        let Some(&[a, _]) = pairing.boards.get(board) else {
            return false;
        };
        let points = &mut state.points[round][board];
        match winner_agent {
            Some(w) if w == self.players[a] => points[0] += 1.0,
            Some(_) => points[1] += 1.0,
            None => {
                points[0] += 0.5;
                points[1] += 0.5;
            }
        }
        let [pa, pb] = *points;
        state.played[round][board] += 1;
        let played = state.played[round][board];
        match self.format {
            Format::Swiss { .. } => false,
            Format::Knockout { tiebreak } => {
                // Regular games: decided once the trailing side cannot catch up; then
                // each tie-break game ends it unless it is level.
                if played < self.games {
                    (pa - pb).abs() > (self.games - played) as f64
                } else {
                    pa != pb || played >= self.games + tiebreak
                }
            }
        }
    }

    /// The pairings made so far with each board's points; byes with the bye's points.
    pub fn table(&self) -> Vec<BoardRow> {
        let state = self.state.lock().unwrap_or_else(|e| e.into_inner());
        let mut rows = Vec::new();
        for (round, pairing) in state.pairings.iter().enumerate() {
            let Some(pairing) = pairing else { continue };
            for (board, &players) in pairing.boards.iter().enumerate() {
                rows.push(BoardRow {
                    round,
                    board: Some(board),
                    players,
                    points: state.points[round][board],
                    games: state.played[round][board],
                });
            }
            for &bye in &pairing.byes {
                let points = match self.format {
                    Format::Swiss { .. } => self.games as f64,
                    Format::Knockout { .. } => 0.0,
                };
                rows.push(BoardRow {
                    round,
                    board: None,
                    players: [bye, bye],
                    points: [points, 0.0],
                    games: 0,
                });
            }
        }
        rows
    }

    /// The final standings: each player's points (Swiss) or the round it reached
    /// (knockout) and its Buchholz score (its opponents' points summed), best first by
    /// score, then Buchholz, then seed rank.
    pub fn standings(&self) -> Vec<(usize, f64, f64)> {
        let state = self.state.lock().unwrap_or_else(|e| e.into_inner());
        let rounds = state.pairings.iter().flatten().count();
        let mut score: Vec<f64> = match self.format {
            Format::Swiss { .. } => self.points_before(&state, rounds),
            Format::Knockout { .. } => {
                let mut reached = vec![0.0; self.players.len()];
                for (round, pairing) in state.pairings.iter().enumerate() {
                    for p in pairing
                        .iter()
                        .flat_map(|p| p.boards.iter().flatten().chain(&p.byes))
                    {
                        reached[*p] = round as f64 + 1.0;
                    }
                }
                // The champion: the last board's winner.
                if let Some(Some(last)) = state.pairings.last()
                    && let Some(&[a, b]) = last.boards.first()
                    && state.played[rounds - 1][0] > 0
                {
                    let winner = self.match_winner(&state, rounds - 1, 0, a, b);
                    reached[winner] += 1.0;
                }
                reached
            }
        };
        let points = self.points_before(&state, rounds);
        let mut buchholz = vec![0.0; self.players.len()];
        for pairing in state.pairings.iter().flatten() {
            for &[a, b] in &pairing.boards {
                buchholz[a] += points[b];
                buchholz[b] += points[a];
            }
        }
        for (p, out) in state.out.iter().enumerate() {
            if *out {
                score[p] = f64::NEG_INFINITY;
            }
        }
        let mut order: Vec<usize> = (0..self.players.len()).collect();
        order.sort_by(|&a, &b| {
            score[b]
                .total_cmp(&score[a])
                .then(buchholz[b].total_cmp(&buchholz[a]))
                .then(self.seed_rank[a].cmp(&self.seed_rank[b]))
        });
        order
            .into_iter()
            .map(|p| (p, score[p], buchholz[p]))
            .collect()
    }
}

/// Whether agent `a` is listed first in the matchup of agents `a` and `b` (matchups list
/// the earlier agent first).
fn matchup_first(a: usize, b: usize) -> bool {
    a < b
}

/// Pairs `order` (even length) neighbour by neighbour from the top: each player, from the
/// top, with the nearest one below it that it has not met (`met`), backtracking so that
/// the whole list is paired with as few repeats as possible. That fewest is known first,
/// from a maximum matching of the pairs not yet met (a repeat is a player left out of it);
/// a pairing with that many repeats is then searched in the Swiss order, repeats taken
/// only where no new opponent can be, and, if the search gives up, the matching itself is
/// the round (its leftovers paired in order).
fn pair_fewest_repeats(order: &[usize], met: &BTreeSet<[usize; 2]>) -> Vec<[usize; 2]> {
    let meets = |a: usize, b: usize| met.contains(&[a.min(b), a.max(b)]);
    let matching = new_opponents_matching(order, &meets);
    let fewest = (order.len() - 2 * matching.len()) / 2;
    let mut search = Search {
        meets: &meets,
        left: order.to_vec(),
        pairs: Vec::with_capacity(order.len() / 2),
        repeats: fewest,
        budget: 1_000_000,
    };
    if search.pair() {
        return search.pairs;
    }
    let matched: BTreeSet<usize> = matching.iter().flatten().copied().collect();
    let rest: Vec<usize> = order
        .iter()
        .copied()
        .filter(|p| !matched.contains(p))
        .collect();
    let mut pairs = matching;
    pairs.extend(rest.chunks(2).map(|pair| [pair[0], pair[1]]));
    pairs
}

/// A largest set of pairs of `order`'s players, none of whom `meets` already, each player
/// in one pair at most: each pair in `order`'s order (higher placed first).
fn new_opponents_matching(
    order: &[usize],
    meets: &dyn Fn(usize, usize) -> bool,
) -> Vec<[usize; 2]> {
    use petgraph::graph::{NodeIndex, UnGraph};
    let mut graph = UnGraph::<(), ()>::with_capacity(order.len(), 0);
    let nodes: Vec<NodeIndex> = order.iter().map(|_| graph.add_node(())).collect();
    for i in 0..order.len() {
        for j in i + 1..order.len() {
            if !meets(order[i], order[j]) {
                graph.add_edge(nodes[i], nodes[j], ());
            }
        }
    }
    let matching = petgraph::algo::maximum_matching(&graph);
    (0..order.len())
        .filter_map(|i| {
            let mate = matching.mate(nodes[i])?.index();
            (i < mate).then_some([order[i], order[mate]])
        })
        .collect()
}

/// The backtracking search of [`pair_fewest_repeats`].
struct Search<'a> {
    meets: &'a dyn Fn(usize, usize) -> bool,
    /// Players still to pair, in order.
    left: Vec<usize>,
    pairs: Vec<[usize; 2]>,
    /// Repeats still allowed.
    repeats: usize,
    /// Steps left before the search gives up.
    budget: u64,
}

impl Search<'_> {
    /// Pairs the rest of `left`; `false` (everything as it was) when it cannot.
    fn pair(&mut self) -> bool {
        if self.left.is_empty() {
            return true;
        }
        if self.budget == 0 {
            return false;
        }
        self.budget -= 1;
        let a = self.left.remove(0);
        // New opponents first, nearest first; then, if a repeat is still allowed, old ones.
        for repeat in [false, true] {
            if repeat && self.repeats == 0 {
                break;
            }
            for i in 0..self.left.len() {
                let b = self.left[i];
                if (self.meets)(a, b) != repeat {
                    continue;
                }
                self.left.remove(i);
                self.pairs.push([a, b]);
                self.repeats -= usize::from(repeat);
                if self.pair() {
                    return true;
                }
                self.repeats += usize::from(repeat);
                self.pairs.pop();
                self.left.insert(i, b);
            }
        }
        self.left.insert(0, a);
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Plays every round of `rounds` with `result(a, b, game)` deciding each game
    /// (`Some(true)`: the board's first player wins), as the harness would: pairing each
    /// round after the previous one is recorded.
    fn play(plan: &Rounds, result: &dyn Fn(usize, usize, u64) -> Option<bool>) -> Vec<Pairing> {
        let mut skipped: BTreeSet<usize> = BTreeSet::new();
        for id in 0..plan.len() {
            let group = plan.group(id);
            if skipped.contains(&group) {
                continue;
            }
            let Some(job) = plan.job(id, &|a, b| a.min(b) * 100 + a.max(b)) else {
                continue;
            };
            let (round, board, slot) = plan.place(id);
            let [a, b] = plan.pairing(round).boards[board];
            let winner = result(a, b, slot).map(|first| plan.players[if first { a } else { b }]);
            assert!(job.agents.contains(&plan.players[a]) && job.agents.contains(&plan.players[b]));
            if plan.record(id, winner) {
                skipped.insert(group);
            }
        }
        (0..plan.rounds()).map(|r| plan.pairing(r)).collect()
    }

    #[test]
    fn swiss_rounds_never_pair_twice_give_one_bye_each_and_are_deterministic() {
        for players in [6usize, 7, 8, 11] {
            let rounds = most_swiss_rounds(players).min(5);
            let make = || Rounds::new(Format::Swiss { rounds }, (0..players).collect(), 2, 42);
            // The stronger player (lower index) always wins.
            let strength = |a: usize, b: usize, _| Some(a < b);
            let pairings = play(&make(), &strength);
            let mut met = BTreeSet::new();
            let mut byes: Vec<usize> = Vec::new();
            for pairing in &pairings {
                let mut seen = BTreeSet::new();
                for &[a, b] in &pairing.boards {
                    assert!(
                        met.insert([a.min(b), a.max(b)]),
                        "{players}: {a} and {b} met twice"
                    );
                    assert!(seen.insert(a) && seen.insert(b));
                }
                assert_eq!(pairing.boards.len(), players / 2);
                assert_eq!(pairing.byes.len(), players % 2);
                byes.extend(&pairing.byes);
                assert_eq!(seen.len() + pairing.byes.len(), players);
            }
            let distinct: BTreeSet<_> = byes.iter().collect();
            assert_eq!(distinct.len(), byes.len(), "a second bye: {byes:?}");
            // The same seed pairs the same way; another seed differently.
            assert_eq!(play(&make(), &strength), pairings);
            let other = play(
                &Rounds::new(Format::Swiss { rounds }, (0..players).collect(), 2, 43),
                &strength,
            );
            assert_ne!(other, pairings);
        }
    }

    /// The fewest repeats of any pairing of `players`, by trying every one.
    fn fewest_by_brute_force(players: &[usize], met: &BTreeSet<[usize; 2]>) -> usize {
        let Some((&a, rest)) = players.split_first() else {
            return 0;
        };
        rest.iter()
            .map(|&b| {
                let others: Vec<usize> = rest.iter().copied().filter(|&p| p != b).collect();
                usize::from(met.contains(&[a.min(b), a.max(b)]))
                    + fewest_by_brute_force(&others, met)
            })
            .min()
            .unwrap_or(0)
    }

    #[test]
    fn a_round_that_cannot_avoid_repeats_has_as_few_as_any_pairing() {
        // 0 to 3 have all met, and so have 4 and 5: one repeat is forced, not three (the
        // neighbours 0-1, 2-3, 4-5 would all be repeats).
        let mut met = BTreeSet::new();
        for a in 0..4 {
            for b in a + 1..4 {
                met.insert([a, b]);
            }
        }
        met.insert([4, 5]);
        let pairs = pair_fewest_repeats(&[0, 1, 2, 3, 4, 5], &met);
        assert_eq!(pairs, [[0, 4], [1, 5], [2, 3]]);
        // Whole tournaments to their last round: every round has the fewest repeats any
        // pairing of its players could have.
        let mut forced = 0;
        for players in [6usize, 8, 9, 10] {
            for seed in 0..5u64 {
                let rounds = most_swiss_rounds(players);
                let plan = Rounds::new(Format::Swiss { rounds }, (0..players).collect(), 1, seed);
                let result = |a: usize, b: usize, _| {
                    Some(!(a * 7 + b * 3 + seed as usize).is_multiple_of(3))
                };
                let mut met = BTreeSet::new();
                for pairing in play(&plan, &result) {
                    let seated: Vec<usize> = pairing.boards.iter().flatten().copied().collect();
                    let key = |&[a, b]: &[usize; 2]| [a.min(b), a.max(b)];
                    let repeats = pairing
                        .boards
                        .iter()
                        .filter(|board| met.contains(&key(board)))
                        .count();
                    assert_eq!(
                        repeats,
                        fewest_by_brute_force(&seated, &met),
                        "{players} players, seed {seed}: {pairing:?}"
                    );
                    forced += repeats;
                    met.extend(pairing.boards.iter().map(key));
                }
            }
        }
        assert!(
            forced > 0,
            "no round was forced to repeat: the test tests nothing"
        );
    }

    #[test]
    fn swiss_pairs_leaders_together_and_the_standings_follow_strength() {
        let plan = Rounds::new(Format::Swiss { rounds: 4 }, (0..8).collect(), 2, 7);
        let pairings = play(&plan, &|a, b, _| Some(a < b));
        // After three rounds, the only player with every point is player 0, and it met
        // players with all their points at each round's start.
        assert!(pairings[1].boards.iter().all(|b| b.len() == 2));
        let standings = plan.standings();
        assert_eq!((standings[0].0, standings[0].1), (0, 8.0), "{standings:?}");
        assert!(standings[1].1 < 8.0);
        // Every game of a round is counted: 4 boards x 2 games x 4 rounds, 2 points each.
        let total: f64 = standings.iter().map(|s| s.1).sum();
        assert_eq!(total, 4.0 * 2.0 * 4.0);
    }

    #[test]
    fn a_knockout_gives_byes_to_the_top_seeds_decides_early_and_breaks_ties() {
        // Six players: a bracket of 8, two byes for seeds 1 and 2.
        let plan = Rounds::new(Format::Knockout { tiebreak: 2 }, (0..6).collect(), 2, 3);
        assert_eq!(plan.boards, vec![2, 2, 1]);
        let played = std::sync::Mutex::new(0u64);
        let pairings = play(&plan, &|a, b, _| {
            *played.lock().unwrap() += 1;
            Some(a < b)
        });
        assert_eq!(pairings[0].byes.len(), 2);
        let seeds: Vec<usize> = pairings[0]
            .byes
            .iter()
            .map(|&p| plan.seed_rank[p])
            .collect();
        assert_eq!(
            seeds.iter().copied().collect::<BTreeSet<_>>(),
            BTreeSet::from([0, 1])
        );
        // Decisive games: a 2-game match is over after 2 games; 5 matches in all.
        assert_eq!(*played.lock().unwrap(), 5 * 2);
        assert_eq!(plan.standings()[0].0, 0, "the strongest wins the final");
        // A match level after its games and tie-breaks (all draws) goes to the higher seed.
        let plan = Rounds::new(Format::Knockout { tiebreak: 2 }, (0..4).collect(), 2, 3);
        let pairings = play(&plan, &|_, _, _| None);
        let champion = plan.standings()[0].0;
        assert_eq!(plan.seed_rank[champion], 0);
        assert_eq!(pairings[1].boards.len(), 1);
        // An early decision: 2-0 up in a 3-game match, the third is not played.
        let plan = Rounds::new(Format::Knockout { tiebreak: 0 }, (0..2).collect(), 3, 3);
        let count = std::sync::Mutex::new(0);
        play(&plan, &|a, b, _| {
            *count.lock().unwrap() += 1;
            Some(a < b)
        });
        assert_eq!(*count.lock().unwrap(), 2);
    }

    #[test]
    fn the_bracket_order_meets_the_top_two_only_in_the_final() {
        assert_eq!(bracket(4), [1, 4, 2, 3]);
        assert_eq!(bracket(8), [1, 8, 4, 5, 2, 7, 3, 6]);
    }
}
