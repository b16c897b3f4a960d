"""Every kind of player through every front door, with the same verdict everywhere (issue 28.2).

A Python player and a Java player (the course's StudentPlayer.java layout) of Bohnenspiel, a C++
program and a Rust one of Double Card, each through `grader check`, `grader run`, an upload to
`grader serve` (Starlette's TestClient and the worker in this process), the Gradescope autograder
and the similarity report. Before the use cases were written once, the service, the autograder
and the similarity report refused the Java player ("no student_player.py") and the C++ program
("no player.py").

The four doors that start players run in both start modes (`league.prefork`, which
`grader.match.player_factory` reads): forked from a pre-imported template and spawned afresh; every
player start is recorded, and a door passes only if all its players were started the mode's way.
The similarity report starts none, so it runs once. Each door's work is done once per start mode
and shared by the assertions; the league plays inline (`concurrency: 1`), so its players start in
this process, where they are recorded.
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

from grader.assignment import load_assignments
from grader.cli import main
from sandbox import prefork
from sandbox.process import PlayerProcess
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
START_MODES = ("prefork", "spawn")
# A door's first test carries its module fixture's whole work (a check of each kind, two leagues):
# several minutes at load 20 with spawned players, past pytest-timeout's default 300 s.
pytestmark = pytest.mark.timeout(1200)


def _block(name: str, folder: str, mode: str) -> dict:
    """The bundled assignment, made cheaper: one smoke game, one built-in, no similarity skeleton;
    players started the `mode` way, the league's games played in this process."""
    block = dict(BUNDLED[name])
    block.update(submissions=folder, reports=f"reports/{name}", similarity={"min_score": 0.9})
    block["validation"] = dict(block.get("validation") or {}) | {"smoke_games": 1}
    block["league"] = dict(block["league"]) | {"builtins": ["random"], "games_per_pair": 2,
                                               "prefork": mode == "prefork", "concurrency": 1}
    if block["grading"].get("kind") == "thresholds":
        block["grading"] = {"kind": "thresholds", "rules": [{"beats": "random", "grade": 6}]}
    else:
        block["grading"] = {k: v for k, v in block["grading"].items() if k != "must_beat"}
    return block


def _course(base: Path, mode: str) -> Path:
    """A course folder holding every kind, with a config that also serves uploads."""
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
    config = {"assignments": {a: _block(a, f"subs_{a}", mode) for a in ("bohnenspiel", "doublecard")},
              "serve": {"data_dir": "data", "rate_limit": 50, "lease_s": 30}}
    (base / "config.yaml").write_text(yaml.safe_dump(config, sort_keys=False))
    return base


@pytest.fixture(scope="module", params=START_MODES)
def start_mode(request) -> str:
    """Every door that starts players runs twice: players forked from a template, and spawned."""
    if request.param == "prefork" and prefork.available() is not None:
        pytest.skip(f"no pre-forked start here: {prefork.available()}")
    return request.param


@pytest.fixture(scope="module")
def course(start_mode, tmp_path_factory) -> Path:
    return _course(tmp_path_factory.mktemp(f"course-{start_mode}"), start_mode)


class _StartLog:
    """The ways players were started, in order, kept in a file: the service's worker checks an upload
    in a forked process of its own (grader/serve/upload_job.py), whose starts a list would not see."""

    def __init__(self, path: Path) -> None:
        self.path = path
        path.write_text("")

    def append(self, how: str) -> None:
        with self.path.open("a") as f:
            f.write(how + "\n")

    def _lines(self) -> list[str]:
        return self.path.read_text().splitlines()

    def __len__(self) -> int:
        return len(self._lines())

    def __getitem__(self, which):
        return self._lines()[which]


@pytest.fixture(scope="module")
def starts(tmp_path_factory):
    """How each player in this module was started (`PlayerProcess.started_by`), in order. Builds
    are not players: they go through `PlayerProcess.run`, not `start`."""
    log = _StartLog(tmp_path_factory.mktemp("starts") / "log")
    original = PlayerProcess.start

    def start(self):
        try:
            return original(self)
        finally:
            log.append(self.started_by)

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(PlayerProcess, "start", start)
        yield log


def _started(starts: _StartLog, work, *args):
    """work(*args)'s result and the ways the players it started were started."""
    before = len(starts)
    result = work(*args)
    return result, starts[before:]


def _all_started_as(mode: str, how: list[str]) -> None:
    assert how, "this door started no player"
    assert set(how) == {mode}, f"players of a {mode} door were started as {how}"


def _verdict(passed, points, max_points, checks) -> tuple:
    """What every door must agree on. An informational check's pass is left out (None): it counts
    for nothing, and a random player's result there changes from one run's seed to the next."""
    return (bool(passed), round(float(points), 4), round(float(max_points), 4),
            tuple((c["name"], None if c["informational"] else bool(c["passed"])) for c in checks))


def _check_json(config: Path, folder: Path, assignment: str) -> dict:
    buffer = io.StringIO()
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr("sys.stdout", buffer)
        main(["--config", str(config), "check", str(folder), "--assignment", assignment, "--json"])
    return json.loads(buffer.getvalue())


@pytest.fixture(scope="module")
def checked(course, starts) -> dict:
    """`grader check --json` of each kind: the verdict every other door must repeat."""
    out: dict = {}
    for kind, (assignment, folder, _) in KINDS.items():
        doc, out[kind + ":starts"] = _started(
            starts, _check_json, course / "config.yaml", course / f"subs_{assignment}" / folder, assignment)
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
def ran(course, starts) -> dict:
    """`grader run` of both assignments: each submission's row in results.json."""
    rows: dict = {}
    for assignment in ("bohnenspiel", "doublecard"):
        code, rows[assignment + ":starts"] = _started(
            starts, main, ["--config", str(course / "config.yaml"), "run", assignment, "--quiet"])
        assert code == 0
        doc = json.loads((course / "reports" / assignment / "results.json").read_text())
        rows |= {s["id"]: s for s in doc["submissions"]}
    return rows


@pytest.fixture(scope="module")
def served(course, starts) -> dict:
    """Each kind uploaded as a zip to the upload service by a student, the worker run dry."""
    pytest.importorskip("starlette")
    from starlette.testclient import TestClient

    from grader.serve import accounts
    from grader.serve.app import create_app
    from grader.serve.worker import Worker

    app = create_app(course / "config.yaml")
    db = app.service.db
    rows: dict = {}
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

    def done() -> set[str]:
        return {r["login"] for r in db.query("SELECT s.login FROM uploads u JOIN users s ON s.id = u.user_id "
                                             "WHERE u.status = 'done'")}

    while True:                                     # one upload a turn: whose players were started how
        before = done()
        more, how = _started(starts, worker.run_once)
        if not more:
            break
        (login,) = done() - before
        rows[login + ":starts"] = how
    for row in db.query("SELECT u.*, s.login FROM uploads u JOIN users s ON s.id = u.user_id"):
        rows[row["login"]] = dict(row)
    return rows


@pytest.fixture(scope="module")
def graded_on_gradescope(course, starts, tmp_path_factory) -> dict:
    """Each kind through the autograder's entry point in a root laid out as Gradescope's."""
    from grader import gradescope

    assignments = load_assignments(course / "config.yaml")
    docs: dict = {}
    for kind, (assignment, folder, _) in KINDS.items():
        root = tmp_path_factory.mktemp(f"gs-{kind}")
        shutil.copytree(course / f"subs_{assignment}" / folder, root / "submission")
        docs[kind], docs[kind + ":starts"] = _started(
            starts, gradescope.run_submission, root, assignments[assignment])
        assert json.loads((root / "results" / "results.json").read_text()) == docs[kind]
    return docs


@pytest.fixture(scope="module")
def compared(tmp_path_factory) -> dict:
    """The similarity report's door (`grader similarity`'s use case): it starts no player, so one
    start mode is enough."""
    from grader import usecases

    base = _course(tmp_path_factory.mktemp("course-similarity"), "prefork")
    assignments = load_assignments(base / "config.yaml")
    return {a: usecases.similarity(assignments[a]) for a in ("bohnenspiel", "doublecard")}


@pytest.mark.parametrize("kind", list(KINDS))
def test_grader_check_accepts_every_kind(kind, start_mode, checked):
    _skip_unbuildable(kind, checked)
    doc = checked[kind + ":doc"]
    assert doc["checks"][0]["name"] != "interface" or doc["checks"][0]["passed"], doc["checks"][0]["message"]
    if kind in ("python", "java", "cpp"):           # the bundled players pass their course's stages
        assert doc["passed"], doc
    _all_started_as(start_mode, checked[kind + ":starts"])


@pytest.mark.parametrize("kind", list(KINDS))
def test_grader_run_gives_the_verdict_of_grader_check(kind, start_mode, checked, ran):
    _skip_unbuildable(kind, checked)
    row = ran[KINDS[kind][1]]
    v = row["validation"]
    assert _verdict(v["passed"], v["points"], v["max_points"], v["checks"]) == checked[kind]
    assert (row["status"] != "failed") == checked[kind][0], row["status_detail"]
    _all_started_as(start_mode, ran[KINDS[kind][0] + ":starts"])


@pytest.mark.parametrize("kind", list(KINDS))
def test_an_upload_to_the_service_gets_the_verdict_of_grader_check(kind, start_mode, checked, served):
    _skip_unbuildable(kind, checked)
    row = served[kind]
    assert row["status"] == "done", row
    doc = json.loads(row["verdict_json"])
    assert _verdict(row["passed"], row["points"], row["max_points"], doc["checks"]) == checked[kind], \
        row["verdict_text"]
    assert ("Result: passed" in row["verdict_text"]) == checked[kind][0]
    _all_started_as(start_mode, served[kind + ":starts"])


@pytest.mark.parametrize("kind", list(KINDS))
def test_the_gradescope_autograder_gives_the_verdict_of_grader_check(kind, start_mode, checked, graded_on_gradescope):
    _skip_unbuildable(kind, checked)
    doc = graded_on_gradescope[kind]
    titles = [c["title"] for c in checked[kind + ":doc"]["checks"]]
    passed, points, _, checks = checked[kind]
    assert round(sum(t["score"] for t in doc["tests"]), 4) == points
    assert [None if ok is None else t["status"] == "passed" for t, (_, ok) in zip(doc["tests"], checks, strict=True)] \
        == [ok for _, ok in checks], doc["tests"]
    assert [t["name"] for t in doc["tests"]] == titles
    assert doc["output"].startswith("Passed" if passed else "Did not pass"), doc["output"]
    _all_started_as(start_mode, graded_on_gradescope[kind + ":starts"])


@pytest.mark.parametrize("kind", list(KINDS))
def test_the_similarity_report_compares_every_kind(kind, compared):
    assignment, folder, _ = KINDS[kind]
    report = compared[assignment].similarity
    mine = [d for d in report.documents if d.kind == "submission" and d.id == folder]
    if kind == "rust" and not mine and shutil.which("cargo") is None:
        pytest.skip("cargo is not installed, so a Rust crate is not a kind this machine accepts")
    assert mine and mine[0].language == LANGUAGE[kind], (report.skipped, [d.id for d in report.documents])
    assert not [s for s in report.skipped if s.startswith(f"{folder}: ") and "compared" not in s]   # only notes
