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
COMMON = "_common"              # templates every style shares (the engine), unless a style has its own
BUILT_IN = "players/random"     # the student file goes here (a built-in) and to skeleton/ (what students start from)


def styles() -> tuple[str, ...]:
    """The course-API shapes a new game can start from (rulesets/scaffold/<style>/)."""
    if not SCAFFOLD.is_dir():
        return ()
    return tuple(sorted(p.name for p in SCAFFOLD.iterdir() if p.is_dir() and p.name != COMMON))


def places(like: str) -> dict[Path, tuple[str, ...]]:
    """Template file -> where it goes in the new package: each `X.tmpl` of the style (or of the shared
    folder, where the style has none) becomes `X`; the student's file (`student_*.py.tmpl`) goes twice."""
    found = {p.name: p for p in sorted((SCAFFOLD / COMMON).glob("*.tmpl"))}
    found.update({p.name: p for p in sorted((SCAFFOLD / like).glob("*.tmpl"))})
    out: dict[Path, tuple[str, ...]] = {}
    for name, path in found.items():
        target = name.removesuffix(".tmpl")
        out[path] = (f"{BUILT_IN}/{target}", f"skeleton/{target}") if target.startswith("student_") else (target,)
    return out


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
        for template, targets in places(like).items():
            text = Template(template.read_text(encoding="utf-8")).substitute(values)
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
