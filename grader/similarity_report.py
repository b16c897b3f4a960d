"""`grader similarity ASSIGNMENT`: the report an instructor reads before publishing grades.

Gathers what to compare (the current submissions, the course skeleton from the config, this
project's engine, probes and built-in players, an archive of earlier years), runs
grader.similarity and, when a league has been played, grader.collusion on its results, and writes
an instructor-only page and a CSV into `<reports>-instructor/` — beside the published site, never
inside it: the page shows students' code and names.
"""
from __future__ import annotations

import csv
import json
from dataclasses import dataclass, field
from pathlib import Path

from .assignment import Assignment
from .collusion import find_collusion
from .config import SimilarityConfig
from .intake import stage_all
from .player_kinds import code_languages
from .report import render_page
from .results_doc import ResultsDoc
from .similarity import (
    Document,
    SimilarityReport,
    archive_documents,
    compare,
    csv_text,
    documents,
    highlighted,
    reference_documents,
)
from .similarity_cache import ComparisonCache


@dataclass
class InstructorReport:
    similarity: SimilarityReport
    flags: list = field(default_factory=list)          # grader.collusion.Flag
    league_note: str = ""                              # why no collusion check ran, if it did not
    paths: dict[str, Path] = field(default_factory=dict)


def instructor_dir(assignment: Assignment) -> Path:
    """`reports/<name>-instructor/`: a sibling of the published folder, not inside it."""
    site = assignment.reports_dir
    return site.with_name(site.name + "-instructor")


def settings(assignment: Assignment) -> SimilarityConfig:
    return assignment.config.similarity or SimilarityConfig()


def submission_documents(assignment: Assignment) -> tuple[list[Document], list[str]]:
    """Every submission's code, one document per language, and one sentence per submission naming
    what of it was not compared (or only in part) and why."""
    languages = code_languages(assignment.ruleset)
    docs, skipped = [], []
    for sub in stage_all(assignment):
        if sub.problem:
            skipped.append(f"{sub.display_name}: {sub.problem}")
            continue
        found, notes = documents(sub.id, "submission", sub.display_name, Path(sub.staged or sub.source), languages,
                                 runnable=True)
        docs += found
        if not found:
            skipped.append(f"{sub.display_name}: no code files to compare" + (f"; {'; '.join(notes)}." if notes else "."))
        elif notes:
            skipped.append(f"{sub.display_name}: {'; '.join(notes)}.")
    return docs, skipped


def skeleton_paths(assignment: Assignment) -> list[Path]:
    """The course's skeleton files, each relative to the course folder (the config's), so a course
    folder that moves keeps its skeleton. `MissingSkeleton` with one sentence for a path not there:
    left out silently, the skeleton's code would count as copying between every two students."""
    paths = []
    for given in settings(assignment).skeleton:
        path = (assignment.base / given).resolve()
        if not path.exists():
            raise MissingSkeleton(
                f"{assignment.config_path or 'the config'}: assignments.{assignment.name}.similarity.skeleton: "
                f"{given} is not in the course folder {assignment.base} (skeleton paths are relative to it).")
        paths.append(path)
    return paths


class MissingSkeleton(Exception):
    """A skeleton path of the config that is not there; str() is the sentence for the instructor."""


def run_similarity(assignment: Assignment, results: ResultsDoc | None = None) -> InstructorReport:
    """Compare, check the league (when `results` holds one), write the page and the CSV."""
    cfg = settings(assignment)
    skeleton = skeleton_paths(assignment)
    languages = code_languages(assignment.ruleset)
    subs, skipped = submission_documents(assignment)
    ruleset_dir = Path(assignment.ruleset.players[next(iter(assignment.ruleset.players))]).resolve().parent.parent \
        if assignment.ruleset.players else None
    excluded = {f.resolve() for p in skeleton for f in ([p] if p.is_file() else p.rglob("*"))}
    others = reference_documents(ruleset_dir, assignment.ruleset.players, excluded, languages) if ruleset_dir else []
    if cfg.archive:
        others += archive_documents((assignment.base / cfg.archive).resolve(), assignment.ruleset.entry, languages)
    cache = ComparisonCache(instructor_dir(assignment) / "comparisons.json")
    report = compare(subs, others, skeleton, languages=languages, k=cfg.k, window=cfg.window,
                     min_score=cfg.min_score, common_cutoff=cfg.common_cutoff, cache=cache)
    report.skipped = skipped + report.skipped
    out = InstructorReport(report)
    if results and results.get("games"):
        out.flags = find_collusion(results["games"], assignment.game, assignment.ruleset.blunder, cfg.alpha,
                                   known=cache.games())
    else:
        out.league_note = "No league results yet: run `grader run` first for the collusion check."
    cache.save()
    out.paths = write(assignment, out, results)
    return out


def write(assignment: Assignment, out: InstructorReport, results: ResultsDoc | None) -> dict[str, Path]:
    folder = instructor_dir(assignment)
    folder.mkdir(parents=True, exist_ok=True)
    paths = {"similarity page": folder / "similarity.html", "similarity csv": folder / "similarity.csv",
             "collusion json": folder / "collusion.json"}
    paths["similarity csv"].write_text(csv_text(out.similarity), encoding="utf-8")
    paths["collusion json"].write_text(json.dumps([f.to_json() for f in out.flags], indent=1), encoding="utf-8")
    names = {s["id"]: s.get("student_name") or s.get("display_name") or s["id"]
             for s in (results["submissions"] if results else [])}
    flagged = {g for f in out.flags for g in f.games}
    games = {g["id"]: g for g in (results.get("games", []) if results else []) if g["id"] in flagged}   # a stream: keep only these
    site = Path("..") / assignment.reports_dir.name
    pairs = [{"pair": p, "left": highlighted(p.a.text, p.slices_a), "right": highlighted(p.b.text, p.slices_b)}
             for p in out.similarity.pairs]
    flags = [{"flag": f, "player": names.get(f.player, f.player), "beneficiary": names.get(f.beneficiary, f.beneficiary),
              "games": [games.get(g, {"id": g}) for g in f.games]} for f in out.flags]
    html = render_page("similarity.html", title=f"Similarity and collusion — {assignment.title}",
                       report=out.similarity, pairs=pairs, flags=flags, league_note=out.league_note,
                       site=site.as_posix(), assignment=assignment.name)
    paths["similarity page"].write_text(html, encoding="utf-8")
    return paths


def saved_flags(assignment: Assignment) -> dict[str, list[str]]:
    """Submission id → one sentence per flag the last similarity report raised against it (a pair
    of similar code, a thrown game), read back from the instructor's folder; empty where no report
    was written. For the instructor's side of the grade export: a flag is shown, never graded."""
    folder = instructor_dir(assignment)
    page = folder / "similarity.html"
    flags: dict[str, list[str]] = {}
    try:
        pairs = list(csv.DictReader((folder / "similarity.csv").read_text(encoding="utf-8").splitlines()))
    except (OSError, UnicodeDecodeError, csv.Error):
        pairs = []
    for pair in pairs:
        try:
            score = float(pair.get("score") or "")
        except ValueError:
            continue
        a, b = pair.get("a") or "", pair.get("b") or ""
        other = {"submission": "submission", "reference": "this project's code",
                 "archive": "an earlier year's submission"}.get(pair.get("b_kind") or "", "code")
        flags.setdefault(a, []).append(f"similar code: {score:.0%} shared with {other} {pair.get('b_label') or b} "
                                       f"(see {page})")
        if pair.get("b_kind") == "submission":
            flags.setdefault(b, []).append(f"similar code: {score:.0%} shared with submission "
                                           f"{pair.get('a_label') or a} (see {page})")
    try:
        thrown = json.loads((folder / "collusion.json").read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError):
        thrown = []
    for flag in thrown if isinstance(thrown, list) else []:
        if isinstance(flag, dict) and isinstance(flag.get("sentence"), str):
            for sid in {flag.get("player"), flag.get("beneficiary")} - {None}:
                flags.setdefault(str(sid), []).append(f"thrown games: {flag['sentence'].rstrip('.')} (see {page})")
    return flags
