"""Public stand-in names: unique within a league, the same from run to run (grader/outputs.py)."""
from __future__ import annotations

import shutil
from pathlib import Path

import yaml

from grader import seeds
from grader.assignment import load_assignments
from grader.league import run_league
from grader.outputs import grades_of_run, results_document
from grader.pseudonyms import pseudonyms
from grader.store import Store

ROOT = Path(__file__).resolve().parents[2]


def test_three_hundred_students_get_three_hundred_different_names():
    ids = [f"student{i:03d}" for i in range(300)]
    names = pseudonyms(ids, "quoridor:7")
    assert len(set(names.values())) == 300
    assert len({" ".join(n.split()[:2]) for n in names.values()}) == 300      # not even the words repeat
    assert names == pseudonyms(list(reversed(ids)), "quoridor:7")             # the order of the folder is no input
    assert names != pseudonyms(ids, "quoridor:8")                              # the salt is


def test_a_newcomer_never_takes_a_name_and_everyone_keeps_theirs(tmp_path):
    ids = [f"s{i:03d}" for i in range(200)]
    with Store(tmp_path / "results.sqlite") as store:
        first = pseudonyms(ids, "a:1", store.pseudonyms("a", "a:1"))
        store.keep_pseudonyms("a", "a:1", first)
    with Store(tmp_path / "results.sqlite") as store:
        # a student left, forty arrived: everyone else keeps the name they had, the one who left
        # keeps theirs reserved, and no newcomer shares a name with anyone
        later = pseudonyms(ids[1:] + [f"new{i}" for i in range(40)], "a:1", store.pseudonyms("a", "a:1"))
    assert all(later[s] == first[s] for s in ids[1:])
    assert len(set(later.values())) == len(later)
    assert first[ids[0]] not in later.values()


def test_public_names_come_from_the_league_secret_not_from_public_settings(tmp_path):
    """A student knows the assignment's name, the league's seed (in the config and on the site) and
    the classmates' ids: from these alone no pseudonym can be recomputed. With the secret beside
    the results (`league-secret`, the instructor's) every one of them can."""
    subs = tmp_path / "subs"
    ids = ["anna", "boris", "cyril"]
    for sid in ids:
        shutil.copytree(ROOT / "rulesets" / "quoridor" / "players" / "random", subs / sid)
    config = tmp_path / "config.yaml"
    config.write_text(yaml.safe_dump({"assignments": {"q": {
        "ruleset": "quoridor", "submissions": "subs", "game": {"sizex": 5, "sizey": 5},
        "validation": {"smoke_games": 0},
        "league": {"format": "round_robin", "games_per_pair": 1, "seed": 0}}}}), encoding="utf-8")
    assignment = load_assignments(config)["q"]
    run = run_league(assignment, progress=False)
    with Store(assignment.store_path) as store:
        doc = results_document(assignment, run, grades_of_run(assignment, run), store)
    shown = {s["id"]: s["public_name"] for s in doc["submissions"] if s["id"] in ids}
    assert sorted(shown) == ids
    assert shown != pseudonyms(ids, "q:0")                         # the old salt: assignment name and seed
    secret = bytes.fromhex((assignment.store_path.parent / seeds.SECRET_NAME).read_text().strip())
    assert shown == pseudonyms(ids, seeds.pseudonym_salt(secret, "q"))
