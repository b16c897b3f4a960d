"""The rules of Connect Four: the Java referee in referee/ (grader/referee.py runs it), declared here."""
from __future__ import annotations

from pathlib import Path

from grader.referee import RefereeGame
from rulesets.base import Referee

REFEREE = Referee(sources=Path(__file__).resolve().parent / "referee",
                  title="the Connect Four referee (referee/Main.java)", params={"rows": 6, "cols": 7})


class Connect4Game(RefereeGame):
    """The game whose every rule is the referee's."""

    name = "connect4_java"
    version = "1"
    referee = REFEREE
