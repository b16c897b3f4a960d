"""Correctness probe for Colosseum: does the agent return a legal move in every given position?

One stage, "legal_moves" (1 point, required, all cases must pass). The positions are the rules
file's worked examples (the course's world_1 with each player to move, world_1 after each of the
course's valid test moves, the empty 4x4/5x5/6x6 boards) and random positions of every board size
5..11 reached by random-walk play from a fixed seed.
"""
from __future__ import annotations

import random

from rulesets.base import IllegalMove, Mismatch, Probe, ProbeCase

from .engine import PLAYER_NAMES, ColosseumGame, ColosseumState
from .examples import EMPTY_BOARDS, WORLD_1_VALID, empty_board, world_1

RANDOM_SEED = 424
RANDOM_SIZES = range(5, 12)
RANDOM_PER_SIZE = 2


def random_positions(seed: int = RANDOM_SEED) -> list[tuple[str, ColosseumState]]:
    """Positions of every size 5..11 after a random number of random-walk plies (never finished)."""
    rng = random.Random(seed)
    out = []
    for size in RANDOM_SIZES:
        game = ColosseumGame(board_size=size)
        for _ in range(RANDOM_PER_SIZE):
            state = game.new_state(rng.randrange(2**31))
            for _ in range(rng.randint(0, 2 * size)):
                move = state.random_move(rng)
                branch = state.copy()
                branch.play(move)
                if branch.is_over:
                    break
                state = branch
            out.append((f"random {size}x{size} after {state.ply} plies", state))
    return out


def positions(game: ColosseumGame) -> list[tuple[str, ColosseumState]]:
    """Every position the probe asks about, with a label."""
    out = [("world_1, A to move", world_1(game, 0)), ("world_1, B to move", world_1(game, 1))]
    for move in WORLD_1_VALID:
        state = world_1(game)
        state.play(move)
        out.append((f"world_1 after A plays {state.move_text(move)}", state))
    for size, me, opponent in EMPTY_BOARDS:
        out.append((f"empty {size}x{size}, A at {me}, B at {opponent}",
                    empty_board(game, size, me, opponent)))
    out.extend(random_positions())
    return [(label, state) for label, state in out if not state.is_over]


def _checker(state: ColosseumState):
    who = PLAYER_NAMES[state.turn]

    def check(reply) -> Mismatch | None:
        try:
            move = state.parse_move(reply)
        except IllegalMove as exc:
            return Mismatch(f"As {who} (K={state.max_step}) the agent did not return a move: {exc}.")
        reason = state.why_illegal(move)
        if reason is None:
            return None
        return Mismatch(f"As {who} (K={state.max_step}) the agent returned {state.move_text(move)}, "
                        f"which is illegal: {reason}.", marks={"illegal": [move]})

    return check


def legal_move_cases(game: ColosseumGame) -> list[ProbeCase]:
    """One agent answers the positions in turn, as in a game: 30 s for its first step, 2 s for each
    later one (see ProbeCase.reuse). Positions are grouped by board size (sizes in order of first
    appearance, so world_1 still comes first): an agent that keeps what it learnt about the board
    between turns meets a new size as rarely as possible."""
    listed = positions(game)
    first_seen = {state.size: n for n, (_, state) in reversed(list(enumerate(listed)))}
    cases = []
    for label, state in sorted(listed, key=lambda item: first_seen[item[1].size]):
        data = state.to_json()
        setup = {"seat": state.turn, "state": data, "name": "probe", "options": {}}
        cases.append(ProbeCase(label=label, state=state, method="move",
                               args={"state": data, "last": []}, check=_checker(state),
                               setup=[("setup", setup)], reuse=True))
    return cases


def probes(game: ColosseumGame) -> list[Probe]:
    return [Probe(name="legal_moves", title="Returns a legal move in given positions", points=1.0,
                  cases=legal_move_cases, required=True, scoring="all")]
