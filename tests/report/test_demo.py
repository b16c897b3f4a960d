"""`make demo` ends with what to do next, and its install step hides setuptools' notice."""
from __future__ import annotations

from pathlib import Path

from grader.demo import next_steps

REPO = Path(__file__).resolve().parents[2]


def test_the_demo_ends_with_next_steps_not_bare_paths(tmp_path, monkeypatch):
    for name in ("quoridor", "colosseum"):
        (tmp_path / "reports" / name / "public").mkdir(parents=True)
        (tmp_path / "reports" / name / "public" / "index.html").write_text("x")
    monkeypatch.chdir(tmp_path)
    text = "\n".join(next_steps(tmp_path / "reports"))
    assert text.startswith("Next steps:\n  1. Look at the leagues: reports/<assignment>/index.html")
    assert "(colosseum, quoridor)" in text
    for command in ("grader import ", "grader run quoridor", "grader export quoridor --moodle",
                    "Publish only reports/quoridor/public/", "grader check "):
        assert command in text, command


def test_the_install_step_silences_the_editable_install_notice():
    install = next(line for line in (REPO / "Makefile").read_text().splitlines() if "pip install" in line
                   and "-e " in line)
    assert 'PYTHONWARNINGS="ignore:Editable installation"' in install
