"""Every two-player OpenSpiel game as an arbiter rules program (docs/game-protocol.md),
chance's outcomes included (dice: pig, backgammon, einstein_wurfelt_nicht) with their
probabilities, hidden information (kuhn_poker, leduc_poker, liars_dice, phantom_ttt): each
player observes OpenSpiel's information state string, and `sample` draws a position a
player cannot tell from the real one; simultaneous moves (goofspiel, oshi_zumo) in
OpenSpiel's turn-based form, each move hidden until all are in, a status inside a round
naming where the round began (`round_start`); returns for a game scored by more than who
won.

Needs OpenSpiel's Python package (`pip install open_spiel`, best in a virtual environment:
README, "OpenSpiel's games"). Declared in agents/openspiel.toml as `openspiel`, so that
`game = "openspiel(name=connect_four)"`, `openspiel(name=hex,board_size=7)`,
`openspiel(name=othello)` or `openspiel(name=chess)` name a game anywhere arbiter takes one.

Parameters: `name` (OpenSpiel's game name), any parameter of that game (typed as the game
declares it), and `notation`: `openspiel` (the default: moves are OpenSpiel's action
strings) or, for breakthrough, connect_four and othello, `arbiter` (moves as arbiter's
built-in games write them: Breakthrough's `c2-d3`, OpenSpiel's first player starting at
the top and arbiter's P1 at the bottom, so rows are mirrored here and nowhere else;
Connect Four's column numbers from 1; othello's squares and `pass` are arbiter's already).

A position is the actions played from the start, as OpenSpiel numbers them, separated by
spaces (the start is the empty string). OpenSpiel's player 0 is arbiter's P1.
"""

import itertools
import json
import random
import sys

try:
    import pyspiel
except ImportError:  # answered in hello, so that arbiter says what to install
    pyspiel = None

INSTALL = "OpenSpiel's Python package is missing: pip install open_spiel (README, \"OpenSpiel's games\")"
# Positions remembered (the OpenSpiel state and its legal moves); when full, the older half
# is forgotten. A state of a long game takes tens of KB (go 49 KB, capture_the_flag 47 KB,
# chess 21 KB after random plies; OpenSpiel 2.0.2), so this bounds a bridge near 0.5 GB.
KEPT = 10_000
SAMPLE_TRIES = 20_000  # positions a search for a consistent history may visit
# Games whose hidden moves a depth-first search cannot match to what a player saw within
# SAMPLE_TRIES positions after a dozen plies (measured on OpenSpiel 2.0.2): served without
# `sample`, so ismcts refuses them rather than failing in mid-game.
NO_SAMPLER = ("battleship", "coin_game", "crazy_eights", "cribbage", "dark_chess", "dou_dizhu", "euchre",
              "go_fish", "hanabi", "hearts", "kriegspiel", "phantom_go", "rbc", "skat", "spades")
# The games whose moves can also be written as arbiter's built-in version writes them.
ARBITER_NOTATION = ("breakthrough", "connect_four", "othello")
# Games some of whose move texts OpenSpiel 2.0.2 prints from uninitialised memory (in
# morpion_solitaire, a line's first points read "[241200832,22053]" in one process and
# "[4,7]" in another), so a recorded game could not be replayed: their moves are written
# as OpenSpiel's action numbers, "a123".
ACTION_NOTATION = ("morpion_solitaire",)


class Bridge:
    """One OpenSpiel game with arbiter's view of it: positions as action lists, moves as text."""

    def __init__(self, params):
        if pyspiel is None:
            raise ValueError(INSTALL)
        params = dict(params)
        name = params.pop("name", None)
        name = None if name is None else str(name)  # `name=2048` may come as a number
        if not name:
            raise ValueError("give the OpenSpiel game's name: openspiel(name=connect_four)")
        self.notation = str(params.pop("notation", "openspiel"))
        known = {g.short_name: g for g in pyspiel.registered_games()}
        if name not in known:
            raise ValueError("OpenSpiel has no game '%s'" % name)
        defaults = known[name].parameter_specification
        typed = {}
        for key, value in params.items():
            if key not in defaults:
                raise ValueError("OpenSpiel's %s has no parameter '%s' (it has: %s)"
                                 % (name, key, ", ".join(sorted(defaults)) or "none"))
            typed[key] = convert(value, defaults[key])
        self.game = pyspiel.load_game(name, typed)
        kind = self.game.get_type()
        why = None
        self.players = self.game.num_players()
        if not 1 <= self.players <= 6:
            why = "it has %d player%s" % (self.players, "" if self.players == 1 else "s")
        elif kind.dynamics == pyspiel.GameType.Dynamics.MEAN_FIELD:
            why = "it is a mean-field game (a population's distribution, not players' moves)"
        elif kind.chance_mode == pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC:
            why = "its chance events are sampled, not listed with their probabilities"
        if why:
            raise ValueError("OpenSpiel's %s cannot be played here: %s (arbiter plays games of 1 to 6 players)"
                             % (name, why))
        # Moves made together are played in turn, each hidden from the other player until
        # both are in (OpenSpiel's turn-based form of the game): a game of hidden moves.
        self.simultaneous = kind.dynamics != pyspiel.GameType.Dynamics.SEQUENTIAL
        if self.simultaneous:
            self.game = pyspiel.convert_to_turn_based(self.game)
            kind = self.game.get_type()
        # A game whose actions are structs only lists no legal actions (crossword).
        first = self.game.new_initial_state()
        try:
            if not first.is_chance_node() and not first.is_terminal():
                first.legal_actions()
        except Exception:  # noqa: BLE001
            raise ValueError("OpenSpiel's %s cannot be played here: it lists no legal actions "
                             "(its moves are action structs only)" % name)
        self.chance = kind.chance_mode != pyspiel.GameType.ChanceMode.DETERMINISTIC
        self.hidden = self.simultaneous or kind.information != pyspiel.GameType.Information.PERFECT_INFORMATION
        if self.hidden and not (kind.provides_information_state_string or kind.provides_observation_string):
            raise ValueError("OpenSpiel's %s cannot be played here: it says nothing of what a player observes" % name)
        self.info_state = kind.provides_information_state_string
        self.resample = None  # whether OpenSpiel draws histories itself: known at the first `sample`
        self.samples = self.hidden and name not in NO_SAMPLER
        # A game scored by more than who won (chips, a gammon's stake, a game whose players
        # do not share one stake) gives its returns.
        zero_sum = kind.utility in (pyspiel.GameType.Utility.ZERO_SUM, pyspiel.GameType.Utility.CONSTANT_SUM)
        # One player or more than two: always (the score, or what places the players).
        self.returns = (self.players != 2 or not zero_sum
                        or (self.game.min_utility(), self.game.max_utility()) != (-1.0, 1.0))
        if self.notation not in ("openspiel", "arbiter") or (self.notation == "arbiter" and name not in ARBITER_NOTATION):
            raise ValueError("notation is openspiel, or arbiter for %s (got %s)" % (", ".join(ARBITER_NOTATION), self.notation))
        self.name = name
        self.rows = int(typed.get("rows", defaults.get("rows", 8))) if name == "breakthrough" else 0
        self.states = {}
        self.move_lists = {}
        # Each position's moves by their text, made at its first `apply`: a chance roll of
        # five dice has 7,776 outcomes, and a search applies many of them.
        self.move_index = {}
        # The texts are OpenSpiel's own action strings, made in one pass (`moves`).
        self.plain_texts = self.notation == "openspiel" and name not in ACTION_NOTATION
        self.text_board = not prints_grids(self.game)

    def state(self, position):
        """The OpenSpiel state of a position string, replayed from its longest known prefix
        (in a loop: a position of thousands of plies is no deeper a recursion than one)."""
        state = self.states.get(position)
        if state is not None:
            return state
        if position == "":
            state = self.game.new_initial_state()
            self.remember("", state)
            return state
        # Back to the longest prefix remembered (or the start), then forward move by move.
        ends = [len(position)]
        while True:
            end = position.rfind(" ", 0, ends[-1])
            if end < 0:
                state = self.states.get("")
                if state is None:
                    state = self.game.new_initial_state()
                break
            state = self.states.get(position[:end])
            if state is not None:
                break
            ends.append(end)
        for end in reversed(ends):
            begin = position.rfind(" ", 0, end) + 1
            state = state.child(int(position[begin:end]))
            self.remember(position[:end], state)
        return state

    def remember(self, position, state):
        """Keeps `state` for `position`, forgetting the older half when full."""
        if len(self.states) >= KEPT:
            for old in list(itertools.islice(self.states, KEPT // 2)):
                del self.states[old]
                self.move_lists.pop(old, None)
                self.move_index.pop(old, None)
        self.states[position] = state

    def move_text(self, state, action):
        if self.name in ACTION_NOTATION and not state.is_chance_node():
            return "a%d" % action
        text = state.action_to_string(state.current_player(), action).replace(";", ",")
        if "\n" in text:
            # A move holds no line break (docs/game-protocol.md): bargaining's chance
            # outcomes are a few lines each, joined here by " / ".
            text = " / ".join(line.strip() for line in text.splitlines() if line.strip())
        if self.notation == "arbiter" and self.name == "connect_four":
            # OpenSpiel's "x3" (column 3 from 0) is arbiter's column number, "4".
            return str(action + 1)
        if self.notation == "arbiter" and self.name == "breakthrough":
            # OpenSpiel's "a7a6" (or "a7b6*" for a capture) from the top is arbiter's "a2-a3".
            text = text.rstrip("*")
            flip = lambda square: square[0] + str(self.rows + 1 - int(square[1:]))  # noqa: E731
            split = 1 + next(i for i, c in enumerate(text[1:]) if c.isalpha())
            text = flip(text[:split]) + "-" + flip(text[split:])
        return text

    def moves_at(self, position):
        """The legal moves of a position string, kept once made."""
        pairs = self.move_lists.get(position)
        if pairs is None:
            pairs = self.moves(self.state(position))
            self.move_lists[position] = pairs
        return pairs

    def action_of(self, position, text):
        """The action of the legal move written `text` in `position`, or None."""
        index = self.move_index.get(position)
        if index is None:
            index = dict(self.moves_at(position))
            self.move_index[position] = index
        return index.get(text)

    def moves(self, state):
        """The legal moves as (text, action), in OpenSpiel's order (chance's outcomes at a
        chance node); texts made unique."""
        if state.is_terminal():
            return []
        actions = [a for a, _ in state.chance_outcomes()] if state.is_chance_node() else state.legal_actions()
        if self.plain_texts:
            # OpenSpiel's texts as they are, in one pass (a search asks for the moves of
            # every position it reaches: go's 362 each), unless one needs rewriting or two
            # are the same; then move by move below.
            player = state.current_player()
            texts = [state.action_to_string(player, a) for a in actions]
            joined = "\0".join(texts)
            if ";" not in joined and "\n" not in joined and len(set(texts)) == len(texts):
                return list(zip(texts, actions))
        pairs, seen = [], set()
        for action in actions:
            text = self.move_text(state, action)
            if text in seen:
                text = "%s#%d" % (text, action)
            seen.add(text)
            pairs.append((text, action))
        return pairs

    def pending(self, state):
        """The moves made in the current round of a game of simultaneous moves (none in a
        game of sequential moves): OpenSpiel's turn-based form prints them first."""
        if not self.simultaneous or state.is_terminal() or state.is_chance_node():
            return []
        first = str(state).split("\n", 1)[0]
        prefix = "Partial joint action:"
        return first[len(prefix):].split() if first.startswith(prefix) else []

    def status(self, position):
        state = self.state(position)
        status = self.status_of(state)
        # Inside a round of simultaneous moves: where the round began, before the moves
        # the player to move has not seen.
        made = len(self.pending(state))
        if made:
            start = " ".join(position.split()[:-made])
            if not self.pending(self.state(start)):
                status["round_start"] = start
        return status

    def status_of(self, state):
        if state.is_terminal():
            returns = state.returns()
            # The winner scored more than every other player (no winner when the best tie).
            best = max(returns)
            leaders = [p for p, r in enumerate(returns) if r == best]
            winner = "P%d" % (leaders[0] + 1) if len(leaders) == 1 and self.players > 1 else None
            reason = "win" if winner else ("end" if self.players == 1 else "draw")
            status = {"type": "status", "over": True, "winner": winner, "reason": reason}
            if self.returns:
                status["returns"] = [float(r) for r in returns]
            return status
        if state.is_chance_node():
            return {"type": "status", "chance": True}
        return {"type": "status", "to_move": "P%d" % (state.current_player() + 1)}

    def observation(self, state, player):
        """What `player` knows: OpenSpiel's information state string (its observation
        string for a game that has none)."""
        if self.info_state:
            return state.information_state_string(player)
        return state.observation_string(player)

    def sample(self, position, player, seed):
        """A position `player` cannot tell from `position`, drawn from `seed`: OpenSpiel's
        own draw where the game has one (the poker games), else a history found depth first
        in which `player`'s own moves are the real ones, chance's outcomes are tried in an
        order drawn by their probabilities and the opponent's moves in a random order, and
        `player` observes the same thing after every step."""
        rng = random.Random(seed)
        state = self.state(position)
        if self.resample is not False:
            try:
                drawn = state.resample_from_infostate(player, rng.random)
            except Exception:  # not implemented for this game: search for one
                if self.resample:
                    raise
                drawn = None
            # A drawn history must replay from the start (hearts' does not: it deals the
            # passed cards straight into the hands); else the search below finds one.
            if drawn is not None and self.replays(drawn.history()):
                self.resample = True
                return " ".join(str(a) for a in drawn.history())
            self.resample = False
        actions = [int(a) for a in position.split()]
        truth = [self.state(" ".join(str(a) for a in actions[:i])) for i in range(len(actions) + 1)]
        seen = [self.observation(s, player) if not s.is_chance_node() else None for s in truth]
        budget = [SAMPLE_TRIES]

        def order(s, real, i):
            if truth[i].is_chance_node():
                outcomes = list(s.chance_outcomes())
                keyed = [(rng.random() ** (1.0 / p) if p > 0 else 0.0, a) for a, p in outcomes]
                return [a for _, a in sorted(keyed, reverse=True)]
            if truth[i].current_player() == player:
                return [real] if real in s.legal_actions() else []
            options = list(s.legal_actions())
            rng.shuffle(options)
            return options

        def search(s, i):
            if i == len(actions):
                return []
            for action in order(s, actions[i], i):
                budget[0] -= 1
                if budget[0] < 0:
                    raise ValueError("no position like this one for P%d found within %d tries" % (player + 1, SAMPLE_TRIES))
                child = s.child(action)
                nxt = truth[i + 1]
                if child.is_chance_node() != nxt.is_chance_node() or child.is_terminal() != nxt.is_terminal():
                    continue
                if not child.is_terminal() and child.current_player() != nxt.current_player():
                    continue
                if seen[i + 1] is not None and self.observation(child, player) != seen[i + 1]:
                    continue
                rest = search(child, i + 1)
                if rest is not None:
                    return [action] + rest
            return None

        found = search(self.game.new_initial_state(), 0)
        if found is None:
            raise ValueError("no position like this one for P%d exists" % (player + 1))
        return " ".join(str(a) for a in found)

    def replays(self, history):
        """Whether every action of `history` is legal in turn from the start."""
        state = self.game.new_initial_state()
        for action in history:
            legal = [a for a, _ in state.chance_outcomes()] if state.is_chance_node() else state.legal_actions()
            if action not in legal:
                return False
            state = state.child(action)
        return True

    def render(self, state):
        """The board as OpenSpiel prints it: as a grid of cells (a character each, a word each
        on spaced lines) for a game that prints grids, else as its text."""
        if self.text_board:
            return {"type": "render", "text": str(state)}
        rows = [["" if c in ".-" else c for c in cells] for cells in grid_cells(str(state))]
        symbols = sorted({c for row in rows for c in row if c})
        palette = ["#c0392b", "#2c3e50", "#f1c40f", "#27ae60", "#8e44ad", "#e67e22"]
        colors = {s: palette[i % len(palette)] for i, s in enumerate(symbols)}
        return {"type": "render", "rows": rows, "colors": colors}


def grid_cells(text):
    """A printed board's lines as cells: a character each, or a word each on spaced lines."""
    return [line.split() if " " in line.strip() else list(line) for line in text.splitlines()]


def prints_grids(game, plies=40):
    """Whether a game prints its positions as grids: at the start and along a seeded random
    game, always the same number of lines of the same number of short cells (one to four
    characters). Prose, a FEN, a board with a heading or a score line below, a drawing
    of lines: text, shown as it is printed."""
    rng = random.Random(0)
    state = game.new_initial_state()
    shapes = set()
    for _ in range(plies):
        cells = grid_cells(str(state).rstrip("\n"))
        widths = {len(row) for row in cells}
        shapes.add((len(cells), max(widths, default=0)))
        if len(shapes) > 1 or len(cells) < 2 or len(widths) != 1 \
                or any(not 1 <= len(c) <= 4 for row in cells for c in row):
            return False
        if state.is_terminal():
            break
        if state.is_chance_node():
            state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return True


def convert(text, default):
    """A parameter's text as the type of its OpenSpiel default."""
    if isinstance(default, bool):
        return str(text).lower() in ("1", "true")
    if isinstance(default, int):
        return int(text)
    if isinstance(default, float):
        return float(text)
    return str(text)


def player_of(request, players):
    """OpenSpiel's number of the request's `player` (P1 is 0)."""
    label = request.get("player")
    labels = ["P%d" % (p + 1) for p in range(players)]
    if label not in labels:
        raise ValueError("player must be %s (got %r)" % (" or ".join(labels), label))
    return labels.index(label)


def answer(bridge, request):
    kind = request.get("type")
    if kind == "initial":
        return {"type": "position", "position": ""}
    position = request["position"]
    state = bridge.state(position)
    if kind == "status":
        return bridge.status(position)
    if kind == "legal":
        reply = {"type": "legal", "moves": [text for text, _ in bridge.moves_at(position)]}
        if state.is_chance_node():
            reply["chance"] = [p for _, p in state.chance_outcomes()]
        return reply
    if kind == "apply":
        action = bridge.action_of(position, request["move"])
        if action is None:
            raise ValueError("move '%s' is not legal here" % request["move"])
        child = ("%s %d" % (position, action)).strip()
        return {"type": "position", "position": child, "status": bridge.status(child)}
    if kind == "render":
        return bridge.render(state)
    if kind == "observation":
        return {"type": "observation", "observation": bridge.observation(state, player_of(request, bridge.players))}
    if kind == "sample":
        drawn = bridge.sample(position, player_of(request, bridge.players), int(request.get("seed", 0)))
        return {"type": "position", "position": drawn, "status": bridge.status(drawn)}
    if kind == "view":
        return {"type": "view", "view": {"board": str(state).splitlines(),
                                         "actions": [int(a) for a in position.split()]}}
    raise ValueError("unknown request type %r" % kind)


def main():
    sys.setrecursionlimit(100_000)  # a sampled history is searched one action a level
    bridge = None
    for line in sys.stdin:
        try:
            request = json.loads(line)
            kind = request.get("type")
            if kind == "quit":
                break
            if kind == "hello":
                bridge = Bridge(request.get("params", {}))
                reply = {"type": "ready", "protocol": 2, "name": "openspiel " + str(bridge.game),
                         "players": bridge.players, "render": True, "view": True, "chance": bridge.chance,
                         "hidden": bridge.hidden, "sample": bridge.samples, "returns": bridge.returns}
            elif bridge is None:
                raise ValueError("hello first")
            else:
                reply = answer(bridge, request)
        except Exception as error:  # every failure is an answer, never a dead program
            reply = {"type": "error", "message": str(error)}
        sys.stdout.write(json.dumps(reply) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
