"""Connect Four, refereed by a Java program (referee/Main.java): a ruleset whose rules are a trusted
program in any language (grader/referee.py; docs/NEW_GAME.md, "A referee in any language")."""
from __future__ import annotations

from pathlib import Path

from rulesets.base import Defaults, Policy, Ruleset
from rulesets.legal_probe import legal_move_probes
from rulesets.lines import JsonStateLines
from rulesets.replies import INVALID, Int, OneOf, Str

from .rules import REFEREE, Connect4Game

HERE = Path(__file__).resolve().parent

class Connect4Lines(JsonStateLines):
    """A program in any language: each turn one line (the position as JSON, with "seat"), one line back (a column)."""

    API_NAMES = ("StudentAgent",)


RULESET = Ruleset(
    name="connect4_java",
    title="Connect Four (Java referee)",
    version=Connect4Game.version,
    game=Connect4Game,
    shim="rulesets.connect4_java.shim",
    entry="student_agent.py",
    defaults=Defaults(first_move_s=10.0, move_s=1.0, policy=Policy()),
    move_call="step()",
    players={"random": HERE / "players" / "random"},
    probes=legal_move_probes,
    lines=Connect4Lines,
    # a program's reply is its line, which the referee reads
    replies={"move": OneOf(Int(), Str(max_len=40), INVALID, text='a column number or {"invalid": ...}')},
    sample_replies={"move": (0, 3, 6, "4", {"invalid": "no"})},
    description="Connect Four on a 6 x 7 board, its rules a Java referee; "
                "StudentAgent().step(board, me) -> column, board[row][col] -1 empty, else the seat, row 0 the bottom.",
)

__all__ = ["REFEREE", "RULESET"]
