"""The results store: round trips, resume semantics, durability under kill -9, cache keys."""
from __future__ import annotations

import signal
import sqlite3
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from grader.store import Store, game_key

ROOT = Path(__file__).resolve().parents[2]


def test_file_is_in_wal_mode(store):
    mode = sqlite3.connect(store.path).execute("PRAGMA journal_mode").fetchone()[0]
    assert mode == "wal"


def test_submission_round_trip_and_status(store, make_submission):
    store.upsert_submission(make_submission("alice"))
    store.upsert_submission(make_submission("bob", status="failed"))
    store.upsert_submission(make_submission("carol", assignment="other"))
    subs = store.submissions("a1")
    assert [s.id for s in subs] == ["alice", "bob"]
    assert subs[0] == make_submission("alice")
    store.set_status("a1", "alice", "disqualified", "used 2 GB")
    alice = store.submissions("a1")[0]
    assert (alice.status, alice.status_detail) == ("disqualified", "used 2 GB")
    with pytest.raises(ValueError):
        store.set_status("a1", "alice", "banished", "")
    with pytest.raises(KeyError):
        store.set_status("a1", "nobody", "disqualified", "x")


def test_upsert_replaces_a_resubmission(store, make_submission):
    store.upsert_submission(make_submission("alice"))
    changed = make_submission("alice")
    changed.content_hash = "new"
    store.upsert_submission(changed)
    assert [s.content_hash for s in store.submissions("a1")] == ["new"]


def test_game_round_trip(store, make_game):
    rec = make_game("k1", points=(0.5, 0.5))
    store.save_game(rec)
    assert store.game("k1") == rec
    assert store.game("missing") is None
    assert rec.finished_at is not None


def test_infra_games_are_not_finished_and_are_replaced(store, make_game):
    store.save_game(make_game("done1"))
    store.save_game(make_game("infra1", status="infra", points=(0.0, 0.0)))
    store.save_game(make_game("other", assignment="a2"))
    assert store.finished_keys("a1") == {"done1"}
    store.save_game(make_game("infra1", points=(0.0, 1.0)))      # the next run replays it
    assert store.finished_keys("a1") == {"done1", "infra1"}
    assert store.game("infra1").points1 == 1.0
    assert len(store.games("a1")) == 2


def test_games_filtered_by_keys(store, make_game):
    for k in ("k1", "k2", "k3"):
        store.save_game(make_game(k))
    assert {g.key for g in store.games("a1", keys={"k1", "k3", "zzz"})} == {"k1", "k3"}
    assert store.games("a1", keys=set()) == []


def test_bad_game_status_is_refused(store, make_game):
    with pytest.raises(ValueError):
        store.save_game(make_game("k", status="maybe"))


def test_incidents_and_replay_drops_old_incidents(store, make_game):
    store.save_game(make_game("k1", status="infra"))
    store.add_incident("a1", "alice", "k1", "late", "took 3.2 s")
    store.add_incident("a1", "bob", "k1", "illegal", "moved off the board")
    store.add_incident("a1", "alice", None, "validation", "no move function")
    assert [i.kind for i in store.incidents("a1", "alice")] == ["late", "validation"]
    assert len(store.incidents("a1")) == 3
    store.save_game(make_game("k1"))        # replayed: its incidents were those of the failed attempt
    assert [i.kind for i in store.incidents("a1")] == ["validation"]


def test_runs(store):
    run = store.start_run("a1", {"move_s": 1.0}, 42)
    store.start_run("a2", {}, 1)
    assert store.runs("a1")[0]["summary"] is None
    store.finish_run(run, {"played": 3})
    (r,) = store.runs("a1")
    assert (r["id"], r["config"], r["seed"], r["summary"]) == (run, {"move_s": 1.0}, 42, {"played": 3})
    assert r["finished_at"] >= r["started_at"]


def test_clear_forgets_one_assignment_only(store, make_game, make_submission):
    store.upsert_submission(make_submission("alice"))
    store.upsert_submission(make_submission("alice", assignment="a2"))
    store.save_game(make_game("k1"))
    store.save_game(make_game("k2", assignment="a2"))
    store.add_incident("a1", "alice", "k1", "late", "x")
    store.start_run("a1", {}, 0)
    store.clear("a1")
    assert (store.submissions("a1"), store.games("a1"), store.incidents("a1"), store.runs("a1")) == ([], [], [], [])
    assert store.finished_keys("a2") == {"k2"} and len(store.submissions("a2")) == 1


def test_reopen_keeps_everything(tmp_path, make_game, make_submission):
    path = tmp_path / "r.sqlite"
    with Store(path) as s:
        s.save_game(make_game("k1"))
        s.upsert_submission(make_submission("alice"))
    with Store(path) as s:
        assert s.finished_keys("a1") == {"k1"}
        assert s.submissions("a1")[0].id == "alice"
        assert s.integrity() == "ok"


WRITER = textwrap.dedent("""
    import sys, time
    sys.path.insert(0, sys.argv[2])
    from grader.store import GameRecord, Store
    store = Store(sys.argv[1])
    i = 0
    while True:
        store.save_game(GameRecord(
            key=f"k{i:06d}", assignment="a1", run_id=1, pairing="alice vs bob", seat0="alice", seat1="bob",
            seat0_hash="h0", seat1_hash="h1", seed=i, game_index=0, round="league", points0=1.0, points1=0.0,
            reason="checkmate", moves_json='{"moves": [%d]}' % i, players_json="[]" + " " * 2000))
        store.add_incident("a1", "alice", f"k{i:06d}", "late", "x" * 200)
        i += 1
        if i == 20:
            print("ready", flush=True)
""")


def test_survives_kill_9_of_the_writer(tmp_path, make_game):
    path = tmp_path / "killed.sqlite"
    child = subprocess.Popen([sys.executable, "-c", WRITER, str(path), str(ROOT)],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = child.stdout.readline()
        assert line.strip() == "ready", child.stderr.read()
        time.sleep(0.3)                      # let it be mid-write
        child.send_signal(signal.SIGKILL)
        assert child.wait(timeout=10) == -signal.SIGKILL
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
    with Store(path) as s:
        assert s.integrity() == "ok"
        games = s.games("a1")
        assert len(games) >= 20
        for g in games:
            n = int(g.key[1:])
            assert (g.seed, g.moves_json, g.status) == (n, f'{{"moves": [{n}]}}', "done")
        keys = sorted(g.key for g in games)
        assert keys == [f"k{i:06d}" for i in range(len(keys))]     # committed in order, no holes
        s.save_game(make_game("after"))                            # still writable
        assert "after" in s.finished_keys("a1")


BASE = {"ruleset": "quoridor", "ruleset_version": "1", "play_settings": {"move_s": 1.0, "game": {"size": 9}},
            "seat0_hash": "aaa", "seat1_hash": "bbb", "seed": 5, "game_index": 0}


def test_game_key_is_stable():
    assert game_key(**BASE) == game_key(**BASE)
    reordered = dict(BASE, play_settings={"game": {"size": 9}, "move_s": 1.0})
    assert game_key(**reordered) == game_key(**BASE)
    assert len(game_key(**BASE)) == 64


@pytest.mark.parametrize("change", [
    {"ruleset": "bohnenspiel"}, {"ruleset_version": "2"}, {"play_settings": {"move_s": 2.0, "game": {"size": 9}}},
    {"play_settings": {"move_s": 1.0, "game": {"size": 7}}}, {"seat0_hash": "ccc"}, {"seat1_hash": "ccc"},
    {"seed": 6}, {"game_index": 1}, {"seat0_hash": "bbb", "seat1_hash": "aaa"},
])
def test_game_key_changes_with_anything_that_affects_play(change):
    assert game_key(**(BASE | change)) != game_key(**BASE)
