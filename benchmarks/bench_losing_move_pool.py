"""The move that lost the game across a league: one process against a pool as large as the league's.

Bohnenspiel games between random players (played by the Python engine: the analysis is what is
measured), each game's losing seat (both seats of a draw) analysed with the league's node budget by
`grader.losing_move.analyse_seats`, first in one process, then in as many as the league's
`concurrency: auto` (one per usable core). The two must give the same rows (the search is bounded by
nodes, never by time); the speed-up is the ratio of the two runs' wall-clock times.
"""
from __future__ import annotations

import os
import random
import resource
import time

import rulesets
from grader.losing_move import GAME_NODES, Seat, analyse_seats, result_of

GAMES = 200


def _seats() -> list[Seat]:
    ruleset = rulesets.load("bohnenspiel")
    game, seats = ruleset.game(), []
    for seed in range(GAMES):
        rng, state, moves = random.Random(seed), game.new_state(seed), []
        while not state.is_over:
            move = state.random_move(rng)
            moves.append(state.move_to_json(move))
            state.play(move)
        assert state.outcome is not None
        seats += [(f"g{seed}", seat, seed, moves) for seat in (0, 1) if result_of(state.outcome.points, seat) < 1]
    return seats


def _cpu() -> float:
    """Processor seconds of this process and its ended children (the pool's processes)."""
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def run():
    ruleset = rulesets.load("bohnenspiel")
    game, seats = ruleset.game(), _seats()
    rows, answers, times = [], [], []
    pool = max(2, len(os.sched_getaffinity(0)))        # the cores a league's `concurrency: auto` counts
    for workers in (1, pool):
        t0, cpu0 = time.perf_counter(), _cpu()
        answers.append(analyse_seats(ruleset, game, seats, GAME_NODES, workers))
        times.append(time.perf_counter() - t0)
        cpu = _cpu() - cpu0
        rows.append({"processes": workers, "seats analysed": len(seats), "s": f"{times[-1]:.1f}",
                     "ms/seat": f"{1e3 * times[-1] / len(seats):.0f}", "speed-up": f"{times[0] / times[-1]:.2f}x",
                     "CPU s / wall s": f"{cpu / times[-1]:.2f}", "load average": f"{os.getloadavg()[0]:.1f}",
                     "rows as one process's": "yes" if answers[-1] == answers[0] else "NO"})
    return f"The move that lost the game: one process against the league's pool ({GAME_NODES} nodes a game)", rows
