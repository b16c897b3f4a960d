"""The ladder's sequential test (grader/sprt.py) and the grades it gives (grading kind "ladder")."""
from __future__ import annotations

import math
import random

import pytest

from grader.grading import GradingConfigError, compute_grades
from grader.sprt import BEATS, DOES_NOT_BEAT, UNDECIDED, SprtSettings, decide
from grader.standings import Row, Standings

LADDER = {"kind": "ladder", "rules": [{"beats": "greedy", "grade": 10}, {"beats": "random", "grade": 5}],
          "error": 0.05, "margin": 0.1, "max_games": 200}


def test_a_run_of_wins_is_decided_at_the_first_game_that_crosses_the_bound():
    settings = SprtSettings(error=0.05, margin=0.1)
    needed = math.ceil(math.log(0.95 / 0.05) / math.log(0.6 / 0.5))       # 17 straight wins (H0: ½, H1: 0.6)
    d = decide([1.0] * 50, settings)
    assert (d.verdict, d.games, d.points) == (BEATS, needed, needed)
    assert decide([1.0] * (needed - 1), settings).verdict == UNDECIDED
    losses = math.ceil(math.log(0.95 / 0.05) / math.log(0.5 / 0.4))       # 14 straight losses
    assert decide([0.0] * 50, settings) == decide([0.0] * losses, settings)
    assert decide([0.0] * 50, settings).verdict == DOES_NOT_BEAT
    assert decide([0.0] * (losses - 1), settings).verdict == UNDECIDED
    # games after the deciding one never change the decision (a twin, a game in flight)
    assert decide([1.0] * needed + [0.0] * 10, settings) == d


def test_a_stricter_error_needs_more_games_and_draws_count_half():
    loose, strict = SprtSettings(error=0.1), SprtSettings(error=0.01)
    assert decide([1.0] * 100, loose).games < decide([1.0] * 100, strict).games
    assert decide([0.5] * 200, loose).verdict == DOES_NOT_BEAT        # all draws: as strong, so not beating it
    assert decide([0.55] * 200, loose).verdict == UNDECIDED           # in the indifference zone (½, ½ + margin)
    assert decide([0.55] * 200, loose).games == 200


def test_max_games_ends_the_test_undecided():
    settings = SprtSettings(max_games=10)
    d = decide([1.0, 0.0] * 40, settings)
    assert d.verdict == UNDECIDED and d.games == 10 and d.points == 5 and not d.beats
    assert d.sentence("greedy") == "greedy: not decided after 5 of 10 games, so not counted as beating it"


@pytest.mark.parametrize("p, verdict", [(0.75, BEATS), (0.25, DOES_NOT_BEAT), (0.5, DOES_NOT_BEAT)])
def test_the_error_rate_holds_on_players_outside_the_indifference_zone(p, verdict):
    settings = SprtSettings(error=0.05, margin=0.1)
    rng = random.Random(4)
    wrong = 0
    for _ in range(400):
        d = decide([1.0 if rng.random() < p else 0.0 for _ in range(400)], settings)
        wrong += d.verdict not in (verdict, UNDECIDED)
    assert wrong / 400 < 0.05


def test_ladder_grades_say_each_decision_and_its_error():
    st = Standings([Row("ann", 1), Row("bob", 2), Row("cid", 3), Row("builtin:greedy", 4)])
    ladder = {"ann": {"builtin:greedy": [1.0] * 20, "builtin:random": [1.0] * 17},
              "bob": {"builtin:greedy": [0.0] * 14, "builtin:random": [1.0, 0.5] * 20},
              "cid": {"builtin:greedy": [0.0] * 14, "builtin:random": [0.0] * 14}}
    g = compute_grades(st, LADDER, baseline_scores=ladder)
    assert {k: v.value for k, v in g.items()} == {"ann": 10, "bob": 5, "cid": 0}
    assert g["ann"].reason == "beats greedy: 17 of 17 games, error below 5%"
    assert g["bob"].reason.startswith("does not beat greedy: 0 of 14 games, error below 5%; beats random: ")
    assert g["cid"].reason == ("does not beat greedy: 0 of 14 games, error below 5%; "
                               "does not beat random: 0 of 14 games, error below 5%")
    assert compute_grades(st, LADDER)["ann"].reason == "greedy: no games played; random: no games played"


@pytest.mark.parametrize("change, words", [({"error": 0.7}, "error rate"), ({"rules": [{"beats": "random", "grade": 1}], "margin": 0.6}, "margin"), ({"margin": 0}, "margin"),
                                            ({"max_games": 1}, "max_games"), ({"rules": []}, "rules")])
def test_bad_ladder_config_is_one_sentence(change, words):
    with pytest.raises(GradingConfigError, match=words):
        compute_grades(Standings([]), LADDER | change)


@pytest.mark.parametrize("grading, words", [
    ({"rules": [{"beats": "greedy", "grade": 10}]}, "'greedy' is not a built-in player of colosseum"),
    ({"rules": [{"beats": "random", "grade": 10}], "error": 0.7}, "grading: the sequential test's error rate"),
    ({"rules": []}, "grading: grading rules must be a non-empty list"),
    ({"kind": "interpolate", "must_beat": "random", "margin": 0.5}, "grading: the sequential test's margin")])
def test_a_ladder_config_is_checked_when_loaded(tmp_path, grading, words):
    import yaml

    from grader.assignment import load_assignments
    from grader.config import ConfigError

    (tmp_path / "subs").mkdir()
    block = {"ruleset": "colosseum", "submissions": "subs", "grading": {"kind": "ladder"} | grading}
    (tmp_path / "config.yaml").write_text(yaml.safe_dump({"assignments": {"arena": block}}))
    with pytest.raises(ConfigError, match=words):
        load_assignments(tmp_path / "config.yaml")
