"""Python agents played in-process: a callable, or an object, answers each move.

arbiter speaks its agent protocol (docs/protocol.md) to a session object here a line at a
time, by a function call from the worker thread that plays the game, instead of through a
pipe to a program. Everything else (deadlines, faults, logs, counting) is as for a program.
"""

import json
import random
import time
import traceback

PROTOCOL = 2


class Info:
    """What an agent is told with each move (and at the start of each game).

    Attributes: game (the game spec, e.g. "breakthrough"), seat ("P1" or "P2"), ply
    (moves played so far), moves (them, in the game's notation), seed (the game's seed for
    this agent), rng (a random.Random seeded with it: use it for reproducible play),
    game_id, options (the agent's options), clock (both game clocks, or None).
    """

    def __init__(self, game="", seat="P1", seed=0, options=None):
        self.game = game
        self.seat = seat
        self.seed = seed
        self.rng = random.Random(seed)
        self.options = options or {}
        self.game_id = 0
        self.ply = 0
        self.moves = []
        self.clock = None
        self.deadline = None
        self._log = []

    def time_left(self):
        """Seconds before the move is due (never negative), or None without a limit."""
        if self.deadline is None:
            return None
        return max(0.0, self.deadline - time.monotonic())

    def log(self, *parts):
        """Writes a line to this agent's log for the game (logs/<agent>/<game>.stderr)."""
        self._log.append(" ".join(str(part) for part in parts) + "\n")


def _describe(agent):
    return getattr(agent, "__name__", None) or type(agent).__name__


class Session:
    """One conversation with arbiter: one object of a class-form agent, used by one worker
    for one game after another."""

    def __init__(self, agent, name):
        # A class is instantiated once per session: each worker thread gets its own.
        self.agent = agent() if isinstance(agent, type) else agent
        self.choose = getattr(self.agent, "move", None) or self.agent
        if not callable(self.choose):
            raise TypeError(f"agent {name!r} is neither callable nor has a move() method")
        self.name = name
        self.info = Info()

    def handle(self, line):
        """Answers one protocol line: (reply lines, log text, failure or None)."""
        received = time.monotonic()
        info = self.info
        info._log = []
        replies = []
        failure = None
        try:
            message = json.loads(line)
            kind = message.get("type")
            if kind == "hello":
                self.info = info = Info(
                    message.get("game", ""),
                    message.get("seat", "P1"),
                    message.get("seed", 0),
                    message.get("options") or {},
                )
                # Each game, the first too, starts with `new_game`.
                replies.append({"type": "ready", "name": self.name, "protocol": PROTOCOL})
            elif kind == "ping":
                replies.append({"type": "pong", "id": message.get("id")})
            elif kind == "new_game":
                game, options = info.game, info.options
                self.info = info = Info(
                    game, message.get("seat", info.seat), message.get("seed", info.seed), options
                )
                info.game_id = message.get("game_id", 0)
                self._call("new_game", info)
            elif kind == "move":
                replies.append(self._move(message, received))
            elif kind == "game_over":
                self._call("game_over", info, message)
        except Exception as error:  # noqa: BLE001 - reported to arbiter as the agent's failure
            info._log.append(traceback.format_exc())
            failure = f"{type(error).__name__}: {error}"
        log, info._log = "".join(info._log), []
        return [json.dumps(r) for r in replies], log, failure

    def _call(self, method, *args):
        hook = getattr(self.agent, method, None)
        if hook is not None:
            hook(*args)

    def _move(self, message, received):
        move, details = self._decide(
            message.get("position", {}), message.get("legal", []),
            message.get("moves", []), message.get("ply"), message.get("seat"),
            message.get("game_id"), message.get("clock"), message.get("time_ms"), received,
        )
        reply = {"type": "move", "move": move}
        if details:
            reply["info"] = details
        return reply

    def move_fields(self, position, legal, moves_from, new_moves, ply, seat, game_id, clock,
                    time_ms):
        """Answers a move request handed over as its fields (arbiter calls this instead of
        `handle` with the request's line): the position and the clock as Python objects
        already, the moves since the first `moves_from` of those it was given before in
        this game. Returns (move, its info as JSON text or None, log text, failure or
        None)."""
        info = self.info
        try:
            known = info.moves
            if moves_from == len(known):
                moves = known + new_moves
            elif moves_from < len(known):
                moves = known[:moves_from] + new_moves
            else:
                raise RuntimeError("the moves arbiter sent are out of step (a bug in arbiter)")
            # The clock is read only for a move with a deadline.
            received = None if time_ms is None and clock is None else time.monotonic()
            move, details = self._decide(
                position, legal, moves, ply, seat, game_id, clock, time_ms, received
            )
            failure = None
            if details:
                details = json.dumps(details)
        except Exception as error:  # noqa: BLE001 - reported to arbiter as the agent's failure
            info._log.append(traceback.format_exc())
            move, details, failure = None, None, f"{type(error).__name__}: {error}"
        log = info._log
        if not log:
            return move, details, "", failure
        info._log = []
        return move, details, "".join(log), failure

    def _decide(self, position, legal, moves, ply, seat, game_id, clock, time_ms, received):
        """The agent's answer and the info it gave with it (or None)."""
        info = self.info
        info.moves = moves
        info.ply = len(moves) if ply is None else ply
        info.seat = seat or info.seat
        if game_id is not None:
            info.game_id = game_id
        info.clock = clock
        info.deadline = None if time_ms is None else received + time_ms / 1000.0
        if clock:
            # On a game clock the move is due after a share of the time left (a twentieth
            # of it plus three quarters of the increment, at most half), as arbiter's own
            # agents spend theirs.
            mine = info.seat.lower()
            remaining = clock.get(mine + "_ms", 0) / 1000.0
            increment = clock.get(mine + "_increment_ms", 0) / 1000.0
            share = received + min(remaining / 20 + increment * 0.75, remaining / 2)
            info.deadline = share if info.deadline is None else min(info.deadline, share)
        answer = self.choose(position, legal, info)
        if isinstance(answer, tuple):
            answer, details = answer
            return str(answer), details
        return answer if type(answer) is str else str(answer), None
