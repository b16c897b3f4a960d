"""Practice matches: a student's latest passing upload against a classmate who opted in (named by the
league's pseudonym), a built-in or a course's sparring player, a few seat-swapped games (`serve.practice.games`), never graded.

Why a table and a folder of their own (`practice_matches`, `<data_dir>/practice/<id>/`): the league,
its grades and standings, and the similarity and collusion checks read `uploads` and the league's
folder only, so a practice game cannot reach them; rows and folders older than
`serve.practice.keep_days` are deleted.

Why uploads always go first: a match is claimed only when no upload waits (queued and due, or with
a dead worker's lease), and at most `serve.practice.running_max` are played at once, so with more
workers than that the others are always free for uploads. The order is decided in the claim's
transaction, not by timing.

Why no match stays "queued": one that waited longer than `serve.practice.wait_max_s`, or whose
worker failed it MAX_ATTEMPTS times, ends with a sentence (`sweep`), checked again whenever its page
is read; one that cannot be played (no passing upload, an opponent who withdrew, a full queue, the
practice turned off) is refused or ended with the sentence that says why.
"""
from __future__ import annotations

import json
import secrets
import shutil
import sys
import time
import traceback
from pathlib import Path

from .. import seeds, usecases
from ..losing_move import losing_move, result_of
from ..pseudonyms import pseudonyms
from ..store import Store
from . import accounts
from .db import Database
from .league_folder import folder_name, league_assignment
from .lease import Lease

TABLE = "practice_matches"
SCHEMA = """
CREATE TABLE IF NOT EXISTS practice_matches (
    id TEXT PRIMARY KEY, user_id INTEGER NOT NULL, assignment TEXT NOT NULL, upload_id TEXT NOT NULL,
    opponent TEXT NOT NULL, opponent_user INTEGER, opponent_name TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('queued', 'running', 'done', 'failed')),
    requested_at REAL NOT NULL, started_at REAL, attempts INTEGER NOT NULL DEFAULT 0, lease_owner TEXT, lease_until REAL,
    seed INTEGER, points REAL, opponent_points REAL, reason TEXT, finished_at REAL);
CREATE INDEX IF NOT EXISTS practice_by_user ON practice_matches (user_id, requested_at);
CREATE INDEX IF NOT EXISTS practice_by_status ON practice_matches (status, requested_at);
CREATE TABLE IF NOT EXISTS practice_optin (user_id INTEGER PRIMARY KEY, since REAL NOT NULL);
"""
MAX_ATTEMPTS = 3
SWEEP_EVERY_S = 30.0
FINISHED = ("done", "failed")


class PracticeRefused(ValueError):
    """Why a practice match is not taken (one sentence, shown to the student)."""

    def __init__(self, message: str, status: int = 409) -> None:
        super().__init__(message)
        self.status = status


def create_tables(db: Database) -> None:
    with db.transaction() as tx:
        for statement in filter(str.strip, SCHEMA.split(";")):
            tx.execute(statement)


def _lock(db: Database, tx) -> None:
    """One claimer or requester at a time (SQLite's BEGIN IMMEDIATE already admits one writer)."""
    if db.postgres:
        tx.execute(f"LOCK TABLE {TABLE} IN SHARE ROW EXCLUSIVE MODE")


# ------------------------------------------------------------------ who plays
def opted_in(db: Database, user_id: int) -> bool:
    return db.one("SELECT user_id FROM practice_optin WHERE user_id = ?", (user_id,)) is not None


def set_opt_in(db: Database, user_id: int, on: bool) -> None:
    """Offer (or withdraw) the account's latest passing uploads as classmates' practice opponents."""
    with db.transaction() as tx:
        tx.execute("DELETE FROM practice_optin WHERE user_id = ?", (user_id,))
        if on:
            tx.execute("INSERT INTO practice_optin (user_id, since) VALUES (?, ?)", (user_id, time.time()))


def latest_passing(db: Database, user_id: int, assignment: str) -> dict | None:
    return db.one("SELECT * FROM uploads WHERE user_id = ? AND assignment = ? AND status = 'done' AND passed = 1 "
                  "ORDER BY uploaded_at DESC LIMIT 1", (user_id, assignment))


def public_names(db: Database, assignment, data_dir: Path) -> dict[int, str]:
    """Every student's public pseudonym as the service's league names them (same salt, same names kept
    in its store), so a classmate is the same stand-in here and on the league's public site."""
    league = league_assignment(assignment, data_dir)
    salt = seeds.pseudonym_salt(league.league_key(), assignment.name)
    kept: dict[str, str] = {}
    if league.store_path.exists():
        with Store(league.store_path) as store:
            kept = store.pseudonyms(assignment.name, salt)
    students = accounts.students(db)
    names = pseudonyms([folder_name(s["login"]) for s in students], salt, kept)
    return {s["id"]: names[folder_name(s["login"])] for s in students}


def classmates(db: Database, assignment, data_dir: Path, user_id: int) -> dict[str, int]:
    """{pseudonym: user id} of the classmates who opted in and have a passing upload."""
    rows = db.query("SELECT DISTINCT o.user_id FROM practice_optin o JOIN uploads u ON u.user_id = o.user_id "
                    "WHERE u.assignment = ? AND u.status = 'done' AND u.passed = 1 AND o.user_id <> ?",
                    (assignment.name, user_id))
    if not rows:
        return {}
    names = public_names(db, assignment, data_dir)
    return {names[r["user_id"]]: r["user_id"] for r in rows if r["user_id"] in names}


def opponents(db: Database, assignment, data_dir: Path, settings, user_id: int) -> list[tuple[str, str]]:
    """(form value, label) of every opponent the student may pick now, built-ins first."""
    mode = settings.practice.opponents
    if mode == "off":
        return []
    out = list(usecases.course_opponents(assignment).items())
    if mode == "classmates":
        out += [(name, name) for name in sorted(classmates(db, assignment, data_dir, user_id))]
    return out


# ------------------------------------------------------------------ asking for a match
def request(db: Database, assignment, data_dir: Path, settings, user: dict, choice: str) -> dict:
    """Queue a match of the student's latest passing upload against `choice` (a built-in as
    `builtin:NAME`, a sparring player as `sparring:NAME`, or a classmate's pseudonym); the row as stored, or PracticeRefused with why."""
    rules = settings.practice
    if rules.opponents == "off":
        raise PracticeRefused("Practice matches are turned off for this course.", 403)
    mine = latest_passing(db, user["id"], assignment.name)
    if mine is None:
        raise PracticeRefused(f"You have no passing upload for {assignment.title} yet; a practice match plays "
                              f"your latest passing upload.")
    opponent_user: int | None = None
    course_players = usecases.course_opponents(assignment)
    if choice.startswith(("builtin:", "sparring:")):
        if choice not in course_players:
            raise PracticeRefused(f"{assignment.title} has no built-in or sparring player called "
                                  f"{choice.partition(':')[2]}.", 404)
        label = course_players[choice]
    elif rules.opponents == "builtins":
        raise PracticeRefused("This course allows practice against its own players only: the built-in and "
                              "sparring players.", 403)
    else:
        found = classmates(db, assignment, data_dir, user["id"]).get(choice)
        if found is None:
            raise PracticeRefused(f"{choice or 'That opponent'} is not available for practice: they withdrew, or "
                                  f"have no passing upload.")
        opponent_user, label = found, choice
    match_id = secrets.token_urlsafe(16)
    with db.transaction() as tx:
        _lock(db, tx)
        now = time.time()
        recent = tx.query(f"SELECT requested_at FROM {TABLE} WHERE user_id = ? AND requested_at > ? "
                          f"ORDER BY requested_at", (user["id"], now - rules.rate_window_s))
        if len(recent) >= rules.rate_limit:
            wait = max(1, int(recent[0]["requested_at"] + rules.rate_window_s - now) // 60 + 1)
            raise PracticeRefused(f"You asked for {len(recent)} practice matches in the last "
                                  f"{rules.rate_window_s / 60:g} minutes, the most allowed; try again in "
                                  f"{wait} minute(s).", 429)
        waiting = tx.query(f"SELECT COUNT(*) AS n FROM {TABLE} WHERE status = 'queued'")[0]["n"]
        if waiting >= rules.queue_max:
            raise PracticeRefused(f"The practice queue is full ({waiting} matches waiting); try again in a few "
                                  f"minutes.", 503)
        tx.execute(f"INSERT INTO {TABLE} (id, user_id, assignment, upload_id, opponent, opponent_user, opponent_name, "
                   f"status, requested_at) VALUES (?, ?, ?, ?, ?, ?, ?, 'queued', ?)",
                   (match_id, user["id"], assignment.name, mine["id"], choice, opponent_user, label, now))
    row = by_id(db, match_id)
    assert row is not None
    return row


def by_id(db: Database, match_id: str) -> dict | None:
    return db.one(f"SELECT * FROM {TABLE} WHERE id = ?", (match_id,))


def of_user(db: Database, user_id: int, assignment: str, last: int = 10) -> list[dict]:
    return db.query(f"SELECT * FROM {TABLE} WHERE user_id = ? AND assignment = ? ORDER BY requested_at DESC LIMIT ?",
                    (user_id, assignment, last))


def games(data_dir: Path, match_id: str) -> list[dict]:
    """The match's games as stored for its page (empty until it is played, or after it expired)."""
    try:
        return json.loads((data_dir / "practice" / match_id / "games.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return []


# ------------------------------------------------------------------ the queue
def sweep(db: Database, data_dir: Path, settings, match_id: str | None = None) -> None:
    """End what would otherwise wait for ever, each with its sentence, and delete expired matches.
    `match_id`: this match only (its page is being read)."""
    rules, now = settings.practice, time.time()
    only, args = ("AND id = ?", (match_id,)) if match_id else ("", ())
    db.execute(f"UPDATE {TABLE} SET status = 'failed', finished_at = ?, reason = ? WHERE status = 'queued' "
               f"AND requested_at < ? {only}",
               (now, (f"No worker was free for {rules.wait_max_s / 60:g} minutes (uploads are evaluated first); "
                     f"ask for the match again."), now - rules.wait_max_s, *args))
    db.execute(f"UPDATE {TABLE} SET status = 'failed', finished_at = ?, lease_owner = NULL, reason = ? "
               f"WHERE status = 'running' AND lease_until < ? AND attempts >= ? {only}",
               (now, (f"The grader itself failed to play this match {MAX_ATTEMPTS} times (not your player); "
                     f"ask again later."), now, MAX_ATTEMPTS, *args))
    if match_id:
        return
    old = db.query(f"SELECT id FROM {TABLE} WHERE requested_at < ?", (now - rules.keep_days * 86400,))
    for row in old:
        shutil.rmtree(data_dir / "practice" / row["id"], ignore_errors=True)
        db.execute(f"DELETE FROM {TABLE} WHERE id = ?", (row["id"],))


def claim(db: Database, owner: str, settings, lease_s: float) -> dict | None:
    """The oldest waiting match, now owned by `owner`; None while any upload waits, or while
    `running_max` matches are being played."""
    now = time.time()
    ready = f"status = 'queued' OR (status = 'running' AND lease_until < ? AND attempts < {MAX_ATTEMPTS})"
    if not db.query(f"SELECT id FROM {TABLE} WHERE {ready} LIMIT 1", (now,)):
        return None                     # nothing waits: no writer's lock taken (workers poll every 0.2 s)
    with db.transaction() as tx:
        _lock(db, tx)
        if tx.query("SELECT id FROM uploads WHERE (status = 'queued' AND not_before <= ?) "
                    "OR (status = 'running' AND lease_until < ?) LIMIT 1", (now, now)):
            return None
        running = tx.query(f"SELECT COUNT(*) AS n FROM {TABLE} WHERE status = 'running' AND lease_until >= ?",
                           (now,))[0]["n"]
        if running >= settings.practice.running_max:
            return None
        rows = tx.query(f"SELECT * FROM {TABLE} WHERE {ready} ORDER BY requested_at LIMIT 1", (now,))
        if not rows:
            return None
        job = rows[0]
        tx.execute(f"UPDATE {TABLE} SET status = 'running', lease_owner = ?, lease_until = ?, started_at = ?, "
                   f"attempts = attempts + 1 WHERE id = ?", (owner, now + lease_s, now, job["id"]))
    job.update(status="running", lease_owner=owner, attempts=job["attempts"] + 1)
    return job


class Cannot(Exception):
    """The match cannot be played, for a reason that is nobody's fault in the grader (one sentence)."""


def play(ctx, job: dict, owner: str) -> None:
    """Play a claimed match under its lease and store its games; a match that cannot be played ends
    with the sentence that says why; a failure of the grader itself is tried again, then ends too."""
    with Lease(ctx.db, TABLE, job["id"], owner, ctx.settings.lease_s) as lease:
        if lease.lost:
            return
        try:
            fields = _played(ctx, job)
        except (Cannot, usecases.Refused) as exc:
            fields = {"status": "failed", "reason": str(exc)}
        except Exception as exc:       # the grader's own failure, never the student's
            print(f"grader serve: practice match {job['id']} failed in the grader (attempt {job['attempts']}): "
                  f"{type(exc).__name__}: {exc}\n{traceback.format_exc()}", file=sys.stderr)
            fields = ({"status": "queued"} if job["attempts"] < MAX_ATTEMPTS else
                      {"status": "failed", "reason": f"The grader itself failed to play this match {MAX_ATTEMPTS} "
                                                     f"times (not your player); ask again later."})
    if not lease.lost:
        ctx.db.finish(TABLE, job["id"], owner, finished_at=time.time(), **fields)


def _played(ctx, job: dict) -> dict:
    assignment = ctx.assignments.get(job["assignment"])
    rules = ctx.settings.practice
    if assignment is None or rules.opponents == "off":
        raise Cannot("Practice matches were turned off before this one was played.")
    mine = ctx.db.one("SELECT * FROM uploads WHERE id = ?", (job["upload_id"],))
    if mine is None:
        raise Cannot("Your upload is no longer stored, so there was nothing to play.")
    theirs = job["opponent"]
    if job["opponent_user"] is not None:
        if rules.opponents != "classmates":
            raise Cannot("The course now allows practice against its own players only: the built-in and "
                         "sparring players.")
        if not opted_in(ctx.db, job["opponent_user"]):
            raise Cannot(f"{job['opponent_name']} withdrew from practice before the match was played.")
        latest = latest_passing(ctx.db, job["opponent_user"], assignment.name)
        if latest is None:
            raise Cannot(f"{job['opponent_name']} has no passing upload any more.")
        theirs = latest["path"]
    seed = secrets.randbits(31)
    outcome = usecases.match(assignment, mine["path"], theirs, games=rules.games, seed=seed,
                             names=("you", job["opponent_name"]))
    broken = next((g.result.infra_error for g in outcome.games if g.result.infra_error), None)
    if broken:
        raise RuntimeError(broken)
    folder = ctx.data_dir / "practice" / job["id"]
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    shown = [_shown(outcome, g) for g in outcome.games]
    on_site = [_on_site(assignment, outcome, g, s, job["opponent_name"]) for g, s in zip(outcome.games, shown)]
    replays = usecases.match_site(assignment, on_site, folder / "site")
    for game, entry in zip(shown, on_site, strict=True):
        game["replay"] = replays.get(entry["id"])
        game["losing"] = entry["losing_moves"].get(str(game["seat"]), {}).get("sentence")
    (folder / "games.json").write_text(json.dumps(shown), encoding="utf-8")
    points, opponent_points = outcome.points
    return {"status": "done", "seed": seed, "points": points, "opponent_points": opponent_points}


def _on_site(assignment, outcome: usecases.MatchOutcome, game: usecases.PlayedGame, shown: dict,
             opponent: str) -> dict:
    """One game as the match's replay site shows it (the league's viewer): the seats as "you" and the
    classmate's pseudonym, the sentence `_shown` chose, no incidents or output of either player, and
    the move that lost it where the student did not win and the ruleset has an evaluator."""
    r, seat = game.result, shown["seat"]
    names = ("you", opponent) if seat == 0 else (opponent, "you")
    lost = (losing_move(assignment.ruleset, assignment.game, game.seed, r.moves, seat)
            if result_of(r.points, seat) < 1 else None)
    return {"id": f"game-{game.number}", "seat0": names[0], "seat1": names[1], "seed": game.seed,
            "game_index": game.number, "points": list(r.points), "reason": r.reason, "detail": shown["detail"],
            "moves": r.moves, "move_texts": r.move_texts, "times": [list(t) for t in r.times],
            "losing_moves": {str(seat): lost.to_json()} if lost else {}}


def _shown(outcome: usecases.MatchOutcome, game: usecases.PlayedGame) -> dict:
    """What the student may see of one game: the moves, the result, their own player's incidents;
    never the opponent's captured output or incidents (a classmate's)."""
    seat, r = outcome.seat_of_first(game), game.result
    other = 1 - seat
    detail = r.detail
    faulted = r.reason == "start_failed" or (len(r.players) > other and r.players[other].incidents)
    if r.points[other] < r.points[seat] and faulted:       # the sentence would quote the classmate's error
        detail = f"{outcome.second.display_name}'s player failed ({r.reason}), so you won this game."
    return {"number": game.number, "seed": game.seed, "seat": seat, "points": r.points[seat],
            "opponent_points": r.points[other], "reason": r.reason, "detail": detail,
            "moves": r.move_texts or [json.dumps(m) for m in r.moves],
            "incidents": r.players[seat].incidents if len(r.players) > seat else []}
