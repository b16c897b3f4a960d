"""A ruleset's command-line kind as one record: the course asked for a program that plays a person
at the console, and grader/console_driver.py plays its scenarios against it.

Each game fills in its own scenarios, patterns and the test that tells its program from its module
(rulesets/rbnim/console_program.py, rulesets/doublecard/console_program.py); the record's fields are
all the driver reads.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class ConsoleProgram:
    """What the grader's console driver needs: the script, its patterns, the scenarios, the points."""

    entry: str                                   # the script's name in the course's instructions
    patterns: dict[str, str]                     # name -> linear-time regex (or a template) read from its output
    scenarios: Callable[[], list]                # the games to play, each with a `play(console)` of its own
    is_program: Callable[[Any], bool]            # grader.python_source.Facts → is this source the program?
    entries: tuple[str, ...] = ()                # accepted names, first wins (default: `entry` only)
    any_entry: bool = False                      # a script of any name is taken (students named theirs freely)
    points: float = 10.0
    templates: tuple[str, ...] = ("human_answer",)   # patterns that are str.format templates, not regexes

    def names(self) -> tuple[str, ...]:
        """The script names tried, in order."""
        return self.entries or (self.entry,)
