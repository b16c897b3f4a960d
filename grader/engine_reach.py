"""The player cannot reach the engine: a hostile player of a game (its own built-in player, every
function of which runs the attack; the student side derived from what the game's shim imports)
tries, when first called, every way to the grader's engine: importing it (by name or by file),
reading the ruleset's files, walking frames, closures and the garbage collector for engine objects,
and looking through sys.modules. Each attempt reports what it reached by raising an exception whose
message the caller reads. Shared by `grader selftest` and tests/sandbox/test_engine_out_of_reach.py.
"""
from __future__ import annotations

import functools
import json
import shutil
import subprocess
import sys
from pathlib import Path

import rulesets
from rulesets.base import Ruleset
from sandbox import CallResult, Limits, PlayerProcess, Verdict

RULESETS = Path(rulesets.__file__).resolve().parent
LIMITS = Limits(start_s=60.0, call_s=60.0, first_call_s=60.0, kill_after_s=5.0)
KINDS = ("import", "read", "walk", "modules")    # the attacks, each run by a player of its own

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
    for name in rulesets.names():
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



class Unreached(AssertionError):
    """The attacker could not be made or run (a game without a built-in player, a shim that does not
    start): one sentence."""


def hostile(where: Path, ruleset: Ruleset, kind: str) -> Path:
    """A player folder under `where` whose every function runs attack `kind`: the game's built-in
    player (its random one where it has one) armed at the end of its entry file."""
    if not ruleset.players:
        raise Unreached(f"{ruleset.name}: RULESET.players is empty, so there is no player to arm as the attacker.")
    files = reference_files()
    folders = sorted({str(Path(f).parent) for f in files})
    allowed = every_student_side()[0]     # a package's name is its stand-in (its __init__ is checked apart)
    modules = sorted({m for m in map(module_name, files) if m and m not in allowed})
    folder = where / f"{ruleset.name}-{kind}"
    shutil.copytree(ruleset.players.get("random") or next(iter(ruleset.players.values())), folder,
                    ignore=shutil.ignore_patterns("__pycache__"))
    entry = folder / ruleset.entry
    entry.write_text(entry.read_text(encoding="utf-8") + ARMING.format(kind=kind), encoding="utf-8")
    (folder / "attack.py").write_text(ATTACK.format(game=ruleset.name, allowed=sorted(allowed), files=files,
                                                    folders=folders, modules=modules))
    return folder


def play_one_move(ruleset: Ruleset, folder: Path, pool=None) -> tuple[CallResult, str]:
    """The player's first call that did not answer (its set-up or its move), and how it started."""
    state = ruleset.game().new_state(3)
    with PlayerProcess(ruleset.shim, str(folder), LIMITS, name=folder.name, prefork=pool) as p:
        started = p.start()
        if not started.ok:
            raise Unreached(f"{ruleset.name}: the attacking player did not start ({started.verdict.value}: "
                            f"{started.message}); {p.close().output[-300:]}")
        setup = p.call("setup", {"seat": state.to_move, "state": state.to_json(), "name": "x", "options": {}})
        if not setup.ok:
            return setup, p.started_by
        result = p.call("move", {"state": state.to_json(), "last": []})
        return result, p.started_by


def reached(result: CallResult, kind: str) -> str | None:
    """What the attack reached, as a sentence; None when it reached nothing (it raised "CLEAN kind")."""
    if result.verdict is Verdict.ERROR and result.message.startswith(f"RuntimeError: CLEAN {kind}"):
        return None
    if result.verdict is Verdict.ERROR and "FOUND " in result.message:
        found = result.message.split("FOUND ", 1)[1]
        return f"a player reached the engine's side by {kind}: {found[:400]}"
    return (f"the attack by {kind} did not report (the player's call ended {result.verdict.value}: "
            f"{result.message[:300]}), so whether it reached the engine is unknown.")


def shim_loads_no_reference_code(ruleset: Ruleset) -> str | None:
    """The student side is derived from what the shim loads, so a shim that loaded the engine would
    make the engine "student side": the rules' own modules must never be among it. A sentence if they are."""
    modules, files = student_side(ruleset.shim)
    package_name = rulesets.module_of(ruleset.name)
    reference = {ruleset.game.__module__, getattr(ruleset.probes, "__module__", None), package_name + ".__init__"}
    if modules & reference:
        return (f"{ruleset.name}: the shim {ruleset.shim} loads {', '.join(sorted(m for m in modules & reference if m))}, "
                f"the grader's side: a player could use the rules (import only rulesets.base, rulesets.values, "
                f"sandbox.module_shim and course files).")
    package = Path(sys.modules[package_name].__file__ or "")
    if str(package.resolve()) in files:
        return f"{ruleset.name}: the shim {ruleset.shim} runs the package's __init__.py, which holds the record and the engine."
    for folder in ruleset.players.values():
        inside = sorted(f for f in files if f.startswith(str(Path(folder).resolve())))
        if inside:
            return f"{ruleset.name}: the shim {ruleset.shim} loads the built-in player's file {inside[0]}."
    return None
