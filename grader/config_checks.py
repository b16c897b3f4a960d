"""What a config says that only the grader can judge, checked when the assignments are loaded.

grader/config.py reads the schema and asks the ruleset, and stays a leaf. These checks need the
grader itself: the builds a course allows are rows of the kinds table (grader/player_kinds.py), a
console program's output patterns are the console driver's, and a grading formula is tried on an
empty league. grader/assignment.py `load_checked_config` runs them right after `load_config`, so a
broken config still fails at load, with one sentence naming the file and the key.
"""
from __future__ import annotations

from pathlib import Path

import rulesets
from rulesets.base import Ruleset

from .config import AssignmentConfig, Config, ConfigError
from .console_driver import check_patterns, console_kind
from .player_kinds import PROGRAMS


def check_config(path: Path, config: Config) -> None:
    """Every assignment of `config` (read from `path`), in order; ConfigError at the first problem."""
    for name, assignment in config.assignments.items():
        _check_builds(path, name, assignment)
        _check_grading(path, name, assignment)
        _check_console(path, name, assignment, rulesets.load(assignment.ruleset))


def _check_builds(path: Path, name: str, a: AssignmentConfig) -> None:
    """The builds a course allows are rows of the kinds table."""
    unknown = [b for b in a.programs.builds or () if b not in PROGRAMS]
    if unknown:
        raise ConfigError(f"{path}: assignments.{name}.programs.builds: unknown build {unknown[0]!r}: "
                          f"the builds are {', '.join(PROGRAMS)}.")


def _check_grading(path: Path, name: str, a: AssignmentConfig) -> None:
    """A grading formula is tried on an empty league: its mistakes show now, not after the games."""
    # here, not above: grading and standings load NumPy (~200-300 ms measured), which a league
    # worker's start (grader.executors, which loads grader.assignment and so this module) does not need
    from .grading import GradingConfigError, compute_grades
    from .standings import compute_standings

    try:
        if a.grading.kind != "validation":
            compute_grades(compute_standings([], []), a.grading.model_dump())
    except GradingConfigError as exc:
        raise ConfigError(f"{path}: assignments.{name}.grading: {exc}") from None


def _check_console(path: Path, name: str, a: AssignmentConfig, ruleset: Ruleset) -> None:
    """A command-line kind's settings need a ruleset that has one, and patterns its driver can use."""
    kind = console_kind(ruleset)
    if kind is None and (a.validation.kind == "program" or a.validation.program_patterns
                         or a.validation.submission_patterns):
        raise ConfigError(f"{path}: assignments.{name}.validation: {a.ruleset} has no command-line kind of "
                          f"submission, so kind must be auto or module and program_patterns and "
                          f"submission_patterns must be empty.")
    if kind is not None:
        for key, layers in [("program_patterns", [a.validation.program_patterns])] + [
                (f"submission_patterns.{sid}", [a.validation.program_patterns, own])
                for sid, own in a.validation.submission_patterns.items()]:
            try:
                check_patterns(kind, *layers)
            except ValueError as exc:
                raise ConfigError(f"{path}: assignments.{name}.validation.{key}: {exc}") from None
