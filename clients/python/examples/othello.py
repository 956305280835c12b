"""Othello's rules (arbiter's `othello`) for the Python example agents.

8x8, black (P1, `X`) first from the standard start; a move places a disc that flips the
opponent's discs it encloses in any of the eight directions; a side with no such move must
pass; the game ends when neither side can move, and the side with more discs wins (equal:
a draw). A state is (cells, to_move): cells a tuple of 64 characters, row 1 (the top)
first ('X', 'O', '.'), cell (row - 1) * 8 + column. Moves are cells, written `d3`, and
PASS, written `pass`.
"""

NO_MOVES = "draw"
PASS = -1
DIRECTIONS = [(dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if dr or dc]
# The widely taught square weights: corners best, the squares next to them worst.
WEIGHTS = [
    100, -20, 10, 5, 5, 10, -20, 100,
    -20, -50, -2, -2, -2, -2, -50, -20,
    10, -2, -1, -1, -1, -1, -2, 10,
    5, -2, -1, -1, -1, -1, -2, 5,
    5, -2, -1, -1, -1, -1, -2, 5,
    10, -2, -1, -1, -1, -1, -2, 10,
    -20, -50, -2, -2, -2, -2, -50, -20,
    100, -20, 10, 5, 5, 10, -20, 100,
]


def _disc(side):
    return "X" if side == 1 else "O"


def from_json(position):
    return tuple("".join(position["board"])), 1 if position["to_move"] == "P1" else 2


def to_move(state):
    return state[1]


def notation(state, move):
    if move == PASS:
        return "pass"
    return "abcdefgh"[move % 8] + str(move // 8 + 1)


def _flips(cells, side, square):
    """The discs a disc of `side` on the empty `square` would flip."""
    own, other = _disc(side), _disc(3 - side)
    r, c = divmod(square, 8)
    flipped = []
    for dr, dc in DIRECTIONS:
        line = []
        rr, cc = r + dr, c + dc
        while 0 <= rr < 8 and 0 <= cc < 8 and cells[rr * 8 + cc] == other:
            line.append(rr * 8 + cc)
            rr, cc = rr + dr, cc + dc
        if line and 0 <= rr < 8 and 0 <= cc < 8 and cells[rr * 8 + cc] == own:
            flipped.extend(line)
    return flipped


def _placements(cells, side):
    return [s for s in range(64) if cells[s] == "." and _flips(cells, side, s)]


def moves(state):
    """The placements, or a pass when there is none (even when the game is over)."""
    return _placements(*state) or [PASS]


def order(state, move):
    """Corners first, the squares beside them last."""
    return 0 if move == PASS else -WEIGHTS[move]


def play(state, move):
    cells, side = state
    if move == PASS:
        return cells, 3 - side
    child = list(cells)
    for square in _flips(cells, side, move) + [move]:
        child[square] = _disc(side)
    return tuple(child), 3 - side


def winner(state):
    """1 or 2 by disc count once neither side can move, 0 for equal counts, else None."""
    cells = state[0]
    if _placements(cells, 1) or _placements(cells, 2):
        return None
    black, white = cells.count("X"), cells.count("O")
    return 1 if black > white else 2 if white > black else 0


def evaluate(state, side):
    """The square table's sum for `side` less the opponent's."""
    own, other = _disc(side), _disc(3 - side)
    return sum(w if x == own else -w if x == other else 0 for w, x in zip(WEIGHTS, state[0]))
