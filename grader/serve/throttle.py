"""Limits on password guessing: per account and per address, with a delay that doubles.

Why refuse rather than sleep: a sleeping request holds a worker thread, so an attacker would still
tie up the server; a refused attempt costs one small query and no password hash. The first few
failures are free (people mistype); after that each failure blocks the account (or the address)
for twice as long as the one before, up to MAX_BLOCK_S, and a success clears the account's count.
"""
from __future__ import annotations

import time

from .db import Database

FREE_FAILURES = {"account": 5, "address": 20}     # an address may be a whole campus behind NAT
FIRST_BLOCK_S = 2.0
MAX_BLOCK_S = 15 * 60.0
FORGET_S = 24 * 3600.0                            # a quiet day clears a count (and its row)


class TooManyAttempts(Exception):
    """Attempts refused for now; the message says for how long."""


def _subjects(action: str, account: str, address: str) -> list[tuple[str, str]]:
    out = [("address", f"{action}:address:{address}")]
    if account:
        out.append(("account", f"{action}:account:{account.lower()}"))
    return out


def check(db: Database, action: str, account: str, address: str) -> None:
    """Raise TooManyAttempts when this account or address must wait before trying again."""
    now = time.time()
    for kind, subject in _subjects(action, account, address):
        row = db.one("SELECT blocked_until FROM attempts WHERE subject = ?", (subject,))
        if row and row["blocked_until"] > now:
            wait = int(row["blocked_until"] - now) + 1
            who = "this account" if kind == "account" else "your network address"
            raise TooManyAttempts(f"Too many wrong attempts for {who}; wait {wait} second(s) and try again.")


def failed(db: Database, action: str, account: str, address: str) -> None:
    """Count a failure; past the free ones, block for a time that doubles with each further failure."""
    now = time.time()
    db.execute("DELETE FROM attempts WHERE last_at < ? AND blocked_until < ?", (now - FORGET_S, now))
    for kind, subject in _subjects(action, account, address):
        with db.transaction() as tx:
            tx.execute("INSERT INTO attempts (subject, failures, last_at, blocked_until) VALUES (?, 0, ?, 0) "
                       "ON CONFLICT (subject) DO NOTHING", (subject, now))
            failures = tx.query("UPDATE attempts SET failures = CASE WHEN last_at > ? THEN failures + 1 ELSE 1 END, "
                                "last_at = ? WHERE subject = ? RETURNING failures",
                                (now - FORGET_S, now, subject))[0]["failures"]
            over = failures - FREE_FAILURES[kind]
            if over > 0:
                tx.execute("UPDATE attempts SET blocked_until = ? WHERE subject = ?",
                           (now + min(MAX_BLOCK_S, FIRST_BLOCK_S * 2 ** (over - 1)), subject))


def succeeded(db: Database, action: str, account: str) -> None:
    db.execute("DELETE FROM attempts WHERE subject = ?", (f"{action}:account:{account.lower()}",))
