"""The Colosseum student API inside the player process (see docs/ARCHITECTURE.md, "The shim").

Before the student's `student_agent.py` is imported, the course's modules `constants`, `store`,
`agents` and `agents.agent` (real files under course/) are put in sys.modules with a fresh
AGENT_REGISTRY. The student's file is imported as `agents.student_agent` (so `from .helper import x`
works) and the `agents` package also searches the submission folder (so `from agents.helper
import x` works, as in the course's repository); plain `import helper` works through sys.path[0].

Each turn the agent's `step(chess_board, my_pos, adv_pos, max_step)` gets what the course's
World passed: a fresh NumPy bool array (M, M, 4), position tuples of NumPy ints, K as an int.
"""
from __future__ import annotations

import importlib.machinery
import importlib.util
import sys
import types
from pathlib import Path
from typing import Any

from rulesets.base import check_arity
from rulesets.entry import forget_submissions, import_entry, open_folder

from .engine import ColosseumGame, ColosseumState

PRELOAD = ["numpy"]

ENTRY = "student_agent.py"
ENTRY_MODULE = "agents.student_agent"
COURSE_DIR = Path(__file__).resolve().parent / "course"
# module name -> file under course/, in the order they are loaded; compiled now, before any
# sandbox restriction, so that opening a submission never needs to read them again
COURSE_FILES = {"constants": "constants.py", "store": "store.py",
                "agents": "agents/__init__.py", "agents.agent": "agents/agent.py"}
_COURSE_CODE = {name: compile((COURSE_DIR / rel).read_text(), str(COURSE_DIR / rel), "exec")
                for name, rel in COURSE_FILES.items()}



def install_course_modules(folder: str) -> dict[str, types.ModuleType]:
    """Fresh course modules in sys.modules; `agents.<name>` imports search the submission folder
    (the course's own `agents.agent` is already in sys.modules)."""
    modules = {}
    for name, code in _COURSE_CODE.items():
        is_package = name == "agents"
        spec = importlib.machinery.ModuleSpec(name, None, origin=code.co_filename, is_package=is_package)
        module = importlib.util.module_from_spec(spec)
        module.__file__ = code.co_filename
        if is_package:
            module.__path__ = [folder]
            spec.submodule_search_locations = module.__path__
        sys.modules[name] = module
        exec(code, module.__dict__)
        if "." in name:
            parent, _, child = name.rpartition(".")
            setattr(sys.modules[parent], child, module)
        modules[name] = module
    return modules


def _import_entry(folder: str) -> types.ModuleType:
    module = import_entry(folder, ENTRY, ENTRY_MODULE, aliases=("student_agent",))
    sys.modules["agents"].student_agent = module
    return module


def _pick_agent(registry: dict[str, type]) -> tuple[type | None, str | None]:
    """The class registered from student_agent.py (the one named "student_agent" if it registered
    several, else the first); otherwise a sentence saying what was found instead."""
    own = [(name, cls) for name, cls in registry.items()
           if getattr(cls, "__module__", None) == ENTRY_MODULE]
    if own:
        for name, cls in own:
            if name == "student_agent":
                return cls, None
        return own[0][1], None
    if registry:
        name, cls = next(iter(registry.items()))
        where = getattr(cls, "__module__", "?")
        return None, (f"no agent is registered in {ENTRY}: {cls.__name__} is registered as "
                      f"{name!r} from {where}, but the grader plays the class that {ENTRY} "
                      f"registers with @register_agent.")
    return None, (f"no agent is registered in {ENTRY}: decorate your agent class with "
                  f'@register_agent("student_agent") from store.')


def _is_int(value: Any) -> bool:
    import numpy as np
    return isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_))


def _short(value: Any) -> str:
    try:
        text = repr(value)
    except Exception:  # noqa: BLE001 - a student's __repr__ may raise
        text = f"a {type(value).__name__}"
    text = " ".join(text.split())
    return text if len(text) <= 80 else text[:77] + "..."


def to_wire(result: Any) -> Any:
    """What step() returned → [[r, c], d]; anything that is not ((row, col), dir) → {"invalid": ...}.

    Lenient like the course's World: the position may be any 2-sequence (tuple, list, array) of
    ints or NumPy ints, the direction an int or NumPy int in 0..3.
    """
    why = None
    try:
        pos, direction = result
        row, col = pos
    except Exception:  # noqa: BLE001 - anything that does not unpack is not a move
        why = "it is not a (position, dir) pair"
    else:
        if not (_is_int(row) and _is_int(col)):
            why = "the position must be two integers"
        elif not _is_int(direction):
            why = "dir must be an integer 0..3"
        elif not 0 <= int(direction) <= 3:
            why = f"dir {int(direction)} is not 0..3 (0 Up, 1 Right, 2 Down, 3 Left)"
    if why is not None:
        return {"invalid": f"step returned {_short(result)} (expected ((row, col), dir)): {why}"}
    return [[int(row), int(col)], int(direction)]


class ColosseumPlayer:
    """The handler the sandbox calls: rpc_interface, rpc_setup and rpc_move."""

    def __init__(self, agent_class: type | None, problem: str | None, agent_base: type) -> None:
        self.agent_class = agent_class
        self.problem = problem
        self.agent_base = agent_base
        self.agent = None
        self.seat: int | None = None
        self.game = ColosseumGame()

    def rpc_interface(self) -> list[str]:
        if self.agent_class is None:
            return [self.problem]
        cls = self.agent_class
        problems = []
        if not (isinstance(cls, type) and issubclass(cls, self.agent_base)):
            problems.append(f"{getattr(cls, '__name__', cls)!s} does not extend agents.agent.Agent.")
            if not isinstance(cls, type):
                return problems
        elif cls.step is self.agent_base.step:
            problems.append(f"{cls.__name__} does not define step(); Agent.step only raises "
                            f"NotImplementedError.")
        for name, nargs in (("__init__", 0), ("step", 4)):
            problem = check_arity(cls, name, nargs)
            if problem:
                problems.append(f"{cls.__name__}: {problem}")
        return problems

    def _instantiate(self) -> None:
        if self.agent_class is None:
            raise RuntimeError(self.problem)
        self.agent = self.agent_class()

    def rpc_setup(self, seat: int, state: dict, name: str, options: dict) -> None:
        """Build the agent, as the course's World did before the first turn."""
        self.seat = seat
        self._instantiate()

    def rpc_move(self, state: dict, last: list) -> Any:
        """Ask step() about `state` (the whole position; `last` is not needed)."""
        if self.agent is None:                 # a probe may ask without a setup call
            self._instantiate()
        result = self.agent.step(*step_arguments(self.game.state_from_json(state)))
        return to_wire(result)


def step_arguments(position: ColosseumState) -> tuple:
    """(chess_board, my_pos, adv_pos, max_step) for the player to move, as the course's World
    passed them: a fresh bool array, tuples of NumPy ints, K as a Python int."""
    import numpy as np

    me = position.turn
    my_pos = tuple(np.array(position.positions[me], dtype=np.int64))
    adv_pos = tuple(np.array(position.positions[1 - me], dtype=np.int64))
    return position.chess_board(), my_pos, adv_pos, position.max_step


COURSE_MODULES = (*COURSE_FILES, "agents.", "student_agent")


def forget_course_and_submissions() -> None:
    """Leave no course or student module behind (in-process runs and tests)."""
    forget_submissions(COURSE_MODULES)


def open_submission(path: str, options: dict) -> ColosseumPlayer:
    """Install the course modules, import student_agent.py from `path`, find its agent class."""
    folder = open_folder(path, forget=COURSE_MODULES)
    modules = install_course_modules(folder)
    _import_entry(folder)
    agent_class, problem = _pick_agent(modules["store"].AGENT_REGISTRY)
    return ColosseumPlayer(agent_class, problem, modules["agents.agent"].Agent)
