"""Correctness stages of a Red-Blue Nim module: is the computer's move the one the search implies?

"search" (share of positions, 10 points by default): on every position with 1..N red and 1..N
blue marbles in both versions, and on positions reached by play in the assignment's own game that
lie outside that grid (drawn from the check's own seed, rulesets.base.played_turns, so a check
asks what a game does), the student's choose_move must return the reference's move, the first best
move in the prescribed order. A mismatch lists the value of every root move so the
student sees where the ordering or the values went wrong.
"depth_limited" (informational by default): with a depth given, the move must be one that a
depth-limited alpha-beta in the prescribed order chooses under some evaluation function (the
course leaves the function to the student): where the horizon cannot change the choice, only the
reference's move; elsewhere every move some evaluation function leads to. Same positions.
"""
from __future__ import annotations

from rulesets.base import Game, IllegalMove, Mismatch, Probe, ProbeCase, played_turns

from .engine import RBNimGame, RBNimState
from .rules import VERSIONS, describe
from .search import depth_limited_choices, move_values, search

SIZE = 6
POINTS = 10.0
DEPTH = 4
PLAYED = 12                 # positions drawn by play in the assignment's game (those off the grid are asked)


def signed(value: int) -> str:
    return f"+{value}" if value > 0 else f"−{-value}" if value < 0 else "0"


def values_sentence(red: int, blue: int, version: str) -> str:
    """"take 2 red −15, take 2 blue +6, ..." for the root moves in the prescribed order."""
    return ", ".join(f"{describe(m)} {signed(v)}" for m, v in move_values(red, blue, version))


def positions(size: int = SIZE) -> list[RBNimState]:
    """Every start position with 1..size marbles in each pile, standard first, then misère."""
    return [RBNimGame(red=r, blue=b, version=v).new_state(0)
            for v in VERSIONS for r in range(1, size + 1) for b in range(1, size + 1)]


def asked(game: Game, seed: int, size: int = SIZE) -> list[RBNimState]:
    """The grid of `positions(size)`, then the positions that play in `game` from `seed` (the check's
    own) reaches outside it: where the league's piles are no larger than the grid, none."""
    grid = positions(size)
    seen = {(s.red, s.blue, s.version) for s in grid}
    played = []
    for turns in played_turns(game, seed, PLAYED, turns=1):
        state, _ = turns[0]
        assert isinstance(state, RBNimState)
        if (state.red, state.blue, state.version) not in seen:
            seen.add((state.red, state.blue, state.version))
            played.append(state)
    return grid + played


def _where(state: RBNimState) -> str:
    return f"({state.red} red, {state.blue} blue, {state.version})"


def _parse(state: RBNimState, reply) -> tuple:
    """(move, None) or (None, Mismatch) for a reply that is not a legal move here."""
    try:
        move = state.parse_move(reply)
    except IllegalMove as exc:
        return None, Mismatch(f"At {_where(state)} choose_move did not return a move: {exc}")
    why = state.why_illegal(move)
    if why:
        return None, Mismatch(f"At {_where(state)} choose_move returned {describe(move)}, which is illegal: {why}",
                              {"illegal": [move]})
    return move, None


def exact_move_check(state: RBNimState):
    """A check(reply) accepting only the reference's move, explaining any other with the move values."""
    value, best = search(state.red, state.blue, state.version)
    assert best is not None                    # probe positions are games still going on

    def check(reply) -> Mismatch | None:
        move, problem = _parse(state, reply)
        if problem or move == best:
            return problem
        return Mismatch(f"At {_where(state)} the computer should take {best[1]} {best[0]} (value {signed(value)}), "
                        f"the first best move in the prescribed order, but choose_move took {move[1]} {move[0]}. "
                        f"Values of the moves in order: {values_sentence(state.red, state.blue, state.version)}.",
                        {"expected": [best], "chosen": [move]})
    return check


def depth_limited_check(state: RBNimState, depth: int):
    """A check(reply) accepting any move a depth-limited alpha-beta chooses under some evaluation function."""
    choices = depth_limited_choices(state.red, state.blue, state.version, depth)

    def check(reply) -> Mismatch | None:
        move, problem = _parse(state, reply)
        if problem or move in choices:
            return problem
        whatever = ("whatever its evaluation function" if len(choices) == 1
                    else "with some evaluation function")
        return Mismatch(f"At {_where(state)} a depth-{depth} alpha-beta in the prescribed order takes "
                        f"{' or '.join(describe(m) for m in choices)} {whatever}, but choose_move took "
                        f"{describe(move)}. Values of the moves in order with perfect play: "
                        f"{values_sentence(state.red, state.blue, state.version)}.",
                        {"expected": choices, "chosen": [move]})
    return check


def _case(state: RBNimState, depth: int | None, check) -> ProbeCase:
    label = f"{state.red} red, {state.blue} blue, {state.version}" + (f", depth {depth}" if depth else "")
    return ProbeCase(label=label, state=state, method="choose",
                     args={"red": state.red, "blue": state.blue, "version": state.version, "depth": depth},
                     check=check)


def search_cases(states: list[RBNimState]) -> list[ProbeCase]:
    return [_case(s, None, exact_move_check(s)) for s in states]


def depth_limited_cases(states: list[RBNimState], depth: int = DEPTH) -> list[ProbeCase]:
    return [_case(s, depth, depth_limited_check(s, depth)) for s in states]


def probes(game: RBNimGame, size: int = SIZE, points: float = POINTS, depth: int = DEPTH,
           depth_points: float = 0.0) -> list[Probe]:
    """The two stages; depth_limited counts only when given points (the extra credit)."""
    return [
        Probe(name="search", title=f"The computer's move on every position up to {size}×{size} and in played games", points=points,
              cases=lambda game, seed: search_cases(asked(game, seed, size)), required=False, scoring="share"),
        Probe(name="depth_limited", title=f"Depth-limited play (depth {depth}, any evaluation function)",
              points=depth_points, cases=lambda game, seed: depth_limited_cases(asked(game, seed, size), depth),
              required=False, scoring="share", informational=not depth_points),
    ]
