"""Correctness stage of a Bohnenspiel submission: on many positions, the move it returns is legal.

Positions: the rules file's worked examples B0–B5 (including the positions where skipping is the
only move or is barred) and positions reached by random play from a fixed seed.
"""
from __future__ import annotations

import random

from rulesets.base import IllegalMove, Mismatch, Probe, ProbeCase

from .engine import SKIP, BohnenspielGame, BohnenspielState, move_label

RANDOM_POSITIONS = 24
SEED = 424


def worked_examples(game: BohnenspielGame) -> dict[str, BohnenspielState]:
    """The positions of the rules file's worked examples, each with its player to move."""
    b3 = game.position([0, 0, 0, 3, 1, 1], [1, 0, 0, 0, 0, 0])
    b3_after = b3.copy()
    b3_after.play(("pit", 3))
    b5_skip = game.new_state(0)
    b5_skip.play(SKIP)
    b5_again = b5_skip.copy()
    b5_again.play(("pit", 0))
    return {
        "B0 start of the game": game.new_state(0),
        "B1 capture chain on the opponent's side": game.position([0, 0, 0, 0, 0, 3], [1, 3, 1, 5, 0, 0],
                                                                 scores=(10, 10)),
        "B2 twelve beans refill the origin": game.position([12, 1, 1, 1, 1, 1], [1, 1, 1, 1, 1, 1]),
        "B3 chain crossing back to one's own side": b3,
        "B3 continued: the board is empty, only a skip is left": b3_after,
        "B4 the last beans before the end": game.position([0] * 6, [2, 0, 0, 0, 1, 3], to_move=1,
                                                          scores=(30, 32), credit=(0, 2)),
        "B5 right after the opponent skipped": b5_skip,
        "B5 skipping again after the opponent played": b5_again,
    }


def random_positions(game: BohnenspielGame, count: int = RANDOM_POSITIONS, seed: int = SEED) -> list[BohnenspielState]:
    """Positions along random games from `seed`, none of them finished."""
    rng = random.Random(seed)
    found: list[BohnenspielState] = []
    while len(found) < count:
        state = game.new_state(0)
        stop = rng.randrange(1, 120)
        while not state.is_over and state.ply < stop:
            state.play(rng.choice(state.legal_moves()))
        if not state.is_over:
            found.append(state)
    return found


def legal_move_check(state: BohnenspielState):
    """A check(reply) that accepts any legal move of `state` and explains anything else."""
    legal = state.legal_moves()

    def check(reply) -> Mismatch | None:
        try:
            move = state.parse_move(reply)
        except IllegalMove as exc:
            return Mismatch(f"the player answered {reply!r}, which is not a move: {exc}")
        why = state.why_illegal(move)
        if why is None:
            return None
        listed = ", ".join(move_label(m) for m in legal)
        return Mismatch(f"the player chose {move_label(move)}, which is illegal because {why} "
                        f"The legal moves were: {listed}.", {"chosen": [move]})
    return check


def _case(label: str, state: BohnenspielState) -> ProbeCase:
    seat = state.to_move
    return ProbeCase(label=f"{label} (player {seat} to move)", state=state, method="move",
                     args={"state": state.to_json(), "last": []}, check=legal_move_check(state),
                     setup=[("setup", {"seat": seat, "state": state.to_json(), "name": "probe", "options": {}})])


def legal_move_cases(game: BohnenspielGame) -> list[ProbeCase]:
    cases = [_case(label, state) for label, state in worked_examples(game).items()]
    cases += [_case(f"random position {k + 1} (ply {s.ply})", s) for k, s in enumerate(random_positions(game))]
    return cases


def probes(game: BohnenspielGame) -> list[Probe]:
    return [Probe(name="legal_moves", title="Legal moves in set positions", points=1.0,
                  cases=legal_move_cases, required=True, scoring="all")]
