"""An obviously losing Quoridor move, for the league's collusion check (grader/collusion.py).

A pawn step counts when it lengthens the mover's shortest path to its goal row while another
legal step would not have; walls and passes are not judged (whether a wall is bad takes search).
A player throwing games to a partner walks away from its goal against that partner only.
"""
from __future__ import annotations


def blunder(state, move) -> bool | None:
    if not (isinstance(move, tuple) and move and move[0] == "step"):
        return None
    seat = state.to_move
    steps = state.steps(seat)
    if len(steps) < 2:
        return None

    def after(s):
        branch = state.copy()
        branch.play(s)
        return branch.distance(seat)

    lengths = {s: after(s) for s in steps}
    if any(v is None for v in lengths.values()):
        return None
    return lengths[move] > min(lengths.values()) and lengths[move] > state.distance(seat)
