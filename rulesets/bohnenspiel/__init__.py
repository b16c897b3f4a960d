"""Das Bohnenspiel (McGill COMP 424, Winter 2017): the final release's rules and student API."""
from __future__ import annotations

from pathlib import Path

from rulesets.base import Defaults, JavaApi, Policy, Ruleset
from rulesets.lines import JsonStateLines
from rulesets.replies import INVALID, OneOf, Str

from .blunders import blunder
from .engine import BohnenspielGame, BohnenspielState
from .evaluate import evaluate
from .moves import move_label
from .probes import probes

PLAYERS = Path(__file__).resolve().parent / "players"


class BohnenspielLines(JsonStateLines):
    """Programs in any language: the position as JSON on a line, the move back ("PIT 0 3", "skip")."""

    API_NAMES = ("StudentPlayer",)

RULESET = Ruleset(
    name="bohnenspiel",
    title="Das Bohnenspiel (McGill COMP 424, 2017)",
    version=BohnenspielGame.version,
    game=BohnenspielGame,
    shim="rulesets.bohnenspiel.shim",
    entry="student_player.py",
    # the course's server timed each move on the wall clock (its timeout thread)
    defaults=Defaults(first_move_s=30, move_s=0.7, kill_after_s=1.0, memory_mb=500, max_submission_mb=10, clock="wall",
                      # boardgame.Client: a chooseMove that throws an Exception or returns null → a random
                      # move; it catches Exception only, so an Error (StackOverflowError) ends the client
                      # (its finally closes the socket) and boardgame.Server, reading end-of-stream and no
                      # IOException, plays a random move at each of that player's later timeouts;
                      # boardgame.Server: late → a random move, illegal → "ILLEGAL MOVE", the game lost
                      policy=Policy(on_late="random", on_illegal="forfeit", on_error="random", on_none="random",
                                    on_uncaught="random_rest")),
    move_call="choose_move()",
    players={"random": PLAYERS / "random", "greedy": PLAYERS / "greedy"},
    probes=probes,
    blunder=blunder,
    replies={"move": OneOf(Str(max_len=200), INVALID, text='a move like "PIT 0 3" or {"invalid": ...}')},
    description="Mancala on 2×6 pits: capture 2, 4 or 6 backwards, two skips per player, "
                "200-turn cap; StudentPlayer(BohnenspielPlayer).choose_move(board_state).",
    java=JavaApi(sources=Path(__file__).resolve().parent / "java", bridge="bohnenspiel.GraderBridge"),
    lines=BohnenspielLines,
    board_script=Path(__file__).resolve().parent / "board.js",
    sample_replies={"move": ("PIT 0 3", "SKIP 1", "pit 4")},
    loose_replies={"move": (["pit", 2], {"move_type": "PIT", "pit": 1})},
    move_reply=move_label,             # the shim sends the course's transport text, not the stored form
    evaluator=evaluate,
)

__all__ = ["RULESET", "BohnenspielGame", "BohnenspielState"]
