"""`grader check` on the submissions students really upload: broken folders, archives, hostile players.

Every case ends as a verdict with one sentence (exit 1) or a usage sentence (exit 2), never a
traceback, and the sentence says what to fix.
"""
from __future__ import annotations

import io
import json
import re
import shutil
import zipfile
from pathlib import Path

import pytest

EXAMPLES = Path(__file__).resolve().parents[2] / "submissions" / "colosseum"


def check(cli, config, path):
    result = cli("--config", config, "check", path, "--assignment", "a", "--json")
    assert result.status in (0, 1), result.err
    return result.status, json.loads(result.out)


def interface_message(doc: dict) -> str:
    return next(c["message"] for c in doc["checks"] if c["name"] == "interface")


def test_folders_and_archives_without_a_usable_entry_file_say_what_is_wrong(tmp_path, cli, arena):
    config = arena()
    (tmp_path / "empty").mkdir()
    (tmp_path / "deep" / "a" / "b").mkdir(parents=True)
    (tmp_path / "deep" / "a" / "b" / "student_agent.py").write_text("x = 1\n")
    inner = io.BytesIO()
    with zipfile.ZipFile(inner, "w") as z:
        z.writestr("proj/student_agent.py", "x = 1\n")
    with zipfile.ZipFile(tmp_path / "zip_of_zip.zip", "w") as z:
        z.writestr("mine.zip", inner.getvalue())
    zipfile.ZipFile(tmp_path / "empty.zip", "w").close()
    (tmp_path / "corrupt.zip").write_bytes(b"this is not a zip")
    (tmp_path / "bad.py").write_bytes(b"x = '\xff\xfe'\n")
    (tmp_path / "renamed").mkdir()
    (tmp_path / "renamed" / "student_agent (1).py").write_text("x = 1\n")
    expected = {
        "empty": "the submission is empty; it needs student_agent.py.",
        "empty.zip": "the submission is empty; it needs student_agent.py.",
        "deep": "student_agent.py is too deep in the submission (at a/b/student_agent.py)",
        "zip_of_zip.zip": "student_agent.py is too deep in the submission (at mine/proj/student_agent.py)",
        "corrupt.zip": "corrupt.zip was refused: it is not a readable zip archive.",
        "renamed": "no student_agent.py (at its top level or one folder down); is student_agent (1).py meant "
                   "to be it? The name must match exactly.",
        "bad.py": "student_agent.py could not be loaded: SyntaxError: (unicode error) 'utf-8' codec",
    }
    for name, sentence in expected.items():
        status, doc = check(cli, config, tmp_path / name)
        assert status == 1 and not doc["passed"]
        assert sentence in interface_message(doc), name


def test_check_on_a_class_folder_is_a_usage_sentence_naming_the_submissions(tmp_path, cli, arena):
    config = arena(examples=("baseline_student", "raises"))
    result = cli("--config", config, "check", tmp_path / "subs", "--assignment", "a")
    assert result.status == 2
    assert "holds 2 submissions (baseline_student, raises); check one at a time" in result.err
    result = cli("--config", config, "check", tmp_path / "subs")          # without --assignment too
    assert result.status == 2 and "holds 2 submissions" in result.err


def test_check_on_a_missing_path_and_play_with_unknown_names_are_usage_errors(tmp_path, cli, arena):
    config = arena()
    assert cli("--config", config, "check", tmp_path / "nope", "--assignment", "a").status == 2
    result = cli("--config", config, "play", "nobody", "random", "--assignment", "a")
    assert result.status == 2 and "no such submission" in result.err and "built-ins: " in result.err
    result = cli("--config", config, "play", "random", "random", "--assignment", "a", "--games", "0")
    assert result.status == 2 and "--games must be at least 1 (got 0)." in result.err


@pytest.mark.parametrize("body, sentence", [
    ("raise KeyboardInterrupt", "The player failed while playing in game 1"),
    ("raise BaseException('boom')", "The player failed while playing in game 1"),
    ("import os\nos._exit(0)", "The player process exited without answering."),
    ("return object()", "made an illegal move: step returned <object object"),
])
def test_hostile_players_fail_their_smoke_games_with_a_sentence(tmp_path, cli, arena, student, body, sentence):
    config = arena(validation={"smoke_games": 1, "stages": {"legal_moves": {"required": False}}})
    status, doc = check(cli, config, student(tmp_path / "hostile", body))
    smoke = next(c for c in doc["checks"] if c["name"] == "smoke")
    assert status == 1 and not smoke["passed"] and sentence in smoke["message"]


def test_a_player_that_floods_stdout_is_cut_off_and_still_judged(tmp_path, cli, arena, student):
    config = arena(validation={"smoke_games": 1, "stages": {"legal_moves": {"required": False}}})
    flood = student(tmp_path / "flood", "import sys\nsys.stdout.write('x' * (100 * 1024 * 1024))\n"
                                         "return my_pos, 0")
    _status, doc = check(cli, config, flood)
    assert [c["name"] for c in doc["checks"]] == ["interface", "legal_moves", "smoke"]
    assert len(json.dumps(doc)) < 200_000          # the flood is not copied into the report


def test_a_player_that_sleeps_at_import_fails_the_interface_within_the_hard_limit(tmp_path, cli, arena, student):
    config = arena(limits={"first_move_s": 1, "move_s": 1, "kill_factor": 2})
    sleeper = student(tmp_path / "sleeper", "return my_pos, 0", module_code="import time\ntime.sleep(10 ** 6)\n")
    status, doc = check(cli, config, sleeper)
    # killed by the wall clock, not by CPU: the CPU it used is its start's (a spawned interpreter
    # importing NumPy, as the portable sandbox starts every player: 0.25 s on a busy machine)
    used = re.search(r"did not finish loading within 1 s \(no answer after 2 s of wall-clock time while "
                     r"using (\d+(?:\.\d+)?) s of CPU", interface_message(doc))
    assert status == 1 and used and float(used.group(1)) < 1, interface_message(doc)


def test_links_and_oversized_files_are_refused(tmp_path, cli, arena):
    config = arena()
    linked = tmp_path / "linked"
    shutil.copytree(EXAMPLES / "baseline_student", linked)
    (linked / "secret").symlink_to("/etc/passwd")
    status, doc = check(cli, config, linked)
    assert status == 1 and "secret is a symbolic link, and links are not accepted" in interface_message(doc)
    big = tmp_path / "big"
    shutil.copytree(EXAMPLES / "baseline_student", big)
    with (big / "weights.bin").open("wb") as fh:
        fh.truncate(60 * 1024 * 1024)                 # sparse: 60 MB on paper, nothing on disk
    status, doc = check(cli, config, big)
    assert status == 1 and "weights.bin is larger than" in interface_message(doc)


def test_a_check_with_no_gate_does_not_call_zero_points_passed(tmp_path, cli):
    import yaml

    config = tmp_path / "rbnim.yaml"
    config.write_text(yaml.safe_dump({"assignments": {"r": {
        "ruleset": "rbnim", "submissions": "subs", "validation": {"smoke_games": 0},
        "league": {"format": "gauntlet", "gauntlet": ["random"]}, "grading": {"kind": "validation", "max": 10}}}}))
    examples = EXAMPLES.parent / "rbnim"
    hangs = cli("--config", config, "check", examples / "hangs_on_input", "--assignment", "r")
    assert hangs.status == 1 and "Result: did not pass" in hangs.out and "0 of 10 points" in hangs.out  # a failed program fails
    assert "Result: passed" not in hangs.out
    wrong = cli("--config", config, "check", examples / "off_by_one", "--assignment", "r")
    assert "Result: passed every required stage — " in wrong.out and "; points lost in " in wrong.out
    right = cli("--config", config, "check", examples / "correct_module", "--assignment", "r")
    assert right.status == 0 and "Result: passed — 10 of 10 points." in right.out


def test_check_without_assignment_says_whether_no_or_several_assignments_fit(tmp_path, cli, arena):
    config = arena()
    (tmp_path / "my_agent.py").write_text("x = 1\n")
    result = cli("--config", config, "check", tmp_path / "my_agent.py")
    assert result.status == 2
    assert "has none of the entry files the assignments expect (a: student_agent.py)" in result.err


def test_play_refuses_an_interactive_program_with_a_sentence(tmp_path, cli):
    import yaml

    config = tmp_path / "rbnim.yaml"
    config.write_text(yaml.safe_dump({"assignments": {"r": {"ruleset": "rbnim", "submissions": "subs"}}}))
    program = EXAMPLES.parent / "rbnim" / "correct_program"
    result = cli("--config", config, "play", program, "random", "--assignment", "r", "--games", "1")
    assert result.status == 2 and "is an interactive command-line program, which plays no games" in result.err
