#!/usr/bin/env python3
"""Regenerate tests/oracles/connect-four-8ply.txt: John Tromp's 8-ply Connect Four positions
(the UCI "Connect-4" data set) with their values.

The positions are enumerated here: every position 8 plies into a 6x7 game where nobody has
four in a row, the first player (to move) has no immediate win and the second player has no
immediate threat, one of each mirror pair. The values come from the 8-ply opening book of
BitBully (PyPI package bitbully-databases, MIT licence, by Markus Thill), which lists the
positions the first player does not win (loss or draw), a position or its mirror image; a
position it does not list is a first-player win. The script checks the published counts of
the UCI set (67,557 positions: 44,473 won, 16,635 lost, 6,449 drawn by the first player).

    python3 -m venv /tmp/bb && /tmp/bb/bin/pip install bitbully-databases==0.0.2
    /tmp/bb/bin/python tests/oracles/make-connect-four-8ply.py > tests/oracles/connect-four-8ply.txt
"""
import sys
from collections import Counter

COLUMNS, ROWS = 7, 6


def fours():
    out = []
    for c in range(COLUMNS):
        for r in range(ROWS):
            for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
                cells = [(c + k * dc, r + k * dr) for k in range(4)]
                if all(0 <= x < COLUMNS and 0 <= y < ROWS for x, y in cells):
                    out.append(cells)
    return out


FOURS = fours()


def owner(columns, cell):
    c, r = cell
    return columns[c][r] if r < len(columns[c]) else None


def has_four(columns, player, extra=None):
    def at(cell):
        return player if cell == extra else owner(columns, cell)

    return any(all(at(cell) == player for cell in four) for four in FOURS)


def playable(columns):
    return [(c, len(columns[c])) for c in range(COLUMNS) if len(columns[c]) < ROWS]


def positions():
    """Every position after 8 plies with no four in a row, with the first moves reaching it."""
    frontier = {("",) * COLUMNS: ""}
    for ply in range(8):
        player = "XO"[ply % 2]
        following = {}
        for columns, moves in frontier.items():
            for c in range(COLUMNS):
                if len(columns[c]) == ROWS:
                    continue
                child = columns[:c] + (columns[c] + player,) + columns[c + 1:]
                if child not in following and not has_four(child, player):
                    following[child] = moves + str(c + 1)
        frontier = following
    return frontier


def book():
    import bitbully_databases

    path = bitbully_databases.BitBullyDatabases.get_database_path("8-ply")
    data = open(path, "rb").read()
    values = {}
    for i in range(0, len(data), 3):
        word = int.from_bytes(data[i:i + 3], "big")
        bits, j, columns = format(word & ~3, "024b"), 0, []
        for _ in range(COLUMNS):
            column = ""
            while bits[j] == "1":
                column += "X" if bits[j + 1] == "0" else "O"
                j += 2
            j += 1
            columns.append(column)
        values[tuple(columns)] = {0: "draw", 1: "loss"}[word & 3]
    return values


def main():
    listed = book()
    lines, counts = [], Counter()
    for columns, moves in positions().items():
        mirror = tuple(reversed(columns))
        if mirror < columns:
            continue
        cells = playable(columns)
        if any(has_four(columns, "X", cell) for cell in cells):
            continue
        if any(has_four(columns, "O", cell) for cell in cells):
            continue
        value = listed.get(columns) or listed.get(mirror) or "win"
        counts[value] += 1
        lines.append(f"{moves} {value}")
    expected = Counter(win=44473, loss=16635, draw=6449)
    if counts != expected:
        sys.exit(f"counts {dict(counts)} differ from the UCI set's {dict(expected)}")
    print("# John Tromp's 8-ply Connect Four positions (the UCI Connect-4 data set): every position")
    print("# 8 plies into a 6x7 game with no four in a row, no immediate win for the first player")
    print("# (to move) and no immediate threat of the second, one of each mirror pair: 67,557.")
    print("# Each line: the columns played (1-7, from the start) and the value for the first player")
    print("# under perfect play. Values from BitBully's 8-ply opening book (PyPI bitbully-databases")
    print("# 0.0.2, MIT licence, (c) 2025 Markus Thill); counts as published for the UCI set:")
    print("# 44,473 win, 16,635 loss, 6,449 draw. Made by tests/oracles/make-connect-four-8ply.py.")
    for line in sorted(lines):
        print(line)


main()
