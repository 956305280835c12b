"""Chinese Checkers' rules (arbiter's two-player diamond) for the Python example agents.

100 cells in 19 rows (row r holds min(r, 20 - r) cells, `r c` as in the notation
`r1 c1 r2 c2`). P1 starts on rows 16-19 and moves up the board (to lower rows), P2 starts
on rows 1-4. A move is a step to an empty neighbour or a chain of symmetric jumps (with
long jumps: over the first marble on a line, landing as far beyond it as it was, every
cell between empty). A side wins when its marbles fill the other's home with its three
special marbles on the other's special cells; after `home_plies` plies a side with a
marble still at home loses; after `max_plies` the game is a tie.

A state is (cells, to_move, plies, rules): cells a tuple of 100 entries 0-4 as in the
JSON rows (0 empty, 1/2 ordinary marbles, 3/4 special ones), indexed by axial
coordinates 10 * i + j. Moves are (from, to) cell indices.
"""

NO_MOVES = "draw"
DIRECTIONS = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1))


def row_col(cell):
    i, j = divmod(cell, 10)
    row = i + j + 1
    return row, (j + 1 if row <= 10 else 10 - i)


def cell_of(row, col):
    if row <= 10:
        return (row - col) * 10 + col - 1
    i = 10 - col
    return i * 10 + row - 1 - i


def _rays():
    rays = []
    for cell in range(100):
        i, j = divmod(cell, 10)
        cell_rays = []
        for di, dj in DIRECTIONS:
            ray, x, y = [], i + di, j + dj
            while 0 <= x < 10 and 0 <= y < 10:
                ray.append(x * 10 + y)
                x, y = x + di, y + dj
            if ray:
                cell_rays.append(ray)
        rays.append(cell_rays)
    return rays


RAYS = _rays()
ROW = [row_col(cell)[0] for cell in range(100)]
HOME = {1: frozenset(c for c in range(100) if ROW[c] >= 16),
        2: frozenset(c for c in range(100) if ROW[c] <= 4)}
SPECIAL_START = {1: frozenset(cell_of(r, c) for r, c in ((17, 2), (18, 1), (18, 2))),
                 2: frozenset(cell_of(r, c) for r, c in ((2, 1), (2, 2), (3, 2)))}


def from_json(position):
    cells = [0] * 100
    for r, row in enumerate(position["rows"]):
        for c, digit in enumerate(row):
            cells[cell_of(r + 1, c + 1)] = int(digit)
    rules = position.get("rules", {})
    return (tuple(cells), 1 if position["to_move"] == "P1" else 2, position.get("plies", 0),
            (rules.get("max_plies", 200), rules.get("home_plies", 100),
             rules.get("jumps", "long") == "long"))


def to_move(state):
    return state[1]


def notation(state, move):
    return "%d %d %d %d" % (row_col(move[0]) + row_col(move[1]))


def owner(value):
    return 0 if value == 0 else 2 - value % 2


def destinations(cells, start, long_jumps):
    """Every cell the marble on `start` can reach in one move."""
    found = [ray[0] for ray in RAYS[start] if cells[ray[0]] == 0]
    reached, frontier = {start}, [start]
    while frontier:
        at = frontier.pop()
        for ray in RAYS[at]:
            p = next((k for k, c in enumerate(ray) if cells[c] and c != start), None)
            if p is None or (p > 0 and not long_jumps) or 2 * p + 1 >= len(ray):
                continue
            landing = ray[2 * p + 1]
            if landing in reached:
                continue
            if all(cells[c] == 0 or c == start for c in ray[p + 1:2 * p + 2]):
                reached.add(landing)
                frontier.append(landing)
                found.append(landing)
    return set(found) - {start}


def moves(state):
    cells, side, _, rules = state
    return [(cell, to) for cell in range(100) if owner(cells[cell]) == side
            for to in destinations(cells, cell, rules[2])]


def order(state, move):
    """Sort key, smaller first: the longest advance first."""
    advance = ROW[move[0]] - ROW[move[1]]
    return -advance if state[1] == 1 else advance


def play(state, move):
    cells, side, plies, rules = state
    child = list(cells)
    child[move[1]], child[move[0]] = child[move[0]], 0
    return tuple(child), 3 - side, plies + 1, rules


def _arrived(cells, side):
    target, specials = HOME[3 - side], SPECIAL_START[3 - side]
    return all(owner(cells[c]) == side for c in target) and all(
        cells[c] == side + 2 for c in specials)


def winner(state):
    cells, _, plies, (max_plies, home_plies, _) = state
    for side in (1, 2):
        if _arrived(cells, side):
            return side
        if plies > home_plies and any(owner(cells[c]) == 3 - side for c in HOME[3 - side]):
            return side
    return 0 if plies >= max_plies else None


def evaluate(state, side):
    """Rows advanced by each side's marbles, special marbles on their target cells, for
    `side`."""
    cells = state[0]
    score = 0
    for cell, value in enumerate(cells):
        if value == 0:
            continue
        mine = owner(value)
        progress = 20 - ROW[cell] if mine == 1 else ROW[cell]
        if value > 2 and cell in SPECIAL_START[3 - mine]:
            progress += 5
        score += progress if mine == 1 else -progress
    return score if side == 1 else -score
