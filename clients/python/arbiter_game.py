"""Serves a Python game class as a rules program (docs/game-protocol.md), standard library
only: the same class the `arbiter` package plays in-process (`python_games=`, see
docs/python.md, "Games written in Python") runs from the command line too.

    # my_game_program.py
    import arbiter_game
    from my_game import MyGame
    arbiter_game.serve(MyGame)

    # agents/games.toml
    [[game]]
    name = "my-game"
    command = ["python3", "my_game_program.py"]

The class: `__init__(**params)`, `initial()`, `moves(position)`, `play(position, move)`,
`status(position)` (the seat to move, 0 for P1, or `(winner seat or None, reason)` once
over), and optionally `evaluate(position, seat)`, `render(position)`, `features(position)`
with `feature_names`, `players`, `name`.
In-process the package answers the same requests the same way; through a pipe a search
is a few hundred times slower (`clients/python/benchmarks/python_game.py`).
"""

import json
import sys

PROTOCOL = 2


def _label(game, seat):
    players = getattr(game, "players", 2)
    if not (isinstance(seat, int) and 0 <= seat < players):
        raise ValueError(f"status() named seat {seat!r}, not one of 0 to {players - 1}")
    return f"P{seat + 1}"


def _status(game, position):
    stat = game.status(position)
    if isinstance(stat, tuple):
        winner, reason = stat
        return {"over": True, "winner": None if winner is None else _label(game, winner),
                "reason": str(reason)}
    return {"to_move": _label(game, stat)}


def answer(cls, game, request):
    """(the game instance, the reply) to one request; `game` is None before `hello`."""
    kind = request.get("type")
    if kind == "hello":
        game = cls(**(request.get("params") or {}))
        name = getattr(game, "name", None)
        return game, {
            "type": "ready", "protocol": PROTOCOL,
            "name": name if isinstance(name, str) else request.get("game", cls.__name__),
            "players": getattr(game, "players", 2),
            "evaluate": callable(getattr(game, "evaluate", None)),
            "render": callable(getattr(game, "render", None)),
            "features": list(getattr(game, "feature_names", []))
            if callable(getattr(game, "features", None)) else [],
        }
    if game is None:
        raise ValueError("no `hello` yet")
    position = request.get("position", "")
    if kind == "initial":
        return game, {"type": "position", "position": game.initial()}
    if kind == "status":
        return game, {"type": "status", **_status(game, position)}
    if kind == "legal":
        return game, {"type": "legal", "moves": list(game.moves(position))}
    if kind == "apply":
        move = request.get("move")
        if move not in game.moves(position):
            raise ValueError(f"move '{move}' is not legal in position '{position}'")
        child = game.play(position, move)
        return game, {"type": "position", "position": child, "status": _status(game, child)}
    if kind == "evaluate":
        seat = int(str(request.get("player", "P1"))[1:]) - 1
        return game, {"type": "value", "value": float(game.evaluate(position, seat))}
    if kind == "render":
        return game, {"type": "render", **game.render(position)}
    if kind == "features":
        values = game.features(position)
        return game, {"type": "features",
                      **{f"P{seat + 1}": list(v) for seat, v in enumerate(values)}}
    raise ValueError(f"a Python game class answers hello, initial, status, legal, apply, "
                     f"evaluate, features and render, not {kind!r}")


def serve(cls):
    """Answers the game protocol's requests on stdin with instances of `cls`, until `quit`
    or the end of stdin. Every failure is an `error` reply, never a dead program."""
    game = None
    for line in sys.stdin:
        try:
            request = json.loads(line)
            if request.get("type") == "quit":
                break
            game, reply = answer(cls, game, request)
        except Exception as error:  # noqa: BLE001 - the program's answer, not its end
            reply = {"type": "error", "message": f"{type(error).__name__}: {error}"}
        sys.stdout.write(json.dumps(reply) + "\n")
        sys.stdout.flush()
