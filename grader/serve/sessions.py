"""Server-side sessions: the signed cookie carries only a random token; the row it names is the session.

Why a table rather than the signed cookie alone: a cookie copied before logging out, before a
password change or before "log out everywhere" must stop working at once, and only a record on
the server can be deleted. Only the token's SHA-256 is stored, so a copy of the database opens no
session.
"""
from __future__ import annotations

import hashlib
import secrets
import time

from .db import Database

LIFETIME_S = 12 * 3600


def _hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def start(db: Database, user_id: int) -> str:
    """A new session for the user; the token for the cookie."""
    token = secrets.token_urlsafe(32)
    now = time.time()
    db.execute("DELETE FROM sessions WHERE expires_at < ?", (now,))
    db.execute("INSERT INTO sessions (token_hash, user_id, created_at, expires_at) VALUES (?, ?, ?, ?)",
               (_hash(token), user_id, now, now + LIFETIME_S))
    return token


def user(db: Database, token: str) -> dict | None:
    """The account whose live session this token names."""
    return db.one("SELECT u.* FROM sessions s JOIN users u ON u.id = s.user_id WHERE s.token_hash = ? "
                  "AND s.expires_at > ?", (_hash(token), time.time()))


def end(db: Database, token: str) -> None:
    db.execute("DELETE FROM sessions WHERE token_hash = ?", (_hash(token),))


def end_all(db: Database, user_id: int) -> int:
    """End every session of the account (after a password change, or "log out everywhere")."""
    return db.execute("DELETE FROM sessions WHERE user_id = ?", (user_id,))
