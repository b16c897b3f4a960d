"""The move that lost the game: what finding it costs per game, beside what playing the game cost.

Real games between built-in players (sandboxed processes, as a league plays them), then the
analysis of each game's losing seat with the league's node budget (grader/losing_move.py): an
exact solve for Red-Blue Nim, the bounded alpha-beta estimate for Bohnenspiel.
"""
from __future__ import annotations

import tempfile
import time
from pathlib import Path

from grader.assignment import resolve
from grader.config import AssignmentConfig
from grader.losing_move import GAME_NODES, losing_move, result_of
from grader.match import play_game
from grader.submissions import builtin

GAMES = 6
PAIRS = {"rbnim": ("random", "perfect", {"red": 8, "blue": 10}), "bohnenspiel": ("random", "greedy", {})}


def _measure(name: str, weak: str, strong: str, params: dict, folder: Path) -> dict:
    a = resolve(name, AssignmentConfig(ruleset=name, submissions=".", game=params), folder)
    players = builtin(a.ruleset, weak), builtin(a.ruleset, strong)
    played = analysed = 0.0
    found, label, plies = 0, "none found", 0
    for seed in range(GAMES):
        seats = players if seed % 2 == 0 else players[::-1]
        t0 = time.perf_counter()
        result = play_game(a, *seats, seed=seed)
        played += time.perf_counter() - t0
        plies += len(result.moves)
        for seat in (0, 1):
            if result_of(result.points, seat) == 1:
                continue
            t0 = time.perf_counter()
            lost = losing_move(a.ruleset, a.game, seed, result.moves, seat)
            analysed += time.perf_counter() - t0
            if lost is not None:
                found, label = found + 1, lost.label
    return {"ruleset": name, "players": f"{weak} vs {strong}", "plies/game": f"{plies / GAMES:.0f}",
            "game ms": f"{1e3 * played / GAMES:.0f}", "feedback ms/game": f"{1e3 * analysed / GAMES:.1f}",
            "feedback / game": f"{analysed / played:.2f}", "losing moves found": f"{found}/{GAMES}",
            "kind": label}


def run():
    with tempfile.TemporaryDirectory() as tmp:
        rows = [_measure(name, *pair, Path(tmp)) for name, pair in PAIRS.items()]
    return f"The move that lost the game: its cost per game ({GAMES} games each, {GAME_NODES} nodes a game)", rows
