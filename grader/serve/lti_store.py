"""The LTI records: one-time launch states and nonces, who an LMS user is here, which LMS course an
assignment is linked to, every grade decision with what the LMS said about it, and the LMSs that
registered themselves (dynamic registration).

Why tables of their own (made here, not in db.py): the launch's state and nonce must be usable once
across every web process, and a grade the LMS did not take must survive a restart to be sent again.
A decision is one row per (course, assignment, student, upload): sending it twice is a no-op, and a
student's new best upload is a new row, so the gradebook gets one score per decision, not per attempt.
"""
from __future__ import annotations

import json
import time
from dataclasses import astuple, dataclass

from ..config import LtiPlatformConfig
from .db import Database


@dataclass(frozen=True)
class Identity:
    """An LMS user as the LTI launch names them: the platform (issuer, client, deployment) and its `sub`."""

    issuer: str
    client_id: str
    deployment_id: str
    sub: str

SCHEMA = """
CREATE TABLE IF NOT EXISTS lti_states (
    state TEXT PRIMARY KEY, nonce TEXT NOT NULL, issuer TEXT NOT NULL, client_id TEXT NOT NULL,
    expires_at REAL NOT NULL);
CREATE TABLE IF NOT EXISTS lti_nonces (
    issuer TEXT NOT NULL, nonce TEXT NOT NULL, expires_at REAL NOT NULL, PRIMARY KEY (issuer, nonce));
CREATE TABLE IF NOT EXISTS lti_identities (
    issuer TEXT NOT NULL, client_id TEXT NOT NULL, deployment_id TEXT NOT NULL, sub TEXT NOT NULL,
    user_id INTEGER NOT NULL UNIQUE, ceiling TEXT, PRIMARY KEY (issuer, client_id, deployment_id, sub));
CREATE TABLE IF NOT EXISTS lti_courses (
    issuer TEXT NOT NULL, context_id TEXT NOT NULL, assignment TEXT NOT NULL, deployment_id TEXT NOT NULL,
    title TEXT NOT NULL DEFAULT '', memberships_url TEXT, lineitems_url TEXT, lineitem_url TEXT,
    scopes TEXT NOT NULL DEFAULT '', updated_at REAL NOT NULL, PRIMARY KEY (issuer, context_id, assignment));
CREATE TABLE IF NOT EXISTS lti_members (
    issuer TEXT NOT NULL, context_id TEXT NOT NULL, user_id INTEGER NOT NULL, PRIMARY KEY (issuer, context_id, user_id));
CREATE TABLE IF NOT EXISTS lti_scores (
    issuer TEXT NOT NULL, context_id TEXT NOT NULL, assignment TEXT NOT NULL, user_id INTEGER NOT NULL,
    upload_id TEXT NOT NULL, score REAL NOT NULL, max_score REAL NOT NULL, comment TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('queued', 'sent', 'refused')), tries INTEGER NOT NULL DEFAULT 0,
    error TEXT NOT NULL DEFAULT '', decided_at REAL NOT NULL, sent_at REAL,
    PRIMARY KEY (issuer, context_id, assignment, user_id, upload_id, score));
CREATE TABLE IF NOT EXISTS lti_platforms (
    issuer TEXT NOT NULL, client_id TEXT NOT NULL, auth_url TEXT NOT NULL, token_url TEXT NOT NULL,
    jwks_url TEXT NOT NULL, deployment_ids TEXT NOT NULL, name TEXT NOT NULL DEFAULT '',
    registered_at REAL NOT NULL, approved_at REAL, PRIMARY KEY (issuer, client_id))
"""
ADDED_COLUMNS = [("lti_platforms", "approved_at", "REAL")]     # a platform registered before approval existed waits
STATE_VALID_S = 600          # from the login redirect to the launch
NONCE_KEPT_S = 24 * 3600     # longer than any ID token we accept lives


def create_tables(db: Database) -> None:
    with db.transaction() as tx:
        for statement in filter(str.strip, SCHEMA.split(";")):
            tx.execute(statement)
    db.add_columns(ADDED_COLUMNS)


# ------------------------------------------------------------------ launch: state and nonce, once each
def new_state(db: Database, state: str, nonce: str, issuer: str, client_id: str) -> None:
    now = time.time()
    with db.transaction() as tx:
        tx.execute("DELETE FROM lti_states WHERE expires_at < ?", (now,))
        tx.execute("INSERT INTO lti_states (state, nonce, issuer, client_id, expires_at) VALUES (?, ?, ?, ?, ?)",
                   (state, nonce, issuer, client_id, now + STATE_VALID_S))


def take_state(db: Database, state: str) -> dict | None:
    """The login this state began (its nonce and issuer), usable once: a second launch with it gets None."""
    with db.transaction() as tx:
        rows = tx.query("SELECT * FROM lti_states WHERE state = ? AND expires_at >= ?", (state, time.time()))
        tx.execute("DELETE FROM lti_states WHERE state = ?", (state,))
    return rows[0] if rows else None


def use_nonce(db: Database, issuer: str, nonce: str) -> bool:
    """True the first time the platform's nonce is seen; False for a replay."""
    now = time.time()
    with db.transaction() as tx:
        tx.execute("DELETE FROM lti_nonces WHERE expires_at < ?", (now,))
        if tx.query("SELECT 1 FROM lti_nonces WHERE issuer = ? AND nonce = ?", (issuer, nonce)):
            return False
        tx.execute("INSERT INTO lti_nonces (issuer, nonce, expires_at) VALUES (?, ?, ?)",
                   (issuer, nonce, now + NONCE_KEPT_S))
    return True


# ------------------------------------------------------------------ people and courses
def person(db: Database, who: Identity) -> dict | None:
    """The account bound to this LMS user, with the binding's role ceiling (None: the LMS made the account)."""
    return db.one("SELECT u.*, i.ceiling FROM lti_identities i JOIN users u ON u.id = i.user_id WHERE i.issuer = ? "
                  "AND i.client_id = ? AND i.deployment_id = ? AND i.sub = ?", astuple(who))


def bound_to(db: Database, user_id: int) -> dict | None:
    """The LMS identity an account is bound to (an account has one at most), or None."""
    return db.one("SELECT * FROM lti_identities WHERE user_id = ?", (user_id,))


def bind(db: Database, who: Identity, user_id: int, ceiling: str | None) -> bool:
    """Bind an account to the LMS user that made it (ceiling None) or adopted it by e-mail (its role then).
    False when another launch bound the account, or this LMS user, in the meantime: nothing was written."""
    return db.execute("INSERT INTO lti_identities (issuer, client_id, deployment_id, sub, user_id, ceiling) "
                      "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING", (*astuple(who), user_id, ceiling)) == 1


def update_person(db: Database, user_id: int, name: str, email: str, role: str) -> None:
    db.execute("UPDATE users SET name = ?, email = ?, role = ? WHERE id = ?", (name, email, role, user_id))


def add_member(db: Database, issuer: str, context_id: str, user_id: int) -> None:
    with db.transaction() as tx:
        if not tx.query("SELECT 1 FROM lti_members WHERE issuer = ? AND context_id = ? AND user_id = ?",
                        (issuer, context_id, user_id)):
            tx.execute("INSERT INTO lti_members (issuer, context_id, user_id) VALUES (?, ?, ?)",
                       (issuer, context_id, user_id))


def members(db: Database, issuer: str, context_id: str) -> list[dict]:
    """The students of an LMS course known here, each with the LMS's id for them (`sub`)."""
    return db.query("SELECT u.*, p.sub FROM lti_members m JOIN users u ON u.id = m.user_id "
                    "JOIN lti_identities p ON p.issuer = m.issuer AND p.user_id = m.user_id "
                    "WHERE m.issuer = ? AND m.context_id = ? AND u.role = 'student' ORDER BY u.login",
                    (issuer, context_id))


def save_course(db: Database, course: dict) -> None:
    """What a launch told about the LMS course an assignment sits in (its service URLs change rarely)."""
    keys = ("issuer", "context_id", "assignment")
    with db.transaction() as tx:
        old = tx.query("SELECT lineitem_url FROM lti_courses WHERE issuer = ? AND context_id = ? AND assignment = ?",
                       tuple(course[k] for k in keys))
        tx.execute("DELETE FROM lti_courses WHERE issuer = ? AND context_id = ? AND assignment = ?",
                   tuple(course[k] for k in keys))
        row = {**course, "lineitem_url": course.get("lineitem_url") or (old[0]["lineitem_url"] if old else None),
               "updated_at": time.time()}
        names = ", ".join(row)
        tx.execute(f"INSERT INTO lti_courses ({names}) VALUES ({', '.join('?' * len(row))})", tuple(row.values()))


def courses(db: Database, assignment: str) -> list[dict]:
    return db.query("SELECT * FROM lti_courses WHERE assignment = ? ORDER BY issuer, context_id", (assignment,))


def linked_courses(db: Database) -> list[dict]:
    """Every LMS course this service is linked to (issuer, context_id, title), whatever the assignment."""
    return db.query("SELECT issuer, context_id, MAX(title) AS title FROM lti_courses GROUP BY issuer, context_id "
                    "ORDER BY issuer, context_id")


def set_lineitem(db: Database, course: dict, url: str) -> None:
    db.execute("UPDATE lti_courses SET lineitem_url = ? WHERE issuer = ? AND context_id = ? AND assignment = ?",
               (url, course["issuer"], course["context_id"], course["assignment"]))
    course["lineitem_url"] = url


# ------------------------------------------------------------------ grade decisions
def decide(db: Database, course: dict, user_id: int, upload_id: str, score: float, max_score: float,
           comment: str) -> bool:
    """Record the decision that counts for this student (True when it is new; the same upload with the same
    score is the same decision, so a repeated sync records nothing; a rejudged score is a new one)."""
    key = (course["issuer"], course["context_id"], course["assignment"], user_id, upload_id, score)
    with db.transaction() as tx:
        if tx.query("SELECT 1 FROM lti_scores WHERE issuer = ? AND context_id = ? AND assignment = ? "
                    "AND user_id = ? AND upload_id = ? AND score = ?", key):
            return False
        tx.execute("INSERT INTO lti_scores (issuer, context_id, assignment, user_id, upload_id, score, max_score, "
                   "comment, status, decided_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'queued', ?)",
                   (*key, max_score, comment, time.time()))
    return True


def waiting(db: Database, course: dict) -> list[dict]:
    """The decisions not yet taken by the LMS, oldest first, each with the student's LMS id."""
    return db.query("SELECT s.*, p.sub FROM lti_scores s JOIN lti_identities p ON p.issuer = s.issuer "
                    "AND p.user_id = s.user_id WHERE s.issuer = ? AND s.context_id = ? AND s.assignment = ? "
                    "AND s.status = 'queued' ORDER BY s.decided_at",
                    (course["issuer"], course["context_id"], course["assignment"]))


def mark(db: Database, row: dict, status: str, error: str = "") -> None:
    db.execute("UPDATE lti_scores SET status = ?, error = ?, tries = tries + 1, sent_at = ? WHERE issuer = ? "
               "AND context_id = ? AND assignment = ? AND user_id = ? AND upload_id = ? AND score = ?",
               (status, error, time.time() if status == "sent" else None, row["issuer"], row["context_id"],
                row["assignment"], row["user_id"], row["upload_id"], row["score"]))


def scores(db: Database, assignment: str) -> list[dict]:
    """Every decision for the assignment, newest first, for the instructor's page."""
    return db.query("SELECT s.*, u.login, u.name FROM lti_scores s JOIN users u ON u.id = s.user_id "
                    "WHERE s.assignment = ? ORDER BY s.decided_at DESC", (assignment,))


# ------------------------------------------------------------------ platforms registered by themselves
def save_platform(db: Database, platform: LtiPlatformConfig, approved: bool) -> None:
    """A platform that registered itself, approved (its origin is allowed) or waiting for the instructor.
    Registering again with the same client id replaces the entry and waits for approval again."""
    now = time.time()
    with db.transaction() as tx:
        tx.execute("DELETE FROM lti_platforms WHERE issuer = ? AND client_id = ?", (platform.issuer, platform.client_id))
        tx.execute("INSERT INTO lti_platforms (issuer, client_id, auth_url, token_url, jwks_url, deployment_ids, name, "
                   "registered_at, approved_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                   (platform.issuer, platform.client_id, platform.auth_url, platform.token_url, platform.jwks_url,
                    json.dumps(platform.deployment_ids), platform.name, now, now if approved else None))


def registered_platforms(db: Database, approved: bool = True) -> list[LtiPlatformConfig]:
    """The platforms that registered themselves and were approved (or, `approved=False`, wait for it), oldest
    first, as config.yaml would list them."""
    rows = db.query(f"SELECT * FROM lti_platforms WHERE approved_at IS {'NOT ' if approved else ''}NULL "
                    "ORDER BY registered_at")
    return [LtiPlatformConfig(issuer=r["issuer"], client_id=r["client_id"], auth_url=r["auth_url"],
                              token_url=r["token_url"], jwks_url=r["jwks_url"],
                              deployment_ids=json.loads(r["deployment_ids"]), name=r["name"]) for r in rows]


def approve_platform(db: Database, issuer: str, client_id: str) -> bool:
    """The instructor lets a waiting platform launch; False when there is no such waiting platform."""
    return bool(db.execute("UPDATE lti_platforms SET approved_at = ? WHERE issuer = ? AND client_id = ? "
                           "AND approved_at IS NULL", (time.time(), issuer, client_id)))


def remove_platform(db: Database, issuer: str, client_id: str) -> bool:
    return bool(db.execute("DELETE FROM lti_platforms WHERE issuer = ? AND client_id = ?", (issuer, client_id)))
