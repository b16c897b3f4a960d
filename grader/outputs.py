"""What a league run leaves behind: results.json (the one document reports are made from),
grades.csv, and the static HTML site.
"""
from __future__ import annotations

import datetime as dt
import json
import shlex
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any, Final, cast

from rulesets.base import JSON, Game, State

from . import __version__, collusion, seeds
from .assignment import Assignment
from .feedback import student_feedback
from .grading import Grade
from .grading import compute_grades as grade
from .league import LeagueRun, failed_check
from .lms.export import write_grades_csv as write_plain_grades_csv
from .penalties import apply_penalties
from .pseudonyms import pseudonym, pseudonyms
from .report import game_shard, read_shard, render_site, render_sites, submission_pages
from .results_doc import (
    AssignmentFacts,
    Crosstable,
    GameEntry,
    GradeFacts,
    PlayerStats,
    RankedBy,
    ResultsDoc,
    Standing,
    Status,
    SubmissionRow,
    Validation,
)
from .schedule import BASELINE_ROUND
from .standings import Row
from .store import GameRecord, Store


def _player_stats(stats: dict[str, PlayerStats], g: GameRecord) -> None:
    """Add one game to each submission's slowest move, peak memory and sample of captured output."""
    players = json.loads(g.players_json or "[]")
    for seat, sid in enumerate((g.seat0, g.seat1)):
        if seat >= len(players):
            continue
        p = players[seat]
        s = stats.setdefault(sid, {"slowest_move_s": 0.0, "peak_memory_mb": None, "output": "",
                                   "moves": 0, "replaced": 0})
        s["slowest_move_s"] = max(s["slowest_move_s"] or 0.0, p.get("slowest_move_s") or 0.0)
        s["moves"] += p.get("moves") or 0            # how many the course's policy replaced by random ones
        s["replaced"] += sum(i.get("kind") == "substituted" for i in p.get("incidents") or [])
        if p.get("peak_memory_mb") is not None:
            s["peak_memory_mb"] = max(s["peak_memory_mb"] or 0.0, p["peak_memory_mb"])
        if p.get("output") and len(s["output"]) < 8000:
            s["output"] += f"--- game {g.key[:10]} ---\n{p['output'][:4000]}\n"


def _add_to_crosstable(cross: Crosstable, ids: dict[str, str], g: GameRecord) -> None:
    """Add one ranked game to both seats' cells (`ids` keeps one copy of each id: a league's
    crosstable has ~90,000 cells)."""
    seat0, seat1 = ids.setdefault(g.seat0, g.seat0), ids.setdefault(g.seat1, g.seat1)
    gid = game_id(g.key)                       # shared by both seats' cells
    for x, y, px in ((seat0, seat1, g.points0), (seat1, seat0, g.points1)):
        cell = cross.setdefault(x, {}).setdefault(y, {"points": 0.0, "games": 0, "game_ids": []})
        cell["points"] += px
        cell["games"] += 1
        cell["game_ids"].append(gid)


def league_pass(store: Store, assignment: str, keys: set[str]) -> tuple[dict[str, PlayerStats], Crosstable]:
    """The players' statistics (every finished game) and the crosstable (the ranked games: a
    collusion replay or a baseline game is a flag or a pass, never a place, as in the standings),
    from one pass over the store."""
    stats: dict[str, PlayerStats] = {}
    cross: Crosstable = {}
    ids: dict[str, str] = {}
    for stored in store.each_game(assignment, keys=keys):
        if stored.status != "done":
            continue
        _player_stats(stats, stored)
        if stored.round not in (collusion.REPLAY_ROUND, BASELINE_ROUND):
            _add_to_crosstable(cross, ids, stored)
    return stats, cross


def game_id(key: str) -> str:
    return key[:16]


class Naming:
    """The names a run's entrants are shown by: on the instructor's site (`shown`: the name, or the
    pseudonym when anonymised), on the public site (`public`), and in a `grader play` line (`spec`).
    Made once per document; the pseudonyms are kept in the store, so they stay from run to run."""

    def __init__(self, assignment: Assignment, run: LeagueRun, store: Store, anonymise: bool) -> None:
        self.assignment, self.anonymise = assignment, anonymise
        self.names = {s.id: s.display_name for s in [*run.submissions, *run.entrants]}
        self.sources = {s.id: s.source for s in run.submissions}
        self.specs: dict[str, str] = {}
        self.salt = seeds.pseudonym_salt(assignment.league_key(), assignment.name)
        self.stand_ins = pseudonyms([s.id for s in run.submissions], self.salt,
                                    store.pseudonyms(assignment.name, self.salt))
        store.keep_pseudonyms(assignment.name, self.salt, self.stand_ins)

    def shown(self, sid: str) -> str:
        if self.anonymise and not sid.startswith("builtin:"):
            return self.stand_ins.get(sid) or sid
        return self.names.get(sid, sid)

    def public(self, sid: str) -> str:
        """The name on the published site: a pseudonym unless the config allows this student's name."""
        allowed = self.assignment.config.public_names
        if sid.startswith("builtin:") or allowed is True or (isinstance(allowed, list) and sid in allowed):
            return self.shown(sid)
        return self.stand_ins.get(sid) or pseudonym(sid, self.salt)

    def spec(self, sid: str) -> str:
        """How `grader play` names this entrant: a built-in's name, else the submission's path
        (resolved once per entrant, not per game)."""
        if sid.startswith("builtin:") or sid not in self.sources:
            return sid
        if sid not in self.specs:
            try:
                path = Path(self.sources[sid]).resolve().relative_to(self.assignment.base)
            except ValueError:
                path = Path(self.sources[sid])
            self.specs[sid] = shlex.quote(str(path))
        return self.specs[sid]


def submission_status(run: LeagueRun, sid: str) -> tuple[Status, str]:
    """(status, why) of one entrant: disqualified, built-in, failed (with the failing stage),
    needing a human, or valid. `why` is shown beside the status, so it never repeats it."""
    v = run.validations.get(sid)
    if sid in run.disqualified:
        return "disqualified", run.disqualified[sid]
    if sid.startswith("builtin:"):
        return "built-in", "a reference player"
    if v is None:
        sub = next((s for s in run.submissions if s.id == sid), None)
        return "failed", (sub.problem if sub else "") or "not validated"
    unread = needs_human(v)
    if unread:
        return NEEDS_HUMAN, unread
    if not v.get("passed"):
        return "failed", _failed_validation(v, beside_status=True)
    return "valid", ""


def _validation_part(v: dict[str, Any] | None) -> Validation | None:
    """What the document keeps of a stored validation report (read from the store's JSON, as written
    by `ValidationReport.to_json`)."""
    if v is None:
        return None
    return cast(Validation, {key: v.get(key) for key in ("passed", "points", "max_points", "checks", "games")})


def standing(row: Row | None) -> Standing:
    """A submission's line of the standings (all None for one that is not in them)."""
    return {"rank": row.rank if row else None, "points": row.points if row else None,
            "wins": row.wins if row else None, "draws": row.draws if row else None,
            "losses": row.losses if row else None, "games": row.games if row else None,
            "rating": row.rating if row else None, "rating_low": row.rating_low if row else None,
            "rating_high": row.rating_high if row else None}


def grade_facts(assignment: Assignment, g: Grade | None, meta: dict[str, Any] | None) -> GradeFacts:
    """The grade after the config's penalties (upload count, lateness: from the submission's
    metadata), its maximum and why."""
    grade, penalties = (g.value if g else None), []
    if g is not None and assignment.config.penalties and meta:
        applied = apply_penalties(g.value, uploads=meta.get("uploads"), uploaded_at=meta.get("uploaded_at"),
                                  config=assignment.config.penalties)
        grade, penalties = applied.points, applied.lines
    return {"grade": grade, "grade_max": g.max if g else None, "grade_reason": g.reason if g else None,
            "penalties": penalties}


NO_PLAY: PlayerStats = {"slowest_move_s": None, "peak_memory_mb": None, "output": "", "moves": 0, "replaced": 0}


def submission_rows(assignment: Assignment, run: LeagueRun, grades: dict[str, Grade],
                    stats: dict[str, PlayerStats], naming: Naming) -> list[SubmissionRow]:
    """One row per submission and built-in entrant, ranked first (in rank order), then by name."""
    rows = {r.id: r for r in run.standings.rows} if run.standings else {}
    metadata = {s.id: s.metadata for s in run.submissions}
    subs: list[SubmissionRow] = []
    for sid in [s.id for s in run.submissions] + [e.id for e in run.entrants if e.builtin]:
        status, detail = submission_status(run, sid)
        graded = grade_facts(assignment, grades.get(sid), metadata.get(sid))
        subs.append({
            "id": sid, "display_name": naming.shown(sid), "public_name": naming.public(sid), "status": status,
            "status_detail": detail, "validation": _validation_part(run.validations.get(sid)),
            **standing(rows.get(sid)), **graded,
            "student_name": (metadata.get(sid) or {}).get("name") or naming.names.get(sid, sid),
            **stats.get(sid, NO_PLAY),
        })
    subs.sort(key=lambda s: (s["rank"] is None, s["rank"] or 0, s["display_name"]))
    return subs


def assignment_facts(assignment: Assignment, run: LeagueRun, anonymise: bool) -> AssignmentFacts:
    """The document's header: the assignment, its ruleset, game, limits, league and grading."""
    lg = assignment.config.league
    ranked: RankedBy = "rating" if run.standings and run.standings.rank_by == "rating" else "points"
    return {
        "name": assignment.name, "title": assignment.title, "ruleset": assignment.ruleset.name,
        "ruleset_title": assignment.ruleset.title, "ruleset_version": assignment.ruleset.version,
        "game": assignment.game.params, "limits": assignment.describe_limits(),
        "league": {"format": lg.format, "games_per_pair": lg.games_per_pair, "seed": lg.seed, "ranked_by": ranked},
        "grading": assignment.config.grading.model_dump(),
        "generated_at": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
        "grader_version": __version__, "anonymised": anonymise,
        "summary": run.summary_line(),
    }


def results_document(assignment: Assignment, run: LeagueRun, grades: dict[str, Grade], store: Store,
                     anonymise: bool | None = None) -> ResultsDoc:
    """The whole outcome of a run as plain data (its types: grader/results_doc.py). Its `games`
    is a `GameStream`: read from the store one game at a time whenever it is iterated, so neither
    the document nor its writing holds the league's games (their moves) in memory; the
    crosstable and the players' statistics come from one pass over the store."""
    anonymise = assignment.config.anonymise if anonymise is None else anonymise
    keys = set(run.keys)
    stats, cross = league_pass(store, assignment.name, keys)
    naming = Naming(assignment, run, store, anonymise)
    return {
        "assignment": assignment_facts(assignment, run, anonymise),
        "submissions": submission_rows(assignment, run, grades, stats, naming),
        "crosstable": cross,
        "games": GameStream(assignment, store.path, keys, naming.shown, naming.spec),
    }


class GameStream:
    """The games of results.json, made from the store one at a time each time it is iterated
    (the store is opened afresh for each pass, in the store's order). Move texts are the stored
    ones, checked once a pass against the ruleset's notation today: if a store written by an older
    grader disagrees, every game is replayed for its texts; otherwise no engine state is made."""

    def __init__(self, assignment: Assignment, store_path: Path, keys: set[str], shown: Callable[[str], str],
                 spec: Callable[[str], str]) -> None:
        self.assignment, self.store_path, self.keys, self.shown, self.spec = assignment, store_path, keys, shown, spec

    def __bool__(self) -> bool:
        return bool(self.keys)

    def __iter__(self) -> Iterator[GameEntry]:
        a = self.assignment
        stale: bool | None = None                  # does the store's notation differ from today's?
        with Store(self.store_path) as store:
            for g in store.each_game(a.name, keys=self.keys):
                if g.status != "done":
                    continue
                moves = json.loads(g.moves_json or "{}")
                wires, texts = moves.get("moves", []), moves.get("texts", [])
                if stale is None and wires:
                    stale = _move_texts(a, g.seed, wires[:1], texts[:1]) != texts[:1]
                players = json.loads(g.players_json or "[]")
                seats = g.seat0, g.seat1
                yield {
                    "id": game_id(g.key), "seat0": seats[0], "seat1": seats[1], "seat0_name": self.shown(seats[0]),
                    "seat1_name": self.shown(seats[1]), "seed": g.seed, "game_index": g.game_index, "round": g.round,
                    "points": [g.points0, g.points1], "reason": g.reason, "detail": g.detail, "moves": wires,
                    "move_texts": _move_texts(a, g.seed, wires, texts) if stale else texts,
                    "scores": moves.get("scores"),
                    "times": json.loads(g.times_json or "[]"),
                    "incidents": [inc | {"seat": seat} for seat, p in enumerate(players)
                                  for inc in p.get("incidents", [])],
                    "reproduce": (f"grader play {self.spec(seats[0])} {self.spec(seats[1])} --assignment {a.name} "
                                  f"--seed {g.seed} --games 1"),
                    # private to the student and the staff: the public site never shows it (grader/report.py)
                    "losing_moves": {str(seat): found for seat, found in store.losing_moves_of(g.key).items()},
                }


NEEDS_HUMAN: Final = "needs a human"


def needs_human(v: dict[str, Any] | None) -> str | None:
    """The sentence of a stage whose output the grader could not read (a TA decides; no grade is
    recorded, so no LMS export writes one), or None."""
    check = next((c for c in (v or {}).get("checks", []) if c.get("needs_human")), None)
    return check["message"] if check else None


def _failed_validation(v: dict[str, Any] | None, limit: int = 160, beside_status: bool = False) -> str:
    """Which required stage failed and its sentence (cut short), so the standings say why. Shown
    `beside_status` (which already says "failed"), it does not say "failed" again."""
    check = failed_check(v)
    stage = check["name"] if check else "interface"
    why = " ".join(str((check or {}).get("message") or "").split())
    if len(why) > limit:
        why = why[:limit - 1].rstrip() + "…"
    lead = f"at the {stage} stage of validation" if beside_status else f"failed validation at the {stage} stage"
    return lead + (f": {why}" if why else "")


def grades_of_run(assignment: Assignment, run: LeagueRun) -> dict[str, Grade]:
    """Grades per the assignment's rule; submissions that never entered the league get the floor."""
    excluded = {}
    for sub in run.submissions:
        v = run.validations.get(sub.id)
        if sub.problem:
            excluded[sub.id] = sub.problem
        elif not v or not v.get("passed"):
            excluded[sub.id] = _failed_validation(v)
    excluded |= {sid: f"disqualified: {why}" for sid, why in run.disqualified.items()}
    cfg = assignment.config.grading
    if cfg.kind == "validation":
        return _validation_grades(run, cfg.max, excluded)
    assert run.standings is not None, "run_league gives every run its standings"
    return grade(run.standings, cfg.model_dump(), excluded=excluded, baseline_scores=run.baseline_scores)


def _validation_grades(run: LeagueRun, top: float, excluded: dict[str, str]) -> dict[str, Grade]:
    """Graded on correctness alone (UTA's rbnim): the validation points, scaled to `top`."""
    grades = {}
    for sub in run.submissions:
        v = run.validations.get(sub.id) or {}
        if needs_human(v):
            continue
        if sub.id in excluded and not v.get("max_points"):
            grades[sub.id] = Grade(0.0, top, excluded[sub.id])
            continue
        share = (v.get("points") or 0.0) / v["max_points"] if v.get("max_points") else 0.0
        what = "the program's scenarios" if v.get("kind") == "program" else "the validation stages"
        grades[sub.id] = Grade(round(top * share, 2), top, f"{share:.0%} of the points of {what}")
    return grades


def grade_rows(doc: ResultsDoc, report_url: str | None = None) -> list[dict[str, Any]]:
    """One row per student, as the LMS exports take them: id, real name, grade, and feedback text."""
    pages = submission_pages(doc) if report_url else {}
    rows = []
    for s in doc["submissions"]:
        if s["status"] in ("built-in", NEEDS_HUMAN):     # needs a human: the LMS keeps its cell as it is
            continue
        url = f"{report_url.rstrip('/')}/{pages[s['id']]}" if report_url and s["id"] in pages else None
        feedback = student_feedback(s, doc, url)
        rows.append({"student_id": s["id"], "name": s.get("student_name") or s["display_name"],
                     "grade": s["grade"] if s["grade"] is not None else 0.0, "max_grade": s["grade_max"],
                     "feedback": feedback})
    return rows


def _move_texts(assignment: Assignment, seed: int, moves: list[Any], stored: list[str]) -> list[str]:
    """The stored move texts, unless the first disagrees with the ruleset's notation today (a game
    stored by an older grader): then all of them replayed (checking one move costs nothing)."""
    first = course_notation(assignment, seed, moves[:1]) if moves else None
    if first is None or (stored and stored[0] == first[0]):
        return stored
    return course_notation(assignment, seed, moves) or stored


def course_notation(assignment: Assignment, seed: int, moves: list[Any]) -> list[str] | None:
    """Each move as the course writes it (the ruleset's `move_text`), replayed now rather than
    read from the store, so games stored by an older grader read the same; None if it fails."""
    try:
        state = assignment.game.new_state(seed)
        texts = []
        for wire in moves:
            move = state.parse_move(wire)
            texts.append(state.move_text(move))
            state.play(move)
        return texts
    except Exception:
        return None


def replay_frames(assignment: Assignment) -> Callable[[GameEntry], list[str]]:
    """frames(game) → the board SVG after each ply, replayed by the ruleset's own engine."""
    def frames(game: GameEntry) -> list[str]:
        state = assignment.game.new_state(game["seed"])
        out = [state.render_svg()]
        for wire in game.get("moves", []):
            state.play(state.parse_move(wire))
            out.append(state.render_svg())
        return out
    return frames


def replay_starts(game: Game, compact: Callable[[State], JSON]) -> Callable[[GameEntry], JSON]:
    """starts(game) → the game's start position (`compact` of new_state(seed), the ruleset's
    board_start), stored in its replay record for a board script that cannot redraw what
    Python's RNG set up."""
    def starts(record: GameEntry) -> JSON:
        return compact(game.new_state(record["seed"]))
    return starts


def site_pictures(assignment: Assignment) -> dict[str, Any]:
    """render_sites' picture arguments: the ruleset's board script (with each game's start where
    the ruleset stores it), else pictures replayed by the engine and stored in each record."""
    ruleset = assignment.ruleset
    if ruleset.board_script is None:
        return {"frames": replay_frames(assignment)}
    starts = replay_starts(assignment.game, ruleset.board_start) if ruleset.board_start else None
    return {"board": ruleset.board_script, "starts": starts}


def write_match_site(assignment: Assignment, games: list[dict[str, Any]], out: Path) -> dict[str, str]:
    """A private replay site of a few games outside any league (a practice match's), drawn by the
    site's one replay viewer and the ruleset's board as a league's are; each game's viewer address
    (relative to `out`) by the game's id. Its seats are named as the games name them."""
    seats = dict.fromkeys(str(g.get(k)) for g in games for k in ("seat0", "seat1"))
    doc = {"assignment": {"name": assignment.name, "ruleset": assignment.ruleset.name,
                          "game": assignment.game.params},
           "submissions": [{"id": name, "status": "valid"} for name in seats], "games": games}
    render_site(cast(ResultsDoc, doc), out, **site_pictures(assignment))     # a partial document, as the site reads any
    return {str(r.get("id")): f"replay.html#{game_shard(r['key'])}/{r['key']}"
            for shard in sorted((out / "games").glob("*.js")) for r in read_shard(shard.read_text(encoding="utf-8"))}


def write_results(path: Path, doc: ResultsDoc) -> None:
    """results.json written game by game (one game a line) from the document's `games`, which may
    be a `GameStream`: the file is never held whole in memory. Written beside and renamed into
    place, so a reader never sees half a file."""
    partial = path.with_name(path.name + ".partial")
    with partial.open("w", encoding="utf-8") as f:
        f.write("{\n")
        for key, value in doc.items():
            if key != "games":                    # json.dump: in pieces (the crosstable is large), not one string
                f.write(f"{json.dumps(key)}: ")
                json.dump(value, f, indent=1, default=str)
                f.write(",\n")
        f.write('"games": [')
        for n, game in enumerate(doc.get("games") or ()):
            f.write(("\n" if n == 0 else ",\n") + json.dumps(game, default=str))
        f.write("\n]}\n")
    partial.replace(path)


def write_outputs(assignment: Assignment, doc: ResultsDoc, site: bool = True,
                  on_progress: Callable[[str], None] | None = None) -> dict[str, Path]:
    out = assignment.reports_dir
    out.mkdir(parents=True, exist_ok=True)
    paths = {"results": out / "results.json", "grades": out / "grades.csv"}
    write_results(paths["results"], doc)
    write_plain_grades_csv(grade_rows(doc, assignment.config.report_url), paths["grades"])   # every LMS reads it
    if site:
        paths |= write_sites(assignment, doc, on_progress)
    return paths


class CountedGames:
    """A document's games as the sites read them (twice: the pages' index, then the games' own
    records), saying at every tenth of each pass how far it is: a large league's site takes minutes."""

    PASSES = ("pages", "game records")
    STEPS = 10

    def __init__(self, games: Iterable[GameEntry], total: int, say: Callable[[str], None]) -> None:
        self.games, self.total, self.say, self.passes = games, max(total, 1), say, 0

    def __bool__(self) -> bool:
        return bool(self.games)

    def __iter__(self) -> Iterator[GameEntry]:
        label = self.PASSES[min(self.passes, len(self.PASSES) - 1)]
        self.passes += 1
        n = 0
        for n, game in enumerate(self.games, 1):
            yield game
            if n * self.STEPS // self.total != (n - 1) * self.STEPS // self.total and n < self.total:
                self.say(f"  site: {label}, {n}/{self.total} games")
        self.say(f"  site: {label}, {n}/{n} games done")


def write_sites(assignment: Assignment, doc: ResultsDoc, on_progress: Callable[[str], None] | None = None) -> dict[str, Path]:
    """The instructor's site (full names, paths, `grader play` lines, output) in reports/<a>/,
    and the one to publish in reports/<a>/public/ (pseudonyms, nothing else private);
    `on_progress(line)` is told how far the rendering is."""
    out = assignment.reports_dir
    games = doc.get("games")
    if on_progress is not None and isinstance(games, (list, GameStream)):
        total = len(games.keys) if isinstance(games, GameStream) else len(games)
        doc = {**doc, "games": CountedGames(games, total, on_progress)}
    instructor, public = render_sites(doc, [(out, False), (out / "public", True)], **site_pictures(assignment))
    return {"instructor site": instructor, "public site (publish this folder)": public}
