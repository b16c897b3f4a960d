"""`grader play MINE --from GAME --ply N`: a recorded game replayed to ply N, then the student's player
takes over against the recorded opponent's player, run again (usecases.branch)."""
from __future__ import annotations

import json

import pytest

from grader.assignment import resolve
from grader.config import AssignmentConfig
from grader.match import play_game
from grader.store import GameRecord, Store
from grader.submissions import builtin
from grader.usecases import Refused, branch
from rulesets.rbnim.search import search

KEY = "ab" * 32


@pytest.fixture
def recorded(tmp_path):
    """A Red-Blue Nim game of two random built-ins, stored as a league stores it."""
    a = resolve("nim", AssignmentConfig(ruleset="rbnim", submissions=".", game={"red": 7, "blue": 9}), tmp_path)
    rnd = builtin(a.ruleset, "random")
    result = play_game(a, rnd, rnd, seed=3)
    assert result.infra_error is None and len(result.moves) > 4, result.detail
    with Store(a.store_path) as store:
        store.save_game(GameRecord(key=KEY, assignment=a.name, run_id=1, pairing="p", seat0="builtin:random",
                                   seat1="builtin:random", seat0_hash="r", seat1_hash="r", seed=3, game_index=0,
                                   round="league", points0=result.points[0], points1=result.points[1],
                                   reason=result.reason, moves_json=json.dumps({"moves": result.moves})))
    return a, result.moves


def test_the_branch_replays_the_recorded_game_to_the_ply_then_the_new_player_moves(recorded):
    a, moves = recorded
    branched = branch(a, "perfect", KEY[:16], ply=2, seat=0)
    result = branched.result
    assert result.infra_error is None, result.detail
    assert result.moves[:2] == moves[:2]
    state, replayed = a.game.new_state(3), a.game.new_state(3)
    for mine, theirs in zip(result.moves[:2], moves[:2]):
        state.play(state.parse_move(mine))
        replayed.play(replayed.parse_move(theirs))
        assert state.to_json() == replayed.to_json()
    assert state.to_move == 0 and branched.seats[0].display_name != branched.seats[1].display_name
    assert result.moves[2] == list(search(state.red, state.blue, state.version)[1])   # the perfect player's move


def test_a_branch_that_cannot_start_says_why(recorded):
    a, moves = recorded
    with pytest.raises(Refused, match=f"has {len(moves)} moves: --ply must be from 0"):
        branch(a, "perfect", KEY[:16], ply=len(moves), seat=0)
    with pytest.raises(Refused, match="say which seat your player takes"):
        branch(a, "perfect", KEY[:16], ply=1)
    with pytest.raises(Refused, match="holds no game 0123"):
        branch(a, "perfect", "0123", ply=1, seat=0)
