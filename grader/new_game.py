"""`grader new-game NAME --like STYLE`: a new game's package written from a template, ready to grade.

The templates are rulesets/scaffold/<style>/ (a working trivial game in the shape of a course's
student API); the package goes to rulesets/<NAME>/, where `rulesets.names()` finds it with no list
to edit. docs/NEW_GAME.md walks from it to a graded league.
"""
from __future__ import annotations

import keyword
import re
import shutil
from dataclasses import dataclass
from pathlib import Path
from string import Template

import rulesets

SCAFFOLD = Path(rulesets.__file__).resolve().parent / "scaffold"
# template file -> where it goes in the new package (the student file twice: a built-in, the skeleton)
PLACES = {"__init__.py.tmpl": ("__init__.py",), "engine.py.tmpl": ("engine.py",), "shim.py.tmpl": ("shim.py",),
          "README.md.tmpl": ("README.md",),
          "student_agent.py.tmpl": ("players/random/student_agent.py", "skeleton/student_agent.py")}


def styles() -> tuple[str, ...]:
    """The course-API shapes a new game can start from (rulesets/scaffold/<style>/)."""
    return tuple(sorted(p.name for p in SCAFFOLD.iterdir() if p.is_dir())) if SCAFFOLD.is_dir() else ()


@dataclass(frozen=True)
class NewGame:
    name: str
    folder: Path
    files: tuple[Path, ...]


def problem(name: str, like: str) -> str | None:
    """Why `name`/`like` cannot make a new game, as one sentence; None when they can."""
    if not re.fullmatch(r"[a-z][a-z0-9_]*", name) or keyword.iskeyword(name):
        return (f"{name!r} cannot name a game: use lower-case letters, digits and _ (a Python package name), "
                f"starting with a letter.")
    if name in rulesets.names() or (SCAFFOLD.parent / name).exists() or name == SCAFFOLD.name:
        return f"there is already a game or folder named {name!r} in {SCAFFOLD.parent}; pick another name."
    if like not in styles():
        return f"--like {like!r} is not a template; the templates are: {', '.join(styles())}."
    return None


def write(name: str, like: str) -> NewGame:
    """The package rulesets/<name>/ from template `like`; ValueError with a sentence if it cannot be
    made, OSError if a file cannot be written (nothing half-made is left behind)."""
    why = problem(name, like)
    if why is not None:
        raise ValueError(why)
    title = name.replace("_", " ").title()
    values = {"name": name, "title": title, "agent": f"{title} agent"}
    folder = SCAFFOLD.parent / name
    written: list[Path] = []
    try:
        for template, targets in PLACES.items():
            text = Template((SCAFFOLD / like / template).read_text(encoding="utf-8")).substitute(values)
            for target in targets:
                path = folder / target
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_text(text, encoding="utf-8")
                written.append(path)
    except OSError:
        shutil.rmtree(folder, ignore_errors=True)       # it did not exist before (`problem`)
        raise
    rulesets.names.cache_clear()
    return NewGame(name, folder, tuple(written))
