"""The course's failure rules in a check as in its games (issue 40): Bohnenspiel's client played a
random move for a chooseMove that raised or returned null, so in the legal-moves probe and in the
smoke games such a turn counts as that random move (a legal one) and is said in a sentence, not
failed; a course that forfeits them (config) fails them; an illegal move still fails. Our own
sandboxed Python player, in both start modes."""
from __future__ import annotations

from pathlib import Path

import pytest

from grader.assignment import resolve
from grader.config import AssignmentConfig
from grader.usecases import check

PLAYER = """
from bohnenspiel import BohnenspielPlayer

class StudentPlayer(BohnenspielPlayer):
    def __init__(self):
        super().__init__("260000009")
        self.turns = 0

    def choose_move(self, board_state):
        self.turns += 1
        if self.turns == 2:
            return None                        # the course's client: a random move
        if ILLEGAL:                            # a pit of the other side: the course's server ends the game
            return __import__("bohnenspiel").BohnenspielMove(0, 1 - self.player_id)
        if self.turns == 3:
            return [][1]                       # IndexError, caught by the course's client: a random move
        return board_state.get_legal_moves()[0]
"""


def checked(tmp_path: Path, prefork: bool, illegal: bool = False, **policy):
    folder = tmp_path / "sub"
    folder.mkdir(parents=True)
    (folder / "student_player.py").write_text(PLAYER.replace("ILLEGAL", str(illegal)))
    a = resolve("b", AssignmentConfig(ruleset="bohnenspiel", submissions=".", league={"prefork": prefork},
                                      limits={"first_move_s": 20, "move_s": 5}, policy=policy), tmp_path)
    report = check(a, folder / "student_player.py").report
    return {c.name: c for c in report.checks}


@pytest.mark.parametrize("prefork", [True, False], ids=["prefork", "spawn"])
def test_a_null_or_an_exception_is_the_courses_random_move_in_probes_and_smoke_games(tmp_path, prefork):
    stages = checked(tmp_path, prefork)
    probe, smoke = stages["legal_moves"], stages["smoke"]
    assert probe.passed and probe.points == probe.max_points, probe.message
    assert "random move was played instead and counted" in probe.message, probe.message
    assert smoke.passed and "random move was played instead" in smoke.message, smoke.message


def test_a_course_that_forfeits_them_fails_the_probe_and_an_illegal_move_still_fails(tmp_path):
    stages = checked(tmp_path / "forfeit", True, on_none="forfeit", on_error="forfeit")
    assert not stages["legal_moves"].passed, stages["legal_moves"].message
    assert "random move" not in stages["legal_moves"].message
    stages = checked(tmp_path / "illegal", True, illegal=True)
    assert not stages["legal_moves"].passed and "not a move" in stages["legal_moves"].message, stages["legal_moves"].message
