"""Public stand-in names: unique within a league, the same from run to run (grader/outputs.py)."""
from __future__ import annotations

from grader.outputs import pseudonyms
from grader.store import Store


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
