"""Double Card (Concordia COMP 472/6721, Winter 2019): the engine, the student API and the probes."""
from __future__ import annotations

from pathlib import Path

from rulesets.base import Defaults, Policy, Ruleset
from rulesets.replies import INVALID, OneOf, Str

from .console_program import CONSOLE_PROGRAM
from .engine import DoubleCardGame, DoubleCardState
from .lines import DoubleCardLines
from .probes import probes

MOVE = OneOf(Str(max_len=200), INVALID, text='a move like "0 5 A 2" or {"invalid": ...}')

PLAYERS = Path(__file__).resolve().parent / "players"

RULESET = Ruleset(
    name="doublecard",
    title="Double Card (Concordia COMP 472/6721, 2019)",
    version=DoubleCardGame.version,
    game=DoubleCardGame,
    shim="rulesets.doublecard.shim",
    entry="player.py",
    defaults=Defaults(first_move_s=3, move_s=3, kill_after_s=1,
                      policy=Policy(on_late="forfeit", on_illegal="forfeit", on_error="forfeit", on_none="forfeit")),
    players={"random": PLAYERS / "random", "baseline": PLAYERS / "baseline"},
    probes=probes,
    replies={"move": MOVE},
    description="Two-segment cards on an 8×12 board, dots against colours, four in a line wins; "
                "recycling after 24 cards, draw at 60 moves (40 in the tournament); "
                "Player(role, first).opponent_move(text), choose_move() -> '0 5 A 2'.",
    lines=DoubleCardLines,
    board_script=Path(__file__).resolve().parent / "board.js",
    console=CONSOLE_PROGRAM,
    sample_replies={"move": ("0 5 A 2", "F 2 F 3 3 A 2", {"invalid": "no"})},
)

__all__ = ["CONSOLE_PROGRAM", "RULESET", "DoubleCardGame", "DoubleCardState"]
