"""Suite-wide: tests marked `root` need root (cgroups, a network namespace without user namespaces,
capabilities to drop); for an ordinary user (CI's second run, a student's machine) they are skipped
with that reason, and `-m "not root"` leaves them out altogether. A test run for a game this machine
cannot play (its referee's language is not installed: `Game.unavailable`) is skipped with its reason.

The slow tests are marked here by path, marker and variant (tests/suite_split.py); every other test is a fast
one and runs within FAST_TIMEOUT_S, fixtures included, in `make test` and `make test-all` alike."""
from __future__ import annotations

import os

import pytest

import rulesets
from tests.suite_split import (
    FAST_TIMEOUT_S,
    HINT_S,
    SLOW_MARKERS,
    is_slow_path,
    is_slow_variant,
    too_long_for_fast,
)


def pytest_collection_modifyitems(config, items):
    bound = config.getoption("timeout", None) is None        # a --timeout given by hand wins
    for item in items:
        if (is_slow_path(item.nodeid)
                or any(item.get_closest_marker(m) for m in SLOW_MARKERS)
                or is_slow_variant(getattr(getattr(item, "callspec", None), "params", {}))):
            item.add_marker(pytest.mark.slow)
        elif bound and item.get_closest_marker("slow") is None and item.get_closest_marker("timeout") is None:
            item.add_marker(pytest.mark.timeout(FAST_TIMEOUT_S))


def _own_timeout(item) -> float | None:
    marker = item.get_closest_marker("timeout")
    if marker is None:
        return None
    value = marker.args[0] if marker.args else marker.kwargs.get("timeout")
    return None if value is None else float(value)


def pytest_runtest_setup(item):
    if item.get_closest_marker("root") and not (hasattr(os, "geteuid") and os.geteuid() == 0):
        pytest.skip("needs root; this run is an ordinary user's")
    for value in getattr(getattr(item, "callspec", None), "params", {}).values():
        if isinstance(value, str) and value in rulesets.names():
            why = rulesets.load(value).game.unavailable()
            if why is not None:
                pytest.skip(f"the game {value} cannot be played here: {why}")
    if item.get_closest_marker("slow") is None:
        reason = too_long_for_fast(_own_timeout(item))
        if reason:
            pytest.fail(reason, pytrace=False)


def pytest_terminal_summary(terminalreporter, config):
    """After a run, the fast tests that took over HINT_S (setup, call and teardown), with the load
    now: a hint for SLOW_PATHS when the machine was idle, never a failure."""
    spent: dict[str, float] = {}
    for reports in terminalreporter.stats.values():
        for report in reports:
            if getattr(report, "when", None) in ("setup", "call", "teardown") and "slow" not in report.keywords:
                spent[report.nodeid] = spent.get(report.nodeid, 0.0) + report.duration
    long = sorted(((s, n) for n, s in spent.items() if s > HINT_S), reverse=True)
    if long:
        load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
        terminalreporter.section(f"fast tests over {HINT_S:g} s (load {load:.1f} now)")
        for seconds, nodeid in long:
            terminalreporter.write_line(f"{seconds:7.1f}s {nodeid}")
        terminalreporter.write_line("idle too? list the module in SLOW_PATHS (tests/suite_split.py)")
