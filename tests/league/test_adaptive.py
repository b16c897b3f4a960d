"""The adaptive league's waves: where games go, when it stops, that a seed gives one schedule, and
that a killed run resumes with the same games (grader/adaptive.py)."""
from __future__ import annotations

import math
import random

import pytest

from grader.adaptive import AdaptiveSettings, cut_places, next_wave, run_waves, straddlers
from grader.schedule import GameSpec


def simulated(theta: dict[str, float], store: dict | None = None, stop_after: int | None = None,
              deterministic: bool = False):
    """A play function over Bradley–Terry players; `store` keeps results across 'runs', and the
    run is killed (KeyboardInterrupt) after `stop_after` newly played games."""
    store = {} if store is None else store
    played = []

    def play(specs: list[GameSpec]):
        for s in specs:
            key = (s.pairing, s.game_index)
            if key in store:
                continue
            if stop_after is not None and len(played) >= stop_after:
                raise KeyboardInterrupt
            p = 1 / (1 + math.exp(theta[s.seat1] - theta[s.seat0]))
            u = 0.5 if deterministic else random.Random(s.seed * 31 + s.game_index).random()
            won = u < p
            store[key] = (1.0, 0.0) if won else (0.0, 1.0)
            played.append(key)
        return dict(store), sorted(theta)
    play.played = played            # type: ignore[attr-defined]
    return play


def spread(n: int, step: float) -> dict[str, float]:
    return {f"p{i:02d}": -step * i for i in range(n)}        # p00 strongest


def league(theta, cuts, seed=3, **settings):
    waves = []
    play = simulated(theta)
    specs, last = run_waves(sorted(theta), cuts, 2, seed, AdaptiveSettings(**settings), play, on_wave=waves.append)
    return specs, last, waves, play


def test_cut_places_come_from_the_shares_of_the_field():
    assert cut_places(300, [0.1, 0.2, 0.4, 0.1]) == [30, 60, 120]
    assert cut_places(7, [0.1]) == [1]
    assert cut_places(7, [1.0]) == []
    assert cut_places(1, [0.5]) == []


def test_later_waves_only_pair_players_whose_interval_holds_a_cut():
    theta = spread(24, 0.6)
    _, _, waves, _ = league(theta, [3], budget=0.6)
    later = [w for w in waves[1:] if w.specs]
    assert later, "a close cut must get games after the first wave"
    for wave in later:
        assert wave.straddling
        for s in wave.specs:
            assert s.seat0 in wave.straddling or s.seat1 in wave.straddling
            assert s.round == f"wave {wave.number}"
    # the later games go to the players around the only cut (top 3), hardly to the weakest
    count = {p: sum(p in (s.seat0, s.seat1) for w in later for s in w.specs) for p in theta}
    near = sum(count[f"p{i:02d}"] for i in range(6))
    weakest = sum(count[f"p{i:02d}"] for i in range(18, 24))
    assert near > 4 * weakest
    # in doubt: a player whose order against someone across the cut is not settled at 95 %
    fit = later[0].ratings
    assert fit is not None
    order = sorted(range(len(fit.ids)), key=lambda k: -fit.theta[k])
    above, below = order[:3], order[3:]

    def settled(i, j):
        sd = math.sqrt(fit.cov[i, i] + fit.cov[j, j] - 2 * fit.cov[i, j])
        return (fit.theta[i] - fit.theta[j]) / sd >= 1.959963984540054
    for k in order:
        others = below if k in above else above
        doubtful = any(not settled(*((k, o) if k in above else (o, k))) for o in others)
        assert (fit.ids[k] in later[0].straddling) == doubtful


def test_new_games_of_a_pair_are_new_twins_on_new_seeds():
    theta = spread(12, 0.1)
    specs, *_ = league(theta, [2, 6], budget=1.0)
    keys = [(s.pairing, s.game_index) for s in specs]
    assert len(keys) == len(set(keys))
    by_pair: dict[str, list[GameSpec]] = {}
    for s in specs:
        by_pair.setdefault(s.pairing, []).append(s)
    for games in by_pair.values():
        games.sort(key=lambda s: s.game_index)
        assert [s.game_index for s in games] == list(range(len(games)))
        for a, b in zip(games[::2], games[1::2]):
            assert a.seed == b.seed and (a.seat0, a.seat1) == (b.seat1, b.seat0)
        assert len({s.seed for s in games}) == len(games) // 2


def test_stops_as_soon_as_every_cut_is_separated():
    theta = spread(10, 2.0)
    waves: list = []
    specs, last = run_waves(sorted(theta), [1, 3], 10, 3, AdaptiveSettings(budget=1.0, first_opponents=2, waves=1000),
                            simulated(theta), on_wave=waves.append)
    assert "separated at 95% confidence" in last.reason
    assert not straddlers(last.ratings, sorted(theta), [1, 3], 0.95)
    assert len(specs) < 10 * 45 / 2     # well under the budget of a full round robin
    assert len(waves) > 2 and waves[-2].straddling      # the wave before had someone in doubt


def test_stops_when_the_budget_is_spent():
    theta = {f"p{i:02d}": 0.0 for i in range(20)}      # indistinguishable: never separated
    specs, last, waves, _ = league(theta, [2, 4, 8], budget=0.3, first_opponents=2)
    assert "budget" in last.reason
    assert len(specs) <= math.floor(0.3 * 2 * 190)
    assert len(waves) > 2


def test_the_seed_decides_the_schedule():
    theta = spread(16, 0.3)
    first = [(s.seat0, s.seat1, s.seed, s.game_index, s.round) for s in league(theta, [2, 5], seed=5, budget=0.5)[0]]
    again = [(s.seat0, s.seat1, s.seed, s.game_index, s.round) for s in league(theta, [2, 5], seed=5, budget=0.5)[0]]
    other = [(s.seat0, s.seat1, s.seed, s.game_index, s.round) for s in league(theta, [2, 5], seed=6, budget=0.5)[0]]
    assert first == again
    assert first != other


def test_a_result_order_does_not_change_the_next_wave():
    theta = spread(16, 0.3)
    ids = sorted(theta)
    settings = AdaptiveSettings(budget=0.5)
    first = next_wave(ids, [], {}, [2], 2, 1, settings)
    play = simulated(theta)
    results, _ = play(first.specs)
    shuffled = dict(sorted(results.items(), key=lambda kv: random.Random(9).random()))
    a = next_wave(ids, first.specs, results, [2], 2, 1, settings)
    b = next_wave(ids, first.specs, shuffled, [2], 2, 1, settings)
    assert a.specs == b.specs and a.specs


@pytest.mark.parametrize("kill_after", [1, 37, 90])
def test_a_killed_run_resumes_with_the_same_games(kill_after):
    theta = spread(20, 0.25)
    ids, settings = sorted(theta), AdaptiveSettings(budget=0.4)
    whole = simulated(theta)
    expected, _ = run_waves(ids, [2, 4], 2, 11, settings, whole)
    assert len(expected) > kill_after

    stored: dict = {}
    with pytest.raises(KeyboardInterrupt):
        run_waves(ids, [2, 4], 2, 11, settings, simulated(theta, stored, stop_after=kill_after))
    assert len(stored) == kill_after
    resumed_play = simulated(theta, stored)
    resumed, _ = run_waves(ids, [2, 4], 2, 11, settings, resumed_play)
    assert resumed == expected
    assert len(resumed_play.played) == len(expected) - kill_after     # nothing replayed


def test_a_player_who_leaves_gets_no_more_games():
    theta = spread(12, 0.2)
    base = simulated(theta)
    gone = "p01"

    def play(specs):
        results, ids = base(specs)
        return {k: v for k, v in results.items() if gone not in k[0].split(" vs ")}, [i for i in ids if i != gone]

    specs, _ = run_waves(sorted(theta), [2], 2, 4, AdaptiveSettings(budget=1.0), play)
    assert not [s for s in specs if s.round != "wave 1" and gone in (s.seat0, s.seat1)]


def test_a_league_of_one_plays_nothing_and_says_why():
    specs, last = run_waves(["solo"], [1], 2, 1, AdaptiveSettings(), simulated({"solo": 0.0}))
    assert specs == [] and last.reason == "fewer than two players: no games to play"


def test_settings_are_checked():
    with pytest.raises(ValueError, match="confidence"):
        AdaptiveSettings(confidence=1.2)
    with pytest.raises(ValueError, match="budget"):
        AdaptiveSettings(budget=0)
    with pytest.raises(ValueError, match="at least 1"):
        AdaptiveSettings(wave_opponents=0)
