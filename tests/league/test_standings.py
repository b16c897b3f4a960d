"""Standings on hand-made tables: ranks with ties, W-D-L, both-lose games, crosstable, ratings."""
from __future__ import annotations

import math

import pytest

from grader.standings import compute_standings

# a: beats b twice, draws c; b: beats c; c and d both lose once; d loses to a.
TABLE = [
    ("a", "b", 1, 0), ("b", "a", 0, 1), ("a", "c", 0.5, 0.5), ("b", "c", 1, 0),
    ("c", "d", 0, 0), ("d", "a", 0, 1), ("d", "b", 1, 0),
]


def rows(standings):
    return {r.id: r for r in standings.rows}


def test_points_wdl_and_both_lose():
    s = rows(compute_standings(TABLE, ["a", "b", "c", "d"]))
    assert (s["a"].points, s["a"].wins, s["a"].draws, s["a"].losses, s["a"].games) == (3.5, 3, 1, 0, 4)
    assert (s["b"].points, s["b"].wins, s["b"].draws, s["b"].losses) == (1.0, 1, 0, 3)
    assert (s["c"].points, s["c"].wins, s["c"].draws, s["c"].losses) == (0.5, 0, 1, 2)   # (0, 0) is a loss
    assert (s["d"].points, s["d"].wins, s["d"].draws, s["d"].losses) == (1.0, 1, 0, 2)
    assert sum(r.wins + r.draws + r.losses for r in s.values()) == 2 * len(TABLE)


def test_equal_points_are_ordered_by_rating():
    # b and d both have 1 point; d beat b head to head, so d rates higher and ranks above b.
    st = compute_standings(TABLE, ["a", "b", "c", "d"])
    assert [(r.id, r.rank) for r in st.rows] == [("a", 1), ("d", 2), ("b", 3), ("c", 4)]
    assert rows(st)["d"].rating > rows(st)["b"].rating


def test_exact_ties_share_a_rank():
    # A symmetric cycle: everyone 1 point, identical ratings -> 1, 1, 1; then e behind.
    games = [("x", "y", 1, 0), ("y", "z", 1, 0), ("z", "x", 1, 0), ("x", "e", 1, 0), ("y", "e", 1, 0),
             ("z", "e", 1, 0)]
    st = compute_standings(games, ["x", "y", "z", "e"])
    assert [(r.id, r.rank) for r in st.rows] == [("x", 1), ("y", 1), ("z", 1), ("e", 4)]
    # Two tied in the middle: 1, 2, 2, 4.
    games = [("a", "b", 1, 0), ("a", "c", 1, 0), ("a", "d", 1, 0), ("b", "c", 0.5, 0.5), ("b", "d", 1, 0),
             ("c", "d", 1, 0)]
    st = compute_standings(games, ["d", "c", "b", "a"])
    assert [(r.id, r.rank, r.points) for r in st.rows] == [("a", 1, 3.0), ("b", 2, 1.5), ("c", 2, 1.5), ("d", 4, 0.0)]


def test_crosstable():
    st = compute_standings(TABLE, ["a", "b", "c", "d"])
    assert st.crosstable["a"]["b"] == {"points": 2.0, "games": 2}
    assert st.crosstable["b"]["a"] == {"points": 0.0, "games": 2}
    assert st.crosstable["c"]["d"] == {"points": 0.0, "games": 1} == st.crosstable["d"]["c"]
    assert st.head_to_head("a", "c") == (0.5, 1)
    assert st.head_to_head("a", "nobody") == (0.0, 0)


def test_disqualified_get_a_row_without_rank_and_their_games_are_dropped():
    st = compute_standings(TABLE, ["a", "b", "c", "d"], {"d": "used too much memory"})
    r = rows(st)
    assert (r["d"].rank, r["d"].disqualified, r["d"].games) == (None, "used too much memory", 0)
    assert st.rows[-1].id == "d"
    assert r["b"].points == 1.0 and r["b"].games == 3       # the loss to d is gone
    assert "d" not in st.crosstable["c"]


def test_participant_without_games_is_listed_unrated():
    st = compute_standings([("a", "b", 1, 0)], ["a", "b", "idle"])
    r = rows(st)
    assert (r["idle"].games, r["idle"].rating, r["idle"].rank) == (0, None, 3)


def test_to_json_is_plain_data():
    import json
    doc = compute_standings(TABLE, ["a", "b", "c", "d"]).to_json()
    assert json.loads(json.dumps(doc)) == doc
    assert {"id", "rank", "rating", "rating_low", "rating_high", "disqualified"} <= set(doc["rows"][0])


def elo_gap(wins: int, losses: int) -> float:
    return 400 * math.log10(wins / losses)


@pytest.mark.parametrize("wins,losses", [(3, 1), (6, 2), (30, 10), (9, 1)])
def test_two_players_known_ratio_gives_known_gap(wins, losses):
    games = [("a", "b", 1, 0)] * wins + [("b", "a", 1, 0)] * losses
    r = rows(compute_standings(games, ["a", "b"]))
    gap = r["a"].rating - r["b"].rating
    assert gap == pytest.approx(elo_gap(wins, losses), rel=0.03)
    assert (r["a"].rating + r["b"].rating) / 2 == pytest.approx(1500)
    assert r["a"].rating_low < r["a"].rating < r["a"].rating_high


def test_draws_count_as_half_wins():
    # 2 wins, 2 draws, 0 losses = 3 : 1 in half-wins, same gap as 3 wins 1 loss.
    games = [("a", "b", 1, 0)] * 2 + [("a", "b", 0.5, 0.5)] * 2
    r = rows(compute_standings(games, ["a", "b"]))
    assert r["a"].rating - r["b"].rating == pytest.approx(elo_gap(3, 1), rel=0.03)


def test_symmetric_results_give_equal_ratings():
    games = [("a", "b", 1, 0), ("b", "a", 1, 0), ("a", "c", 0.5, 0.5), ("b", "c", 0.5, 0.5)]
    r = rows(compute_standings(games, ["a", "b", "c"]))
    assert r["a"].rating == pytest.approx(r["b"].rating, abs=1e-3) == pytest.approx(r["c"].rating, abs=1e-3)


def test_more_wins_higher_rating_and_unbeaten_stays_finite():
    games = [("top", "mid", 1, 0)] * 4 + [("mid", "low", 1, 0)] * 3 + [("low", "mid", 1, 0)] + [("top", "low", 1, 0)] * 4
    r = rows(compute_standings(games, ["top", "mid", "low"]))
    assert r["top"].rating > r["mid"].rating > r["low"].rating
    assert math.isfinite(r["top"].rating) and math.isfinite(r["top"].rating_high)


def test_intervals_shrink_with_more_games():
    few = rows(compute_standings([("a", "b", 1, 0)] * 3 + [("b", "a", 1, 0)], ["a", "b"]))
    many = rows(compute_standings([("a", "b", 1, 0)] * 30 + [("b", "a", 1, 0)] * 10, ["a", "b"]))
    width = lambda r: r.rating_high - r.rating_low      # noqa: E731
    assert width(many["a"]) < width(few["a"]) / 2
    # Fisher information by hand: Var(θa − θb) = 1 / (n p (1 − p)); each of two centred players carries half.
    se = math.sqrt(1 / (40 * 0.75 * 0.25)) / 2
    assert width(many["a"]) / 2 == pytest.approx(1.96 * se * 400 / math.log(10), rel=0.05)


def test_both_lose_games_do_not_move_ratings():
    base = [("a", "b", 1, 0), ("b", "a", 1, 0)]
    r1 = rows(compute_standings(base, ["a", "b"]))
    r2 = rows(compute_standings(base + [("a", "b", 0, 0)] * 5, ["a", "b"]))
    assert r1["a"].rating == pytest.approx(r2["a"].rating, abs=1e-3)


def _against_random(record: dict[str, tuple[int, int]]):
    """Games of each player against one common opponent: {id: (wins, losses)}."""
    games = []
    for sid, (wins, losses) in record.items():
        games += [(sid, "builtin:random", 1, 0)] * wins + [(sid, "builtin:random", 0, 1)] * losses
    return games


# random_subset leagues: players play different numbers of games (the 8 to 14).
UNEVEN = {"seventy": (7, 3), "sixty_seven": (10, 5), "sixty_four": (9, 5)}


def test_uneven_game_counts_rank_by_rating_not_raw_points():
    st = compute_standings(_against_random(UNEVEN), [*UNEVEN, "builtin:random"], rank_by="rating")
    players = [r.id for r in st.rows if r.id != "builtin:random"]
    assert players == ["seventy", "sixty_seven", "sixty_four"]      # 70 % > 67 % > 64 % of their games
    assert [r.rank for r in st.rows if r.id in UNEVEN] == sorted(r.rank for r in st.rows if r.id in UNEVEN)
    assert st.to_json()["rank_by"] == "rating"
    by_points = compute_standings(_against_random(UNEVEN), [*UNEVEN, "builtin:random"])
    assert [r.id for r in by_points.rows if r.id in UNEVEN] == ["sixty_seven", "sixty_four", "seventy"]


def test_rating_ranking_shares_ranks_and_puts_unrated_last():
    games = _against_random({"a": (3, 1), "b": (3, 1)})
    st = compute_standings(games, ["a", "b", "builtin:random", "idle"], rank_by="rating")
    assert [(r.id, r.rank) for r in st.rows] == [("a", 1), ("b", 1), ("builtin:random", 3), ("idle", 4)]
    assert st.score(rows(st)["idle"]) == -math.inf


def test_unknown_ranking_is_refused():
    with pytest.raises(ValueError, match="rank_by"):
        compute_standings([], ["a"], rank_by="wins")


def test_the_league_ranks_random_subset_by_rating_and_round_robin_by_points():
    from grader.assignment import load_assignments
    from grader.league import rank_by

    assignments = load_assignments("config.yaml")
    assert assignments["colosseum"].config.league.format == "random_subset"
    assert rank_by(assignments["colosseum"]) == "rating"
    assert rank_by(assignments["quoridor"]) == "points"
