"""Shared builders for the league data-layer tests."""
from __future__ import annotations

import pytest

from grader.store import GameRecord, Store, SubmissionRecord


def make_game(key: str, assignment: str = "a1", seat0: str = "alice", seat1: str = "bob", points=(1.0, 0.0),
              status: str = "done", **extra) -> GameRecord:
    fields = {"key": key, "assignment": assignment, "run_id": 1, "pairing": f"{seat0} vs {seat1}", "seat0": seat0,
                  "seat1": seat1, "seat0_hash": "h0", "seat1_hash": "h1", "seed": 7, "game_index": 0, "round": "league",
                  "points0": points[0], "points1": points[1], "reason": "checkmate", "detail": "",
                  "moves_json": '{"moves": [1, 2, 3]}', "times_json": "[0.1, 0.2]",
                  "players_json": '[{"incidents": [], "peak_memory_mb": 12.5}, {"incidents": []}]', "status": status}
    fields.update(extra)
    return GameRecord(**fields)


def make_submission(sub_id: str, assignment: str = "a1", status: str = "valid") -> SubmissionRecord:
    return SubmissionRecord(assignment=assignment, id=sub_id, name=sub_id.title(), path=f"/subs/{sub_id}",
                            content_hash=f"hash-{sub_id}", status=status, status_detail="",
                            validation_json='{"passed": true}', validated_at=1.0)


@pytest.fixture(name="make_game")
def make_game_fixture():
    return make_game


@pytest.fixture(name="make_submission")
def make_submission_fixture():
    return make_submission


@pytest.fixture
def store(tmp_path):
    with Store(tmp_path / "results.sqlite") as s:
        yield s
