"""results.json and the sites are written game by game: neither holds the league's games (their
moves) in memory at once, and the results document makes no engine state per game. Memory is
counted by the games alive at once (weak references), never by timing or by the process's size."""
from __future__ import annotations

import json
import random
import tracemalloc
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


def _league_games(n: int, students: int = 30):
    """`n` games of a round robin among `students`, made one at a time (a re-iterable stream):
    each with its own id, seed, `grader play` line and moves, as a league's games are."""
    class Games:
        def __iter__(self):
            pairs = [(a, b) for a in range(students) for b in range(students) if a != b]
            for i in range(n):
                a, b = pairs[i % len(pairs)]
                yield {"id": f"game{i:07d}", "seat0": f"s{a}", "seat1": f"s{b}", "seed": 1000 + i,
                       "game_index": i // len(pairs), "points": [1, 0] if i % 3 else [0, 1], "reason": "goal",
                       "detail": f"Player {1 + i % 2} had no legal move.", "moves": [[k, i] for k in range(20)],
                       "move_texts": [f"m{k}" for k in range(20)], "times": [[0.01, 0.01]] * 20, "incidents": [],
                       "reproduce": f"grader play s{a}/agent.py s{b}/agent.py --assignment demo --seed {1000 + i}"}
    subs = [{"id": f"s{k}", "display_name": f"Student {k}", "public_name": f"Calm Otter {k}", "status": "valid",
             "rank": k + 1} for k in range(students)]
    return {"assignment": {"name": "demo", "anonymised": False}, "submissions": subs, "crosstable": {},
            "games": Games()}


def _render_peak(tmp_path: Path, n: int) -> int:
    """The most Python memory rendering both sites of `n` games took beyond what was held before."""
    doc = _league_games(n)
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        tracemalloc.reset_peak()
        render_sites(doc, [(tmp_path / f"i{n}", False), (tmp_path / f"p{n}", True)])
        return tracemalloc.get_traced_memory()[1] - before
    finally:
        tracemalloc.stop()


def test_rendering_both_sites_holds_nothing_per_game(tmp_path):
    """The submission pages, the crosstable and the numbering used to keep a light view of every
    game for each site (about 2 KB a game for both); a 300-student league's 90,000 games then took
    hundreds of MB of the manager. Now each game's facts wait in a temporary SQLite file (its page
    cache is bounded), so Python's memory for the render does not grow with the games."""
    small, large = 1200, 2400                   # both enough to open nearly every shard file (256 a site)
    _render_peak(tmp_path, 50)                   # templates compiled, caches warm
    growth = (_render_peak(tmp_path, large) - _render_peak(tmp_path, small)) / (large - small)
    assert growth < 300, f"{growth:.0f} bytes of memory a game"
    records = [r for f in (tmp_path / f"p{large}" / "games").glob("*.js") for r in read_shard(f.read_text("utf-8"))]
    assert len(records) == large and sorted(r["n"] for r in records) == list(range(1, large + 1))
