"""How much one check of a submission may cost: bounded by its stages' limits, never by the machine's load.

A check (grader/validation.py) is a build, an interface call, its probe stages' positions and its smoke
games, and every player call in it is already bounded by the sandbox. What bounds the whole check is
the sum of those limits, each at its kill time (soft x kill_factor + kill_after_s): a build's
`build_time_s`; per player start, the load and first-move allowance; per probe position, a move (and a
start when the position needs a fresh process), plus the restarts a stage may make (second opinions,
stopped players); per smoke game, a start and SMOKE_OWN_MOVES moves. `charged_s` is twice that plus
MARGIN_S: the CPU time the check's player processes may use together, spread over the cores they may
use, which a busy machine does not stretch. `wall_s` is the backstop for a machine too slow to finish
in time (WALL_FACTOR times as long): past it the grader, not the student, is at fault.
"""
from __future__ import annotations

from dataclasses import dataclass

from sandbox.limits import Limits

from .assignment import Assignment
from .validation import MAX_SECOND_OPINIONS, MAX_STOPPED

SMOKE_OWN_MOVES = 200      # a smoke game's moves by the student's player counted in the bound
MARGIN_S = 60.0            # the grader's pre-fork templates, interpreter starts and the players' exits
WALL_FACTOR = 20.0         # how much slower than its charged bound a loaded machine may run a check


@dataclass(frozen=True)
class JobBound:
    """A check's bound: the CPU seconds (over the players' cores) its players may use, and the wall backstop."""

    charged_s: float
    wall_s: float


def check_bound(assignment: Assignment) -> JobBound:
    """The bound of one check of a submission to `assignment`, from its stages' limits."""
    hard = Limits(kill_factor=assignment.kill_factor, kill_after_s=assignment.kill_after_s).hard_for
    move = hard(assignment.move_s)
    start = hard(assignment.load_s or assignment.first_move_s) + (hard(assignment.first_move_s)
                                                                  if assignment.load_s else 0.0)
    stages = assignment.config.programs.build_time_s + start + move          # the build and the interface
    for probe in assignment.probes():
        cases = probe.cases(assignment.game, 0)          # how many, and which need a fresh process
        stages += sum(move + (start if case.fresh else 0.0) for case in cases)
        stages += (MAX_SECOND_OPINIONS + MAX_STOPPED + 1) * (start + move)
    stages += assignment.config.validation.smoke_games * (start + SMOKE_OWN_MOVES * move)
    charged = 2 * stages + MARGIN_S
    return JobBound(charged_s=charged, wall_s=WALL_FACTOR * charged)
