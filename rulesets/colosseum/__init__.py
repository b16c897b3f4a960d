"""Colosseum Survival! (McGill COMP 424, Winter 2022) as a grader ruleset. See README.md here."""
from __future__ import annotations

from pathlib import Path

from rulesets.base import Defaults, Policy, Ruleset
from rulesets.replies import INVALID, Int, OneOf, Seq

from .engine import ColosseumGame, ColosseumState
from .probes import probes

PLAYERS_DIR = Path(__file__).resolve().parent / "players"


def board_start(state: ColosseumState) -> dict:
    """What a replay record carries for board.js: the start board Python's RNG drew from the seed
    (its size, the barriers, the players' cells)."""
    return {"board_size": state.size, "barriers": [list(b) for b in state.barriers()],
            "positions": [list(p) for p in state.positions]}


RULESET = Ruleset(
    name="colosseum",
    title="Colosseum Survival! (McGill COMP 424, Winter 2022)",
    version=ColosseumGame.version,
    game=ColosseumGame,
    shim="rulesets.colosseum.shim",
    entry="student_agent.py",
    # the PDF: 30 s for the first move, 2 s after; late, invalid, None or crashing → random walk
    # (World.step catches every exception), not a loss; a gross overrun (here 10x the limit) or more
    # than 500 MB → loss. The course's simulator timed each step with time.time(): wall-clock time
    defaults=Defaults(first_move_s=30.0, move_s=2.0, kill_factor=10.0, kill_after_s=0.0, clock="wall",
                      memory_mb=500,
                      policy=Policy(on_late="random", on_illegal="random", on_error="random", on_none="random")),
    move_call="step()",
    requirements=Path(__file__).resolve().parent / "requirements.txt",   # NumPy 1.x, as the course pinned
    python=(3, 9),                     # the PDF: "CentOS 7, Python 3.9" for the tournament
    players={"random": PLAYERS_DIR / "random", "baseline": PLAYERS_DIR / "baseline"},
    probes=probes,
    replies={"move": OneOf(Seq(Seq(Int(), Int()), Int()), INVALID, text='[[row, col], dir] or {"invalid": ...}')},
    description="Two players walk up to K=(M+1)//2 steps on an M x M board and wall one side of "
                "their cell each turn; when the walls separate them, the larger region wins.",
    board_script=Path(__file__).resolve().parent / "board.js",
    board_start=board_start,
    sample_replies={"move": ([[0, 0], 1], [[2, 3], 0], {"invalid": "no"})},
    loose_replies={"move": ([1, 2, 3],)},           # a flat [row, col, dir]: parse_move reads it too
)

__all__ = ["RULESET", "ColosseumGame", "ColosseumState"]
