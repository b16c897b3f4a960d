"""Grades from standings, by one of three course schemes, configured by a plain dict.

Who is graded: every id in the standings that is not a built-in (ids starting with "builtin:"),
plus every id in `excluded` (failed validation, or not playable), which gets `failed_grade`
(default 0) with its reason. Disqualified rows (standings rows with a `disqualified` reason) are
graded the same way. The others ("players") are graded by `config["kind"]`:

- "bands" (BRUTE): `{"kind": "bands", "bands": [[0.10, 3], [0.20, 2], [0.40, 1]]}`. With n players,
  a band [f, g] covers the best max(1, ceil(f·n)) places; a player gets the grade of the narrowest
  band that covers its place, 0 when none does. A player's place is the best place of its tie
  group (players sharing a rank in the standings), so a tie straddling a cut gets the better band.
  The maximum is the largest band grade.
- "interpolate" (McGill): `{"kind": "interpolate", "max": 100, "pass_min": 50, "must_beat": "random"}`.
  A player fails (failed_grade) unless the sequential test below decides it beats the built-in
  `must_beat`. Among passing players, with P the top score and L the lowest passing score:
  grade = pass_min + (max − pass_min)·(p − L)/(P − L); everyone gets max when P == L. Grades are
  rounded to 2 decimals. The score is what the standings rank by (`Standings.score`: points, or
  the rating when game counts differ), so grades follow the table. The reason is one line: "beats
  random: 14 of 16 games, error below 5%: 72.4 from rank 5 of 12 (rating 1540 ±60; passing players
  from rating 1400 to 1700)".
- "thresholds": `{"kind": "thresholds", "rules": [{"beats": "baseline", "grade": 10},
  {"beats": "random", "grade": 5}]}`: a player meets a rule when the sequential test decides that
  it scores more than the rule's `share` (default 0.5) of the points against that built-in; the
  highest grade among the rules it meets wins, 0 when it meets none.
- "ladder": `{"kind": "ladder", "rules": [{"beats": "greedy", "grade": 10}, {"beats": "random",
  "grade": 5}]}`: the same as thresholds with every share ½ (the name the ladder was first given).
- "none": no grades (an empty mapping).

Every pass/fail against a built-in (must_beat, a rule) is the sequential test of grader/sprt.py,
never a share of a few games: each student plays the built-in until the test decides "beats it"
or "does not beat it" at `error` (default 0.05), with `margin` (0.1) and at most `max_games` (200);
undecided counts as not beating it, and the reason says so. The league plays those games
(`league._baseline_games`, stopping by `baseline_tests`) and passes their scores in game order as
`baseline_scores`: {student: {built-in id: its scores}}. A reason states each decision and its
error ("beats greedy: 41 of 52 games, error below 5%").

Built-in names may be written "random" or "builtin:random". Bad config raises GradingConfigError
with one sentence.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from .sprt import Decision, SprtSettings, decide
from .standings import Standings

BUILTIN_PREFIX = "builtin:"
KINDS = ("bands", "interpolate", "thresholds", "ladder", "none")


class GradingConfigError(ValueError):
    """A grading config problem, as one sentence."""


@dataclass(frozen=True)
class Grade:
    value: float
    max: float
    reason: str


def _builtin_id(name: str) -> str:
    return name if name.startswith(BUILTIN_PREFIX) else BUILTIN_PREFIX + name


def compute_grades(standings: Standings, config: dict, excluded: dict[str, str] | None = None,
                   baseline_scores: dict[str, dict[str, list[float]]] | None = None) -> dict[str, Grade]:
    """{id: Grade} for every graded id (see the module docstring)."""
    kind = config.get("kind", "none")
    if kind not in KINDS:
        raise GradingConfigError(f"grading kind must be one of {', '.join(KINDS)}, not {kind!r}.")
    if kind == "none":
        return {}
    floor = float(config.get("failed_grade", 0) or 0)
    top = _maximum(kind, config)
    grades: dict[str, Grade] = {}
    for sid, reason in sorted((excluded or {}).items()):
        grades[sid] = Grade(floor, top, reason or "did not pass validation")
    players = []
    for row in standings.rows:
        if row.id.startswith(BUILTIN_PREFIX) or row.id in grades:
            continue
        if row.disqualified is not None:
            grades[row.id] = Grade(floor, top, f"disqualified: {row.disqualified}")
        else:
            players.append(row)
    scores = baseline_scores or {}
    if kind == "bands":
        grades |= _bands(players, config["bands"], top)
    elif kind == "interpolate":
        grades |= _interpolate(standings, players, config, top, floor, scores)
    else:
        grades |= _rules(players, config, scores, top)
    return grades


def _maximum(kind: str, config: dict) -> float:
    if kind == "bands":
        bands = config.get("bands") or []
        if not bands or any(len(b) != 2 or not 0 < float(b[0]) <= 1 for b in bands):
            raise GradingConfigError("grading bands must be a non-empty list of [fraction, grade] with "
                                     "each fraction in (0, 1].")
        return max(float(b[1]) for b in bands)
    if kind == "interpolate":
        hi, lo = float(config.get("max", 100)), float(config.get("pass_min", 50))
        if lo > hi:
            raise GradingConfigError(f"grading pass_min ({lo:g}) cannot be above max ({hi:g}).")
        baseline_tests(config)
        return hi
    rules = config.get("rules") or []
    if not rules or any(not isinstance(r, dict) or "beats" not in r or "grade" not in r for r in rules):
        raise GradingConfigError("grading rules must be a non-empty list of {beats: <built-in>, grade: <number>}.")
    baseline_tests(config)
    return max(float(r["grade"]) for r in rules)


def sprt_settings(config: dict, share: float = 0.5) -> SprtSettings:
    """The sequential test against a built-in, from the grading config (a bad value is one sentence)."""
    try:
        return SprtSettings(error=float(config.get("error", 0.05)), margin=float(config.get("margin", 0.1)),
                            max_games=int(config.get("max_games", 200)), par=float(share))
    except ValueError as exc:
        raise GradingConfigError(f"the sequential test's {exc}") from None


def baseline_tests(config: dict) -> list[tuple[str, SprtSettings]]:
    """(built-in id, its test) for every pass/fail against a built-in the grading has: the league
    plays each pair until all of its tests are decided or max_games is reached."""
    kind = config.get("kind", "none")
    if kind == "interpolate" and config.get("must_beat"):
        return [(_builtin_id(str(config["must_beat"])), sprt_settings(config))]
    if kind in ("thresholds", "ladder"):
        return [(_builtin_id(str(r["beats"])), sprt_settings(config, r.get("share", 0.5) if kind == "thresholds"
                                                            else 0.5))
                for r in config.get("rules") or []]
    return []


def _decision(scores: dict[str, dict[str, list[float]]], sub_id: str, builtin_name: str,
              settings: SprtSettings) -> tuple[Decision, str]:
    """The test's decision for one student and built-in, and its sentence."""
    name = builtin_name.removeprefix(BUILTIN_PREFIX)
    decision = decide(scores.get(sub_id, {}).get(_builtin_id(name), []), settings)
    if settings.par != 0.5:
        name += f" (more than {settings.par:.0%} of the points)"
    return decision, (decision.sentence(name) if decision.games else f"{name}: no games played")


def _rules(players, config: dict, scores: dict[str, dict[str, list[float]]], top: float) -> dict[str, Grade]:
    """thresholds and ladder: the best rule whose built-in the test decides the student beats."""
    ordered = sorted(config["rules"], key=lambda r: -float(r["grade"]))
    tests = baseline_tests(config | {"rules": ordered})
    out = {}
    for row in players:
        said, met = [], None
        for rule, (builtin_id, settings) in zip(ordered, tests):
            decision, sentence = _decision(scores, row.id, builtin_id, settings)
            said.append(sentence)
            if decision.beats:
                met = rule
                break
        grade = float(met["grade"]) if met else 0.0
        out[row.id] = Grade(grade, top, "; ".join(said))
    return out


def _bands(players, bands, top: float) -> dict[str, Grade]:
    n = len(players)
    cuts = sorted((max(1, math.ceil(float(f) * n - 1e-9)), float(f), float(g)) for f, g in bands)
    out = {}
    first_place: dict[int | None, int] = {}
    for place, row in enumerate(players):          # rows come best first
        place = first_place.setdefault(row.rank, place)
        band = next(((f, g) for count, f, g in cuts if place < count), None)
        if band is None:
            out[row.id] = Grade(0.0, top, f"place {place + 1} of {n}: outside every band")
        else:
            out[row.id] = Grade(band[1], top, f"place {place + 1} of {n}: in the top {band[0]:.0%}")
    return out


def _interpolate(standings: Standings, players, config: dict, top: float, floor: float,
                 scores: dict[str, dict[str, list[float]]]) -> dict[str, Grade]:
    must_beat = config.get("must_beat")
    lo = float(config.get("pass_min", 50))
    out, passing, said = {}, [], {}
    for row in players:
        if must_beat:
            decision, sentence = _decision(scores, row.id, str(must_beat), sprt_settings(config))
            if not decision.beats:
                out[row.id] = Grade(floor, top, f"{sentence}: {floor:g}, as passing needs beating "
                                                f"{str(must_beat).removeprefix(BUILTIN_PREFIX)}")
                continue
            said[row.id] = f"{sentence}: "
        passing.append(row)
    if passing:
        score = standings.score
        known = [score(r) for r in passing if score(r) != -math.inf] or [0.0]     # -inf: no rated game
        best, worst = max(known), min(known)
        what = "rating" if standings.rank_by == "rating" else "points"
        ranked = sum(1 for r in standings.rows if r.rank is not None)
        for row in passing:
            if score(row) == -math.inf:
                frac = 0.0
            else:
                frac = 1.0 if best == worst else (score(row) - worst) / (best - worst)
            value = round(lo + (top - lo) * frac, 2)
            out[row.id] = Grade(value, top, f"{said.get(row.id, '')}{value:g} from rank {row.rank} of {ranked} "
                                            f"({_amount(row, what)}; passing players from {_bare(worst, what)} "
                                            f"to {_bare(best, what)})")
    return out


def _amount(row, what: str) -> str:
    """The number the row is ranked by, as the table shows it: "rating 1540 ±60" or "7.5 points"."""
    if what == "rating":
        if row.rating is None:
            return "no rating"
        spread = "" if row.rating_low is None or row.rating_high is None else \
            f" ±{(row.rating_high - row.rating_low) / 2:.0f}"
        return f"rating {row.rating:.0f}{spread}"
    return _bare(row.points, what)


def _bare(value: float, what: str) -> str:
    if what == "rating":
        return "no rating" if value == -math.inf else f"rating {value:.0f}"
    return f"{value:g} point{'' if value == 1 else 's'}"


def grades_table(standings: Standings, grades: dict[str, Grade]) -> list[dict]:
    """Rows for grades.csv and results.json: id, rank, points, grade, max, reason; ranked first."""
    rows, seen = [], set()
    for row in standings.rows:
        if row.id.startswith(BUILTIN_PREFIX):
            continue
        g = grades.get(row.id)
        rows.append({"id": row.id, "rank": row.rank, "points": row.points,
                     "grade": g.value if g else None, "max": g.max if g else None,
                     "reason": g.reason if g else (row.disqualified or "")})
        seen.add(row.id)
    for sid in sorted(set(grades) - seen):
        g = grades[sid]
        rows.append({"id": sid, "rank": None, "points": None, "grade": g.value, "max": g.max, "reason": g.reason})
    return rows
