"""The collusion check flags a planted game-throwing pair and no honest player of mixed strength."""
from __future__ import annotations

import random

import pytest

from benchmarks.simulated_leagues import bt_league as _bt_league
from benchmarks.simulated_leagues import league
from grader.collusion import binomial_tail, find_collusion, fisher_greater, result_flags


def test_a_player_who_walks_away_from_its_goal_against_one_partner_is_flagged_and_no_one_else(thrown_league):
    flags = thrown_league.flags                 # find_collusion on the league of 8 with p6 throwing to p1
    assert {(f.player, f.beneficiary) for f in flags} == {("p6", "p1")}, [f.sentence for f in flags]
    moves = next(f for f in flags if f.test == "moves")
    assert "p6 made an obviously losing move" in moves.sentence and len(moves.games) == 4


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_honest_leagues_of_mixed_strength_raise_no_flag(seed):
    games, game, blunder = league(n_players=8, games_per_pair=4, seed=seed)
    assert find_collusion(games, game, blunder) == []


def test_results_far_from_the_ratings_are_flagged_where_the_ruleset_cannot_judge_moves():
    strengths = {f"s{i}": 1100 + 100 * i for i in range(8)}
    rng = random.Random(5)
    games = _bt_league(rng, strengths, games_per_pair=10, lose_to=("s7", "s0"))   # the strongest loses 10/10 to the weakest
    flags = result_flags(games)
    assert [(f.player, f.beneficiary, f.test) for f in flags] == [("s7", "s0", "results")]
    for seed in range(3):
        assert result_flags(_bt_league(random.Random(seed), strengths, games_per_pair=10)) == []


def test_the_statistics():
    assert binomial_tail(2, 2, 0.5) == pytest.approx(0.25)
    assert binomial_tail(10, 0, 0.3) == 1.0
    # hypergeometric tail: 3 events among 4 trials, all 3 in the first 3 trials drawn
    assert fisher_greater(3, 3, 0, 1) == pytest.approx(0.25)
    assert fisher_greater(0, 5, 5, 5) == pytest.approx(1.0)


def test_bohnenspiel_judges_a_move_that_hands_over_a_big_capture():
    import rulesets

    ruleset = rulesets.load("bohnenspiel")
    game = ruleset.game()
    # One ply ahead, pit 1 leaves the opponent a capture at least six beans larger than pit 5 does.
    state = game.position([0, 1, 0, 0, 0, 5], [3, 0, 2, 5, 1, 2], to_move=0)
    assert ruleset.blunder(state, ("pit", 1)) is True
    assert ruleset.blunder(state, ("pit", 5)) is False
    assert ruleset.blunder(state, ("skip",)) is None
