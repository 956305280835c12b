"""Connect Four's rules (arbiter's `connect-four(rows=6,columns=7)`) for the Python
example agents.

Discs drop to the lowest empty cell of a column; four of one side in a row, column or
diagonal wins; a full board is a draw. A state is (cells, rows, columns, to_move): cells a
tuple of rows * columns characters, row 0 the bottom ('1' P1's disc, '2' P2's, '0' empty),
cell row * columns + column. Moves are 0-based columns, written 1-based (`4`).
"""

NO_MOVES = "draw"
LINES = ((0, 1), (1, 0), (1, 1), (1, -1))


def from_json(position):
    cells = tuple("".join(position["board"]))
    side = 1 if position["to_move"] == "P1" else 2
    return cells, position["rows"], position["columns"], side


def to_move(state):
    return state[3]


def notation(state, move):
    return str(move + 1)


def moves(state):
    cells, rows, columns, _ = state
    return [c for c in range(columns) if cells[(rows - 1) * columns + c] == "0"]


def order(state, move):
    """Centre columns first."""
    return abs(2 * move - (state[2] - 1))


def play(state, move):
    cells, rows, columns, side = state
    row = next(r for r in range(rows) if cells[r * columns + move] == "0")
    child = list(cells)
    child[row * columns + move] = str(side)
    return tuple(child), rows, columns, 3 - side


def _windows(state):
    """Every line of four cells, as tuples of cell characters."""
    cells, rows, columns, _ = state
    for r in range(rows):
        for c in range(columns):
            for dr, dc in LINES:
                end_r, end_c = r + 3 * dr, c + 3 * dc
                if 0 <= end_r < rows and 0 <= end_c < columns:
                    yield tuple(cells[(r + i * dr) * columns + c + i * dc] for i in range(4))


def winner(state):
    """1 or 2 for four in a row, 0 when the board is full, None while the game goes on."""
    for window in _windows(state):
        if window[0] != "0" and window.count(window[0]) == 4:
            return int(window[0])
    return 0 if "0" not in state[0] else None


def evaluate(state, side):
    """The window count: each line of four holding only one side's discs, worth 1, 4 or
    16 for one, two or three of them, plus 3 per disc in the centre column."""
    own, other = str(side), str(3 - side)
    score = 0
    for window in _windows(state):
        mine, theirs = window.count(own), window.count(other)
        if mine and not theirs:
            score += 4 ** (mine - 1)
        elif theirs and not mine:
            score -= 4 ** (theirs - 1)
    cells, rows, columns, _ = state
    centre = columns // 2
    column = [cells[r * columns + centre] for r in range(rows)]
    return score + 3 * (column.count(own) - column.count(other))
