"""The student-facing port of the Java package: BohnenspielMove, BohnenspielBoardState, BohnenspielPlayer."""
from __future__ import annotations

import pytest

from rulesets.bohnenspiel.course import BohnenspielBoardState, BohnenspielMove, BohnenspielPlayer, MoveType
from rulesets.bohnenspiel.engine import BohnenspielGame


def test_move_constructors_mirror_java():
    assert BohnenspielMove(3).get_move_type() is MoveType.PIT and BohnenspielMove(3).get_player_id() == -1
    m = BohnenspielMove(4, 1)
    assert (m.get_pit(), m.get_player_id(), m.to_transport_string()) == (4, 1, "PIT 1 4")
    assert m.to_pretty_string() == "Player 1 plays pit 4" and m.toTransportable() == "PIT 1 4"
    s = BohnenspielMove("skip", 0)
    assert s.getMoveType() is BohnenspielMove.MoveType.SKIP and s.to_transport_string() == "SKIP 0"
    assert s.toPrettyString() == "Player 0 skips turn."
    assert BohnenspielMove("anything", 1).get_move_type() is MoveType.SKIP      # as in Java
    assert BohnenspielMove().get_move_type() is MoveType.NOTHING


def test_move_from_transport_strings():
    assert BohnenspielMove("PIT 1 4") == BohnenspielMove(4, 1)
    assert BohnenspielMove.from_transport("SKIP 1") == BohnenspielMove("skip", 1)
    assert BohnenspielMove("NOTHING 0").get_move_type() is MoveType.NOTHING
    assert BohnenspielMove("pit 2").get_player_id() == -1
    with pytest.raises(ValueError, match="pits are numbered"):
        BohnenspielMove("PIT 0 9")
    with pytest.raises(ValueError):
        BohnenspielMove(2.5)
    assert BohnenspielMove("PIT 0 3").to_json() == {"move_type": "PIT", "player_id": 0, "pit": 3}


def test_board_state_at_the_start():
    board = BohnenspielBoardState()
    assert board.get_turn_player() == 0 and board.get_turn_number() == 0 and board.first_player() == 0
    assert board.get_pits() == [[6] * 6, [6] * 6]
    assert board.get_score(0) == board.get_score(1) == 0 and board.get_credit(1) == 2
    assert not board.game_over() and board.get_winner() == BohnenspielBoardState.NOBODY
    moves = board.get_legal_moves()
    assert [m.to_transport_string() for m in moves] == [f"PIT 0 {i}" for i in range(6)] + ["SKIP 0"]
    assert all(board.is_legal(m) for m in moves)
    assert board.get_random_move() in moves


def test_camel_case_aliases_match_snake_case():
    board = BohnenspielBoardState()
    pairs = [("getLegalMoves", "get_legal_moves"), ("getPits", "get_pits"), ("getTurnPlayer", "get_turn_player"),
             ("getTurnNumber", "get_turn_number"), ("getWinner", "get_winner"), ("gameOver", "game_over"),
             ("firstPlayer", "first_player")]
    for camel, snake in pairs:
        assert getattr(board, camel)() == getattr(board, snake)(), camel
    assert board.getScore(1) == board.get_score(1) and board.getCredit(0) == board.get_credit(0)
    assert board.isLegal(BohnenspielMove(0, 0)) and board.getRandomMove() in board.getLegalMoves()
    assert board.getNextPit(5, "CCW") == 0 and board.get_next_pit(0, "CW") == 5


def test_clone_is_independent_and_get_pits_is_live():
    board = BohnenspielBoardState()
    copy = board.clone()
    assert copy.move(BohnenspielMove(2, 0)) is True
    assert board.get_pits() == [[6] * 6, [6] * 6] and board.get_turn_player() == 0
    assert copy.get_pits()[0][2] == 0 and copy.get_turn_player() == 1
    board.get_pits()[0][0] = 0                       # Java's getPits() is the live array too
    assert BohnenspielMove(0, 0) not in board.get_legal_moves()


def test_move_refuses_illegal_moves_with_value_error():
    board = BohnenspielBoardState()
    with pytest.raises(ValueError, match="it is player 0's turn"):
        board.move(BohnenspielMove(1, 1))
    with pytest.raises(ValueError, match="NOTHING"):
        board.move(BohnenspielMove())
    board.move(BohnenspielMove("skip", 0))
    assert not board.is_legal(BohnenspielMove("skip", 1))
    with pytest.raises(ValueError, match="right after the opponent skipped"):
        board.move(BohnenspielMove("skip", 1))
    assert board.move(BohnenspielMove(0))            # a move without a player id is the mover's


def test_winner_codes():
    game = BohnenspielGame()
    won = BohnenspielBoardState.from_json(game.position([0] * 6, [2, 0, 0, 0, 1, 3], to_move=1, scores=(30, 32),
                                                        credit=(0, 2)).to_json())
    won.move(BohnenspielMove(4, 1))
    assert won.game_over() and won.get_winner() == 1 and won.get_score(1) == 38
    drawn = BohnenspielBoardState.from_json(game.position([0] * 6, [1, 0, 0, 0, 0, 0], to_move=1, scores=(36, 35),
                                                          credit=(0, 0)).to_json())
    drawn.move(BohnenspielMove(0, 1))
    assert drawn.get_winner() == BohnenspielBoardState.DRAW == 2**31 - 1


def test_from_json_keeps_the_position_and_turn_cap():
    state = BohnenspielGame(max_turns=5).position([1, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 2], to_move=1,
                                                  scores=(3, 4), credit=(0, 1), barred=(0, 1), turn_number=2)
    board = BohnenspielBoardState.from_json(state.to_json())
    assert board.get_pits() == [[1, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 2]]
    assert (board.get_turn_player(), board.get_turn_number(), board.get_credit(1)) == (1, 2, 1)
    assert [m.to_transport_string() for m in board.get_legal_moves()] == ["PIT 1 5"]
    assert board.max_turns == 5


def test_player_base_class():
    class Mine(BohnenspielPlayer):
        def __init__(self):
            super().__init__("260123456")

    p = Mine()
    assert p.get_name() == "260123456" and p.player_id == -1
    p.set_color(1)
    assert (p.player_id, p.opponent_id) == (1, 0)
    p.setColor(0)
    assert (p.player_id, p.opponent_id) == (0, 1)
    with pytest.raises(NotImplementedError, match="choose_move"):
        p.chooseMove(BohnenspielBoardState())


@pytest.mark.parametrize("seed", range(40))
def test_the_course_board_agrees_with_the_referee_on_every_move(seed):
    """The course's board is a separate port of the rules (the engine never enters the player's
    process): both must list the same moves and reach the same boards, scores and ends."""
    import random

    rng = random.Random(seed)
    state = BohnenspielGame(max_turns=rng.choice((3, 30, 200))).new_state(0)
    board = BohnenspielBoardState.from_json(state.to_json())
    while not state.is_over:
        legal = board.get_legal_moves()
        assert [m.canonical() for m in legal] == state.legal_moves()
        move = rng.choice(legal)
        board.move(move)
        state.play(move.canonical())
        mine = {k: v for k, v in state.to_json().items() if k != "ply"}
        assert BohnenspielBoardState.from_json(mine).__dict__ == board.__dict__
    assert board.game_over() and board.get_winner() == (state.outcome.winner if state.outcome.winner is not None
                                                         else BohnenspielBoardState.DRAW)
