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
  A player fails (failed_grade) if it scored under 50% of the points in its games against the
  built-in `must_beat` (or never met it). Among passing players, with P the top score and L the
  lowest passing score: grade = pass_min + (max − pass_min)·(p − L)/(P − L); everyone gets max
  when P == L. Grades are rounded to 2 decimals. The score is what the standings rank by
  (`Standings.score`: points, or the rating when game counts differ), so grades follow the table.
- "thresholds": `{"kind": "thresholds", "rules": [{"beats": "baseline", "grade": 10},
  {"beats": "random", "grade": 5}]}`: a player meets a rule when it scored at least `share`
  (default 0.5) of the points in its games against that built-in; the highest grade among the rules
  it meets wins, 0 when it meets none. The maximum is the highest rule grade.
- "ladder": `{"kind": "ladder", "rules": [{"beats": "greedy", "grade": 10}, {"beats": "random",
  "grade": 5}], "error": 0.05, "margin": 0.1, "max_games": 200}`: every student plays each rule's
  built-in until a sequential test (grader/sprt.py) decides "beats it" or "does not beat it" at the
  `error` rate; the highest grade among the built-ins it beats wins, 0 when it beats none. The
  reason says each decision and its error ("beats greedy: 41 of 52 games, error below 5%"). The
  games come as `ladder`: {student: {built-in id: its scores in game order}} (`league.ladder_scores`).
- "none": no grades (an empty mapping).

Built-in names may be written "random" or "builtin:random". Bad config raises GradingConfigError
with one sentence.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from .sprt import BEATS, SprtSettings, decide
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


def score_share(standings: Standings, sub_id: str, opponent: str) -> float | None:
    """The share of the available points sub_id took from its games against opponent; None if none."""
    for name in dict.fromkeys((opponent, _builtin_id(opponent))):
        points, games = standings.head_to_head(sub_id, name)
        if games:
            return points / games
    return None


def compute_grades(standings: Standings, config: dict, excluded: dict[str, str] | None = None,
                   ladder: dict[str, dict[str, list[float]]] | None = None) -> dict[str, Grade]:
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
    if kind == "bands":
        grades |= _bands(players, config["bands"], top)
    elif kind == "interpolate":
        grades |= _interpolate(standings, players, config, top, floor)
    elif kind == "ladder":
        grades |= _ladder(players, config, ladder or {}, top)
    else:
        grades |= _thresholds(standings, players, config["rules"], top)
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
        return hi
    rules = config.get("rules") or []
    if not rules or any(not isinstance(r, dict) or "beats" not in r or "grade" not in r for r in rules):
        raise GradingConfigError("grading rules must be a non-empty list of {beats: <built-in>, grade: <number>}.")
    if kind == "ladder":
        sprt_settings(config)
    return max(float(r["grade"]) for r in rules)


def sprt_settings(config: dict) -> SprtSettings:
    """The ladder's sequential test, from the grading config (a bad value is one sentence)."""
    try:
        return SprtSettings(error=float(config.get("error", 0.05)), margin=float(config.get("margin", 0.1)),
                            max_games=int(config.get("max_games", 200)))
    except ValueError as exc:
        raise GradingConfigError(f"the ladder's {exc}") from None


def _ladder(players, config: dict, ladder: dict[str, dict[str, list[float]]], top: float) -> dict[str, Grade]:
    settings = sprt_settings(config)
    ordered = sorted(config["rules"], key=lambda r: -float(r["grade"]))
    out = {}
    for row in players:
        said, met = [], None
        for rule in ordered:
            name = str(rule["beats"]).removeprefix(BUILTIN_PREFIX)
            decision = decide(ladder.get(row.id, {}).get(_builtin_id(name), []), settings)
            said.append(decision.sentence(name) if decision.games else f"{name}: no games played")
            if decision.verdict == BEATS:
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


def _interpolate(standings: Standings, players, config: dict, top: float, floor: float) -> dict[str, Grade]:
    must_beat = config.get("must_beat")
    lo = float(config.get("pass_min", 50))
    out, passing = {}, []
    for row in players:
        share = score_share(standings, row.id, must_beat) if must_beat else 1.0
        if share is None:
            out[row.id] = Grade(floor, top, f"did not play {must_beat}, so could not pass")
        elif share < 0.5:
            out[row.id] = Grade(floor, top, f"did not beat {must_beat} (scored {share:.0%} against it)")
        else:
            passing.append(row)
    if passing:
        score = standings.score
        known = [score(r) for r in passing if score(r) != -math.inf] or [0.0]     # -inf: no rated game
        best, worst = max(known), min(known)
        what = "rating" if standings.rank_by == "rating" else "points"
        for row in passing:
            if score(row) == -math.inf:
                frac = 0.0
            else:
                frac = 1.0 if best == worst else (score(row) - worst) / (best - worst)
            value = round(lo + (top - lo) * frac, 2)
            out[row.id] = Grade(value, top, f"{_amount(score(row), what)}, between the lowest passing "
                                            f"{_amount(worst, what)} and the top {_amount(best, what)}")
    return out


def _amount(value: float, what: str) -> str:
    if what == "rating":
        return "no rating" if value == -math.inf else f"rating {value:.0f}"
    return f"{value:g} points"


def _thresholds(standings: Standings, players, rules, top: float) -> dict[str, Grade]:
    out = {}
    ordered = sorted(rules, key=lambda r: -float(r["grade"]))
    for row in players:
        met = None
        for rule in ordered:
            share = score_share(standings, row.id, rule["beats"])
            if share is not None and share >= float(rule.get("share", 0.5)):
                met = (rule, share)
                break
        if met is None:
            names = ", ".join(str(r["beats"]) for r in ordered)
            out[row.id] = Grade(0.0, top, f"did not beat any of: {names}")
        else:
            out[row.id] = Grade(float(met[0]["grade"]), top,
                                f"beat {met[0]['beats']} (scored {met[1]:.0%} against it)")
    return out


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
