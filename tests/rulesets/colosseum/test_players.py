"""Built-in players and example submissions, played through their shims in this process."""
from __future__ import annotations

import sys

import pytest

from rulesets.colosseum import RULESET
from rulesets.colosseum.engine import ColosseumGame


def test_ruleset_descriptor():
    d = RULESET.defaults
    assert (d.first_move_s, d.move_s, d.kill_factor, d.kill_after_s, d.memory_mb) == (30, 2, 10, 0, 500)
    assert (d.policy.on_late, d.policy.on_illegal, d.policy.on_error) == ("random",) * 3
    assert RULESET.entry == "student_agent.py" and RULESET.shim == "rulesets.colosseum.shim"
    assert set(RULESET.players) == {"random", "baseline"}


@pytest.mark.parametrize("order", [("baseline", "random"), ("random", "baseline")])
def test_full_games_end_with_a_decided_board(players, play_in_process, order):
    for seed in range(3):
        state, refused = play_in_process([players[order[0]], players[order[1]]], seed)
        assert state.outcome.reason == "board_decided"
        assert refused == [[], []]
        assert sum(state.outcome.points) == 1.0


def test_baseline_beats_random_clearly(players, play_in_process):
    wins = 0
    for seed in range(20):
        baseline_seat = seed % 2
        folders = [players["random"], players["random"]]
        folders[baseline_seat] = players["baseline"]
        state, refused = play_in_process(folders, 1000 + seed)
        assert refused == [[], []]
        wins += state.outcome.winner == baseline_seat
    assert wins >= 15


def test_baseline_against_itself_on_the_largest_board(players, play_in_process):
    state, refused = play_in_process([players["baseline"], players["baseline"]], 3, board_size=11)
    assert state.is_over and refused == [[], []]
    assert state.ply > 10                 # two careful players do not trap themselves at once


def test_baseline_takes_a_winning_close(open_player, players, game):
    """A corridor board where one wall wins at once: B stands in a 2-cell pocket."""
    from rulesets.colosseum.engine import state_from_parts
    # 4x4; column 3 rows 0-1 form a pocket open only at (1,3) Down; B inside at (0,3)
    walls = [(0, 2, 1), (1, 2, 1)]
    state = state_from_parts(game, 4, walls, [(2, 2), (0, 3)])
    handler = open_player(players["baseline"])
    handler.rpc_setup(0, state.to_json(), "baseline", {})
    move = state.parse_move(handler.rpc_move(state.to_json(), []))
    state.play(move)
    assert state.outcome is not None and state.outcome.winner == 0


def test_baseline_never_walls_itself_into_the_smaller_region(players, open_player, game):
    from rulesets.colosseum.probes import positions
    handler = open_player(players["baseline"])
    checked = 0
    for _, state in positions(game, 424):
        def loses(move, state=state):
            after = state.copy()
            after.play(move)
            return after.outcome is not None and after.outcome.winner == 1 - state.turn
        if all(loses(m) for m in state.legal_moves()):
            continue
        handler.rpc_setup(state.turn, state.to_json(), "baseline", {})
        move = state.parse_move(handler.rpc_move(state.to_json(), []))
        assert not loses(move), state.render_text({"illegal": [move]})
        checked += 1
    assert checked >= 20


def test_example_baseline_student_plays_well(examples, players, play_in_process):
    wins = 0
    for seed in range(6):
        seat = seed % 2
        folders = [players["random"], players["random"]]
        folders[seat] = examples / "baseline_student"
        state, refused = play_in_process(folders, seed)
        assert refused == [[], []]
        wins += state.outcome.winner == seat
    assert wins >= 5


def test_example_illegal_every_time_is_refused_every_time(examples, players, play_in_process):
    state, refused = play_in_process([examples / "illegal_every_time", players["random"]], 4)
    assert state.is_over
    assert refused[1] == []
    assert len(refused[0]) == (state.ply + 1) // 2            # every one of its turns
    assert all("already has a wall" in s or "steps away" in s or "outside" in s for s in refused[0])


def test_example_raises_raises_from_move(examples, open_player, game):
    handler = open_player(examples / "raises")
    state = game.new_state(1)
    handler.rpc_setup(0, state.to_json(), "raises", {})
    with pytest.raises(RuntimeError, match="not written yet"):
        handler.rpc_move(state.to_json(), [])


def test_example_times_out_thinks_after_its_first_move(examples, open_player, game, monkeypatch):
    slept = []
    handler = open_player(examples / "times_out")
    monkeypatch.setattr(sys.modules[handler.agent_class.__module__], "think", slept.append)
    state = game.new_state(2)
    handler.rpc_setup(0, state.to_json(), "slow", {})
    first = state.parse_move(handler.rpc_move(state.to_json(), []))
    assert state.why_illegal(first) is None and slept == []
    state.play(first)
    state.play(state.legal_moves()[0])
    second = state.parse_move(handler.rpc_move(state.to_json(), []))
    assert slept == [3] and state.why_illegal(second) is None


def test_examples_have_clean_interfaces(examples, open_player):
    for name in ("baseline_student", "times_out", "illegal_every_time", "raises"):
        assert open_player(examples / name).rpc_interface() == [], name


def test_every_start_board_size_works_for_the_players(players, play_in_process):
    for size in (3, 4, 5):
        state, refused = play_in_process([players["baseline"], players["random"]], size, board_size=size)
        assert state.is_over and refused == [[], []]
        assert ColosseumGame(board_size=size).new_state(size).size == size
