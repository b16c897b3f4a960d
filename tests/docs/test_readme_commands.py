"""Every command the README and the guides in docs/ show is run here, from the documents' own text
(issue 45.1), so the pages cannot drift from the program: each fenced `sh` block is cut into its
commands (comments dropped) and run by bash, command after command, stopping at the first that
fails and naming it. Each document is one reader's session: its blocks run in order in one home,
each block starting in the folder where the one before it left the reader (so "run the next
commands from the course folder" is what happens, and one course folder serves a document's
commands). The files a reader brings (a class's LMS download, a student's file) are made here at
the paths the text names; the demo players stay where they are. A command that cannot run in a
test is listed in NOT_RUN with the reason, and a command neither run nor listed fails the test, as
does a listed one the documents no longer show, or a shell block not tagged `sh`.
"""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from sandbox import state_dir

ROOT = Path(__file__).resolve().parents[2]
from tests.lms.lms_builders import (  # noqa: E402  (the LMS downloads, built in each LMS's own layout)
    brute_folder,
    canvas_download,
    canvas_gradebook,
    gradescope_export,
    moodle_download,
    moodle_worksheet,
)

# the documents whose blocks a reader copies (docs/ARCHITECTURE.md's blocks are diagrams and code, docs/LTI.md's yaml)
DOCUMENTS = ("README.md", "docs/STUDENTS.md", "docs/INSTRUCTORS.md", "docs/SERVE.md", "docs/NEW_GAME.md")
CONFIG_FENCES = {"nginx", "apache", "ini", "yaml"}       # files to write, not commands to type
NOT_RUN = {
    "make demo": "the demo itself takes 5–20 minutes; docs/BENCHMARKS.md has its measured time and "
                 "tests/docs/test_demo_announcement.py what it says before each league",
    "make test": "the fast suite; this test is one of the slow ones that `make test-all` adds",
    "make test-all": "the whole suite, of which this test is one part",
    "python3 -m venv grader-env": "the student's own environment: here grader-env is a link to this project's venv",
    "grader-env/bin/pip install game_grader-0.1.0-py3-none-any.whl":
        "needs the course's wheel and the network for its dependencies (tests/e2e/test_reach_installed.py "
        "installs a wheel into a fresh environment)",
    'grader export quoridor --canvas ~/Downloads/gradebook.csv --canvas-assignment "Quoridor (1234)"':
        "docs/INSTRUCTORS.md's Canvas alternative to the Moodle export above it, for a class imported from Canvas; "
        "the README's Red-Blue Nim block imports a Canvas download and runs `grader export --canvas`",
    "grader serve": "a server that runs until it is stopped: tests/e2e/test_first_day_walk.py starts it in a "
                    "course folder grader init made and walks its pages in Chromium",
    "python -m benchmarks.first_day_walk": "tests/e2e/test_first_day_walk.py runs the same walk in Chromium and "
                                           "checks that every page says what its line in the index promises",
    "grader run mygame": "needs the students' submissions and a grading policy the reader adds first "
                         "(tests/grader/test_new_game.py grades a league of a new game)",
    "grader export mygame --moodle worksheet.csv": "needs that league and a Moodle worksheet of the reader's class",
}
# commands whose page shows a failure on purpose: the exit status they must give (0 for the rest)
EXITS = {
    ".venv/bin/grader check submissions/quoridor/no_crossing --assignment quoridor":
        (1, "docs/STUDENTS.md tries a bundled submission with a bug: a required stage fails"),
}
WINDOWS = "bat"                                         # a Windows block: not run here, said so by its tag

FENCE = re.compile(r"^```(\w*)[^\n]*\n(.*?)^```", re.M | re.S)
COMMENT = re.compile(r"(^|\s+)#.*$")


def fenced_blocks(text: str) -> list[tuple[str, str]]:
    """(tag, body) of every fenced block, in order."""
    return [(m.group(1), m.group(2)) for m in FENCE.finditer(text)]


def commands(body: str) -> list[str]:
    """The commands of one `sh` block: one a line, comments and blank lines dropped."""
    return [c for c in (COMMENT.sub("", line).strip() for line in body.splitlines()) if c]


def shown(document: Path) -> list[list[str]]:
    """The commands of each `sh` block of a document; a block of another shell's tag is refused,
    so that no command hides from this test under another name."""
    blocks = []
    for tag, body in fenced_blocks(document.read_text(encoding="utf-8")):
        if tag == "sh":
            blocks.append(commands(body))
        elif tag not in CONFIG_FENCES and tag != WINDOWS:
            raise AssertionError(f"{document.name}: a fenced block tagged {tag!r} (tag commands `sh`, "
                                 f"so that this test runs them):\n{body}")
    return blocks


def script(cmds: list[str], marks: Path) -> str:
    """A bash script running `cmds` in order, writing each one's index to `marks` before it starts,
    and at the end the folder the reader is left in to `marks`.cwd."""
    lines = ["set -e -o pipefail"]
    for n, cmd in enumerate(cmds):
        lines.append(f"echo {n} > '{marks}'")
        if cmd in NOT_RUN:
            lines.append(": not run")
        elif cmd in EXITS:
            lines.append(f"status=0; {cmd} || status=$?; test $status -eq {EXITS[cmd][0]}")
        else:
            lines.append(cmd)
    lines.append(f"pwd > '{marks}.cwd'")
    lines.append(f"echo done > '{marks}'")
    return "\n".join(lines) + "\n"


def run_block(cmds: list[str], cwd: Path, env: dict[str, str], marks: Path) -> str | None:
    """Run one block's commands; None when every one worked, else the failing command and its output."""
    marks.unlink(missing_ok=True)
    done = subprocess.run(["bash", "-c", script(cmds, marks)], cwd=cwd, env=env, capture_output=True,
                          text=True, stdin=subprocess.DEVNULL)
    mark = marks.read_text().strip() if marks.exists() else ""
    if done.returncode == 0 and mark == "done":
        return None
    failed = cmds[int(mark)] if mark.isdigit() else "(before the first command)"
    return (f"this command failed (exit {done.returncode}): {failed}\n--- its output (the end) ---\n"
            f"{done.stdout[-4000:]}\n{done.stderr[-4000:]}")


# --- what a reader brings, at the paths the documents name --------------------------------------------

SUBMISSIONS = ROOT / "submissions"


def bundled(game: str, name: str) -> dict[str, str]:
    """A bundled demo submission's files (top level), as a student's upload."""
    return {p.name: p.read_text(encoding="utf-8") for p in sorted((SUBMISSIONS / game / name).iterdir())
            if p.is_file()}


def forgot(entry: str) -> dict[str, str]:
    """An upload that fails its interface stage: the entry file without the class or function."""
    return {entry: "# my agent: to be written\n"}


def student(name: str, files: dict[str, str]) -> tuple[str, dict[str, str]]:
    return name, files


QUORIDOR = {"novakj": student("Jan Novák", bundled("quoridor", "alice")),
            "dvorakb": student("Bořek Dvořák", bundled("quoridor", "wrong_arity"))}
COLOSSEUM = {"101": student("Alice Tremblay", bundled("colosseum", "baseline_student")),
             "102": student("Bob Gagnon", forgot("student_agent.py"))}
BOHNENSPIEL = {"260000001": student("Claire Roy", bundled("bohnenspiel", "greedy_student")),
               "260000002": student("David Côté", forgot("student_player.py"))}
def careless(files: dict[str, str]) -> dict[str, str]:
    """The Double Card baseline student that never looks at the opponent's reply: it loses to the
    built-in baseline every game and beats random most, so each "beats" test is decided in a few
    dozen games (the bundled student mirrors the baseline, 1–1 a pair, and would play all 200)."""
    return {**files, "player.py": files["player.py"] + "\n\nPlayer.opponent_wins = lambda self, them: False\n"}


DOUBLECARD = {"201": student("Eve Bouchard", careless(bundled("doublecard", "baseline_student"))),
              "202": student("Frank Pelletier", forgot("player.py"))}
RBNIM = {"3001": student("Grace Smith", bundled("rbnim", "correct_module")),
         "3002": student("Henry Jones", bundled("rbnim", "off_by_one"))}
ALP = {"1101": student("Jana Nováková", bundled("quoridor", "alice")),
       "1102": student("Petr Svoboda", bundled("quoridor", "wrong_arity"))}

# the path a document names (~ is the test's home) → what makes it there
DOWNLOADS: dict[str, Callable[[Path], object]] = {
    "~/Downloads/brute-alp/": lambda p: brute_folder(p, QUORIDOR),
    "~/Downloads/COMP424-Project.zip": lambda p: moodle_download(p, COLOSSEUM),
    "~/Downloads/Grades-COMP424.csv": lambda p: moodle_worksheet(p, COLOSSEUM, max_grade=100),
    "~/Downloads/gradescope-export.zip": lambda p: gradescope_export(p, BOHNENSPIEL),
    "~/Downloads/COMP472-Project.zip": lambda p: moodle_download(p, DOUBLECARD),
    "~/Downloads/Grades-COMP472.csv": lambda p: moodle_worksheet(p, DOUBLECARD, max_grade=10),
    "~/Downloads/submissions.zip": lambda p: canvas_download(p, RBNIM),
    "~/Downloads/gradebook.csv": lambda p: canvas_gradebook(p, RBNIM, "Assignment 2"),
    "~/Downloads/ALP-Quoridor-1234.zip": lambda p: moodle_download(p, ALP),
    "~/Downloads/Grades-worksheet.csv": lambda p: moodle_worksheet(p, ALP),
}
# a student's own folder (docs/STUDENTS.md): the files its commands name
STUDENT_FILES = {
    "path/to/player.py": SUBMISSIONS / "quoridor" / "alice" / "player.py",
    "player.py": SUBMISSIONS / "quoridor" / "alice" / "player.py",
    "my_agent/": SUBMISSIONS / "colosseum" / "baseline_student",
}


def venv() -> Path:
    """The environment this test runs in: the one `make install` made, whose `grader` the documents use."""
    return Path(sys.prefix)


NEW_GAME = "mygame"      # docs/NEW_GAME.md's example name: the package it writes is removed afterwards


def reader(base: Path) -> dict[str, object]:
    """A home with the downloads and this project as ~/grader, a copy of this project's folder as a
    reader has it (its venv linked in), and a student's folder; the grader's state (course
    environments) is the real one."""
    home = base / "home"
    (home / "Downloads").mkdir(parents=True)
    for name, make in DOWNLOADS.items():
        target = home / name.removeprefix("~/").rstrip("/")
        make(target)
    (home / "grader").symlink_to(ROOT)
    project = base / "project"
    project.mkdir()
    (project / ".venv").symlink_to(venv())
    (project / "submissions").symlink_to(SUBMISSIONS)
    for name, source in STUDENT_FILES.items():
        target = project / name.rstrip("/")
        target.parent.mkdir(parents=True, exist_ok=True)
        if source.is_dir():
            target.mkdir()
            for f in source.iterdir():
                (target / f.name).write_bytes(f.read_bytes())
        else:
            target.write_bytes(source.read_bytes())
    (project / "grader-env").symlink_to(venv())
    env = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "PYTHONPATH")}
    env.update(HOME=str(home), GRADER_STATE_DIR=str(state_dir.root()), VIRTUAL_ENV=str(venv()),
               PATH=f"{venv() / 'bin'}{os.pathsep}{os.environ.get('PATH', '/usr/bin:/bin')}")
    env.pop("XDG_CACHE_HOME", None)
    return {"cwd": project, "env": env, "marks": base / "marks"}


@pytest.fixture
def new_game_removed():
    """docs/NEW_GAME.md writes rulesets/mygame/ into this project, as the guide says: gone before and after."""
    folder = ROOT / "rulesets" / NEW_GAME
    shutil.rmtree(folder, ignore_errors=True)
    yield
    shutil.rmtree(folder, ignore_errors=True)


@pytest.mark.slow
@pytest.mark.timeout(3600)       # the README's five courses each play a league of one student: 2–5 minutes each at load
@pytest.mark.parametrize("document", DOCUMENTS)
def test_every_command_the_documents_show_works(tmp_path, new_game_removed, document):
    """One reader's session: the blocks in order, each starting where the one before left off."""
    place = reader(tmp_path)
    cwd = place["cwd"]
    for n, cmds in enumerate(shown(ROOT / document)):
        failure = run_block(cmds, cwd, place["env"], place["marks"])
        assert failure is None, f"{document}, block {n + 1}: {failure}"
        cwd = Path(Path(f"{place['marks']}.cwd").read_text().strip())


def test_every_command_is_run_or_listed_with_a_reason():
    every = [c for doc in DOCUMENTS for block in shown(ROOT / doc) for c in block]
    assert every, "the documents show no commands: the parser lost them"
    stale = sorted((set(NOT_RUN) | set(EXITS)) - set(every))
    assert not stale, f"NOT_RUN or EXITS list commands the documents no longer show: {stale}"
    text = "\n".join((ROOT / doc).read_text(encoding="utf-8") for doc in DOCUMENTS)
    missing = [name for name in DOWNLOADS if name not in text]
    assert not missing, f"downloads made for paths no document names any more: {missing}"


def test_a_command_that_does_not_work_fails_and_is_named(tmp_path):
    """The runner itself: a broken command stops the block and is named; the ones after it never run."""
    env = {**os.environ, "PATH": f"{venv() / 'bin'}{os.pathsep}{os.environ.get('PATH', '')}"}
    cmds = commands("grader --help   # fine\ngrader chekc player.py\ntouch after\n")
    failure = run_block(cmds, tmp_path, env, tmp_path / "marks")
    assert failure is not None and "this command failed (exit 2): grader chekc player.py" in failure
    assert "grader chekc player.py" not in EXITS
    assert not (tmp_path / "after").exists()
    assert run_block(commands("make demo\ntrue\n"), tmp_path, env, tmp_path / "marks") is None   # listed: not run


def test_the_next_block_starts_where_the_reader_was_left(tmp_path):
    env = {**os.environ}
    (tmp_path / "course").mkdir()
    assert run_block(commands("cd course   # run the next commands from here\n"), tmp_path, env, tmp_path / "marks") is None
    assert Path(f"{tmp_path / 'marks'}.cwd").read_text().strip() == str(tmp_path / "course")


def test_a_shell_block_under_another_tag_is_refused(tmp_path):
    page = tmp_path / "PAGE.md"
    page.write_text("```bash\ngrader doctor\n```\n")
    with pytest.raises(AssertionError, match="tagged 'bash'"):
        shown(page)
    page.write_text("```\ngrader doctor\n```\n")
    with pytest.raises(AssertionError, match="tagged ''"):
        shown(page)
