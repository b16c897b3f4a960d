"""`grader check` and `grader run` with submissions that attack the people reading the results.

A player that forges its own reply frames is one sentence and everyone else is graded as usual;
a submission named with terminal escapes, newlines, a BiDi override and a spreadsheet formula is
shown on one harmless line in the terminal and neutralised in every CSV the grader writes. Both
start modes (spawned and pre-forked players).
"""
from __future__ import annotations

import csv
import json

import pytest

FORGE = '''
import fcntl as _fcntl, os as _os, stat as _stat, struct as _struct, sys as _sys, time as _time


def _forge(body):
    """Write `body` as this call's reply frame straight to the reply pipe, then hang."""
    f = _sys._getframe()
    while f is not None and not (isinstance(f.f_locals.get("msg"), dict) and "id" in f.f_locals["msg"]):
        f = f.f_back
    body = body.replace(b"ID", str(f.f_locals["msg"]["id"] if f else 3).encode())
    for fd in range(3, 256):
        try:
            if _stat.S_ISFIFO(_os.fstat(fd).st_mode) and _fcntl.fcntl(fd, _fcntl.F_GETFL) & 3 == _os.O_WRONLY:
                _os.write(fd, _struct.pack(">I", len(body)) + body)
        except OSError:
            pass
    _time.sleep(60)
'''
DEEP = 'import random\nif random.random() < 2:\n    _forge(b\'{"id": ID, "ok": \' + b"[" * 30000 + b"]" * 30000 + b"}")'
PAIRS = '_forge(b\'{"id": ID, "ok": [[1, "a"], [0, 0]]}\')'
HOSTILE_NAME = '=HYPERLINK("http://evil")\x1b]0;pwned\x07\x1b[31m\nsecond line\u202eexe.txt\ud800'


@pytest.fixture(params=[False, True], ids=["spawn", "prefork"])
def prefork(request):
    return request.param


def league(prefork: bool) -> dict:
    return {"builtins": ["random"], "games_per_pair": 2, "seed": 3, "concurrency": 2, "prefork": prefork}


@pytest.mark.parametrize("forged", [DEEP, PAIRS], ids=["deep", "pairs"])
def test_check_says_one_sentence_about_a_forged_reply(tmp_path, cli, arena, student, prefork, forged):
    config = arena(league=league(prefork), validation={"smoke_games": 1})
    result = cli("--config", config, "check", student(tmp_path / "forger", forged, FORGE), "--assignment", "a",
                 "--json")
    assert result.status == 1
    doc = json.loads(result.out)
    failed = {c["name"]: c["message"] for c in doc["checks"] if not c["passed"]}
    assert set(failed) == {"legal_moves", "smoke"}
    assert "The player broke the protocol: " in failed["legal_moves"] or "nested more than 32" in failed["legal_moves"]
    assert "protocol" in failed["smoke"] or "nested more than 32" in failed["smoke"]
    assert all("\n" not in m for m in failed.values())


def test_run_grades_everyone_despite_a_forger_and_a_hostile_name(tmp_path, cli, arena, student, prefork):
    config = arena(examples=("baseline_student",), league=league(prefork))
    subs = tmp_path / "subs"
    student(subs / "forger", DEEP, FORGE)
    named = student(subs / "named", "return my_pos, 0")
    (named / ".submission.json").write_text(json.dumps({"name": HOSTILE_NAME}), encoding="utf-8")
    result = cli("--config", config, "run", "a", "--no-report")
    assert result.status == 0, result.err
    for raw in ("\x1b", "\x07", "\u202e", "\r"):
        assert raw not in result.text, repr(raw)
    doc = json.loads((tmp_path / "out" / "results.json").read_text())
    rows = {s["id"]: s for s in doc["submissions"]}
    assert rows["baseline_student"]["games"] == 6 and rows["baseline_student"]["rank"] == 1
    assert rows["forger"]["games"] == 6 and rows["forger"]["wins"] == 0
    games = [g for g in doc.get("games", []) if "forger" in (g.get("seat0"), g.get("seat1"))]
    assert all(g.get("infra_error") is None for g in games)

    standings = cli("--config", config, "standings", "a")
    lines = standings.out.splitlines()
    shown = [line for line in lines if "HYPERLINK" in line]
    assert len(shown) == 1 and "\\x1b]0;pwned" in shown[0] and "\\nsecond line" in shown[0]
    assert not any(line.strip().startswith("second line") for line in lines)

    with (tmp_path / "out" / "grades.csv").open(encoding="utf-8", newline="") as fh:
        cells = [cell for row in csv.reader(fh) for cell in row]
    assert any(c.startswith("'=HYPERLINK") for c in cells)
    assert not any(c.lstrip().startswith(("=", "+", "@")) for c in cells)


def test_check_and_play_show_a_players_exception_text_and_output_harmlessly(tmp_path, cli, arena, student, prefork):
    config = arena(league=league(prefork), validation={"smoke_games": 1})
    body = "print('\\x1b]0;pwned\\x07\\x1b[2J')\nraise ValueError('\\x1b[31mred\\rover\\u202eexe [bold]x[/]')"
    folder = student(tmp_path / "loud", body)
    (folder / ".submission.json").write_text(json.dumps({"name": "loud\x1b[5m\nname"}), encoding="utf-8")
    checked = cli("--config", config, "check", folder, "--assignment", "a")
    played = cli("--config", config, "play", folder, "random", "--assignment", "a", "--games", "1")
    assert checked.status == 1 and played.status == 0
    for raw in ("\x1b", "\x07", "\u202e", "\r"):
        assert raw not in checked.text + played.text, repr(raw)
    for result in (checked, played):
        assert "\\x1b[31mred\\rover\\u202eexe [bold]x[/]" in result.out     # shown as written, markup too
    assert "loud\\x1b[5m\\nname" in played.out
