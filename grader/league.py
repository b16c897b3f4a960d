"""The instructor's main job: validate every submission, play the league, write standings and grades.

Every decision lands in the results store as it is made, keyed by content: a validation by the
submission's hash and the validation settings, a game by (ruleset, settings, both hashes, seed,
game index). A run that is killed resumes where it stopped, and a re-run after one student
re-uploads replays only that student's games.
"""
from __future__ import annotations

import hashlib
import json
import os
import threading
import time
from collections.abc import Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.text import Text

from rulesets.base import EngineFailed

from . import adaptive, collusion
from . import schedule as sched
from .assignment import Assignment
from .executor_choice import make_executor
from .executors import Executor, concurrency
from .feedback import num
from .grading import baseline_tests
from .intake import stage_all
from .losing_move import analyse_league
from .match import GameResult
from .safetext import one_line
from .sprt import decide
from .standings import Standings, compute_standings, outcome
from .store import GameRecord, Store, SubmissionRecord, game_key
from .submissions import Submission, builtin
from .validation import ValidationReport, cores, validate

MAX_INFRA_RETRIES = 2     # a game the grader could not play is played again this often in one run, no more


@dataclass
class LeagueRun:
    """What one `grader run` did, for the terminal and for results.json."""

    assignment: Assignment
    submissions: list[Submission]
    validations: dict[str, dict]
    entrants: list[Submission]
    specs: list[sched.GameSpec]
    keys: dict[str, sched.GameSpec]
    standings: Standings | None = None
    reused: int = 0
    played: int = 0
    infra_failed: int = 0
    infra_retries: int = 0          # games replayed because the grader (not a player) failed
    retried: list[dict] = field(default_factory=list)    # each replay: the game, its attempt and why
    changed: list[str] = field(default_factory=list)
    gone: list[str] = field(default_factory=list)       # in the store from earlier runs, no longer in the folder
    disqualified: dict[str, str] = field(default_factory=dict)
    seconds: float = 0.0
    baseline_scores: dict[str, dict[str, list[float]]] = field(default_factory=dict)   # grading's tests
    collusion_replays: int = 0      # games scheduled for suspicious pairs (round "collusion replay")

    def summary_line(self) -> str:
        changed = f": {len(self.changed)} submission(s) new or changed" if self.changed else ""
        infra = f", {self.infra_failed} could not be played by the grader (retried next run)" if self.infra_failed else ""
        retried = f", {self.infra_retries} replayed after a grader failure" if self.infra_retries else ""
        named = ", ".join(self.gone[:5]) + (f" and {len(self.gone) - 5} more" if len(self.gone) > 5 else "")
        gone = f"; left out: {len(self.gone)} earlier submission(s) no longer in the folder ({named})" if self.gone else ""
        replays = (f", {self.collusion_replays} of them replaying suspicious pairs for the collusion check"
                   if self.collusion_replays else "")
        return f"{self.reused} games reused, {self.played} played{replays}{changed}{retried}{infra}{gone}."


def validation_key(assignment: Assignment, sub: Submission) -> str:
    """Validation is redone when the submission, the ruleset or the validation settings change."""
    doc = {"hash": sub.content_hash, "ruleset": assignment.ruleset.name, "version": assignment.ruleset.version,
           "validation": assignment.config.validation.model_dump(), "game": assignment.game.params,
           "limits": assignment.describe_limits(), "options": assignment.config.options}
    return hashlib.sha256(json.dumps(doc, sort_keys=True, default=str).encode()).hexdigest()


def check_document(assignment: Assignment, sub: Submission, report: ValidationReport) -> dict:
    """A check's verdict as it is kept: its report with the key of what it checked (`validation_key`),
    so that a league given it (`validate_all`'s `checked`) knows whether it judged these very bytes
    under these very settings."""
    return report.to_json() | {"key": validation_key(assignment, sub)}


def validate_all(assignment: Assignment, subs: list[Submission], store: Store, factory=None,
                 on_progress=None, on_stage=None, checked: Mapping[str, dict] | None = None,
                 ) -> tuple[dict[str, dict], list[str]]:
    """Validate what changed, reuse the rest; returns (validation docs by id, ids new to the store).
    `checked`: verdicts already given to these submissions, by id (`check_document`: the upload
    service's, which the student has seen). One submission gets one verdict: a verdict whose key is
    this submission's under these settings is its validation, never checked again with another seed."""
    known = {r.id: r for r in store.submissions(assignment.name)}
    docs: dict[str, dict] = {}
    todo: list[Submission] = []
    given: list[tuple[Submission, dict]] = []
    for sub in subs:
        rec = known.get(sub.id)
        key = validation_key(assignment, sub)
        seen = (checked or {}).get(sub.id)
        if seen is not None and seen.get("key") == key:
            docs[sub.id] = seen | {"submission": sub.id}
            if not (rec and rec.validation_json and json.loads(rec.validation_json) == docs[sub.id]):
                given.append((sub, docs[sub.id]))
        elif rec and rec.validation_json and json.loads(rec.validation_json).get("key") == key:
            docs[sub.id] = json.loads(rec.validation_json)
        else:
            todo.append(sub)

    workers = max(1, min(len(todo), os.cpu_count() or 1))
    per_submission = max(1, cores() // workers)         # fresh-process positions at once, per validation

    def run(sub: Submission) -> tuple[Submission, ValidationReport]:
        told = (lambda title: on_stage(sub, title, len(todo))) if on_stage else None
        try:
            return sub, validate(assignment, sub, factory=factory, on_stage=told, workers=per_submission)
        except EngineFailed:                # the game's own program failed (grader/referee.py): once more,
            #                                 with a fresh one; a second failure stops the run (usecases.run)
            return sub, validate(assignment, sub, factory=factory, on_stage=told, workers=per_submission)

    for sub, doc in given:
        _keep(assignment, store, sub, doc)
    with ThreadPoolExecutor(max_workers=workers) as pool:
        for sub, report in pool.map(run, todo):
            docs[sub.id] = check_document(assignment, sub, report)
            _keep(assignment, store, sub, docs[sub.id])
            if on_progress:
                on_progress(sub, report, len(todo))
    return docs, [s.id for s in todo] + [s.id for s, _ in given]


def failed_check(doc: dict | None) -> dict | None:
    """The first required stage a stored verdict failed (None when none did)."""
    return next((c for c in (doc or {}).get("checks") or [] if c["required"] and not c["passed"]
                 and not c.get("informational")), None)


def _keep(assignment: Assignment, store: Store, sub: Submission, doc: dict) -> None:
    """One submission's verdict into the store, where the next run finds it."""
    failed = failed_check(doc)
    store.upsert_submission(SubmissionRecord(
        assignment=assignment.name, id=sub.id, name=sub.display_name, path=str(sub.source),
        content_hash=sub.content_hash, status="valid" if doc.get("passed") else "failed",
        status_detail="" if doc.get("passed") else f"failed validation: {failed['name'] if failed else 'interface'}",
        validation_json=json.dumps(doc), validated_at=time.time()))


def _schedule(assignment: Assignment, ids: list[str], builtins: list[str]) -> list[sched.GameSpec]:
    lg = assignment.config.league
    seed = lg.seed
    gpp = lg.games_per_pair
    if lg.format == "gauntlet":
        specs = sched.gauntlet(ids, [f"builtin:{b}" for b in lg.gauntlet], gpp, seed)
    elif lg.format == "adaptive":
        specs = []                                      # played wave by wave: _adaptive_waves
    elif lg.format == "random_subset":
        specs = sched.random_opponents(ids + builtins, lg.opponents, gpp, seed)
    else:
        specs = sched.round_robin(ids + builtins, gpp, seed)
    must_beat = assignment.config.grading.must_beat
    if must_beat and lg.format != "gauntlet":
        specs += sched.gauntlet(ids, [f"builtin:{must_beat}"], gpp, seed)
    return _dedupe(specs)


def _dedupe(specs: list[sched.GameSpec]) -> list[sched.GameSpec]:
    seen, out = set(), []
    for s in specs:
        k = (s.seat0, s.seat1, s.seed, s.game_index)
        if k not in seen:
            seen.add(k)
            out.append(s)
    return out


def run_league(assignment: Assignment, fresh: bool = False, executor: Executor | None = None,
               factory=None, progress: bool = True, console=None,
               checked: Mapping[str, dict] | None = None) -> LeagueRun:
    """Validate, play every game not already in the store, compute standings. Resumable.
    `checked`: verdicts the submissions already have, by id (`validate_all`)."""
    t0 = time.perf_counter()
    assignment.reports_dir.mkdir(parents=True, exist_ok=True)
    store = Store(assignment.store_path)
    assignment.league_key()        # the seat seeds' secret, read here so every worker gets it (grader/seeds.py)
    try:
        if fresh:
            store.clear(assignment.name)
        run_id = store.start_run(assignment.name, assignment.play_settings(), assignment.config.league.seed)
        subs = stage_all(assignment)
        _say(console, f"{len(subs)} submission(s) in {assignment.submissions_dir}")
        for sub in subs:
            if sub.problem:
                _say(console, f"  {sub.id}: {sub.problem}")
        shown = ValidationProgress(console if progress else None)
        validations, changed = validate_all(assignment, subs, store, factory=factory, on_progress=shown.finished,
                                            on_stage=shown.stage, checked=checked)
        records = {r.id: r for r in store.submissions(assignment.name)}
        disq = {i: r.status_detail for i, r in records.items() if r.status == "disqualified"
                and r.content_hash == next((s.content_hash for s in subs if s.id == i), None)}
        valid = [s for s in subs if validations.get(s.id, {}).get("passed") and s.id not in disq
                 and validations[s.id].get("kind", "module") == "module"]     # programs play no games
        lg = assignment.config.league
        builtin_names = sorted(set(lg.builtins) | (set(lg.gauntlet) if lg.format == "gauntlet" else set())
                               | {b for b in [assignment.config.grading.must_beat] if b}
                               | set(tested_baselines(assignment)))
        builtins = {f"builtin:{b}": builtin(assignment.ruleset, b) for b in builtin_names}
        league_builtins = [f"builtin:{b}" for b in lg.builtins]
        entrants = {s.id: s for s in valid} | builtins
        specs = _schedule(assignment, [s.id for s in valid], league_builtins)

        present = {s.id for s in subs}
        gone = sorted(i for i in records if i not in present and not i.startswith("builtin:"))
        run = LeagueRun(assignment, subs, validations, list(entrants.values()), specs, {}, changed=changed,
                        gone=gone, disqualified=dict(disq))
        _play(assignment, store, run, specs, entrants, executor, factory, run_id, progress, console)
        if lg.format == "adaptive":
            _adaptive_waves(assignment, store, run, entrants, executor, factory, run_id, progress, console)
        if lg.format == "random_subset":
            interim = _standings(assignment, store, run, entrants)
            playoff_ids = [r.id for r in interim.rows if not r.id.startswith("builtin:")]
            playoff = sched.playoff(playoff_ids, lg.top_fraction, lg.games_per_pair, lg.seed,
                                    points={r.id: interim.score(r) for r in interim.rows})
            playoff = [s for s in playoff if (s.seat0, s.seat1, s.seed, s.game_index) not in
                       {(x.seat0, x.seat1, x.seed, x.game_index) for x in specs}]
            run.specs = specs + playoff
            _play(assignment, store, run, playoff, entrants, executor, factory, run_id, progress, console)
        if tested_baselines(assignment):
            _baseline_games(assignment, store, run, [s.id for s in valid], entrants, executor, factory, run_id,
                          progress, console)
        if lg.collusion.replay:
            _collusion_replays(assignment, store, run, [s.id for s in valid], entrants, executor, factory, run_id,
                               progress, console)
        run.standings = _standings(assignment, store, run, entrants)
        analyse_league(assignment.ruleset, assignment.game, store, assignment.name, set(run.keys),
                       workers=concurrency(assignment))
        run.seconds = time.perf_counter() - t0
        store.finish_run(run_id, {"reused": run.reused, "played": run.played, "infra_failed": run.infra_failed,
                                  "infra_retries": run.infra_retries, "retried": run.retried,
                                  "changed": run.changed, "gone": run.gone, "standings": run.standings.to_json(),
                                  "seconds": round(run.seconds, 2)})
        return run
    finally:
        store.close()


def adaptive_settings(assignment: Assignment) -> tuple[adaptive.AdaptiveSettings, list[float], int]:
    """The adaptive league's settings, and its cuts for n players: the top fraction (the playoff
    line) and every grade band's edge."""
    cfg = assignment.config.league.adaptive
    settings = adaptive.AdaptiveSettings(first_opponents=cfg.first_opponents, wave_opponents=cfg.wave_opponents,
                                         confidence=cfg.confidence, budget=cfg.budget, wave_share=cfg.wave_share,
                                         waves=cfg.waves)
    fractions = [assignment.config.league.top_fraction]
    if assignment.config.grading.kind == "bands":
        fractions += [float(f) for f, _ in assignment.config.grading.bands]
    return settings, fractions, assignment.config.league.games_per_pair


def _adaptive_waves(assignment: Assignment, store: Store, run: LeagueRun, entrants, executor, factory, run_id,
                    progress, console) -> None:
    """Waves until every cut is separated or the budget is spent; each wave's games are stored as
    they finish, and every wave follows from the stored results, so a killed run resumes mid-wave."""
    lg = assignment.config.league
    settings, fractions, gpp = adaptive_settings(assignment)
    ids = sorted(i for i in entrants if not i.startswith("builtin:") or i in {f"builtin:{b}" for b in lg.builtins})
    cuts = adaptive.cut_places(len(ids), fractions)
    by_key: dict[str, sched.GameSpec] = {}
    own = executor is None
    executor = executor or make_executor(assignment)

    def play(specs: list[sched.GameSpec]):
        run.specs = run.specs + specs
        _play(assignment, store, run, specs, entrants, executor, factory, run_id, progress, console)
        by_key.update({_key(assignment, s, entrants): s for s in specs})
        results = {(by_key[k].pairing, by_key[k].game_index): (p0, p1)
                   for k, (seat0, seat1, p0, p1) in store.scores(assignment.name).items()
                   if k in by_key and seat0 not in run.disqualified and seat1 not in run.disqualified}
        return results, [i for i in ids if i not in run.disqualified]

    def said(wave: adaptive.Wave) -> None:
        if wave.specs:
            doubt = f", {len(wave.straddling)} player(s) near a cut" if wave.number > 1 else ""
            _say(console, f"adaptive wave {wave.number}: {len(wave.specs)} game(s){doubt}")
        else:
            _say(console, f"adaptive league over after {wave.number - 1} wave(s): {wave.reason}")

    try:
        adaptive.run_waves(ids, cuts, gpp, lg.seed, settings, play, on_wave=said)
    finally:
        if own:
            executor.close()


def tested_baselines(assignment: Assignment) -> list[str]:
    """The built-ins a grade is decided against by the sequential test (must_beat, the rules of
    thresholds and ladder), without the "builtin:" prefix; empty for other kinds."""
    tests = baseline_tests(assignment.config.grading.model_dump())
    return list(dict.fromkeys(b.removeprefix("builtin:") for b, _ in tests))


def _baseline_games(assignment: Assignment, store: Store, run: LeagueRun, ids: list[str], entrants, executor,
                    factory, run_id, progress, console) -> None:
    """Each student against each built-in a grade is decided against, one seat-swapped twin at a
    time for every pair still undecided, until the sequential test decides it or max_games is
    reached (grading.baseline_tests): a pass against a built-in is never decided on the league's
    few games. The league's own games against it count first; the games of a pair are numbered on
    from them (round BASELINE_ROUND, left out of the standings), so a re-run finds them all."""
    tests = baseline_tests(assignment.config.grading.model_dump())
    seed = assignment.config.league.seed
    baselines = [f"builtin:{b}" for b in tested_baselines(assignment)]
    own = executor is None
    executor = executor or make_executor(assignment)
    try:
        while True:
            pairs = _baseline_pairs(assignment, store, run, ids, baselines, entrants)
            wave = []
            scheduled: dict[str, int] = {}              # games of each pairing scheduled, infra ones too
            for spec in run.keys.values():
                scheduled[spec.pairing] = max(scheduled.get(spec.pairing, 0), spec.game_index + 1)
            for (sid, base), games in sorted(pairs.items()):
                start = scheduled.get(sched.pairing_name(sid, base), 0)
                scores = [x for _, x in games]
                if sid in run.disqualified or all(decide(scores, t).decided or start >= t.max_games
                                                  for b, t in tests if b == base):
                    continue
                wave += sched.more_games(sid, base, start, 2, seed, sched.BASELINE_ROUND)
            run.baseline_scores = {sid: {} for sid in ids}
            for (sid, base), games in pairs.items():
                run.baseline_scores[sid][base] = [x for _, x in games]
            if not wave:
                return
            run.specs = run.specs + wave
            _play(assignment, store, run, wave, entrants, executor, factory, run_id, progress, console)
    finally:
        if own:
            executor.close()


def replay_settings(assignment: Assignment) -> collusion.ReplaySettings:
    """league.collusion, with the similarity report's false-flag rate (the test the replays feed)."""
    cfg = assignment.config.league.collusion
    alpha = assignment.config.similarity.alpha if assignment.config.similarity else collusion.ALPHA
    return collusion.ReplaySettings(replay=cfg.replay, screen=cfg.screen, max_games=cfg.max_games, alpha=alpha)


def _collusion_replays(assignment: Assignment, store: Store, run: LeagueRun, ids: list[str], entrants, executor,
                       factory, run_id, progress, console) -> None:
    """Suspicious pairs of students play more seat-swapped twins (round "collusion replay") until
    the collusion check's corrected test can decide them; see grader/collusion.py. Each wave
    follows from the stored results, so a re-run finds every replay in the store."""
    settings = replay_settings(assignment)
    seed = assignment.config.league.seed
    own = executor is None
    executor = executor or make_executor(assignment)

    def play(pairs: list[tuple[str, str]]) -> list[dict]:
        scheduled: dict[str, int] = {}              # games of each pairing scheduled, infra ones too
        for spec in run.keys.values():
            scheduled[spec.pairing] = max(scheduled.get(spec.pairing, 0), spec.game_index + 1)
        wave = [g for a, b in pairs
                for g in sched.more_games(a, b, scheduled.get(sched.pairing_name(a, b), 0), 2, seed,
                                          collusion.REPLAY_ROUND)]
        _say(console, f"collusion replay: {len(wave)} game(s) for {len(pairs)} suspicious pair(s)")
        run.specs = run.specs + wave
        run.collusion_replays += len(wave)
        _play(assignment, store, run, wave, entrants, executor, factory, run_id, progress, console)
        return league_games(assignment, store, run)

    try:
        collusion.replay_suspicious(league_games(assignment, store, run),
                                    [i for i in ids if i not in run.disqualified], settings, play)
    finally:
        if own:
            executor.close()


def league_games(assignment: Assignment, store: Store, run: LeagueRun) -> list[dict]:
    """This run's finished games without disqualified players, as the collusion check reads them."""
    return [{"id": g.key, "seat0": g.seat0, "seat1": g.seat1, "points": [g.points0, g.points1], "seed": g.seed,
             "game_index": g.game_index, "round": g.round}
            for g in store.games(assignment.name, keys=set(run.keys)) if g.status == "done"
            and g.seat0 not in run.disqualified and g.seat1 not in run.disqualified]


def _baseline_pairs(assignment: Assignment, store: Store, run: LeagueRun, ids: list[str], baselines: list[str],
                  entrants) -> dict[tuple[str, str], list[tuple[int, float]]]:
    """{(student, baseline): [(game_index, the student's score)] in game order} over this run's games."""
    scores = store.scores(assignment.name)
    pairs: dict[tuple[str, str], list[tuple[int, float]]] = {(s, b): [] for s in ids for b in baselines}
    for key, spec in run.keys.items():
        if key not in scores:
            continue
        seat0, seat1, p0, p1 = scores[key]
        for me, other, kind in ((seat0, seat1, outcome(p0, p1)[0]), (seat1, seat0, outcome(p0, p1)[1])):
            if (me, other) in pairs:
                pairs[me, other].append((spec.game_index, {"win": 1.0, "draw": 0.5}.get(kind, 0.0)))
    return {k: sorted(v) for k, v in pairs.items()}


def _say(console, text: str) -> None:
    if console is not None:
        console.print(escape(text))


class ValidationProgress:
    """Which submission is in which stage, and how many are left: one short line per event, so an
    80-column CI log stays readable (validation can take minutes before the first game)."""

    WIDTH = 79

    def __init__(self, console) -> None:
        self.console, self.done, self.lock = console, 0, threading.Lock()
        self.started: dict[str, int] = {}

    def _line(self, text: str) -> None:
        if self.console is not None:
            self.console.print(escape(text if len(text) <= self.WIDTH else text[:self.WIDTH - 1] + "…"),
                               soft_wrap=True, overflow="ignore", crop=False)

    def stage(self, sub: Submission, title: str, total: int) -> None:
        with self.lock:
            n = self.started.setdefault(sub.id, len(self.started) + 1)
        self._line(f"  validating {n}/{total} {_short(sub.display_name)}: {title}")

    def finished(self, sub: Submission, report: ValidationReport, total: int) -> None:
        with self.lock:
            self.done += 1
            left = total - self.done
        state = "valid" if report.passed else f"FAILED at {report.failed_stage}"
        self._line(f"  validated {_short(sub.display_name)}: {state}, {num(report.points)}/{num(report.max_points)} "
                   f"points ({left} left)")


def _short(name: str, width: int = 24) -> str:

    name = one_line(name)
    return name if len(name) <= width else name[:width - 1] + "…"


def _key(assignment: Assignment, spec: sched.GameSpec, entrants: dict[str, Submission]) -> str:
    return game_key(assignment.ruleset.name, assignment.ruleset.version, assignment.play_settings(),
                    entrants[spec.seat0].content_hash, entrants[spec.seat1].content_hash, spec.seed,
                    spec.game_index)


def _play(assignment, store: Store, run: LeagueRun, specs, entrants, executor, factory, run_id, progress,
          console) -> None:
    finished = store.finished_keys(assignment.name)
    todo = []
    for spec in specs:
        key = _key(assignment, spec, entrants)
        run.keys[key] = spec
        if key in finished:
            run.reused += 1
        else:
            todo.append((key, spec))
    if not todo:
        return
    own = executor is None
    executor = executor or make_executor(assignment)
    try:
        attempts: dict[str, int] = {}
        pending = list(todo)
        with _progress(progress, console, len(todo)) as advance:
            while pending:
                retry = []
                jobs = [(key, spec, entrants[spec.seat0], entrants[spec.seat1]) for key, spec in pending
                        if spec.seat0 not in run.disqualified and spec.seat1 not in run.disqualified]
                for key, spec, result in executor.play(assignment, jobs, factory=factory,
                                                       skip=lambda s: s.seat0 in run.disqualified
                                                       or s.seat1 in run.disqualified):
                    if result.infra_error:
                        attempts[key] = attempts.get(key, 0) + 1
                        run.retried.append({"game": key, "pairing": spec.pairing, "attempt": attempts[key],
                                            "why": one_line(result.detail or result.infra_error)[:300]})
                        if attempts[key] <= MAX_INFRA_RETRIES:
                            run.infra_retries += 1
                            retry.append((key, spec))
                            continue
                        run.infra_failed += 1
                    else:
                        run.played += 1
                    _save(assignment, store, run_id, key, spec, entrants, result)
                    for seat, reason in result.disqualified.items():
                        sid = (spec.seat0, spec.seat1)[seat]
                        if not sid.startswith("builtin:") and sid not in run.disqualified:
                            run.disqualified[sid] = reason
                            store.set_status(assignment.name, sid, "disqualified", reason)
                            _say(console, f"  disqualified {entrants[sid].display_name}: {reason}")
                    advance()
                pending = retry
    finally:
        if own:
            executor.close()


def _save(assignment, store: Store, run_id: int, key: str, spec, entrants, result: GameResult) -> None:
    players = [vars(p) for p in result.players]
    store.save_game(GameRecord(
        key=key, assignment=assignment.name, run_id=run_id, pairing=spec.pairing, seat0=spec.seat0,
        seat1=spec.seat1, seat0_hash=entrants[spec.seat0].content_hash,
        seat1_hash=entrants[spec.seat1].content_hash, seed=spec.seed, game_index=spec.game_index,
        round=spec.round, points0=result.points[0], points1=result.points[1], reason=result.reason,
        detail=result.detail, moves_json=json.dumps({"moves": result.moves, "texts": result.move_texts,
                                                     "scores": list(result.scores)}),
        times_json=json.dumps(result.times), players_json=json.dumps(players),
        status="infra" if result.infra_error else "done", finished_at=time.time()))
    for rec in result.players:
        for inc in rec.incidents:
            if inc["kind"] != "substituted":
                store.add_incident(assignment.name, rec.id, key, inc["kind"], inc["message"])


def _standings(assignment: Assignment, store: Store, run: LeagueRun, entrants) -> Standings:
    """Standings over this schedule's finished games, without disqualified players' games, the
    collusion check's replays (they decide a flag, never a place) and the games a grade's test
    against a built-in played on (they decide a pass, never a place)."""
    results = [(g["seat0"], g["seat1"], *g["points"]) for g in league_games(assignment, store, run)
               if g["round"] not in (collusion.REPLAY_ROUND, sched.BASELINE_ROUND)]
    participants = [i for i in entrants if i not in run.disqualified]
    return compute_standings(results, participants, run.disqualified, rank_by=rank_by(assignment))


def rank_by(assignment: Assignment) -> str:
    """Ranking by rating where players play different opponents and different numbers of games
    (random_subset, adaptive); by points where everyone plays the same games (round robin, gauntlet)."""
    return "rating" if assignment.config.league.format in ("random_subset", "adaptive") else "points"


class _progress:
    """A rich progress bar (games done, games per second, time left); on a console that is not a
    terminal (a CI log, a pipe) a plain "games: done/total" line at every tenth instead; or nothing."""

    STEPS = 10

    def __init__(self, enabled: bool, console, total: int):
        self.enabled, self.console, self.total = enabled and console is not None, console, total
        self.done = 0

    def _line(self) -> None:
        self.done += 1
        if self.done == self.total or self.done * self.STEPS // self.total != (self.done - 1) * self.STEPS // self.total:
            self.console.print(f"  games: {self.done}/{self.total} played", soft_wrap=True)

    def __enter__(self):
        if not self.enabled:
            return lambda: None
        if not self.console.is_terminal:
            self.enabled = False
            return self._line
        class Rate(TextColumn):
            def render(self, task):
                speed = task.finished_speed or task.speed
                return Text(f"{speed:.1f} games/s" if speed else "… games/s")

        self.bar = Progress(TextColumn("games"), BarColumn(), MofNCompleteColumn(), Rate(""),
                            TimeRemainingColumn(), console=self.console, transient=False)
        self.bar.__enter__()
        task = self.bar.add_task("games", total=self.total)
        return lambda: self.bar.advance(task)

    def __exit__(self, *exc):
        if self.enabled:
            self.bar.__exit__(*exc)
        return False
