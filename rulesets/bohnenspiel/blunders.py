"""An obviously losing Bohnenspiel move, for the league's collusion check (grader/collusion.py).

A move counts when, one ply ahead (the beans it captures minus the most the opponent can capture
at once in reply), it comes out at least GIVEAWAY beans worse than the best move available: the
greedy baseline's horizon, so only moves that hand the opponent a large capture count. Skips are
not judged.
"""
from __future__ import annotations

GIVEAWAY = 6


def _net(state, move, seat: int) -> int:
    branch = state.copy()
    mine, theirs = branch.scores[seat], branch.scores[1 - seat]
    branch.play(move)
    gain = (branch.scores[seat] - mine) - (branch.scores[1 - seat] - theirs)   # an ending hands over the rest
    if branch.to_move is None:
        return gain
    best_reply = 0
    other = branch.to_move
    for reply in branch.legal_moves():
        answer = branch.copy()
        start = answer.scores[other]
        answer.play(reply)
        best_reply = max(best_reply, answer.scores[other] - start)
    return gain - best_reply


def blunder(state, move) -> bool | None:
    if not (isinstance(move, tuple) and move and move[0] == "pit"):
        return None
    seat = state.to_move
    options = [m for m in state.legal_moves() if isinstance(m, tuple) and m and m[0] == "pit"]
    if len(options) < 2:
        return None
    nets = {m: _net(state, m, seat) for m in options}
    return max(nets.values()) - nets[move] >= GIVEAWAY
