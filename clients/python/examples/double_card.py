"""Double Card's rules for the Python example agents.

An 8x12 board (columns A-H, rows 1-12 from the bottom) and two-cell cards under gravity.
Each half is red or white and has a solid or an open dot; one player wins with four equal
colours in a line, the other with four equal dots (a move making both lines wins for the
player who made it). After the first 24 cards, every move lifts a card (not the one just
moved, nothing on top of it) and puts it down elsewhere or turned. 60 moves: a draw.

A state is a dict: `cells` (96 entries, cell = (row - 1) * 8 + column, None or a
(red, solid) pair), `cards` (a list of (anchor, type) by card index), `placed`, `moves`,
`last`, `to_move` (1 or 2), `roles` ({1: "colors"|"dots", 2: ...}), `limit` (cards before
recycling), `move_limit`, `near` (placements must touch a card) and `won` (the winner
made by the last move, or None). Moves are (lift, type, anchor); lift is None for a new
card, else the index of the card picked up.
"""

NO_MOVES = "draw"
COLS, ROWS = 8, 12
# Each type's (first half, second half) as (red, solid); odd types lie flat, even types
# stand (second half above the first).
HALVES = [
    ((True, True), (False, False)),
    ((False, False), (True, True)),
    ((False, False), (True, True)),
    ((True, True), (False, False)),
    ((True, False), (False, True)),
    ((False, True), (True, False)),
    ((False, True), (True, False)),
    ((True, False), (False, True)),
]


def _lines():
    """Every line of four cells, and for each cell the lines through it."""
    lines = []
    for r in range(ROWS):
        for c in range(COLS):
            for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                r3, c3 = r + 3 * dr, c + 3 * dc
                if r3 < ROWS and 0 <= c3 < COLS:
                    lines.append(tuple((r + k * dr) * COLS + c + k * dc for k in range(4)))
    through = [[] for _ in range(ROWS * COLS)]
    for line in lines:
        for cell in line:
            through[cell].append(line)
    return lines, through


LINES, THROUGH = _lines()


def cell_name(cell):
    return "%s %d" % (chr(65 + cell % COLS), cell // COLS + 1)


def parse_cell(name):
    return (int(name[1:]) - 1) * COLS + ord(name[0]) - 65


def card_cells(card_type, anchor):
    """The two cells of a card, or None when it leaves the board."""
    row, col = divmod(anchor, COLS)
    if card_type % 2:
        return (anchor, anchor + 1) if col + 1 < COLS else None
    return (anchor, anchor + COLS) if row + 1 < ROWS else None


def from_json(position):
    cells = [None] * (ROWS * COLS)
    for r, row in enumerate(position["board"]):
        for c, code in enumerate(row):
            if code:
                cells[r * COLS + c] = (code[0] == "R", code[1] == "X")
    cards = [(parse_cell(card["cells"][0]), card["type"]) for card in position["cards"]]
    rules = position.get("rules", {})
    return {
        "cells": cells,
        "cards": cards,
        "placed": position["cards_placed"],
        "moves": position["moves"],
        "last": position["last_card"],
        "to_move": 1 if position["to_move"] == "P1" else 2,
        "roles": {1: position["roles"]["P1"], 2: position["roles"]["P2"]},
        "limit": rules.get("cards", 24),
        "move_limit": rules.get("moves", 60),
        "near": rules.get("neighbours_only", False),
        "won": None,
    }


def to_move(state):
    return state["to_move"]


def notation(state, move):
    lift, card_type, anchor = move
    row, col = divmod(anchor, COLS)
    place = "%d %s %d" % (card_type, chr(65 + col), row + 1)
    if lift is None:
        return "0 " + place
    a, b = card_cells(*reversed(state["cards"][lift]))
    return "%s %s %s" % (cell_name(a), cell_name(b), place)


def _fits(cells, card_type, anchor):
    pair = card_cells(card_type, anchor)
    if pair is None or cells[pair[0]] is not None or cells[pair[1]] is not None:
        return False
    for cell in pair if card_type % 2 else pair[:1]:
        if cell >= COLS and cells[cell - COLS] is None:
            return False
    return True


def _touches(cells, pair):
    for cell in pair:
        r, c = divmod(cell, COLS)
        for dr in (-1, 0, 1):
            for dc in (-1, 0, 1):
                r2, c2 = r + dr, c + dc
                if 0 <= r2 < ROWS and 0 <= c2 < COLS and cells[r2 * COLS + c2] is not None:
                    return True
    return False


def _placements(cells, near, lift, found, skip=None):
    empty_board = all(cell is None for cell in cells)
    for anchor in range(ROWS * COLS):
        for card_type in range(1, 9):
            if (anchor, card_type) == skip or not _fits(cells, card_type, anchor):
                continue
            if near and not empty_board and not _touches(cells, card_cells(card_type, anchor)):
                continue
            found.append((lift, card_type, anchor))


def moves(state):
    cells, found = state["cells"], []
    if state["placed"] < state["limit"]:
        _placements(cells, state["near"], None, found)
        return found
    for index, (anchor, card_type) in enumerate(state["cards"]):
        if index == state["last"]:
            continue
        pair = card_cells(card_type, anchor)
        if any(cell + COLS < ROWS * COLS and cell + COLS not in pair and cells[cell + COLS]
               is not None for cell in pair):
            continue
        without = list(cells)
        for cell in pair:
            without[cell] = None
        _placements(without, state["near"], index, found, skip=(anchor, card_type))
    return found


def order(state, move):
    """Sort key, smaller first: cards low on the board first."""
    return move[2] // COLS


def play(state, move):
    lift, card_type, anchor = move
    cells, cards = list(state["cells"]), list(state["cards"])
    if lift is None:
        index, placed = state["placed"], state["placed"] + 1
        cards.append(None)
    else:
        index, placed = lift, state["placed"]
        for cell in card_cells(cards[lift][1], cards[lift][0]):
            cells[cell] = None
    pair = card_cells(card_type, anchor)
    for cell, half in zip(pair, HALVES[card_type - 1]):
        cells[cell] = half
    cards[index] = (anchor, card_type)
    child = dict(state, cells=cells, cards=cards, placed=placed, moves=state["moves"] + 1,
                 last=index, to_move=3 - state["to_move"])
    child["won"] = _line_winner(child, pair)
    return child


def _line_winner(state, new_cells):
    """The winner made by lines through the cells just placed, or None."""
    cells, colour, dot = state["cells"], False, False
    for cell in new_cells:
        for line in THROUGH[cell]:
            halves = [cells[c] for c in line]
            if None in halves:
                continue
            colour = colour or len({h[0] for h in halves}) == 1
            dot = dot or len({h[1] for h in halves}) == 1
    if colour and dot:
        return 3 - state["to_move"]
    for role, made in (("colors", colour), ("dots", dot)):
        if made:
            return 1 if state["roles"][1] == role else 2
    return None


def winner(state):
    if state["won"] is not None:
        return state["won"]
    return 0 if state["moves"] >= state["move_limit"] else None


def evaluate(state, side):
    """Open lines of four: for each player, the lines whose cards so far all share one
    value of that player's feature, weighted by how many cards they hold."""
    cells = state["cells"]
    weight = (0, 1, 4, 16, 64)
    score = {"colors": 0, "dots": 0}
    for line in LINES:
        halves = [cells[c] for c in line if cells[c] is not None]
        if not halves:
            continue
        if len({h[0] for h in halves}) == 1:
            score["colors"] += weight[len(halves)]
        if len({h[1] for h in halves}) == 1:
            score["dots"] += weight[len(halves)]
    mine = state["roles"][side]
    return score[mine] - score["dots" if mine == "colors" else "colors"]
