"""Shared set-up for the Red-Blue Nim tests: example folders and in-process shim handlers."""
from __future__ import annotations

from pathlib import Path

import pytest

from rulesets.rbnim import RULESET, shim

EXAMPLES = Path(__file__).resolve().parents[3] / "submissions" / "rbnim"


@pytest.fixture
def folders() -> dict[str, Path]:
    """Example submissions and built-in players (as "builtin:<name>") by name."""
    found = {p.name: p for p in EXAMPLES.iterdir() if p.is_dir()}
    found.update({f"builtin:{name}": Path(path) for name, path in RULESET.players.items()})
    return found


@pytest.fixture
def open_module():
    """open_module(folder) -> the shim handler of the module in `folder`, without a sandbox."""
    return lambda folder: shim.open_submission(str(folder), {})
