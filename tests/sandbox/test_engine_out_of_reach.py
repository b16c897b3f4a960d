"""The player's process holds only what the course API gives a student (issue 16.4).

A hostile submission of each discovered game (its own built-in player, every function of which
runs the attack; the student side derived from what its shim imports) tries, when first called, every way to the grader's engine:
importing it (by name or by file), reading the ruleset's files, walking frames, closures and the
garbage collector for engine objects, and looking through sys.modules. Each attempt reports what
it reached by raising an exception whose message the test reads; every game, both start modes.
"""
from __future__ import annotations

import functools
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import rulesets
from sandbox import Limits, PlayerProcess, Verdict
from sandbox.wire import ChildConfig

RULESETS = Path(rulesets.__file__).resolve().parent
GAMES = rulesets.names()            # once, at collection: a game made while the tests run is not half-seen
LIMITS = Limits(start_s=60.0, call_s=60.0, first_call_s=60.0, kill_after_s=5.0)

# what a shim loads when imported as the sandbox imports it (no package __init__ run): the modules,
# and the course files it compiled (rulesets.entry.compile_course); run in a fresh interpreter
SHIM_SIDE = """
import json, sys, types
from sandbox import child
shim = child.import_shim(sys.argv[1])
code = [v for v in vars(shim).values() if isinstance(v, dict)]
print(json.dumps({"modules": sorted(n for n in sys.modules if n == "rulesets" or n.startswith("rulesets.")),
                  "files": sorted({getattr(m, "__file__", None) or "" for m in list(sys.modules.values())}
                                  | {c.co_filename for d in code for c in d.values() if isinstance(c, types.CodeType)})}))
"""


@functools.cache
def student_side(shim: str) -> tuple[frozenset[str], frozenset[str]]:
    """(module names, files under rulesets/) the shim itself loads: derived, so a new game's shim is
    covered with no table to edit."""
    out = subprocess.run([sys.executable, "-c", SHIM_SIDE, shim], capture_output=True, text=True, check=True,
                         cwd=RULESETS.parent)
    found = json.loads(out.stdout)
    files = {str(Path(f).resolve()) for f in found["files"] if f and Path(f).resolve().is_relative_to(RULESETS)}
    return frozenset(found["modules"]), frozenset(files)


def every_student_side() -> tuple[frozenset[str], frozenset[str]]:
    """What any game's shim loads: a player of one game may read another's student side too."""
    modules: set[str] = set()
    files: set[str] = set()
    for name in GAMES:
        m, f = student_side(rulesets.load(name).shim)
        modules |= m
        files |= f
    return frozenset(modules), frozenset(files)


def reference_files() -> list[str]:
    """Every file of rulesets/ that is no shim's student side: engines, probes, renderers, built-in players."""
    student = every_student_side()[1]
    return [str(path) for path in sorted(RULESETS.rglob("*")) if path.is_file() and "__pycache__" not in path.parts
            and str(path.resolve()) not in student]


def module_name(path: str) -> str | None:
    """The module a .py file under rulesets/ is (its package's __init__ is the package)."""
    rel = Path(path).resolve().relative_to(RULESETS.parent).with_suffix("")
    parts = rel.parts[:-1] if rel.name == "__init__" else rel.parts
    return ".".join(parts) if path.endswith(".py") and all(p.isidentifier() for p in parts) else None


ATTACK = '''
import gc, importlib, importlib.util, inspect, os, sys, types

GAME = {game!r}
ALLOWED = {allowed!r}
FILES = {files!r}
FOLDERS = {folders!r}
MODULES = {modules!r} + ["grader", "grader.validation"]


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


def arm(space, kind):
    """Every function and method the player's module defines runs the attack instead: whichever the
    shim calls first (the move, or a set-up the course's API makes) reports what it reached."""
    def attacking(*args, **kwargs):
        attack(kind)
    for name, value in list(space.items()):
        if isinstance(value, types.FunctionType) and value.__module__ == space["__name__"]:
            space[name] = attacking
        elif isinstance(value, type) and value.__module__ == space["__name__"]:
            for attr, member in list(vars(value).items()):
                if isinstance(member, types.FunctionType) and not (attr.startswith("__") and attr.endswith("__")):
                    setattr(value, attr, attacking)
'''

# the attacker of any game: the ruleset's own built-in player (its random one where it has one),
# armed at the end of its entry file
ARMING = """

import attack as _attack
_attack.arm(globals(), {kind!r})
"""

def hostile(tmp_path: Path, game: str, kind: str) -> Path:
    ruleset = rulesets.load(game)
    files = reference_files()
    folders = sorted({str(Path(f).parent) for f in files})
    allowed = every_student_side()[0]     # a package's name is its stand-in (its __init__ is checked apart)
    modules = sorted({m for m in map(module_name, files) if m and m not in allowed})
    folder = tmp_path / f"{game}-{kind}"
    shutil.copytree(ruleset.players.get("random") or next(iter(ruleset.players.values())), folder,
                    ignore=shutil.ignore_patterns("__pycache__"))
    entry = folder / ruleset.entry
    entry.write_text(entry.read_text(encoding="utf-8") + ARMING.format(kind=kind), encoding="utf-8")
    (folder / "attack.py").write_text(ATTACK.format(game=game, allowed=sorted(allowed), files=files,
                                                    folders=folders, modules=modules))
    return folder


def play_one_move(ruleset, folder: Path, pool) -> tuple:
    """The player's first call that did not answer (its set-up or its move), and how it started."""
    state = ruleset.game().new_state(3)
    with PlayerProcess(ruleset.shim, str(folder), LIMITS, name=folder.name, prefork=pool) as p:
        started = p.start()
        assert started.ok, (started, p.close().output)
        setup = p.call("setup", {"seat": state.to_move, "state": state.to_json(), "name": "x", "options": {}})
        if not setup.ok:
            return setup, p.started_by
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


@pytest.mark.parametrize("game", GAMES)
def test_the_shim_itself_loads_no_reference_code(game):
    """The student side is derived from what the shim loads, so a shim that loaded the engine would
    make the engine "student side": the rules' own modules must never be among it."""
    ruleset = rulesets.load(game)
    modules, files = student_side(ruleset.shim)
    reference = {ruleset.game.__module__, getattr(ruleset.probes, "__module__", None), rulesets.module_of(game) + ".__init__"}
    assert not modules & reference, sorted(modules & reference)
    package = Path(sys.modules[rulesets.module_of(game)].__file__ or "")
    assert str(package.resolve()) not in files and not any(f.startswith(str(p.resolve())) for p in ruleset.players.values()
                                                           for f in files)
