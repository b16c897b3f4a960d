"""How one submission's player process is started: the ruleset's Python shim, or the program its
kind's row starts (grader/player_kinds.py: a Java player's JVM, a line-protocol program with the
ruleset's `lines` adapter) once grader/builds.py has built it in the sandbox (cached by content).

`player_kwargs` is what match.py and validation.py hand to the player factory. Nothing here is
game-specific.
"""
from __future__ import annotations

from typing import Any

from .assignment import Assignment
from .builds import build
from .player_kinds import kind_of
from .submissions import Submission


class BuildFailed(Exception):
    """The submission's sources did not build; str() is the sentence with the compiler's messages."""


def player_kwargs(assignment: Assignment, sub: Submission, cpu: int | None = None) -> dict[str, Any]:
    """The factory's arguments for this submission's player; BuildFailed if its build fails."""
    kwargs: dict[str, Any] = {"shim": assignment.ruleset.shim, "submission": str(sub.staged),
                              "limits": assignment.limits(cpu), "options": assignment.config.options,
                              "name": sub.display_name}
    kind = kind_of(assignment.ruleset, sub.staged)
    if kind is None:
        return kwargs
    built = build(assignment, sub)
    if not built.ok:
        raise BuildFailed(built.message + (f"\n{built.compiler}" if built.compiler else ""))
    kwargs["program"] = built.program
    if kind != "java":
        assert assignment.ruleset.lines is not None
        kwargs["lines"] = assignment.ruleset.lines()
    return kwargs
