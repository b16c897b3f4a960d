"""Shared by the collusion tests: the simulated league with a planted thrower (p6 loses to p1 on
purpose) and the flags the full check raises on it, made once a session; playing it and judging
every game move by move is most of both modules' time."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest

from benchmarks.simulated_leagues import league
from grader.collusion import find_collusion


@dataclass(frozen=True)
class ThrownLeague:
    games: list[dict]          # read only: a test that changes games makes its own list
    game: Any
    blunder: Any
    flags: list


@pytest.fixture(scope="session")
def thrown_league() -> ThrownLeague:
    games, game, blunder = league(n_players=8, games_per_pair=4, seed=11, thrower=("p6", "p1"))
    return ThrownLeague(games, game, blunder, find_collusion(games, game, blunder))
