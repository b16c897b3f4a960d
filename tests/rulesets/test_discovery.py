"""Games are found, not listed: a package under rulesets/ or an installed package naming its module
in the entry-point group `grader.rulesets` is a game, and every cross-game test runs on it with no
edit (here: fixtures/tinypile, installed into a temporary folder for a fresh interpreter)."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import rulesets

ROOT = Path(__file__).resolve().parents[2]
FIXTURE = Path(__file__).resolve().parent / "fixtures" / "tinypile"
CROSS_GAME = ["tests/grader/test_hostile_replies.py", "tests/sandbox/test_engine_out_of_reach.py",
              "tests/report/test_board_records.py", "tests/rulesets/test_contract.py",
              "tests/grader/test_checks_cannot_be_told_from_games.py"]
RUN_HERE = [CROSS_GAME[0], *CROSS_GAME[2:]]     # the sandboxed ones need the game where the sandbox reads


def install(where: Path) -> dict[str, str]:
    """The tiny game as an installed package: the package and a dist-info naming its entry point;
    returns the environment of an interpreter that sees it."""
    shutil.copytree(FIXTURE, where / "tinypile", ignore=shutil.ignore_patterns("__pycache__"))
    info = where / "tinypile-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: tinypile\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text(f"[{rulesets.GROUP}]\ntinypile = tinypile\n")
    return {**os.environ, "PYTHONPATH": os.pathsep.join([str(where), str(ROOT)])}


def pytest_run(env: dict[str, str], *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:randomly", "-p", "no:cacheprovider", *args],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)


def test_an_installed_game_is_found_and_every_cross_game_test_runs_on_it(tmp_path):
    env = install(tmp_path)
    listed = pytest_run(env, "--collect-only", *CROSS_GAME)
    for path in CROSS_GAME:
        assert any(line.startswith(path) and "tinypile" in line for line in listed.stdout.splitlines()), (
            path, listed.stdout[-2000:], listed.stderr[-2000:])
    ran = pytest_run(env, "-k", "tinypile", *RUN_HERE)
    assert ran.returncode == 0 and " passed" in ran.stdout, ran.stdout[-3000:]


def test_the_bundled_games_are_the_packages_under_rulesets():
    assert set(rulesets.names()) >= {"quoridor", "colosseum", "bohnenspiel", "doublecard", "rbnim"}
    assert rulesets.names() == rulesets.bundled() + tuple(n for n in rulesets.names() if n not in rulesets.bundled())
    for name in rulesets.bundled():
        assert rulesets.load(name).name == name


def test_an_unknown_game_says_where_a_game_is_added():
    with pytest.raises(ValueError, match=r"unknown ruleset 'chess'; known rulesets: .*rulesets/<name>/.*NEW_GAME"):
        rulesets.load("chess")


def test_a_package_without_a_record_names_the_missing_field(tmp_path, monkeypatch):
    (tmp_path / "halfdone").mkdir()
    (tmp_path / "halfdone" / "__init__.py").write_text("GAME = 'not yet'\n")
    monkeypatch.setattr(rulesets, "__path__", [*rulesets.__path__, str(tmp_path)])
    rulesets.names.cache_clear()
    try:
        assert "halfdone" in rulesets.names()
        with pytest.raises(ValueError, match=r"module rulesets.halfdone has no RULESET record"):
            rulesets.load("halfdone")
    finally:
        sys.modules.pop("rulesets.halfdone", None)
        monkeypatch.undo()
        rulesets.names.cache_clear()
