"""The player's process holds only what the course API gives a student (issue 16.4).

A hostile submission of each game tries, during its move, every way to the grader's engine:
importing it (by name or by file), reading the ruleset's files, walking frames, closures and the
garbage collector for engine objects, and looking through sys.modules. Each attempt reports what
it reached by raising an exception whose message the test reads; every game, both start modes.
"""
from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

import rulesets
from sandbox import Limits, PlayerProcess, Verdict
from sandbox.wire import ChildConfig

RULESETS = Path(rulesets.__file__).resolve().parent
GAMES = ("quoridor", "colosseum", "bohnenspiel", "doublecard", "rbnim")
LIMITS = Limits(start_s=60.0, call_s=60.0, first_call_s=60.0, kill_after_s=5.0)

# what a shim may load: the student-side code of the rulesets (anything else is reference code)
STUDENT_SIDE = {"rulesets", "rulesets.base", "rulesets.entry", "rulesets.quoridor", "rulesets.quoridor.shim",
                "rulesets.quoridor.obstacle", "rulesets.quoridor.view", "rulesets.colosseum",
                "rulesets.colosseum.shim", "rulesets.bohnenspiel", "rulesets.bohnenspiel.shim",
                "rulesets.bohnenspiel.course", "rulesets.bohnenspiel.moves", "rulesets.doublecard",
                "rulesets.doublecard.shim", "rulesets.rbnim", "rulesets.rbnim.shim", "rulesets.rbnim.moves"}
STUDENT_FILES = {f"{name.replace('.', '/')}.py" for name in STUDENT_SIDE} | {"rulesets/colosseum/course/",
                                                                             "rulesets/quoridor/course/"}


def reference_files() -> list[str]:
    """Every file of rulesets/ that is not student-side: engines, probes, renderers, built-in players."""
    out = []
    for path in sorted(RULESETS.rglob("*")):
        rel = "rulesets/" + path.relative_to(RULESETS).as_posix()
        if path.is_file() and "__pycache__" not in rel and not any(
                rel == f or (f.endswith("/") and rel.startswith(f)) for f in STUDENT_FILES):
            out.append(str(path))
    return out


ATTACK = '''
import gc, importlib, importlib.util, inspect, os, sys, types

GAME = {game!r}
ALLOWED = {allowed!r}
FILES = {files!r}
FOLDERS = {folders!r}
MODULES = ["rulesets." + GAME + "." + m for m in ("engine", "probes", "render", "players", "examples",
           "geometry", "scripted", "board", "search", "rules", "program")] + [
           "rulesets.quoridor.engine", "rulesets.colosseum.engine", "rulesets.rbnim.search",
           "rulesets.doublecard.scripted", "grader", "grader.validation"]


def forbidden(name):
    name = name or ""
    return ((name == "rulesets" or name.startswith(("rulesets.", "grader"))) and name not in ALLOWED)


def by_import():
    found = []
    for name in MODULES:
        try:
            importlib.import_module(name)
            found.append(name)
        except BaseException:
            pass
    for name in ("rulesets", "rulesets." + GAME):
        module = sys.modules.get(name) or importlib.import_module(name)
        if hasattr(module, "load") or hasattr(module, "RULESET"):
            found.append(name + " (the real package)")
    for path in FILES:
        if path.endswith(".py"):
            try:
                spec = importlib.util.spec_from_file_location("stolen", path)
                module = importlib.util.module_from_spec(spec)
                spec.loader.exec_module(module)
                found.append("executed " + path)
            except BaseException:
                pass
    return found


def by_reading():
    found = []
    for path in FILES:
        try:
            with open(path, "rb") as f:
                f.read(1)
            found.append("read " + path)
        except OSError:
            pass
    for folder in FOLDERS:
        try:
            os.listdir(folder)
            found.append("listed " + folder)
        except OSError:
            pass
    return found


def suspicious(obj):
    base = sys.modules.get("rulesets.base")
    if base is not None and isinstance(obj, (getattr(base, "State", ()), getattr(base, "Game", ()))):
        return "a " + type(obj).__name__
    if isinstance(obj, types.ModuleType):
        return "module " + obj.__name__ if forbidden(obj.__name__) else None
    if isinstance(obj, (type, types.FunctionType)) and forbidden(getattr(obj, "__module__", "")):
        return obj.__module__ + "." + obj.__qualname__
    if forbidden(getattr(type(obj), "__module__", "")):
        return "an instance of " + type(obj).__module__ + "." + type(obj).__qualname__
    return None


def by_walking():
    found = set()

    def look(obj, depth=0):
        hit = suspicious(obj)
        if hit:
            found.add(hit)
        elif depth < 2:
            inner = []
            if isinstance(obj, dict):
                inner = list(obj.values())
            elif isinstance(obj, (list, tuple, set, frozenset)):
                inner = list(obj)
            elif hasattr(obj, "__dict__") and not isinstance(obj, types.ModuleType):
                try:
                    inner = list(vars(obj).values())
                except TypeError:
                    inner = []
            for value in inner[:500]:
                look(value, depth + 1)

    frame = sys._getframe()
    while frame is not None:
        for value in list(frame.f_locals.values()) + list(frame.f_globals.values()):
            look(value)
        frame = frame.f_back
    for info in inspect.stack():
        for value in info.frame.f_locals.values():
            look(value)
    for obj in gc.get_objects():
        hit = suspicious(obj)
        if hit:
            found.add(hit)
        if isinstance(obj, types.FunctionType) and obj.__closure__:
            for cell in obj.__closure__:
                try:
                    look(cell.cell_contents)
                except ValueError:
                    pass
    base = sys.modules.get("rulesets.base")
    for cls in (getattr(base, "State", None), getattr(base, "Game", None)):
        if cls is not None:
            found.update("subclass " + c.__module__ + "." + c.__name__ for c in cls.__subclasses__())
    return sorted(found)


def by_sys_modules():
    found = [name for name in list(sys.modules) if forbidden(name)]
    for name, module in list(sys.modules.items()):
        path = os.path.abspath(getattr(module, "__file__", None) or "/")
        if path in FILES:
            found.append(name + " from " + path)
    return found


def attack(kind):
    found = {{"import": by_import, "read": by_reading, "walk": by_walking, "modules": by_sys_modules}}[kind]()
    raise RuntimeError(("FOUND " + "; ".join(found)[:600]) if found else "CLEAN " + kind)
'''

# a minimal player of each game that runs the attack inside its move
PLAYERS = {
    "quoridor": ("player.py", """
        from obstacle import *
        from attack import attack
        KIND = {kind!r}

        class Player:
            def __init__(self, name): pass
            def initialization(self, sizex, sizey, myx, myy, opponentx, opponenty, max_obstacles, obstacles): pass
            def make_move(self): attack(KIND)
            def opponent_move(self, move_type, result): pass
            def expand_player(self): return []
            def expand_obstacles(self): return []
    """),
    "colosseum": ("student_agent.py", """
        from agents.agent import Agent
        from store import register_agent
        from attack import attack
        KIND = {kind!r}

        @register_agent("student_agent")
        class StudentAgent(Agent):
            def step(self, chess_board, my_pos, adv_pos, max_step):
                attack(KIND)
    """),
    "bohnenspiel": ("student_player.py", """
        from bohnenspiel import BohnenspielPlayer
        from attack import attack
        KIND = {kind!r}

        class StudentPlayer(BohnenspielPlayer):
            def __init__(self):
                super().__init__("attacker")
            def choose_move(self, board_state):
                attack(KIND)
    """),
    "doublecard": ("player.py", """
        from attack import attack
        KIND = {kind!r}

        class Player:
            def __init__(self, role, first): pass
            def opponent_move(self, move_text): pass
            def choose_move(self): attack(KIND)
    """),
    "rbnim": ("red_blue_nim.py", """
        from attack import attack
        KIND = {kind!r}

        def choose_move(red, blue, version, depth=None):
            attack(KIND)
    """),
}


def hostile(tmp_path: Path, game: str, kind: str) -> Path:
    files = reference_files()
    folders = sorted({str(Path(f).parent) for f in files})
    folder = tmp_path / f"{game}-{kind}"
    folder.mkdir()
    entry, body = PLAYERS[game]
    (folder / entry).write_text(textwrap.dedent(body.format(kind=kind)))
    (folder / "attack.py").write_text(ATTACK.format(game=game, allowed=sorted(STUDENT_SIDE), files=files,
                                                    folders=folders))
    return folder


def play_one_move(ruleset, folder: Path, pool) -> tuple:
    state = ruleset.game().new_state(3)
    with PlayerProcess(ruleset.shim, str(folder), LIMITS, name=folder.name, prefork=pool) as p:
        started = p.start()
        assert started.ok, (started, p.close().output)
        setup = p.call("setup", {"seat": state.to_move, "state": state.to_json(), "name": "x", "options": {}})
        assert setup.ok, (setup, p.close().output)
        result = p.call("move", {"state": state.to_json(), "last": []})
        return result, p.started_by


@pytest.mark.parametrize("kind", ["import", "read", "walk", "modules"])
@pytest.mark.parametrize("game", GAMES)
def test_the_player_cannot_reach_the_engine(tmp_path, require, start_mode, request, game, kind):
    """import: the engine, probes, built-in players or the grader by name or by file; read: any file
    of them; walk: frames, closures, the garbage collector and State's subclasses; modules: sys.modules."""
    if kind == "read":
        require("landlock")
    pool = request.getfixturevalue("prefork_pool") if start_mode == "prefork" else None
    result, started_by = play_one_move(rulesets.load(game), hostile(tmp_path, game, kind), pool)
    assert started_by == start_mode
    assert result.verdict is Verdict.ERROR, result
    assert result.message.startswith(f"RuntimeError: CLEAN {kind}"), result.message


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
