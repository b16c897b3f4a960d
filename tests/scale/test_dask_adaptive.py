"""The adaptive league's waves on a Dask LocalCluster play the same games as on the local pool."""
from __future__ import annotations

import sqlite3

from grader.executors import LocalExecutor
from grader.league import run_league

ADAPTIVE = {"format": "adaptive", "games_per_pair": 2,
            "adaptive": {"first_opponents": 1, "budget": 1.0, "confidence": 0.99}}


def stored(assignment) -> dict[str, tuple]:
    with sqlite3.connect(assignment.store_path) as db:
        return {r[0]: r[1:] for r in db.execute("SELECT key, round, points0, points1, moves_json FROM games")}


def test_adaptive_waves_on_dask_match_the_local_pool(tmp_path, dask_executor, assignment_in):
    local = assignment_in(tmp_path / "local", **ADAPTIVE)
    pool = LocalExecutor(2)
    try:
        first = run_league(local, executor=pool, progress=False)
    finally:
        pool.close()
    on_dask = assignment_in(tmp_path / "dask", **ADAPTIVE, executor="dask")
    second = run_league(on_dask, executor=dask_executor, progress=False)
    assert first.infra_failed == second.infra_failed == 0
    games = stored(local)
    assert {g[0] for g in games.values()} > {"wave 1"}          # later waves were played, not only the first
    assert stored(on_dask) == games
    assert [(r.id, r.rank) for r in first.standings.rows] == [(r.id, r.rank) for r in second.standings.rows]
