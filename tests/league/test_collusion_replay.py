"""Replaying suspicious pairs before the collusion check (grader/collusion.py): at the course's two
games a pair a friend-and-thrower pair cannot be flagged, so pairs whose results against each other
are improbable play more seat-swapped twins until the corrected test decides.

The statistics run on simulated Bradley–Terry leagues (benchmarks/simulated_leagues.py); the last
test drives a real league (validation, scheduler, store, standings) whose games an executor
simulates, so the figures do not depend on a player's moves or on the machine's speed.
"""
from __future__ import annotations

import random
import shutil
from pathlib import Path

import pytest
import yaml

from benchmarks.simulated_leagues import SimulatedReplays, bt_result
from grader.assignment import load_assignments
from grader.collusion import REPLAY_ROUND, ReplaySettings, replay_pairs, replay_suspicious, result_flags
from grader.executors import Executor
from grader.league import league_games, run_league
from grader.match import GameResult
from grader.schedule import round_robin
from grader.store import Store

ROOT = Path(__file__).resolve().parents[2]


def _players(seed: int, n: int = 20) -> tuple[dict[str, float], tuple[str, str]]:
    """Strengths ~ N(1500, 200) Elo; the thrower is the strongest, its friend the median player."""
    rng = random.Random(seed)
    strengths = {f"s{i:02d}": rng.gauss(1500, 200) for i in range(n)}
    ranked = sorted(strengths, key=lambda s: -strengths[s])
    return strengths, (ranked[0], ranked[n // 2])


def _league(strengths, seed, lose_to=None) -> list[dict]:
    return [bt_result(strengths, s, lose_to) for s in round_robin(sorted(strengths), 2, seed)]


def _thrown(flags, pair) -> bool:
    return any((f.player, f.beneficiary) == pair for f in flags)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_a_thrower_at_two_games_a_pair_is_flagged_only_after_its_pair_is_replayed(seed):
    strengths, pair = _players(seed)
    games = _league(strengths, seed, pair)
    assert not _thrown(result_flags(games), pair)             # two games cannot be unlikely enough
    play = SimulatedReplays(strengths, games, seed, pair)
    everything, waves = replay_suspicious(games, strengths, ReplaySettings(), play)
    flags = result_flags(everything)
    assert [(f.player, f.beneficiary) for f in flags] == [pair]
    replayed = [g for g in everything if g["round"] == REPLAY_ROUND]
    assert 0 < len(replayed) < 0.1 * len(games) and waves >= 1
    assert "replayed because the first were improbable" in flags[0].sentence
    assert len(flags[0].games) <= ReplaySettings().max_games


@pytest.mark.parametrize("seed", range(3, 9))
def test_honest_leagues_stay_unflagged_after_their_replays(seed):
    strengths, _ = _players(seed)
    games = _league(strengths, seed)
    everything, _ = replay_suspicious(games, strengths, ReplaySettings(), SimulatedReplays(strengths, games, seed))
    assert result_flags(everything) == []


@pytest.mark.parametrize("kill_after", [1, 5, 12])
def test_replays_follow_from_the_seed_and_a_killed_run_resumes_with_the_same_games(kill_after):
    strengths, pair = _players(10)                           # a league whose replays take several waves
    games = _league(strengths, 10, pair)
    settings = ReplaySettings()
    first = SimulatedReplays(strengths, games, 10, pair)
    everything, waves = replay_suspicious(games, strengths, settings, first)
    again, _ = replay_suspicious(games, strengths, settings, SimulatedReplays(strengths, games, 10, pair))
    assert [g["id"] for g in everything] == [g["id"] for g in again]
    assert waves >= 3 and len(first.played) > kill_after

    store: dict[str, dict] = {}
    with pytest.raises(KeyboardInterrupt):
        replay_suspicious(games, strengths, settings, SimulatedReplays(strengths, games, 10, pair, store, kill_after))
    assert len(store) == kill_after
    resumed = SimulatedReplays(strengths, games, 10, pair, store)
    after, _ = replay_suspicious(games, strengths, settings, resumed)
    assert [g["id"] for g in after] == [g["id"] for g in everything]
    assert sorted(resumed.played) == sorted(set(first.played) - set(list(store)[:kill_after]))


def test_only_listed_players_are_replayed_and_a_pair_stops_at_its_cap():
    strengths, pair = _players(0)
    games = _league(strengths, 0, pair)
    assert pair[0] in {p for ps in replay_pairs(games, strengths, ReplaySettings()) for p in ps}
    assert replay_pairs(games, [s for s in strengths if s != pair[0]], ReplaySettings()) \
        == [p for p in replay_pairs(games, strengths, ReplaySettings()) if pair[0] not in p]
    capped = ReplaySettings(max_games=4)
    everything, _ = replay_suspicious(games, strengths, capped, SimulatedReplays(strengths, games, 0, pair))
    per_pair: dict[frozenset, int] = {}
    for g in everything:
        per_pair[frozenset((g["seat0"], g["seat1"]))] = per_pair.get(frozenset((g["seat0"], g["seat1"])), 0) + 1
    assert max(per_pair.values()) == 4
    assert replay_suspicious(games, strengths, ReplaySettings(replay=False), pytest.fail) == (games, 0)
    with pytest.raises(ValueError):
        ReplaySettings(max_games=1)


class SimulatedGames(Executor):
    """Plays no moves: the stronger (lower-numbered) student wins, except that s0 loses to s4."""

    def __init__(self):
        self.asked: list[str] = []

    def play(self, assignment, jobs, factory=None, skip=None):
        for key, spec, _, _ in jobs:
            self.asked.append(spec.round)
            a, b = (int(x.removeprefix("s")) if x.startswith("s") else 99 for x in (spec.seat0, spec.seat1))
            first_wins = a < b if {a, b} != {0, 4} else a == 4
            yield key, spec, GameResult((1.0, 0.0) if first_wins else (0.0, 1.0), (0, 0), "simulated", "")


def test_a_league_replays_the_thrower_pair_in_stored_labelled_games_that_never_count_in_the_standings(tmp_path):
    folder = tmp_path / "subs"
    for i in range(8):
        shutil.copytree(ROOT / "submissions" / "colosseum" / "baseline_student", folder / f"s{i}")
    config = tmp_path / "config.yaml"
    config.write_text(yaml.safe_dump({"assignments": {"arena": {
        "ruleset": "colosseum", "submissions": "subs", "game": {"board_size": 6},
        "validation": {"smoke_games": 0, "stages": {"legal_moves": {"required": False}}},
        "league": {"format": "round_robin", "games_per_pair": 2, "seed": 3, "builtins": ["random"],
                   "concurrency": 1}}}}), encoding="utf-8")
    assignment = load_assignments(config)["arena"]
    executor = SimulatedGames()
    run = run_league(assignment, executor=executor, progress=False)
    with Store(assignment.store_path) as store:
        games = league_games(assignment, store, run)
    replays = [g for g in games if g["round"] == REPLAY_ROUND]
    assert replays and {frozenset((g["seat0"], g["seat1"])) for g in replays} == {frozenset(("s0", "s4"))}
    assert executor.asked.count(REPLAY_ROUND) == len(replays) == run.collusion_replays
    assert f", {len(replays)} of them replaying suspicious pairs" in run.summary_line()
    assert [(f.player, f.beneficiary) for f in result_flags(games)] == [("s0", "s4")]
    assert {r.id: r.games for r in run.standings.rows}["s0"] == 2 * 8      # 7 students and random, twice
    again = run_league(assignment, executor=SimulatedGames(), progress=False)
    assert again.played == 0 and sorted(again.keys) == sorted(run.keys)
    assert again.collusion_replays == len(replays)

    off = yaml.safe_load(config.read_text())
    off["assignments"]["arena"]["league"]["collusion"] = {"replay": False}
    config.write_text(yaml.safe_dump(off), encoding="utf-8")
    fresh = run_league(load_assignments(config)["arena"], executor=SimulatedGames(), fresh=True, progress=False)
    assert REPLAY_ROUND not in {s.round for s in fresh.specs}
