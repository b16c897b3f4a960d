"""Game rulesets. `load(name)` returns a game's `Ruleset`; `NAMES` lists the games we ship."""
from __future__ import annotations

import importlib

from .base import Ruleset

NAMES = ("quoridor", "colosseum", "bohnenspiel", "doublecard", "rbnim")


def load(name: str) -> Ruleset:
    """The `RULESET` of package `rulesets.<name>`; ValueError with a sentence if there is none."""
    if name not in NAMES:
        raise ValueError(f"unknown ruleset {name!r}; known rulesets: {', '.join(NAMES)}")
    module = importlib.import_module(f"rulesets.{name}")
    return module.RULESET
