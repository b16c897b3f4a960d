"""Quoridor-like obstacle game (CTU B3B33ALP, BRUTE, 2017/18): engine, student API, probes."""
from __future__ import annotations

from pathlib import Path

from rulesets.base import Defaults, Policy, Ruleset
from rulesets.replies import INVALID, Const, Int, ListOf, Null, Obj, OneOf, Seq

from .blunders import blunder
from .engine import QuoridorGame, QuoridorState
from .probes import probes

EDGE = Seq(Int(), Int(), Int(), Int())

PLAYERS = Path(__file__).resolve().parent / "players"


def board_start(state: QuoridorState) -> dict:
    """What a replay record carries for board.js: the start columns and initial obstacles, which
    Python's RNG may draw from the seed (start: random, initial_obstacles: a count)."""
    return {"pos": [list(p) for p in state.pos], "walls": [list(w) for w, _by, _ply in state.walls]}


RULESET = Ruleset(
    name="quoridor",
    title="Quoridor-like obstacle game (CTU B3B33ALP, BRUTE)",
    version=QuoridorGame.version,
    game=QuoridorGame,
    shim="rulesets.quoridor.shim",
    entry="player.py",
    # BRUTE's limits are not stated on the assignment page: 30 s for set-up and the first move
    # (imports, precomputation), 2 s a move (a BFS per candidate wall on 9x9 takes milliseconds).
    defaults=Defaults(first_move_s=30, move_s=2,
                      policy=Policy(on_late="forfeit", on_illegal="disqualify", on_error="forfeit")),
    move_call="make_move()",
    players={"random": PLAYERS / "random", "baseline": PLAYERS / "baseline"},
    probes=probes,
    blunder=blunder,
    replies={"move": OneOf(Obj({"type": Null()}), Obj({"type": Const(1), "pos": Seq(Int(), Int())}),
                           Obj({"type": Const(2), "edges": Seq(EDGE, EDGE)}), INVALID,
                           text='{"type": null}, {"type": 1, "pos": [x, y]}, {"type": 2, "edges": [e1, e2]}'),
             "expand_player": OneOf(ListOf(Seq(Int(), Int())), INVALID, text="a list of [x, y]"),
             "expand_obstacles": OneOf(ListOf(Seq(EDGE, EDGE)), INVALID,
                                       text="a list of obstacle pairs [[fx, fy, tx, ty], [fx, fy, tx, ty]]")},
    description="Pawns race to the far row on a sizex x sizey board (9x9), m = 4 two-cell obstacles "
                "each, no jumping; Player(name).initialization(...), make_move(), opponent_move(t, r), "
                "expand_player(), expand_obstacles(); probes check both generators.",
    board_script=Path(__file__).resolve().parent / "board.js",
    board_start=board_start,
    sample_replies={"move": ({"type": 1, "pos": [4, 1]}, {"type": None},
                             {"type": 2, "edges": [[0, 0, 0, 1], [1, 0, 1, 1]]}, {"invalid": "no"}),
                    "expand_player": ([[0, 0], [1, 2]], [[4, 1]], []),
                    "expand_obstacles": ([[[0, 0, 0, 1], [1, 0, 1, 1]]], [[[3, 0, 3, 1], [4, 0, 4, 1]]], [])},
)

__all__ = ["RULESET", "QuoridorGame", "QuoridorState"]
