"""Quoridor-like obstacle game (CTU B3B33ALP, BRUTE, 2017/18): engine, student API, probes."""
from __future__ import annotations

from pathlib import Path

from rulesets.base import Defaults, Policy, Ruleset

from .engine import QuoridorGame, QuoridorState
from .blunders import blunder
from .probes import probes

PLAYERS = Path(__file__).resolve().parent / "players"

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
    players={"random": PLAYERS / "random", "baseline": PLAYERS / "baseline"},
    probes=probes,
    blunder=blunder,
    description="Pawns race to the far row on a sizex x sizey board (9x9), m = 4 two-cell obstacles "
                "each, no jumping; Player(name).initialization(...), make_move(), opponent_move(t, r), "
                "expand_player(), expand_obstacles(); probes check both generators.",
)

__all__ = ["RULESET", "QuoridorGame", "QuoridorState"]
