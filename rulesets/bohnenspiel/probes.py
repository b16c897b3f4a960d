"""Correctness stage of a Bohnenspiel submission: on many positions, the move it returns is legal.

Positions come in games, as the course's players met them (one client, so one player object, per
game): each of the rules file's worked examples B0–B5 (including the positions where skipping is
the only move or is barred) is a game of its own, and the rest are short random games drawn from
the check's own seed (rulesets.base.played_turns), asking one seat its consecutive turns in order,
told the opponent's moves as a game tells them. A player instance never sees two games
(ProbeCase.game).
"""
from __future__ import annotations

from rulesets.base import Game, Mismatch, Probe, ProbeCase
from rulesets.legal_probe import legal_move_cases as shared_cases
from rulesets.legal_probe import legal_move_check as shared_check

from .engine import SKIP, BohnenspielGame, BohnenspielState, move_label

RANDOM_POSITIONS = 24
TURNS_PER_GAME = 3          # one seat's consecutive turns asked in each random game


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



def legal_move_check(state: BohnenspielState):
    """A check(reply) that accepts any legal move of `state` and explains anything else."""
    listed = ", ".join(move_label(m) for m in state.legal_moves())
    return shared_check(
        state, not_a_move=lambda reply, exc: Mismatch(f"the player answered {reply!r}, which is not a move: {exc}"),
        illegal=lambda move, why: Mismatch(f"the player chose {move_label(move)}, which is illegal because {why} "
                                           f"The legal moves were: {listed}.", {"chosen": [move]}))


def legal_move_cases(game: Game, seed: int) -> list[ProbeCase]:
    """One player instance per game, as in the course: a worked example is a game of one turn; a
    random game (drawn from `seed`, the check's own) asks one seat's consecutive turns in order."""
    assert isinstance(game, BohnenspielGame)
    return shared_cases(game, seed, worked_examples(game), check=legal_move_check,
                        label=lambda text, state: f"{text} (player {state.to_move} to move)",
                        count=RANDOM_POSITIONS, turns=TURNS_PER_GAME)


def probes(game: BohnenspielGame) -> list[Probe]:
    return [Probe(name="legal_moves", title="Legal moves in set positions", points=1.0,
                  cases=legal_move_cases, required=True, scoring="all", course_moves=True,
                  turn_check=legal_move_check)]
