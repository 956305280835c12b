//! The algorithms an agent names (`alphabeta`, `mcts`, ...), their parameters, and how
//! each is written and read.

use super::*;

/// A search algorithm.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Algorithm {
    /// Full-width minimax to a fixed depth.
    Minimax,
    /// Minimax with alpha-beta pruning (fail-soft), same move order as minimax.
    AlphaBeta,
    /// Alpha-beta searching the game's likely-best moves first (captures, advances).
    AlphaBetaOrdered,
    /// Ordered alpha-beta that also tries first the moves that caused cutoffs at the same
    /// level before (two killer moves per level).
    AlphaBetaKiller,
    /// Alpha-beta ordering every node's moves by the static evaluation of the position each
    /// leads to: best first for the root player at its nodes, worst first at the opponent's
    /// (report 003's "solution 4"). The ordering evaluations count as evaluated nodes.
    AlphaBetaSorted,
    /// Alpha-beta that keeps the heuristic values of positions already evaluated in a table
    /// keyed by the position hash, so a position reached again is not evaluated again
    /// (report 003's "history table").
    AlphaBetaCached,
    /// Iterative deepening alpha-beta with a transposition table (bounds, best move,
    /// depth), the table's move first, then captures, killer moves and the history
    /// heuristic ([`Searcher::search`] with a table of `tt_mb` megabytes).
    AlphaBetaTt,
    /// One-ply search: the move whose resulting position evaluates best.
    Greedy,
    /// A uniformly random legal move; no search, no heuristic.
    Random,
    /// Report 004's top-k beam search: the k best-scored moves, each answered by the
    /// opponent's best-scored reply, to `depth` own moves, rewards decayed by `gamma`;
    /// depth 0 is greedy on the action score.
    Beam,
    /// The course baseline: a random move among those with the best move-order score
    /// (Chinese Checkers: the largest row advance).
    SimpleGreedy,
    /// Monte Carlo tree search with UCT and random (or heuristic) rollouts ([`mcts`]).
    Mcts,
    /// Minimax where chance acts: a chance position is worth its outcomes' values weighed
    /// by their probabilities; chance does not use up depth (the players' moves do).
    Expectimax,
    /// Information-set MCTS ([`ismcts`]): each iteration plays in a position drawn from
    /// what the player has seen, for games where some of a position is hidden.
    Ismcts,
    /// max^n for games of any number of players: a value per player, each choosing the
    /// best for itself; shallow pruning with a bound ([`multi`]).
    Maxn,
    /// Paranoid search: ordered alpha-beta where every other player minimises the root
    /// player's value.
    Paranoid,
    /// Best-reply search: the root player's moves against the best single reply of any
    /// opponent, with alpha-beta ([`multi`]).
    Brs,
    /// Ballard's Star1: expectimax with alpha-beta at the players' positions and cutoffs
    /// at chance's, for values within a bound ([`star`]).
    Star1,
    /// Ballard's Star2: Star1 with a probe beneath each chance outcome ([`star`]).
    Star2,
}

impl Algorithm {
    /// Every algorithm, in the order `list` shows them.
    pub const ALL: [Algorithm; 19] = [
        Algorithm::Minimax,
        Algorithm::AlphaBeta,
        Algorithm::AlphaBetaOrdered,
        Algorithm::AlphaBetaKiller,
        Algorithm::AlphaBetaSorted,
        Algorithm::AlphaBetaCached,
        Algorithm::AlphaBetaTt,
        Algorithm::Expectimax,
        Algorithm::Star1,
        Algorithm::Star2,
        Algorithm::Maxn,
        Algorithm::Paranoid,
        Algorithm::Brs,
        Algorithm::Greedy,
        Algorithm::Beam,
        Algorithm::Mcts,
        Algorithm::Ismcts,
        Algorithm::SimpleGreedy,
        Algorithm::Random,
    ];

    /// The name used in agent specs.
    pub fn name(self) -> &'static str {
        match self {
            Algorithm::Minimax => "minimax",
            Algorithm::AlphaBeta => "alphabeta",
            Algorithm::AlphaBetaOrdered => "alphabeta-ordered",
            Algorithm::AlphaBetaKiller => "alphabeta-killer",
            Algorithm::AlphaBetaSorted => "alphabeta-sorted",
            Algorithm::AlphaBetaCached => "alphabeta-cached",
            Algorithm::AlphaBetaTt => "alphabeta-tt",
            Algorithm::Greedy => "greedy",
            Algorithm::Random => "random",
            Algorithm::Beam => "beam",
            Algorithm::SimpleGreedy => "simple-greedy",
            Algorithm::Mcts => "mcts",
            Algorithm::Expectimax => "expectimax",
            Algorithm::Ismcts => "ismcts",
            Algorithm::Maxn => "maxn",
            Algorithm::Paranoid => "paranoid",
            Algorithm::Brs => "brs",
            Algorithm::Star1 => "star1",
            Algorithm::Star2 => "star2",
        }
    }

    /// One line for `list` and `--help`.
    pub fn describe(self) -> &'static str {
        match self {
            Algorithm::Minimax => "full-width minimax to `depth` plies",
            Algorithm::AlphaBeta => "alpha-beta pruning; same move and value as minimax",
            Algorithm::AlphaBetaOrdered => {
                "alpha-beta, likely-best moves first; same value as minimax"
            }
            Algorithm::AlphaBetaKiller => {
                "ordered alpha-beta with two killer moves per level; same value as minimax"
            }
            Algorithm::AlphaBetaSorted => {
                "alpha-beta, moves sorted by the evaluation of their positions; same value as minimax"
            }
            Algorithm::AlphaBetaCached => {
                "alpha-beta with a table of evaluated positions; same move and value as minimax"
            }
            Algorithm::AlphaBetaTt => {
                "iterative deepening alpha-beta, transposition table, table move/killers/captures/history first, PVS; same value as minimax"
            }
            Algorithm::Greedy => "one ply: the move whose position evaluates best",
            Algorithm::Random => "a uniformly random legal move",
            Algorithm::Beam => {
                "top-k beam with the opponent's best reply, decay gamma (report 004)"
            }
            Algorithm::SimpleGreedy => "random among the moves with the best move-order score",
            Algorithm::Mcts => {
                "Monte Carlo tree search (UCT), random or heuristic rollouts, chance sampled; the most visited move"
            }
            Algorithm::Expectimax => {
                "minimax to `depth` moves with chance's outcomes averaged by their probabilities (dice games); minimax where there is no chance"
            }
            Algorithm::Ismcts => {
                "information-set MCTS: each iteration plays in a position drawn from what the player has seen (cards, hidden moves); MCTS where nothing is hidden"
            }
            Algorithm::Maxn => {
                "max^n to `depth` plies for any number of players: each player picks the child best for itself; `bound` (the centred heuristic's bound) turns on shallow pruning"
            }
            Algorithm::Paranoid => {
                "paranoid search for any number of players: alpha-beta where all the others minimise the root player's value; alphabeta-ordered for two"
            }
            Algorithm::Brs => {
                "best-reply search for any number of players: the root player's moves against the one best reply of any opponent, alpha-beta"
            }
            Algorithm::Star1 => {
                "Ballard's Star1: expectimax's value with alpha-beta cutoffs, also at chance's positions, for heuristic values within `bound`"
            }
            Algorithm::Star2 => {
                "Ballard's Star2: Star1 that first probes one move beneath each chance outcome, cutting off on the probes' bounds; the same value"
            }
        }
    }

    /// Whether the algorithm takes a depth (and a heuristic).
    pub fn searches(self) -> bool {
        matches!(
            self,
            Algorithm::Minimax
                | Algorithm::AlphaBeta
                | Algorithm::AlphaBetaOrdered
                | Algorithm::AlphaBetaKiller
                | Algorithm::AlphaBetaSorted
                | Algorithm::AlphaBetaCached
                | Algorithm::AlphaBetaTt
                | Algorithm::Expectimax
                | Algorithm::Maxn
                | Algorithm::Paranoid
                | Algorithm::Brs
                | Algorithm::Star1
                | Algorithm::Star2
        )
    }

    /// Whether the algorithm plays games of more than two players ([`Game::players`]):
    /// those written for them, MCTS (each node's reward is its mover's), and those that
    /// look no further than one move.
    pub fn handles_many(self) -> bool {
        matches!(
            self,
            Algorithm::Maxn
                | Algorithm::Paranoid
                | Algorithm::Brs
                | Algorithm::Mcts
                | Algorithm::Ismcts
                | Algorithm::Greedy
                | Algorithm::Random
                | Algorithm::SimpleGreedy
        )
    }

    /// Whether the algorithm plays games where chance acts ([`crate::core::Game::CHANCE`]):
    /// those that average over chance's outcomes or sample them, and those that look no
    /// further than the next position.
    pub fn handles_chance(self) -> bool {
        matches!(
            self,
            Algorithm::Expectimax
                | Algorithm::Star1
                | Algorithm::Star2
                | Algorithm::Mcts
                | Algorithm::Ismcts
                | Algorithm::Greedy
                | Algorithm::Random
                | Algorithm::SimpleGreedy
        )
    }

    /// Whether the algorithm plays games where some of a position is hidden from a player
    /// ([`crate::core::Game::HIDDEN`]) without reading it: those that draw what is hidden,
    /// and random.
    pub fn handles_hidden(self) -> bool {
        matches!(self, Algorithm::Ismcts | Algorithm::Random)
    }

    /// Whether it is one of the Monte Carlo tree searches (taking `iterations`, `c` and
    /// the rollout's parameters).
    pub fn is_mcts(self) -> bool {
        matches!(self, Algorithm::Mcts | Algorithm::Ismcts)
    }

    /// Whether the algorithm prunes with alpha-beta.
    pub fn prunes(self) -> bool {
        matches!(
            self,
            Algorithm::AlphaBeta
                | Algorithm::AlphaBetaOrdered
                | Algorithm::AlphaBetaKiller
                | Algorithm::AlphaBetaSorted
                | Algorithm::AlphaBetaCached
                | Algorithm::AlphaBetaTt
        )
    }

    /// Whether the algorithm uses a heuristic.
    /// (MCTS takes one only for heuristic rollouts or cut-offs.)
    pub fn uses_heuristic(self) -> bool {
        !matches!(
            self,
            Algorithm::Random | Algorithm::SimpleGreedy | Algorithm::Mcts | Algorithm::Ismcts
        )
    }
}

impl fmt::Display for Algorithm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Algorithm {
    type Err = String;
    fn from_str(text: &str) -> Result<Self, String> {
        Algorithm::ALL
            .into_iter()
            .find(|a| a.name() == text)
            .ok_or_else(|| {
                let known: Vec<&str> = Algorithm::ALL.iter().map(|a| a.name()).collect();
                format!("unknown algorithm '{text}' (known: {})", known.join(", "))
            })
    }
}
