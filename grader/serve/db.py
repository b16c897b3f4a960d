"""The service's records and its job queue: one module, SQLite (WAL) by default, PostgreSQL by URL.

Why one table per thing and leases instead of a broker: an acknowledged upload must survive a
`kill -9` of anything, and a job interrupted mid-evaluation must run again exactly once. A job
row is claimed with a lease (an owner and an expiry the worker keeps extending); a worker that dies
stops extending it, and the next claim takes the job over. A verdict is written only by the
current lease owner (`WHERE lease_owner = ?`), so a late writer whose lease was taken over writes
nothing: every upload gets exactly one verdict.

SQL is written once with `?` placeholders; for PostgreSQL (psycopg 3, the `postgres` install extra,
when `serve.database_url` is a postgresql:// URL) they become `%s`. A claim is atomic on both:
SQLite's `BEGIN IMMEDIATE` lets one writer in at a time, PostgreSQL's claim is one
`UPDATE … WHERE id = (SELECT … FOR UPDATE SKIP LOCKED) RETURNING *`, so two workers never get one job.
The SQLite file (password hashes, sessions) is created readable by the service's user only.
"""
from __future__ import annotations

import os
import sqlite3
import threading
import time
from contextlib import contextmanager
from pathlib import Path

SCHEMA = """
CREATE TABLE IF NOT EXISTS users (
    id INTEGER PRIMARY KEY AUTOINCREMENT, login TEXT NOT NULL UNIQUE, name TEXT NOT NULL DEFAULT '',
    email TEXT NOT NULL DEFAULT '', role TEXT NOT NULL CHECK (role IN ('student', 'instructor')),
    password_hash TEXT, setup_token_hash TEXT, setup_expires REAL, created_at REAL NOT NULL);
CREATE TABLE IF NOT EXISTS uploads (
    id TEXT PRIMARY KEY, user_id INTEGER NOT NULL, assignment TEXT NOT NULL, filename TEXT NOT NULL,
    path TEXT NOT NULL, sha256 TEXT NOT NULL, size INTEGER NOT NULL, uploaded_at REAL NOT NULL,
    seq INTEGER NOT NULL, status TEXT NOT NULL CHECK (status IN ('queued', 'running', 'done', 'grader_failed')),
    attempts INTEGER NOT NULL DEFAULT 0, not_before REAL NOT NULL DEFAULT 0, lease_owner TEXT, lease_until REAL,
    turn INTEGER NOT NULL DEFAULT 0, passed INTEGER, points REAL, max_points REAL, verdict_text TEXT, verdict_json TEXT, grader_error TEXT,
    finished_at REAL, stage TEXT NOT NULL DEFAULT '');
CREATE INDEX IF NOT EXISTS uploads_by_user ON uploads (user_id, assignment, uploaded_at);
CREATE INDEX IF NOT EXISTS uploads_by_status ON uploads (status, not_before);
CREATE TABLE IF NOT EXISTS league_runs (
    id INTEGER PRIMARY KEY AUTOINCREMENT, assignment TEXT NOT NULL, requested_by INTEGER,
    status TEXT NOT NULL CHECK (status IN ('queued', 'running', 'done', 'grader_failed')),
    progress TEXT NOT NULL DEFAULT '', message TEXT NOT NULL DEFAULT '', attempts INTEGER NOT NULL DEFAULT 0,
    requested_at REAL NOT NULL, started_at REAL, finished_at REAL, lease_owner TEXT, lease_until REAL);
CREATE TABLE IF NOT EXISTS sessions (
    token_hash TEXT PRIMARY KEY, user_id INTEGER NOT NULL, created_at REAL NOT NULL, expires_at REAL NOT NULL);
CREATE INDEX IF NOT EXISTS sessions_by_user ON sessions (user_id);
CREATE TABLE IF NOT EXISTS attempts (
    subject TEXT PRIMARY KEY, failures INTEGER NOT NULL, last_at REAL NOT NULL, blocked_until REAL NOT NULL);
"""
ADDED_COLUMNS = [("uploads", "turn", "INTEGER NOT NULL DEFAULT 0"),   # (table, column, type) since the first schema
                 ("uploads", "stage", "TEXT NOT NULL DEFAULT ''")]    # the check's stage running now (its page shows it)
PRIVATE_FILE = 0o600


class Database:
    """Connections, transactions and the few queries every part of the service shares."""

    def __init__(self, url: str, create: bool = True) -> None:
        """`create=False` for a database the caller knows exists (a lease heartbeat): no schema writes."""
        self.url = url
        self.postgres = url.startswith(("postgresql://", "postgres://"))
        self.local = threading.local()
        if not create:
            return
        if not self.postgres:
            private_file(Path(self.path))
        with self.transaction() as tx:
            for statement in filter(str.strip, SCHEMA.split(";")):
                tx.execute(self._dialect(statement))
        self.add_columns(ADDED_COLUMNS)

    def add_columns(self, added: list[tuple[str, str, str]]) -> None:
        """The (table, column, type)s a database made by an earlier version lacks, added."""
        with self.transaction() as tx:
            for table, column, kind in added:
                if column not in self._columns(tx, table):
                    tx.execute(self._dialect(f"ALTER TABLE {table} ADD COLUMN {column} {kind}"))

    def _columns(self, tx: _Tx, table: str) -> set[str]:
        if self.postgres:
            rows = tx.query("SELECT column_name AS name FROM information_schema.columns WHERE table_name = ? "
                            "AND table_schema = current_schema()", (table,))
        else:
            rows = tx.query(f"PRAGMA table_info({table})")
        return {r["name"] for r in rows}

    @property
    def path(self) -> str:
        return self.url.removeprefix("sqlite:///")

    def _connect(self):
        if self.postgres:
            # here: psycopg is the optional `postgres` extra
            import psycopg

            return psycopg.connect(self.url, autocommit=True)
        conn = sqlite3.connect(self.path, timeout=30, isolation_level=None, check_same_thread=False)
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA synchronous=FULL")       # an acknowledged upload survives a power cut too
        conn.execute("PRAGMA foreign_keys=ON")
        conn.row_factory = sqlite3.Row
        return conn

    def _conn(self):
        conn = getattr(self.local, "conn", None)
        if conn is None:
            conn = self.local.conn = self._connect()
        return conn

    def _dialect(self, sql: str) -> str:
        if not self.postgres:
            return sql
        return (sql.replace("?", "%s").replace("INTEGER PRIMARY KEY AUTOINCREMENT", "SERIAL PRIMARY KEY")
                .replace("REAL", "DOUBLE PRECISION"))

    @contextmanager
    def transaction(self):
        """BEGIN IMMEDIATE … COMMIT (a writer lock for SQLite; a transaction for PostgreSQL)."""
        conn = self._conn()
        tx = _Tx(self, conn)
        if self.postgres:
            with conn.transaction():
                yield tx
            return
        conn.execute("BEGIN IMMEDIATE")
        try:
            yield tx
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        conn.execute("COMMIT")

    def query(self, sql: str, args: tuple = ()) -> list[dict]:
        cur = self._conn().execute(self._dialect(sql), args)
        return [dict(r) if not isinstance(r, dict) else r for r in _rows(cur)]

    def one(self, sql: str, args: tuple = ()) -> dict | None:
        rows = self.query(sql, args)
        return rows[0] if rows else None

    def execute(self, sql: str, args: tuple = ()) -> int:
        with self.transaction() as tx:
            return tx.execute(sql, args)

    # ------------------------------------------------------------------ the job queue
    def claim(self, table: str, owner: str, lease_s: float) -> dict | None:
        """The next job that is queued (and due), or running with an expired lease; now owned by `owner`.
        Uploads go by `turn` (how many of the student's own uploads were waiting when it came), then
        age: a student's second job waits behind everyone's first. League runs go oldest first."""
        now = time.time()
        uploads = table == "uploads"
        due, order = ("AND not_before <= ?", "turn, uploaded_at") if uploads else ("", "requested_at")
        if self.postgres:
            ready = f"((status = 'queued' {due}) OR (status = 'running' AND lease_until < ?))"
            args = (now, now) if uploads else (now,)
            with self.transaction() as tx:
                rows = tx.query(f"UPDATE {table} SET status = 'running', lease_owner = ?, lease_until = ?, "
                                f"attempts = attempts + 1 WHERE id = (SELECT id FROM {table} WHERE {ready} "
                                f"ORDER BY {order} LIMIT 1 FOR UPDATE SKIP LOCKED) AND {ready} RETURNING *",
                                (owner, now + lease_s, *args, *args))
            return rows[0] if rows else None
        with self.transaction() as tx:
            rows = tx.query(f"SELECT * FROM {table} WHERE (status = 'queued' {due}) "
                            f"OR (status = 'running' AND lease_until < ?) ORDER BY {order} LIMIT 1",
                            (now, now) if uploads else (now,))
            if not rows:
                return None
            job = rows[0]
            tx.execute(f"UPDATE {table} SET status = 'running', lease_owner = ?, lease_until = ?, "
                       f"attempts = attempts + 1 WHERE id = ?", (owner, now + lease_s, job["id"]))
        job.update(status="running", lease_owner=owner, attempts=job["attempts"] + 1)
        return job

    def extend(self, table: str, job_id, owner: str, lease_s: float) -> bool:
        """Keep the lease; False when it was taken over (the worker must drop the job)."""
        return self.execute(f"UPDATE {table} SET lease_until = ? WHERE id = ? AND lease_owner = ? "
                            f"AND status = 'running'", (time.time() + lease_s, job_id, owner)) == 1

    def finish(self, table: str, job_id, owner: str, **fields) -> bool:
        """Write the job's result if `owner` still holds it; exactly one writer succeeds."""
        names = ", ".join(f"{k} = ?" for k in fields)
        return self.execute(f"UPDATE {table} SET {names}, lease_owner = NULL, lease_until = NULL "
                            f"WHERE id = ? AND lease_owner = ? AND status = 'running'",
                            (*fields.values(), job_id, owner)) == 1


class _Tx:
    def __init__(self, db: Database, conn) -> None:
        self.db, self.conn = db, conn

    def execute(self, sql: str, args: tuple = ()) -> int:
        return self.conn.execute(self.db._dialect(sql), args).rowcount

    def query(self, sql: str, args: tuple = ()) -> list[dict]:
        return [dict(r) for r in _rows(self.conn.execute(self.db._dialect(sql), args))]

    def insert(self, sql: str, args: tuple = ()):
        cur = self.conn.execute(self.db._dialect(sql + (" RETURNING id" if self.db.postgres else "")), args)
        return cur.fetchone()[0] if self.db.postgres else cur.lastrowid


def private_file(path: Path) -> None:
    """The file (with SQLite's -wal and -shm beside it) made 0600; a missing folder is made 0700."""
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    if not path.exists():      # never open and close an existing database: that drops this process's locks on it
        try:
            os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, PRIVATE_FILE))
        except FileExistsError:
            pass
    for extra in ("", "-wal", "-shm"):
        if Path(f"{path}{extra}").exists():
            os.chmod(f"{path}{extra}", PRIVATE_FILE)


def _rows(cur):
    if cur.description is None:
        return []
    names = [d[0] for d in cur.description]
    return [dict(zip(names, row)) for row in cur.fetchall()]
