"""The player's process holds only what the course API gives a student (issue 16.4).

A hostile submission of each discovered game (its own built-in player, every function of which
runs the attack; the student side derived from what its shim imports) tries, when first called, every way to the grader's engine:
importing it (by name or by file), reading the ruleset's files, walking frames, closures and the
garbage collector for engine objects, and looking through sys.modules. Each attempt reports what
it reached by raising an exception whose message the test reads; every game, both start modes.
"""
from __future__ import annotations

import pytest

import rulesets
from grader import engine_reach
from sandbox.wire import ChildConfig

GAMES = rulesets.names()            # once, at collection: a game made while the tests run is not half-seen


@pytest.mark.parametrize("kind", ["import", "read", "walk", "modules"])
@pytest.mark.parametrize("game", GAMES)
def test_the_player_cannot_reach_the_engine(tmp_path, require, start_mode, request, game, kind):
    """import: the engine, probes, built-in players or the grader by name or by file; read: any file
    of them; walk: frames, closures, the garbage collector and State's subclasses; modules: sys.modules."""
    if kind == "read":
        require("landlock")
    pool = request.getfixturevalue("prefork_pool") if start_mode == "prefork" else None
    ruleset = rulesets.load(game)
    result, started_by = engine_reach.play_one_move(ruleset, engine_reach.hostile(tmp_path, ruleset, kind), pool)
    assert started_by == start_mode
    assert engine_reach.reached(result, kind) is None, result


def test_a_ruleset_installed_in_site_packages_stays_hidden(tmp_path, monkeypatch):
    """A non-editable install puts the rulesets in site-packages, which the player may read: the
    shim's package is taken out of that grant, all but the files the shim imported; its
    __init__ (which imports the engine) never runs."""
    import site
    import sys

    from sandbox import child

    sp = tmp_path / "site-packages"
    (sp / "fakegame").mkdir(parents=True)
    (sp / "fakegame" / "__init__.py").write_text("from . import engine\nRULESET = 'the real package'\n")
    (sp / "fakegame" / "engine.py").write_text("ANSWERS = 42\n")
    (sp / "fakegame" / "view.py").write_text("SIZE = 9\n")
    (sp / "fakegame" / "shim.py").write_text("from . import view\nREAD_PATHS = ['/srv/cache']\n")
    (sp / "numpylike").mkdir()
    monkeypatch.setattr(site, "getsitepackages", lambda: [str(sp)])
    monkeypatch.syspath_prepend(str(sp))
    try:
        shim = child.import_shim("fakegame.shim")
        assert not hasattr(sys.modules["fakegame"], "RULESET") and "fakegame.engine" not in sys.modules
        paths = child.readable_paths(ChildConfig("fakegame.shim", str(tmp_path / "sub")), [sys.modules["sandbox"]], shim)
    finally:
        for name in ("fakegame", "fakegame.shim", "fakegame.view", "fakegame.engine"):
            sys.modules.pop(name, None)

    def readable(path) -> bool:
        return any(str(path) == p or str(path).startswith(p.rstrip("/") + "/") for p in paths)

    assert readable(sp / "fakegame" / "shim.py") and readable(sp / "fakegame" / "view.py")
    assert not readable(sp / "fakegame" / "engine.py") and not readable(sp / "fakegame" / "__init__.py")
    assert readable(sp / "numpylike") and "/srv/cache" in paths


@pytest.mark.parametrize("game", GAMES)
def test_the_shim_itself_loads_no_reference_code(game):
    """The student side is derived from what the shim loads, so a shim that loaded the engine would
    make the engine "student side": the rules' own modules must never be among it."""
    assert engine_reach.shim_loads_no_reference_code(rulesets.load(game)) is None
