"""Reproducible games: the same players, seed and settings give the same game in both start
modes, on every run, and a stored league game replays from its page's "Reproduce" line."""
from __future__ import annotations

import json
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

import rulesets
from grader import selftest
from grader.assignment import load_assignments, resolve
from grader.config import AssignmentConfig
from grader.league import run_league
from grader.match import play_game
from grader.outputs import grades_of_run, results_document
from grader.store import Store
from grader.submissions import builtin, load
from grader.validation import validate

ROOT = Path(__file__).resolve().parents[2]
SMALL = {"quoridor": {"sizex": 5, "sizey": 5}, "colosseum": {"board_size": 6}}


@pytest.mark.parametrize("ruleset", rulesets.names())
def test_random_builtins_play_the_same_game_twice_in_both_start_modes(ruleset, tmp_path):
    selftest.reproducible(rulesets.load(ruleset), SMALL.get(ruleset, {}), tmp_path)


def test_a_league_game_replays_from_its_reproduce_line(tmp_path):
    subs = tmp_path / "subs"
    shutil.copytree(ROOT / "rulesets" / "quoridor" / "players" / "random", subs / "dice")
    config = tmp_path / "config.yaml"
    config.write_text(yaml.safe_dump({"assignments": {"q": {
        "ruleset": "quoridor", "submissions": "subs", "game": SMALL["quoridor"],
        "validation": {"smoke_games": 0},
        "league": {"format": "round_robin", "games_per_pair": 2, "seed": 5, "builtins": ["random"],
                   "concurrency": 2}}}}), encoding="utf-8")
    assignment = load_assignments(config)["q"]
    run = run_league(assignment, progress=False)
    with Store(assignment.store_path) as store:
        stored = list(results_document(assignment, run, grades_of_run(assignment, run), store)["games"])
    assert len(stored) == 2
    for game in stored:
        argv = shlex.split(game["reproduce"])
        assert argv[0] == "grader"
        proc = subprocess.run([sys.executable, "-m", "grader.cli", *argv[1:], "--json"], capture_output=True,
                              text=True, timeout=300, cwd=tmp_path)
        assert proc.returncode == 0, proc.stderr
        replay = json.loads(proc.stdout)["games"][0]
        assert replay["moves"] == game["moves"] and replay["moves"]
        assert replay["points"] == game["points"]


@pytest.mark.parametrize("prefork", [True, False], ids=["prefork", "spawn"])
def test_two_checks_draw_different_seeds_and_the_recorded_one_replays(tmp_path, prefork):
    """Probe processes and smoke games are seeded from the check's own seed, fresh every run (a
    player cannot recognise a check by it) and recorded, so a check replays from its record."""
    source = (ROOT / "submissions" / "quoridor" / "alice" / "player.py").read_text()
    old = "        return result\n\n    def expand_obstacles(self):"
    assert old in source
    (tmp_path / "player.py").write_text("import random\n" + source.replace(old, (
        "        return [c for c in result if random.Random().random() < 0.9]\n\n    def expand_obstacles(self):")))
    a = resolve("t", AssignmentConfig(ruleset="quoridor", submissions=".", game=SMALL["quoridor"],
                                      validation={"smoke_games": 2}, league={"prefork": prefork}), tmp_path)
    sub = load(tmp_path, a.ruleset.entry, 10)
    first, second = validate(a, sub), validate(a, sub)
    assert first.seed != second.seed and first.to_json()["seed"] == first.seed
    replay = validate(a, sub, seed=first.seed)
    stage = next(c for c in first.checks if c.name == "expand_player")
    assert not stage.passed and stage.failed_cases < 74          # some positions wrong, not all
    assert [(c.name, c.message) for c in replay.checks] == [(c.name, c.message) for c in first.checks]
    assert [g["seed"] for g in replay.games] == [g["seed"] for g in first.games]
    assert {g["seed"] for g in first.games}.isdisjoint(g["seed"] for g in second.games)


def test_the_league_keeps_its_seat_seed_secret_beside_its_results(tmp_path):
    """Made once, readable by the grader's user only, and the same on every later run."""
    a = resolve("t", AssignmentConfig(ruleset="quoridor", submissions="."), tmp_path)
    key = a.league_key()
    path = a.store_path.parent / "league-secret"
    assert path.stat().st_mode & 0o777 == 0o600 and len(key) == 32
    assert resolve("t", AssignmentConfig(ruleset="quoridor", submissions="."), tmp_path).league_key() == key
    other = resolve("t", AssignmentConfig(ruleset="quoridor", submissions="."), tmp_path / "elsewhere")
    assert other.league_key() != key


def test_each_seat_gets_its_keyed_seed_never_the_games(tmp_path):
    """Issue 27: the seats' seeds were 2·seed and 2·seed+1, so each knew the other's."""
    from sandbox.seeding import seat_seed

    a = resolve("t", AssignmentConfig(ruleset="quoridor", submissions=".", game=SMALL["quoridor"]), tmp_path)
    given = []

    def factory(**kwargs):
        given.append(kwargs["seed"])
        raise OSError("no process needed")        # the game ends as the grader's failure, after seeding

    rnd = builtin(a.ruleset, "random")
    play_game(a, rnd, rnd, seed=7, factory=factory)
    play_game(a, rnd, rnd, seed=7, factory=factory, key=b"another league")
    assert given[0] == seat_seed(a.league_key(), 7, 0) and given[0] not in (7, 14, 15)
    assert given[1] == seat_seed(b"another league", 7, 0) != given[0]
