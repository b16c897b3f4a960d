"""The adaptive format in a real league (validation of real submissions, the wave loop in
grader/league.py, the store, the standings): a field with an obvious top set, whose games a test
executor decides from known strengths, must come out with the round robin's top set on fewer games.

The executor plays no moves, so the figures do not depend on the machine's speed; a game's result
is a function of its seed (a replayed game gives the same result), as a real game's is. Players are
started only to validate them (in the default start mode): what is tested here is the schedule.
"""
from __future__ import annotations

import math
import random
import shutil
from pathlib import Path

import yaml

from grader.assignment import load_assignments
from grader.executors import Executor
from grader.league import run_league
from grader.match import GameResult

ROOT = Path(__file__).resolve().parents[2]
# s00..s02 far above the rest (a gap of 2, about 88 % a game against s03), then a close field
STRENGTH = {f"s{k:02d}": (6.0 - k * 0.5 if k < 3 else 2.0 - k * 0.15) for k in range(12)}


class StrengthGames(Executor):
    """Bradley–Terry games between the students of STRENGTH, the coin drawn from the game's seed."""

    def __init__(self):
        self.rounds: list[str] = []

    def play(self, assignment, jobs, factory=None, skip=None):
        for key, spec, _, _ in jobs:
            if skip and skip(spec):
                continue
            self.rounds.append(spec.round)
            p = 1 / (1 + math.exp(STRENGTH[spec.seat1] - STRENGTH[spec.seat0]))
            first_wins = random.Random(f"{spec.seed}/{spec.game_index}").random() < p
            yield key, spec, GameResult((1.0, 0.0) if first_wins else (0.0, 1.0), (0, 0), "simulated", "")


def league(tmp_path: Path, fmt: str, seed: int = 4):
    folder = tmp_path / "subs"
    if not folder.exists():
        for sid in STRENGTH:
            shutil.copytree(ROOT / "submissions" / "colosseum" / "baseline_student", folder / sid)
            with open(folder / sid / "student_agent.py", "a", encoding="utf-8") as f:
                f.write(f"\n# {sid}\n")
    config = tmp_path / f"{fmt}.yaml"
    config.write_text(yaml.safe_dump({"assignments": {fmt: {
        "ruleset": "colosseum", "submissions": "subs", "game": {"board_size": 6},
        "validation": {"smoke_games": 0, "stages": {"legal_moves": {"required": False}}},
        "league": {"format": fmt, "games_per_pair": 2, "seed": seed, "top_fraction": 0.25, "concurrency": 1,
                   "collusion": {"replay": False},
                   "adaptive": {"first_opponents": 2, "wave_opponents": 1, "budget": 0.5}}}}}),
        encoding="utf-8")
    executor = StrengthGames()
    run = run_league(load_assignments(config)[fmt], executor=executor, progress=False)
    ranked = [r.id for r in run.standings.rows if r.rank is not None]
    return ranked, executor.rounds


def test_the_adaptive_league_finds_the_round_robins_obvious_top_set_on_fewer_games(tmp_path):
    robin, robin_games = league(tmp_path, "round_robin")
    adaptive, adaptive_games = league(tmp_path, "adaptive")
    assert set(robin[:3]) == {"s00", "s01", "s02"}
    assert set(adaptive[:3]) == set(robin[:3])
    assert len(adaptive) == len(robin) == 12
    # on this seed the first wave's 30 games alone rank s10 third and s00 fourth (checked when the
    # test was written): only the later waves, spent around the cut, put s00 back
    assert {"wave 1", "wave 2"} <= set(adaptive_games)
    assert len(adaptive_games) <= len(robin_games) // 2
