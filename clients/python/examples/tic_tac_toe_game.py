"""Tic-tac-toe as a rules program for arbiter (docs/game-protocol.md), standard library only.

A position is the nine cells row by row (`X`, `O` or `.`), a space and the side to move
(`X` is P1 and moves first), e.g. `X...O.... X`. Moves are the cells 1 to 9, row by row
from the top left. Declare it in an agent file:

    [[game]]
    name = "tic-tac-toe"
    command = ["python3", "clients/python/examples/tic_tac_toe_game.py"]
"""

import json
import sys

LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]
PLAYER = {"X": "P1", "O": "P2"}


def winner(cells):
    for a, b, c in LINES:
        if cells[a] != "." and cells[a] == cells[b] == cells[c]:
            return cells[a]
    return None


def status(position):
    cells, side = position[:9], position[10]
    won = winner(cells)
    if won:
        return {"type": "status", "over": True, "winner": PLAYER[won], "reason": "three-in-a-row"}
    if "." not in cells:
        return {"type": "status", "over": True, "winner": None, "reason": "board-full"}
    return {"type": "status", "to_move": PLAYER[side]}


def legal(position):
    if status(position).get("over"):
        return []
    return [str(i + 1) for i, cell in enumerate(position[:9]) if cell == "."]


def apply(position, move):
    if move not in legal(position):
        raise ValueError("move '%s' is not legal in '%s'" % (move, position))
    cells, side = list(position[:9]), position[10]
    cells[int(move) - 1] = side
    child = "".join(cells) + " " + ("O" if side == "X" else "X")
    return {"type": "position", "position": child, "status": status(child)}


def features(position):
    """Per side: lines it could still complete holding two of its marks, and holding one."""
    cells = position[:9]
    counts = {}
    for mark in "XO":
        other = "O" if mark == "X" else "X"
        open_lines = [line for line in LINES if all(cells[i] != other for i in line)]
        held = [sum(cells[i] == mark for i in line) for line in open_lines]
        counts[PLAYER[mark]] = [held.count(2), held.count(1)]
    return {"type": "features", **counts}


def answer(request):
    kind = request.get("type")
    if kind == "hello":
        return {"type": "ready", "protocol": 1, "name": "tic-tac-toe", "players": 2,
                "features": ["twos", "ones"], "render": True}
    if kind == "initial":
        return {"type": "position", "position": "......... X"}
    if kind == "status":
        return status(request["position"])
    if kind == "legal":
        return {"type": "legal", "moves": legal(request["position"])}
    if kind == "apply":
        return apply(request["position"], request["move"])
    if kind == "features":
        return features(request["position"])
    if kind == "render":
        cells = [c if c != "." else "" for c in request["position"][:9]]
        return {"type": "render", "rows": [cells[0:3], cells[3:6], cells[6:9]],
                "colors": {"X": "#c0392b", "O": "#2c3e50"}, "legend": "X: P1, O: P2."}
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
