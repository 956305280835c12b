"""Plays seeded random games of EinStein wurfelt nicht! in arbiter (`arbiter serve-game
einstein`, the game protocol) and in OpenSpiel (`einstein_wurfelt_nicht`) side by side,
for tests/openspiel.rs: `einstein_openspiel.py ARBITER GAMES SEED`.

At every position both must list the same legal moves (OpenSpiel's actions written in
arbiter's notation: its board turned half a turn, so that its white, who moves first, is
arbiter's P1 in the corner a1), and both games must end together with the same winner.
Chance's outcomes are compared too: both sides' 720 placements and the die's faces.
Prints one line per game, `game N: plies P, winner W, reason R`, or `MISMATCH ...` and
exits 1.
"""

import itertools
import json
import random
import subprocess
import sys

import pyspiel

ROW_STEP = [1, 1, 0, -1, -1, 0]
COLUMN_STEP = [1, 0, 1, 0, -1, -1]
PLACEMENTS = list(itertools.permutations(range(1, 7)))


def cell(row, column):
    """OpenSpiel's (row, column) as arbiter's cell name."""
    return "abcde"[4 - column] + str(5 - row)


def placement_text(index):
    """OpenSpiel's placement `index` (numbers on the home cells, highest cell first) as
    arbiter writes it: the numbers on the home cells, lowest cell first."""
    return "setup" + "".join(str(n) for n in reversed(PLACEMENTS[index]))


def move_text(action):
    row, rest = divmod(action, 5 * 6 * 2)
    column, rest = divmod(rest, 6 * 2)
    direction = rest // 2
    return cell(row, column) + "-" + cell(row + ROW_STEP[direction], column + COLUMN_STEP[direction])


class Arbiter:
    def __init__(self, exe):
        self.process = subprocess.Popen(
            [exe, "serve-game", "einstein"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
        )
        self.ask({"type": "hello", "protocol": 1, "game": "einstein", "params": {}})

    def ask(self, request):
        self.process.stdin.write(json.dumps(request) + "\n")
        self.process.stdin.flush()
        reply = json.loads(self.process.stdout.readline())
        if reply.get("type") == "error":
            raise SystemExit("MISMATCH arbiter: %s for %s" % (reply.get("message"), request))
        return reply

    def close(self):
        self.process.stdin.close()
        self.process.wait()


def main():
    exe, games, seed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    game = pyspiel.load_game("einstein_wurfelt_nicht")
    arbiter = Arbiter(exe)
    rng = random.Random(seed)
    for number in range(games):
        state = game.new_initial_state()
        position = arbiter.ask({"type": "initial"})["position"]
        # OpenSpiel places P2's (its black's) cubes first, arbiter P1's: both drawn here.
        black, white = rng.randrange(720), rng.randrange(720)
        for mine, index in (("P1", white), ("P2", black)):
            legal = arbiter.ask({"type": "legal", "position": position})["moves"]
            expected = sorted(placement_text(i) for i in range(720))
            if sorted(legal) != expected:
                print("MISMATCH game %d: %s's placements differ" % (number, mine))
                return 1
            position = arbiter.ask({"type": "apply", "position": position, "move": placement_text(index)})["position"]
        state.apply_action(black)
        state.apply_action(white)
        plies = 2
        while True:
            status = arbiter.ask({"type": "status", "position": position})
            if state.is_terminal() or status.get("over"):
                if not (state.is_terminal() and status.get("over")):
                    print("MISMATCH game %d ply %d: OpenSpiel over %s, arbiter %s" % (number, plies, state.is_terminal(), status))
                    return 1
                winner = "P1" if state.returns()[1] > 0 else "P2"
                if status.get("winner") != winner:
                    print("MISMATCH game %d: OpenSpiel's winner %s, arbiter's %s" % (number, winner, status))
                    return 1
                print("game %d: plies %d, winner %s, reason %s" % (number, plies, winner, status.get("reason")))
                break
            legal = arbiter.ask({"type": "legal", "position": position})["moves"]
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                expected = ["roll%d" % (action + 1) for action, _ in outcomes]
                action = rng.choice([a for a, _ in outcomes])
                text = "roll%d" % (action + 1)
            else:
                to_move = "P1" if state.current_player() == 1 else "P2"
                if status.get("to_move") != to_move:
                    print("MISMATCH game %d ply %d: to move %s against %s" % (number, plies, status, to_move))
                    return 1
                actions = state.legal_actions()
                expected = [move_text(a) for a in actions]
                action = rng.choice(actions)
                text = move_text(action)
            if sorted(legal) != sorted(expected):
                print("MISMATCH game %d ply %d: arbiter %s, OpenSpiel %s\n%s" % (number, plies, sorted(legal), sorted(expected), state))
                return 1
            state.apply_action(action)
            position = arbiter.ask({"type": "apply", "position": position, "move": text})["position"]
            plies += 1
    arbiter.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
