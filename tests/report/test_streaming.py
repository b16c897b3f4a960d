"""results.json and the sites are written game by game: neither holds the league's games (their
moves) in memory at once, and the results document makes no engine state per game. Memory is
counted by the games alive at once (weak references), never by timing or by the process's size."""
from __future__ import annotations

import json
import random
import weakref
from pathlib import Path

import pytest

from grader.assignment import load_assignments
from grader.outputs import GameStream, write_results
from grader.report import read_shard, render_sites
from grader.store import GameRecord, Store

CONFIG = Path(__file__).resolve().parents[2] / "config.yaml"


class _Game(dict):
    """A game dict that a weak reference can follow, counted by identity."""

    __hash__ = object.__hash__
    __eq__ = object.__eq__


class CountingGames:
    """A stream of `n` games, re-iterable, that records the most of them alive at any moment."""

    def __init__(self, n: int, plies: int = 30):
        self.n, self.plies, self.peak, self.passes = n, plies, 0, 0
        self.alive: weakref.WeakSet = weakref.WeakSet()

    def __iter__(self):
        self.passes += 1
        for i in range(self.n):
            game = _Game(id=f"g{i}", seat0=f"s{i % 7}", seat1=f"s{(i + 1) % 7}", seed=i, game_index=i % 2,
                         points=[1, 0], reason="goal", detail="", moves=[[k, k] for k in range(self.plies)],
                         move_texts=[f"m{k}" for k in range(self.plies)], times=[[0.01, 0.01]] * self.plies,
                         incidents=[], reproduce="grader play a b")
            self.alive.add(game)
            self.peak = max(self.peak, len(self.alive))
            yield game
            del game


def _doc(games) -> dict:
    subs = [{"id": f"s{k}", "display_name": f"S{k}", "public_name": f"Calm Otter {k}", "status": "valid",
             "rank": k + 1} for k in range(7)]
    return {"assignment": {"name": "demo", "anonymised": False}, "submissions": subs, "crosstable": {},
            "games": games}


def test_results_json_is_written_one_game_at_a_time(tmp_path):
    games = CountingGames(3000)
    write_results(tmp_path / "results.json", _doc(games))
    assert games.peak <= 2 and games.passes == 1
    written = json.loads((tmp_path / "results.json").read_text(encoding="utf-8"))
    assert [g["id"] for g in written["games"]] == [f"g{i}" for i in range(3000)]
    assert written["submissions"][3]["public_name"] == "Calm Otter 3"
    assert not (tmp_path / "results.json.partial").exists()


def test_both_sites_write_their_records_without_holding_the_games(tmp_path):
    games = CountingGames(2000)
    render_sites(_doc(games), [(tmp_path / "i", False), (tmp_path / "p", True)])
    assert games.peak <= 3                         # a few at a time, never the league (2000)
    for site in ("i", "p"):
        records = [r for f in (tmp_path / site / "games").glob("*.js")
                   for r in read_shard(f.read_text(encoding="utf-8"))]
        assert len(records) == 2000 and all(r["texts"] == [f"m{k}" for k in range(30)] for r in records)


def _stored_games(store: Store, assignment, n: int, older: bool = False) -> set[str]:
    """`n` random Bohnenspiel games saved as the league saves them (texts in the course's notation,
    or, `older`, in a notation an older grader wrote)."""
    keys = set()
    for i in range(n):
        rng, state = random.Random(i), assignment.game.new_state(i)
        wires, texts = [], []
        while not state.is_over:
            move = rng.choice(state.legal_moves())
            texts.append(f"old {move!r}" if older else state.move_text(move))
            wires.append(state.move_to_json(move))
            state.play(move)
        key = f"k{i:04d}"
        store.save_game(GameRecord(key, assignment.name, None, "a|b", "a", "b", "ha", "hb", i, 0, "league",
                                   1.0, 0.0, "no_moves", "", json.dumps({"moves": wires, "texts": texts})))
        keys.add(key)
    return keys


@pytest.mark.parametrize("older", [False, True])
def test_the_document_games_come_from_the_store_without_an_engine_state_per_game(tmp_path, monkeypatch, older):
    assignment = load_assignments(CONFIG)["bohnenspiel"]
    with Store(tmp_path / "league.db") as store:
        keys = _stored_games(store, assignment, 12, older)
        expected = {g.key[:16]: json.loads(g.moves_json) for g in store.games(assignment.name)}
    made = []
    game_type = type(assignment.game)
    original = game_type.new_state
    monkeypatch.setattr(game_type, "new_state", lambda self, seed=0: made.append(seed) or original(self, seed))
    stream = GameStream(assignment, tmp_path / "league.db", keys, str, str)
    docs = list(stream)
    assert len(docs) == 12 and list(stream) == docs                       # read afresh each pass, the same
    if older:                                   # a store of an older grader: every game replayed for its texts
        assert len(made) > 12 and all(not t.startswith("old ") for d in docs for t in d["move_texts"])
    else:                                       # one check of the notation a pass, no state per game
        assert len(made) == 2
        assert all(d["move_texts"] == expected[d["id"]]["texts"] for d in docs)
    assert all(d["moves"] == expected[d["id"]]["moves"] for d in docs)
