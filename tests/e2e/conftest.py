"""Fixtures of the end-to-end tests: the `grader` command run as people run it, on temporary configs.

`cli(*argv)` runs the real `grader.cli.main` in this process and returns its exit status and what it
printed (and fails the test on a traceback); `arena(...)` writes a quick colosseum config (6x6 board,
short limits) whose submissions folder the test fills; `student(folder, body)` writes a
student_agent.py whose step() runs `body`.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
import textwrap
from dataclasses import dataclass
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "submissions" / "colosseum"

AGENT_HEADER = '''
from agents.agent import Agent
from store import register_agent


@register_agent("student_agent")
class StudentAgent(Agent):
    def __init__(self):
        super().__init__()
        self.name = "e2e"

    def step(self, chess_board, my_pos, adv_pos, max_step):
'''


@dataclass
class Outcome:
    status: int
    out: str
    err: str

    @property
    def text(self) -> str:
        return self.out + self.err


@pytest.fixture
def cli(capsys):
    from grader.cli import main

    def run(*argv: str) -> Outcome:
        capsys.readouterr()
        status = main([str(a) for a in argv])
        captured = capsys.readouterr()
        assert "Traceback" not in captured.out + captured.err
        return Outcome(status, captured.out, captured.err)
    return run


def _arena(tmp: Path, examples: tuple[str, ...] = (), **settings) -> Path:
    """A colosseum assignment `a` on a 6x6 board; `settings` replace top-level keys of its block."""
    subs = tmp / "subs"
    subs.mkdir(exist_ok=True)
    for name in examples:
        shutil.copytree(EXAMPLES / name, subs / name)
    block = {"ruleset": "colosseum", "submissions": "subs", "reports": "out", "game": {"board_size": 6},
             "limits": {"first_move_s": 2, "move_s": 1},
             "validation": {"smoke_games": 0, "stages": {"legal_moves": {"required": False}}},
             "league": {"builtins": ["random"], "games_per_pair": 2, "seed": 3, "concurrency": 2}} | settings
    path = tmp / "config.yaml"
    path.write_text(yaml.safe_dump({"assignments": {"a": block}}), encoding="utf-8")
    return path


def _student(folder: Path, step_body: str, module_code: str = "") -> Path:
    """A colosseum submission whose step() runs `step_body` (after `module_code` at import)."""
    folder.mkdir(parents=True, exist_ok=True)
    body = textwrap.indent(textwrap.dedent(step_body).strip(), " " * 8)
    (folder / "student_agent.py").write_text(textwrap.dedent(module_code) + AGENT_HEADER + body + "\n",
                                             encoding="utf-8")
    return folder


@pytest.fixture
def arena(tmp_path):
    return lambda examples=(), **settings: _arena(tmp_path, examples, **settings)


@pytest.fixture
def student():
    return _student


@pytest.fixture(scope="session")
def wheel(tmp_path_factory) -> Path:
    """The project's wheel, as a student or Gradescope's setup.sh installs it (built once a session)."""
    out = tmp_path_factory.mktemp("wheel")
    proc = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(out), str(ROOT)],
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-3000:]
    (found,) = out.glob("*.whl")
    return found


@pytest.fixture(scope="session")
def venv_with():
    """venv_with(wheel, folder) -> its python: see _venv_with."""
    return _venv_with


def _venv_with(wheel: Path, venv: Path) -> Path:
    """A fresh virtual environment holding the wheel (no network: the dependencies are this
    environment's site-packages, by a path, so the project's own editable install is not seen).
    Returns its python."""
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=300)
    python = venv / ("Scripts" if os.name == "nt" else "bin") / ("python.exe" if os.name == "nt" else "python")
    purelib = subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                             capture_output=True, text=True, check=True).stdout.strip()
    Path(purelib, "deps.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    subprocess.run([sys.executable, "-m", "pip", "--python", str(python), "install", "-q", "--no-deps", "--no-index",
                    str(wheel)], check=True, capture_output=True, timeout=600)
    return python
