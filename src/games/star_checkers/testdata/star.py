"""An independent implementation of Chinese Checkers on the star, written apart from the
Rust one (cube coordinates, recursive jump search, dictionaries), to check it.

    python3 star.py perft PLAYERS DEPTH        leaf counts at depths 1..DEPTH
    python3 star.py playout PLAYERS SEED PLIES  a random game: per ply, the number of
                                                legal moves and the move played
"""
import random
import sys

# The star: cells (x, z) of cube coordinates (x, -x-z, z) in either big triangle.
CELLS = [(x, z) for z in range(-8, 9) for x in range(-8, 9)
         if (x >= -4 and z >= -4 and x + z <= 4) or (x <= 4 and z <= 4 and x + z >= -4)]
ON = set(CELLS)
STEPS = [(1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1)]


def point(x, z):
    """The point of the star a cell is in, 0 at the top then clockwise; None inside."""
    tests = [z < -4, x > 4, x + z > 4, z > 4, x < -4, x + z < -4]
    for i, t in enumerate(tests):
        if t:
            return i
    return None


HOMES = {2: [3, 0], 3: [3, 5, 1], 4: [3, 4, 0, 1], 6: [3, 4, 5, 0, 1, 2]}


def label(c):
    """(row, column) as printed: rows from the top, columns from the left of the row."""
    x, z = c
    row = [d for d in CELLS if d[1] == z]
    return (z + 9, row.index(c) + 1)


def start(players):
    board = {}
    for seat, home in enumerate(HOMES[players]):
        for c in CELLS:
            if point(*c) == home:
                board[c] = seat
    return board


def jumps(board, origin, at, seen):
    for dx, dz in STEPS:
        over = (at[0] + dx, at[1] + dz)
        land = (at[0] + 2 * dx, at[1] + 2 * dz)
        if over in board and over != origin and land in ON and land not in board and land not in seen:
            seen.add(land)
            jumps(board, origin, land, seen)


def moves(board, seat):
    found = []
    for c in sorted((c for c, s in board.items() if s == seat), key=CELLS.index):
        targets = set()
        for dx, dz in STEPS:
            n = (c[0] + dx, c[1] + dz)
            if n in ON and n not in board:
                targets.add(n)
        seen = {c}
        jumps(board, c, c, seen)
        targets |= seen - {c}
        for t in sorted(targets, key=CELLS.index):
            found.append((c, t))
    return found


def won(board, players, seat):
    goal = (HOMES[players][seat] + 3) % 6
    cells = [c for c in CELLS if point(*c) == goal]
    return all(c in board for c in cells) and any(board[c] == seat for c in cells)


def play(board, move):
    b = dict(board)
    if move is not None:
        b[move[1]] = b.pop(move[0])
    return b


def winner(board, players, mover):
    for k in range(players):
        seat = (mover + k) % players
        if won(board, players, seat):
            return seat
    return None


def perft(board, players, seat, depth, counts, ply=0):
    ms = moves(board, seat) or [None]
    counts[ply] += len(ms)
    if ply + 1 == depth:
        return
    for m in ms:
        b = play(board, m)
        if winner(b, players, seat) is None:
            perft(b, players, (seat + 1) % players, depth, counts, ply + 1)


def main():
    what, players = sys.argv[1], int(sys.argv[2])
    board = start(players)
    if what == "perft":
        depth = int(sys.argv[3])
        counts = [0] * depth
        perft(board, players, 0, depth, counts)
        print(" ".join(map(str, counts)))
    else:
        rng = random.Random(int(sys.argv[3]))
        seat = 0
        for _ in range(int(sys.argv[4])):
            ms = moves(board, seat) or [None]
            m = rng.choice(ms)
            text = "pass" if m is None else "%d %d %d %d" % (label(m[0]) + label(m[1]))
            print("%d\t%s" % (len(ms), text))
            board = play(board, m)
            w = winner(board, players, seat)
            if w is not None:
                print("won\tP%d" % (w + 1))
                return
            seat = (seat + 1) % players


main()
