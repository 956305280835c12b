//! Vocabulary and contracts shared by every layer (players, the [`Game`] and [`Evaluator`]
//! traits, agents and their decisions, search statistics, seeds); uses no other layer.

mod counters;
pub mod cpu;
pub mod json;
pub mod seeds;
pub mod tables;

mod players;
mod text;

pub use counters::{DecisionStats, MAX_LEVELS, SearchStats};
pub use players::{ByPlayer, Outcome, Player, Returns};
pub use text::{MOVE_SEPARATOR, closest, edit_distance, error_line, one_line, read_moves};

use std::fmt;
use std::ops::ControlFlow;

/// A move that could not be read or is not legal in the position it was given for.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("move '{text}': {reason}")]
pub struct MoveError {
    /// The text as the user wrote it.
    pub text: String,
    /// Why it was rejected.
    pub reason: String,
}

/// A position text a game could not read ([`Game::read_position`]).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{reason}")]
pub struct PositionError {
    /// What is wrong with it.
    pub reason: String,
}

/// Accepts `mv`, read from `text`, if it is legal in `state`; otherwise the error says
/// that the game is over, or gives `why_illegal()`. Games call it at the end of
/// [`Game::parse_move`].
///
/// # Errors
/// A [`MoveError`] when the game is over or the move is not legal.
pub fn check_legal<G: Game>(
    state: &G,
    mv: G::Move,
    text: &str,
    why_illegal: impl FnOnce() -> String,
) -> Result<G::Move, MoveError> {
    let error = |reason: String| MoveError {
        text: text.to_string(),
        reason,
    };
    if let Some(outcome) = state.outcome() {
        return Err(error(format!(
            "the game is over ({} won: {})",
            outcome.winner_label(),
            outcome.reason
        )));
    }
    if state.is_legal(mv) {
        Ok(mv)
    } else {
        Err(error(why_illegal()))
    }
}

/// What [`Game::random_playout`] did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Playout {
    /// Plies played.
    pub plies: u32,
    /// Whether it stopped because the side to move had no move (the game is over), rather
    /// than at its ply limit.
    pub ended: bool,
}

/// [`Game::random_playout`]'s default: [`Game::pick_move`] then [`Game::apply`], a ply at a
/// time, until the side to move has no move or `max_plies` are played. Also the reference
/// a game's own playout loop is checked against.
#[inline]
pub fn pick_move_playout<G: Game>(
    state: &mut G,
    scratch: &mut Vec<G::Move>,
    mut pick: impl FnMut(usize) -> usize,
    max_plies: u32,
) -> Playout {
    let mut outcomes = Vec::new();
    for plies in 0..max_plies {
        if G::CHANCE && state.is_chance() {
            // Chance by its probabilities: a draw of 30 bits as a number in [0, 1).
            let u = pick(1 << 30) as f64 / f64::from(1u32 << 30);
            match state.chance_move(u, &mut outcomes) {
                Some(mv) => state.apply(mv),
                None => return Playout { plies, ended: true },
            }
            continue;
        }
        match state.pick_move(scratch, &mut pick) {
            Some(mv) => state.apply(mv),
            None => return Playout { plies, ended: true },
        }
    }
    Playout {
        plies: max_plies,
        ended: false,
    }
}

/// Chance's outcome for a uniform draw `u` in [0, 1): the first whose cumulative
/// probability passes `u` (the last when rounding leaves `u` past them all); `None` when
/// there is none.
#[inline]
pub fn chance_outcome<M: Copy>(outcomes: &[(M, f64)], u: f64) -> Option<M> {
    let mut sum = 0.0;
    for &(mv, p) in outcomes {
        sum += p;
        if u < sum {
            return Some(mv);
        }
    }
    outcomes.last().map(|&(mv, _)| mv)
}

/// Why no agent can be asked to move in `state`: a game whose rules broke
/// ([`Game::BROKEN_REASON`]) left a position that is not over without a legal move. `None`
/// for every built-in game, at no cost. Checked before every decision, so that no agent
/// is asked to choose among no moves.
#[inline]
pub fn stuck<G: Game>(state: &G) -> Option<&'static str> {
    let reason = G::BROKEN_REASON?;
    (state.outcome().is_none() && state.count_moves() == 0).then_some(reason)
}

/// What a game sees one move ahead ([`Game::tactics`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tactics<M> {
    /// This move wins at once.
    Win(M),
    /// Every legal move lets the opponent win at once.
    Lost,
    /// The list holds the legal moves that do not (at least one).
    Moves,
}

/// Positions an exact search visited (finished ones included) and expanded (its moves
/// generated), a game's own endgame search ([`Game::solve_margin`]) counting as the solver
/// does.
#[derive(Clone, Copy, Debug, Default)]
pub struct SearchCounts {
    pub visited: u64,
    pub expanded: u64,
}

/// The rules of a turn-based game of two players (or up to six, [`Game::players`]), where chance may act between the players'
/// moves ([`Game::CHANCE`]), some of a position may be hidden from a player
/// ([`Game::HIDDEN`]) and the players may move simultaneously, in rounds played in turns
/// with each move hidden until the round is over ([`Game::in_round`]).
///
/// A position is a small value: search copies it to make a move (`copy-make`), so
/// implementations keep it compact (bitboards). Games know nothing of search or files.
pub trait Game: Clone + Send + Sync + fmt::Debug + 'static {
    /// One move; small and `Copy`.
    type Move: Copy + Eq + std::hash::Hash + fmt::Debug + Send + Sync + 'static;

    /// The side to move (at a chance position, the side that moves once chance has
    /// acted).
    fn to_move(&self) -> Player;

    /// The number of players, 2 to [`Player::MAX`], seated P1, P2, ... and moving in that
    /// order unless the rules say otherwise. Searches for two players (minimax,
    /// alpha-beta, the solver) refuse a game of more; a finished game of more ranks its
    /// players by [`Game::returns`].
    fn players(&self) -> usize {
        2
    }

    /// Makes `player` the one to move in this position, as best-reply search does when
    /// one opponent replies for all (the others pass); `false`, changing nothing, for a
    /// game that cannot (best-reply search then refuses it).
    fn put_to_move(&mut self, _player: Player) -> bool {
        false
    }

    /// Whether chance ever acts in this game (a die rolled, cards dealt): `false` for the
    /// deterministic games, so that every check of [`Game::is_chance`] compiles to nothing
    /// for them. Searches that assume no chance (minimax, alpha-beta, the solver) refuse
    /// a game that sets it.
    const CHANCE: bool = false;

    /// Whether chance acts in this game: [`Game::CHANCE`] for a game whose rules are
    /// known here; a game served by a program says so when it starts.
    fn has_chance(&self) -> bool {
        Self::CHANCE
    }

    /// Whether chance acts in this position: its legal moves are then chance's outcomes
    /// (a die's faces), chosen by whoever plays the game (the scheduler from the game's
    /// seed, a search by their probabilities), never by an agent.
    #[inline]
    fn is_chance(&self) -> bool {
        false
    }

    /// Clears `out` and fills it with chance's outcomes here and their probabilities
    /// (summing to 1), in `legal_moves`' order. The default: every legal move alike.
    fn chance_outcomes(&self, out: &mut Vec<(Self::Move, f64)>) {
        let mut moves = Vec::new();
        self.legal_moves(&mut moves);
        let p = 1.0 / moves.len().max(1) as f64;
        out.clear();
        out.extend(moves.into_iter().map(|mv| (mv, p)));
    }

    /// Chance's outcome here for a uniform draw `u` in [0, 1): the first whose cumulative
    /// probability passes `u` ([`chance_outcome`]), `scratch` holding the outcomes. A game
    /// whose outcomes are alike (a die) overrides it to pick without listing them.
    #[inline]
    fn chance_move(&self, u: f64, scratch: &mut Vec<(Self::Move, f64)>) -> Option<Self::Move> {
        self.chance_outcomes(scratch);
        chance_outcome(scratch, u)
    }

    /// Whether a finished game scores more than who won ([`Game::returns`]): `false` for
    /// the games scored by win, draw and loss alone; a game served by a program says so
    /// when it starts.
    fn has_returns(&self) -> bool {
        false
    }

    /// Each player's return in this finished position, in a game that scores more than
    /// who won (the chips each player won at poker, a gammon's stake at backgammon): what
    /// games.csv records beside the winner and the summary averages. `None` for a game
    /// scored by win, draw and loss alone, or a position not finished.
    fn returns(&self) -> Option<Returns> {
        None
    }

    /// Whether some of a position is hidden from a player (cards in a hand, a die under a
    /// cup): `false` for the games of perfect information, so that the searches that see
    /// the whole position may play them. A game that sets it tells each player only
    /// [`Game::observation`], and can draw the positions a player cannot tell apart
    /// ([`Game::determinize`]).
    const HIDDEN: bool = false;

    /// Whether some of this game's positions are hidden from a player: [`Game::HIDDEN`] for
    /// a game whose rules are known here; a game served by a program says so when it
    /// starts.
    fn has_hidden(&self) -> bool {
        Self::HIDDEN
    }

    /// What `player` knows of this position, as text: in a game with hidden information,
    /// everything that player has seen so far and nothing else (what an external agent is
    /// sent instead of the position). The default, for a game of perfect information:
    /// the board.
    fn observation(&self, _player: Player) -> String {
        self.board_dump()
    }

    /// A position `player` cannot tell apart from this one (the same observation),
    /// drawn from `seed`: the same seed gives the same position. The hidden part is
    /// guessed, never read: what information-set searches sample. `None` when the game
    /// cannot draw one. The default, for a game of perfect information: this position.
    fn determinize(&self, _player: Player, _seed: u64) -> Option<Self> {
        Some(self.clone())
    }

    /// Whether [`Game::determinize`] can draw positions here (a game served by a program
    /// says so when it starts).
    fn can_determinize(&self) -> bool {
        true
    }

    /// Whether this position is inside a round of simultaneous moves played in turns: a
    /// move of the round is already made, hidden from the player to move, who chooses
    /// without it; the moves are applied together once every player of the round has
    /// chosen. `false` in every game of sequential moves (the default).
    #[inline]
    fn in_round(&self) -> bool {
        false
    }

    /// Inside a round of simultaneous moves ([`Game::in_round`]), the position where the
    /// round began, before any of its moves: where a search for the player to move starts,
    /// so that its choice does not rest on the moves it cannot see. `None` elsewhere (the
    /// default), or when the game cannot give it.
    fn round_start(&self) -> Option<Self> {
        None
    }

    /// A key of `mv` that means the same move in every position of a game where it is
    /// legal: what an information-set search matches moves by across the positions it
    /// draws. The default hashes the move itself; a game whose moves are indices into a
    /// position's list keys them by their text.
    fn move_key(&self, mv: Self::Move) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut hasher = std::collections::hash_map::DefaultHasher::new();
        mv.hash(&mut hasher);
        hasher.finish()
    }

    /// Clears `out` and fills it with every legal move, in a fixed order that depends only
    /// on the position. A finished game has no legal moves; at a chance position, the
    /// moves are chance's outcomes.
    fn legal_moves(&self, out: &mut Vec<Self::Move>);

    /// Whether `mv` is one of `legal_moves` here. Override when it can be told without
    /// listing them.
    fn is_legal(&self, mv: Self::Move) -> bool {
        let mut moves = Vec::new();
        self.legal_moves(&mut moves);
        moves.contains(&mv)
    }

    /// The number of legal moves (perft's bulk count). Override when it can be counted
    /// faster than generated.
    fn count_moves(&self) -> u64 {
        let mut moves = Vec::new();
        self.legal_moves(&mut moves);
        moves.len() as u64
    }

    /// The legal moves of every child summed (perft two plies deep with the last ply
    /// bulk-counted), `scratch` holding this position's moves if needed. Override when
    /// the children can be counted without being made one by one through
    /// `for_each_child`.
    fn count_grandchildren(&self, scratch: &mut Vec<Self::Move>) -> u64 {
        let mut total = 0;
        self.for_each_child(scratch, |_, child| {
            total += child.count_moves();
            ControlFlow::Continue(())
        });
        total
    }

    /// The legal move at index `pick(n)` of `legal_moves`' order, `n` being their number
    /// (`None` when there is none): what a random playout plays. The default lists the
    /// moves in `scratch`; a game that can count its moves and find the k-th without
    /// listing them overrides it (Breakthrough on its bitboards). Either way the same
    /// `pick` gives the same move, so playouts replay exactly.
    #[inline]
    fn pick_move(
        &self,
        scratch: &mut Vec<Self::Move>,
        mut pick: impl FnMut(usize) -> usize,
    ) -> Option<Self::Move> {
        self.legal_moves(scratch);
        if scratch.is_empty() {
            return None;
        }
        Some(scratch[pick(scratch.len())])
    }

    /// Plays random moves from here, each the move [`Game::pick_move`] gives for `pick`,
    /// until the side to move has none (the game is over) or `max_plies` are played: a
    /// random playout, as MCTS's rollouts and `arbiter bench` play them. The default is
    /// that loop; a game that can play it faster overrides it (Breakthrough: one loop per
    /// board size, the boards kept in registers). Either way the same picks give the same
    /// moves, so playouts replay exactly.
    #[inline]
    fn random_playout(
        &mut self,
        scratch: &mut Vec<Self::Move>,
        pick: impl FnMut(usize) -> usize,
        max_plies: u32,
    ) -> Playout {
        pick_move_playout(self, scratch, pick, max_plies)
    }

    /// Calls `visit(mv, child)` for each legal move in `legal_moves`' order with the
    /// position after it, until `visit` breaks; returns the number of legal moves (all of
    /// them, visited or not: 0 means the game is over). What perft and the searches that
    /// take moves in their listed order walk. The default lists the moves in `scratch` and
    /// applies each to a copy; a game that can make its children straight from its board
    /// overrides it (Breakthrough from its target bitboards, with no list and no copy
    /// updated in place).
    #[inline]
    fn for_each_child<F>(&self, scratch: &mut Vec<Self::Move>, mut visit: F) -> u64
    where
        F: FnMut(Self::Move, &Self) -> ControlFlow<()>,
    {
        self.legal_moves(scratch);
        for &mv in scratch.iter() {
            let mut child = self.clone();
            child.apply(mv);
            if visit(mv, &child).is_break() {
                break;
            }
        }
        scratch.len() as u64
    }

    /// A cheap guess of how good `mv` is, for move ordering: ordered alpha-beta searches
    /// larger scores first (e.g. captures, then advancing moves). Default: all equal.
    fn move_order_score(&self, _mv: Self::Move) -> i32 {
        0
    }

    /// What the game sees one move ahead at a glance, for exact solvers (`solve-game`,
    /// `grade`, the oracle): a move that wins at once, or that every legal move lets the
    /// opponent win at once, or else (`Tactics::Moves`) the legal moves in `out` without
    /// those that let the opponent win at once. `None` (the default): the game does not
    /// tell, and the solver tries every legal move. Two-player games only; what it says
    /// must agree with `apply` and `outcome` (Connect Four's is tested against them).
    fn tactics(&self, _out: &mut Vec<Self::Move>) -> Option<Tactics<Self::Move>> {
        None
    }

    /// For exact solvers' tables: a well-mixed hash equal for positions that the board's
    /// symmetries map onto one another (Connect Four's mirror), and the symmetry (a number
    /// the game chooses, 0 for none) that maps this position onto the one the hash stands
    /// for. Default: `position_hash` and 0.
    fn symmetric_hash(&self) -> (u64, u8) {
        (self.position_hash(), 0)
    }

    /// `mv` carried by `symmetry` of [`Game::symmetric_hash`], or back (`inverse`).
    fn map_move(&self, mv: Self::Move, _symmetry: u8, _inverse: bool) -> Self::Move {
        mv
    }

    /// A position written as the game's own text, for `solve-game --board` (Othello: the
    /// 64 squares a1 to h8 row by row, `X` black, `O` white, `-` empty, then the side to
    /// move, as the FFO test positions are written). `None` (the default): the game reads
    /// no position texts; `Some(Err)`: what is wrong with this one.
    fn read_position(&self, _text: &str) -> Option<Result<Self, PositionError>> {
        None
    }

    /// Whether a finished position has a margin (Othello's discs) for exact solvers to
    /// score by ([`Game::final_margin`], `solve-game --margin`). Default: no, the game
    /// scores a win, a loss or a draw only.
    fn scores_margin(&self) -> bool {
        false
    }

    /// At a finished position, its final margin for the side to move (Othello: its discs
    /// less the opponent's, the empty squares to the winner). Default: none.
    fn final_margin(&self) -> Option<i32> {
        None
    }

    /// The exact margin for the side to move, fail-soft within `alpha..beta`, where the
    /// game finds it faster itself (Othello's last empty squares) or can bound it at once
    /// (Othello's stable discs: a fail-soft bound outside the window), adding the positions
    /// its search visits and expands to `counts`. `None` (the default): the solver searches
    /// on. The solver first asks with a window above any margin: the bound returned is the
    /// best the position can promise, and the solver tests it before anything else.
    fn solve_margin(&self, _alpha: i32, _beta: i32, _counts: &mut SearchCounts) -> Option<i32> {
        None
    }

    /// The order an exact solver scoring margins tries moves in, larger first (Othello:
    /// the moves leaving the opponent fewest replies), at a node whose test asks whether the
    /// side to move reaches a margin of `beta`. Default: [`Game::move_order_score`].
    fn margin_order_score(&self, mv: Self::Move, _beta: i32) -> i32 {
        self.move_order_score(mv)
    }

    /// Whether a side that overruns the per-move time limit loses (`true`, the default)
    /// or has a random legal move played for it.
    fn timeout_forfeits(&self) -> bool {
        true
    }

    /// Set by games whose rules may break (a rules program that fails or contradicts
    /// itself): the reason a game ends with when a position that is not over has no legal
    /// move. Whoever asks an agent to decide checks [`stuck`] first; for the built-in
    /// games (`None`) the check compiles to nothing.
    const BROKEN_REASON: Option<&'static str> = None;

    /// How often the game's rules broke so far in this process (a rules program that
    /// failed); always 0 for the built-in games. A count taken across a failure is no
    /// count: perft and the solver compare it before and after.
    fn rules_failures(&self) -> u64 {
        0
    }

    /// Called on the position a game starts from (a copy of the start or of an opening),
    /// before its first move. A game whose rules may break ties the position to this game,
    /// so that a failure during the game ends it at once, the first move included.
    fn begin_game(&mut self) {}

    /// Plays `mv`, which must be legal here.
    fn apply(&mut self, mv: Self::Move);

    /// `Some` when the game is over in this position.
    fn outcome(&self) -> Option<Outcome>;

    /// A well-mixed 64-bit hash of the position (pieces and side to move).
    fn position_hash(&self) -> u64;

    /// Pieces `player` has on the board (used to count captures).
    fn piece_count(&self, player: Player) -> u32;

    /// Appends the move in the game's notation to `out` (no allocation once `out` has
    /// grown: the scheduler records every move this way).
    fn write_move(&self, mv: Self::Move, out: &mut String);

    /// The move in the game's notation.
    fn format_move(&self, mv: Self::Move) -> String {
        let mut text = String::with_capacity(8);
        self.write_move(mv, &mut text);
        text
    }

    /// A token of a move list holding several moves written together, split into moves
    /// (Connect Four's `4453`, as its solvers write games); `None` when it is one move.
    fn split_moves(&self, _token: &str) -> Option<Vec<String>> {
        None
    }

    /// Reads a move in the game's notation and checks that it is legal here.
    ///
    /// # Errors
    /// A [`MoveError`] saying whether the text is malformed or the move illegal.
    fn parse_move(&self, text: &str) -> Result<Self::Move, MoveError>;

    /// The board as the reports print it (one text line per row).
    fn board_dump(&self) -> String;

    /// The board for a person: [`Game::board_dump`] with row and column labels in the
    /// move notation's coordinates (what `play` and `replay` print).
    fn board_display(&self) -> String {
        self.board_dump()
    }

    /// The position as JSON, in the game's documented form (docs/protocol.md): what an
    /// external agent is sent with every move request.
    fn position_json(&self) -> serde_json::Value;

    /// Appends what `player` may see of the position as JSON (an external agent's
    /// `position`): the whole position ([`Game::write_position_json`]) in a game of perfect
    /// information; a game with hidden information writes that player's view only.
    fn write_view_json(&self, _player: Player, out: &mut Vec<u8>) {
        self.write_position_json(out);
    }

    /// Appends [`Game::position_json`] as serde_json writes it (into a move request,
    /// every ply). Override to write the same bytes without building a JSON tree first.
    fn write_position_json(&self, out: &mut Vec<u8>) {
        // Writing a JSON value to a Vec cannot fail.
        let _ = serde_json::to_writer(out, &self.position_json());
    }
}

/// Scores a position for a root player: larger is better for `root`.
///
/// `noise_seed` is the agent's seed: an evaluation with a random term must make it a
/// pure function of (position, `noise_seed`), see [`seeds::unit_noise`].
pub trait Evaluator<G: Game>: Send + Sync {
    /// The heuristic value of a non-terminal position for `root`.
    fn evaluate(&self, state: &G, root: Player, noise_seed: u64) -> f64;
}

/// Scores a move in a position for the side making it (larger is better): the action
/// evaluation beam search ranks moves by.
pub trait ActionEvaluator<G: Game>: Send + Sync {
    /// The score of playing `mv` in `state`, for the mover.
    fn score(&self, state: &G, mv: G::Move, noise_seed: u64) -> f64;

    /// Whether the two sides can no longer interact, so beam search skips the opponent's
    /// reply (Chinese Checkers: the armies have passed each other). Default: never.
    fn separated(&self, _state: &G) -> bool {
        false
    }
}

/// An action score from a state evaluator: the evaluation of the position after `mv`,
/// for the mover.
pub fn score_by_child<G: Game, E: Evaluator<G>>(
    evaluator: &E,
    state: &G,
    mv: G::Move,
    noise_seed: u64,
) -> f64 {
    let mut child = state.clone();
    child.apply(mv);
    evaluator.evaluate(&child, state.to_move(), noise_seed)
}

/// What an agent decided for one move.
#[derive(Clone, Debug)]
pub struct Decision<M> {
    /// The move to play.
    pub mv: M,
    /// The root value the search found, from the mover's point of view, if it searched.
    pub value: Option<f64>,
    /// Nodes the decision cost.
    pub stats: DecisionStats,
    /// The depth the search completed (0 when it did not search).
    pub depth: u32,
    /// Set when the agent failed to decide (an external program crashed, answered late
    /// or wrongly): the harness records it, and the game ends or goes on with `mv`.
    pub fault: Option<Fault>,
    /// Whether `stats` and `depth` are the agent's own report (an external program's
    /// `info`) rather than counted by arbiter.
    pub self_reported: bool,
    /// CPU time the decision cost, in nanoseconds, where it was measured (an external
    /// program's process, or its sandbox's process tree).
    pub cpu_nanos: Option<u64>,
}

impl<M> Decision<M> {
    /// A decision to play `mv` that searched nothing.
    pub fn just(mv: M) -> Decision<M> {
        Decision {
            mv,
            value: None,
            stats: DecisionStats::default(),
            depth: 0,
            fault: None,
            self_reported: false,
            cpu_nanos: None,
        }
    }
}

/// Why an agent failed to decide a move (recorded on the game and the move).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FaultReason {
    /// Answered after the deadline and its margin.
    Timeout,
    /// Did not answer at all (no reply before the hang deadline, or no `pong`).
    Stall,
    /// The program exited or was killed by a signal.
    Crash,
    /// Answered with a move that is not legal (or not in the game's notation).
    IllegalMove,
    /// Answered with a line that is not the expected JSON reply.
    BadOutput,
    /// Could not be started, or did not complete the handshake in time.
    StartupFailure,
    /// Ran out of its sandbox's memory.
    Memory,
    /// Reached its sandbox's limit on processes.
    Processes,
    /// Used up its sandbox's CPU time.
    CpuTime,
    /// Wrote a file over its sandbox's size limit.
    Output,
}

impl FaultReason {
    /// The name written to games.csv and moves.csv.
    pub fn name(self) -> &'static str {
        match self {
            FaultReason::Timeout => "timeout",
            FaultReason::Stall => "stall",
            FaultReason::Crash => "crash",
            FaultReason::IllegalMove => "illegal_move",
            FaultReason::BadOutput => "bad_output",
            FaultReason::StartupFailure => "startup_failure",
            FaultReason::Memory => "memory",
            FaultReason::Processes => "processes",
            FaultReason::CpuTime => "cpu_time",
            FaultReason::Output => "output",
        }
    }
}

/// An agent's failure to decide a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fault {
    /// What went wrong.
    pub reason: FaultReason,
    /// Whether the agent forfeits the game (`false`: the decision's move, a seeded random
    /// legal move, is played instead).
    pub forfeit: bool,
}

/// The game an agent is about to play: what a program playing it is told.
#[derive(Clone, Debug)]
pub struct GameContext<'a> {
    /// The game's id in its run.
    pub id: u64,
    /// The agent's seat.
    pub seat: Player,
    /// The agent's seed for this game.
    pub seed: u64,
    /// The moves of the opening (`;`-separated), already played.
    pub opening: &'a str,
    /// The per-move time limit, if any.
    pub move_time: Option<std::time::Duration>,
    /// The folder where agents may keep per-game logs (`logs/` of the results folder).
    pub logs: Option<&'a std::path::Path>,
}

/// The longest time limit accepted anywhere, in seconds (about 31 years): every deadline
/// then fits the monotonic clock.
pub const MAX_SECONDS: u64 = 1_000_000_000;

/// A time limit of `seconds` (positive, at most [`MAX_SECONDS`]).
///
/// # Errors
/// What is wrong with the number, to follow the flag or key that gave it.
pub fn time_limit(seconds: f64) -> Result<std::time::Duration, String> {
    if seconds > 0.0 && seconds <= MAX_SECONDS as f64 {
        Ok(std::time::Duration::from_secs_f64(seconds))
    } else {
        let shown = if seconds.abs() < 1e15 {
            format!("{seconds}")
        } else {
            format!("{seconds:e}")
        };
        Err(format!(
            "{shown}: give a positive number of seconds, at most {MAX_SECONDS}"
        ))
    }
}

/// A time limit of `ms` milliseconds (at least 1, at most [`MAX_SECONDS`] seconds).
///
/// # Errors
/// What is wrong with the number, to follow the key that gave it.
pub fn time_limit_ms(ms: i128) -> Result<std::time::Duration, String> {
    let most = i128::from(MAX_SECONDS) * 1000;
    if (1..=most).contains(&ms) {
        Ok(std::time::Duration::from_millis(ms as u64))
    } else {
        Err(format!(
            "{ms}: give a whole number of milliseconds from 1 to {most}"
        ))
    }
}

/// When an agent must stop thinking about a move: the move's deadline (a per-move time
/// limit) and a flag the harness raises to stop everything (Ctrl-C). A searching agent
/// checks both inside its search and answers at once with what it has.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    /// The instant the move is due.
    pub deadline: Option<std::time::Instant>,
    /// Raised to abandon the move (and the game).
    pub stop: Option<std::sync::Arc<std::sync::atomic::AtomicBool>>,
}

impl Limits {
    /// No limit: think as long as the agent wants.
    pub const NONE: Limits = Limits {
        deadline: None,
        stop: None,
    };

    /// Whether the stop flag is raised.
    pub fn stopped(&self) -> bool {
        self.stop
            .as_ref()
            .is_some_and(|stop| stop.load(std::sync::atomic::Ordering::Relaxed))
    }

    /// Whether the agent must answer now: stopped, or past the deadline.
    pub fn reached(&self) -> bool {
        self.stopped()
            || self
                .deadline
                .is_some_and(|deadline| std::time::Instant::now() >= deadline)
    }
}

/// One side's game clock setting: a base time and an increment added after each of its
/// moves (`60+0.5`: a minute, half a second a move).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeControl {
    /// Time on the clock at the start of the game.
    pub base: std::time::Duration,
    /// Time added after each move the side makes.
    pub increment: std::time::Duration,
}

impl std::str::FromStr for TimeControl {
    type Err = String;

    /// `BASE+INCREMENT` in seconds (`60+0.5`), or `BASE` alone (no increment).
    fn from_str(text: &str) -> Result<TimeControl, String> {
        let bad = |why: &str| {
            format!(
                "time control '{text}': {why} (expected BASE+INCREMENT in seconds, e.g. \"60+0.5\")"
            )
        };
        let (base, increment) = text.trim().split_once('+').unwrap_or((text.trim(), "0"));
        let seconds = |part: &str, what: &str| -> Result<std::time::Duration, String> {
            let value: f64 = part
                .trim()
                .parse()
                .map_err(|_| bad(&format!("{what} '{}' is not a number", part.trim())))?;
            if !value.is_finite() || value < 0.0 || value > MAX_SECONDS as f64 {
                return Err(bad(&format!(
                    "{what} must be from 0 to {MAX_SECONDS} seconds"
                )));
            }
            Ok(std::time::Duration::from_secs_f64(value))
        };
        let control = TimeControl {
            base: seconds(base, "the base time")?,
            increment: seconds(increment, "the increment")?,
        };
        if control.base.is_zero() {
            return Err(bad("the base time must be positive"));
        }
        Ok(control)
    }
}

impl fmt::Display for TimeControl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}+{}",
            self.base.as_secs_f64(),
            self.increment.as_secs_f64()
        )
    }
}

/// Rules that end a long game early from the scores the agents report (the root values
/// of their searches, from the mover's side), as cutechess's `-resign` and `-draw` do. Off
/// unless given; a move without a score breaks every streak.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Adjudication {
    /// Resign: a side loses when its last `moves` scores were all at most `-score` and its
    /// opponent's last `moves` all at least `score` (both agree).
    pub resign: Option<ScoreRule>,
    /// Draw: after `after_ply` plies, when both sides' last `moves` scores were all within
    /// `score` of zero.
    pub draw: Option<ScoreRule>,
    /// The ply from which the draw rule applies.
    pub draw_after_ply: u32,
    /// The oracle, as chess testers end games with a tablebase: before every move, the
    /// exact solver is given this many positions to visit, and a position it decides ends
    /// the game with its value (reason `adjudicated-oracle`). Two-player games without
    /// chance or hidden information only.
    pub oracle: Option<u64>,
    /// The ply from which the oracle is asked (0: from the start). With agents that err, a
    /// position decided early may be lost in play: a later start changes fewer results.
    pub oracle_after_ply: u32,
}

impl Adjudication {
    /// Whether no rule is given (the default): no game is adjudicated.
    pub fn is_off(&self) -> bool {
        !self.scores() && self.oracle.is_none()
    }

    /// Whether a rule on the agents' scores (resign or draw) is given.
    pub fn scores(&self) -> bool {
        self.resign.is_some() || self.draw.is_some()
    }
}

/// A score threshold held for a number of a side's moves in a row.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ScoreRule {
    /// The threshold (resign) or band (draw).
    pub score: f64,
    /// The side's moves in a row that must hold it.
    pub moves: u32,
}

/// Both sides' game clocks as the side to move sees them before its move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Clock {
    /// Time left on each side's clock.
    pub remaining: ByPlayer<std::time::Duration>,
    /// Each side's increment per move.
    pub increment: ByPlayer<std::time::Duration>,
    /// Whether the clocks run on the CPU time the agents use (external programs; a
    /// built-in agent is charged its wall time) rather than on wall time.
    pub cpu: bool,
}

impl Clock {
    /// The time a side managing its clock spends on its next move: a twentieth of what is
    /// left plus three quarters of its increment, never more than half of what is left.
    pub fn share(&self, side: Player) -> std::time::Duration {
        let left = self.remaining[side];
        (left / 20 + self.increment[side] * 3 / 4).min(left / 2)
    }
}

/// Something that picks moves: a search algorithm with its heuristic, or a person.
pub trait Agent<G: Game>: Send {
    /// Chooses a move in `state`, which is not finished and has at least one legal move,
    /// answering early once `limits` are reached (the move is then forfeited or dropped
    /// by the harness, but must still be legal).
    fn decide(&mut self, state: &G, limits: &Limits) -> Decision<G::Move>;

    /// Told before the first move of a game played from `start` (after the opening).
    fn start_game(&mut self, _start: &G, _game: &GameContext<'_>) {}

    /// Told after every move of the game, by either side, in the game's notation, when
    /// [`Agent::observes`].
    fn observe(&mut self, _mv: &str) {}

    /// Whether it wants [`Agent::observe`] (an external program keeps the game's moves);
    /// when no seat does and no moves are recorded, the moves are never written out.
    fn observes(&self) -> bool {
        false
    }

    /// Told before each of its moves when the game is played on a clock: both sides'
    /// time left and increments. An agent managing its time spends about
    /// [`Clock::share`] of it; the harness's deadline is the time left.
    fn see_clock(&mut self, _clock: &Clock) {}

    /// Told when the game is over (`winner`: `None` for a draw).
    fn end_game(&mut self, _winner: Option<Player>, _reason: &str) {}

    /// How long after the per-move deadline a move still counts as in time (an external
    /// program's tolerance margin; built-in agents have none).
    fn time_margin(&self) -> std::time::Duration {
        std::time::Duration::ZERO
    }

    /// Why this agent can play no more games (an external program that failed to start
    /// too often), if so: the harness then stops starting its games.
    fn broken(&self) -> Option<String> {
        None
    }
}
