"""The rules module of the game being played, and the bridge from a move request to it.

Each rules module (breakthrough, wights, double_card, chinese_checkers, connect_four,
othello) offers the same
functions on its own state type:

    from_json(position) -> state     the request's position (docs/protocol.md)
    to_move(state) -> 1 or 2
    moves(state) -> [move]           legal moves, ignoring whether the game is over
    notation(state, move) -> str     the move as arbiter writes it
    play(state, move) -> state       the position after the move
    winner(state) -> 1, 2, 0, None   who won (0: a draw) or None while the game goes on
    evaluate(state, side) -> number  how good the position looks for `side`
    order(state, move) -> number     move ordering key, promising moves smallest

and NO_MOVES, what happens to a side without a move ("loss" or "draw").
"""

import sys

import breakthrough
import chinese_checkers
import connect_four
import double_card
import othello
import wights

MODULES = {
    "breakthrough": breakthrough,
    "wights": wights,
    "double-card": double_card,
    "chinese-checkers": chinese_checkers,
    "connect-four": connect_four,
    "othello": othello,
}


def for_game(spec):
    """The rules module of a game spec such as `double-card(p1=dots)`."""
    name = spec.split("(")[0].strip()
    if name not in MODULES:
        raise ValueError("no rules for game '%s' in these examples" % spec)
    return MODULES[name]


class RulesMismatch(Exception):
    """These rules disagree with arbiter's legal moves."""


def root(request):
    """(rules module, state, moves): the request's position and its legal moves as the
    module's moves, in the order of request.legal.

    With the agent option `check_rules` set, the module's own move list must equal
    arbiter's: a difference is written to stderr and ends the program (arbiter then
    records a crash), which is how the tests hold these rules to arbiter's.
    """
    game = for_game(request.game.spec)
    state = game.from_json(request.position)
    mine = {game.notation(state, move): move for move in game.moves(state)}
    if request.options.get("check_rules"):
        theirs = set(request.legal)
        if set(mine) != theirs:
            print("rules mismatch at ply %d: only arbiter has %s; only these rules have %s"
                  % (request.ply, sorted(theirs - set(mine))[:5], sorted(set(mine) - theirs)[:5]),
                  file=sys.stderr, flush=True)
            sys.exit(3)
    missing = [text for text in request.legal if text not in mine]
    if missing:
        raise RulesMismatch("moves these rules do not know: %s" % missing[:5])
    return game, state, [mine[text] for text in request.legal]
