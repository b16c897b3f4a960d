"""The shim in-process on the built-in players, the example submissions and broken ones; the
probe stages and their replay; baseline against random."""
from __future__ import annotations

import textwrap

import pytest

from rulesets.base import IllegalMove
from rulesets.doublecard import RULESET, shim
from rulesets.doublecard.engine import DoubleCardGame
from rulesets.doublecard.probes import legal_move_cases, tactics_cases

SEED = 472                  # the scripted games a check with this seed plays (a check draws its own)

FULL_BOARD = ["0 3 A 1", "0 7 C 1", "0 4 E 1", "0 5 C 2", "0 4 F 1", "0 3 A 2", "0 3 G 1", "0 4 G 2", "0 2 H 2",
              "0 2 G 4", "0 8 G 6", "0 6 G 8", "0 4 G 10", "0 1 A 3", "0 4 A 4", "0 8 A 6", "0 6 A 8", "0 4 A 10",
              "0 5 D 3", "0 5 D 4", "0 7 D 5", "0 2 D 6", "0 2 D 8", "0 2 C 3"]


def run_case(case, open_player, folder, game):
    """One case through a fresh in-process handler, as the validator runs it: each RPC's args made
    from the replies before it, no more calls once the game is over. Every reply (the case judges all)."""
    assert case.fresh and case.judge_all and case.setup[0][0] == "setup"
    handler = open_player(folder, case.setup[0][1]["seat"], game, seed=0)
    replies = [None]
    for method, args in [*case.setup[1:], (case.method, case.args)]:
        assert method == "move"                          # a game's calls only
        sent = case.resolve(args, replies)
        if sent is None:
            break
        replies.append(getattr(handler, f"rpc_{method}")(**sent))
    return replies


def run_cases(cases, open_player, folder, game):
    """Every case through a fresh in-process handler: the (label, message) of those that failed."""
    failed = []
    for case in cases:
        mismatch = case.check(run_case(case, open_player, folder, game))
        if mismatch is not None:
            failed.append((case.label, mismatch.message))
    return failed


def write_player(tmp_path, body: str):
    (tmp_path / "player.py").write_text(textwrap.dedent(body))
    return tmp_path


def test_ruleset_descriptor():
    assert RULESET.entry == "player.py" and RULESET.shim == "rulesets.doublecard.shim"
    d = RULESET.defaults
    assert (d.first_move_s, d.move_s, d.kill_after_s) == (3, 3, 1)
    assert (d.policy.on_late, d.policy.on_illegal, d.policy.on_error) == ("forfeit",) * 3
    assert [p.name for p in RULESET.probes(DoubleCardGame())] == ["legal_moves", "tactics"]


@pytest.mark.parametrize("name", ["builtin:random", "builtin:baseline", "baseline_student", "illegal_text", "slow"])
def test_interface_is_clean(folders, open_player, name):
    assert open_player(folders[name], 0).rpc_interface() == []


def test_interface_problems_are_sentences(tmp_path):
    folder = write_player(tmp_path, """
        class Player:
            def __init__(self, role):
                pass

            def choose_move(self, board):
                return "0 1 A 1"
    """)
    problems = shim.open_submission(str(folder), {}).rpc_interface()
    assert problems == ["Player: the constructor must take 2 arguments besides self, but takes (role).",
                        "Player: opponent_move() is missing.",
                        "Player: choose_move() must take no arguments besides self, but takes (board)."]
    (tmp_path / "player.py").write_text("PLAYER = 1\n")
    assert shim.open_submission(str(tmp_path), {}).rpc_interface() == [
        "player.py must define a class Player (class Player: def __init__(self, role, first): ...)."]


def test_setup_tells_role_and_first(folders, open_player):
    game = DoubleCardGame(seat0_role="dots")
    first = open_player(folders["builtin:random"], 0, game).player
    second = open_player(folders["builtin:random"], 1, game).player
    assert (first.role, second.role) == ("dots", "colours")


def test_non_string_answers_become_invalid(tmp_path, open_player, game):
    folder = write_player(tmp_path, """
        class Player:
            def __init__(self, role, first):
                pass

            def opponent_move(self, move_text):
                pass

            def choose_move(self):
                return (0, 5, "A", 1)
    """)
    reply = open_player(folder, 0).rpc_move(state=game.new_state(0).to_json(), last=[])
    assert reply == {"invalid": "choose_move() returned a tuple ((0, 5, 'A', 1)); it must return text like "
                                "'0 5 A 2'."}
    with pytest.raises(IllegalMove, match="returned a tuple"):
        game.new_state(0).parse_move(reply)


def test_move_tells_only_the_opponents_moves(tmp_path, open_player, game):
    folder = write_player(tmp_path, """
        class Player:
            def __init__(self, role, first):
                self.heard = []

            def opponent_move(self, move_text):
                self.heard.append(move_text)

            def choose_move(self):
                return "0 2 H 1"
    """)
    handler = open_player(folder, 1)
    last = [{"seat": 0, "move": "0 1 A 1"}, {"seat": 1, "move": "0 1 C 1"}]
    assert handler.rpc_move(state=game.new_state(0).to_json(), last=last) == "0 2 H 1"
    assert handler.player.heard == ["0 1 A 1"]


# ---- independent boards agree with the engine ------------------------------------------------

@pytest.mark.parametrize("name", ["builtin:random", "baseline_student"])
def test_player_boards_list_the_engines_legal_moves(folders, open_player, position, name):
    state = position()
    handler = open_player(folders[name], 0)
    for move in FULL_BOARD + ["G 10 G 11 2 G 10", "C 3 C 4 4 H 4"]:
        state.play(move)
        handler.player.opponent_move(move)
        board = getattr(handler.player, "board", handler.player)
        assert sorted(board.moves()) == sorted(state.legal_moves())


# ---- probes ----------------------------------------------------------------------------------

@pytest.mark.parametrize("name", ["builtin:random", "builtin:baseline", "baseline_student"])
def test_legal_moves_probe_passes_for_correct_players(folders, open_player, game, name):
    assert run_cases(legal_move_cases(game, SEED), open_player, folders[name], game) == []


def test_legal_move_cases_reach_the_recycling_phase(folders, open_player, game):
    reached = []
    for case in legal_move_cases(game, SEED):
        assert case.check(run_case(case, open_player, folders["builtin:random"], game)) is None
        reached.append(len(case.state.cards) == 24 and case.state.ply > 24)
    assert sum(reached) >= 3


def test_illegal_text_fails_every_case_with_a_sentence(folders, open_player, game):
    failed = dict(run_cases(legal_move_cases(game, SEED), open_player, folders["illegal_text"], game))
    assert len(failed) == len(legal_move_cases(game, SEED))
    first = next(m for label, m in failed.items() if label.startswith("first move"))
    assert first == ("after the moves (none: the board was empty) the player answered 'place my card in the "
                     "corner', which is illegal: 'place my card in the corner' is not a Double Card move; "
                     "write '0 5 A 2' for a regular move or 'F 2 F 3 3 A 2' for a recycling move.")
    second = next(m for label, m in failed.items() if label.startswith("answering"))
    assert second.endswith("the player answered '0 1 H 1', which is illegal: H1 with rotation 1 would need I1, "
                           "outside the board.")


def test_probe_catches_recycling_the_locked_card(tmp_path, folders, open_player, game):
    source = (folders["builtin:random"] / "player.py").read_text()
    broken = source.replace("if card == self.locked or any(", "if any(").replace(
        "move = self.rng.choice(self.moves())",
        "moves = self.moves()\n"
        "        locked = [m for m in moves if len(m.split()) == 7\n"
        "                  and self.at[(COLS.index(m.split()[0]), int(m.split()[1]) - 1)] == self.locked]\n"
        "        move = self.rng.choice(locked or moves)")
    assert broken != source
    (tmp_path / "player.py").write_text(broken)
    failed = run_cases(legal_move_cases(game, SEED), open_player, tmp_path, game)
    assert failed and all("just placed by your opponent" in m or "just moved by your opponent" in m
                          for _, m in failed)
    assert all(label.startswith(("a game run to", "a game run into")) for label, _ in failed)


def test_probe_pictures_show_the_reached_position(folders, open_player, game):
    case = legal_move_cases(game, SEED)[2]                    # 9 turns as the first player
    assert case.state.ply == 0
    run_cases([case], open_player, folders["builtin:random"], game)
    assert case.state.ply == len(case.state.history) >= 9
    picture = case.state.render_text()
    assert sum(picture.count(cell) for cell in ("R•", "R◦", "W•", "W◦")) == 2 * len(case.state.cards)


def test_probe_replay_trusts_only_the_answers(game):
    case = legal_move_cases(game, SEED)[2]
    assert case.check("0 1 A 1").message.startswith("the probe's calls answered '0 1 A 1'")
    assert "fewer answers" in case.check([None]).message
    assert "is illegal" in case.check([None, "0 1 A 1", "0 1 A 1", "0 1 A 1", "0 1 A 1"]).message


def test_tactics_baseline_passes_random_does_not(folders, open_player, game):
    cases = tactics_cases(game, SEED)
    assert run_cases(cases, open_player, folders["builtin:baseline"], game) == []
    failed = run_cases(cases, open_player, folders["builtin:random"], game)
    assert any("could win at once" in m for _, m in failed)
    assert any("threatens to win" in m and "would have stopped it" in m for _, m in failed)


# ---- games -----------------------------------------------------------------------------------

def test_baseline_beats_random(folders, play_in_process):
    game = DoubleCardGame(max_moves=40)
    wins = 0
    for seed in range(10):
        seat = seed % 2
        pair = [folders["builtin:random"]] * 2
        pair[seat] = folders["builtin:baseline"]
        state = play_in_process(game, pair, seeds=(seed, seed))
        assert state.is_over
        wins += state.outcome.winner == seat
    assert wins >= 8


def test_example_student_against_baseline(folders, play_in_process):
    state = play_in_process(DoubleCardGame(), (folders["baseline_student"], folders["builtin:baseline"]))
    assert state.is_over and state.outcome.reason in ("line", "move_limit")


def test_baseline_recycles_legally(folders, open_player, position):
    state = position(*FULL_BOARD)
    handler = open_player(folders["builtin:baseline"], 0)
    for move in FULL_BOARD:
        handler.player.opponent_move(move)
    for _ in range(4):
        answer = handler.rpc_move(state=state.to_json(), last=[])     # (its speed is benchmarks' business)
        state.play(answer)
        if state.is_over:
            break
        reply = state.legal_moves()[0]
        state.play(reply)
        handler.player.opponent_move(reply)
        if state.is_over:
            break


def test_illegal_text_forfeits_in_a_game(folders, play_in_process):
    with pytest.raises(IllegalMove, match="not a Double Card move"):
        play_in_process(DoubleCardGame(), (folders["illegal_text"], folders["builtin:random"]))
    with pytest.raises(IllegalMove, match="would need I1"):
        play_in_process(DoubleCardGame(), (folders["builtin:random"], folders["illegal_text"]))


def test_slow_thinks_on_its_second_move_only(folders, open_player, game, monkeypatch):
    handler = open_player(folders["slow"], 1)
    slept = []
    monkeypatch.setattr(handler.module, "think", slept.append)
    state = game.new_state(0)
    for turn, opening in enumerate(["0 2 H 1", "0 8 G 1", "0 6 F 1"]):
        state.play(opening)
        state.play(handler.rpc_move(state=state.to_json(), last=[{"seat": 0, "move": opening}]))
        assert slept == ([] if turn == 0 else [5])
