"""Nim for three players, a rules program for arbiter's tests (docs/game-protocol.md): a
pile of stones (`stones`, 7 by default), each player in turn (P1, P2, P3) takes one or two,
and whoever takes the last stone wins (return 1, the others 0). It draws its board as
text (a `render` reply with `text`). `nim3.py short-returns` gives two returns instead of
three, for the test of a malformed status.
"""

import json
import sys

SHORT = len(sys.argv) > 1 and sys.argv[1] == "short-returns"
STONES = [7]


def status(position):
    stones, ply = (int(x) for x in position.split(":"))
    if stones == 0:
        winner = (ply - 1) % 3
        returns = [1.0 if p == winner else 0.0 for p in range(3)]
        return {"type": "status", "over": True, "winner": "P%d" % (winner + 1),
                "reason": "last-stone", "returns": returns[:2] if SHORT else returns}
    return {"type": "status", "to_move": "P%d" % (ply % 3 + 1)}


def answer(request):
    kind = request.get("type")
    if kind == "hello":
        STONES[0] = int(request.get("params", {}).get("stones", 7))
        return {"type": "ready", "protocol": 2, "name": "nim for three", "players": 3,
                "returns": True, "render": True}
    if kind == "initial":
        return {"type": "position", "position": "%d:0" % STONES[0]}
    position = request["position"]
    stones, ply = (int(x) for x in position.split(":"))
    if kind == "status":
        return status(position)
    if kind == "legal":
        return {"type": "legal", "moves": [str(t) for t in (1, 2) if t <= stones]}
    if kind == "render":
        turn = "over" if stones == 0 else "P%d to take one or two" % (ply % 3 + 1)
        return {"type": "render",
                "text": "pile: %s(%d left)\nply %d: %s\n" % ("\u25cf " * stones, stones, ply, turn)}
    if kind == "apply":
        take = int(request["move"])
        if take not in (1, 2) or take > stones:
            raise ValueError("illegal move %r" % request["move"])
        child = "%d:%d" % (stones - take, ply + 1)
        return {"type": "position", "position": child, "status": status(child)}
    raise ValueError("unknown request %r" % kind)


def main():
    for line in sys.stdin:
        try:
            request = json.loads(line)
            if request.get("type") == "quit":
                break
            reply = answer(request)
        except Exception as error:  # every failure is an answer
            reply = {"type": "error", "message": str(error)}
        sys.stdout.write(json.dumps(reply) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
