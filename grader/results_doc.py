"""The results document (results.json) as types: what `grader.outputs.results_document` builds
and `write_results` writes, and what the sites (`grader.report`), the LMS rows and feedback
(`grader.outputs.grade_rows`, `grader.feedback`), the collusion check and the upload service read.

TypedDicts, not classes: the document stays the plain JSON object it always was (byte for byte),
and mypy checks every key its writer sets and its readers take. `json_schema()` derives a JSON
Schema from these types (pydantic, already a dependency); it is published as
`docs/results.schema.json` (`python -m grader.results_doc docs/results.schema.json` rewrites it,
and a test keeps the two equal). A leaf module: it imports nothing of the grader, so every reader
may import it.

A reader of a results.json from disk still meets what an older grader wrote: the sites treat any
field as possibly missing (`grader.report`); these types say what this grader writes.
"""
from __future__ import annotations

import json
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any, Literal

from pydantic import TypeAdapter
from typing_extensions import TypedDict  # pydantic reads typing.TypedDict only from Python 3.12

RankedBy = Literal["points", "rating"]
Status = Literal["valid", "failed", "disqualified", "built-in", "needs a human"]
SmokeResult = Literal["win", "draw", "loss"]


class MoveLimits(TypedDict):
    """The move limits and the course's policy for a failing move, as the league applied them
    (`Assignment.describe_limits`)."""
    clock: str
    load_s: float | None
    first_move_s: float | None
    move_s: float
    hard_kill_s: float
    wall_backstop_s: float
    memory_mb: int | None
    max_submission_mb: float | None
    on_late: str
    on_illegal: str
    on_error: str
    on_none: str
    on_uncaught: str


class LeagueFacts(TypedDict):
    """How the league was played and what its standings rank by."""
    format: str
    games_per_pair: int
    seed: int
    ranked_by: RankedBy


class AssignmentFacts(TypedDict):
    """The facts every page's header shows: the assignment, its game, limits, league and grading."""
    name: str
    title: str
    ruleset: str
    ruleset_title: str
    ruleset_version: str
    game: dict[str, Any]                # the game's parameters (the ruleset's own keys)
    limits: MoveLimits
    league: LeagueFacts
    grading: dict[str, Any]             # the config's grading section, every key filled in
    generated_at: str                   # ISO 8601, UTC, to the second
    grader_version: str
    anonymised: bool
    summary: str                        # the run's one line: games played, reused, failed


class Check(TypedDict):
    """One validation stage's outcome (`grader.validation.Check`)."""
    name: str
    title: str
    passed: bool
    points: float
    max_points: float
    message: str
    required: bool
    informational: bool
    picture: str | None                 # the failing position as text
    svg: str | None                     # the failing position drawn
    cases: int
    failed_cases: int
    needs_human: bool                   # the grader could not read the output: a TA decides


class SmokeGame(TypedDict):
    """One smoke game of the validation, from the submission's seat."""
    opponent: str
    seat: int
    result: SmokeResult
    reason: str
    detail: str
    seed: int
    moves: int
    replaced: int                       # moves the course's policy replaced by random ones
    why_replaced: str
    retried: list[str]                  # why each earlier try was the machine's fault
    losing: LosingMove | None           # the move that lost it, where the ruleset has an evaluator (private)


class Validation(TypedDict):
    """What the validation stages gave a submission."""
    passed: bool
    points: float
    max_points: float
    checks: list[Check]
    games: list[SmokeGame]


class Standing(TypedDict):
    """A submission's line of the standings; every value None for one not in the league."""
    rank: int | None
    points: float | None
    wins: int | None
    draws: int | None
    losses: int | None
    games: int | None
    rating: float | None
    rating_low: float | None
    rating_high: float | None


class GradeFacts(TypedDict):
    """The grade, after penalties, and why; None where no grade is given."""
    grade: float | None
    grade_max: float | None
    grade_reason: str | None
    penalties: list[str]                # one sentence per penalty applied


class PlayerStats(TypedDict):
    """A submission's play over the league's games: slowest move, peak memory, a sample of its
    output, and moves made and replaced by random ones."""
    slowest_move_s: float | None
    peak_memory_mb: float | None
    output: str
    moves: int
    replaced: int


class SubmissionRow(Standing, GradeFacts, PlayerStats):
    """One submission or built-in: who (id, the names each site shows), its status and why, its
    validation, standing, grade and play (written in the order of results.json before these types:
    id, names, status, validation, standing, grade, student_name, play)."""
    id: str
    display_name: str                   # the instructor's site: the name, or a pseudonym when anonymised
    public_name: str                    # the public site: a pseudonym unless the config allows the name
    status: Status
    status_detail: str
    validation: Validation | None       # None: never validated (built-ins, disqualified before)
    student_name: str                   # the real name, for the LMS rows


class CrossCell(TypedDict):
    """One ordered pair's games: the row player's points against the column player."""
    points: float
    games: int
    game_ids: list[str]


Crosstable = dict[str, dict[str, CrossCell]]    # row id → column id → cell (only pairs that met)


class SeatIncident(TypedDict):
    """Something a player did wrong in a game, and at which ply (`grader.incidents` words it)."""
    kind: str
    message: str
    ply: int
    seat: int


class LosingMove(TypedDict):
    """The move that turned a game from a seat's side, and the move that kept it
    (`grader.losing_move.LosingMove.to_json`): private to the student and the staff."""
    seat: int
    ply: int
    move: str
    kept: str
    before: int
    after: int
    exact: bool
    depth: int | None
    label: str
    sentence: str


class GameEntry(TypedDict):
    """One league game, a line of results.json each."""
    id: str                             # the first 16 characters of the game's key
    seat0: str
    seat1: str
    seat0_name: str
    seat1_name: str
    seed: int
    game_index: int
    round: str
    points: list[float]                 # [seat 0, seat 1]
    reason: str
    detail: str
    moves: list[Any]                    # on the wire, as the ruleset reads them
    move_texts: list[str]               # in the course's notation
    scores: list[float] | None          # the game's own scores (None from an older store)
    times: list[Any]                    # per ply: [wall-clock s, CPU s]
    incidents: list[SeatIncident]
    reproduce: str                      # the `grader play` line that plays it again
    losing_moves: dict[str, LosingMove]  # by seat ("0", "1"); never on the public site


class ResultsDoc(TypedDict):
    """results.json: the whole outcome of a league run, in this key order. `games` may be a
    stream read afresh from the store each time it is iterated (`grader.outputs.GameStream`);
    written, it is a list."""
    assignment: AssignmentFacts
    submissions: list[SubmissionRow]
    crosstable: Crosstable
    games: Iterable[GameEntry]


def json_schema() -> dict[str, Any]:
    """The JSON Schema of results.json, generated from `ResultsDoc` (published as
    docs/results.schema.json). Every object of the document has exactly its type's keys, so the
    schema admits no other (a key written but not typed here is found by the schema's test)."""
    schema = TypeAdapter(ResultsDoc).json_schema(mode="serialization")
    for part in [schema, *schema.get("$defs", {}).values()]:
        if "properties" in part:
            part["additionalProperties"] = False
        if "description" in part:                   # a docstring, as one line
            part["description"] = " ".join(part["description"].split())
    return {"$schema": "https://json-schema.org/draft/2020-12/schema", **schema, "title": "results.json: the outcome of a league run (game-grader)"}


def schema_text() -> str:
    """`json_schema()` as the published file holds it."""
    return json.dumps(json_schema(), indent=2, ensure_ascii=False) + "\n"


def main(argv: list[str]) -> int:
    """`python -m grader.results_doc PATH`: write the schema to PATH (stdout without one)."""
    if argv:
        Path(argv[0]).write_text(schema_text(), encoding="utf-8")
    else:
        sys.stdout.write(schema_text())
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
