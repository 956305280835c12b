"""Breakthrough's rules in a few lines, for the Python example agents.

A position is (board, to_move): board is a list of rows, row 0 being row 1 of the notation,
each a list of 0 (empty), 1 (P1's piece) or 2 (P2's piece); P1 moves towards higher rows.
A side wins by reaching the far row or taking every enemy piece (the `standard` and `long`
rule sets; `three-to-base` needs three pieces there, which these examples do not model
inside their search: the moves they play always come from arbiter's legal list).
"""


def from_json(position):
    board = [[int(c) for c in row] for row in position["board"]]
    return board, 1 if position["to_move"] == "P1" else 2


def square(row, col):
    return "%s%d" % (chr(ord("a") + col), row + 1)


def parse(move):
    a, b = move.split("-")
    return (int(a[1:]) - 1, ord(a[0]) - ord("a")), (int(b[1:]) - 1, ord(b[0]) - ord("a"))


def moves(board, side):
    """Every move of `side` as ((row, col), (row, col), captures)."""
    rows, cols = len(board), len(board[0])
    step = 1 if side == 1 else -1
    found = []
    for r in range(rows):
        for c in range(cols):
            if board[r][c] != side:
                continue
            r2 = r + step
            if not 0 <= r2 < rows:
                continue
            for dc in (-1, 0, 1):
                c2 = c + dc
                if not 0 <= c2 < cols:
                    continue
                target = board[r2][c2]
                if target == 0 or (dc != 0 and target == 3 - side):
                    found.append(((r, c), (r2, c2), target == 3 - side))
    return found


def play(board, move):
    (r, c), (r2, c2) = move[0], move[1]
    child = [row[:] for row in board]
    child[r2][c2] = child[r][c]
    child[r][c] = 0
    return child


def winner(board):
    """1 or 2 when the game is over, else 0."""
    if 1 in board[-1]:
        return 1
    if 2 in board[0]:
        return 2
    counts = [sum(row.count(side) for row in board) for side in (1, 2)]
    if counts[1] == 0:
        return 1
    if counts[0] == 0:
        return 2
    return 0


def evaluate(board, side):
    """Material and advancement for `side` against its opponent."""
    rows = len(board)
    score = 0
    for r, row in enumerate(board):
        for cell in row:
            if cell == 1:
                score += 10 + r
            elif cell == 2:
                score -= 10 + (rows - 1 - r)
    return score if side == 1 else -score
