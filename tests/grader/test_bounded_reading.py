"""What the grader reads of a student's source is size-checked first and parsed in a bounded child
(grader/bounded.py, grader/python_source.py): a huge or parse-hungry red_blue_nim.py gets one
sentence, and the grader's own memory does not grow with it. Nothing here measures time."""
from __future__ import annotations

import json
import resource
from pathlib import Path

import pytest

from grader import bounded, python_source
from grader.cli import main

ROOT = Path(__file__).resolve().parents[2]
CORRECT = (ROOT / "submissions" / "rbnim" / "correct_program" / "red_blue_nim.py").read_text()


def peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def check(folder: Path, capsys) -> dict:
    code = main(["--config", str(ROOT / "config.yaml"), "check", str(folder), "--assignment", "rbnim", "--json"])
    doc = json.loads(capsys.readouterr().out)
    assert code == 1 and not doc["passed"]
    return doc


def test_a_95_mb_source_is_refused_with_a_sentence_before_any_parse(tmp_path, capsys):
    # a correct program that carries 9.5 MB of table: parsing it once took 4.7 GB in the grader
    (tmp_path / "red_blue_nim.py").write_text(CORRECT + "\nTABLE = [" + "0," * 4_750_000 + "]\n")
    before = peak_mb()
    doc = check(tmp_path, capsys)
    assert peak_mb() - before < 100                   # the grader's own peak memory did not follow the file
    (stage,) = doc["checks"]
    assert stage["message"] == ("red_blue_nim.py is 9.5 MB; the grader reads source files of at most 1.0 MB "
                                "(is data pasted into the code?).")


def test_a_source_under_the_size_limit_that_is_costly_to_parse_is_parsed_in_a_bounded_child(tmp_path, capsys):
    # under 1 MB, but its syntax tree needs about 700 MB: more than the 512 MB a read may use
    text = CORRECT + "\nTABLE = [" + "a," * 480_000 + "]\n"
    assert len(text.encode()) < bounded.MAX_SOURCE_BYTES
    (tmp_path / "red_blue_nim.py").write_text(text)
    before = peak_mb()
    doc = check(tmp_path, capsys)
    assert peak_mb() - before < 100
    (stage,) = doc["checks"]
    assert stage["message"] == ("red_blue_nim.py could not be read within 512 MB and 5 s of the grader's time: "
                                "it needed more memory.")
    assert bounded.LAST.max_rss_mb > 400               # the child, not the grader, held the tree


def test_a_read_that_never_ends_is_stopped_by_its_cpu_bound():
    def forever() -> None:
        while True:
            pass

    with pytest.raises(bounded.ReadRefused, match=r"^loop\.py could not be read within 512 MB and 1 s of the "
                                              r"grader's time: it took too long\.$"):
        bounded.run(forever, what="loop.py", cpu_s=1)


def test_a_bounded_read_gives_the_same_facts_as_a_direct_one(tmp_path):
    path = tmp_path / "red_blue_nim.py"
    path.write_text(CORRECT)
    found = python_source.facts(path)
    assert found == python_source.facts_of(CORRECT.encode())
    assert found is not None and "main" in found.functions and found.reads_console
    path.write_text("def broken(:\n")
    assert python_source.facts(path) is None


def test_an_exception_in_the_child_is_raised_in_the_caller():
    def fails() -> None:
        raise ValueError("no")

    with pytest.raises(ValueError, match="no"):
        bounded.run(fails, what="x")


def test_similarity_tokenises_each_document_in_a_bounded_child(tmp_path):
    # three files just under the per-file cap whose tokens cost the tokenizer minutes: that document is
    # set aside with a sentence, and the rest of the class is still compared
    import rulesets
    from grader.player_kinds import code_languages
    from grader.similarity import compare, documents

    languages = code_languages(rulesets.load("rbnim"))

    def sub(name: str, files: dict[str, str]):
        (tmp_path / name).mkdir()
        for file, text in files.items():
            (tmp_path / name / file).write_text(text)
        (doc,), _ = documents(name, "submission", name, tmp_path / name, languages)
        return doc

    table = "x = [" + "a," * 250_000 + "]\n"
    subs = [sub("alice", {"red_blue_nim.py": CORRECT}), sub("bob", {"red_blue_nim.py": CORRECT + "\n# mine\n"}),
            sub("mallory", {f"t{n}.py": table for n in range(3)})]
    report = compare(subs, [], [], languages=languages, min_score=0.3)
    assert report.skipped == [("mallory: the code of mallory could not be read within 512 MB and 10 s of the "
                               "grader's time: it took too long.")]
    assert [(p.a.id, p.b.id) for p in report.pairs] == [("alice", "bob")]
