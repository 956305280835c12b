"""Play in arbiter tournaments from Python: a one-file helper, standard library only.

arbiter talks to your program with one JSON object per line on stdin/stdout (protocol 2,
docs/protocol.md). This module reads the requests, answers `hello` and `ping`, keeps the
time, flushes every reply, and calls your function for each move:

    import arbiter_agent

    def choose(request):
        # request.legal: the legal moves in the game's notation
        # request.position: the board (its JSON form is in docs/protocol.md)
        # request.moves: the moves played so far; request.seat: "P1" or "P2"
        # request.time_left(): seconds before the move is due (None: no limit)
        #   (on a game clock: your share of the time left on it, see Request)
        # request.clock: both game clocks (None without one)
        return request.legal[0]          # or (move, {"depth": 3, "nodes": 1234})

    arbiter_agent.run(choose, name="my agent")

Print debugging output to stderr (arbiter keeps it in the results folder, under
logs/<agent>/<game>.stderr); anything printed to stdout that is not a reply is counted as
garbage. If `choose` raises, the traceback goes to stderr and a random legal move is
played, so one bug does not lose every game.
"""

import json
import os
import random
import select
import sys
import time
import traceback

PROTOCOL = 2

# A request that came this soon after the previous reply is looked for this long before
# the read sleeps (as arbiter itself does): waking a reader asleep in read(2) costs tens
# of microseconds of CPU on both sides of the pipe when they run on different cores.
LOOK_SECONDS = 150e-6

# Answer this much before the deadline, for the pipe and Python's own pauses.
SAFETY_SECONDS = 0.02


class Request:
    """A move request: the position, the moves so far, the legal moves and the clock."""

    def __init__(self, message, game, received, options):
        self.message = message
        self.game = game
        self.options = options
        self.position = message.get("position", {})
        self.moves = message.get("moves", [])
        self.legal = message.get("legal", [])
        self.seat = message.get("seat", "P1")
        self.ply = message.get("ply", len(self.moves))
        self.game_id = message.get("game_id", 0)
        time_ms = message.get("time_ms")
        self.deadline = None if time_ms is None else received + time_ms / 1000.0 - SAFETY_SECONDS
        # Protocol 2: {"p1_ms", "p2_ms", "p1_increment_ms", "p2_increment_ms", "basis"}.
        # On a game clock the move is due after a share of the time left: a twentieth
        # of it plus three quarters of the increment, at most half of it (as arbiter's
        # own agents spend theirs), so searching until time_left() is 0 keeps the clock.
        self.clock = message.get("clock")
        if self.clock:
            mine = self.seat.lower()
            remaining = self.clock.get(mine + "_ms", 0) / 1000.0
            increment = self.clock.get(mine + "_increment_ms", 0) / 1000.0
            share = received + min(remaining / 20 + increment * 0.75, remaining / 2)
            self.deadline = share if self.deadline is None else min(self.deadline, share)

    def time_left(self):
        """Seconds left before the move is due (never negative), or None without a limit."""
        if self.deadline is None:
            return None
        return max(0.0, self.deadline - time.monotonic())

    def out_of_time(self):
        """Whether the move is due now."""
        return self.deadline is not None and time.monotonic() >= self.deadline


class Game:
    """What `hello` and `new_game` said: the game spec, the seat, the seed, the options."""

    def __init__(self):
        self.spec = ""
        self.seat = "P1"
        self.seed = 0
        self.options = {}
        self.game_id = 0
        self.rng = random.Random(0)


def _send(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def log(*parts):
    """Prints to stderr (kept by arbiter per game), never to stdout."""
    print(*parts, file=sys.stderr, flush=True)


def _may_look():
    """Whether looking can help: this process may run on more than one core."""
    if os.name != "posix":
        return False
    try:
        return len(os.sched_getaffinity(0)) > 1
    except (AttributeError, OSError):
        return (os.cpu_count() or 1) > 1


def _requests():
    """The lines of stdin, as `for line in sys.stdin` gives them, read from its file
    descriptor so that a quick request can be looked for before sleeping."""
    try:
        fd = sys.stdin.fileno()
    except (AttributeError, OSError, ValueError):
        yield from sys.stdin  # not a file: nothing to look at
        return
    look = _may_look()
    quick = look
    pending = b""
    while True:
        end = pending.find(b"\n")
        if end >= 0:
            line, pending = pending[:end + 1], pending[end + 1:]
            yield line.decode("utf-8", "replace")
            continue
        waited = time.monotonic()
        if quick:
            # Letting other processes run between looks: on a busy machine a look costs
            # the others little.
            until = waited + LOOK_SECONDS
            while not select.select([fd], [], [], 0)[0] and time.monotonic() < until:
                os.sched_yield()
        chunk = os.read(fd, 65536)
        if not chunk:
            if pending:
                yield pending.decode("utf-8", "replace")
            return
        quick = look and time.monotonic() - waited <= LOOK_SECONDS
        pending += chunk


def run(choose, name="python agent", new_game=None, game_over=None):
    """Serves requests until `quit` or the end of input.

    choose(request) returns the move (a string from request.legal) or (move, info) where
    info may hold "depth", "nodes", "score" and "pv". new_game(game) and
    game_over(game, message) are called, if given, at the start and end of each game;
    game.rng is a random.Random seeded with the game's seed, for reproducible play.
    """
    game = Game()
    for line in _requests():
        received = time.monotonic()
        line = line.strip()
        if not line:
            continue
        try:
            message = json.loads(line)
        except ValueError:
            log("arbiter_agent: skipped a line that is not JSON:", line[:200])
            continue
        kind = message.get("type") if isinstance(message, dict) else None
        if kind == "hello":
            if message.get("protocol") != PROTOCOL:
                log("arbiter_agent: arbiter speaks protocol", message.get("protocol"),
                    "and this helper", PROTOCOL)
            game.spec = message.get("game", "")
            game.options = message.get("options", {}) or {}
            game.seat = message.get("seat", "P1")
            game.seed = message.get("seed", 0)
            game.rng = random.Random(game.seed)
            _send({"type": "ready", "name": name, "protocol": PROTOCOL})
        elif kind == "ping":
            _send({"type": "pong", "id": message.get("id")})
        elif kind == "new_game":
            game.seat = message.get("seat", game.seat)
            game.seed = message.get("seed", game.seed)
            game.game_id = message.get("game_id", 0)
            game.rng = random.Random(game.seed)
            if new_game is not None:
                new_game(game)
        elif kind == "move":
            request = Request(message, game, received, game.options)
            try:
                answer = choose(request)
            except Exception:  # noqa: BLE001 - one bug must not lose every game
                traceback.print_exc(file=sys.stderr)
                answer = game.rng.choice(request.legal) if request.legal else ""
            info = None
            if isinstance(answer, tuple):
                answer, info = answer
            reply = {"type": "move", "move": answer}
            if info:
                reply["info"] = info
            _send(reply)
        elif kind == "game_over":
            if game_over is not None:
                game_over(game, message)
        elif kind == "quit":
            return
        else:
            log("arbiter_agent: skipped an unknown request:", line[:200])
