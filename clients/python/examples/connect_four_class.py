"""Connect Four as a Python game class, played inside arbiter's process by the `arbiter`
package (docs/python.md, "Games written in Python"):

    import arbiter
    from connect_four_class import ConnectFour
    arbiter.perft("c4", 6, python_games={"c4": ConnectFour})
    arbiter.match("alphabeta(heuristic=program,depth=4)", "random",
                  game="c4(rows=5,columns=6)", python_games={"c4": ConnectFour})

The same game as the built-in `connect-four` (and the rules library of
clients/rust/connect-four-rules): a position is the columns played so far (`"4435"`), the
moves are the open columns from the left (`"1"` to `"7"`), and `evaluate` is the built-in
`windows` heuristic at its defaults, so a search on it expands the same nodes as on the
built-in game. Boards are bitboards in Python ints (bit `column * (rows + 1) + row`, a
spare bit on top of each column), kept by position: a search asks about a child right
after making it.
"""


class ConnectFour:
    players = 2
    # The numbers `linear` weighs (own_threes=5,own_twos=2,own_centre=3,opp_threes=-4 is
    # `windows`).
    feature_names = ["threes", "twos", "centre"]

    def __init__(self, rows=6, columns=7):
        if not (4 <= rows <= 8 and 4 <= columns <= 9):
            raise ValueError(f"rows must be from 4 to 8 and columns from 4 to 9, got {rows}x{columns}")
        self.rows, self.columns = rows, columns
        self.name = f"connect four {rows}x{columns}"
        height = rows + 1
        self.height = height
        column_cells = (1 << rows) - 1
        self.column_mask = [column_cells << (c * height) for c in range(columns)]
        self.bottom = sum(1 << (c * height) for c in range(columns))
        self.board = sum(self.column_mask)
        middle = (columns - 1) // 2
        self.centre = self.column_mask[middle]
        if columns % 2 == 0:
            self.centre |= self.column_mask[middle + 1]
        self.texts = [str(c + 1) for c in range(columns)]
        self.shifts = (1, height, height - 1, height + 1)
        # Per direction: where a line of four starting at a bit lies wholly on the board.
        self.starts = [
            self.board & (self.board >> s) & (self.board >> 2 * s) & (self.board >> 3 * s)
            for s in self.shifts
        ]
        # position -> (first player's discs, all discs, result: 0 on, 1/2 a win, 3 a draw)
        self.boards = {"": (0, 0, 0)}

    def initial(self):
        return ""

    def _board(self, position):
        board = self.boards.get(position)
        if board is None:
            if len(self.boards) > 1_000_000:
                self.boards = {"": (0, 0, 0)}
            board = self.boards[""]
            for ply, digit in enumerate(position):
                if board[2]:
                    raise ValueError(f"position '{position}' goes on after the game ended")
                board = self._drop(board, ply, int(digit) - 1)
            self.boards[position] = board
        return board

    def _drop(self, board, ply, column):
        p1, every, _ = board
        if not 0 <= column < self.columns:
            raise ValueError(f"'{column + 1}' is not a column")
        disc = (every + self.bottom) & self.column_mask[column]
        if not disc:
            raise ValueError(f"column {column + 1} is full")
        every |= disc
        if ply % 2 == 0:
            p1 |= disc
            own = p1
        else:
            own = every ^ p1
        result = 0
        for s in self.shifts:
            pairs = own & (own >> s)
            if pairs & (pairs >> 2 * s):
                result = 1 + ply % 2
                break
        else:
            if every == self.board:
                result = 3
        return (p1, every, result)

    def moves(self, position):
        _, every, result = self._board(position)
        if result:
            return []
        playable = every + self.bottom
        return [t for t, mask in zip(self.texts, self.column_mask) if playable & mask]

    def play(self, position, move):
        child = position + move
        if child not in self.boards:
            self.boards[child] = self._drop(self._board(position), len(position), int(move) - 1)
        return child

    def status(self, position):
        result = self._board(position)[2]
        if result == 0:
            return len(position) % 2
        if result == 3:
            return (None, "board-full")
        return (result - 1, "four-in-a-row")

    def _windows(self, own, other):
        """Lines of four holding two and three of `own`'s discs and none of `other`'s."""
        twos = threes = 0
        for s, starts in zip(self.shifts, self.starts):
            clean = starts & ~(other | other >> s | other >> 2 * s | other >> 3 * s)
            a, b, c, d = own, own >> s, own >> 2 * s, own >> 3 * s
            low1, carry1 = a ^ b, a & b
            low2, carry2 = c ^ d, c & d
            low, carry = low1 ^ low2, low1 & low2
            mid = carry1 ^ carry2 ^ carry
            none_high = clean & ~((carry1 & carry2) | (carry & (carry1 ^ carry2))) & mid
            twos += (none_high & ~low).bit_count()
            threes += (none_high & low).bit_count()
        return twos, threes

    def evaluate(self, position, seat):
        p1, every, _ = self._board(position)
        own, other = (p1, every ^ p1) if seat == 0 else (every ^ p1, p1)
        twos, threes = self._windows(own, other)
        _, their_threes = self._windows(other, own)
        return 3.0 * (own & self.centre).bit_count() + 2.0 * twos + 5.0 * threes - 4.0 * their_threes

    def features(self, position):
        p1, every, _ = self._board(position)
        p2 = every ^ p1
        numbers = []
        for own, other in ((p1, p2), (p2, p1)):
            twos, threes = self._windows(own, other)
            numbers.append([threes, twos, (own & self.centre).bit_count()])
        return numbers

    def render(self, position):
        p1, every, _ = self._board(position)
        rows = []
        for row in reversed(range(self.rows)):
            cells = []
            for column in range(self.columns):
                bit = 1 << (column * self.height + row)
                cells.append("" if not every & bit else ("R" if p1 & bit else "Y"))
            rows.append(cells)
        return {
            "rows": rows,
            "colors": {"R": "#c0392b", "Y": "#f1c40f"},
            "column_labels": self.texts,
            "legend": "R: P1 (red), Y: P2 (yellow).",
        }
