"""Grades: BRUTE bands with ties at the cuts, McGill interpolation with its pass rule, thresholds."""
from __future__ import annotations

import random

import pytest

from grader.grading import Grade, GradingConfigError, compute_grades, grades_table
from grader.standings import Row, Standings, compute_standings

BANDS = {"kind": "bands", "bands": [[0.10, 3], [0.20, 2], [0.40, 1]]}


def table(*entries, dq=None):
    """Standings from (id, rank, points) in order, plus disqualified rows."""
    rows = [Row(i, rank, points=p) for i, rank, p in entries]
    rows += [Row(i, None, disqualified=why) for i, why in (dq or {}).items()]
    return Standings(rows)


def values(grades):
    return {i: g.value for i, g in grades.items()}


def test_bands_on_ten_players_with_ties_at_the_cuts():
    # n = 10 students -> band sizes ceil(1)=1, 2, 4. The built-in is not counted.
    st = table(("s0", 1, 9), ("builtin:random", 2, 8.5), ("s1", 3, 8), ("s2", 3, 8), ("s3", 5, 7), ("s4", 5, 7),
               ("s5", 7, 6), ("s6", 8, 5), ("s7", 9, 4), ("s8", 10, 3), ("s9", 11, 2))
    g = compute_grades(st, BANDS)
    assert values(g) == {"s0": 3, "s1": 2, "s2": 2,          # s2 is 3rd but tied with 2nd: top 20%
                         "s3": 1, "s4": 1,                    # s4 is 5th but tied with 4th: top 40%
                         "s5": 0, "s6": 0, "s7": 0, "s8": 0, "s9": 0}
    assert all(x.max == 3 for x in g.values())
    assert "builtin:random" not in g
    assert g["s2"].reason == "place 2 of 10: in the top 20%"
    assert "outside every band" in g["s9"].reason


def test_band_sizes_round_up_and_are_at_least_one():
    st = table(*[(f"s{i}", i + 1, 10 - i) for i in range(3)])          # ceil(0.3)=1, ceil(0.6)=1, ceil(1.2)=2
    assert values(compute_grades(st, BANDS)) == {"s0": 3, "s1": 1, "s2": 0}
    st = table(*[(f"s{i}", i + 1, 30 - i) for i in range(25)])         # 3, 5, 10
    v = values(compute_grades(st, BANDS))
    assert [v[f"s{i}"] for i in range(11)] == [3, 3, 3, 2, 2, 1, 1, 1, 1, 1, 0]


def test_a_tie_for_first_all_get_the_top_band():
    st = table(("a", 1, 5), ("b", 1, 5), ("c", 1, 5), ("d", 4, 1))
    assert values(compute_grades(st, BANDS)) == {"a": 3, "b": 3, "c": 3, "d": 0}


def test_failed_and_disqualified_get_the_floor_with_their_reason():
    st = table(("a", 1, 5), ("b", 2, 1), dq={"c": "crashed the grader"})
    g = compute_grades(st, BANDS | {"failed_grade": 0}, excluded={"x": "failed validation: interface"})
    assert g["x"] == Grade(0.0, 3.0, "failed validation: interface")
    assert g["c"] == Grade(0.0, 3.0, "disqualified: crashed the grader")
    # n = 2 (c and x are not counted): every band holds ceil(f·2) = 1 place, so b is outside them all.
    assert (values(g)["a"], values(g)["b"]) == (3, 0)
    g = compute_grades(st, {"kind": "interpolate", "max": 100, "pass_min": 50, "failed_grade": 10},
                       excluded={"x": "no entry file"})
    assert (g["x"].value, g["c"].value) == (10, 10)


def league(*games):
    ids = sorted({p for g in games for p in g[:2]})
    return compute_standings(list(games), ids)


def test_interpolation_formula_and_pass_rule():
    R = "builtin:random"
    st = league(("a", R, 1, 0), ("a", R, 1, 0), ("b", R, 1, 0), ("b", R, 0.5, 0.5), ("c", R, 0.5, 0.5),
                ("c", R, 0.5, 0.5), ("d", R, 0, 1), ("d", R, 0.5, 0.5),
                ("a", "b", 1, 0), ("a", "c", 1, 0), ("b", "c", 1, 0), ("d", "a", 1, 0), ("d", "b", 1, 0),
                ("d", "c", 1, 0))
    pts = {r.id: r.points for r in st.rows}
    assert (pts["a"], pts["b"], pts["c"], pts["d"]) == (4, 2.5, 1, 3.5)
    tested = {"a": {R: [1.0] * 17}, "b": {R: [1.0] * 17}, "c": {R: [1.0] * 17}, "d": {R: [0.0] * 14}}
    g = compute_grades(st, {"kind": "interpolate", "max": 100, "pass_min": 50, "must_beat": "random"},
                       baseline_scores=tested)
    assert g["d"].value == 0
    assert g["d"].reason == ("does not beat random: 0 of 14 games, error below 5%: 0, as passing needs "
                             "beating random")
    assert g["a"].value == 100                                   # the top passing scorer
    assert g["c"].value == 50                                    # the lowest passing scorer
    assert g["b"].value == pytest.approx(50 + 50 * (2.5 - 1) / (4 - 1))   # 75
    assert g["b"].reason == ("beats random: 17 of 17 games, error below 5%: 75 from rank 4 of 5 "
                             "(2.5 points; passing players from 1 point to 4 points)")
    assert R not in g


def test_exactly_half_against_must_beat_does_not_pass_and_no_games_fails():
    R = "builtin:random"
    st = league(("a", R, 0.5, 0.5), ("b", R, 1, 0), ("c", "a", 1, 0))
    g = compute_grades(st, {"kind": "interpolate", "max": 20, "pass_min": 10, "must_beat": "builtin:random"},
                       baseline_scores={"a": {R: [0.5] * 200}, "b": {R: [1.0] * 20}})
    assert g["a"].value == 0 and g["a"].reason.startswith("does not beat random: 72.5 of 145 games")
    assert g["b"].value == 20
    assert g["c"].value == 0 and g["c"].reason == "random: no games played: 0, as passing needs beating random"


def test_interpolation_when_all_passing_players_tie():
    st = league(("a", "b", 0.5, 0.5))
    g = compute_grades(st, {"kind": "interpolate", "max": 100, "pass_min": 60})
    assert values(g) == {"a": 100, "b": 100}


def test_thresholds_highest_rule_met_wins():
    B, R = "builtin:baseline", "builtin:random"
    st = league(("a", B, 1, 0), ("b", B, 0, 1), ("c", B, 0.5, 0.5), ("d", R, 0, 1))
    tested = {"a": {B: [1.0] * 17, R: [1.0] * 17},                 # beats both -> 10
              "b": {B: [0.0] * 14, R: [1.0] * 17},                 # only random -> 5
              "c": {B: [1.0, 1.0, 1.0, 0.5] * 10, R: [0.0] * 14},  # 87.5 % against baseline -> 10
              "d": {B: [0.0] * 14, R: [0.0] * 14}}                 # nothing -> 0
    rules = {"kind": "thresholds", "rules": [{"beats": "random", "grade": 5}, {"beats": "baseline", "grade": 10}]}
    g = compute_grades(st, rules, baseline_scores=tested)
    assert values(g) == {"a": 10, "b": 5, "c": 10, "d": 0}
    assert all(x.max == 10 for x in g.values())
    assert g["b"].reason == ("does not beat baseline: 0 of 14 games, error below 5%; "
                             "beats random: 17 of 17 games, error below 5%")
    strict = {"kind": "thresholds", "rules": [{"beats": "baseline", "grade": 10, "share": 0.875},
                                              {"beats": "random", "grade": 5}]}
    g = compute_grades(st, strict, baseline_scores=tested)
    assert values(g)["c"] == 0                                   # exactly 87.5 % is not more than it
    assert g["c"].reason.startswith("does not beat baseline (more than 88% of the points): ")


def test_none_gives_no_grades():
    assert compute_grades(league(("a", "b", 1, 0)), {"kind": "none"}) == {}


@pytest.mark.parametrize("config", [
    {"kind": "curve"}, {"kind": "bands", "bands": []}, {"kind": "bands", "bands": [[1.5, 3]]},
    {"kind": "interpolate", "max": 10, "pass_min": 20}, {"kind": "thresholds", "rules": [{"grade": 3}]},
])
def test_bad_config_is_one_sentence(config):
    with pytest.raises(GradingConfigError) as err:
        compute_grades(league(("a", "b", 1, 0)), config)
    assert str(err.value).endswith(".") and "\n" not in str(err.value)


def test_grades_table_rows():
    st = table(("a", 1, 5), ("builtin:random", 2, 3), ("b", 3, 1), dq={"c": "hung"})
    g = compute_grades(st, BANDS, excluded={"x": "failed validation"})
    rows = grades_table(st, g)
    assert [r["id"] for r in rows] == ["a", "b", "c", "x"]
    assert rows[0] == {"id": "a", "rank": 1, "points": 5, "grade": 3.0, "max": 3.0, "reason": "place 1 of 2: in the top 10%"}
    assert rows[2]["rank"] is None and rows[2]["reason"] == "disqualified: hung"
    assert rows[3] == {"id": "x", "rank": None, "points": None, "grade": 0.0, "max": 3.0, "reason": "failed validation"}


def test_interpolation_follows_the_rating_order_when_game_counts_differ():
    # 7/10, 10/15 and 9/14 against random: by raw points 10 > 9 > 7, by strength 70 % > 67 % > 64 %.
    games = [(sid, "builtin:random", 1, 0) for sid, wins, _ in (("a", 7, 3), ("b", 10, 5), ("c", 9, 5))
             for _ in range(wins)]
    games += [(sid, "builtin:random", 0, 1) for sid, _, losses in (("a", 7, 3), ("b", 10, 5), ("c", 9, 5))
              for _ in range(losses)]
    st = compute_standings(games, ["a", "b", "c", "builtin:random"], rank_by="rating")
    tested = {sid: {"builtin:random": [1.0] * 17} for sid in "abc"}
    g = compute_grades(st, {"kind": "interpolate", "max": 100, "pass_min": 50, "must_beat": "random"},
                       baseline_scores=tested)
    assert g["a"].value == 100 and g["c"].value == 50 and 50 < g["b"].value < 100
    a = st.row("a")
    assert g["a"].reason.startswith(f"beats random: 17 of 17 games, error below 5%: 100 from rank 1 of 4 "
                                    f"(rating {a.rating:.0f} ±{(a.rating_high - a.rating_low) / 2:.0f}; "
                                    f"passing players from rating ")


# ---- "must beat random" is the sequential test, never two games (issue 40) ----------------------------------

MUST_BEAT = {"kind": "interpolate", "max": 100, "pass_min": 50, "must_beat": "random"}


def coin_flips(seed: int, p: float, n: int = 400) -> list[float]:
    rng = random.Random(seed)
    return [1.0 if rng.random() < p else 0.0 for _ in range(n)]


def test_two_players_at_random_get_the_same_verdict_whatever_their_first_two_games():
    # The course folder's case: both play at random; one took both league games against random
    # (it got 61.08), the other lost both (0). Their later games are coin flips.
    R = "builtin:random"
    st = league(("lucky", R, 1, 0), (R, "lucky", 0, 1), ("unlucky", R, 0, 1), (R, "unlucky", 1, 0),
                ("strong", R, 1, 0), (R, "strong", 0, 1), ("lucky", "unlucky", 1, 0), ("strong", "lucky", 1, 0))
    tested = {"lucky": {R: [1.0, 1.0] + coin_flips(1, 0.5)}, "unlucky": {R: [0.0, 0.0] + coin_flips(2, 0.5)},
              "strong": {R: [1.0, 1.0] + coin_flips(3, 0.9)}}
    g = compute_grades(st, MUST_BEAT, baseline_scores=tested)
    assert g["lucky"].value == g["unlucky"].value == 0
    for sid in ("lucky", "unlucky"):
        assert g[sid].reason.startswith("does not beat random: ") or "not counted as beating it" in g[sid].reason
        games = int(g[sid].reason.split(" of ")[1].split()[0])
        assert games > 2
    assert g["strong"].value == 100 and g["strong"].reason.startswith("beats random: ")


@pytest.mark.parametrize("p, passes", [(0.85, True), (0.7, True), (0.3, False), (0.15, False)])
def test_a_stronger_player_passes_and_a_weaker_fails_decided_by_the_test(p, passes):
    R = "builtin:random"
    st = league(("s", R, 1, 0), (R, "s", 1, 0))                     # the league's two games: 1 of 2
    g = compute_grades(st, MUST_BEAT, baseline_scores={"s": {R: coin_flips(7, p)}})
    assert (g["s"].value > 0) is passes
    word = "beats random: " if passes else "does not beat random: "
    assert g["s"].reason.startswith(word) and "error below 5%" in g["s"].reason
    assert 2 < int(g["s"].reason.split(" of ")[1].split()[0]) < 200


def test_players_at_random_pass_no_more_often_than_the_stated_error():
    R = "builtin:random"
    ids = [f"p{i}" for i in range(300)]
    st = compute_standings([(sid, R, 0.5, 0.5) for sid in ids], [*ids, R])
    g = compute_grades(st, MUST_BEAT, baseline_scores={sid: {R: coin_flips(100 + n, 0.5)}
                                                       for n, sid in enumerate(ids)})
    passed = sum(g[sid].value > 0 for sid in ids)
    assert passed / len(ids) <= 0.05
