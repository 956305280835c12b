"""An agent that looks for what a game hides from it (arbiter's tests): it reads every
line arbiter sends and, if any line before the game's end holds the text "SECRET" (the
secret game's positions carry both hands), it answers its next move with `LEAKED`, an
illegal move arbiter records. Otherwise it plays by the card it is told it holds: it
raises or calls with 5 or more and folds below, so its games show that it was told its
own card (`NO-CARD` if the observation does not say it)."""

import json
import re
import sys

leaked = False
for line in sys.stdin:
    try:
        message = json.loads(line)
    except ValueError:
        continue
    kind = message.get("type")
    if kind != "game_over" and "SECRET" in line:
        leaked = True
        sys.stderr.write("leak: %s\n" % line.strip())
    if kind == "hello":
        print(json.dumps({"type": "ready", "name": "peek", "protocol": 2}), flush=True)
    elif kind == "ping":
        print(json.dumps({"type": "pong", "id": message.get("id")}), flush=True)
    elif kind == "move":
        observation = (message.get("position") or {}).get("observation") or ""
        card = re.match(r"card (\d)", observation)
        if leaked:
            move = "LEAKED"
        elif card is None or message.get("moves"):
            move = "NO-CARD"
        else:
            strong = int(card.group(1)) >= 5
            move = message["legal"][0] if strong else "fold"
        print(json.dumps({"type": "move", "move": move}), flush=True)
    elif kind == "quit":
        break
