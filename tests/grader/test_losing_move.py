"""The move that lost the game (grader/losing_move.py): exact on Red-Blue Nim positions worked out by
hand, a labelled estimate for Bohnenspiel, nothing for a won game, cached in the store with the game."""
from __future__ import annotations

import json
import random
from dataclasses import replace

import rulesets
from grader.losing_move import analyse_league, losing_move
from grader.serve.app import own_games
from grader.store import GameRecord, Store

NIM = rulesets.load("rbnim")
BOHNENSPIEL = rulesets.load("bohnenspiel")

# Standard Red-Blue Nim from 3 red, 3 blue (the player facing an empty pile loses 2·red + 3·blue).
# Every move from (3, 3) leaves a pile of at most 2 or a (2, 3)/(3, 2) the opponent empties: lost for
# the player to move. Player 0 takes 2 red → (1, 3): player 1 wins by taking the last red (player 0
# faces an empty pile), but takes 1 blue → (1, 2); player 0 takes the last red and player 1 faces
# an empty pile with 2 blue left: player 1 loses 6.
THREE_THREE = [["red", 2], ["blue", 1], ["red", 1]]


def test_the_losing_move_is_exact_on_a_nim_game_worked_by_hand():
    game = NIM.game(red=3, blue=3)
    found = losing_move(NIM, game, 0, THREE_THREE, seat=1)
    assert found is not None
    assert (found.ply, found.move, found.kept, found.before, found.after) == (1, "take 1 blue", "take 1 red", 1, -1)
    assert found.exact and found.label == "exact"
    assert "Move 2 (take 1 blue)" in found.sentence and "take 1 red kept it won" in found.sentence


def test_a_won_game_and_a_game_lost_from_its_first_move_get_none():
    game = NIM.game(red=3, blue=3)
    assert losing_move(NIM, game, 0, THREE_THREE, seat=0) is None          # player 0 won it
    # from (1, 3) player 0 wins by taking the last red; taking 2 blue leaves (1, 1), lost
    first = NIM.game(red=1, blue=3)
    thrown = losing_move(NIM, first, 0, [["blue", 2], ["red", 1]], seat=0)
    assert thrown is not None and (thrown.ply, thrown.move, thrown.kept) == (0, "take 2 blue", "take 1 red")
    # (3, 3) is lost for player 0 whatever it plays: take 1 red → (2, 3), player 1 takes 2 red → (0, 3)
    assert losing_move(NIM, game, 0, [["red", 1], ["red", 2]], seat=0) is None


def _random_game(seed: int) -> tuple[list, tuple[float, float]]:
    game, rng = BOHNENSPIEL.game(), random.Random(seed)
    state, moves = game.new_state(seed), []
    while not state.is_over:
        move = state.random_move(rng)
        moves.append(state.move_to_json(move))
        state.play(move)
    assert state.outcome is not None
    return moves, state.outcome.points


def test_bohnenspiel_gets_an_estimate_labelled_with_its_depth_the_same_every_time():
    moves, points = _random_game(1)
    assert points == (1.0, 0.0)
    loser = 1
    found = losing_move(BOHNENSPIEL, BOHNENSPIEL.game(), 1, moves, seat=loser, nodes=20_000)
    assert found is not None and not found.exact
    assert found.depth is not None and found.depth >= 1
    assert found.label == f"estimate, depth {found.depth}" and found.label in found.sentence
    assert losing_move(BOHNENSPIEL, BOHNENSPIEL.game(), 1, moves, seat=loser, nodes=20_000) == found
    assert losing_move(BOHNENSPIEL, BOHNENSPIEL.game(), 1, moves, seat=1 - loser, nodes=20_000) is None


def test_a_ruleset_without_an_evaluator_gets_none():
    quoridor = rulesets.load("quoridor")
    assert quoridor.evaluator is None
    assert losing_move(quoridor, quoridor.game(), 0, [], seat=0) is None


def _record(key: str, seat0: str, seat1: str, moves: list, points: tuple[float, float]) -> GameRecord:
    return GameRecord(key=key, assignment="nim", run_id=1, pairing="p", seat0=seat0, seat1=seat1, seat0_hash="a",
                      seat1_hash="b", seed=0, game_index=0, round="league", points0=points[0], points1=points[1],
                      reason="empty_pile", moves_json=json.dumps({"moves": moves}))


def test_the_league_caches_each_students_analysis_with_the_game_and_skips_built_ins(tmp_path):
    game = NIM.game(red=3, blue=3)
    with Store(tmp_path / "results.sqlite") as store:
        store.save_game(_record("k1", "alice", "bob", THREE_THREE, (1.0, 0.0)))
        store.save_game(_record("k2", "alice", "builtin:perfect", THREE_THREE, (1.0, 0.0)))
        assert analyse_league(NIM, game, store, "nim", {"k1", "k2"}) == 1      # bob's seat only
        assert analyse_league(NIM, game, store, "nim", {"k1", "k2"}) == 0      # cached
        assert store.losing_moves_of("k1")[1]["move"] == "take 1 blue"
        assert store.losing_moves_of("k2") == {}


def test_the_students_own_games_page_says_which_move_lost():
    found = losing_move(NIM, NIM.game(red=3, blue=3), 0, THREE_THREE, seat=1)
    assert found is not None
    results = {"submissions": [{"id": "alice", "public_name": "Calm Otter"}, {"id": "bob"}],
               "games": [{"seat0": "alice", "seat1": "bob", "points": [1.0, 0.0], "detail": "d",
                          "losing_moves": {"1": found.to_json()}}]}
    assert own_games(results, "bob")[0]["losing"] == found.sentence
    assert own_games(results, "alice")[0]["losing"] is None


def test_the_league_pool_finds_the_same_rows_as_one_process(tmp_path):
    """The seats analysed in 3 spawned processes give the very rows one process gives (the search is
    bounded by nodes, never by time), the built-in's seat and the won seats left out in both."""
    game, rows = BOHNENSPIEL.game(), []
    for workers in (1, 3):
        with Store(tmp_path / f"w{workers}.sqlite") as store:
            for seed in range(6):
                moves, points = _random_game(seed)
                store.save_game(replace(_record(f"k{seed}", "alice", "builtin:greedy" if seed == 5 else "bob", moves,
                                                points), seed=seed))
            analysed = analyse_league(BOHNENSPIEL, game, store, "nim", {f"k{s}" for s in range(6)}, nodes=4000,
                                      workers=workers)
            assert analysed == len(store.analysed_seats("nim")) >= 5
            rows.append({(f"k{s}", seat): found for s in range(6) for seat, found in store.losing_moves_of(f"k{s}").items()})
    assert rows[0] == rows[1] and len(rows[0]) >= 3
