"""The "legal_moves" probe: its positions, and its verdicts on good and broken submissions."""
from __future__ import annotations

import pytest

from rulesets.base import Mismatch
from rulesets.colosseum import RULESET
from rulesets.colosseum.probes import legal_move_cases, positions


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


def test_positions_cover_the_worked_examples_and_every_size(game):
    labelled = positions(game)
    labels = [label for label, _ in labelled]
    assert "world_1, A to move" in labels and "world_1, B to move" in labels
    after = [label for label in labels if label.startswith("world_1 after A plays")]
    assert len(after) == 4            # (3,1) Right walls A in: that game is over, nothing to ask
    assert "world_1 after A plays (3,1) Right" not in after
    assert sum(label.startswith("empty ") for label in labels) == 4
    sizes = {state.size for label, state in labelled if label.startswith("random")}
    assert sizes == set(range(5, 12))
    assert all(not state.is_over for _, state in labelled)
    assert any(state.ply > 0 for label, state in labelled if label.startswith("random"))
    assert [s.to_json() for _, s in positions(game)] == [s.to_json() for _, s in labelled]


def test_cases_ask_move_after_setup_with_the_seat_to_move(game):
    for case in legal_move_cases(game):
        assert case.method == "move" and case.args == {"state": case.state.to_json(), "last": []}
        (method, args), = case.setup
        assert method == "setup" and args["seat"] == case.state.to_move


@pytest.mark.parametrize("name", ["random", "baseline"])
def test_built_in_players_pass(stage, game, players, open_player, name):
    handler = open_player(players[name])
    assert all(mismatch is None for _, mismatch in run_cases(stage.cases(game), handler))


def test_example_student_passes(stage, game, examples, open_player):
    handler = open_player(examples / "baseline_student")
    assert all(mismatch is None for _, mismatch in run_cases(stage.cases(game), handler))


def test_illegal_moves_are_explained_and_marked(stage, game, examples, open_player):
    handler = open_player(examples / "illegal_every_time")
    results = run_cases(stage.cases(game), handler)
    assert all(isinstance(m, Mismatch) for _, m in results)
    case, mismatch = results[0]                       # world_1, A at (2,3) walls its Right side
    assert mismatch.message == ("As A (K=3) the agent returned (2,3) Right, which is illegal: "
                                "side Right of (2,3) already has a wall.")
    assert mismatch.marks == {"illegal": [(2, 3, 1)]}
    picture = case.state.render_text(mismatch.marks)
    assert "x illegal: (2,3) Right" in picture


def test_non_moves_are_explained(stage, game):
    case = stage.cases(game)[0]
    mismatch = case.check({"invalid": "step returned None (expected ((row, col), dir)): "
                                      "it is not a (position, dir) pair"})
    assert mismatch.message.startswith("As A (K=3) the agent did not return a move: step returned None")
    assert mismatch.marks == {}
    assert case.check([[1, 1], 0]) is None
    assert "(0,0) is 2 steps away" not in (case.check([[0, 0], 1]) or Mismatch("")).message
