"""Accounts: the roster makes them, a one-time link sets the password, Argon2 keeps it.

Tokens in set-password links are 128 random bits; only their SHA-256 is stored, so a copy of the
database does not hand out accounts. A roster is a CSV with a login column (login, username,
email, "SIS Login ID", "Identifier", …) and optionally a name and a role; Moodle's and Canvas's
exports have such columns and are read as they are, names included (Moodle's "First name" and
"Last name"/"Surname", Canvas's "Student" or "Name"). A login may be an e-mail address (when the
roster has nothing else); it is shown only to its owner and to instructors, never to other students.
"""
from __future__ import annotations

import csv
import hashlib
import io
import secrets
import time
from dataclasses import dataclass

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

from .db import Database

SETUP_VALID_S = 14 * 24 * 3600
LOGIN_COLUMNS = ("login", "username", "user", "sis login id", "login id", "email", "email address", "e-mail")
NAME_COLUMNS = ("name", "full name", "student", "display name", "student name")
FIRST_NAME_COLUMNS = ("first name", "firstname", "given name")
LAST_NAME_COLUMNS = ("last name", "surname", "lastname", "family name")
EMAIL_COLUMNS = ("email", "email address", "e-mail")
ROLE_COLUMNS = ("role", "roles")
MIN_PASSWORD = 10
_hasher = PasswordHasher()


class RosterError(ValueError):
    """A roster file that cannot be read, as one sentence."""


@dataclass
class NewAccount:
    login: str
    name: str
    token: str          # for the set-password link, shown once


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def hash_password(password: str) -> str:
    return _hasher.hash(password)


def by_login(db: Database, login: str) -> dict | None:
    return db.one("SELECT * FROM users WHERE login = ?", (login,))


def by_id(db: Database, user_id: int) -> dict | None:
    return db.one("SELECT * FROM users WHERE id = ?", (user_id,))


def students(db: Database) -> list[dict]:
    return db.query("SELECT * FROM users WHERE role = 'student' ORDER BY login")


def password_problem(password: str, again: str) -> str:
    """Why a new password is not accepted, as a sentence ('' when it is)."""
    if len(password) < MIN_PASSWORD:
        return f"Choose a password of at least {MIN_PASSWORD} characters."
    if password != again:
        return "The two passwords differ."
    return ""


def change_password(db: Database, user_id: int, password: str) -> None:
    db.execute("UPDATE users SET password_hash = ?, setup_token_hash = NULL, setup_expires = NULL WHERE id = ?",
               (hash_password(password), user_id))


def check_password(db: Database, login: str, password: str) -> dict | None:
    """The user, if the password is theirs."""
    user = by_login(db, login)
    if not user or not user["password_hash"]:
        _hasher.hash(password)                       # the same work for unknown logins
        return None
    try:
        _hasher.verify(user["password_hash"], password)
    except (VerificationError, InvalidHashError):
        return None
    return user


def create(db: Database, login: str, name: str = "", email: str = "", role: str = "student",
           password: str | None = None) -> NewAccount | None:
    """A new account (None when the login exists) with a set-password token unless `password` is given."""
    token = secrets.token_urlsafe(16)
    with db.transaction() as tx:
        if tx.query("SELECT id FROM users WHERE login = ?", (login,)):
            return None
        tx.insert("INSERT INTO users (login, name, email, role, password_hash, setup_token_hash, setup_expires, "
                  "created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                  (login, name, email, role, hash_password(password) if password else None,
                   None if password else token_hash(token), None if password else time.time() + SETUP_VALID_S,
                   time.time()))
    return NewAccount(login, name, "" if password else token)


def new_setup_token(db: Database, login: str) -> str | None:
    """A fresh set-password token for an existing account (the old one stops working)."""
    token = secrets.token_urlsafe(16)
    done = db.execute("UPDATE users SET setup_token_hash = ?, setup_expires = ? WHERE login = ?",
                      (token_hash(token), time.time() + SETUP_VALID_S, login))
    return token if done else None


def user_for_token(db: Database, token: str) -> dict | None:
    user = db.one("SELECT * FROM users WHERE setup_token_hash = ?", (token_hash(token),))
    if not user or (user["setup_expires"] or 0) < time.time():
        return None
    return user


def set_password(db: Database, token: str, password: str) -> dict | None:
    """Use a set-password token once; the user, or None when the token is unknown or used."""
    user = user_for_token(db, token)
    if user is None:
        return None
    changed = db.execute("UPDATE users SET password_hash = ?, setup_token_hash = NULL, setup_expires = NULL "
                         "WHERE id = ? AND setup_token_hash = ?", (hash_password(password), user["id"],
                                                                    token_hash(token)))
    return user if changed else None


def read_roster(text: str) -> list[dict]:
    """[{login, name, email, role}] from a roster CSV (comma or semicolon separated)."""
    text = text.lstrip("\ufeff")
    try:
        dialect = csv.Sniffer().sniff(text.split("\n", 1)[0], delimiters=",;\t")
    except csv.Error:
        dialect = csv.excel
    rows = list(csv.DictReader(io.StringIO(text), dialect=dialect))
    if not rows:
        raise RosterError("the roster has no rows under its header.")
    columns = {c.strip().lower(): c for c in rows[0] if c}
    login_col = next((columns[c] for c in LOGIN_COLUMNS if c in columns), None)
    if login_col is None:
        raise RosterError(f"the roster has no login column (one of: {', '.join(LOGIN_COLUMNS)}); "
                          f"its columns are {', '.join(columns.values())}.")
    name_col = next((columns[c] for c in NAME_COLUMNS if c in columns), None)
    first_col = next((columns[c] for c in FIRST_NAME_COLUMNS if c in columns), None)
    last_col = next((columns[c] for c in LAST_NAME_COLUMNS if c in columns), None)
    email_col = next((columns[c] for c in EMAIL_COLUMNS if c in columns), None)
    role_col = next((columns[c] for c in ROLE_COLUMNS if c in columns), None)

    def cell(row: dict, column: str | None) -> str:
        return (row.get(column) or "").strip() if column else ""

    out = []
    for row in rows:
        login = cell(row, login_col)
        if not login or login.lower().startswith("points possible"):     # Canvas's second header row
            continue
        name = cell(row, name_col) or " ".join(filter(None, (cell(row, first_col), cell(row, last_col))))
        out.append({"login": login, "name": name, "email": cell(row, email_col),
                    "role": _role(cell(row, role_col))})
    return out


def _role(text: str) -> str:
    """Moodle's "Teacher"/"Non-editing teacher"/"Manager", Canvas's "TaEnrollment"… are instructors."""
    words = text.lower()
    if any(w in words for w in ("instructor", "teacher", "manager", "teaching assistant")) \
            or words in ("ta", "taenrollment", "teacherenrollment"):
        return "instructor"
    return "student"
