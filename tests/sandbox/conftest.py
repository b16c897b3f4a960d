"""Fixtures for the sandbox tests: hostile players written to a tmp folder and run for real."""
from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from sandbox import Limits, PlayerProcess, prefork, protections

SHIM = "sandbox.module_shim"
HOST = protections()
FAST = Limits(start_s=10.0, call_s=2.0, kill_after_s=0.5)


@pytest.fixture
def require():
    """require(layer) skips the test, with the host's reason, when `layer` is not applied here;
    require("cgroup") asks for the per-player memory cgroup."""
    def check(layer: str) -> None:
        if layer == "cgroup":
            if not HOST["memory"].startswith("cgroup"):
                pytest.skip(f"no per-player memory cgroup here: {HOST['memory']}")
        elif HOST.get(layer, "missing").startswith("missing"):
            pytest.skip(f"{layer} {HOST.get(layer, 'missing: unknown layer')}")
    return check


@pytest.fixture
def limits():
    """limits(**fields) -> Limits with short, test-friendly times unless overridden."""
    return lambda **kw: Limits(**{"start_s": 10.0, "call_s": 2.0, "kill_after_s": 0.5, **kw})


@pytest.fixture
def write_submission(tmp_path):
    """write_submission(code, name="sub", files={...}) -> folder holding player.py and the files."""
    def write(code: str, name: str = "sub", files: dict[str, str] | None = None) -> Path:
        folder = tmp_path / name
        folder.mkdir()
        (folder / "player.py").write_text(textwrap.dedent(code))
        for rel, text in (files or {}).items():
            (folder / rel).parent.mkdir(parents=True, exist_ok=True)
            (folder / rel).write_text(text)
        return folder
    return write


@pytest.fixture(scope="session")
def prefork_pool():
    """One pool of fork servers for the whole session (a template per shim and CPU)."""
    reason = prefork.available()
    if reason is not None:
        pytest.skip(f"no pre-forked start here: {reason}")
    with prefork.PreforkPool() as pool:
        yield pool


@pytest.fixture(params=["spawn", "prefork"])
def start_mode(request):
    """Each player test runs twice: spawned per game, and forked from a template."""
    return request.param


@pytest.fixture
def player(write_submission, start_mode, request):
    """player(code, limits=None (FAST), start=True, **submission kw) -> a PlayerProcess, closed at teardown.
    Started the way `start_mode` says; a pre-forked one must really have been forked."""
    made: list[PlayerProcess] = []
    pool = request.getfixturevalue("prefork_pool") if start_mode == "prefork" else None

    def make(code: str, limits: Limits | None = None, start: bool = True, name: str = "sub", seed: int | None = None,
             **kw) -> PlayerProcess:
        p = PlayerProcess(SHIM, write_submission(code, name=name, **kw), limits or FAST, name=name, prefork=pool,
                          seed=seed)
        made.append(p)
        if start:
            r = p.start()
            assert r.ok, (r, p.close().output)
            assert p.started_by == start_mode, pool.last_error
        return p

    yield make
    for p in made:
        p.close()
