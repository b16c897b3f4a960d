"""Correctness probe for Colosseum: does the agent return a legal move in every given position?

One stage, "legal_moves" (1 point, required, all cases must pass). The positions come in games,
as the course's agents met them: one agent instance plays one game, so it sees one board size,
one seat, and its own turns in the order the game produced them (each later position reachable
from the earlier one). The games start from the rules file's worked examples (the course's
world_1 with each player to move, empty 4x4 and 6x6 boards) and go on by random-walk play (the
course's random agent); the other games are the assignment's own, as a league plays them, drawn
from the check's own seed (rulesets.base.played_turns), so no two checks ask the same positions.
"""
from __future__ import annotations

import random

from rulesets.base import Game, Mismatch, Probe, ProbeCase, played_turns
from rulesets.legal_probe import legal_move_check, turn_case

from .engine import PLAYER_NAMES, ColosseumGame, ColosseumState
from .examples import EMPTY_BOARDS, empty_board, world_1

PLAYED_TURNS = 15          # the agent's turns asked in the games drawn from the check's seed
TURNS_PER_GAME = 3          # the agent's turns asked in each game (fewer if the game ends first)


def game_turns(start: ColosseumState, rng: random.Random, turns: int = TURNS_PER_GAME,
               before: list | None = None) -> list[tuple[ColosseumState, list]]:
    """The positions where `start`'s player is to move, in the order one game produces them, each
    with the moves it is told of as a game tells them (`last`: the opponent's since its turn):
    `start`, then after each pair of random-walk moves, until `turns` or the game's end."""
    seat = start.turn
    out, state = [(start, before or [])], start
    while len(out) < turns:
        state = state.copy()
        told = []
        for _ in range(2):
            mover, move = state.turn, state.random_move(rng)
            state.play(move)
            if mover != seat:
                told.append({"seat": mover, "move": state.move_to_json(move)})
            if state.is_over:
                return out
        if state.turn == seat:
            out.append((state, told))
    return out


def games(game: ColosseumGame, seed: int) -> list[tuple[str, list[ColosseumState]]]:
    """Every game the probe plays with one agent instance: (its name, the agent's positions)."""
    return [(name, [state for state, _ in turns]) for name, turns in told_games(game, seed)]


def told_games(game: ColosseumGame, seed: int) -> list[tuple[str, list[tuple[ColosseumState, list]]]]:
    """`games`, each position with the moves the agent is told of before it (a game's `last`);
    `seed` (the check's own) draws the random walks and the played games."""
    rng = random.Random(seed)
    starts: list[tuple[str, ColosseumState, list]] = [("world_1, A to move", world_1(game, 0), []),
                                                       ("world_1, B to move", world_1(game, 1), [])]
    for size, me, opponent in (EMPTY_BOARDS[0], EMPTY_BOARDS[-1]):
        starts.append((f"empty {size}x{size}, A at {me}, B at {opponent}", empty_board(game, size, me, opponent), []))
    out = [(name, game_turns(start, rng, before=told)) for name, start, told in starts if not start.is_over]
    for n, turns in enumerate(played_turns(game, rng.randrange(2**48), PLAYED_TURNS, TURNS_PER_GAME)):
        first = turns[0][0]
        assert isinstance(first, ColosseumState)
        out.append((f"played game {n + 1} ({first.size}x{first.size}, ply {first.ply})",
                    [(s, told) for s, told in turns if isinstance(s, ColosseumState)]))
    return out


def positions(game: ColosseumGame, seed: int) -> list[tuple[str, ColosseumState]]:
    """Every position the probe asks about, with a label, game by game."""
    return [(f"{name}, the agent's turn {k + 1}" if k else name, state)
            for name, turns in games(game, seed) for k, state in enumerate(turns)]


def _checker(state: ColosseumState):
    who = f"As {PLAYER_NAMES[state.turn]} (K={state.max_step}) the agent"
    return legal_move_check(
        state, not_a_move=lambda reply, exc: Mismatch(f"{who} did not return a move: {exc}."),
        illegal=lambda move, why: Mismatch(f"{who} returned {state.move_text(move)}, which is illegal: {why}.",
                                           marks={"illegal": [move]}))


def legal_move_cases(game: Game, seed: int) -> list[ProbeCase]:
    """One agent instance per game, as in the course: 30 s for its first step, 2 s for each later
    one (ProbeCase.reuse); a new game (another board size or seat) starts a fresh instance."""
    assert isinstance(game, ColosseumGame)
    return [turn_case(f"{name}, the agent's turn {k + 1}" if k else name, state, name, told, _checker(state))
            for name, turns in told_games(game, seed) for k, (state, told) in enumerate(turns)]


def probes(game: ColosseumGame) -> list[Probe]:
    return [Probe(name="legal_moves", title="Returns a legal move in given positions", points=1.0,
                  cases=legal_move_cases, required=True, scoring="all", turn_check=_checker)]
