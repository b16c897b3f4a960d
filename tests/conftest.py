"""Suite-wide: tests marked `root` need root (cgroups, a network namespace without user namespaces,
capabilities to drop); for an ordinary user (CI's second run, a student's machine) they are skipped
with that reason, and `-m "not root"` leaves them out altogether. A test run for a game this machine
cannot play (its referee's language is not installed: `Game.unavailable`) is skipped with its reason."""
from __future__ import annotations

import os

import pytest

import rulesets


def pytest_runtest_setup(item):
    if item.get_closest_marker("root") and not (hasattr(os, "geteuid") and os.geteuid() == 0):
        pytest.skip("needs root; this run is an ordinary user's")
    for value in getattr(getattr(item, "callspec", None), "params", {}).values():
        if isinstance(value, str) and value in rulesets.names():
            why = rulesets.load(value).game.unavailable()
            if why is not None:
                pytest.skip(f"the game {value} cannot be played here: {why}")
