"""What a student reads once: the check's last line and the feedback sent through the LMS.

Both are made from the validation stages as results.json stores them (dicts with name, title,
passed, points, max_points, message, required, informational) and the smoke games, so `grader
check`, the league's terminal and the LMS say the same thing in the same words. Plain sentences,
one per line, no alignment by spaces (Moodle shows feedback as HTML, where runs of spaces vanish).
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from .results_doc import ResultsDoc, SubmissionRow


def num(value) -> str:
    """Points as every output prints them: at most two decimals, no trailing zeros (5.1389 → 5.14)."""
    return f"{round(float(value or 0), 2):g}"


def score(points, max_points) -> str:
    return f"{num(points)} of {num(max_points)} point{'' if float(max_points or 0) == 1 else 's'}"


RANKED_BY = ("points", "rating")    # what a results document's league.ranked_by may say
MEANINGFUL_RATING = 400         # Elo points: ±400 spans 1:10 to 10:1 odds, so the rating tells nothing


def rating(value, low, high, ranks: bool = False) -> tuple[str | None, str | None]:
    """(rating, "±half-width of the 95 % interval"), or (None, None) where the interval is too wide
    to mean anything (few games); the same on the site and in the terminal. Where the table `ranks`
    by the rating it is always shown with its interval, however wide: it is why a row is above
    another."""
    if value is None:
        return None, None
    if low is None or high is None:
        return f"{value:.0f}", None
    half = (high - low) / 2
    if half > MEANINGFUL_RATING and not ranks:
        return None, None
    return f"{value:.0f}", f"±{half:.0f}"


def tied_on_points(submissions: Iterable[Mapping]) -> set[float]:
    """League points that more than one ranked submission has: there the rating orders the rows,
    so the leaderboard and the terminal show it however wide its interval."""
    seen: dict[float, int] = {}
    for sub in submissions:
        points = sub.get("points")
        if sub.get("rank") is not None and isinstance(points, (int, float)) and not isinstance(points, bool):
            seen[float(points)] = seen.get(float(points), 0) + 1
    return {points for points, count in seen.items() if count > 1}


def _title(check: Mapping) -> str:
    return str(check.get("title") or check.get("name") or "a stage")


def _counted(checks: Iterable[Mapping]) -> list[Mapping]:
    return [c for c in checks if not c.get("informational")]


def replaced_moves(games: Iterable[Mapping]) -> tuple[int, int]:
    """(moves replaced by a random move, moves made) by the submission over its smoke games."""
    replaced = made = 0
    for g in games:
        replaced += int(g.get("replaced") or 0)
        made += int(g.get("moves") or 0)
    return replaced, made


def replaced_sentence(games: Iterable[Mapping], where: str = "the smoke games") -> str | None:
    """Told whenever the course's policy played random moves for the submission: with every move
    replaced, a player that 'passes' is really the course's random player."""
    replaced, made = replaced_moves(games)
    if not replaced:
        return None
    if replaced >= made:
        return (f"Every one of your {made} moves in {where} was replaced by a random move (the course's "
                f"rule for a move that failed), so you played at random.")
    return (f"{replaced} of your {made} moves in {where} were replaced by random moves (the course's "
            f"rule for a move that failed).")


def verdict(checks: list[Mapping], games: Iterable[Mapping] = (), points=0.0, max_points=0.0,
            passed: bool | None = None, plays: bool = True) -> tuple[bool, str]:
    """(passed, the sentence) for the end of `grader check`: never "did not pass" beside full points
    without the reason, and a gate that gives no points is not counted as a graded stage.
    `passed`: the report's own verdict where it has one; `plays`: False for a submission that plays
    no games (a command-line program), which no stage keeps "out of the league"."""
    counted = _counted(checks)
    total = score(points, max_points)
    replaced = replaced_sentence(games)
    tail = f" {replaced}" if replaced else ""
    failed_required = [c for c in counted if c.get("required", True) and not c.get("passed")]
    if failed_required or not counted:
        first = failed_required[0] if failed_required else {"name": "interface", "title": "Interface"}
        if first.get("name") == "interface":
            return False, f"did not pass: the interface stage failed, so no other stage ran ({total})."
        why = (f"the required stage \"{_title(first)}\" failed" if len(failed_required) == 1 else
               f"{len(failed_required)} required stages failed, first \"{_title(first)}\"")
        if not plays:
            return False, f"did not pass: {why} ({total}).{tail}"
        return False, (f"did not pass: {why}, which keeps the submission out of the league "
                       f"(the graded stages gave {total}).{tail}")
    graded_lost = [c for c in counted if float(c.get("max_points") or 0) > 0 and not c.get("passed")]
    gates_failed = [c for c in counted if not float(c.get("max_points") or 0) and not c.get("passed")]
    gated = any(c.get("required", True) for c in counted)
    parts = []
    if graded_lost:
        names = ", ".join(f"\"{_title(c)}\"" for c in graded_lost)
        parts.append(f"points lost in {names}")
    if gates_failed:
        names = ", ".join(f"\"{_title(c)}\"" for c in gates_failed)
        parts.append(f"{names} failed (not required here)")
    if passed is False:
        head = "did not pass"
    elif not gated:
        head = "graded on points alone (no stage is a gate)"
    else:
        head = "passed every required stage" if parts else "passed"
    ok = passed is not False
    if not parts:
        return ok, f"{head} — {total}.{tail}"
    return ok, f"{head} — {total}; {'; '.join(parts)}.{tail}"


# ---------------------------------------------------------------------------------------------
# The LMS feedback.

def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def _first_line(text) -> str:
    """A message as one line; the full text once, never cut (a student reads it once)."""
    return " ".join(str(text or "").split())


def student_place(sub: Mapping, submissions: Iterable[Mapping]) -> tuple[int, int] | None:
    """(place, students ranked) among the students only: built-ins are not counted."""
    if sub.get("rank") is None:
        return None
    students = [s for s in submissions if s.get("status") != "built-in" and s.get("rank") is not None]
    better = sum(1 for s in students if s["rank"] < sub["rank"])
    return better + 1, len(students)


def _grading_rule(grading: Mapping | None) -> str | None:
    """The grading rule in one clause, so a reason like "outside every band" can be understood."""
    grading = grading or {}
    if grading.get("kind") == "bands" and grading.get("bands"):
        bands = ", ".join(f"the top {float(f):.0%} get {num(g)}" for f, g in sorted(grading["bands"]))
        return f"({bands})"
    return None


def student_feedback(sub: SubmissionRow, doc: ResultsDoc, report_url: str | None = None) -> str:
    """The feedback for one student: what passed, what failed with its sentence, the place among
    the students, the grade and why, penalties, and the link to the student's page. A field may be
    missing: the document may be an older grader's results.json, read from disk."""
    assignment = doc.get("assignment") or {}
    validation: Mapping[str, Any] = sub.get("validation") or {}
    checks = [c for c in validation.get("checks") or [] if isinstance(c, Mapping)]
    lines = [str(assignment.get("title") or assignment.get("name") or "Your submission")]
    passed = [c for c in checks if c.get("passed")]
    failed = [c for c in checks if not c.get("passed")]
    if passed:
        lines.append("Passed: " + "; ".join(
            _title(c) + (f" ({score(c.get('points'), c.get('max_points'))})" if c.get("max_points") else "")
            for c in passed) + ".")
    for c in failed:
        kind = ("for information, no points" if c.get("informational") else
                score(c.get("points"), c.get("max_points")) if c.get("max_points") else
                "required" if c.get("required", True) else "not required")
        message = _first_line(c.get("message"))
        lines.append(f"Failed: {_title(c)} ({kind})" + (f": {message}" if message else "."))
    if not checks and sub.get("status_detail"):
        lines.append(f"Not checked: {_first_line(sub['status_detail'])}")
    if checks:
        ok, sentence = verdict(checks, validation.get("games") or (), validation.get("points"),
                               validation.get("max_points"))
        lines.append(("Validation: " + sentence[0].upper() + sentence[1:]) if not ok else f"Validation: {sentence}")
    place = student_place(sub, doc.get("submissions") or [])
    if sub.get("status") == "disqualified":
        lines.append(f"League: disqualified: {_first_line(sub.get('status_detail'))}")
    elif place is not None:
        points = (f", {num(sub['points'])} point{'' if sub['points'] == 1 else 's'} from {sub.get('games') or 0} games"
                  if sub.get("points") is not None else "")
        lines.append(f"League: {_ordinal(place[0])} of {place[1]} students{points}.")
    league_replaced = replaced_sentence([sub], "the league") if place is not None else None
    if league_replaced:
        lines.append(f"League: {league_replaced}")
    for p in sub.get("penalties") or []:
        lines.append(f"Penalty: {p}")
    if sub.get("grade") is not None:
        grade = num(sub["grade"]) + (f" of {num(sub['grade_max'])}" if sub.get("grade_max") is not None else "")
        reason = _first_line(sub.get("grade_reason"))
        if sub.get("status") == "failed":           # the failing stage's sentence is above, in full
            reason = "a required stage failed, so the submission played no league games"
        rule = _grading_rule(assignment.get("grading")) if "band" in reason else None
        lines.append(f"Grade: {grade}" + (f": {reason}" if reason else "") + (f" {rule}" if rule else "") + ".")
    if report_url:
        lines.append(f"Details: {report_url}")
    return "\n".join(lines)


def ranked_by(doc: Mapping) -> str:
    """What the document's standings rank by: "rating" or "points" (older documents: points)."""
    league = (doc.get("assignment") or {}).get("league") or {}
    said = league.get("ranked_by") if isinstance(league, Mapping) else None
    return said if said in RANKED_BY else "points"
