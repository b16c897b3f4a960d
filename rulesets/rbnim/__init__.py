"""Red-Blue Nim (UTA CSE 4308/5360, Assignment 2): graded on correct search, not on winning.

Two kinds of submission: the module (RULESET: shim, probes) and the command-line program
(CONSOLE_PROGRAM, driven by grader/console_driver.py).
"""
from __future__ import annotations

from pathlib import Path

from rulesets.base import Defaults, Policy, Ruleset
from rulesets.replies import INVALID, Int, OneOf, Seq, Str

from .console_program import CONSOLE_PROGRAM
from .engine import RBNimGame, RBNimState
from .evaluate import evaluate
from .probes import probes

PLAYERS = Path(__file__).resolve().parent / "players"

RULESET = Ruleset(
    name="rbnim",
    title="Red-Blue Nim (UTA CSE 4308/5360, Assignment 2)",
    version=RBNimGame.version,
    game=RBNimGame,
    shim="rulesets.rbnim.shim",
    entry="red_blue_nim.py",
    defaults=Defaults(first_move_s=10, move_s=5, kill_after_s=1.0, memory_mb=500, max_submission_mb=10,
                      policy=Policy(on_late="forfeit", on_illegal="forfeit", on_error="forfeit", on_none="forfeit")),
    move_call="choose_move()",
    players={"perfect": PLAYERS / "perfect", "random": PLAYERS / "random"},
    probes=probes,
    replies={name: OneOf(Seq(Str(max_len=20), Int()), INVALID, text='[pile, count] or {"invalid": ...}')
             for name in ("move", "choose")},
    description="Two piles, take 1 or 2 marbles from one; facing an empty pile loses (standard) or wins "
                "(misère) 2 per red and 3 per blue left; choose_move(red, blue, version, depth=None).",
    board_script=Path(__file__).resolve().parent / "board.js",
    console=CONSOLE_PROGRAM,
    sample_replies={"move": (["red", 2], ["blue", 1], {"invalid": "no"}), "choose": (["red", 1], ["blue", 2])},
    loose_replies={"choose": ("red 2",)},
    evaluator=evaluate,
)

__all__ = ["CONSOLE_PROGRAM", "RULESET", "RBNimGame", "RBNimState"]
