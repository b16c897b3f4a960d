"""`grader new-game NAME --like colosseum` writes a game that works as it stands: found with no list
to edit, a course folder made for it, its sample player checked, and a small league graded.

The package goes where the guide puts it (rulesets/NAME/), so this test writes one there under a
name of its own and removes it afterwards."""
from __future__ import annotations

import json
import shutil
import sys

import pytest

import rulesets
from grader import selftest
from grader.new_game import SCAFFOLD, styles
from tests.checking import grader_cli as grader

NAME = "scaffold_selftest"


@pytest.fixture
def new_game(capsys):
    folder = SCAFFOLD.parent / NAME
    shutil.rmtree(folder, ignore_errors=True)          # left by an earlier run that was killed
    rulesets.names.cache_clear()
    try:
        status, out, err = grader(capsys, "new-game", NAME, "--like", "colosseum")
        assert status == 0, err
        assert f"Made the game {NAME} in {folder}" in out
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)
        rulesets.names.cache_clear()
        forget(NAME)


def test_a_new_game_is_checked_and_graded_in_a_league_with_no_other_edit(tmp_path, capsys, new_game):
    assert NAME in rulesets.names() and rulesets.load(NAME).name == NAME
    course = tmp_path / "course"
    assert grader(capsys, "init", course, "--assignment", NAME)[0] == 0
    config = course / "config.yaml"
    status, out, err = grader(capsys, "--config", config, "check", new_game / "skeleton", "--assignment", NAME)
    assert status == 0 and "Result: passed" in out, out + err
    for student in ("ada", "bo", "cy"):
        (course / "submissions" / NAME / student).mkdir(parents=True)
        shutil.copy(new_game / "skeleton" / "student_agent.py", course / "submissions" / NAME / student)
    status, out, err = grader(capsys, "--config", config, "run", NAME, "--quiet")
    assert status == 0, out + err
    doc = json.loads((course / "reports" / NAME / "results.json").read_text())
    league = [g for g in doc["games"] if g["round"] == "league"]   # not the collusion replays, which follow luck
    assert len(league) == 6 and all(g["reason"] == "last_stone" for g in doc["games"])
    assert (course / "reports" / NAME / "public" / "index.html").is_file()


@pytest.mark.parametrize(("name", "like", "says"), [
    ("Chess!", "colosseum", "cannot name a game"),
    ("class", "colosseum", "cannot name a game"),
    ("quoridor", "colosseum", "already a game or folder named 'quoridor'"),
    ("scaffold", "colosseum", "already a game or folder named 'scaffold'"),
    ("newone", "chess", "--like 'chess' is not a template; the templates are: bohnenspiel, colosseum."),
    ("newone", "_common", "--like '_common' is not a template"),
])
def test_a_name_or_template_that_cannot_be_made_is_one_sentence_and_writes_nothing(capsys, name, like, says):
    before = sorted(p.name for p in SCAFFOLD.parent.iterdir())
    status, out, err = grader(capsys, "new-game", name, "--like", like)
    assert status == 2 and says in out + err
    assert sorted(p.name for p in SCAFFOLD.parent.iterdir()) == before


def forget(name: str) -> None:
    """Drop the game's modules, so the next load reads its files again."""
    for module in [m for m in sys.modules if m == f"rulesets.{name}" or m.startswith(f"rulesets.{name}.")]:
        del sys.modules[module]


def test_the_new_game_passes_selftest_and_a_wrong_sample_reply_fails_it_with_a_sentence(capsys, new_game):
    status, out, err = grader(capsys, "selftest", NAME)
    assert status == 0 and f"The game {NAME} passed every check" in out, out + err
    record = new_game / "__init__.py"
    text = record.read_text(encoding="utf-8")
    assert 'sample_replies={"move": (1, 3, {"invalid": "no"})}' in text
    record.write_text(text.replace('(1, 3, {"invalid": "no"})', '(1, 3, "three")'), encoding="utf-8")
    forget(NAME)
    status, out, err = grader(capsys, "selftest", NAME)
    assert status == 1, out + err
    assert (f"FAIL hostile replies: no reply a player can send in the declared shapes makes the rules' code raise. "
            f"{NAME}: the sample reply 'three' to move() is refused by the declared shape") in " ".join(out.split())
    assert f"The game {NAME} failed 1 of {len(selftest.CHECKS)} checks: hostile replies." in " ".join(out.split())
    (new_game / "engine.py").write_text("class Game(:\n", encoding="utf-8")
    forget(NAME)
    status, out, err = grader(capsys, "selftest", NAME)
    assert status == 2 and f"the game '{NAME}' does not load: importing rulesets.{NAME} raised SyntaxError" in out + err


@pytest.mark.parametrize("like", styles())
def test_every_template_makes_a_game_whose_skeleton_passes_its_check_and_selftest(tmp_path, capsys, like):
    name = f"scaffold_{like}"
    folder = SCAFFOLD.parent / name
    shutil.rmtree(folder, ignore_errors=True)
    rulesets.names.cache_clear()
    try:
        status, out, err = grader(capsys, "new-game", name, "--like", like)
        assert status == 0, out + err
        assert not (folder / "_common").exists() and (folder / "engine.py").is_file()
        course = tmp_path / "course"
        assert grader(capsys, "init", course, "--assignment", name)[0] == 0
        status, out, err = grader(capsys, "--config", course / "config.yaml", "check", folder / "skeleton",
                                  "--assignment", name)
        assert status == 0 and "Result: passed" in out, out + err
        status, out, err = grader(capsys, "selftest", name)
        assert status == 0 and f"The game {name} passed every check" in out, out + err
    finally:
        shutil.rmtree(folder, ignore_errors=True)
        rulesets.names.cache_clear()
        forget(name)
