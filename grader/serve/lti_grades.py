"""Grades back to the LMS (LTI Assignment and Grade Services): one score per decision, one column.

The rules come from what went wrong elsewhere:
- A line item (gradebook column) is looked up before one is made: the launch's own line item if the
  LMS gave one, else the one this tool made before (kept, and also found again by resourceId and tag
  on the LMS), and only then a new one. Repeating a sync never makes a second column
  (PrairieLearn#15643).
- What is sent is the decision that counts under `serve.lti.grade` (the best upload after penalties,
  the latest, or `league`: the grade of the last league run begun after the deadline), never each
  attempt (PrairieLearn#12520): a decision is recorded once (`lti_store.decide`) and sent once. A
  league's decision is keyed by its run, so a later run after the deadline that grades differently is
  a new decision, and its comment names the policy and the run.
- A failing LMS loses nothing: the decision stays queued with the LMS's answer, and the next sync
  sends it; a refusal (a 4xx other than 408/425/429) is kept with the LMS's sentence for the instructor.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import UTC, datetime

from .. import usecases
from ..assignment import Assignment
from ..config import LtiPlatformConfig
from ..penalties import deadline_of
from . import lti_store, uploads
from .db import Database
from .league_folder import folder_name
from .lti_services import PlatformError, Services, below

LINEITEM_SCOPE = "https://purl.imsglobal.org/spec/lti-ags/scope/lineitem"
SCORE_SCOPE = "https://purl.imsglobal.org/spec/lti-ags/scope/score"
LINEITEM_MEDIA = "application/vnd.ims.lis.v2.lineitem+json"
LINEITEMS_MEDIA = "application/vnd.ims.lis.v2.lineitemcontainer+json"
SCORE_MEDIA = "application/vnd.ims.lis.v1.score+json"
TAG = "game-grader"


def counting_upload(mine: list[dict], policy: str, penalties: dict) -> tuple[dict, float] | None:
    """(the upload whose grade counts, its points after penalties) among a student's uploads, or None
    before any was evaluated. `best`: the most points after penalties (the earlier on a tie); `latest`."""
    done = [u for u in mine if u["status"] == "done" and u["points"] is not None]
    if not done:
        return None
    scored = [(u, float(uploads.penalised(u, penalties)["points"] or 0.0)) for u in done]
    if policy == "latest":
        return max(scored, key=lambda pair: pair[0]["uploaded_at"])
    return max(scored, key=lambda pair: (pair[1], -pair[0]["uploaded_at"]))


def feedback(upload: dict, after: float) -> str:
    """The one sentence sent with the grade: the verdict's own words, and the penalty if one applied."""
    doc = json.loads(upload["verdict_json"]) if upload.get("verdict_json") else {}
    sentence = usecases.stored_verdict_sentence(doc) if doc else "Evaluated."
    if upload["points"] is not None and after < float(upload["points"]):
        sentence += f" After the course's penalties: {after:.4g} points."
    return sentence


@dataclass
class LeagueGrades:
    """The league run whose grades count under the `league` policy, and its rows by submission id."""

    run: dict
    rows: dict[str, dict]

    def comment(self, row: dict) -> str:
        when = datetime.fromtimestamp(self.run["finished_at"], UTC).strftime("%Y-%m-%d %H:%M UTC")
        return (f"Grade from the league run after the deadline (serve.lti.grade: league; run {self.run['id']}, "
                f"finished {when}): {row['grade']:g} of {row.get('grade_max') or 0:g} points, "
                f"{row.get('grade_reason') or 'graded'}.")


def league_after_deadline(db: Database, assignment: Assignment, name: str,
                          results: dict | None) -> LeagueGrades | str:
    """The last finished league run, when it began after the deadline, with its grades (results.json holds
    the last run's); else the sentence that says why there is nothing to send yet."""
    deadline = deadline_of(assignment.config.penalties)
    if deadline is None:
        return ("serve.lti.grade is league, but the assignment has no deadline (penalties.deadline), so no "
                "league run counts")
    run = db.one("SELECT * FROM league_runs WHERE assignment = ? AND status = 'done' ORDER BY finished_at DESC "
                 "LIMIT 1", (name,))
    if run is None or (run["started_at"] or 0) < deadline.timestamp() or results is None:
        return (f"no league run has finished since the deadline ({deadline.isoformat(' ', 'minutes')}); the "
                f"grades are sent once one has")
    return LeagueGrades(run, {str(r["id"]): dict(r) for r in results.get("submissions", [])})


def decide(db: Database, assignment: Assignment, name: str, policy: str, course: dict,
           league: LeagueGrades | None = None) -> int:
    """Record the decision that counts for each student of the LMS course; how many are new."""
    new = 0
    for student in lti_store.members(db, course["issuer"], course["context_id"]):
        if league is not None:
            row = league.rows.get(folder_name(student["login"]))
            if row is None or row.get("grade") is None:
                continue
            new += lti_store.decide(db, course, student["id"], f"league-run-{league.run['id']}",
                                    float(row["grade"]), float(row.get("grade_max") or 0), league.comment(row))
            continue
        counted = counting_upload(uploads.of_user(db, student["id"], name), policy, assignment.config.penalties)
        if counted is None:
            continue
        upload, after = counted
        new += lti_store.decide(db, course, student["id"], upload["id"], after, float(upload["max_points"] or 0),
                                feedback(upload, after))
    return new


def lineitem(db: Database, services: Services, course: dict, title: str, max_points: float) -> str:
    """The gradebook column for this assignment in this LMS course: found before it is ever made."""
    if course.get("lineitem_url"):
        return str(course["lineitem_url"])
    url = course.get("lineitems_url")
    if not url:
        raise PlatformError("this course's launch did not offer the gradebook service (AGS); turn on "
                            "\"Assignment and Grade Services\" for the tool in the LMS", transient=False)
    scopes = _scopes(course, LINEITEM_SCOPE)
    query = f"{'&' if '?' in url else '?'}resource_id={course['assignment']}&tag={TAG}"
    for page in services.get_all(url + query, scopes, LINEITEMS_MEDIA, "the gradebook column lookup"):
        items: list = page if isinstance(page, list) else []     # a line item container is a JSON array
        for item in items:
            if item.get("resourceId") == course["assignment"] and item.get("tag") == TAG and item.get("id"):
                lti_store.set_lineitem(db, course, str(item["id"]))
                return str(item["id"])
    made = services.send(url, scopes, LINEITEM_MEDIA, {"scoreMaximum": max_points or 1, "label": title,
                                                       "resourceId": course["assignment"], "tag": TAG},
                         "the request to add a gradebook column", accept=LINEITEM_MEDIA)
    if not made.get("id"):
        raise PlatformError("the LMS made a gradebook column but did not say its address", transient=False)
    lti_store.set_lineitem(db, course, str(made["id"]))
    return str(made["id"])


def _scopes(course: dict, *wanted: str) -> list[str]:
    offered = set(str(course.get("scopes") or "").split())
    missing = [s for s in wanted if s not in offered]
    if missing:
        raise PlatformError(f"the LMS did not grant this tool the scope{'s' if len(missing) > 1 else ''} "
                            f"{', '.join(missing)}; allow grade passback for the tool in the LMS", transient=False)
    return list(wanted)


@dataclass
class GradeSync:
    """What one passback did, for the instructor's page."""

    decided: int = 0
    sent: int = 0
    refused: int = 0
    waiting: int = 0
    problem: str = ""

    def sentence(self) -> str:
        said = (f"{self.decided} new decision(s); {self.sent} grade(s) sent"
                f"{f', {self.refused} refused by the LMS' if self.refused else ''}.")
        if self.waiting:
            said += (f" {self.waiting} grade(s) wait to be sent again ({self.problem}); nothing is lost, "
                     f"the next sync sends them.")
        elif self.problem:
            said += f" {self.problem[:1].upper()}{self.problem[1:]}."
        return said


def passback(db: Database, services: Services, platform: LtiPlatformConfig, assignment: Assignment, name: str,
             policy: str, course: dict, league: LeagueGrades | str | None = None) -> GradeSync:
    """Decide, then send every waiting decision of one LMS course, oldest first; stop at a transient failure.
    Under the `league` policy, `league` is the run that counts, or the sentence why none does yet."""
    if isinstance(league, str):
        done = GradeSync(problem=league)
    else:
        done = GradeSync(decided=decide(db, assignment, name, policy, course, league))
    pending = lti_store.waiting(db, course)
    if not pending:
        return done
    try:
        column = lineitem(db, services, course, assignment.title, max(float(p["max_score"]) for p in pending))
        scopes = _scopes(course, SCORE_SCOPE)
    except PlatformError as exc:
        for row in pending:
            lti_store.mark(db, row, "queued", str(exc))
        done.waiting, done.problem = len(pending), str(exc)
        return done
    for i, row in enumerate(pending):
        score = {"userId": row["sub"], "scoreGiven": row["score"], "scoreMaximum": row["max_score"],
                 "comment": row["comment"], "timestamp": datetime.now(UTC).isoformat(timespec="milliseconds"),
                 "activityProgress": "Completed", "gradingProgress": "FullyGraded"}
        try:
            services.send(below(column, "scores"), scopes, SCORE_MEDIA, score, "a grade")
        except PlatformError as exc:
            if not exc.transient:
                lti_store.mark(db, row, "refused", str(exc))
                done.refused += 1
                continue
            for rest in pending[i:]:
                lti_store.mark(db, rest, "queued", str(exc))
            done.waiting, done.problem = len(pending) - i, str(exc)
            return done
        lti_store.mark(db, row, "sent")
        done.sent += 1
    return done
