"""Invitations: each student's set-password link as a ready-to-send e-mail, as files or sent by SMTP.

Why the e-mails are made from the instructor's page and nowhere else: a set-password token is stored
only as its hash (accounts.py), so the letters are written when the links are made (a zip inside a
data: URL, like the links' CSV), and the "Send invitations" form hands the page's links back; each
link is checked against its hash and its student before anything is sent.
Why a ledger (`invitations`, one row per link): a link is sent once. A send first claims the link's
row in one statement, so a second press, a double click or a re-posted form finds it claimed and
sends nothing; sending it again is the explicit `again`. A link the server refused may be sent again.
"""
from __future__ import annotations

import base64
import io
import json
import os
import smtplib
import ssl
import time
import zipfile
from collections.abc import Callable
from dataclasses import dataclass
from email.message import EmailMessage
from email.utils import formataddr, formatdate, make_msgid

from ..config import InvitationConfig, SmtpConfig
from . import accounts
from .db import Database
from .times import when

SCHEMA = """
CREATE TABLE IF NOT EXISTS invitations (
    token_hash TEXT PRIMARY KEY, user_id INTEGER NOT NULL, address TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('sending', 'sent', 'refused')), detail TEXT NOT NULL DEFAULT '',
    at REAL NOT NULL)
"""
TIMEOUT_S = 60               # one answer of the mail server
STALE_S = 600                # a send claimed this long ago and never settled (a crash) may be sent again explicitly


class DamagedForm(ValueError):
    """A send form whose links are not what the page gave, as one sentence."""


@dataclass
class Letter:
    """One student's invitation: who, where to, and their link with its expiry."""

    user_id: int
    login: str
    name: str
    email: str
    token: str
    link: str
    expires: float


@dataclass
class Outcome:
    """What became of one student's invitation, as one sentence; `again` when it was held back as already sent."""

    login: str
    name: str
    sent: bool
    sentence: str
    again: bool = False


class Words:
    """The course's words for its invitations (serve.invitation), filled in for each student."""

    def __init__(self, words: InvitationConfig, course: str, site: str, sender: str = "") -> None:
        self.words, self.course, self.site, self.sender = words, words.course or course, site, sender

    def message(self, letter: Letter) -> EmailMessage:
        fill = {"course": self.course, "name": letter.name or letter.login, "login": letter.login,
                "link": letter.link, "expires": when(letter.expires), "site": self.site}
        msg = EmailMessage()
        if self.sender:
            msg["From"] = self.sender
        if letter.email:
            msg["To"] = formataddr((letter.name, letter.email))
        msg["Subject"] = self.words.subject.format(**fill)
        msg["Date"] = formatdate(localtime=True)
        msg["Message-ID"] = make_msgid()
        msg.set_content(self.words.text.format(**fill))
        return msg


def create_tables(db: Database) -> None:
    with db.transaction() as tx:
        tx.execute(SCHEMA)


def zip_url(letters: list[Letter], words: Words) -> str:
    """The letters as one .eml file each (opened by any mail client as a message to send), zipped inside a
    data: URL: made now, in the page, and never kept on the server."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        for letter in letters:
            msg = words.message(letter)
            msg["X-Unsent"] = "1"                # Outlook and others open it as a draft, ready to send
            z.writestr(f"{letter.login}.eml", msg.as_bytes())
    return "data:application/zip;base64," + base64.b64encode(out.getvalue()).decode()


def form_links(letters: list[Letter]) -> str:
    """The links for the send form to hand back: [[login, token], …] as JSON."""
    return json.dumps([[x.login, x.token] for x in letters])


def letters_from_form(db: Database, links: str, site: str) -> tuple[list[Letter], list[Outcome]]:
    """The links a form handed back (`form_links`) that are still the students' own and unused,
    and a sentence for each that is not."""
    try:
        pairs = [(str(login), str(token)) for login, token in json.loads(links or "[]")]
    except (ValueError, TypeError):
        raise DamagedForm("The form's links are damaged; make the links again on the class page.") from None
    letters, stale = [], []
    for login, token in pairs:
        user = accounts.user_for_token(db, token) if token else None
        if user is None or user["login"] != login:
            stale.append(Outcome(login, "", False, "Not sent: this link was used, has expired or was replaced by a "
                                                   "newer one; make a new one on the class page."))
            continue
        letters.append(Letter(user["id"], login, user["name"], user["email"], token, f"{site}/setup/{token}",
                              float(user["setup_expires"])))
    return letters, stale


def _claim(db: Database, letter: Letter, again: bool) -> dict | None:
    """Take the link's row for this send (None), or the row that holds it back: sent before (unless `again`),
    or being sent by another request right now."""
    key, now = accounts.token_hash(letter.token), time.time()
    if db.execute("INSERT INTO invitations (token_hash, user_id, address, status, at) VALUES (?, ?, ?, 'sending', ?) "
                  "ON CONFLICT (token_hash) DO NOTHING", (key, letter.user_id, letter.email, now)) == 1:
        return None
    allowed = "status = 'refused'" + (" OR status = 'sent' OR (status = 'sending' AND at < ?)" if again else "")
    if db.execute(f"UPDATE invitations SET status = 'sending', address = ?, detail = '', at = ? "
                  f"WHERE token_hash = ? AND ({allowed})",
                  (letter.email, now, key, *((now - STALE_S,) if again else ()))) == 1:
        return None
    return db.one("SELECT * FROM invitations WHERE token_hash = ?", (key,))


def _settle(db: Database, letter: Letter, status: str, detail: str = "") -> None:
    db.execute("UPDATE invitations SET status = ?, detail = ?, at = ? WHERE token_hash = ?",
               (status, detail, time.time(), accounts.token_hash(letter.token)))


def _held_back(letter: Letter, row: dict) -> Outcome:
    if row["status"] == "sending":
        return Outcome(letter.login, letter.name, False, "Not sent: another request is sending this link right now.")
    return Outcome(letter.login, letter.name, False, f"Not sent again: this link went to {row['address']} at "
                   f"{when(row['at'])}; press Send again to send it once more.", again=True)


def send(db: Database, smtp: SmtpConfig, letters: list[Letter], message: Callable[[Letter], EmailMessage],
         again: bool = False) -> list[Outcome]:
    """Send each letter once over one SMTP session; a sentence per student: sent, refused by the server
    (the others are still sent), or not sent and why. Blocking: the caller runs it in the thread pool."""
    outcomes: dict[str, Outcome] = {}
    todo = []
    for letter in letters:
        if not letter.email:
            outcomes[letter.login] = Outcome(letter.login, letter.name, False, "Not sent: the roster gives no "
                                             "e-mail address; give this student the link from the table.")
        elif (row := _claim(db, letter, again)) is not None:
            outcomes[letter.login] = _held_back(letter, row)
        else:
            todo.append(letter)
    try:
        if todo:
            _deliver(db, smtp, todo, message, outcomes)
    finally:
        for letter in todo:
            if letter.login not in outcomes:           # an error that is not the server's answer
                _settle(db, letter, "refused", "not sent")
                outcomes[letter.login] = Outcome(letter.login, letter.name, False, "Not sent: the service failed "
                                                 "while sending; press Send invitations to try again.")
    return [outcomes[letter.login] for letter in letters]


def _deliver(db: Database, smtp: SmtpConfig, todo: list[Letter], message: Callable[[Letter], EmailMessage],
             outcomes: dict[str, Outcome]) -> None:
    password = os.environ.get(smtp.password_env) if smtp.password_env else None
    try:
        if smtp.password_env and password is None:
            raise smtplib.SMTPException(f"the environment variable {smtp.password_env} (serve.smtp.password_env) "
                                        f"is not set where the service runs")
        with smtplib.SMTP(smtp.host, smtp.port, timeout=TIMEOUT_S) as server:
            if smtp.starttls:
                server.starttls(context=ssl.create_default_context())
            if smtp.user and password is not None:
                server.login(smtp.user, password)
            for letter in todo:
                try:
                    server.send_message(message(letter))
                except smtplib.SMTPRecipientsRefused as exc:
                    code, said = next(iter(exc.recipients.values()))
                    _refused(db, letter, outcomes, f"{code} {_text(said)}")
                except (smtplib.SMTPSenderRefused, smtplib.SMTPDataError) as exc:
                    _refused(db, letter, outcomes, f"{exc.smtp_code} {_text(exc.smtp_error)}")
                else:
                    _settle(db, letter, "sent")
                    outcomes[letter.login] = Outcome(letter.login, letter.name, True, f"Sent to {letter.email}.")
    except (smtplib.SMTPException, OSError) as exc:
        why = f"{smtp.host}:{smtp.port} could not take it ({_text(getattr(exc, 'smtp_error', '')) or exc})"
        for letter in todo:
            if letter.login not in outcomes:
                _settle(db, letter, "refused", why)
                outcomes[letter.login] = Outcome(letter.login, letter.name, False,
                                                 f"Not sent: the mail server {why}; press Send invitations to try again.")


def _refused(db: Database, letter: Letter, outcomes: dict[str, Outcome], said: str) -> None:
    _settle(db, letter, "refused", said)
    outcomes[letter.login] = Outcome(letter.login, letter.name, False,
                                     f"Refused by the mail server for {letter.email}: {said.rstrip('.')}.")


def _text(said: bytes | str) -> str:
    return said.decode("utf-8", "replace") if isinstance(said, bytes) else str(said)
