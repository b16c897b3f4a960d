"""Correctness stage of a Bohnenspiel submission: on many positions, the move it returns is legal.

Positions come in games, as the course's players met them (one client, so one player object, per
game): each of the rules file's worked examples B0–B5 (including the positions where skipping is
the only move or is barred) is a game of its own, and the rest are short random games from a fixed
seed, asking one seat its consecutive turns in order, told the opponent's moves as a game tells
them. A player instance never sees two games (ProbeCase.game).
"""
from __future__ import annotations

import random

from rulesets.base import Game, IllegalMove, Mismatch, Probe, ProbeCase

from .engine import SKIP, BohnenspielGame, BohnenspielState, move_label

RANDOM_POSITIONS = 24
SEED = 424
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


def random_games(game: BohnenspielGame, count: int = RANDOM_POSITIONS, seed: int = SEED,
                 turns: int = TURNS_PER_GAME) -> list[list[tuple[BohnenspielState, list]]]:
    """Random games from `seed`, each as one seat's consecutive turns (at most `turns`), every turn
    with the opponent's moves since the seat's previous one (a game's `last`); `count` turns in all."""
    rng = random.Random(seed)
    out: list[list[tuple[BohnenspielState, list]]] = []
    while sum(map(len, out)) < count:
        state = game.new_state(0)
        start = rng.randrange(0, 100)
        while not state.is_over and state.ply < start:
            state.play(rng.choice(state.legal_moves()))
        if state.is_over:
            continue
        seat = state.to_move
        played: list[tuple[BohnenspielState, list]] = []
        told: list[dict] = []
        while not state.is_over and len(played) < min(turns, count - sum(map(len, out))):
            if state.to_move == seat:
                played.append((state.copy(), told))
                told = []
            move = rng.choice(state.legal_moves())
            mover = state.to_move
            state.play(move)
            if mover != seat:
                told.append({"seat": mover, "move": state.move_to_json(move)})
        out.append(played)
    return out


def random_positions(game: BohnenspielGame, count: int = RANDOM_POSITIONS, seed: int = SEED) -> list[BohnenspielState]:
    """The random games' positions, none of them finished."""
    return [state for turns in random_games(game, count, seed) for state, _ in turns]


def _case(label: str, state: BohnenspielState, game: str, told: list) -> ProbeCase:
    seat = state.to_move
    return ProbeCase(label=f"{label} (player {seat} to move)", state=state, method="move",
                     args={"state": state.to_json(), "last": told}, check=legal_move_check(state),
                     setup=[("setup", {"seat": seat, "state": state.to_json(), "name": "probe", "options": {}})],
                     reuse=True, game=game)


def legal_move_cases(game: Game) -> list[ProbeCase]:
    """One player instance per game, as in the course: a worked example is a game of one turn; a
    random game asks one seat's consecutive turns in order."""
    assert isinstance(game, BohnenspielGame)
    cases: list[ProbeCase] = [_case(label, state, label, []) for label, state in worked_examples(game).items()]
    for g, turns in enumerate(random_games(game)):
        cases += [_case(f"random game {g + 1}, turn {k + 1} (ply {state.ply})", state, f"random game {g + 1}", told)
                  for k, (state, told) in enumerate(turns)]
    return cases


def probes(game: BohnenspielGame) -> list[Probe]:
    return [Probe(name="legal_moves", title="Legal moves in set positions", points=1.0,
                  cases=legal_move_cases, required=True, scoring="all", course_moves=True)]
