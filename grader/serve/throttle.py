"""Limits on password guessing: per address and per (address, account), with a delay that doubles.

Why refuse rather than sleep: a sleeping request holds a worker thread, so an attacker would still
tie up the server; a refused attempt costs one small query and no password hash. The first few
failures are free (people mistype); after that each failure blocks the pair (or the address) for
twice as long as the one before, up to MAX_BLOCK_S, and a success clears the pair's count.

Why no count per account alone: a classmate typing wrong passwords for someone else would lock the
owner out (16 guesses: 64 s, doubling to 15 min). An account's failures are counted per address it
is tried from, and a browser the owner signed in from before (`device`, kept in the signed session
cookie) has a count of its own that neither the address's nor anyone else's failures touch. A
password set through the instructor's reset link clears every count of the account (`cleared`).
"""
from __future__ import annotations

import time

from .db import Database

FREE_FAILURES = {"account": 5, "address": 20, "device": 5}   # an address may be a whole campus behind NAT
FIRST_BLOCK_S = 2.0
MAX_BLOCK_S = 15 * 60.0
FORGET_S = 24 * 3600.0                            # a quiet day clears a count (and its row)


class TooManyAttempts(Exception):
    """Attempts refused for now; the message says for how long."""


def _subjects(action: str, account: str, address: str, device: str = "") -> list[tuple[str, str]]:
    if device and account:             # the owner's own browser: its count alone
        return [("device", f"{action}:device:{account.lower()}:{device}")]
    out = [("address", f"{action}:address:{address}")]
    if account:
        out.append(("account", f"{action}:account:{account.lower()}@{address}"))
    return out


WHO = {"account": "this account from your network address", "address": "your network address",
       "device": "this account in this browser"}


def check(db: Database, action: str, account: str, address: str, device: str = "") -> None:
    """Raise TooManyAttempts when this address, or this account from here, must wait before trying again."""
    now = time.time()
    for kind, subject in _subjects(action, account, address, device):
        row = db.one("SELECT blocked_until FROM attempts WHERE subject = ?", (subject,))
        if row and row["blocked_until"] > now:
            wait = int(row["blocked_until"] - now) + 1
            raise TooManyAttempts(f"Too many wrong attempts for {WHO[kind]}; wait {wait} second(s) and try again.")


def failed(db: Database, action: str, account: str, address: str, device: str = "") -> None:
    """Count a failure; past the free ones, block for a time that doubles with each further failure."""
    now = time.time()
    db.execute("DELETE FROM attempts WHERE last_at < ? AND blocked_until < ?", (now - FORGET_S, now))
    for kind, subject in _subjects(action, account, address, device):
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


def succeeded(db: Database, action: str, account: str, address: str, device: str = "") -> None:
    """The right password: the counts of this account from here (and from this browser) start again."""
    for kind, subject in _subjects(action, account, address, device):
        if kind != "address":
            db.execute("DELETE FROM attempts WHERE subject = ?", (subject,))


def cleared(db: Database, action: str, account: str) -> None:
    """Every count of the account, from every address and browser (its password was just reset)."""
    name = account.lower().replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    db.execute("DELETE FROM attempts WHERE subject LIKE ? ESCAPE '\\' OR subject LIKE ? ESCAPE '\\'",
               (f"{action}:account:{name}@%", f"{action}:device:{name}:%"))
