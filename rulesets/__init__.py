"""Game rulesets, found rather than listed: `names()` is every package under rulesets/ plus every
installed package that declares one in the entry-point group `grader.rulesets`; `load(name)`
returns that package's `RULESET` record (rulesets/base.py `Ruleset`). A new game needs no edit
here: see docs/NEW_GAME.md."""
from __future__ import annotations

import importlib
import pkgutil
from functools import cache
from importlib.metadata import entry_points

from .base import Ruleset

GROUP = "grader.rulesets"
WHERE = (f"a game is a package rulesets/<name>/ whose __init__.py sets RULESET = Ruleset(...), or an installed "
         f"package naming its module in the entry-point group {GROUP!r} (see docs/NEW_GAME.md)")


def bundled() -> tuple[str, ...]:
    """The packages beside this file, each a game (a package here that is no game is a mistake `load` names)."""
    return tuple(sorted(m.name for m in pkgutil.iter_modules(__path__) if m.ispkg))


def installed() -> dict[str, str]:
    """Name -> module of the games installed packages declare in the entry-point group `GROUP`."""
    return {ep.name: ep.value for ep in entry_points(group=GROUP)}


@cache
def names() -> tuple[str, ...]:
    """Every game this grader knows: the bundled ones, then the installed ones (a bundled name wins)."""
    ours = bundled()
    return ours + tuple(sorted(set(installed()) - set(ours)))


def module_of(name: str) -> str:
    """The module whose `RULESET` is game `name`; ValueError with a sentence if no game has that name."""
    if name in bundled():
        return f"{__name__}.{name}"
    module = installed().get(name)
    if module is None:
        raise ValueError(f"unknown ruleset {name!r}; known rulesets: {', '.join(names())}; {WHERE}.")
    return module


def load(name: str) -> Ruleset:
    """The `RULESET` of game `name`; ValueError with a sentence if there is none."""
    module = importlib.import_module(module_of(name))
    record = getattr(module, "RULESET", None)
    if not isinstance(record, Ruleset):
        raise ValueError(f"ruleset {name!r}: module {module.__name__} has no RULESET record (rulesets.base.Ruleset); "
                         f"{WHERE}.")
    if record.name != name:
        raise ValueError(f"ruleset {name!r}: module {module.__name__} sets RULESET.name = {record.name!r}; "
                         f"the name must be the package's (or the entry point's) name, {name!r}.")
    return record
