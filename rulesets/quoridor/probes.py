"""BRUTE's SemBasic stages for the Quoridor-like game: expand_player and expand_obstacles.

Each case hands the shim a position and a seat; the shim brings a fresh Player there and returns
its generator's answer as plain JSON, which `check` compares with the engine as sets (walls as
sets of undirected edges, so order and direction never matter). The course's hand-made positions
are the same whatever board size the league is configured with; the other positions are reached by
play in the assignment's own game, drawn from the check's own seed, so a check asks what a game does.

The page leaves two conventions of the path rule open, and in some positions they change which
obstacles are legal: whether pawns block the path to the goal row, and whether the opponent's goal
is the row opposite the player's or derived from the opponent's own row (as the course derives the
player's). expand_obstacles accepts the answer of every reading (`wall_readings`); no position
depends on anything else. Positions that cannot occur in play (a pawn on its goal row) are not asked.
"""
from __future__ import annotations

import functools
from collections.abc import Callable, Set
from typing import Any

from rulesets.base import IllegalMove, Mismatch, Probe, ProbeCase, played_turns

from . import geometry as G
from .engine import QuoridorGame, QuoridorState, _wall_from_wire, position, step, wall_move
from .geometry import wall_text

PLAYED_POSITIONS = 30      # positions drawn from the check's own seed, besides the hand-made ones
TURNS_PER_GAME = 3         # of one seat, in each game played to draw them
# (label, sizex, sizey, me, opponent, walls, max_obstacles, walls left (me, opponent) or None)
HAND_MADE = [
    ("Q1: the assignment page's 4x4 example", 4, 4, (0, 0), (0, 3), [("H", 0, 1)], 5, None),
    ("Q2: empty 3x3 board", 3, 3, (1, 0), (1, 2), [], 4, None),
    ("Q2: empty 4x4 board", 4, 4, (2, 0), (2, 3), [], 4, None),
    ("Q2: empty 5x5 board", 5, 5, (2, 0), (2, 4), [], 4, None),
    ("Q2: empty 9x9 board", 9, 9, (4, 0), (4, 8), [], 4, None),
    ("Q3: the path rule removes placements", 3, 3, (0, 0), (0, 2), [("H", 0, 0)], 4, None),
    ("Q5: a move beside the opponent", 4, 4, (1, 0), (1, 1), [], 4, None),
    ("rectangular 5x3 board", 5, 3, (2, 0), (1, 2), [("V", 1, 0)], 4, None),
    ("rectangular 3x6 board", 3, 6, (1, 2), (0, 4), [("H", 0, 2), ("V", 1, 3)], 4, None),
    ("rectangular 7x4 board", 7, 4, (3, 1), (5, 2), [("H", 2, 1), ("H", 4, 1), ("V", 0, 2)], 4, None),
    ("walls that cross at their midpoints", 5, 5, (2, 0), (2, 4), [("H", 1, 1), ("V", 1, 1), ("V", 2, 2)], 4, None),
    ("walls touching end to end", 5, 5, (1, 0), (3, 4), [("H", 0, 2), ("H", 2, 2), ("V", 3, 0)], 4, None),
    ("a T-junction", 5, 5, (2, 1), (2, 3), [("H", 1, 2), ("V", 1, 1)], 4, None),
    ("a wall could cut off the opponent only", 5, 5, (3, 1), (0, 4), [("V", 0, 3)], 4, None),
    ("a wall could cut off the mover only", 5, 5, (0, 0), (2, 4), [("V", 0, 0)], 4, None),
    ("pawns side by side", 5, 5, (2, 2), (3, 2), [("H", 2, 2)], 4, None),
    ("pawns one above the other", 5, 5, (2, 2), (2, 3), [("V", 1, 2)], 4, None),
    ("pawn in a corner, opponent below it", 5, 5, (0, 0), (0, 1), [], 4, None),
    ("pawn on the right edge", 6, 5, (5, 2), (0, 3), [("V", 4, 1)], 4, None),
    ("boxed in: no step at all", 4, 4, (0, 1), (1, 1), [("H", 0, 0), ("H", 0, 1)], 4, None),
    ("no walls left", 5, 5, (2, 1), (2, 3), [("H", 0, 0)], 4, (0, 2)),
    ("one wall left", 5, 5, (2, 1), (2, 3), [("H", 0, 0)], 4, (1, 0)),
]


def _hand_made() -> list[tuple[str, QuoridorState, int]]:
    """(label, position, seat asked) for the hand-made cases, each asked as seat 0 and as seat 1.

    Seat 1 is asked with the board turned upside down, so that its goal is row 0 as the course
    derives it; seat 0 is asked as written (me on top, heading down)."""
    out = []
    for label, sx, sy, me, opp, walls, m, left in HAND_MADE:
        out.append((label, position(sx, sy, me, opp, walls, m, left, seat=0), 0))
        flipped = [(o, x, sy - 2 - y) for o, x, y in walls]
        up = position(sx, sy, (me[0], sy - 1 - me[1]), (opp[0], sy - 1 - opp[1]), flipped, m, left, seat=1)
        out.append((f"{label} (as player 2)", up, 1))
    return out


def wall_readings(state: QuoridorState, seat: int) -> dict[str, frozenset]:
    """expand_obstacles' right answer under each reading of the page, keyed by what the reading
    assumes; the first is the engine's (paths ignore pawns, the opponent heads for the row
    opposite the player's goal)."""
    out = {}
    for pawns_block in (False, True):
        for goal_from_row in (False, True):
            name = "; ".join([PAWN_READINGS[pawns_block], GOAL_READINGS[goal_from_row]])
            out[name] = frozenset(wall_move(w) for w in _walls_read_as(state, seat, pawns_block, goal_from_row))
    return out


PAWN_READINGS = {False: "paths ignore pawns", True: "pawns block paths"}
GOAL_READINGS = {False: "the opponent heads for the row opposite the player's goal",
                 True: "the opponent's goal derived from its own row (sizey-1 when on row 0, else 0)"}


def _walls_read_as(state: QuoridorState, seat: int, pawns_block: bool, goal_from_row: bool) -> list:
    if state._supply_refusal(seat):
        return []
    sizey = state.sizey
    goals = [state.goal_row(0, sizey), state.goal_row(1, sizey)]
    if goal_from_row:                      # in the player's view, turned so that its own goal is derived right
        me, opp = state.pos[seat], state.pos[1 - seat]
        upside_down = (sizey - 1 if me[1] == 0 else 0) != goals[seat]
        view = (lambda y: sizey - 1 - y) if upside_down else (lambda y: y)
        goals[1 - seat] = view(sizey - 1 if view(opp[1]) == 0 else 0)
    pawn_edges: list[set[Any]] = [set(), set()]
    if pawns_block:                        # each pawn's way may not pass the other pawn's cell
        for who in (0, 1):
            x, y = state.pos[1 - who]
            pawn_edges[who] = {G.edge((x, y), (x + dx, y + dy)) for dx, dy in G.DIRECTIONS}
    # A wall that crosses neither pawn's present shortest way leaves that way open: only the others need a search.
    ways = [G.shortest_path(state.pos[who], goals[who], state.blocked, state.sizex, sizey, pawn_edges[who])
            for who in (0, 1)]
    if None in ways:
        return []
    way_edges = [G.path_edges(way) for way in ways if way is not None]
    out = []
    for wall in G.all_walls(state.sizex, sizey):
        if state._wall_refusal(wall, None, check_paths=False) is not None:
            continue
        edges = set(G.wall_edges(wall))
        if all(way_edges[who].isdisjoint(edges) or
               G.shortest_path(state.pos[who], goals[who], state.blocked, state.sizex, sizey,
                               edges | pawn_edges[who]) is not None for who in (0, 1)):
            out.append(wall)
    return out


def _played_positions(game: QuoridorGame, seed: int) -> list[tuple[str, QuoridorState, int]]:
    """Positions as the assignment's league games reach them, drawn from `seed` (the check's own), each
    asked of the player to move (rulesets.base.played_turns): a few turns of one seat per game, as
    random play to a position costs a check more than its answers do."""
    longest = 3 * (game.params["sizex"] + game.params["sizey"])
    out: list[tuple[str, QuoridorState, int]] = []
    for turns in played_turns(game, seed, PLAYED_POSITIONS, turns=TURNS_PER_GAME, longest=longest):
        for state, _ in turns:
            assert isinstance(state, QuoridorState) and state.to_move is not None
            seat = state.to_move
            label = (f"played position {len(out) + 1} ({state.sizex}x{state.sizey}, ply {state.ply}, "
                     f"asking player {seat + 1})")
            out.append((label, state, seat))
    return out


@functools.lru_cache(maxsize=1)
def _hand_made_suite() -> tuple:
    return tuple(_hand_made())


@functools.lru_cache(maxsize=1)
def _hand_made_obstacle_answers() -> tuple[tuple[frozenset, frozenset[frozenset]], ...]:
    """The hand-made positions' answers, worked out once per process: thousands of shortest paths, a
    large part of a check's own CPU, which a service worker checking upload after upload need not repeat."""
    return tuple(obstacle_answers(state, seat) for _, state, seat in _hand_made_suite())


def positions(game: QuoridorGame, seed: int) -> list[tuple[str, QuoridorState, int]]:
    """(label, position, seat asked): the course's hand-made suite, then positions played in the
    assignment's own game from `seed`; each position a fresh copy."""
    return [(label, state.copy(), seat) for label, state, seat in _hand_made_suite()] + _played_positions(game, seed)


def _who(state: QuoridorState, seat: int) -> str:
    x, y = state.pos[seat]
    return f"player {seat + 1} at ({x},{y}) on the {state.sizex}x{state.sizey} board"


def _mismatch(state: QuoridorState, seat: int, method: str, noun: str, expected: Set, got: Set,
              name: Callable, refusal: Callable) -> Mismatch | None:
    """The sentence naming the missing and the extra answers (with why each extra one is illegal)."""
    missing, extra = sorted(expected - got), sorted(got - expected)
    if not missing and not extra:
        return None

    def count(items: list, what: str) -> str:
        return f"{len(items)} {what} {noun}{'' if len(items) == 1 else 's'}"

    parts = []
    if missing:
        parts.append(f"is missing {count(missing, 'legal')}: " + "; ".join(name(m) for m in missing[:6])
                     + (" ..." if len(missing) > 6 else ""))
    if extra:
        parts.append(f"lists {count(extra, 'extra')} that {'is' if len(extra) == 1 else 'are'} not legal: "
                     + "; ".join(f"{name(m)} ({refusal(m).rstrip('.')})" for m in extra[:4])
                     + (" ..." if len(extra) > 4 else ""))
    return Mismatch(f"{method}() for {_who(state, seat)} " + ", and ".join(parts) + ".",
                    {"missing": missing, "extra": extra})


def _duplicates(items: list[Any]) -> Any:
    seen, dup = set(), []
    for item in items:
        if item in seen:
            dup.append(item)
        seen.add(item)
    return dup[0] if dup else None


def _step_name(move: tuple) -> str:
    return f"[{move[1]}, {move[2]}]"


def _wall_name(move: tuple) -> str:
    return wall_text(move[1:])


def expand_player_case(label: str, state: QuoridorState, seat: int) -> ProbeCase:
    expected = set(state.steps(seat))

    def check(reply) -> Mismatch | None:
        if isinstance(reply, dict) and "invalid" in reply:
            return Mismatch(str(reply["invalid"]))
        if not isinstance(reply, list) or not all(isinstance(c, list) and len(c) == 2 for c in reply):
            return Mismatch(f"expand_player() answered {reply!r:.80} instead of a list of [x, y].")
        got = [step(c[0], c[1]) for c in reply]
        dup = _duplicates(got)
        if dup:
            return Mismatch(f"expand_player() for {_who(state, seat)} lists the step {_step_name(dup)} twice.")
        return _mismatch(state, seat, "expand_player", "step", expected, set(got), _step_name,
                         lambda m: state._step_refusal(seat, (m[1], m[2])) or "legal")

    return ProbeCase(label=label, state=state, method="expand_player",
                     args={"state": state.to_json(), "seat": seat}, check=check)


def obstacle_answers(state: QuoridorState, seat: int) -> tuple[frozenset, frozenset[frozenset]]:
    """expand_obstacles' right answer by the engine, and the answers accepted under every reading."""
    return (frozenset(wall_move(w) for w in state.legal_walls(seat)),
            frozenset(wall_readings(state, seat).values()))


def expand_obstacles_case(label: str, state: QuoridorState, seat: int,
                          answers: tuple[frozenset, frozenset[frozenset]] | None = None) -> ProbeCase:
    expected, accepted = answers if answers is not None else obstacle_answers(state, seat)

    def check(reply) -> Mismatch | None:
        if isinstance(reply, dict) and "invalid" in reply:
            return Mismatch(str(reply["invalid"]))
        if not isinstance(reply, list):
            return Mismatch(f"expand_obstacles() answered {reply!r:.80} instead of a list of [o1, o2].")
        got = []
        for k, pair in enumerate(reply, 1):
            try:
                got.append(wall_move(_wall_from_wire(pair)))
            except IllegalMove as exc:
                return Mismatch(f"item {k} of expand_obstacles() for {_who(state, seat)}: {exc}")
        dup = _duplicates(got)
        if dup:
            return Mismatch(f"expand_obstacles() for {_who(state, seat)} lists an obstacle twice: "
                            f"{_wall_name(dup)}.")
        if frozenset(got) in accepted:
            return None
        wrong = _mismatch(state, seat, "expand_obstacles", "obstacle", expected, set(got), _wall_name,
                          lambda m: state._wall_refusal(m[1:], seat) or "legal")
        if wrong is not None and len(accepted) > 1:
            wrong.message += (" (Here the answer depends on conventions the page leaves open; the answer "
                              "under any reading is accepted: paths ignoring pawns or blocked by them, the "
                              "opponent's goal opposite the player's or derived from its own row.)")
        return wrong

    return ProbeCase(label=label, state=state, method="expand_obstacles",
                     args={"state": state.to_json(), "seat": seat}, check=check)


def expand_player_cases(game: QuoridorGame, seed: int) -> list[ProbeCase]:
    return [expand_player_case(label, state, seat) for label, state, seat in positions(game, seed)]


def expand_obstacles_cases(game: QuoridorGame, seed: int) -> list[ProbeCase]:
    asked = positions(game, seed)
    known = _hand_made_obstacle_answers()
    return [expand_obstacles_case(label, state, seat, known[n] if n < len(known) else None)
            for n, (label, state, seat) in enumerate(asked)]


def probes(game: QuoridorGame) -> list[Probe]:
    return [Probe(name="expand_player", title="expand_player(): every legal step, nothing else",
                  points=1.0, cases=expand_player_cases, required=True, scoring="all"),
            Probe(name="expand_obstacles", title="expand_obstacles(): every legal obstacle, nothing else",
                  points=1.0, cases=expand_obstacles_cases, required=True, scoring="all")]
