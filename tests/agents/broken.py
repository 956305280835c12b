"""Deliberately broken agents for arbiter's tests: `broken.py MODE MARKER`.

MODE: ok (random moves), crash (exits with code 3 at its third move), slow (sleeps 10 s
before every move, past every deadline the tests set), garbage (prints a line that is not
JSON before every move), stray (prints `-24` and `{"score": 3}`, JSON but not messages,
before every move), illegal (answers a move that is not legal), silent (never answers
hello), orphan (starts a child that ignores SIGTERM, then never answers a move), heir (at its
third move starts a child that keeps its stdout open, then exits with code 4), busy (uses
0.1 s of CPU before every move), nap (sleeps 0.1 s before every move), clock (writes each
request's `clock` to stderr as `clock: {...}`, and answers an illegal move when a request
has none), sleepy (sleeps 0.5 s before every move), flood (answers its second move with a
20 MB line, its move inside), starved (uses 20 ms of CPU a move at 5% of a core, 1 ms
at a time: 0.4 s of wall time, as a program on a machine that starves it). MARKER
only makes the processes findable.
"""

import json
import random
import subprocess
import sys
import time

mode = sys.argv[1]
moves_made = 0


def send(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


for line in sys.stdin:
    try:
        message = json.loads(line)
    except ValueError:
        continue
    kind = message.get("type")
    if kind == "hello":
        if mode == "silent":
            continue
        send({"type": "ready", "name": "broken-" + mode})
    elif kind == "ping":
        send({"type": "pong", "id": message.get("id")})
    elif kind == "move":
        moves_made += 1
        if mode == "crash" and moves_made == 3:
            print("crashing on purpose", file=sys.stderr, flush=True)
            sys.exit(3)
        if mode == "heir" and moves_made == 3:
            subprocess.Popen([sys.executable, "-c", "import time; time.sleep(120)", sys.argv[2]])
            print("exiting, my child keeps stdout", file=sys.stderr, flush=True)
            sys.exit(4)
        if mode == "slow":
            time.sleep(10.0)
        if mode == "busy":
            start = time.process_time()
            while time.process_time() - start < 0.1:
                pass
        if mode == "starved":
            spent = time.process_time()
            while time.process_time() - spent < 0.02:
                burst = time.process_time()
                while time.process_time() - burst < 0.001:
                    pass
                time.sleep(0.019)
        if mode == "nap":
            time.sleep(0.1)
        if mode == "sleepy":
            time.sleep(0.5)
        if mode == "clock":
            clock = message.get("clock")
            print("clock: " + json.dumps(clock, sort_keys=True), file=sys.stderr, flush=True)
            if not clock or "p1_ms" not in clock or "p2_ms" not in clock:
                send({"type": "move", "move": "no-clock"})
                continue
        if mode == "flood" and moves_made == 2:
            reply = {"type": "move", "move": random.choice(message["legal"]), "pad": "x" * (20 << 20)}
            sys.stdout.write(json.dumps(reply) + "\n")
            sys.stdout.flush()
            continue
        if mode == "garbage":
            sys.stdout.write("thinking very hard...\n")
        if mode == "stray":
            print(-24)  # a student's print(score): valid JSON, but not a message
            print(json.dumps({"score": 3}))
        # Its second move of every game (a program is reused across games, so a count of
        # moves over its life would let it play legal moves, and win, from game two on).
        if mode == "illegal" and message.get("ply") in (2, 3):
            send({"type": "move", "move": "a1-h8"})
            continue
        if mode == "orphan":
            subprocess.Popen([
                sys.executable, "-c",
                "import signal, time; signal.signal(signal.SIGTERM, signal.SIG_IGN); time.sleep(120)",
                sys.argv[2],
            ])
            time.sleep(120)
        send({"type": "move", "move": random.choice(message["legal"]), "info": {"depth": 1, "nodes": 7}})
    elif kind == "quit":
        break
