"""Schedules: counts, seat-swapped twins, determinism, stability, random opponents, playoff cut, gauntlet."""
from __future__ import annotations

from collections import Counter

import pytest

from grader.schedule import gauntlet, pair_games, playoff, playoff_qualifiers, random_opponents, round_robin

IDS = ["dora", "alice", "carol", "bob", "erin"]


def pairs_of(specs) -> set[frozenset]:
    return {frozenset((g.seat0, g.seat1)) for g in specs}


def test_round_robin_counts():
    specs = round_robin(IDS, 4, seed=1)
    assert len(specs) == 10 * 4
    assert len(pairs_of(specs)) == 10
    per_player = Counter(p for g in specs for p in (g.seat0, g.seat1))
    assert set(per_player.values()) == {16}
    assert {g.round for g in specs} == {"league"}


def test_twins_share_a_seed_with_seats_swapped():
    specs = pair_games("alice", "bob", 4, seed=3, round="league")
    assert [g.game_index for g in specs] == [0, 1, 2, 3]
    for a, b in ((specs[0], specs[1]), (specs[2], specs[3])):
        assert a.seed == b.seed
        assert (a.seat0, a.seat1) == (b.seat1, b.seat0)
    assert specs[0].seed != specs[2].seed
    assert all(g.pairing == "alice vs bob" for g in specs)
    seats = Counter(g.seat0 for g in specs)
    assert seats == {"alice": 2, "bob": 2}


def test_odd_games_last_seat_comes_from_the_seed():
    firsts = set()
    for seed in range(40):
        specs = pair_games("alice", "bob", 3, seed=seed, round="league")
        assert specs[0].seed == specs[1].seed != specs[2].seed
        firsts.add(specs[2].seat0)
        assert specs == pair_games("bob", "alice", 3, seed=seed, round="league")
    assert firsts == {"alice", "bob"}     # both seatings occur across seeds


def test_deterministic_and_independent_of_order():
    a = round_robin(IDS, 2, seed=9)
    assert a == round_robin(list(reversed(IDS)), 2, seed=9)
    assert {(g.seat0, g.seat1, g.seed) for g in a} != {(g.seat0, g.seat1, g.seed) for g in round_robin(IDS, 2, 10)}


def test_adding_a_submission_keeps_other_pairings():
    before = set(round_robin(IDS, 3, seed=4))
    after = set(round_robin(IDS + ["zed"], 3, seed=4))
    assert before < after
    assert all("zed" in (g.seat0, g.seat1) for g in after - before)


def test_same_pair_same_games_in_every_round():
    league = {(g.seat0, g.seat1, g.seed, g.game_index) for g in round_robin(["alice", "builtin:random"], 2, 5)}
    gaunt = {(g.seat0, g.seat1, g.seed, g.game_index) for g in gauntlet(["alice"], ["builtin:random"], 2, 5)}
    assert league == gaunt


def test_duplicate_ids_are_refused():
    with pytest.raises(ValueError, match="duplicate"):
        round_robin(["a", "a", "b"], 2, 0)


@pytest.mark.parametrize("n,k", [(2, 1), (5, 2), (12, 3), (30, 5), (7, 10)])
def test_random_opponents_everyone_gets_k(n, k):
    ids = [f"s{i:02d}" for i in range(n)]
    specs = random_opponents(ids, k, 2, seed=11)
    opponents = {i: set() for i in ids}
    for g in specs:
        opponents[g.seat0].add(g.seat1)
        opponents[g.seat1].add(g.seat0)
    assert all(len(o) >= min(k, n - 1) for o in opponents.values())
    per_pair = Counter(frozenset((g.seat0, g.seat1)) for g in specs)
    assert set(per_pair.values()) == {2}                     # deduplicated: no pair twice
    assert {g.round for g in specs} == {"random"}
    assert specs == random_opponents(list(reversed(ids)), k, 2, seed=11)
    if k < n - 1:
        assert len(per_pair) < n * (n - 1) // 2              # not a full round robin
        assert pairs_of(specs) != pairs_of(random_opponents(ids, k, 2, seed=12))


def test_random_opponents_uses_the_same_game_seeds_as_round_robin():
    rr = {(g.seat0, g.seat1, g.seed) for g in round_robin(IDS, 2, 3)}
    assert {(g.seat0, g.seat1, g.seed) for g in random_opponents(IDS, 2, 2, 3)} <= rr


def test_playoff_takes_the_top_fraction_at_least_two():
    ranked = [f"p{i}" for i in range(10)]
    assert playoff_qualifiers(ranked, 0.3) == ["p0", "p1", "p2"]
    assert playoff_qualifiers(ranked, 0.05) == ["p0", "p1"]
    assert playoff_qualifiers(ranked, 0.25) == ["p0", "p1", "p2"]      # ceil(2.5)
    specs = playoff(ranked, 0.3, 2, seed=1)
    assert pairs_of(specs) == {frozenset(p) for p in (("p0", "p1"), ("p0", "p2"), ("p1", "p2"))}
    assert {g.round for g in specs} == {"playoff"}


def test_playoff_includes_ties_at_the_cut():
    ranked = ["a", "b", "c", "d", "e", "f"]
    points = {"a": 9, "b": 7, "c": 5, "d": 5, "e": 5, "f": 1}
    assert playoff_qualifiers(ranked, 0.5, points) == ["a", "b", "c", "d", "e"]
    assert playoff_qualifiers(ranked, 0.34, points) == ["a", "b", "c"] + ["d", "e"]
    assert playoff_qualifiers(ranked, 0.2, points) == ["a", "b"]
    assert len(pairs_of(playoff(ranked, 0.5, 1, 0, points=points))) == 10


def test_gauntlet_pairs_every_submission_with_every_builtin():
    specs = gauntlet(["alice", "bob", "carol"], ["builtin:random", "builtin:baseline"], 2, seed=0)
    assert len(specs) == 3 * 2 * 2
    assert pairs_of(specs) == {frozenset((s, b)) for s in ("alice", "bob", "carol")
                               for b in ("builtin:random", "builtin:baseline")}
    assert {g.round for g in specs} == {"gauntlet"}
