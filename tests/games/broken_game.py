"""Deliberately broken rules programs for arbiter's tests: `broken_game.py MODE MARKER`.

Tic-tac-toe (clients/python/examples/tic_tac_toe_game.py), broken as MODE says: ok (not
broken), exit (exits at once), garbage (answers hello with a JSON line that is not
`ready`), silent (never answers hello), nondeterministic (`legal` lists the moves in a
different order every time it is asked), crash (exits on its 40th `apply`, mid-game),
refuse (answers `error` to the first move 5), endless (every move leads to a
position that is never over). MARKER only makes the processes findable.
"""

import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "../../clients/python/examples"))
import tic_tac_toe_game as game  # noqa: E402

mode = sys.argv[1]
if mode == "exit":
    print("giving up before hello", file=sys.stderr, flush=True)
    sys.exit(4)
applies = 0
asked = 0


def answer(request):
    global applies, asked
    kind = request.get("type")
    if kind == "hello" and mode == "garbage":
        return {"type": "hello-to-you-too"}
    if kind == "hello" and mode == "silent":
        return None
    if kind == "legal" and mode == "nondeterministic":
        asked += 1
        moves = game.legal(request["position"])
        return {"type": "legal", "moves": moves[asked % 2:] + moves[:asked % 2]}
    if kind == "apply":
        applies += 1
        if mode == "crash" and applies == 40:
            print("crashing on purpose", file=sys.stderr, flush=True)
            sys.exit(3)
        if mode == "refuse" and request["move"] == "5" and request["position"] == "......... X":
            raise ValueError("I do not like the centre")
    if kind == "status" and mode == "endless":
        return {"type": "status", "to_move": "P1" if len(request["position"]) % 2 else "P2"}
    if kind == "legal" and mode == "endless":
        return {"type": "legal", "moves": ["again"]}
    if kind == "apply" and mode == "endless":
        return {"type": "position", "position": request["position"] + "+"}
    return game.answer(request)


for line in sys.stdin:
    try:
        request = json.loads(line)
        if request.get("type") == "quit":
            break
        reply = answer(request)
    except Exception as error:
        reply = {"type": "error", "message": str(error)}
    if reply is not None:
        sys.stdout.write(json.dumps(reply) + "\n")
        sys.stdout.flush()
