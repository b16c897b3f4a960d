"""Every kind of player through every front door, with the same verdict everywhere (issue 28.2).

A Python player and a Java player (the course's StudentPlayer.java layout) of Bohnenspiel, a C++
program and a Rust one of Double Card, each through `grader check`, `grader run`, an upload to
`grader serve` (Starlette's TestClient and the worker in this process), the Gradescope autograder
and the similarity report. Before the use cases were written once, the service, the autograder
and the similarity report refused the Java player ("no student_player.py") and the C++ program
("no player.py"). Each door's work is done once per module and shared by the assertions.
"""
from __future__ import annotations

import io
import json
import re
import shutil
import zipfile
from pathlib import Path

import pytest
import yaml

from tests.example_programs import RUST_MAIN

ROOT = Path(__file__).resolve().parents[2]
BUNDLED = yaml.safe_load((ROOT / "config.yaml").read_text())["assignments"]
# kind: (assignment, folder under the assignment's submissions, where it comes from)
KINDS = {
    "python": ("bohnenspiel", "py_greedy", ROOT / "submissions" / "bohnenspiel" / "greedy_student"),
    "java": ("bohnenspiel", "java_greedy", ROOT / "submissions" / "bohnenspiel" / "java_greedy_student"),
    "cpp": ("doublecard", "cpp_random", ROOT / "submissions" / "doublecard" / "cpp_random"),
    "rust": ("doublecard", "rust_fixed", None),
}
LANGUAGE = {"python": "python", "java": "java", "cpp": "cpp", "rust": "rust"}


def _block(name: str, folder: str) -> dict:
    """The bundled assignment, made cheaper: one smoke game, one built-in, no similarity skeleton."""
    block = dict(BUNDLED[name])
    block.update(submissions=folder, reports=f"reports/{name}", similarity={"min_score": 0.9})
    block["validation"] = dict(block.get("validation") or {}) | {"smoke_games": 1}
    block["league"] = dict(block["league"]) | {"builtins": ["random"], "games_per_pair": 2}
    if block["grading"].get("kind") == "thresholds":
        block["grading"] = {"kind": "thresholds", "rules": [{"beats": "random", "grade": 6}]}
    else:
        block["grading"] = {k: v for k, v in block["grading"].items() if k != "must_beat"}
    return block


@pytest.fixture(scope="module")
def course(tmp_path_factory) -> Path:
    """A course folder holding every kind, with a config that also serves uploads."""
    base = tmp_path_factory.mktemp("course")
    for assignment, folder, source in KINDS.values():
        target = base / f"subs_{assignment}" / folder
        if source is None:
            (target / "src").mkdir(parents=True)
            (target / "Cargo.toml").write_text('[package]\nname = "dc"\nversion = "0.1.0"\nedition = "2021"\n')
            (target / "src" / "main.rs").write_text(RUST_MAIN)
        else:
            shutil.copytree(source, target)
    # cpp_random seeds from std::random_device: its informational stage differs run to run, so the
    # doors could not be compared; the same program with a fixed seed answers the same everywhere
    cpp = base / "subs_doublecard" / "cpp_random" / "player.cpp"
    cpp.write_text(cpp.read_text().replace("std::random_device{}()", "472u"))
    config = {"assignments": {a: _block(a, f"subs_{a}") for a in ("bohnenspiel", "doublecard")},
              "serve": {"data_dir": "data", "rate_limit": 50, "lease_s": 30}}
    (base / "config.yaml").write_text(yaml.safe_dump(config, sort_keys=False))
    return base


def _verdict(passed, points, max_points, checks) -> tuple:
    return (bool(passed), round(float(points), 4), round(float(max_points), 4),
            tuple((c["name"], bool(c["passed"])) for c in checks))


@pytest.fixture(scope="module")
def checked(course) -> dict[str, tuple]:
    """`grader check --json` of each kind: the verdict every other door must repeat."""
    from grader.cli import main

    out = {}
    for kind, (assignment, folder, _) in KINDS.items():
        buffer = io.StringIO()
        with pytest.MonkeyPatch.context() as mp:
            mp.setattr("sys.stdout", buffer)
            main(["--config", str(course / "config.yaml"), "check", str(course / f"subs_{assignment}" / folder),
                  "--assignment", assignment, "--json"])
        doc = json.loads(buffer.getvalue())
        out[kind] = _verdict(doc["passed"], doc["points"], doc["max_points"], doc["checks"])
        out[kind + ":doc"] = doc
    return out


def _skip_unbuildable(kind: str, checked: dict) -> None:
    """Cargo in the sandbox is another branch's work (issue 30.6): until it builds, Rust is skipped."""
    doc = checked[kind + ":doc"]
    build = next((c for c in doc["checks"] if c["name"] in ("build", "compile", "program")), None)
    if kind == "rust" and (shutil.which("cargo") is None or (build and not build["passed"] and "cargo" in
                                                              (build["message"] or ""))):
        pytest.skip("cargo cannot build a program in the sandbox on this machine: "
                    + (build["message"].splitlines()[0] if build else "cargo is not installed"))


@pytest.fixture(scope="module")
def ran(course) -> dict[str, dict]:
    """`grader run` of both assignments: each submission's row in results.json."""
    from grader.cli import main

    rows = {}
    for assignment in ("bohnenspiel", "doublecard"):
        assert main(["--config", str(course / "config.yaml"), "run", assignment, "--quiet"]) == 0
        doc = json.loads((course / "reports" / assignment / "results.json").read_text())
        rows |= {s["id"]: s for s in doc["submissions"]}
    return rows


@pytest.fixture(scope="module")
def served(course) -> dict[str, dict]:
    """Each kind uploaded as a zip to the upload service by a student, the worker run dry."""
    pytest.importorskip("starlette")
    from starlette.testclient import TestClient

    from grader.serve import accounts
    from grader.serve.app import create_app
    from grader.serve.worker import Worker

    app = create_app(course / "config.yaml")
    db = app.service.db
    rows = {}
    for kind, (assignment, folder, _) in KINDS.items():
        accounts.create(db, kind, f"Student {kind}", password=f"{kind}-password-1")
        client = TestClient(app, base_url="http://testserver")
        token = re.search(r'name="csrf" value="([^"]+)"', client.get("/login").text).group(1)
        client.post("/login", data={"login": kind, "password": f"{kind}-password-1", "csrf": token})
        token = re.search(r'name="csrf" value="([^"]+)"', client.get(f"/a/{assignment}").text).group(1)
        data = io.BytesIO()
        with zipfile.ZipFile(data, "w") as z:
            source = course / f"subs_{assignment}" / folder
            for f in sorted(source.rglob("*")):
                if f.is_file():
                    z.write(f, f.relative_to(source).as_posix())
        reply = client.post(f"/a/{assignment}/upload", data={"csrf": token},
                            files={"file": (f"{folder}.zip", data.getvalue())}, follow_redirects=False)
        assert reply.status_code in (200, 303), reply.text
    worker = Worker(course / "config.yaml")
    while worker.run_once():
        pass
    for row in db.query("SELECT u.*, s.login FROM uploads u JOIN users s ON s.id = u.user_id"):
        rows[row["login"]] = dict(row)
    return rows


@pytest.fixture(scope="module")
def graded_on_gradescope(course, tmp_path_factory) -> dict[str, dict]:
    """Each kind through the autograder's entry point in a root laid out as Gradescope's."""
    from grader import gradescope
    from grader.assignment import load_assignments

    assignments = load_assignments(course / "config.yaml")
    docs = {}
    for kind, (assignment, folder, _) in KINDS.items():
        root = tmp_path_factory.mktemp(f"gs-{kind}")
        shutil.copytree(course / f"subs_{assignment}" / folder, root / "submission")
        docs[kind] = gradescope.run_submission(root, assignments[assignment])
        assert json.loads((root / "results" / "results.json").read_text()) == docs[kind]
    return docs


@pytest.fixture(scope="module")
def compared(course, ran) -> dict[str, object]:
    """The similarity report's door (what `grader similarity` and `grader run` call), after the league."""
    from grader.assignment import load_assignments
    from grader.similarity_report import run_similarity

    assignments = load_assignments(course / "config.yaml")
    return {a: run_similarity(assignments[a], json.loads((course / "reports" / a / "results.json").read_text()))
            for a in ("bohnenspiel", "doublecard")}


@pytest.mark.parametrize("kind", list(KINDS))
def test_grader_check_accepts_every_kind(kind, checked):
    _skip_unbuildable(kind, checked)
    doc = checked[kind + ":doc"]
    assert doc["checks"][0]["name"] != "interface" or doc["checks"][0]["passed"], doc["checks"][0]["message"]
    if kind in ("python", "java", "cpp"):           # the bundled players pass their course's stages
        assert doc["passed"], doc


@pytest.mark.parametrize("kind", list(KINDS))
def test_grader_run_gives_the_verdict_of_grader_check(kind, checked, ran):
    _skip_unbuildable(kind, checked)
    row = ran[KINDS[kind][1]]
    v = row["validation"]
    assert _verdict(v["passed"], v["points"], v["max_points"], v["checks"]) == checked[kind]
    assert (row["status"] != "failed") == checked[kind][0], row["status_detail"]


@pytest.mark.parametrize("kind", list(KINDS))
def test_an_upload_to_the_service_gets_the_verdict_of_grader_check(kind, checked, served):
    _skip_unbuildable(kind, checked)
    row = served[kind]
    assert row["status"] == "done", row
    doc = json.loads(row["verdict_json"])
    assert _verdict(row["passed"], row["points"], row["max_points"], doc["checks"]) == checked[kind], \
        row["verdict_text"]
    assert ("Result: passed" in row["verdict_text"]) == checked[kind][0]


@pytest.mark.parametrize("kind", list(KINDS))
def test_the_gradescope_autograder_gives_the_verdict_of_grader_check(kind, checked, graded_on_gradescope):
    _skip_unbuildable(kind, checked)
    doc = graded_on_gradescope[kind]
    titles = [c["title"] for c in checked[kind + ":doc"]["checks"]]
    passed, points, _, checks = checked[kind]
    assert round(sum(t["score"] for t in doc["tests"]), 4) == points
    assert [t["status"] == "passed" for t in doc["tests"]] == [ok for _, ok in checks], doc["tests"]
    assert [t["name"] for t in doc["tests"]] == titles
    assert doc["output"].startswith("Passed" if passed else "Did not pass"), doc["output"]


@pytest.mark.parametrize("kind", list(KINDS))
def test_the_similarity_report_compares_every_kind(kind, checked, compared):
    _skip_unbuildable(kind, checked)
    assignment, folder, _ = KINDS[kind]
    report = compared[assignment].similarity
    mine = [d for d in report.documents if d.kind == "submission" and d.id == folder]
    assert mine and mine[0].language == LANGUAGE[kind], (report.skipped, [d.id for d in report.documents])
    assert not [s for s in report.skipped if s.startswith(folder)]
