"""Which tests are the slow ones, decided here by path, marker and variant, not test by test (issue 44.6).

`make test` runs the fast suite (`-m "not slow"`); `make test-all` and CI run every test. A test
added anywhere else lands in the fast suite and is held to FAST_TIMEOUT_S there, fixtures included,
so a slow test cannot hide in it: it fails, and the message says to list its module here.
"""
from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path

# Folders (ending in "/"), modules, and tests ("module::test", every variant of it) that are slow:
# whole `grader` commands, installs, leagues and doors run end to end (their measured times:
# docs/BENCHMARKS.md, "The test suite").
SLOW_PATHS = (
    "tests/e2e/",
    "tests/doors/test_kind_door_matrix.py",
    "tests/lms/test_gradescope_install.py",
    "tests/grader/test_check.py",
    "tests/grader/test_killed_manager.py",
    "tests/serve/test_crash_recovery.py",
    # the nightly workflow's `grader` commands, two nights in fresh checkouts, in both layouts
    "tests/league/test_nightly_workflow.py::test_the_nightly_site_replays_its_own_games_on_the_next_night",
)

# Markers whose tests are slow wherever they are: a real headless Chromium (seconds to start,
# minutes at a load) drives the site or the service.
SLOW_MARKERS = ("browser",)

# Variants that are slow wherever they are: a parametrized fixture's or argument's name and those of
# its values that only `make test-all` runs; the fast suite runs the other values. Measured at a load of
# 10-22 (docs/BENCHMARKS.md, "The test suite"):
# - `db_url`: the service's tests (tests/serve/conftest.py) run on SQLite in the fast suite and on
#   PostgreSQL as well in the whole one: the same promise on a second database (half the service's time).
# - `prefork`: a grader-level test run in both start modes (a league's `prefork: true|false`) runs
#   spawned in the fast suite, since every other grader test starts its players pre-forked (the
#   default); the pre-forked variant runs in the whole suite (about 4 minutes). The sandbox's own
#   tests (tests/sandbox, the `start_mode` fixture) prove every promise in both modes in both suites.
SLOW_VARIANTS: dict[str, tuple[object, ...]] = {"db_url": ("postgres",), "prefork": (True,)}

# A fast test's limit, fixtures included: its idle time is seconds, and this leaves room for a load
# of 20 on two cores. A test that needs more (its own `timeout` marker above this) is a slow one.
FAST_TIMEOUT_S = 300.0
# A fast test over this long is named at the end of the run (tests/conftest.py), as a hint only.
HINT_S = 30.0


def is_slow_path(nodeid: str) -> bool:
    """True when the test `nodeid` (or a test file's posix path, from the project root) is under
    SLOW_PATHS: in a listed folder or module, or a listed test in any of its variants."""
    relative, _, name = nodeid.partition("::")
    return any(relative == p or (p.endswith("/") and relative.startswith(p))
               or (name and f"{relative}::{name.partition('[')[0]}" == p) for p in SLOW_PATHS)


def is_slow_variant(params: Mapping[str, object]) -> bool:
    """True when a test's parameters (pytest's `callspec.params`) pick a value in SLOW_VARIANTS."""
    return any(name in params and params[name] in values for name, values in SLOW_VARIANTS.items())


def missing_slow_paths(root: Path) -> list[str]:
    """The entries of SLOW_PATHS that name nothing: a renamed module or test would fall into the fast suite."""
    return [p for p in SLOW_PATHS if not _names_something(root, *p.split("::"))]


def _names_something(root: Path, relative: str, test: str | None = None) -> bool:
    path = root / relative
    if test is None:
        return path.exists()
    return path.is_file() and re.search(rf"^def {re.escape(test)}\(", path.read_text(encoding="utf-8"), re.M) is not None


def too_long_for_fast(own_timeout: float | None) -> str | None:
    """Why a fast test with its own timeout marker of `own_timeout` seconds does not belong there."""
    if own_timeout is None or 0 < own_timeout <= FAST_TIMEOUT_S:
        return None
    asked = f"{own_timeout:g} s" if own_timeout > 0 else "no limit"
    return (f"this test asks for {asked}, more than a fast test's {FAST_TIMEOUT_S:g} s: "
            "list its module in SLOW_PATHS (tests/suite_split.py) so that it runs in `make test-all`")
