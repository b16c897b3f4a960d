"""The course's sparring players (config `sparring`): named by `grader play` as `sparring:NAME` or the
bare name, never graded, checked when the config loads (issue 43: "against the course's public
sparring players when the course ships them"). The service's practice matches and the students'
package are tested beside their own doors (tests/serve/test_practice.py, test_student_package.py)."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import yaml

from grader.assignment import load_assignments
from grader.cli import main
from grader.config import ConfigError, load_config

ROOT = Path(__file__).resolve().parents[2]
RANDOM = ROOT / "rulesets" / "quoridor" / "players" / "random" / "player.py"


def _course(folder: Path, sparring: dict[str, str]) -> Path:
    (folder / "subs").mkdir(parents=True)
    (folder / "sparring" / "strong").mkdir(parents=True)
    shutil.copy(RANDOM, folder / "sparring" / "strong" / "player.py")
    config = folder / "config.yaml"
    config.write_text(yaml.safe_dump({"assignments": {"q": {
        "ruleset": "quoridor", "submissions": "subs", "game": {"sizex": 5, "sizey": 5},
        "sparring": sparring}}}), encoding="utf-8")
    return config


def test_grader_play_names_a_sparring_player_with_or_without_its_prefix(tmp_path, capsys):
    config = _course(tmp_path / "course", {"strong": "sparring/strong"})
    for name in ("sparring:strong", "strong"):
        status = main(["--config", str(config), "play", str(RANDOM), name, "--assignment", "q", "--games", "1"])
        out = capsys.readouterr()
        assert status == 0, out
        assert "strong (the course's sparring player)" in out.out, out.out


def test_an_unknown_name_lists_the_sparring_players_too(tmp_path, capsys):
    config = _course(tmp_path / "course", {"strong": "sparring/strong"})
    assert main(["--config", str(config), "play", str(RANDOM), "sparring:weak", "--assignment", "q"]) == 2
    said = capsys.readouterr().err
    assert "no such submission" in said and "sparring players: strong" in said, said


def test_a_moved_course_folder_keeps_its_sparring_players(tmp_path):
    config = _course(tmp_path / "course", {"strong": "sparring/strong"})
    moved = tmp_path / "elsewhere"
    shutil.move(str(config.parent), moved)
    assignment = load_assignments(moved / "config.yaml")["q"]
    assert assignment.sparring == {"strong": moved.resolve() / "sparring" / "strong"}


@pytest.mark.parametrize("sparring, said", [
    ({"random": "sparring/strong"}, "sparring.random: is also the name of a built-in player of quoridor"),
    ({"strong": "sparring/missing"}, "sparring.strong: "),
    ({"strong": "/etc"}, "must be a path inside the course folder"),
    ({"strong": "../course/sparring/strong"}, "must be a path inside the course folder"),
    ({"str ong": "sparring/strong"}, "is not a sparring player's name"),
])
def test_a_wrong_sparring_entry_is_one_sentence_naming_the_key(tmp_path, sparring, said):
    config = _course(tmp_path / "course", sparring)
    with pytest.raises(ConfigError) as err:
        load_config(config)
    assert said in str(err.value) and str(config) in str(err.value), err.value
    if "missing" in str(sparring):
        assert "does not exist" in str(err.value)
