"""A re-run of the similarity report and the collusion check reuses what did not change: pairs
whose two documents are the same as last time, games already judged move by move. Counted by the
comparisons and replays made, never timed."""
from __future__ import annotations

from benchmarks.disguise import disguise
from benchmarks.simulated_leagues import league
from grader import similarity
from grader.collusion import find_collusion
from grader.similarity import compare
from grader.similarity_cache import ComparisonCache

from .test_similarity import HONEST_A, HONEST_B, LANGUAGES, SKELETON, sub


def _documents(tmp_path, texts: dict[str, str], run: str):
    return [sub(name, text, tmp=tmp_path / run) for name, text in texts.items()]


def _pairs(report) -> list[tuple]:
    return [(p.a.id, p.b.id, round(p.score, 6), p.tokens, p.slices_a, p.slices_b) for p in report.pairs]


def test_only_the_changed_submissions_pairs_are_compared_again(tmp_path, monkeypatch):
    compared: list[tuple[str, str]] = []
    real = similarity.full_comparison

    def counted(pair):
        compared.append((pair.a.id, pair.b.id))
        real(pair)
    monkeypatch.setattr(similarity, "full_comparison", counted)
    texts = {"honest_a": HONEST_A, "honest_b": HONEST_B, "copier_a": disguise(HONEST_A),
             "copier_b": disguise(HONEST_B)}
    path = tmp_path / "cache.json"

    cache = ComparisonCache(path)
    first = compare(_documents(tmp_path, texts, "1"), [], [SKELETON], languages=LANGUAGES, min_score=0.3, cache=cache)
    cache.save()
    assert len(compared) >= 2 and {"copier_a", "copier_b"} <= {x for pair in compared for x in pair}

    compared.clear()                              # nothing changed: nothing compared, the same report
    again = compare(_documents(tmp_path, texts, "2"), [], [SKELETON], languages=LANGUAGES, min_score=0.3, cache=ComparisonCache(path))
    assert compared == [] and _pairs(again) == _pairs(first)

    compared.clear()                              # copier_b changes: only pairs with it are compared
    cache = ComparisonCache(path)
    texts["copier_b"] = disguise(HONEST_B) + "\n\ndef extra(self):\n    return self.count_walls_left() + 1\n"
    changed = compare(_documents(tmp_path, texts, "3"), [], [SKELETON], languages=LANGUAGES, min_score=0.3, cache=cache)
    assert compared and all("copier_b" in pair for pair in compared), compared
    assert cache.hits >= 1
    fresh = compare(_documents(tmp_path, texts, "4"), [], [SKELETON], languages=LANGUAGES, min_score=0.3)     # no cache at all
    assert _pairs(changed) == _pairs(fresh)


def test_a_damaged_cache_is_an_empty_one(tmp_path):
    (tmp_path / "cache.json").write_text("{not json", encoding="utf-8")
    cache = ComparisonCache(tmp_path / "cache.json")
    assert cache.get("pairs", "x") is None and cache.games() == {}
    cache.save()
    assert ComparisonCache(tmp_path / "cache.json").get("pairs", "x") is None


class _CountingGame:
    """The ruleset's game, counting the games replayed (one start position each)."""

    def __init__(self, game):
        self.game, self.replayed = game, 0

    def new_state(self, seed):
        self.replayed += 1
        return self.game.new_state(seed)


def test_the_collusion_check_replays_only_games_it_has_not_judged(tmp_path, thrown_league):
    games, game, blunder = thrown_league.games, thrown_league.game, thrown_league.blunder
    counting = _CountingGame(game)
    known: dict = {}
    first = find_collusion(games, counting, blunder, known=known)
    assert counting.replayed == len(games) and first and first == thrown_league.flags   # the check without `known`

    counting.replayed = 0                         # nothing new: no game replayed, the same flags
    assert find_collusion(games, counting, blunder, known=known) == first and counting.replayed == 0

    # p3 resubmits: its games are new games (their ids hold its new content); the others are kept
    redone, _, _ = league(n_players=8, games_per_pair=4, seed=12, thrower=("p6", "p1"))
    mine = [dict(g, id=g["id"] + "-new") for g in redone if "p3" in (g["seat0"], g["seat1"])]
    rerun = [g for g in games if "p3" not in (g["seat0"], g["seat1"])] + mine
    counting.replayed = 0
    flags = find_collusion(rerun, counting, blunder, known=known)
    assert counting.replayed == len(mine) == 2 * 7 * 2
    assert flags == find_collusion(rerun, game, blunder)
