"""Hostile agents for arbiter's sandbox tests: `hostile.py MODE MARKER [TARGET]`.

At its first move the agent tries something a sandbox must stop, then plays random legal
moves. When the attempt works (the sandbox failed), it answers the move `escaped`, which
is illegal: the game's reason says so. MODE:
  read TARGET      read a file outside its folder (another agent's)
  write TARGET     create a file TARGET outside its folder
  connect PORT     open a TCP connection to 127.0.0.1:PORT
  fork             fork until fork fails (each child sleeps); stops at 5000 unconfined
  memory           fill 10 GB of memory
  setsid           start a child in a session of its own that ignores SIGTERM
  hang             never answer a move (after starting a setsid child as above)
  environ NAME     look for variable NAME in the environment of every process it can see
                   (/proc/*/environ) and in its own
  ptrace           ptrace-attach to every process it can see but itself (process 1 first)
  limits           say its CPU-time and file-size limits on stderr (then play fairly)
  cpu              compute for ever
  spray            write 64 files of 1 MB each into its scratch folder and /tmp, each
                   under the file-size limit, together far over it (the write that finds
                   no room fails, and the agent dies of the exception)
MARKER only makes the processes findable.
"""

import ctypes
import json
import os
import random
import socket
import subprocess
import sys
import time

mode = sys.argv[1]
marker = sys.argv[2]
target = sys.argv[3] if len(sys.argv) > 3 else ""
rng = random.Random(1)


def send(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def say(text):
    print(text, file=sys.stderr, flush=True)


def leave_a_child():
    code = (
        "import os, signal, time; os.setsid(); "
        "signal.signal(signal.SIGTERM, signal.SIG_IGN); time.sleep(300)"
    )
    # The child calls setsid() itself (Popen(start_new_session=True) would make it a
    # session leader first, and its own setsid() would then fail).
    subprocess.Popen([sys.executable, "-c", code, marker])


def attempt():
    """True when the hostile act worked."""
    if mode == "read":
        try:
            with open(target) as f:
                say("read: " + f.read(40))
            return True
        except OSError as e:
            say("read blocked: %s" % e)
    elif mode == "write":
        try:
            with open(target, "w") as f:
                f.write("written from a sandbox\n")
            return True
        except OSError as e:
            say("write blocked: %s" % e)
    elif mode == "connect":
        try:
            socket.create_connection(("127.0.0.1", int(target)), timeout=2).close()
            return True
        except OSError as e:
            say("connect blocked: %s" % e)
    elif mode == "fork":
        children = 0
        while children < 5000:
            pid = os.fork()
            if pid == 0:
                time.sleep(60)
                os._exit(0)
            children += 1
        return True
    elif mode == "memory":
        hog = b"x" * (10 * 1024**3)
        return len(hog) > 0
    elif mode == "environ":
        found = target in os.environ
        pids = sorted(p for p in os.listdir("/proc") if p.isdigit())
        for pid in pids:
            try:
                with open("/proc/%s/environ" % pid, "rb") as f:
                    names = [v.split(b"=", 1)[0] for v in f.read().split(b"\0")]
            except OSError as e:
                say("environ of %s blocked: %s" % (pid, e))
                continue
            if target.encode() in names:
                say("environ: %s found in process %s" % (target, pid))
                found = True
        say("environ looked at processes %s" % " ".join(pids))
        return found
    elif mode == "ptrace":
        libc = ctypes.CDLL(None, use_errno=True)
        attach, detach = 16, 17
        pids = sorted((int(p) for p in os.listdir("/proc") if p.isdigit()))
        for pid in [1] + [p for p in pids if p != 1]:
            if pid == os.getpid():
                say("ptrace: process %d is this agent" % pid)
                continue
            if libc.ptrace(attach, pid, None, None) == 0:
                say("ptrace: attached to process %d" % pid)
                try:
                    os.waitpid(pid, 0x40000000)  # __WALL: until the tracee stops
                except OSError:
                    pass
                libc.ptrace(detach, pid, None, None)
                return True
            say("ptrace of %d blocked: %s" % (pid, os.strerror(ctypes.get_errno())))
    elif mode == "cpu":
        while True:
            pass
    elif mode == "spray":
        for i in range(64):
            folder = os.environ.get("HOME", "/tmp") if i % 2 else "/tmp"
            with open(os.path.join(folder, "part%d" % i), "wb") as f:
                f.write(b"x" * (1 << 20))
        return True
    elif mode == "limits":
        import resource

        cpu = resource.getrlimit(resource.RLIMIT_CPU)[0]
        size = resource.getrlimit(resource.RLIMIT_FSIZE)[0]
        say("limits: cpu %d s, files %d MiB" % (cpu, size // (1024 * 1024)))
    elif mode in ("setsid", "hang"):
        leave_a_child()
    return False


moves = 0
for line in sys.stdin:
    try:
        message = json.loads(line)
    except ValueError:
        continue
    kind = message.get("type")
    if kind == "hello":
        send({"type": "ready", "name": "hostile-" + mode})
    elif kind == "ping":
        send({"type": "pong", "id": message.get("id")})
    elif kind == "move":
        moves += 1
        if moves == 1 and attempt():
            send({"type": "move", "move": "escaped"})
            continue
        if mode == "hang":
            time.sleep(600)
        send({"type": "move", "move": rng.choice(message["legal"])})
    elif kind == "quit":
        break
