"""The Quoridor-like game of CTU B3B33ALP (BRUTE, 2017/18): rules, moves, end of game.

Canonical moves: ("step", x, y), ("wall", "H"|"V", x, y) (see geometry.py) and ("pass",).
Wire moves (what the shim sends, after the course's make_move): {"type": 1, "pos": [x, y]},
{"type": 2, "edges": [[fx, fy, tx, ty], [fx, fy, tx, ty]]}, {"type": null}, {"invalid": "..."}.
Seat 0 (player 1) starts on row 0 and heads for row sizey-1; seat 1 (player 2) the reverse.
Paths for the "keep a way to the goal" rule ignore pawns (the rules file's recommendation).
"""
from __future__ import annotations

import random
from collections.abc import Iterable
from typing import Any

from rulesets.base import JSON, BadParams, Game, IllegalMove, Move, Outcome, State, refuse
from rulesets.values import is_int

from . import geometry as G
from .geometry import Cell, Wall
from .render import render_svg, render_text

PASS = ("pass",)
PLAYER = ("player 1", "player 2")


def step(x: int, y: int) -> tuple:
    return ("step", x, y)


def wall_move(wall: Wall) -> tuple:
    return ("wall",) + tuple(wall)


class QuoridorGame(Game):
    """Board size, wall supply, start columns, initial walls and the ply cap."""

    name = "quoridor"
    version = "2"          # 2: initial walls never box a pawn in, so no game starts already over

    @classmethod
    def check_params(cls, params: dict) -> dict:
        known = {"sizex", "sizey", "max_obstacles", "start", "initial_obstacles", "ply_cap"}
        unknown = sorted(set(params) - known)
        if unknown:
            raise BadParams(f"unknown quoridor parameter(s) {', '.join(unknown)}; "
                            f"known: {', '.join(sorted(known))}.")
        sizex = _int(params, "sizex", 9, 2, 30)
        sizey = _int(params, "sizey", 9, 2, 30)
        out: dict[str, Any] = {"sizex": sizex, "sizey": sizey,
               "max_obstacles": _int(params, "max_obstacles", 4, 0, 1000),
               "ply_cap": _int(params, "ply_cap", 4 * sizex * sizey, 1, 10**6)}
        start = params.get("start", "course")
        if start not in ("course", "random"):
            if (not isinstance(start, (list, tuple)) or len(start) != 2
                    or not all(is_int(c) and 0 <= c < sizex for c in start)):
                raise BadParams(f"start must be \"course\", \"random\" or two columns [c1, c2] in "
                                f"0..{sizex - 1}, not {start!r}.")
            start = [int(c) for c in start]
        out["start"] = start
        initial = params.get("initial_obstacles", 0)
        if is_int(initial):
            if initial < 0:
                raise BadParams(f"initial_obstacles must be a count >= 0 or a list of obstacles, not {initial}.")
            out["initial_obstacles"] = int(initial)
        else:
            walls = _walls_from_param(initial, sizex, sizey)
            out["initial_obstacles"] = [[list(e[0]) + list(e[1]) for e in G.wall_edges(w)] for w in walls]
            probe = QuoridorState.empty(sizex, sizey)
            for w in walls:
                probe._add(w, None)
            if not _start_columns(probe, start, 0) or not _start_columns(probe, start, 1):
                raise BadParams("initial_obstacles cut a start cell off from its goal row.")
            if start != "random":
                probe.pos = [(_start_columns(probe, start, 0)[0], 0),
                             (_start_columns(probe, start, 1)[0], sizey - 1)]
                if probe.boxed_in(0) or probe.boxed_in(1):
                    raise BadParams("initial_obstacles leave a pawn no step at the start, so the game "
                                    "would be over before it began.")
        return out

    def new_state(self, seed: int) -> QuoridorState:
        p = self.params
        rng = random.Random(seed)
        state = QuoridorState(self, (0, 0), (0, p["sizey"] - 1))
        if isinstance(p["initial_obstacles"], list):
            for pair in p["initial_obstacles"]:
                wall = G.wall_from_edges(*[((e[0], e[1]), (e[2], e[3])) for e in pair])
                assert wall is not None                    # check_params built these edges from walls
                state._add(wall, None)
        columns = [rng.choice(_start_columns(state, p["start"], seat)) for seat in (0, 1)]
        state.pos = [(columns[0], 0), (columns[1], p["sizey"] - 1)]
        if state.boxed_in(0) or state.boxed_in(1):         # listed walls and a random start
            state.pos = rng.choice([pos for pos in ([(c0, 0), (c1, p["sizey"] - 1)]
                                                    for c0 in _start_columns(state, "random", 0)
                                                    for c1 in _start_columns(state, "random", 1))
                                    if not _pawn_boxed_in(state, pos)])
        state.starts = list(state.pos)
        if isinstance(p["initial_obstacles"], int):
            for _ in range(p["initial_obstacles"]):
                free = [w for w in state.legal_walls(None)
                        if not (state.boxed_in(0, G.wall_edges(w)) or state.boxed_in(1, G.wall_edges(w)))]
                if not free:
                    break
                state._add(rng.choice(free), None)
        state.n_initial = len(state.walls)
        state._settle()
        return state

    def state_from_json(self, data: dict) -> QuoridorState:
        state = QuoridorState(self, tuple(data["pos"][0]), tuple(data["pos"][1]))
        state.starts = [tuple(c) for c in data["starts"]]
        for item in data["walls"]:
            state._add(tuple(item["wall"]), item["by"], item["ply"])
        state.n_initial = data["n_initial"]
        state.left = list(data["left"])
        state.ply = data["ply"]
        state.passes = data["passes"]
        out = data.get("outcome")
        state._outcome = None if out is None else Outcome(tuple(out["points"]), tuple(out["scores"]),
                                                          out["reason"], out["detail"])
        return state


def _int(params: dict, key: str, default: int, low: int, high: int) -> int:
    value = params.get(key, default)
    if not is_int(value) or not low <= value <= high:
        raise BadParams(f"{key} must be a whole number from {low} to {high}, not {value!r}.")
    return value


def _walls_from_param(items: Any, sizex: int, sizey: int) -> list[Wall]:
    """initial_obstacles as walls: a list of [[fx,fy,tx,ty],[fx,fy,tx,ty]] pairs or a flat list of edges."""
    if not isinstance(items, (list, tuple)):
        raise BadParams(f"initial_obstacles must be a count or a list of obstacles, not {items!r}.")
    if items and all(isinstance(e, (list, tuple)) and len(e) == 4 for e in items):
        if len(items) % 2:
            raise BadParams("initial_obstacles as a flat list of edges needs an even length (two per obstacle).")
        items = [items[i:i + 2] for i in range(0, len(items), 2)]
    walls: list[Wall] = []
    probe = QuoridorState.empty(sizex, sizey)
    for k, pair in enumerate(items, 1):
        try:
            wall = _wall_from_wire(pair)
        except IllegalMove as exc:
            raise BadParams(f"initial obstacle {k}: {exc}") from None
        refusal = probe._wall_refusal(wall, None, check_paths=False)
        if refusal:
            raise BadParams(f"initial obstacle {k}: {refusal}")
        probe._add(wall, None)
        walls.append(wall)
    return walls


def _start_columns(state: QuoridorState, start: Any, seat: int) -> list[int]:
    """Columns a seat may start in under the `start` option whose cell still reaches its goal row."""
    sx, sy = state.sizex, state.sizey
    row, goal = (0, sy - 1) if seat == 0 else (sy - 1, 0)
    wanted = [sx // 2] if start == "course" else list(range(sx)) if start == "random" else [start[seat]]
    return [c for c in wanted if G.shortest_path((c, row), goal, state.blocked, sx, sy) is not None]


def _pawn_boxed_in(state: QuoridorState, pos: list) -> bool:
    """Would either pawn, placed at `pos`, have no step?"""
    probe = state.copy()
    probe.pos = list(pos)
    return probe.boxed_in(0) or probe.boxed_in(1)


def _wall_from_wire(pair: Any) -> Wall:
    """Two course edges [fx,fy,tx,ty] (any order, any direction) → a wall; IllegalMove otherwise."""
    if not isinstance(pair, (list, tuple)) or len(pair) != 2:
        raise IllegalMove(f"an obstacle must be two Obstacle objects (edges), got {pair!r:.60}.")
    edges = []
    for e in pair:
        if (not isinstance(e, (list, tuple)) or len(e) != 4 or not all(is_int(v) for v in e)):
            raise IllegalMove(f"an obstacle edge must be four whole numbers fromx, fromy, tox, toy, got {e!r:.60}.")
        a, b = (e[0], e[1]), (e[2], e[3])
        if abs(a[0] - b[0]) + abs(a[1] - b[1]) != 1:
            raise IllegalMove(f"obstacle edge {G.edge_text((a, b))} does not join two neighbouring cells.")
        edges.append((a, b))
    wall = G.wall_from_edges(*edges)
    if wall is None:
        raise IllegalMove(f"the edges {G.edge_text(edges[0])} and {G.edge_text(edges[1])} do not make one "
                          f"two-cell obstacle (they must be parallel neighbours side by side).")
    return wall


class QuoridorState(State):
    """Pawns, walls (with who placed them and when), walls left per seat, ply, consecutive passes."""

    def __init__(self, game: QuoridorGame | None, pos0: Cell, pos1: Cell):
        self.game = game  # type: ignore[assignment]  # None: a bare board built by the tests and probes
        params = game.params if game is not None else {}
        self.sizex = params.get("sizex", 9)
        self.sizey = params.get("sizey", 9)
        self.pos: list[Cell] = [(pos0[0], pos0[1]), (pos1[0], pos1[1])]
        self.starts: list[Cell] = list(self.pos)
        self.walls: list[tuple[Wall, int | None, int]] = []    # (wall, seat or None if initial, ply)
        self.blocked: dict = {}                                 # edge -> index in self.walls
        m = params.get("max_obstacles", 4)
        self.left = [m, m]
        self.n_initial = 0
        self.ply = 0
        self.passes = 0
        self._outcome: Outcome | None = None

    @classmethod
    def empty(cls, sizex: int, sizey: int) -> QuoridorState:
        """A bare board for checking walls before a game exists (config validation)."""
        state = cls(None, (0, 0), (0, sizey - 1))
        state.sizex, state.sizey = sizex, sizey
        return state

    # ---- queries ------------------------------------------------------------------------
    @staticmethod
    def goal_row(seat: int, sizey: int) -> int:
        return sizey - 1 if seat == 0 else 0

    @property
    def to_move(self) -> int | None:
        return None if self._outcome is not None else self.ply % 2

    @property
    def outcome(self) -> Outcome | None:
        return self._outcome

    @property
    def wall_cap(self) -> int:
        """The total cap 2m + n of walls on the board."""
        return 2 * self.game.params["max_obstacles"] + self.n_initial

    def legal_moves(self) -> list[Move]:
        seat = self.to_move
        if seat is None:
            return []
        moves = self.steps(seat) + [wall_move(w) for w in self.legal_walls(seat)]
        return moves or [PASS]

    def steps(self, seat: int) -> list[tuple]:
        """The seat's legal pawn steps, sorted by (x, y)."""
        x, y = self.pos[seat]
        found = [step(x + dx, y + dy) for dx, dy in G.DIRECTIONS
                 if self._step_refusal(seat, (x + dx, y + dy)) is None]
        return sorted(found)

    def legal_walls(self, seat: int | None) -> list[Wall]:
        """Walls the seat may place now (seat None: ignore supply and cap, as for initial walls)."""
        if seat is not None and self._supply_refusal(seat):
            return []
        paths = self._paths()
        return [w for w in G.all_walls(self.sizex, self.sizey)
                if self._wall_refusal(w, None, paths=paths) is None]

    def _paths(self) -> list[set]:
        out = []
        for seat in (0, 1):
            path = G.shortest_path(self.pos[seat], self.goal_row(seat, self.sizey), self.blocked,
                                   self.sizex, self.sizey)
            out.append(G.path_edges(path or []))
        return out

    def boxed_in(self, seat: int, extra: Iterable = ()) -> bool:
        """The seat's pawn has no step (walls, the board's edge and the other pawn all around it),
        with the walls' edges `extra` added."""
        extra = set(extra)
        x, y = self.pos[seat]
        return not any(self._step_refusal(seat, (x + dx, y + dy)) is None
                       and G.edge((x, y), (x + dx, y + dy)) not in extra for dx, dy in G.DIRECTIONS)

    def distance(self, seat: int, extra: Iterable = ()) -> int | None:
        path = G.shortest_path(self.pos[seat], self.goal_row(seat, self.sizey), self.blocked,
                               self.sizex, self.sizey, extra)
        return None if path is None else len(path) - 1

    # ---- refusals: None when legal, else one sentence -------------------------------------------
    def _step_refusal(self, seat: int, to: Cell) -> str | None:
        x, y = self.pos[seat]
        tx, ty = to
        if abs(tx - x) + abs(ty - y) != 1:
            return f"step to ({tx},{ty}) is not one cell left, right, up or down from ({x},{y})."
        if not (0 <= tx < self.sizex and 0 <= ty < self.sizey):
            return f"step to ({tx},{ty}) leaves the {self.sizex}x{self.sizey} board."
        if (tx, ty) == self.pos[1 - seat]:
            return f"step to ({tx},{ty}) is onto the opponent."
        index = self.blocked.get(G.edge((x, y), (tx, ty)))
        if index is not None:
            return f"step from ({x},{y}) to ({tx},{ty}) crosses {self._wall_name(index)}."
        return None

    def _supply_refusal(self, seat: int) -> str | None:
        if self.left[seat] <= 0:
            return (f"{PLAYER[seat]} has no obstacles left "
                    f"(all {self.game.params['max_obstacles']} are placed).")
        if len(self.walls) >= self.wall_cap:
            return f"the board already holds the most obstacles allowed (2m+n = {self.wall_cap})."
        return None

    def _wall_refusal(self, wall: Wall, seat: int | None, check_paths: bool = True,
                      paths: list[set] | None = None) -> str | None:
        if seat is not None:
            refusal = self._supply_refusal(seat)
            if refusal:
                return refusal
        text = G.wall_text(wall)
        if not G.wall_inside(wall, self.sizex, self.sizey):
            return (f"obstacle {text} is not inside the {self.sizex}x{self.sizey} board "
                    f"(it may not lie on or stick out of the outer edge).")
        edges = G.wall_edges(wall)
        for e in edges:
            index = self.blocked.get(e)
            if index is not None:
                return f"obstacle {text} overlaps {self._wall_name(index)}."
        if not check_paths:
            return None
        paths = paths if paths is not None else self._paths()
        for who in (0, 1):
            if paths[who].isdisjoint(edges):
                continue
            if G.shortest_path(self.pos[who], self.goal_row(who, self.sizey), self.blocked,
                               self.sizex, self.sizey, edges) is None:
                return (f"that obstacle ({text}) would cut {PLAYER[who]} off from "
                        f"row {self.goal_row(who, self.sizey)}.")
        return None

    def _wall_name(self, index: int) -> str:
        wall, by, ply = self.walls[index]
        if by is None:
            return f"an initial obstacle ({G.wall_text(wall)})"
        return f"the obstacle placed on move {ply + 1} ({G.wall_text(wall)}, by {PLAYER[by]})"

    def refusal(self, move: Move, seat: int | None = None) -> str | None:
        """Why `move` is illegal for `seat` (default: the seat to move), or None."""
        if self._outcome is not None:
            return "the game is already over."
        seat = self.to_move if seat is None else seat
        assert seat is not None                    # the game is not over: someone is to move
        kind = move[0] if isinstance(move, tuple) and move else None
        if kind in ("step", "wall") and not all(is_int(v) for v in move[-2:]):
            return f"{move!r:.60} is not a move: coordinates must be whole numbers."
        if kind == "step" and len(move) == 3:
            return self._step_refusal(seat, (move[1], move[2]))
        if kind == "wall" and len(move) == 4:
            return self._wall_refusal((move[1], move[2], move[3]), seat)
        if move == PASS:
            options = self.steps(seat)
            if options:
                return (f"passing is allowed only when no move is possible, but {PLAYER[seat]} can "
                        f"step to ({options[0][1]},{options[0][2]}).")
            walls = self.legal_walls(seat)
            if walls:
                return (f"passing is allowed only when no move is possible, but {PLAYER[seat]} can "
                        f"place the obstacle {G.wall_text(walls[0])}.")
            return None
        return f"{move!r:.60} is not a move."

    # ---- playing ------------------------------------------------------------------------
    def play(self, move: Move) -> None:
        reason = self.refusal(move)
        if reason is not None:
            raise IllegalMove(reason)
        seat = self.to_move
        assert seat is not None                    # refusal() said the game is not over
        if move[0] == "step":
            self.pos[seat] = (move[1], move[2])
            self.passes = 0
        elif move[0] == "wall":
            self._add((move[1], move[2], move[3]), seat, self.ply)
            self.left[seat] -= 1
            self.passes = 0
        else:
            self.passes += 1
        self.ply += 1
        self._settle()

    def _add(self, wall: Wall, by: int | None, ply: int = -1) -> None:
        wall = (wall[0], wall[1], wall[2])
        self.walls.append((wall, by, ply))
        for e in G.wall_edges(wall):
            self.blocked[e] = len(self.walls) - 1

    def _settle(self) -> None:
        """Decide whether the game has ended after the last move."""
        for seat in (0, 1):
            row = self.goal_row(seat, self.sizey)
            if self.pos[seat][1] == row:
                points = (1.0, 0.0) if seat == 0 else (0.0, 1.0)
                self._outcome = Outcome(points, points, "goal", f"{PLAYER[seat].capitalize()} reached row {row}.")
                return
        mover = self.ply % 2
        if self.passes >= 2 or (not self._can_act(mover) and not self._can_act(1 - mover)):
            self._outcome = Outcome((0.0, 0.0), (0.0, 0.0), "no_moves",
                                    "Neither player can step or place an obstacle: both lose.")
            return
        if self.ply >= self.game.params["ply_cap"]:
            self._outcome = Outcome((0.5, 0.5), (0.5, 0.5), "ply_cap",
                                    f"The game reached the cap of {self.ply} plies: a draw.")

    def _can_act(self, seat: int) -> bool:
        return bool(self.steps(seat)) or bool(self.legal_walls(seat))

    # ---- wire and storage ---------------------------------------------------------------
    def parse_move(self, data: JSON) -> Move:
        refuse(data)
        if not isinstance(data, dict) or "type" not in data:
            raise IllegalMove(f"a move must be {{'type': 1, 'pos': [x, y]}}, {{'type': 2, 'edges': "
                              f"[...]}} or {{'type': None}}, not {data!r:.60}.")
        kind = data["type"]
        if kind is None:
            return PASS
        if kind == 1 and not isinstance(kind, bool):
            pos = data.get("pos")
            if not isinstance(pos, (list, tuple)) or len(pos) != 2 or not all(is_int(v) for v in pos):
                raise IllegalMove(f"a step must give the new position as [x, y], not {pos!r:.60}.")
            return step(pos[0], pos[1])
        if kind == 2 and not isinstance(kind, bool):
            return wall_move(_wall_from_wire(data.get("edges")))
        raise IllegalMove(f"the move type must be 1 (step), 2 (obstacle) or None (no move), not {kind!r:.30}.")

    def move_to_json(self, move: Move) -> JSON:
        if move[0] == "step":
            return {"type": 1, "pos": [move[1], move[2]]}
        if move[0] == "wall":
            return {"type": 2, "edges": [list(a) + list(b) for a, b in G.wall_edges(move[1:])]}
        return {"type": None}

    def move_text(self, move: Move) -> str:
        if move[0] == "step":                 # the course's [x, y] and Obstacle pairs, without the
            return f"pawn to [{move[1]}, {move[2]}]"    # move-type number students misread as a player
        if move[0] == "wall":
            return f"wall {G.wall_text(move[1:])}"
        return "no move"

    def copy(self) -> QuoridorState:
        new = QuoridorState.__new__(QuoridorState)
        new.__dict__.update(self.__dict__)
        new.pos = list(self.pos)
        new.starts = list(self.starts)
        new.walls = list(self.walls)
        new.blocked = dict(self.blocked)
        new.left = list(self.left)
        return new

    def to_json(self) -> dict:
        out = self._outcome
        return {"params": dict(self.game.params), "pos": [list(p) for p in self.pos],
                "starts": [list(p) for p in self.starts],
                "walls": [{"wall": list(w), "by": by, "ply": ply} for w, by, ply in self.walls],
                "n_initial": self.n_initial, "left": list(self.left), "ply": self.ply,
                "passes": self.passes,
                "outcome": None if out is None else {"points": list(out.points), "scores": list(out.scores),
                                                     "reason": out.reason, "detail": out.detail}}

    def render_text(self, marks: dict[str, Iterable[Move]] | None = None) -> str:
        return render_text(self, marks)

    def render_svg(self, marks: dict[str, Iterable[Move]] | None = None) -> str:
        return render_svg(self, marks)


def position(sizex: int, sizey: int, me: Cell, opponent: Cell, walls: Iterable[Wall] = (),
             max_obstacles: int = 4, left: tuple[int, int] | None = None, seat: int = 0) -> QuoridorState:
    """A hand-made position with `seat` to move at `me` (the tests' and probes' set-up).

    The walls count as initial ones and must each be legal (ValueError otherwise); `left` is the
    walls (me, opponent) have left (default m each)."""
    game = QuoridorGame(sizex=sizex, sizey=sizey, max_obstacles=max_obstacles)
    pos = [(me[0], me[1]), (opponent[0], opponent[1])]
    if seat == 1:
        pos.reverse()
    state = QuoridorState(game, pos[0], pos[1])
    state.starts = [(pos[0][0], 0), (pos[1][0], sizey - 1)]
    for w in walls:
        wall = (w[0], w[1], w[2])
        refusal = state._wall_refusal(wall, None)
        if refusal:
            raise ValueError(refusal)
        state._add(wall, None)
    state.n_initial = len(state.walls)
    if left is not None:
        state.left = list(left) if seat == 0 else [left[1], left[0]]
    state.ply = seat
    return state
