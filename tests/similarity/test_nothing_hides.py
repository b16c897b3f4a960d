"""The similarity report compares everything a student wrote (issue 38.4): every text source file of
every language whatever its folder, a big file on its code's head and tail (never skipped), a note
for what was not compared; the skeleton is found relative to the course folder, and a skeleton
path that is not there is one sentence, not a report in which the skeleton counts as copying.

Three exact copies of a classmate's player once appeared in no pair: one in data/brain.py, one
beside two one-line .c files (only the language with the most files was compared), one padded
with a 530 KB comment (files over 512 KB were skipped: "no code files to compare")."""
from __future__ import annotations

import base64
import io
import json
import shutil
import textwrap
import zipfile
import zlib
from pathlib import Path

import pytest

from grader import cli, usecases
from grader.assignment import load_assignments
from grader.similarity import compare, documents, without_comments

from .test_similarity import HONEST_A, HONEST_B, LANGUAGES, ROOT, SKELETON

PADDING = "".join(f"# {n:06d} " + "padding that is only a comment, " * 3 + "\n" for n in range(5200))   # 530 KB


def _course(folder: Path, subs: dict[str, dict[str, str | bytes]], skeleton: str = "skeleton") -> Path:
    for name, files in subs.items():
        for rel, text in files.items():
            (folder / "subs" / name / rel).parent.mkdir(parents=True, exist_ok=True)
            if isinstance(text, bytes):
                (folder / "subs" / name / rel).write_bytes(text)
            else:
                (folder / "subs" / name / rel).write_text(text)
    (folder / "skeleton").mkdir(parents=True, exist_ok=True)
    (folder / "skeleton" / "player.py").write_text(SKELETON.joinpath("player.py").read_text())
    cfg = folder / "config.yaml"
    cfg.write_text(textwrap.dedent(f"""
        assignments:
          q:
            ruleset: quoridor
            submissions: subs
            reports: out/q
            similarity: {{skeleton: [{skeleton}]}}
        """))
    return cfg


def _pairs(cfg: Path) -> tuple[dict[frozenset, float], list[str]]:
    report = usecases.similarity(load_assignments(cfg)["q"]).similarity
    return {frozenset((p.a.id, p.b.id)): p.score for p in report.pairs}, report.skipped


STUB = "from data.brain import Player  # noqa\n"


@pytest.mark.parametrize("trick", ["in data/brain.py", "beside two one-line .c files", "after a 530 KB comment",
                                   "before a 530 KB comment", "after a 9 MB comment"])
def test_each_hidden_copy_appears_as_a_pair(tmp_path, trick):
    copy = {"in data/brain.py": {"player.py": STUB, "data/brain.py": HONEST_A, "data/__init__.py": ""},
            "beside two one-line .c files": {"player.py": HONEST_A, "a.c": "int a;\n", "b.c": "int b;\n"},
            "after a 530 KB comment": {"player.py": PADDING + HONEST_A},
            "before a 530 KB comment": {"player.py": HONEST_A + PADDING},
            "after a 9 MB comment": {"player.py": PADDING * 17 + HONEST_A}}[trick]
    cfg = _course(tmp_path, {"alice": {"player.py": HONEST_A}, "bob": {"player.py": HONEST_B}, "mallory": copy})
    pairs, skipped = _pairs(cfg)
    assert pairs.get(frozenset(("alice", "mallory")), 0) >= 0.9, (pairs, skipped)
    assert frozenset(("alice", "bob")) not in pairs
    if "comment" in trick:                      # compared in part, and the report says how
        assert any(s.startswith("mallory: player.py (compared in part: ") for s in skipped), skipped


def test_what_was_not_compared_is_listed_with_why(tmp_path):
    files = {"player.py": HONEST_A, "notes.txt": "my plan\n", "weights.bin": "\0\1", "blob.py": "\0binary\n",
             "rot.py": "import codecs\nexec(codecs.decode(SECRET, 'rot13'))\n",
             "helpers.py": "import re\nP = re.compile('x')\n\n\nclass E:\n    def eval(self):\n        return self.eval()\n"}
    cfg = _course(tmp_path, {"alice": {"player.py": HONEST_B}, "mallory": files})
    _, skipped = _pairs(cfg)
    (line,) = [s for s in skipped if s.startswith("mallory:")]
    assert "blob.py (not text)" in line and "1 file(s) not of a compared language (weights.bin)" in line, line
    assert "rot.py (builds code at run time with exec: what it runs may not be compared; read it)" in line, line
    assert "notes.txt" not in line                      # text: compared as Python, since Python may run it
    assert "helpers.py" not in line                     # re.compile and a method named eval build no code


def test_comments_are_dropped_in_linear_time_whatever_the_text():
    assert without_comments("a = 1  # x\n\n'''doc\n'''\nb = 2\n", "python") == "a = 1  \nb = 2"
    assert without_comments("int a; /* x */ // y\n/* open", "c") == "int a;  "
    assert without_comments("x" + " /*x" * 200_000, "c") == "x "     # unclosed openers: one pass, not n²


def test_a_moved_course_folder_keeps_its_skeleton(tmp_path, capsys):
    """Honest work on the skeleton shares the skeleton's code: with the skeleton found in the moved
    folder, that is not a pair; had it been lost silently, it would be. `grader init` copies the
    course's skeleton into the course folder and names it relative to it; a config naming it by an
    absolute path (which a move leaves behind) is refused with a sentence."""
    course = usecases.init_course(tmp_path / "course", ["quoridor"])
    assert "skeleton: [skeleton/quoridor/skeleton, skeleton/quoridor/obstacle.py]" in course.config.read_text()
    for name, text in (("alice", HONEST_A), ("bob", HONEST_B)):
        (course.folder / "submissions" / "quoridor" / name).mkdir()
        (course.folder / "submissions" / "quoridor" / name / "player.py").write_text(text)
    report = usecases.similarity(load_assignments(course.config)["quoridor"]).similarity
    assert report.pairs == [] and report.settings["skeleton"]
    shutil.move(tmp_path / "course", tmp_path / "moved")
    moved = load_assignments(tmp_path / "moved" / "config.yaml")["quoridor"]
    assert usecases.similarity(moved).similarity.pairs == []

    cfg = _course(tmp_path / "other", {"alice": {"player.py": HONEST_A}},
                  skeleton=str(tmp_path / "other" / "skeleton"))
    assert cli.main(["--config", str(cfg), "similarity", "q"]) == 2
    err = capsys.readouterr().err
    assert "similarity.skeleton" in err and "relative to the course folder" in err and "Traceback" not in err, err


def test_a_missing_skeleton_path_is_one_sentence(tmp_path, capsys):
    cfg = _course(tmp_path, {"alice": {"player.py": HONEST_A}}, skeleton="gone/skeleton")
    assert cli.main(["--config", str(cfg), "similarity", "q"]) == 2
    err = capsys.readouterr().err
    assert "similarity.skeleton" in err and "gone/skeleton is not in the course folder" in err, err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1
    assert usecases.cannot_run(load_assignments(cfg)["q"]) is not None       # `grader run` says so before its league


def _notebook(code: str) -> str:
    cells = [{"cell_type": "markdown", "metadata": {}, "source": ["# My player\n"]},
             {"cell_type": "code", "metadata": {}, "execution_count": 1, "outputs": [],
              "source": code.splitlines(keepends=True)}]
    return json.dumps({"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5}, indent=1)


def _packed(code: str, how: str) -> str:
    data = zlib.compress(code.encode()) if "zlib" in how else code.encode()
    text = base64.b64encode(data).decode() if "base64" in how else data.hex()
    wrapped = "\n".join(text[i:i + 76] for i in range(0, len(text), 76))
    decode = "base64.b64decode(BLOB)" if "base64" in how else "bytes.fromhex(BLOB.replace('\\n', ''))"
    return (f"import base64, zlib\nBLOB = '''\n{wrapped}\n'''\n"
            f"exec({'zlib.decompress(' + decode + ')' if 'zlib' in how else decode})\n")


def _zipped(name: str, code: str) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr(name, code)
    return out.getvalue()


RUNS = "exec(open(__file__.rsplit('/', 1)[0] + '/{}').read())\n"


def _utf7(code: str) -> str:
    """`code` as Python reads it through a coding line of utf-7: every letter one escape."""
    return "# coding: utf-7\n" + "".join(f"+{base64.b64encode(c.encode('utf-16-be')).decode().rstrip('=')}-"
                                         if c.isalpha() else "+-" if c == "+" else c for c in code)


@pytest.mark.parametrize("trick", ["in a .c file it runs", "in a .txt file it runs", "in a notebook's code cells",
                                   "as base64 in a string", "zlib-compressed, as base64", "as hex in a string",
                                   "in utf-7, by its coding line", "in a zip it imports"])
def test_a_copy_in_another_kind_of_file_or_encoded_appears_as_a_pair(tmp_path, trick):
    """Issue 38, an independent attacker: each copy below passes every check and once appeared in no
    pair (a .c file was compared only with C, a .txt or notebook not at all, an encoded copy is one
    string token). What a Python player can run is compared as Python."""
    copy = {"in a .c file it runs": {"player.py": RUNS.format("brain.c"), "brain.c": HONEST_A},
            "in a .txt file it runs": {"player.py": RUNS.format("brain.txt"), "brain.txt": HONEST_A},
            "in a notebook's code cells": {"player.py": "import json\n" + RUNS.format("brain.ipynb").replace(
                "exec(open(", "exec(''.join(sum((c['source'] for c in json.load(open(").replace(
                ").read())", "))['cells'] if c['cell_type'] == 'code'), [])))"), "brain.ipynb": _notebook(HONEST_A)},
            "as base64 in a string": {"player.py": _packed(HONEST_A, "base64")},
            "zlib-compressed, as base64": {"player.py": _packed(HONEST_A, "zlib base64")},
            "as hex in a string": {"player.py": _packed(HONEST_A, "hex")},
            "in utf-7, by its coding line": {"player.py": _utf7(HONEST_A)},
            "in a zip it imports": {"player.py": "import os, sys\nsys.path.insert(0, os.path.join(os.path.dirname("
                                                 "__file__), 'brain.zip'))\nfrom brain import *  # noqa\n",
                                    "brain.zip": _zipped("brain.py", HONEST_A)}}[trick]
    cfg = _course(tmp_path, {"alice": {"player.py": HONEST_A}, "bob": {"player.py": HONEST_B}, "mallory": copy})
    pairs, skipped = _pairs(cfg)
    assert pairs.get(frozenset(("alice", "mallory")), 0) >= 0.9, (pairs, skipped)
    assert frozenset(("alice", "bob")) not in pairs


def test_a_java_copy_written_in_unicode_escapes_is_compared_as_javac_reads_it(tmp_path):
    """javac translates \\uXXXX escapes before it reads a token (JLS 3.3): a copy written all in
    escapes compiles as the original and once shared no fingerprint with it."""
    original = (ROOT / "sandbox" / "java_sources" / "grader_shim" / "Json.java").read_text()
    escaped = "".join(f"\\u{ord(c):04x}" if c.isalpha() else c for c in original)
    other = (ROOT / "sandbox" / "java_sources" / "grader_shim" / "ConsoleHandler.java").read_text()
    docs = []
    for name, text in (("alice", original), ("mallory", escaped), ("bob", other)):
        (tmp_path / name).mkdir()
        (tmp_path / name / "Player.java").write_text(text)
        docs += documents(name, "submission", name, tmp_path / name, LANGUAGES, runnable=True)[0]
    report = compare(docs, [], [], languages=LANGUAGES, min_score=0.3)
    scores = {frozenset((p.a.id, p.b.id)): p.score for p in report.pairs}
    assert scores.get(frozenset(("alice", "mallory")), 0) >= 0.9, scores
    assert frozenset(("alice", "bob")) not in scores
