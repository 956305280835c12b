"""Breakthrough's rules for the Python example agents (every rule set of arbiter).

A state is (board, to_move, rules): board is a tuple of rows, row 0 being row 1 of the
notation, each a tuple of 0 (empty), 1 (P1's piece) or 2 (P2's piece); P1 moves towards
higher rows. `standard` and `long`: a piece on the far row or every enemy piece taken
wins; `three-to-base`: three pieces on the far row, or the enemy down to two. A side
that cannot move loses. Moves are ((row, col), (row, col)).

Every rules module of these examples has the same functions: from_json, to_move, moves,
notation, play, winner, evaluate and order (see rules.py).
"""

NO_MOVES = "loss"


def from_json(position):
    board = tuple(tuple(int(c) for c in row) for row in position["board"])
    return board, 1 if position["to_move"] == "P1" else 2, position.get("rules", "standard")


def to_move(state):
    return state[1]


def notation(state, move):
    (r, c), (r2, c2) = move
    return "%s%d-%s%d" % (chr(97 + c), r + 1, chr(97 + c2), r2 + 1)


def moves(state):
    board, side, _ = state
    rows, cols = len(board), len(board[0])
    step = 1 if side == 1 else -1
    enemy = 3 - side
    found = []
    for r in range(rows):
        r2 = r + step
        if not 0 <= r2 < rows:
            continue
        row, ahead = board[r], board[r2]
        for c in range(cols):
            if row[c] != side:
                continue
            for c2 in (c - 1, c, c + 1):
                if 0 <= c2 < cols and (ahead[c2] == 0 or (c2 != c and ahead[c2] == enemy)):
                    found.append(((r, c), (r2, c2)))
    return found


def order(state, move):
    """Sort key, smaller first: captures before quiet moves."""
    (r2, c2) = move[1]
    return 0 if state[0][r2][c2] else 1


def play(state, move):
    board, side, rules = state
    (r, c), (r2, c2) = move
    rows = [list(board[r]), list(board[r2])]
    rows[0][c] = 0
    rows[1][c2] = side
    child = list(board)
    child[r], child[r2] = tuple(rows[0]), tuple(rows[1])
    return tuple(child), 3 - side, rules


def winner(state):
    """The winner (1 or 2) once the side that just moved reached its goal, else None."""
    board, side, rules = state
    mover = 3 - side
    goal = board[-1] if mover == 1 else board[0]
    on_goal = goal.count(mover)
    left = sum(row.count(side) for row in board)
    if rules == "three-to-base":
        return mover if on_goal >= 3 or left < 3 else None
    return mover if on_goal or left == 0 else None


def evaluate(state, side):
    """Material and advancement for `side` against its opponent."""
    board = state[0]
    last = len(board) - 1
    score = 0
    for r, row in enumerate(board):
        ones, twos = row.count(1), row.count(2)
        score += ones * (10 + r) - twos * (10 + last - r)
    return score if side == 1 else -score
