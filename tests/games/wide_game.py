"""A protocol-conforming rules program with wide moves and long positions, for arbiter's
tests (docs/game-protocol.md): 64 legal moves in every position, each position a string of
about 3,000 bytes, the game over after PLIES plies (a draw). A search asks for a
position's 64 children at once: about 200 KB of requests against the 64 KiB of a pipe,
while the program's replies fill its own stdout. `wide_game.py [PLIES] [PAD] [MOVES]`
(MOVES legal moves a position, 64 by default).
"""

import json
import sys

PLIES = int(sys.argv[1]) if len(sys.argv) > 1 else 4
PAD = int(sys.argv[2]) if len(sys.argv) > 2 else 3000
MOVES = ["m%d" % i for i in range(int(sys.argv[3]) if len(sys.argv) > 3 else 64)]
LEGAL = set(MOVES)


def position(ply, moves):
    # The moves so far, then padding: every position is distinct and long.
    return "%d|%s|%s" % (ply, ",".join(moves), "w" * PAD)


def parse(text):
    ply, moves, _ = text.split("|", 2)
    return int(ply), [m for m in moves.split(",") if m]


def status(text):
    ply, _ = parse(text)
    if ply >= PLIES:
        return {"type": "status", "over": True, "winner": None, "reason": "plies"}
    return {"type": "status", "to_move": "P1" if ply % 2 == 0 else "P2"}


def answer(request):
    kind = request.get("type")
    if kind == "hello":
        return {"type": "ready", "protocol": 1, "name": "wide", "players": 2}
    if kind == "initial":
        return {"type": "position", "position": position(0, [])}
    if kind == "status":
        return status(request["position"])
    if kind == "legal":
        return {"type": "legal", "moves": [] if status(request["position"]).get("over") else MOVES}
    if kind == "apply":
        ply, moves = parse(request["position"])
        if request["move"] not in LEGAL or ply >= PLIES:
            raise ValueError("illegal move %r" % request["move"])
        child = position(ply + 1, moves + [request["move"]])
        return {"type": "position", "position": child, "status": status(child)}
    raise ValueError("unknown request %r" % kind)


def main():
    for line in sys.stdin:
        try:
            request = json.loads(line)
            if request.get("type") == "quit":
                break
            reply = answer(request)
        except Exception as error:
            reply = {"type": "error", "message": str(error)}
        sys.stdout.write(json.dumps(reply) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
