"""The Dragon Queen's rules (arbiter's `wights`) for the Python example agents.

5x5 board, rows 1-5 and columns 1-5 as in the notation `r1 c1 r2 c2`. P1 has the Queen
and three Dragons (king steps onto an empty square or a Wight); P2 has five Wights
(orthogonal steps onto empty squares, diagonal captures of a Dragon or the Queen) and
moves first. The Queen wins on row 5, the Wights by taking her; after 50 plies, or when
the side to move has no move, the game is drawn.

A state is (board, to_move, plies): board is a tuple of 25 characters ('Q', 'D', 'W',
'.'), square (r - 1) * 5 + (c - 1). Moves are (from, to) squares.
"""

NO_MOVES = "draw"
PLY_LIMIT = 50
KING = [(dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if dr or dc]


def from_json(position):
    board = tuple("".join(position["board"]))
    return board, 1 if position["to_move"] == "P1" else 2, position.get("plies", 0)


def to_move(state):
    return state[1]


def notation(state, move):
    a, b = move
    return "%d %d %d %d" % (a // 5 + 1, a % 5 + 1, b // 5 + 1, b % 5 + 1)


def moves(state):
    board, side, _ = state
    found = []
    for square, piece in enumerate(board):
        if (side == 1 and piece not in "QD") or (side == 2 and piece != "W"):
            continue
        r, c = divmod(square, 5)
        for dr, dc in KING:
            r2, c2 = r + dr, c + dc
            if not (0 <= r2 < 5 and 0 <= c2 < 5):
                continue
            target = board[r2 * 5 + c2]
            if side == 1:
                ok = target in ".W"
            elif dr and dc:
                ok = target in "QD"
            else:
                ok = target == "."
            if ok:
                found.append((square, r2 * 5 + c2))
    return found


def order(state, move):
    """Sort key, smaller first: taking the Queen, a Dragon, a Wight; then the rest."""
    return {"Q": 0, "D": 1, "W": 2}.get(state[0][move[1]], 3)


def play(state, move):
    board, side, plies = state
    a, b = move
    child = list(board)
    child[b], child[a] = child[a], "."
    return tuple(child), 3 - side, plies + 1


def winner(state):
    """1 when the Queen stands on row 5, 2 once she is taken, 0 for a draw at the ply
    limit, None while the game goes on."""
    board, _, plies = state
    if "Q" not in board:
        return 2
    if board.index("Q") >= 20:
        return 1
    return 0 if plies >= PLY_LIMIT else None


def evaluate(state, side):
    """The Queen's progress and the material, for `side`."""
    board = state[0]
    queen_row = board.index("Q") // 5 if "Q" in board else 0
    score = 40 * queen_row + 30 * board.count("D") - 25 * board.count("W")
    return score if side == 1 else -score
