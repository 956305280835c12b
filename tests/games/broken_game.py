"""Deliberately broken rules programs for arbiter's tests: `broken_game.py MODE MARKER`.

Tic-tac-toe (clients/python/examples/tic_tac_toe_game.py), broken as MODE says: ok (not
broken), exit (exits at once), garbage (answers hello with a JSON line that is not
`ready`), silent (never answers hello), nondeterministic (`legal` lists the moves in a
different order every time it is asked), crash (exits on its 40th `apply`, mid-game),
refuse (answers `error` to the first move 5), endless (every move leads to a
position that is never over), flicker (its `apply` replies carry no status, and `status`
and `legal` of one position change from call to call: a side to move, then the game over,
then no legal move), many (70,000 legal moves in the start position), huge (a 200 MB line
in answer to its 30th `legal`), stall (never answers its 20th `apply`), slowstart (takes
1 s to start, then plays well), badchance (declares chance: a coin tossed before the
game, whose two sides' probabilities sum to 0.9), badround (every status after the first
move names its own position as where a round of simultaneous moves began, in a game that
hides nothing), linebreak (its `legal` lists a move holding a line break, which records
cannot keep). MARKER only makes the processes findable.
"""

import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "../../clients/python/examples"))
import tic_tac_toe_game as game  # noqa: E402

mode = sys.argv[1]
if mode == "slowstart":
    import time

    time.sleep(1)
if mode == "exit":
    print("giving up before hello", file=sys.stderr, flush=True)
    sys.exit(4)
applies = 0
asked = 0
flickers = 0
legals = 0


def answer(request):
    global applies, asked, flickers, legals
    kind = request.get("type")
    if mode == "flicker" and kind in ("status", "legal"):
        flickers += 1
        if flickers % 3 == 1 and kind == "status":
            return {"type": "status", "over": True, "winner": "P1", "reason": "flicker"}
        if flickers % 3 == 2 and kind == "legal":
            return {"type": "legal", "moves": []}
    if mode == "flicker" and kind == "apply":
        reply = game.apply(request["position"], request["move"])
        del reply["status"]
        return reply
    if mode == "linebreak" and kind == "legal":
        moves = game.legal(request["position"])
        return {"type": "legal", "moves": [moves[0] + "\n"] + moves[1:]}
    if mode == "many" and kind == "legal":
        return {"type": "legal", "moves": ["m%d" % i for i in range(70000)]}
    if mode == "huge" and kind == "legal":
        legals += 1
        if legals == 30:
            return {"type": "legal", "moves": game.legal(request["position"]), "pad": "x" * (200 << 20)}
    if mode == "badchance":
        if kind == "hello":
            return dict(game.answer(request), chance=True)
        if kind == "initial":
            return {"type": "position", "position": "coin"}
        if request.get("position") == "coin":
            if kind == "status":
                return {"type": "status", "chance": True}
            if kind == "legal":
                return {"type": "legal", "moves": ["heads", "tails"], "chance": [0.5, 0.4]}
            if kind == "apply":
                return {"type": "position", "position": "......... X", "status": {"type": "status", "to_move": "P1"}}
    if mode == "badround" and kind == "status" and request["position"] != "......... X":
        return dict(game.answer(request), round_start=request["position"])
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
        if mode == "stall" and applies == 20:
            import time

            time.sleep(120)
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
