"""The README `grader init` writes names the file each course's students hand in (issue 45.5: it
said `grader check player.py --assignment colosseum` for a course whose file is student_agent.py)."""
from __future__ import annotations

from pathlib import Path

from grader.course_folder import readme_text


def test_each_course_readme_names_its_own_student_file():
    files = {"quoridor": "player.py", "colosseum": "student_agent.py", "bohnenspiel": "student_player.py",
             "doublecard": "player.py", "rbnim": "red_blue_nim.py"}
    for name, entry in files.items():
        text = readme_text(Path("/courses/x"), [name])
        assert f"`grader check {entry} --assignment {name}`" in text, name
    colosseum = readme_text(Path("/courses/comp424"), ["colosseum"])
    assert "player.py" not in colosseum.replace("student_player", "")
    assert "bohnenspiel: student_player.py (or StudentPlayer.java)" in readme_text(Path("/c"), ["bohnenspiel"])


def test_a_course_of_several_assignments_names_each_file():
    text = readme_text(Path("/courses/comp424"), ["colosseum", "bohnenspiel"])
    assert "`grader check student_agent.py --assignment colosseum`" in text
    assert "`grader check student_player.py --assignment bohnenspiel`" in text
