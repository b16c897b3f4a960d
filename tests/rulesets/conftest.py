"""Set-up every ruleset's tests share: the tests of rulesets/<name>/ live in tests/rulesets/<name>/."""
from __future__ import annotations

import importlib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def folders(request) -> dict[str, Path]:
    """The ruleset's example submissions by folder name, and its built-in players as "builtin:<name>"."""
    name = request.path.parent.name
    ruleset = importlib.import_module(f"rulesets.{name}").RULESET
    found = {p.name: p for p in (ROOT / "submissions" / name).iterdir() if p.is_dir()}
    found.update({f"builtin:{player}": Path(path) for player, path in ruleset.players.items()})
    return found
