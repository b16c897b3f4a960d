"""Long steps say how far they are (issue 45: a check silent for minutes, a league and its site
with no count): a check names each stage as it starts on stderr; a league run on a console that is
not a terminal (a CI log) counts games played and site games rendered in plain lines."""
from __future__ import annotations

import io
import shutil
from pathlib import Path

import yaml
from rich.console import Console

from grader import usecases
from grader.assignment import load_assignments
from grader.cli import main

ROOT = Path(__file__).resolve().parents[2]


def _course(tmp_path: Path) -> Path:
    shutil.copytree(ROOT / "rulesets" / "quoridor" / "players" / "random", tmp_path / "subs" / "dice")
    config = tmp_path / "config.yaml"
    config.write_text(yaml.safe_dump({"assignments": {"q": {
        "ruleset": "quoridor", "submissions": "subs", "game": {"sizex": 5, "sizey": 5},
        "validation": {"smoke_games": 1},
        "league": {"format": "round_robin", "games_per_pair": 2, "seed": 5, "builtins": ["random"]}}}}),
        encoding="utf-8")
    return config


def test_a_check_names_each_stage_as_it_starts(tmp_path, capsys):
    config = _course(tmp_path)
    status = main(["--config", str(config), "check", str(tmp_path / "subs" / "dice" / "player.py")])
    out, err = capsys.readouterr()
    assert status == 0, out + err
    lines = [line for line in err.splitlines() if line.startswith("grader: checking player.py, stage ")]
    assert lines[0] == "grader: checking player.py, stage 1: Interface", err
    assert lines[-1].startswith(f"grader: checking player.py, stage {len(lines)}: Smoke games (stage "), err
    assert len(lines) >= 3 and all("took" in line for line in lines[1:]), err
    assert "stage 1: Interface" not in out                  # the report (or its JSON) stays on stdout alone


def test_a_league_in_a_log_counts_its_games_and_its_site(tmp_path):
    assignment = load_assignments(_course(tmp_path))["q"]
    log = io.StringIO()
    usecases.grade_league(assignment, progress=True, console=Console(file=log, force_terminal=False, width=100))
    said = log.getvalue().splitlines()
    assert "  games: 1/2 played" in said and "  games: 2/2 played" in said, said
    assert "  site: pages, 2/2 games done" in said and "  site: game records, 2/2 games done" in said, said
    quiet = io.StringIO()
    usecases.grade_league(assignment, fresh=True, progress=False, console=Console(file=quiet, force_terminal=False))
    assert "games:" not in quiet.getvalue() and "site:" not in quiet.getvalue()
