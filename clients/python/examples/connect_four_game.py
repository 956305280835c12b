"""Connect Four as a rules program for arbiter (docs/game-protocol.md), standard library only.

Parameters: rows (4-8, default 6) and columns (4-9, default 7). A position is the moves so
far as column digits (`4453`; empty at the start), which is also how Connect Four solvers
write games. Moves are the column numbers, 1 (leftmost) to `columns`. P1 moves first.
Offers the features `threes` and `twos` (four-cell windows holding three or two of a
side's discs and nothing of the other's) and `centre` (discs in the centre column), its own
`evaluate` (the classic window count) and `render`.

    [[game]]
    name = "connect-four-py"
    command = ["python3", "clients/python/examples/connect_four_game.py"]
"""

import json
import sys

ROWS, COLUMNS = 6, 7


def board(position):
    """The grid (row 0 at the bottom) of 0 (empty), 1 (P1) and 2 (P2), and the side to move."""
    grid = [[0] * COLUMNS for _ in range(ROWS)]
    heights = [0] * COLUMNS
    for ply, digit in enumerate(position):
        column = int(digit) - 1
        grid[heights[column]][column] = 1 + ply % 2
        heights[column] += 1
    return grid, heights, 1 + len(position) % 2


def lines(rows, columns):
    """Every line of four cells on the board, as lists of (row, column): found once per
    board size, not at every request (that made each request several times slower)."""
    found = []
    for row in range(rows):
        for column in range(columns):
            for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                cells = [(row + k * dr, column + k * dc) for k in range(4)]
                if all(0 <= r < rows and 0 <= c < columns for r, c in cells):
                    found.append(cells)
    return found


LINES = lines(ROWS, COLUMNS)


def windows(grid):
    """Every line of four cells, as lists of their contents."""
    for cells in LINES:
        yield [grid[r][c] for r, c in cells]


def status(position):
    grid, heights, side = board(position)
    for window in windows(grid):
        if window[0] and window.count(window[0]) == 4:
            return {"type": "status", "over": True, "winner": "P%d" % window[0], "reason": "four-in-a-row"}
    if all(h == ROWS for h in heights):
        return {"type": "status", "over": True, "winner": None, "reason": "board-full"}
    return {"type": "status", "to_move": "P%d" % side}


def legal(position):
    if status(position).get("over"):
        return []
    _, heights, _ = board(position)
    return [str(c + 1) for c in range(COLUMNS) if heights[c] < ROWS]


def counts(grid, side):
    other = 3 - side
    held = [w.count(side) for w in windows(grid) if other not in w]
    centre = sum(grid[r][COLUMNS // 2] == side for r in range(ROWS))
    return [held.count(3), held.count(2), centre]


def answer(request):
    global ROWS, COLUMNS, LINES
    kind = request.get("type")
    if kind == "hello":
        params = request.get("params", {})
        ROWS, COLUMNS = int(params.get("rows", 6)), int(params.get("columns", 7))
        if not (4 <= ROWS <= 8 and 4 <= COLUMNS <= 9) or set(params) - {"rows", "columns"}:
            raise ValueError("parameters are rows (4-8) and columns (4-9), got %s" % params)
        LINES = lines(ROWS, COLUMNS)
        return {"type": "ready", "protocol": 1, "name": "connect four %dx%d" % (ROWS, COLUMNS),
                "players": 2, "features": ["threes", "twos", "centre"], "evaluate": True, "render": True}
    if kind == "initial":
        return {"type": "position", "position": ""}
    position = request["position"]
    if kind == "status":
        return status(position)
    if kind == "legal":
        return {"type": "legal", "moves": legal(position)}
    if kind == "apply":
        if request["move"] not in legal(position):
            raise ValueError("move '%s' is not legal after '%s'" % (request["move"], position))
        child = position + request["move"]
        return {"type": "position", "position": child, "status": status(child)}
    grid, _, _ = board(position)
    if kind == "features":
        return {"type": "features", "P1": counts(grid, 1), "P2": counts(grid, 2)}
    if kind == "evaluate":
        side = int(request["player"][1])
        mine, theirs = counts(grid, side), counts(grid, 3 - side)
        score = 5 * mine[0] + 2 * mine[1] + 3 * mine[2] - 4 * theirs[0] - 2 * theirs[1] - 3 * theirs[2]
        return {"type": "value", "value": score}
    if kind == "render":
        symbols = ["", "R", "Y"]
        rows = [[symbols[cell] for cell in grid[r]] for r in reversed(range(ROWS))]
        return {"type": "render", "rows": rows, "colors": {"R": "#c0392b", "Y": "#f1c40f"},
                "column_labels": [str(c + 1) for c in range(COLUMNS)], "legend": "R: P1 (red), Y: P2 (yellow)."}
    raise ValueError("unknown request type %r" % kind)


def main():
    for line in sys.stdin:
        try:
            request = json.loads(line)
            if request.get("type") == "quit":
                break
            reply = answer(request)
        except Exception as error:  # every failure is an answer, never a dead program
            reply = {"type": "error", "message": str(error)}
        sys.stdout.write(json.dumps(reply) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
