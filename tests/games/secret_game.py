"""A small card game with hidden information, as an arbiter rules program (game protocol
version 2), for arbiter's tests: each player is dealt a card from 1 to 9 that the other
does not see; P1 raises or folds, P2 then calls or folds; a call shows both cards, the
higher winning (equal cards draw), and a fold loses. Each player puts in 1 to play and a
raise or a call puts in 1 more: a finished game's status gives each player's return (what
they won or lost), P1's opening fold -1 and a showdown after a call +2 or -2.

A position is `SECRET:<P1's card>,<P2's card>|<bets>` (`_` for a card not dealt yet), so
that an agent sent the position itself finds "SECRET" in what it reads.

Parameters (for the tests): `hidden` (default true: say so in `ready`; false makes arbiter
send agents the position, the leak the tests' agent looks for) and `leak` (true: each
player's observation shows the other's card too, which `check-game` must find).
"""

import json
import random
import sys


def parse(position):
    cards, bets = position[len("SECRET:"):].split("|")
    a, b = cards.split(",")
    return [None if a == "_" else int(a), None if b == "_" else int(b)], bets


def write(cards, bets):
    return "SECRET:%s,%s|%s" % tuple(["_" if c is None else str(c) for c in cards] + [bets])


def status(position):
    cards, bets = parse(position)
    if cards[1] is None:
        return {"type": "status", "chance": True}
    if bets in ("f", "rf"):
        p1 = -1 if bets == "f" else 1
        return {"type": "status", "over": True, "winner": "P2" if bets == "f" else "P1", "reason": "fold",
                "returns": [p1, -p1]}
    if bets == "rc":
        winner = None if cards[0] == cards[1] else ("P1" if cards[0] > cards[1] else "P2")
        p1 = 0 if winner is None else (2 if winner == "P1" else -2)
        return {"type": "status", "over": True, "winner": winner, "reason": "showdown", "returns": [p1, -p1]}
    return {"type": "status", "to_move": "P1" if bets == "" else "P2"}


def legal(position):
    cards, bets = parse(position)
    if cards[1] is None:
        return ["card%d" % c for c in range(1, 10)]
    if "over" in status(position):
        return []
    return ["raise", "fold"] if bets == "" else ["call", "fold"]


def apply(position, move):
    if move not in legal(position):
        raise ValueError("move '%s' is not legal here" % move)
    cards, bets = parse(position)
    if move.startswith("card"):
        cards[0 if cards[0] is None else 1] = int(move[4:])
    else:
        bets += {"raise": "r", "fold": "f", "call": "c"}[move]
    return write(cards, bets)


def observation(position, player, leak):
    cards, bets = parse(position)
    me = 0 if player == "P1" else 1
    seen = "card %s, bets '%s'" % ("?" if cards[me] is None else cards[me], bets)
    if leak:
        seen += ", theirs %s" % cards[1 - me]
    return seen


def sample(position, player, seed):
    cards, bets = parse(position)
    other = 1 if player == "P1" else 0
    if cards[other] is not None:
        cards[other] = random.Random(seed).randint(1, 9)
    return write(cards, bets)


def main():
    hidden, leak = True, False
    for line in sys.stdin:
        try:
            request = json.loads(line)
            kind = request.get("type")
            if kind == "quit":
                break
            if kind == "hello":
                params = request.get("params", {})
                hidden = params.get("hidden", True) not in (False, "false")
                leak = params.get("leak", False) in (True, "true")
                reply = {"type": "ready", "protocol": 2, "name": "secret cards", "players": 2,
                         "chance": True, "hidden": hidden, "sample": hidden, "returns": True}
            elif kind == "initial":
                reply = {"type": "position", "position": write([None, None], "")}
            elif kind == "status":
                reply = status(request["position"])
            elif kind == "legal":
                moves = legal(request["position"])
                reply = {"type": "legal", "moves": moves}
                if moves and moves[0].startswith("card"):
                    reply["chance"] = [1 / 9] * 9
            elif kind == "apply":
                child = apply(request["position"], request["move"])
                reply = {"type": "position", "position": child, "status": status(child)}
            elif kind == "observation":
                reply = {"type": "observation",
                         "observation": observation(request["position"], request["player"], leak)}
            elif kind == "sample":
                drawn = sample(request["position"], request["player"], request["seed"])
                reply = {"type": "position", "position": drawn, "status": status(drawn)}
            else:
                reply = {"type": "error", "message": "unknown request %r" % kind}
        except Exception as error:  # every failure is an answer
            reply = {"type": "error", "message": str(error)}
        sys.stdout.write(json.dumps(reply) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
