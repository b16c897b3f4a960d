"""Java submissions are staged in the course's layout whatever shape the upload has (no JDK needed)."""
from __future__ import annotations

import zipfile
from pathlib import Path

import pytest

from grader.builds import clean_compiler_output
from grader.player_kinds import language
from grader.submissions import discover, load
from rulesets.bohnenspiel import RULESET

JAVA = RULESET.java
SOURCE = "package student_player;\npublic class StudentPlayer {}\n"


def files(root: Path) -> list[str]:
    return sorted(p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_file())


def stage(path: Path):
    sub = load(path, RULESET.entry, 10, java=JAVA)
    assert sub.problem is None, sub.problem
    return sub


def write(root: Path, rel: str, text: str = SOURCE) -> Path:
    (root / rel).parent.mkdir(parents=True, exist_ok=True)
    (root / rel).write_text(text)
    return root / rel


@pytest.mark.parametrize("layout", [
    ["StudentPlayer.java", "mytools/MyTools.java", "data/w.csv"],                                  # the package, flat
    ["student_player/StudentPlayer.java", "student_player/mytools/MyTools.java", "data/w.csv"],      # package folder
    ["project/src/student_player/StudentPlayer.java", "project/src/student_player/mytools/MyTools.java",
     "project/data/w.csv", "project/bin/student_player/StudentPlayer.class"],                         # an IDE project
])
def test_uploads_of_every_shape_are_staged_in_the_course_layout(tmp_path, layout):
    up = tmp_path / "up"
    for rel in layout:
        write(up, rel)
    sub = stage(up)
    assert files(sub.staged) == ["data/w.csv", "student_player/StudentPlayer.java", "student_player/mytools/MyTools.java"]
    assert language(RULESET, sub.staged) == "java"


def test_a_single_java_file_and_a_zip_of_src_are_staged(tmp_path):
    single = stage(write(tmp_path, "StudentPlayer.java"))
    assert files(single.staged) == ["student_player/StudentPlayer.java"]
    archive = tmp_path / "upload.zip"
    with zipfile.ZipFile(archive, "w") as z:
        z.writestr("src/student_player/StudentPlayer.java", SOURCE)
        z.writestr("src/student_player/mytools/Search.java", "package student_player.mytools;\n")
    zipped = stage(archive)
    assert files(zipped.staged) == ["student_player/StudentPlayer.java", "student_player/mytools/Search.java"]


def test_python_players_stay_python_and_java_without_the_entry_says_what_it_needs(tmp_path):
    py = tmp_path / "py"
    write(py, "student_player.py", "x = 1\n")
    write(py, "helper/StudentPlayer.java")           # a stray Java file does not make it Java
    assert language(RULESET, stage(py).staged) == "python"
    wrong = tmp_path / "wrong"
    write(wrong, "src/student_player/MyPlayer.java")
    sub = load(wrong, RULESET.entry, 10, java=JAVA)
    assert sub.problem.endswith("a Java player needs exactly one StudentPlayer.java (package student_player).")
    two = tmp_path / "two"
    write(two, "a/StudentPlayer.java")
    write(two, "b/StudentPlayer.java")
    assert "exactly one StudentPlayer.java" in load(two, RULESET.entry, 10, java=JAVA).problem


def test_discover_picks_up_java_files_only_where_the_ruleset_has_java(tmp_path):
    write(tmp_path, "alice.java")
    (tmp_path / "alice.java").rename(tmp_path / "StudentPlayer.java")
    assert [s.id for s in discover(tmp_path, RULESET.entry, 10, java=JAVA)] == ["StudentPlayer"]
    assert discover(tmp_path, RULESET.entry, 10) == []


def test_compiler_messages_lose_control_characters_and_are_capped():
    text = "\x1b[31mStudentPlayer.java:3: error: \x07boom\x1b[0m\n" + "line\n" * 100
    out = clean_compiler_output(text)
    assert out.startswith("[31mStudentPlayer.java:3: error: boom[0m\n")
    assert "\x1b" not in out and "\x07" not in out
    assert out.endswith("… (61 more lines)") and out.count("\n") == 40


def test_doctor_lists_what_applies_to_java_players_or_why_it_cannot(capsys, monkeypatch):
    from grader.cli import main
    from sandbox import java

    assert main(["doctor"]) == 0
    out = capsys.readouterr().out
    assert "Java players" in out and ("EXECUTE on java and its loader only" in out or "missing" in out)
    assert "Builds of line-protocol programs" in out and "g++" in out
    monkeypatch.setattr(java, "jdk_home", lambda: None)
    assert main(["doctor"]) == 0
    assert "missing: no JDK found (javac not on PATH): install openjdk-17-jdk-headless" in capsys.readouterr().out


def test_a_python_file_is_a_console_program_only_when_it_reads_its_console_and_lacks_the_api(tmp_path):
    from grader.player_kinds import is_api_module

    cases = {"class StudentPlayer:\n    pass\nimport sys\nsys.stdin.readline()\n": True,   # the API
             "from helpers import StudentPlayer\nx = input()\n": True,                      # imported API
             "class Player:\n    pass\n": True,               # misnamed API class: the interface says so
             "import sys\nfor line in sys.stdin:\n    print(line)\n": False,                # a program
             "move = input()\n": False,
             "def broken(:\n": True}                          # the interface stage reports the syntax error
    for n, (source, api) in enumerate(cases.items()):
        path = tmp_path / f"p{n}.py"
        path.write_text(source)
        assert is_api_module(path, ("StudentPlayer",)) is api, source
