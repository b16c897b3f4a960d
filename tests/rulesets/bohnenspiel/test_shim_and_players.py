"""The shim in-process on the built-in players, the example submissions and broken ones; the probe
stage; greedy against random."""
from __future__ import annotations

import textwrap

import pytest

from rulesets.base import IllegalMove
from rulesets.bohnenspiel import RULESET, course, shim
from rulesets.bohnenspiel.probes import legal_move_cases, worked_examples

SEED = 424                  # the positions a check with this seed asks (a check draws its own)


def run_probe(handler, game):
    """Every legal_moves case through `handler`: the list of (label, mismatch message) that failed."""
    failed = []
    for case in legal_move_cases(game, SEED):
        for method, args in case.setup:
            getattr(handler, f"rpc_{method}")(**args)
        mismatch = case.check(getattr(handler, f"rpc_{case.method}")(**case.args))
        if mismatch is not None:
            failed.append((case.label, mismatch.message))
    return failed


def write_player(tmp_path, body: str):
    (tmp_path / "student_player.py").write_text(textwrap.dedent(body))
    return tmp_path


@pytest.mark.parametrize("name", ["builtin:random", "builtin:greedy", "greedy_student", "data_reader", "slow"])
def test_interface_is_clean(folders, open_player, name):
    assert open_player(folders[name], 0).rpc_interface() == []


@pytest.mark.parametrize("name", ["builtin:random", "builtin:greedy", "greedy_student", "data_reader"])
def test_probe_passes_for_correct_players(folders, open_player, game, name):
    assert run_probe(open_player(folders[name], 0), game) == []


def test_probe_cases_cover_the_worked_examples(game):
    cases = legal_move_cases(game, SEED)
    assert len(cases) == len(worked_examples(game)) + 24
    assert any(c.state.legal_moves() == [("skip",)] for c in cases)
    assert any(c.state.to_move == 1 for c in cases)
    assert [c.args for c in cases] == [c.args for c in legal_move_cases(game, SEED)]   # the seed replays them
    assert [c.args for c in cases] != [c.args for c in legal_move_cases(game, SEED + 1)]


def test_probe_explains_an_illegal_choice(tmp_path, open_player, game):
    folder = write_player(tmp_path, """
        from bohnenspiel import BohnenspielMove, BohnenspielPlayer

        class StudentPlayer(BohnenspielPlayer):
            def __init__(self):
                super().__init__("xxxxxxxxx")

            def choose_move(self, board_state):
                return BohnenspielMove(0, self.player_id)      # pit 0, whatever it holds
    """)
    failed = run_probe(open_player(folder, 0), game)
    labels = [label for label, _ in failed]
    assert any(label.startswith("B1 ") for label in labels)
    b1 = dict(failed)[next(label for label in labels if label.startswith("B1 "))]
    assert b1 == ("the player chose pit 0, which is illegal because pit 0 of player 0 is empty. "
                  "The legal moves were: pit 5, skip.")


def test_move_without_player_id_gets_the_seat_and_bad_returns_are_invalid(tmp_path, open_player, game):
    folder = write_player(tmp_path, """
        from bohnenspiel import BohnenspielMove, BohnenspielPlayer

        class StudentPlayer(BohnenspielPlayer):
            answer = None

            def __init__(self):
                super().__init__("xxxxxxxxx")

            def choose_move(self, board_state):
                return self.answer
    """)
    handler = open_player(folder, 1)
    state = game.new_state(0)
    state.play(("pit", 0))
    answers = {course.BohnenspielMove(2): "PIT 1 2", course.BohnenspielMove("skip", 1): "SKIP 1",
               "PIT 1 3": "PIT 1 3"}
    for answer, wire in answers.items():
        handler.player.answer = answer
        assert handler.rpc_move(state=state.to_json(), last=[]) == wire
    for answer, words in ((None, "returned None"), (course.BohnenspielMove(), "NOTHING"), (4, "returned a int")):
        handler.player.answer = answer
        reply = handler.rpc_move(state=state.to_json(), last=[])
        assert words in reply["invalid"]
        with pytest.raises(IllegalMove, match=words):
            state.parse_move(reply)


@pytest.mark.parametrize("body, problem", [
    ("x = 1", "must define a class StudentPlayer"),
    ("class StudentPlayer:\n    def choose_move(self, b):\n        return None", "must subclass BohnenspielPlayer"),
    ("""
     from bohnenspiel import BohnenspielPlayer
     class StudentPlayer(BohnenspielPlayer):
         def __init__(self, number):
             super().__init__(number)
         def choose_move(self, board_state):
             return None
     """, "the constructor must take no arguments besides self"),
    ("""
     from bohnenspiel import BohnenspielPlayer
     class StudentPlayer(BohnenspielPlayer):
         def chooseMove(self, board_state):
             return None
     """, "must define choose_move(self, board_state) (chooseMove is the Java name)"),
    ("""
     from bohnenspiel import BohnenspielPlayer
     class StudentPlayer(BohnenspielPlayer):
         def choose_move(self):
             return None
     """, "choose_move() must take 1 argument besides self"),
])
def test_interface_problems_are_sentences(tmp_path, body, problem):
    handler = shim.open_submission(str(write_player(tmp_path, textwrap.dedent(body))), {})
    problems = handler.rpc_interface()
    assert len(problems) == 1 and problem in problems[0]


def test_the_player_object_is_built_once_per_process(folders, open_player, game):
    handler = open_player(folders["data_reader"], 0)
    first = handler.player
    handler.rpc_setup(seat=1, state=game.new_state(0).to_json(), name="again", options={})
    assert handler.player is first and (first.player_id, first.opponent_id) == (1, 0)


def test_data_reader_reads_its_table_on_the_first_move_and_again_on_the_fourth(folders, open_player, game,
                                                                                  monkeypatch):
    handler = open_player(folders["data_reader"], 0)
    module = handler.module
    reads = []
    real = module.read_weights
    monkeypatch.setattr(module, "read_weights", lambda: reads.append(handler.player.moves_made) or real())
    state = game.new_state(0)
    for _ in range(4):
        state.play(state.parse_move(handler.rpc_move(state=state.to_json(), last=[])))
        state.play(state.legal_moves()[0])
    assert reads == [1, 4] and handler.player.weights[2] == 1.0

    def refused():
        raise PermissionError(13, "Permission denied")
    monkeypatch.setattr(module, "read_weights", refused)
    handler.player.moves_made = 3
    with pytest.raises(RuntimeError, match="could not be read again on move 4: Permission denied"):
        handler.rpc_move(state=state.to_json(), last=[])


def test_slow_player_thinks_on_its_third_and_fifth_moves(folders, open_player, game, monkeypatch):
    handler = open_player(folders["slow"], 0)
    sleeps = []
    monkeypatch.setattr(handler.module, "think", sleeps.append)
    state = game.new_state(0)
    for _ in range(6):
        state.play(state.parse_move(handler.rpc_move(state=state.to_json(), last=[])))
        state.play(state.legal_moves()[0])
    assert sleeps == [1.2, 3.0]
    d = RULESET.defaults
    assert d.move_s < 1.2 < d.move_s + d.kill_after_s < 3.0


def wins_against_random(folder, play_in_process, game, seeds) -> int:
    """Games `folder` wins against the built-in random player, changing seats every game."""
    from rulesets.bohnenspiel.course import _rng

    wins = 0
    for k, seed in enumerate(seeds):
        _rng.seed(seed)                      # get_random_move's generator: the games are reproducible
        seat = k % 2
        pair = [RULESET.players["random"]] * 2
        pair[seat] = folder
        wins += play_in_process(game, pair).outcome.points[seat] == 1
    return wins


def test_greedy_beats_random_in_most_seeded_games(folders, play_in_process, game):
    assert wins_against_random(folders["builtin:greedy"], play_in_process, game, range(12)) >= 10


def test_greedy_student_beats_random_too(folders, play_in_process, game):
    assert wins_against_random(folders["greedy_student"], play_in_process, game, range(100, 106)) >= 5


def test_probe_positions_come_in_games_one_instance_each(game):
    """Issue 30: one player instance per game, as the course's client made one player per game: a
    game asks one seat its consecutive turns in order, told only the opponent's moves."""
    from rulesets.bohnenspiel.probes import legal_move_cases

    cases = legal_move_cases(game, SEED)
    by_game: dict[str, list] = {}
    for case in cases:
        assert case.reuse and case.game
        by_game.setdefault(case.game, []).append(case)
    assert len(cases) == 32 and len(by_game) == 16
    for name, turns in by_game.items():
        assert len({c.state.to_move for c in turns}) == 1, name
        assert [c.state.ply for c in turns] == sorted(c.state.ply for c in turns), name
        assert all(told["seat"] != c.state.to_move for c in turns for told in c.args["last"]), name
        assert all(len(c.args["last"]) >= 1 for c in turns[1:]), name
