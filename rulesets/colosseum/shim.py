"""The Colosseum student API inside the player process (see docs/ARCHITECTURE.md, "The shim").

The course's whole environment is offered as the course shipped it (course/, the grader's own
implementation): `constants`, `store`, `agents` (with the sample agents `agents.random_agent` and
`agents.human_agent`, loaded when named), `agents.agent`, `utils`, `ui`, `world` and `simulator`; and the course's requirements NumPy, Matplotlib (Agg backend; its config and font cache
resolved before the sandbox closes, so nothing needs to be written), tqdm and click.
`constants`, `store`, `agents` and `agents.agent` are put in sys.modules before the student's
`student_agent.py` is imported, with a fresh AGENT_REGISTRY; the others load when imported (a
student's own file of the same name wins). The student's file is imported as `agents.student_agent`
(so `from .helper import x` works) and the `agents` package also searches the submission folder (so
`from agents.helper import x` works, as in the course's repository); plain `import helper` works
through sys.path[0].

Each turn the agent's `step(chess_board, my_pos, adv_pos, max_step)` gets what the course's
World passed: a fresh NumPy bool array (M, M, 4), position tuples of NumPy ints, K as an int, built
here from the position's plain data (the grader's engine never enters this process).
"""
from __future__ import annotations

import os
import sys
import types
from pathlib import Path
from typing import Any

import numpy as np

from rulesets.base import check_arity, invalid
from rulesets.entry import compile_course, forget_submissions, import_entry, install_course, open_folder
from rulesets.values import is_int, short_repr


def _prepare_matplotlib() -> list[str]:
    """Agg backend; the config and cache folders chosen now, while they may still be created (a
    grader-owned one in the environment when it is writable), with the font list built once; the
    folders to keep readable in the sandbox."""
    os.environ.setdefault("MPLBACKEND", "Agg")
    if "MPLCONFIGDIR" not in os.environ:
        folder = os.path.join(sys.prefix, "var", "grader-matplotlib")
        try:
            os.makedirs(folder, mode=0o755, exist_ok=True)
            writable = os.access(folder, os.W_OK)
        except OSError:
            writable = False
        if writable:
            os.environ["MPLCONFIGDIR"] = folder
    try:                                 # here: Matplotlib is one of the course's requirements, maybe absent
        import matplotlib
    except ImportError:                  # installed without the course's requirements: agents that
        return []                        # import it fail to load, and say so
    dirs = [matplotlib.get_configdir(), matplotlib.get_cachedir()]     # cached by Matplotlib from now on
    if not any(name.startswith("fontlist-") for name in os.listdir(dirs[1])):
        import matplotlib.font_manager  # here: builds the font cache (seconds), only when it is missing
    return dirs


NUMBERS = (int, np.integer)             # a whole number the agent returns: a Python or a NumPy integer
READ_PATHS = _prepare_matplotlib()
PRELOAD = ["numpy", "matplotlib"] if READ_PATHS else ["numpy"]

ENTRY = "student_agent.py"
ENTRY_MODULE = "agents.student_agent"
# module name -> file under course/; compiled now, before any sandbox restriction
COURSE_FILES = {"constants": "constants.py", "store": "store.py", "agents.agent": "agents/agent.py",
                "agents": "agents/__init__.py", "agents.random_agent": "agents/random_agent.py",
                "agents.human_agent": "agents/human_agent.py", "utils": "utils.py", "ui": "ui.py",
                "world": "world.py", "simulator": "simulator.py"}
INSTALLED = ("constants", "store", "agents", "agents.agent")      # always the course's, in this order
COURSE_DIR = Path(__file__).resolve().parent / "course"
_COURSE_CODE = compile_course(COURSE_DIR, COURSE_FILES)


def install_course_modules(folder: str) -> dict[str, types.ModuleType]:
    """Fresh course modules (see the module docstring); `agents.<name>` imports search the
    submission folder first."""
    return install_course(_COURSE_CODE, INSTALLED, packages={"agents": [folder]})


def _import_entry(folder: str) -> types.ModuleType:
    module = import_entry(folder, ENTRY, ENTRY_MODULE, aliases=("student_agent",))
    sys.modules["agents"].student_agent = module  # type: ignore[attr-defined]  # the course's package, made here
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
    others = {name: cls for name, cls in registry.items()
              if getattr(cls, "__module__", None) not in _COURSE_CODE}       # not the course's sample agents
    if others:
        name, cls = next(iter(others.items()))
        where = getattr(cls, "__module__", "?")
        return None, (f"no agent is registered in {ENTRY}: {cls.__name__} is registered as "
                      f"{name!r} from {where}, but the grader plays the class that {ENTRY} "
                      f"registers with @register_agent.")
    return None, (f"no agent is registered in {ENTRY}: decorate your agent class with "
                  f'@register_agent("student_agent") from store.')


def to_wire(result: Any) -> Any:
    """What step() returned → [[r, c], d]; anything that is not ((row, col), dir) → {"invalid": ...}.

    Lenient like the course's World: the position may be any 2-sequence (tuple, list, array) of
    ints or NumPy ints, the direction an int or NumPy int in 0..3.
    """
    why = None
    try:
        pos, direction = result
        row, col = pos
    except Exception:
        why = "it is not a (position, dir) pair"
    else:
        if not (is_int(row, NUMBERS) and is_int(col, NUMBERS)):
            why = "the position must be two integers"
        elif not is_int(direction, NUMBERS):
            why = "dir must be an integer 0..3"
        elif not 0 <= int(direction) <= 3:
            why = f"dir {int(direction)} is not 0..3 (0 Up, 1 Right, 2 Down, 3 Left)"
    if why is not None:
        return invalid(f"step returned {short_repr(result, 80, one_line=True)} (expected ((row, col), dir)): {why}", result)
    return [[int(row), int(col)], int(direction)]


class ColosseumPlayer:
    """The handler the sandbox calls: rpc_interface, rpc_setup and rpc_move."""

    def __init__(self, agent_class: type | None, problem: str | None, agent_base: type) -> None:
        self.agent_class = agent_class
        self.problem = problem
        self.agent_base = agent_base
        self.agent: Any = None
        self.seat: int | None = None

    def rpc_interface(self) -> list[str]:
        if self.agent_class is None:
            return [self.problem or "the submission has no agent class"]
        cls = self.agent_class
        problems = []
        if not (isinstance(cls, type) and issubclass(cls, self.agent_base)):
            problems.append(f"{getattr(cls, '__name__', cls)!s} does not extend agents.agent.Agent.")
            if not isinstance(cls, type):
                return problems
        elif getattr(cls, "step", None) is getattr(self.agent_base, "step", None):
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
        return to_wire(self.agent.step(*step_arguments(state)))


MOVES = ((-1, 0), (0, 1), (1, 0), (0, -1))      # Up, Right, Down, Left: the last index of chess_board


def step_arguments(state: dict) -> tuple:
    """(chess_board, my_pos, adv_pos, max_step) for the player to move in the position `state`
    (State.to_json: board_size, barriers (r, c, d), positions, turn), as the course's World passed
    them: a fresh bool array with the border walled, tuples of NumPy ints, K as a Python int."""
    m = int(state["board_size"])
    board = np.zeros((m, m, 4), dtype=bool)
    board[0, :, 0] = board[:, -1, 1] = board[-1, :, 2] = board[:, 0, 3] = True
    for r, c, d in state.get("barriers", ()):
        dr, dc = MOVES[d]
        board[r, c, d] = board[r + dr, c + dc, (d + 2) % 4] = True
    me = int(state.get("turn", 0))
    positions = state["positions"]
    my_pos = tuple(np.array(positions[me], dtype=np.int64))
    adv_pos = tuple(np.array(positions[1 - me], dtype=np.int64))
    return board, my_pos, adv_pos, (m + 1) // 2


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
