"""The B3B33ALP student API inside the player's process (see docs/ARCHITECTURE.md, "The shim").

The submission's ``player.py`` defines ``class Player(name)`` with ``initialization(sizex, sizey,
myx, myy, opponentx, opponenty, max_obstacles, list_of_obstacles)``, ``make_move()``,
``opponent_move(moveType, result)``, ``expand_player()`` and ``expand_obstacles()`` (camelCase
and ``all_*`` aliases of the assignment page accepted). It imports the course's ``Obstacle`` with
``from obstacle import *``; this shim registers rulesets/quoridor/obstacle.py as that module. The
course's other file, the example ``manager.py`` (course/), imports too (``from manager import *``).
The player is told positions as plain data (view.py); the engine never enters its process.

Choices (see README.md):
- Before seat 0's first make_move the shim calls ``opponent_move(1, [x2, y2])`` with the
  opponent's start cell, as the course's example manager does (harmless, and students tested with it).
- A move of this player's own that the grader substituted cannot be told through the course's
  API, so it is not passed on.
- The probes bring a FRESH Player to a position. The course's ``initialization`` derives the goal
  row from the current row (``sizey-1 if myy == 0 else 0``), which is wrong for player 1 once it
  has left row 0; the shim then shows the player the board upside down (rows y -> sizey-1-y) and
  turns its answers back, so every student's own derivation gives the right goal.
"""
from __future__ import annotations

import sys
from pathlib import Path

from rulesets.base import check_arity
from rulesets.entry import compile_course, import_entry, install_course, open_folder
from rulesets.values import is_int

from . import obstacle as course_obstacle
from .view import Board, wall_edges

Obstacle = course_obstacle.Obstacle
PRELOAD: list[str] = []
ENTRY = "player.py"
MODULE = "player"
METHODS = (  # (names accepted, first one preferred; arguments besides self)
    (("initialization",), 8),
    (("make_move", "makeMove"), 0),
    (("opponent_move", "opponentMove"), 2),
    (("expand_player", "expandPlayer", "all_player_moves"), 0),
    (("expand_obstacles", "expandObstacles", "all_obstacles"), 0),
)
COURSE_CODE = compile_course(Path(__file__).resolve().parent / "course", {"manager": "manager.py"})


def open_submission(path: str, options: dict) -> QuoridorHandler:
    """Import the submission's player.py with the course's ``obstacle`` module in place."""
    folder = open_folder(path, forget=(MODULE, "manager"))
    sys.modules["obstacle"] = course_obstacle
    install_course(COURSE_CODE)
    return QuoridorHandler(import_entry(folder, ENTRY, MODULE))


def _describe(value) -> str:
    if value is None:
        return "None"
    return f"a {type(value).__name__} ({value!r:.50})"


def _obstacle_problem(o, what: str) -> str | None:
    """A sentence if `o` is not a course Obstacle with whole-number fields."""
    if not isinstance(o, Obstacle):
        if type(o).__name__ == "Obstacle":
            return (f"{what} is an Obstacle of the player's own class (module {type(o).__module__}); "
                    f"it must be the course's Obstacle from obstacle.py (from obstacle import *).")
        return f"{what} is {_describe(o)}, not an Obstacle."
    if not all(is_int(v) for v in (o.fromx, o.fromy, o.tox, o.toy)):
        return f"{what} has fields that are not whole numbers: {o}."
    return None


def _pair_to_edges(pair, what: str, flip=None):
    """[o1, o2] → [[fx,fy,tx,ty], [fx,fy,tx,ty]] (rows turned back by `flip`), or a sentence."""
    if not isinstance(pair, (list, tuple)) or len(pair) != 2:
        return f"{what} is {_describe(pair)}, not a pair [o1, o2] of Obstacle objects."
    edges = []
    for k, o in enumerate(pair, 1):
        problem = _obstacle_problem(o, f"obstacle {k} of {what}")
        if problem:
            return problem
        fy, ty = (o.fromy, o.toy) if flip is None else (flip(o.fromy), flip(o.toy))
        edges.append([o.fromx, fy, o.tox, ty])
    return edges


def to_wire(answer) -> dict:
    """What make_move returned → the wire move, or {"invalid": sentence}."""
    if answer is None:
        return {"type": None}
    if not isinstance(answer, (tuple, list)) or not answer:
        return {"invalid": f"make_move() returned {_describe(answer)}; it must return (1, [x, y]), "
                           f"(2, [o1, o2]) or None."}
    kind = answer[0]
    if kind is None:
        return {"type": None}
    if len(answer) != 2:
        return {"invalid": f"make_move() returned {len(answer)} values ({answer!r:.60}); it must return two."}
    result = answer[1]
    if kind == 1 and not isinstance(kind, bool):
        if (not isinstance(result, (list, tuple)) or len(result) != 2 or not all(is_int(v) for v in result)):
            return {"invalid": f"make_move() returned a step to {_describe(result)}; it must be [x, y]."}
        return {"type": 1, "pos": [result[0], result[1]]}
    if kind == 2 and not isinstance(kind, bool):
        edges = _pair_to_edges(result, "the obstacle make_move() returned")
        if isinstance(edges, str):
            return {"invalid": edges}
        return {"type": 2, "edges": edges}
    return {"invalid": f"make_move() returned the move type {_describe(kind)}; it must be 1, 2 or None."}


def _course_move(move_json: dict):
    """A wire move → the (moveType, result) the course's opponent_move receives."""
    kind = move_json.get("type")
    if kind == 1:
        return 1, list(move_json["pos"])
    if kind == 2:
        return 2, [Obstacle(*e) for e in move_json["edges"]]
    return None, None


class QuoridorHandler:
    """The RPCs of one submission: interface, setup, move, expand_player, expand_obstacles."""

    def __init__(self, module):
        self.module = module
        self.player = None
        self.seat = 0
        self.name = "player"
        self.moved = False

    def _method(self, obj, names: tuple[str, ...]):
        for name in names:
            fn = getattr(obj, name, None)
            if fn is not None:
                return fn
        return None

    def rpc_interface(self) -> list[str]:
        cls = getattr(self.module, "Player", None)
        if not isinstance(cls, type):
            return [f"{ENTRY} must define a class Player (class Player: def __init__(self, name): ...)."]
        problems = []
        arity = check_arity(cls, "__init__", 1)
        if arity:
            problems.append(f"Player: {arity}")
        for names, nargs in METHODS:
            present = next((n for n in names if getattr(cls, n, None) is not None), None)
            if present is None:
                also = f" (also accepted: {', '.join(names[1:])})" if len(names) > 1 else ""
                problems.append(f"Player: {names[0]}() is missing{also}.")
                continue
            arity = check_arity(cls, present, nargs)
            if arity:
                problems.append(f"Player: {arity}")
        return problems

    # ---- games ----------------------------------------------------------------------------
    def rpc_setup(self, seat: int, state: dict | None = None, name: str | None = None,
                  options: dict | None = None) -> None:
        self.seat = int(seat)
        self.name = name or "player"
        start = self._state(state)
        self.player = self._initialised(start, self.seat, may_flip=False)[0]
        self.moved = False

    def rpc_move(self, state: dict, last: list | None = None):
        if self.player is None:
            self.rpc_setup(state.get("ply", 0) % 2, state)
        if not self.moved and self.seat == 0 and not last:
            ox, oy = state["starts"][1]
            self._method(self.player, METHODS[2][0])(1, [ox, oy])
        self.moved = True
        for item in last or []:
            if item.get("seat") != self.seat:
                self._method(self.player, METHODS[2][0])(*_course_move(item["move"]))
        return to_wire(self._method(self.player, METHODS[1][0])())

    # ---- probes ---------------------------------------------------------------------------
    def rpc_expand_player(self, state: dict, seat: int):
        player, flip = self._initialised(self._state(state), int(seat))
        answer = self._method(player, METHODS[3][0])()
        if not isinstance(answer, (list, tuple)):
            return {"invalid": f"expand_player() returned {_describe(answer)}, not a list of [x, y]."}
        out = []
        for k, cell in enumerate(answer, 1):
            if not isinstance(cell, (list, tuple)) or len(cell) != 2 or not all(is_int(v) for v in cell):
                return {"invalid": f"item {k} of expand_player() is {_describe(cell)}, not [x, y]."}
            out.append([cell[0], flip(cell[1])])
        return out

    def rpc_expand_obstacles(self, state: dict, seat: int):
        player, flip = self._initialised(self._state(state), int(seat))
        answer = self._method(player, METHODS[4][0])()
        if not isinstance(answer, (list, tuple)):
            return {"invalid": f"expand_obstacles() returned {_describe(answer)}, not a list of [o1, o2]."}
        out = []
        for k, pair in enumerate(answer, 1):
            edges = _pair_to_edges(pair, f"item {k} of expand_obstacles()", flip)
            if isinstance(edges, str):
                return {"invalid": edges}
            out.append(edges)
        return out

    # ---- helpers --------------------------------------------------------------------------
    @staticmethod
    def _state(data: dict | None) -> Board:
        if not data:
            raise ValueError("the grader sent no position to set the player up with.")
        return Board.from_json(data)

    def _initialised(self, state: Board, seat: int, may_flip: bool = True):
        """A fresh Player(name) told the position with `seat` as "me"; also the row map back."""
        sizey = state.sizey
        me, opp = state.pos[seat], state.pos[1 - seat]
        derived = sizey - 1 if me[1] == 0 else 0
        upside_down = may_flip and derived != (sizey - 1 if seat == 0 else 0)   # seat 0 heads for the top row
        flip = (lambda y: sizey - 1 - y) if upside_down else (lambda y: y)
        obstacles = []
        for ori, x, y in state.walls:
            shown = (ori, x, sizey - 2 - y) if upside_down else (ori, x, y)   # canonical edges either way
            obstacles += [Obstacle(fx, fy, tx, ty) for (fx, fy), (tx, ty) in wall_edges(shown)]
        player = self.module.Player(self.name)
        player.initialization(state.sizex, sizey, me[0], flip(me[1]), opp[0], flip(opp[1]),
                              state.left[seat], obstacles)
        return player, flip
