"""What an assignment accepts as a submission, decided by the assignment alone.

Its ruleset's Python entry file always; the course's Java layout when the ruleset has a Java API;
a program in any language the builds recognise when the ruleset speaks a line protocol. Every
caller that stages submissions (the use cases, the league) takes these from here, so no front
door can forget one kind (issue 28: the upload service once refused Java and C++ players).
"""
from __future__ import annotations

from functools import partial
from pathlib import Path
from typing import TypedDict

from rulesets.base import JavaApi

from .assignment import Assignment
from .console_driver import console_kind, entry_file
from .player_kinds import PROGRAMS, detect, program_needs, single_file_suffixes
from .submissions import Programs, Submission, discover, load


class Kinds(TypedDict):
    """The keyword arguments of `submissions.load`/`discover` that say which kinds are accepted."""

    java: JavaApi | None
    program: Programs | None


def kinds(assignment: Assignment) -> Kinds:
    """The kinds of submission this assignment accepts beside its Python entry file."""
    lines = assignment.ruleset.lines
    api = lines.API_NAMES if lines is not None else None
    console = console_kind(assignment.ruleset)
    console = console if console is not None and console.any_entry else None
    if api is None and console is None:
        return Kinds(java=assignment.ruleset.java, program=None)
    builds = PROGRAMS if api is not None else ()
    also = ("a Python program that asks its questions at the console (main.py, game.py: any name)"
            if console is not None else "")        # the sentence for a folder that is none of them names it too
    program = Programs(partial(_program, api=api, console=console),
                       program_needs(tuple(b for b in builds if not (also and b == "python")), also),
                       single_file_suffixes(builds))
    return Kinds(java=assignment.ruleset.java, program=program)


def _program(staged: Path, api: tuple[str, ...] | None, console) -> str | None:
    """The build a folder asks for (`player_kinds.detect`, for a ruleset with a line protocol), else
    "console" for a console program whose script may have any name (console_driver.console_script)."""
    found = detect(staged, api) if api is not None else None
    if found is None and console is not None and entry_file(console, staged) is not None:
        return "console"
    return found


def stage(assignment: Assignment, path: Path, sub_id: str | None = None) -> Submission:
    """One submission staged as this assignment accepts it (problems in `.problem`, never raised)."""
    return load(path, assignment.ruleset.entry, assignment.max_submission_mb, sub_id=sub_id, **kinds(assignment))


def stage_all(assignment: Assignment) -> list[Submission]:
    """Every submission in the assignment's submissions folder, staged as `stage` does."""
    return discover(assignment.submissions_dir, assignment.ruleset.entry, assignment.max_submission_mb,
                    **kinds(assignment))
