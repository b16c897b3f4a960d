"""The "legal_moves" probe: its positions, and its verdicts on good and broken submissions."""
from __future__ import annotations

import itertools

import pytest

from rulesets.base import Mismatch
from rulesets.colosseum import RULESET
from rulesets.colosseum.probes import PLAYED_TURNS, games, legal_move_cases, positions

SEED = 424                  # the positions a check with this seed asks (a check draws its own)


@pytest.fixture
def stage(game):
    (probe,) = RULESET.probes(game)
    return probe


def run_cases(cases, handler):
    """What the validator does: the setup RPCs, then the case's RPC; check the reply."""
    results = []
    for case in cases:
        for method, args in case.setup:
            getattr(handler, f"rpc_{method}")(**args)
        reply = getattr(handler, f"rpc_{case.method}")(**case.args)
        results.append((case, case.check(reply)))
    return results


def test_one_required_stage(stage):
    assert (stage.name, stage.points, stage.required, stage.scoring) == ("legal_moves", 1.0, True, "all")


def walls(state):
    return {tuple(w) for w in state.to_json()["barriers"]}


def test_positions_come_in_games_from_the_worked_examples_and_the_leagues_games(game):
    """One game per agent instance: one board size, one seat, the agent's turns in the game's order
    (ply rising, every wall of a position still there in the next); the games besides the worked
    examples are the assignment's own, on its board sizes."""
    played = games(game, SEED)
    names = [name for name, _ in played]
    assert names[:2] == ["world_1, A to move", "world_1, B to move"]
    assert sum(name.startswith("empty ") for name in names) == 2
    lo, hi = game.params["board_size"]
    assert {turns[0].size for name, turns in played if name.startswith("played ")} <= set(range(lo, hi + 1))
    for name, turns in played:
        assert len({s.size for s in turns}) == 1 and len({s.turn for s in turns}) == 1, name
        assert all(not s.is_over for s in turns) and len(turns) >= (2 if name.startswith("world") else 1), name
        for before, after in itertools.pairwise(turns):
            assert after.ply > before.ply and walls(before) <= walls(after), name
    assert {s.turn for _, turns in played for s in turns} == {0, 1}
    assert len(positions(game, SEED)) == sum(len(turns) for _, turns in played)
    assert sum(len(turns) for name, turns in played if name.startswith("played ")) == PLAYED_TURNS
    assert [s.to_json() for _, s in positions(game, SEED)] == [s.to_json() for _, s in positions(game, SEED)]
    assert [s.to_json() for _, s in positions(game, SEED)] != [s.to_json() for _, s in positions(game, SEED + 1)]


def test_cases_ask_move_after_setup_with_the_seat_to_move(game):
    for case in legal_move_cases(game, SEED):
        assert case.method == "move" and case.args["state"] == case.state.to_json()
        assert all(told["seat"] != case.state.to_move for told in case.args["last"])   # the opponent's, as a game
        (method, args), = case.setup
        assert method == "setup" and args["seat"] == case.state.to_move


@pytest.mark.parametrize("name", ["random", "baseline"])
def test_built_in_players_pass(stage, game, players, open_player, name):
    handler = open_player(players[name])
    assert all(mismatch is None for _, mismatch in run_cases(stage.cases(game, SEED), handler))


def test_example_student_passes(stage, game, examples, open_player):
    handler = open_player(examples / "baseline_student")
    assert all(mismatch is None for _, mismatch in run_cases(stage.cases(game, SEED), handler))


def test_illegal_moves_are_explained_and_marked(stage, game, examples, open_player):
    handler = open_player(examples / "illegal_every_time")
    results = run_cases(stage.cases(game, SEED), handler)
    assert all(isinstance(m, Mismatch) for _, m in results)
    case, mismatch = results[0]                       # world_1, A at (2,3) walls its Right side
    assert mismatch.message == ("As A (K=3) the agent returned (2,3) Right, which is illegal: "
                                "side Right of (2,3) already has a wall.")
    assert mismatch.marks == {"illegal": [(2, 3, 1)]}
    picture = case.state.render_text(mismatch.marks)
    assert "x illegal: (2,3) Right" in picture


def test_non_moves_are_explained(stage, game):
    case = stage.cases(game, SEED)[0]
    mismatch = case.check({"invalid": "step returned None (expected ((row, col), dir)): "
                                      "it is not a (position, dir) pair"})
    assert mismatch.message.startswith("As A (K=3) the agent did not return a move: step returned None")
    assert mismatch.marks == {}
    assert case.check([[1, 1], 0]) is None
    assert "(0,0) is 2 steps away" not in (case.check([[0, 0], 1]) or Mismatch("")).message
