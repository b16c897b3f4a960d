"""A check cannot be told from a game (issue 38.3): the probe positions are drawn from the check's
own seed, fresh every check, from positions reached by play, and the seed is shown by every door
and replays the check. A player that knew the positions of the source's fixed seeds answered
them from a table, crashed in every game, and was told "All 24 positions answered correctly"."""
from __future__ import annotations

import hashlib
import io
import json
import re
import shutil
from pathlib import Path

import pytest
import yaml

import rulesets
from grader import gradescope, validation
from grader.assignment import load_assignments, resolve
from grader.cli import main
from grader.config import AssignmentConfig
from grader.submissions import load
from rulesets.base import ProbeCase, played_turns
from rulesets.bohnenspiel import course

ROOT = Path(__file__).resolve().parents[2]
GREEDY = ROOT / "submissions" / "bohnenspiel" / "greedy_student"


def _questions(case: ProbeCase) -> tuple:
    """What a case asks the player, call by call, as far as it can be told without the player's
    answers (a scripted game's later calls depend on them)."""
    asked: list = []
    replies: list = []
    for method, args in [*case.setup, (case.method, case.args)]:
        try:
            sent = case.resolve(args, replies)
        except Exception:                   # a call made from answers the player has not given
            break
        if sent is None:
            break
        asked.append((method, json.dumps(sent, sort_keys=True)))
        replies.append(None)
    return tuple(asked)


@pytest.mark.parametrize("name", rulesets.names())
def test_every_rulesets_probes_ask_what_the_checks_seed_draws(name):
    """For every registered game and every probe: the same seed asks the same positions again, and
    another seed asks positions the first never asked (so no fixed table answers a check)."""
    rs = rulesets.load(name)
    game = rs.game()
    assert rs.probes is not None
    for probe in rs.probes(game):
        first = {_questions(c) for c in probe.cases(game, 11)}
        assert first == {_questions(c) for c in probe.cases(game, 11)}, probe.name
        assert {_questions(c) for c in probe.cases(game, 12)} - first, f"{name}/{probe.name} asks a fixed set"


@pytest.mark.parametrize("name", rulesets.names())
def test_played_positions_are_reached_by_play_from_the_games_own_starts(name):
    """The drawn positions are a league's: each game starts at the assignment's own start position,
    is still going on, and its turns are one seat's, in order, told only the opponent's moves."""
    game = rulesets.load(name).game()
    games = played_turns(game, 5, 12)
    assert sum(map(len, games)) == 12
    for turns in games:
        seat = turns[0][0].to_move
        assert all(s.to_move == seat and not s.is_over for s, _ in turns)
        assert [s.ply for s, _ in turns] == sorted(s.ply for s, _ in turns)
        assert all(t["seat"] != seat for _, told in turns for t in told)
    assert [[s.to_json() for s, _ in t] for t in games] != [[s.to_json() for s, _ in t] for t in played_turns(game, 6, 12)]


def _key(board) -> str:
    return hashlib.sha256(repr((board.pits, board.scores, board.credit, board.barred, board.turn_player,
                                board.turn_number)).encode()).hexdigest()


KEYED = '''
import hashlib

from bohnenspiel import GreedyBohnenspielPlayer

KNOWN = {KNOWN}


def key(board):
    return hashlib.sha256(repr((board.pits, board.scores, board.credit, board.barred, board.turn_player,
                                board.turn_number)).encode()).hexdigest()


class StudentPlayer(GreedyBohnenspielPlayer):
    """Plays well in the positions of one recorded check, and crashes anywhere else (every game)."""

    def choose_move(self, board_state):
        if key(board_state) not in KNOWN:
            raise RuntimeError("not a position of the recorded check")
        return super().choose_move(board_state)
'''


@pytest.mark.parametrize("prefork", [True, False], ids=["prefork", "spawn"])
def test_a_player_keyed_to_another_checks_positions_is_caught(tmp_path, prefork):
    """The attack: a table of the positions one check asked (here recorded from the check with seed
    1), right answers there and a crash everywhere else. It passes that check replayed, and fails
    a check with another seed and a fresh one."""
    a = resolve("b", AssignmentConfig(ruleset="bohnenspiel", submissions=".", validation={"smoke_games": 0},
                                      league={"prefork": prefork}), tmp_path)
    (probe,) = a.probes()
    recorded = probe.cases(a.game, validation.cases_seed(1, probe.name))
    known = sorted({_key(course.BohnenspielBoardState.from_json(c.args["state"])) for c in recorded})
    folder = tmp_path / "keyed"
    folder.mkdir()
    (folder / "student_player.py").write_text(KEYED.replace("{KNOWN}", repr(set(known))))
    sub = load(folder, a.ruleset.entry, 10)

    def stage(seed):
        report = validation.validate(a, sub, seed=seed)
        return next(c for c in report.checks if c.name == probe.name), report

    replayed, _ = stage(1)
    assert replayed.passed and "raised" not in replayed.message, replayed.message   # right where it was made
    for seed in (2, None):
        # Bohnenspiel's course played a random move for a player that raised (its failure rules, as in
        # a game): the stage says so for each position, where the replayed check found nothing
        check, report = stage(seed)
        assert "the player raised an exception" in check.message, (report.seed, check.message)
        assert report.seed != 1


def _course(base: Path) -> Path:
    shutil.copytree(GREEDY, base / "subs" / "greedy")
    block = {"title": "Bohnenspiel", "ruleset": "bohnenspiel", "submissions": "subs",
             "validation": {"smoke_games": 0}}
    (base / "config.yaml").write_text(yaml.safe_dump({"assignments": {"bohnenspiel": block}}))
    return base / "config.yaml"


def _cli(config: Path, *args: str) -> str:
    buffer = io.StringIO()
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr("sys.stdout", buffer)
        main(["--config", str(config), "check", *args, "--assignment", "bohnenspiel"])
    return buffer.getvalue()


def test_every_door_shows_the_checks_seed_and_the_seed_replays_the_check(tmp_path):
    """`grader check` (text and --json), the upload service's verdict page and the Gradescope output
    all show the seed (the sentence `usecases.CheckOutcome.replay` gives), and `--seed` asks the
    same positions again."""
    from grader.serve.worker import evaluate

    config = _course(tmp_path)
    folder = tmp_path / "subs" / "greedy"
    text = _cli(config, str(folder), "--seed", "4242")
    assert "Seed 4242: `grader check --seed 4242` runs this check again" in text, text
    first = json.loads(_cli(config, str(folder), "--seed", "4242", "--json"))
    again = json.loads(_cli(config, str(folder), "--seed", "4242", "--json"))
    assert first["seed"] == again["seed"] == 4242 and first["checks"] == again["checks"]
    fresh = json.loads(_cli(config, str(folder), "--json"))
    assert fresh["seed"] != 4242

    assignment = load_assignments(config)["bohnenspiel"]
    verdict = evaluate(assignment, {"path": str(folder), "id": "0123456789", "filename": "greedy.zip"})
    seed = json.loads(verdict["verdict_json"])["seed"]
    assert f"Seed {seed}: `grader check --seed {seed}`" in verdict["verdict_text"], verdict["verdict_text"]

    root = tmp_path / "gs"
    shutil.copytree(folder, root / "submission")
    doc = gradescope.run_submission(root, assignment)
    assert re.search(r"Seed \d+: `grader check --seed \d+` runs this check again", doc["output"]), doc["output"]


def test_grader_doctor_lists_the_rules_of_checks_and_of_the_similarity_report(capsys):
    assert main(["doctor"]) == 0
    out = capsys.readouterr().out
    assert "check positions" in out and "drawn from its own fresh seed" in out, out
    assert "every text source file" in out, out
