"""Suite-wide: tests marked `root` need root (cgroups, a network namespace without user namespaces,
capabilities to drop); for an ordinary user (CI's second run, a student's machine) they are skipped
with that reason, and `-m "not root"` leaves them out altogether."""
from __future__ import annotations

import os

import pytest


def pytest_runtest_setup(item):
    if item.get_closest_marker("root") and not (hasattr(os, "geteuid") and os.geteuid() == 0):
        pytest.skip("needs root; this run is an ordinary user's")
