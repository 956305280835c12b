"""Lee's agent: win, block, safe moves (its agent.toml names the file wrongly)."""

import json
import random
import sys


def send(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def grid(position):
    """The board as rows of characters, row 0 at the bottom: '1', '2' or '0'."""
    return [list(row) for row in position["board"]]


def drop(board, column, disc):
    """A copy of the board with `disc` dropped in `column` (from 1)."""
    after = [row[:] for row in board]
    for row in after:
        if row[column - 1] == "0":
            row[column - 1] = disc
            return after
    return after


def wins(board, disc):
    """Whether `disc` has four in a row."""
    rows, columns = len(board), len(board[0])
    for r in range(rows):
        for c in range(columns):
            for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                cells = [(r + k * dr, c + k * dc) for k in range(4)]
                if all(0 <= y < rows and 0 <= x < columns and board[y][x] == disc for y, x in cells):
                    return True
    return False

def choose(board, me, legal, rng):
    """Win now, else block, else a central column that does not hand the opponent a win
    on top of it."""
    them = "2" if me == "1" else "1"
    for disc in (me, them):
        for column in legal:
            if wins(drop(board, column, disc), disc):
                return column
    middle = (len(board[0]) + 1) / 2
    safe = []
    for column in legal:
        after = drop(board, column, me)
        replies = [c for c in range(1, len(board[0]) + 1) if after[-1][c - 1] == "0"]
        if not any(wins(drop(after, c, them), them) for c in replies):
            safe.append(column)
    return min(safe or legal, key=lambda c: (abs(c - middle), c))


rng = random.Random(0)
game_id = 0
for line in sys.stdin:
    try:
        message = json.loads(line)
    except ValueError:
        continue
    kind = message.get("type")
    if kind == "hello":
        rng = random.Random(message.get("seed", 0))
        send({"type": "ready", "name": 'lee', "protocol": 2})
    elif kind == "new_game":
        rng = random.Random(message.get("seed", 0))
        game_id = message.get("game_id", 0)
    elif kind == "ping":
        send({"type": "pong", "id": message.get("id")})
    elif kind == "move":
        me = "1" if message["seat"] == "P1" else "2"
        legal = [int(m) for m in message["legal"]]
        column = choose(grid(message["position"]), me, legal, rng)
        send({"type": "move", "move": str(column)})
    elif kind == "quit":
        break
