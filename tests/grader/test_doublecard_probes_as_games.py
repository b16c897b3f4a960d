"""Double Card's probes make a game's calls (`setup`, then `move` with the position and the
opponent's moves), so a player that walks its call frames to tell a check from a game sees a game
in both and is checked as it plays. Real sandboxed players of our own, in both start modes."""
from __future__ import annotations

from pathlib import Path

import pytest

from grader import validation
from grader.assignment import resolve
from grader.config import AssignmentConfig
from grader.match import play_game, player_factory
from grader.submissions import builtin, load

RANDOM_PLAYER = Path(__file__).resolve().parents[2] / "rulesets" / "doublecard" / "players" / "random" / "player.py"

# Plays legal moves with its own board when its call stack looks like a check (any function or RPC
# name with "probe" in it: the shim's probe RPC, the call loop's message), and an illegal move
# otherwise, i.e. only in what it takes for a league game.
SPY = '''
import sys

from board_player import Player as Board


def in_a_check():
    frame = sys._getframe(1)
    while frame is not None:
        seen = [frame.f_code.co_name]
        for value in list(frame.f_locals.values()):
            if isinstance(value, str):
                seen.append(value)
            elif isinstance(value, dict) and isinstance(value.get("method"), str):
                seen.append(value["method"])
        if any("probe" in name for name in seen):
            return True
        frame = frame.f_back
    return False


class Player(Board):
    def choose_move(self):
        move = super().choose_move()
        return move if in_a_check() else "0 1 H 1"
'''


@pytest.fixture(params=[True, False], ids=["prefork", "spawn"])
def doublecard(request, tmp_path):
    return resolve("d", AssignmentConfig(ruleset="doublecard", submissions=".", league={"prefork": request.param},
                                         limits={"first_move_s": 20, "move_s": 5}), tmp_path)


def test_a_player_that_looks_for_a_check_in_its_frames_is_caught_by_the_check(tmp_path, doublecard):
    folder = tmp_path / "spy"
    folder.mkdir()
    (folder / "board_player.py").write_text(RANDOM_PLAYER.read_text())
    (folder / "player.py").write_text(SPY)
    sub = load(folder, doublecard.ruleset.entry, 10)

    legal_moves = next(p for p in doublecard.ruleset.probes(doublecard.game) if p.name == "legal_moves")
    check = validation._probe(doublecard, sub, legal_moves, player_factory(doublecard), seed=7)
    assert not check.passed, check.message
    assert "the player answered '0 1 H 1', which is illegal" in check.message, check.message
    assert check.failed_cases == check.cases                 # every scripted game, as a game would

    result = play_game(doublecard, sub, builtin(doublecard.ruleset, "random"), seed=1)
    assert result.reason == "illegal" and result.points == (0.0, 1.0), result.detail   # as it plays


def test_a_correct_player_still_passes_the_game_shaped_probes(tmp_path, doublecard):
    folder = tmp_path / "honest"
    folder.mkdir()
    (folder / "player.py").write_text(RANDOM_PLAYER.read_text())
    sub = load(folder, doublecard.ruleset.entry, 10)
    for probe in doublecard.ruleset.probes(doublecard.game):
        if probe.name == "legal_moves":
            check = validation._probe(doublecard, sub, probe, player_factory(doublecard), seed=7)
            assert check.passed, check.message


def _opening_moves(cases) -> list:
    """What each scripted game tells the player first: the opponent's moves before its first answer."""
    return [case.resolve(case.setup[1][1] if len(case.setup) > 1 else case.args, []) for case in cases]


def test_the_scripted_opponent_follows_the_checks_seed_so_its_moves_do_not_mark_a_check(tmp_path):
    """A fixed opponent would open every check the same way, which a player could learn to spot; the
    cases follow the seed the check passes (varied per run and recorded), and the same seed replays them."""
    assignment = resolve("d", AssignmentConfig(ruleset="doublecard", submissions="."), tmp_path)
    seen: dict[int, list] = {}
    for probe in assignment.ruleset.probes(assignment.game):
        for seed in (1, 2):
            seen.setdefault(seed, []).extend(_opening_moves(probe.cases(assignment.game, seed)))
    assert seen[1] != seen[2]
    legal = next(p for p in assignment.ruleset.probes(assignment.game) if p.name == "legal_moves")
    assert _opening_moves(legal.cases(assignment.game, 1)) == _opening_moves(legal.cases(assignment.game, 1))


