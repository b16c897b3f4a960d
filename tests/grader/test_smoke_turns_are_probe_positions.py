"""A check cannot be told from a game by its call pattern (issue 38.3): every turn the player plays in
the check's smoke games is judged as a probe position is (`validation.judged`), in the stage that
judges moves. The attack: a player that answers the first few moves its process is asked (every
probe line asks a fresh process at most three) and raises from then on, in every game. Our own
sandboxed Python players, in both start modes, through `grader check` and `grader run`."""
from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
import yaml

from grader.assignment import load_assignments
from grader.cli import main
from grader.store import Store

ROOT = Path(__file__).resolve().parents[2]
GREEDY = ROOT / "submissions" / "bohnenspiel" / "greedy_student"
BASELINE = ROOT / "submissions" / "colosseum" / "baseline_student"

COUNTS_ITS_CALLS = '''
from bohnenspiel import GreedyBohnenspielPlayer

ASKED = [0]          # moves this process was asked, whatever the player object


class StudentPlayer(GreedyBohnenspielPlayer):
    def choose_move(self, board_state):
        ASKED[0] += 1
        if ASKED[0] > HONEST:
            raise RuntimeError("a game, not a check")
        return super().choose_move(board_state)
'''

COLOSSEUM_STEP = "    def step(self, chess_board, my_pos, adv_pos, max_step):\n"
COLOSSEUM_COUNTS = COLOSSEUM_STEP + ("        ASKED[0] += 1\n        if ASKED[0] > 3:\n"
                                     "            raise RuntimeError('a game, not a check')\n")


def _course(tmp_path: Path, ruleset: str, prefork: bool, **block) -> Path:
    config = tmp_path / "config.yaml"
    block = {"ruleset": ruleset, "submissions": "subs", "league": {"prefork": prefork, "games_per_pair": 1},
             "limits": {"first_move_s": 20, "move_s": 5}, **block}
    config.write_text(yaml.safe_dump({"assignments": {"a": block}}), encoding="utf-8")
    return config


def _bohnenspiel(tmp_path: Path, honest: int | None) -> Path:
    folder = tmp_path / "subs" / "counter"
    if honest is None:
        shutil.copytree(GREEDY, folder)
    else:
        folder.mkdir(parents=True)
        (folder / "student_player.py").write_text(COUNTS_ITS_CALLS.replace("HONEST", str(honest)))
    return folder


def _colosseum(tmp_path: Path, counts: bool) -> Path:
    folder = tmp_path / "subs" / "counter"
    shutil.copytree(BASELINE, folder)
    agent = folder / "student_agent.py"
    source = agent.read_text()
    assert COLOSSEUM_STEP in source
    if counts:
        agent.write_text("ASKED = [0]\n" + source.replace(COLOSSEUM_STEP, COLOSSEUM_COUNTS))
    return folder


def _check(config: Path, folder: Path, capsys) -> dict:
    main(["--config", str(config), "check", str(folder), "--assignment", "a", "--json"])
    return json.loads(capsys.readouterr().out)


def _stages(doc: dict) -> dict[str, dict]:
    return {c["name"]: c for c in doc["checks"]}


@pytest.mark.parametrize("honest", [3, 9], ids=["raises-from-the-4th", "raises-from-the-10th"])
@pytest.mark.parametrize("prefork", [True, False], ids=["prefork", "spawn"])
def test_a_bohnenspiel_player_that_counts_its_calls_is_told_of_every_turn_it_raised(tmp_path, capsys, prefork,
                                                                                     honest):
    """Bohnenspiel's course played a random move for a player that raised (issue 40), so the stage
    counts it as that move, as it does in a probe position, and names the first such turn: never
    "All N positions answered correctly". A course that forfeits an exception fails the stage."""
    folder = _bohnenspiel(tmp_path, honest)
    legal = _stages(_check(_course(tmp_path, "bohnenspiel", prefork), folder, capsys))["legal_moves"]
    assert not legal["message"].startswith("All"), legal["message"]
    assert "random move was played instead and counted. The first: smoke game 1 (as the first player), move" \
        in legal["message"] and "raised an exception: RuntimeError: a game, not a check" in legal["message"], \
        legal["message"]

    forfeits = _course(tmp_path, "bohnenspiel", prefork, policy={"on_error": "forfeit"})
    doc = _check(forfeits, folder, capsys)
    legal = _stages(doc)["legal_moves"]
    assert not legal["passed"] and legal["points"] == 0 and not doc["passed"], legal
    assert re.match(r"0 of 32 positions and 2 of the \d+ turns it played in the smoke games answered wrongly\.",
                    legal["message"]), legal["message"]           # each game forfeited at its first raise
    assert "First: smoke game 1 (as the first player), move" in legal["message"], legal["message"]
    assert legal["picture"], legal                   # the position of that turn, as a probe failure shows it


@pytest.mark.parametrize("prefork", [True, False], ids=["prefork", "spawn"])
def test_a_colosseum_agent_that_counts_its_calls_fails_the_stage_by_its_games(tmp_path, capsys, prefork):
    """Colosseum's course played a random move for an agent that raised, but its legal-moves stage
    counts an exception as wrong: a smoke game's turn is judged as its positions are, through
    `grader check` and `grader run` (one use case), so the check fails where it passed before."""
    config = _course(tmp_path, "colosseum", prefork, game={"board_size": 10}, validation={"smoke_games": 4})
    folder = _colosseum(tmp_path, counts=True)
    doc = _check(config, folder, capsys)
    legal = _stages(doc)["legal_moves"]
    assert not doc["passed"] and not legal["passed"] and legal["points"] == 0, legal
    assert "positions and " in legal["message"] and "turns it played in the smoke games answered wrongly" \
        in legal["message"], legal["message"]
    assert re.search(r"First: smoke game \d \(as the (first|second) player\), move \d+: ", legal["message"]), \
        legal["message"]                              # a short game may end before its fourth turn
    assert "raised an exception" in legal["message"] and "a game, not a check" in legal["message"], legal["message"]

    main(["--config", str(config), "run", "a", "--quiet", "--no-report"])
    capsys.readouterr()
    with Store(load_assignments(config)["a"].store_path) as store:
        (record,) = [r for r in store.submissions("a") if r.id == "counter"]
    assert record.status == "failed" and "legal_moves" in record.status_detail, record.status_detail
    ran = _stages(json.loads(record.validation_json))["legal_moves"]
    assert "turns it played in the smoke games answered wrongly" in ran["message"], ran["message"]


@pytest.mark.parametrize("prefork", [True, False], ids=["prefork", "spawn"])
def test_honest_players_check_is_unchanged_and_says_their_game_turns_were_judged(tmp_path, capsys, prefork):
    """The bundled greedy Bohnenspiel student and the bundled Colosseum baseline: every position and
    every smoke-game turn right, full points, no new failure."""
    for ruleset, folder, extra in (("bohnenspiel", _bohnenspiel(tmp_path / "b", None), {}),
                                   ("colosseum", _colosseum(tmp_path / "c", counts=False),
                                    {"game": {"board_size": 6}})):
        doc = _check(_course(folder.parent.parent, ruleset, prefork, **extra), folder, capsys)
        legal = _stages(doc)["legal_moves"]
        assert doc["passed"] and legal["passed"] and legal["points"] == legal["max_points"] == 1, legal
        assert legal["message"].startswith("All ") and "positions answered correctly, and all " in legal["message"] \
            and "turns it played in the smoke games." in legal["message"], legal["message"]


def test_grader_doctor_lists_the_rule(capsys):
    assert main(["doctor"]) == 0
    out = capsys.readouterr().out
    assert "check turns" in out and "smoke games is judged as a probe position is" in out, out
