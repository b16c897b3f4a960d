"""results.json has a type (grader/results_doc.py) and a published JSON Schema made from it
(docs/results.schema.json): the two agree, and a real league's results.json has exactly the
schema's keys and types. No jsonschema package here: `problems` walks the part of JSON Schema
that pydantic writes ($ref, type, anyOf, enum, properties, required, additionalProperties, items)."""
from __future__ import annotations

import ast
import json
import shutil
from pathlib import Path
from typing import Any

import pytest
import yaml

from grader.assignment import load_assignments
from grader.league import run_league
from grader.outputs import grades_of_run, results_document, write_results
from grader.results_doc import json_schema, schema_text
from grader.store import Store

ROOT = Path(__file__).resolve().parents[2]
PUBLISHED = ROOT / "docs" / "results.schema.json"

SUBMISSION_KEYS = ("id", "display_name", "public_name", "status", "status_detail", "validation",
                   "rank", "points", "wins", "draws", "losses", "games", "rating", "rating_low", "rating_high",
                   "grade", "grade_max", "grade_reason", "penalties", "student_name",
                   "slowest_move_s", "peak_memory_mb", "output", "moves", "replaced")    # as written before the types

TYPES = {"object": dict, "array": list, "string": str, "boolean": bool, "null": type(None)}


def _is(value: Any, kind: str) -> bool:
    if kind == "integer":
        return isinstance(value, int) and not isinstance(value, bool)
    if kind == "number":
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    return isinstance(value, TYPES[kind])


def problems(value: Any, schema: dict, root: dict, at: str = "$") -> list[str]:
    """Where `value` breaks `schema` (every place, each as "path: what"), empty when it conforms."""
    if "$ref" in schema:
        schema = root["$defs"][schema["$ref"].rsplit("/", 1)[1]]
    if "anyOf" in schema:
        found = [problems(value, option, root, at) for option in schema["anyOf"]]
        return [] if any(not f for f in found) else [f"{at}: matches no type of {schema['anyOf']}"]
    if "enum" in schema and value not in schema["enum"]:
        return [f"{at}: {value!r} is not one of {schema['enum']}"]
    kind = schema.get("type")
    if kind is not None and not _is(value, kind):
        return [f"{at}: {type(value).__name__} where the schema says {kind}"]
    out: list[str] = []
    if isinstance(value, dict):
        props = schema.get("properties", {})
        out += [f"{at}: no {key!r}" for key in schema.get("required", []) if key not in value]
        extra = schema.get("additionalProperties", True)
        for key, item in value.items():
            if key in props:
                out += problems(item, props[key], root, f"{at}.{key}")
            elif extra is False:
                out.append(f"{at}: {key!r} is not in the schema")
            elif isinstance(extra, dict):
                out += problems(item, extra, root, f"{at}.{key}")
    if isinstance(value, list) and "items" in schema:
        for n, item in enumerate(value):
            out += problems(item, schema["items"], root, f"{at}[{n}]")
    return out


def test_the_published_schema_is_the_one_the_types_make():
    assert PUBLISHED.read_text(encoding="utf-8") == schema_text(), (
        "docs/results.schema.json is out of date: python -m grader.results_doc docs/results.schema.json")


@pytest.fixture(scope="module")
def league_results(tmp_path_factory) -> dict:
    """results.json of a small real league: two random Quoridor players and a built-in on a 5×5 board, one
    student disqualified by hand, one game a pair (a few seconds)."""
    folder = tmp_path_factory.mktemp("league")
    for sid in ("anna", "boris"):
        shutil.copytree(ROOT / "rulesets" / "quoridor" / "players" / "random", folder / "subs" / sid)
    config = folder / "config.yaml"
    config.write_text(yaml.safe_dump({"assignments": {"q": {
        "ruleset": "quoridor", "submissions": "subs", "game": {"sizex": 5, "sizey": 5},
        "validation": {"smoke_games": 0},
        "league": {"format": "round_robin", "games_per_pair": 1, "seed": 0, "builtins": ["random"]},
        "grading": {"kind": "bands", "bands": [[0.5, 2]]}}}}), encoding="utf-8")
    assignment = load_assignments(config)["q"]
    run = run_league(assignment, progress=False)
    run.disqualified["boris"] = "opened a network socket"
    with Store(assignment.store_path) as store:
        write_results(folder / "results.json", results_document(assignment, run, grades_of_run(assignment, run), store))
    return json.loads((folder / "results.json").read_text(encoding="utf-8"))


def test_a_real_league_results_json_has_exactly_the_schemas_keys_and_types(league_results):
    doc = league_results
    assert {s["status"] for s in doc["submissions"]} == {"valid", "built-in", "disqualified"}
    assert doc["games"] and doc["crosstable"]
    assert problems(doc, json_schema(), json_schema()) == []


def test_the_schema_check_finds_a_missing_key_a_wrong_type_and_a_stray_key(league_results):
    doc = json.loads(json.dumps(league_results))
    del doc["submissions"][0]["public_name"]
    doc["games"][0]["seed"] = "7"
    doc["assignment"]["league"]["colour"] = "blue"
    assert sorted(problems(doc, json_schema(), json_schema())) == [
        "$.assignment.league: 'colour' is not in the schema",
        "$.games[0].seed: str where the schema says integer",
        "$.submissions[0]: no 'public_name'"]


def test_each_submission_row_is_written_in_the_documented_key_order(league_results):
    assert all(list(row) == list(SUBMISSION_KEYS) for row in league_results["submissions"])


def test_the_types_are_a_leaf_that_imports_nothing_of_the_grader():
    """store.py, assignment.py and every reader import results_doc: it must import none of them."""
    found: list[str] = []
    for node in ast.walk(ast.parse((ROOT / "grader" / "results_doc.py").read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            found.append("." * node.level + (node.module or ""))
        elif isinstance(node, ast.Import):
            found += [alias.name for alias in node.names]
    assert [m for m in found if m.startswith((".", "grader"))] == [], found
