"""The durable results store: one SQLite file holding every validation, game, incident and run.

Why SQLite: a league of a few hundred students runs for hours; a killed run must resume where it
stopped, and an instructor must be able to answer questions with the `sqlite3` shell. The file is
in WAL mode with `synchronous=NORMAL`: a commit is atomic and survives the writer being killed
(`kill -9`); only a power cut may lose the last few commits, which the next run simply replays.
Every write method commits before it returns (one commit per finished game), so a game the league
saw saved is in the file.

Schema (query it with `sqlite3 reports/<name>/results.sqlite`):

    submissions(assignment, id, name, path, content_hash, status, status_detail, validation_json,
                validated_at)                        PRIMARY KEY (assignment, id)
        status: "valid" | "failed" | "disqualified"; status_detail: why, as a sentence.
    games(key PRIMARY KEY, assignment, run_id, pairing, seat0, seat1, seat0_hash, seat1_hash, seed,
          game_index, round, points0, points1, reason, detail, moves_json, times_json, players_json,
          status, finished_at)
        key: `game_key(...)`, a sha256 of everything that affects play; status: "done" (scored) or
        "infra" (the grader's own failure: never scored, replayed by the next run).
        players_json: per seat, incidents, peak memory, cpu/wall totals and trimmed output.
    incidents(assignment, submission, game_key, kind, message, at)
    runs(id INTEGER PRIMARY KEY, assignment, started_at, finished_at, config_json, seed, summary_json)
    pseudonyms(assignment, salt, id, name)           PRIMARY KEY (assignment, salt, id)
        the public site's stand-in names, kept so a student keeps its name from run to run.
    losing_moves(assignment, key, seat, losing_json)  PRIMARY KEY (key, seat)
        the move that lost a seat's game (grader/losing_move.py), cached with the game's key; "null"
        when the game was analysed and none was found. Private: the public site never reads it.

Times are Unix seconds (REAL). Example: `SELECT seat0, seat1, points0, points1 FROM games
WHERE assignment='quoridor' AND status='done';`
"""
from __future__ import annotations

import hashlib
import json
import re
import sqlite3
import threading
import time
from collections.abc import Iterator
from dataclasses import astuple, dataclass, fields
from pathlib import Path
from typing import Literal

from .results_doc import LosingMove

SCHEMA_VERSION = 1
SUBMISSION_STATUSES = ("valid", "failed", "disqualified")
GAME_STATUSES = ("done", "infra")

_SCHEMA = """
CREATE TABLE IF NOT EXISTS submissions (
    assignment TEXT NOT NULL, id TEXT NOT NULL, name TEXT, path TEXT, content_hash TEXT,
    status TEXT NOT NULL CHECK (status IN ('valid', 'failed', 'disqualified')),
    status_detail TEXT, validation_json TEXT, validated_at REAL,
    PRIMARY KEY (assignment, id));
CREATE TABLE IF NOT EXISTS games (
    key TEXT PRIMARY KEY, assignment TEXT NOT NULL, run_id INTEGER, pairing TEXT,
    seat0 TEXT NOT NULL, seat1 TEXT NOT NULL, seat0_hash TEXT, seat1_hash TEXT,
    seed INTEGER, game_index INTEGER, round TEXT, points0 REAL, points1 REAL, reason TEXT, detail TEXT,
    moves_json TEXT, times_json TEXT, players_json TEXT,
    status TEXT NOT NULL CHECK (status IN ('done', 'infra')), finished_at REAL);
CREATE INDEX IF NOT EXISTS games_assignment ON games (assignment, status);
CREATE TABLE IF NOT EXISTS incidents (
    assignment TEXT NOT NULL, submission TEXT NOT NULL, game_key TEXT, kind TEXT NOT NULL,
    message TEXT, at REAL);
CREATE INDEX IF NOT EXISTS incidents_by_submission ON incidents (assignment, submission);
CREATE INDEX IF NOT EXISTS incidents_by_game ON incidents (game_key);
CREATE TABLE IF NOT EXISTS pseudonyms (
    assignment TEXT NOT NULL, salt TEXT NOT NULL, id TEXT NOT NULL, name TEXT NOT NULL,
    PRIMARY KEY (assignment, salt, id));
CREATE TABLE IF NOT EXISTS losing_moves (
    assignment TEXT NOT NULL, key TEXT NOT NULL, seat INTEGER NOT NULL, losing_json TEXT,
    PRIMARY KEY (key, seat));
CREATE TABLE IF NOT EXISTS runs (
    id INTEGER PRIMARY KEY AUTOINCREMENT, assignment TEXT NOT NULL, started_at REAL, finished_at REAL,
    config_json TEXT, seed INTEGER, summary_json TEXT);
"""


@dataclass
class SubmissionRecord:
    assignment: str
    id: str
    name: str
    path: str
    content_hash: str
    status: str
    status_detail: str = ""
    validation_json: str | None = None
    validated_at: float | None = None


@dataclass
class GameRecord:
    key: str
    assignment: str
    run_id: int | None
    pairing: str
    seat0: str
    seat1: str
    seat0_hash: str
    seat1_hash: str
    seed: int
    game_index: int
    round: str
    points0: float
    points1: float
    reason: str
    detail: str = ""
    moves_json: str = "{}"
    times_json: str = "[]"
    players_json: str = "[]"
    status: str = "done"
    finished_at: float | None = None


@dataclass
class Incident:
    assignment: str
    submission: str
    game_key: str | None
    kind: str
    message: str
    at: float


def game_key(ruleset: str, ruleset_version: str, play_settings: dict, seat0_hash: str, seat1_hash: str,
             seed: int, game_index: int) -> str:
    """The cache key of one game: changes when anything that affects play changes, and only then.

    Seat order matters (seat0 first), settings are compared as canonical JSON (sorted keys), so a
    reordered config dict gives the same key.
    """
    doc = {"ruleset": ruleset, "version": str(ruleset_version), "settings": play_settings,
           "seat0": seat0_hash, "seat1": seat1_hash, "seed": int(seed), "game_index": int(game_index)}
    canonical = json.dumps(doc, sort_keys=True, separators=(",", ":"), ensure_ascii=True, default=str)
    return hashlib.sha256(canonical.encode()).hexdigest()


def _columns(cls) -> list[str]:
    return [f.name for f in fields(cls)]


class Store:
    """All reads and writes of the results file; one instance per process, safe across threads."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.RLock()
        self._db = sqlite3.connect(str(self.path), timeout=30.0, check_same_thread=False,
                                   isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.execute("PRAGMA foreign_keys=ON")
        with self._transaction():
            for statement in _SCHEMA.split(";"):
                if statement.strip():
                    self._db.execute(statement)
            if self._db.execute("PRAGMA user_version").fetchone()[0] == 0:
                self._db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")

    # -- plumbing ---------------------------------------------------------------------------------
    def _transaction(self):
        store = self

        class _Tx:
            def __enter__(self):
                store._lock.acquire()
                store._db.execute("BEGIN IMMEDIATE")

            def __exit__(self, exc_type, exc, tb):
                try:
                    store._db.execute("ROLLBACK" if exc_type else "COMMIT")
                finally:
                    store._lock.release()
                return False

        return _Tx()

    def _query(self, sql: str, args: tuple = ()) -> list[tuple]:
        with self._lock:
            return self._db.execute(sql, args).fetchall()

    def close(self) -> None:
        """Closing twice is harmless; any use after it raises sqlite3.ProgrammingError."""
        with self._lock:
            self._db.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc) -> Literal[False]:
        self.close()
        return False

    # -- submissions ------------------------------------------------------------------------------
    def upsert_submission(self, rec: SubmissionRecord) -> None:
        if rec.status not in SUBMISSION_STATUSES:
            raise ValueError(f"submission status must be one of {', '.join(SUBMISSION_STATUSES)}, "
                             f"not {rec.status!r}.")
        cols = _columns(SubmissionRecord)
        with self._transaction():
            self._db.execute(f"INSERT OR REPLACE INTO submissions ({', '.join(cols)}) "
                             f"VALUES ({', '.join('?' * len(cols))})", astuple(rec))

    def submissions(self, assignment: str) -> list[SubmissionRecord]:
        cols = _columns(SubmissionRecord)
        rows = self._query(f"SELECT {', '.join(cols)} FROM submissions WHERE assignment=? ORDER BY id",
                           (assignment,))
        return [SubmissionRecord(*row) for row in rows]

    def set_status(self, assignment: str, sub_id: str, status: str, detail: str) -> None:
        """Change a known submission's status (e.g. disqualify it mid-league); unknown ids are an error."""
        if status not in SUBMISSION_STATUSES:
            raise ValueError(f"submission status must be one of {', '.join(SUBMISSION_STATUSES)}, "
                             f"not {status!r}.")
        with self._transaction():
            cur = self._db.execute("UPDATE submissions SET status=?, status_detail=? WHERE assignment=? AND id=?",
                                   (status, detail, assignment, sub_id))
            if cur.rowcount == 0:
                raise KeyError(f"no submission {sub_id!r} in assignment {assignment!r}.")

    # -- games ------------------------------------------------------------------------------------
    def save_game(self, rec: GameRecord) -> None:
        """Insert or replace one game, committed; a replayed game's old incidents go with it."""
        if rec.status not in GAME_STATUSES:
            raise ValueError(f"game status must be one of {', '.join(GAME_STATUSES)}, not {rec.status!r}.")
        if rec.finished_at is None:
            rec.finished_at = time.time()
        cols = _columns(GameRecord)
        with self._transaction():
            self._db.execute("DELETE FROM incidents WHERE game_key=?", (rec.key,))
            self._db.execute(f"INSERT OR REPLACE INTO games ({', '.join(cols)}) "
                             f"VALUES ({', '.join('?' * len(cols))})", astuple(rec))

    def game(self, key: str) -> GameRecord | None:
        cols = _columns(GameRecord)
        rows = self._query(f"SELECT {', '.join(cols)} FROM games WHERE key=?", (key,))
        return GameRecord(*rows[0]) if rows else None

    def finished_keys(self, assignment: str) -> set[str]:
        """Keys of scored games: what a resumed run need not play again (infra games are replayed)."""
        return {r[0] for r in self._query("SELECT key FROM games WHERE assignment=? AND status='done'",
                                          (assignment,))}

    def games_by_id(self, assignment: str, game_id: str) -> list[GameRecord]:
        """The assignment's games whose key starts with `game_id` (hex digits: a site's game id)."""
        if not re.fullmatch(r"[0-9a-f]+", game_id):
            return []
        cols = _columns(GameRecord)
        rows = self._query(f"SELECT {', '.join(cols)} FROM games WHERE assignment=? AND key LIKE ? ORDER BY key",
                           (assignment, game_id + "%"))
        return [GameRecord(*row) for row in rows]

    def games(self, assignment: str, *, keys: set[str] | None = None) -> list[GameRecord]:
        """Every stored game of the assignment (both statuses), or only those whose key is in `keys`."""
        cols = _columns(GameRecord)
        rows = self._query(f"SELECT {', '.join(cols)} FROM games WHERE assignment=? "
                           "ORDER BY finished_at, key", (assignment,))
        out = [GameRecord(*row) for row in rows]
        if keys is not None:
            out = [g for g in out if g.key in keys]
        return out

    def each_game(self, assignment: str, *, keys: set[str] | None = None) -> Iterator[GameRecord]:
        """`games`, one at a time from a cursor, in the same order: a league of any size is read in
        constant memory (the results document is written game by game from this)."""
        cols = _columns(GameRecord)
        with self._lock:
            cursor = self._db.execute(f"SELECT {', '.join(cols)} FROM games WHERE assignment=? "
                                      "ORDER BY finished_at, key", (assignment,))
        while True:
            with self._lock:
                rows = cursor.fetchmany(256)
            if not rows:
                return
            for row in rows:
                if keys is None or row[0] in keys:
                    yield GameRecord(*row)

    def scores(self, assignment: str) -> dict[str, tuple[str, str, float, float]]:
        """{key: (seat0, seat1, points0, points1)} of every scored game, without the moves: what a
        fit needs, light enough to read after every wave of an adaptive league."""
        rows = self._query("SELECT key, seat0, seat1, points0, points1 FROM games WHERE assignment=? "
                           "AND status='done'", (assignment,))
        return {r[0]: (r[1], r[2], r[3], r[4]) for r in rows}

    # -- incidents --------------------------------------------------------------------------------
    def add_incident(self, assignment: str, submission: str, game_key: str | None, kind: str, message: str,
                     at: float | None = None) -> None:
        with self._transaction():
            self._db.execute("INSERT INTO incidents (assignment, submission, game_key, kind, message, at) "
                             "VALUES (?, ?, ?, ?, ?, ?)",
                             (assignment, submission, game_key, kind, message, time.time() if at is None else at))

    def incidents(self, assignment: str, submission: str | None = None) -> list[Incident]:
        sql = "SELECT assignment, submission, game_key, kind, message, at FROM incidents WHERE assignment=?"
        args: tuple = (assignment,)
        if submission is not None:
            sql += " AND submission=?"
            args += (submission,)
        return [Incident(*row) for row in self._query(sql + " ORDER BY at, rowid", args)]

    # -- pseudonyms -------------------------------------------------------------------------------
    def pseudonyms(self, assignment: str, salt: str) -> dict[str, str]:
        rows = self._query("SELECT id, name FROM pseudonyms WHERE assignment=? AND salt=?", (assignment, salt))
        return {r[0]: r[1] for r in rows}

    def keep_pseudonyms(self, assignment: str, salt: str, names: dict[str, str]) -> None:
        with self._transaction():
            self._db.executemany("INSERT OR REPLACE INTO pseudonyms (assignment, salt, id, name) VALUES (?, ?, ?, ?)",
                                 [(assignment, salt, sid, name) for sid, name in sorted(names.items())])

    # -- runs -------------------------------------------------------------------------------------
    def start_run(self, assignment: str, config: dict, seed: int) -> int:
        with self._transaction():
            cur = self._db.execute("INSERT INTO runs (assignment, started_at, config_json, seed) VALUES (?, ?, ?, ?)",
                                   (assignment, time.time(), json.dumps(config, sort_keys=True, default=str), seed))
            assert cur.lastrowid is not None  # set by every successful INSERT
            return int(cur.lastrowid)

    def finish_run(self, run_id: int, summary: dict) -> None:
        with self._transaction():
            self._db.execute("UPDATE runs SET finished_at=?, summary_json=? WHERE id=?",
                             (time.time(), json.dumps(summary, default=str), run_id))

    def runs(self, assignment: str) -> list[dict]:
        """Past runs, oldest first; config and summary decoded (summary None: the run did not finish)."""
        rows = self._query("SELECT id, assignment, started_at, finished_at, config_json, seed, summary_json "
                           "FROM runs WHERE assignment=? ORDER BY id", (assignment,))
        return [{"id": r[0], "assignment": r[1], "started_at": r[2], "finished_at": r[3],
                 "config": json.loads(r[4]) if r[4] else None, "seed": r[5],
                 "summary": json.loads(r[6]) if r[6] else None} for r in rows]

    # -- the move that lost a game (grader/losing_move.py) ----------------------------------------------
    def save_losing_moves(self, assignment: str, found: list[tuple[str, int, dict | None]]) -> None:
        """Cache each (game key, seat, the losing move's JSON or None for "none found") in one commit."""
        with self._transaction():
            self._db.executemany("INSERT OR REPLACE INTO losing_moves (assignment, key, seat, losing_json) "
                                 "VALUES (?, ?, ?, ?)", [(assignment, key, seat, json.dumps(doc))
                                                         for key, seat, doc in found])

    def analysed_seats(self, assignment: str) -> set[tuple[str, int]]:
        """(game key, seat) of every cached analysis of the assignment, found or not."""
        return {(key, seat) for key, seat in self._query("SELECT key, seat FROM losing_moves WHERE assignment=?",
                                                         (assignment,))}

    def losing_moves_of(self, key: str) -> dict[int, LosingMove]:
        """One game's losing moves found, by seat (a seat analysed with none found is left out)."""
        rows = self._query("SELECT seat, losing_json FROM losing_moves WHERE key=?", (key,))
        return {seat: doc for seat, text in rows if (doc := json.loads(text)) is not None}

    def clear(self, assignment: str) -> None:
        """Forget everything stored for one assignment (`grader run --fresh`); other assignments stay."""
        with self._transaction():
            for table in ("games", "incidents", "submissions", "runs", "pseudonyms", "losing_moves"):
                self._db.execute(f"DELETE FROM {table} WHERE assignment=?", (assignment,))

    def integrity(self) -> str:
        """SQLite's own consistency check: "ok" when the file is sound."""
        return self._query("PRAGMA integrity_check")[0][0]
