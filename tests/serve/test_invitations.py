"""Roster invitations (issue 42.2): the set-password links as ready-to-send e-mails in a zip, and sent by
SMTP to a mail sink this test starts (aiosmtpd) — each link once, a refused address reported while the
others still go, a student kept out, and no student's e-mail carrying another's link."""
from __future__ import annotations

import asyncio
import base64
import email
import html
import io
import re
import threading
import zipfile
from contextlib import contextmanager
from email import policy

import pytest
from aiosmtpd.controller import Controller
from aiosmtpd.smtp import Envelope

from grader.config import ConfigError, load_config
from grader.serve import accounts
from grader.serve.app import create_app

from .conftest import Site, _free_port

ROSTER = ("Full name;Email address;Username\nDana Dvořák;dana@refuse.example.edu;dana\n"      # refused first: the
          "Cyril Černý;cyril@example.edu;cyril\nEve Erben;;eve\n")                              # session goes on


class Sink:
    """An SMTP server that keeps what it is sent and refuses every address at refuse.example.edu."""

    def __init__(self) -> None:
        self.messages: list[email.message.EmailMessage] = []
        self.envelopes: list[list[str]] = []

    async def handle_RCPT(self, server, session, envelope: Envelope, address: str, rcpt_options) -> str:
        if address.endswith("@refuse.example.edu"):
            return "550 5.1.1 No such mailbox here"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope: Envelope) -> str:
        self.envelopes.append(list(envelope.rcpt_tos))
        self.messages.append(email.message_from_bytes(envelope.original_content, policy=policy.default))
        return "250 Message accepted"


@pytest.fixture
def sink():
    handler = Sink()
    controller = Controller(handler, hostname="127.0.0.1", port=_free_port())
    controller.start()
    try:
        yield controller
    finally:
        controller.stop()


def _teacher(make_config, sink=None, port: int | None = None) -> tuple[Site, object]:
    port = port or (sink.port if sink else None)
    extra = (f"  smtp: {{host: 127.0.0.1, port: {port}, from: 'Game AI <gameai@example.edu>', starttls: false}}\n"
             "  invitation: {course: 'Game AI 2026'}\n") if port else ""
    app = create_app(make_config(extra))
    db = app.service.db
    accounts.create(db, "teacher", "Terry Teacher", role="instructor", password="teacher-password")
    accounts.create(db, "alice", "Alice Nováková", password="alice-password")
    site = Site(app)
    assert site.login("teacher", "teacher-password").status_code == 303
    return site, app


def _roster(site: Site) -> str:
    r = site.client.post("/teach/quoridor/roster", data={"csrf": site.csrf("/teach/quoridor")},
                         files={"roster": ("roster.csv", ROSTER.encode())})
    assert r.status_code == 200
    return r.text


def _send_form(page: str, form_id: str) -> dict:
    form = re.search(rf'<form id="{form_id}".*?</form>', page, re.S)
    assert form, f"no {form_id} form on the page"
    return {name: html.unescape(value) for name, value in re.findall(r'name="(\w+)" value="([^"]*)"', form.group(0))}


def _outcomes(page: str) -> dict[str, str]:
    return dict(re.findall(r"<tr><td>([^<]+)</td><td>[^<]*</td><td class=\"\w+\">([^<]+)</td></tr>", page))


def test_invitations_arrive_by_smtp_once_with_the_right_address_and_a_working_link(make_config, sink):
    teacher, app = _teacher(make_config, sink)
    page = _roster(teacher)
    shown = dict(re.findall(r"<tr><td>(\w+)</td><td>[^<]*</td><td><code>(http://testserver/setup/[\w-]+)</code>", page))
    form = _send_form(page, "send-invitations")
    r = teacher.client.post("/teach/quoridor/invitations", data=form)
    assert r.status_code == 200
    said = _outcomes(r.text)
    assert said["cyril"] == "Sent to cyril@example.edu."
    assert said["dana"].startswith("Refused by the mail server for dana@refuse.example.edu: 550")
    assert "no e-mail address" in said["eve"]
    assert sink.handler.envelopes == [["cyril@example.edu"]]
    msg = sink.handler.messages[0]
    assert msg["To"] == "Cyril Černý <cyril@example.edu>" and "Game AI 2026" in msg["Subject"]
    body = msg.get_content()
    assert re.findall(r"http://testserver/setup/[\w-]+", body) == [shown["cyril"]] and "Game AI 2026" in body
    assert re.search(r"until \d{4}-\d\d-\d\d \d\d:\d\d", body)

    # the same button again sends nothing twice; the refused one is tried again
    again = _outcomes(teacher.client.post("/teach/quoridor/invitations", data=form).text)
    assert again["cyril"].startswith("Not sent again: this link went to cyril@example.edu")
    assert again["dana"].startswith("Refused by the mail server")
    assert len(sink.handler.messages) == 1
    # a re-send is its own button
    resend = _send_form(teacher.client.post("/teach/quoridor/invitations", data=form).text, "send-again")
    assert _outcomes(teacher.client.post("/teach/quoridor/invitations", data=resend).text) == {
        "cyril": "Sent to cyril@example.edu."}
    assert len(sink.handler.messages) == 2

    # the link in the e-mail sets Cyril's password
    student = Site(app)
    link = shown["cyril"].removeprefix("http://testserver")
    token = student.csrf(link)
    r = student.client.post(link, data={"csrf": token, "password": "cyril-password", "again": "cyril-password"},
                            follow_redirects=False)
    assert r.status_code == 303
    assert Site(app).login("cyril", "cyril-password").status_code == 303
    # a used link is not sent
    assert "Not sent: this link was used" in _outcomes(
        teacher.client.post("/teach/quoridor/invitations", data={**form, "again": "1"}).text)["cyril"]


def test_a_student_cannot_send_invitations_and_without_a_mail_server_there_is_no_button(make_config, sink):
    teacher, app = _teacher(make_config, sink)
    form = _send_form(_roster(teacher), "send-invitations")
    alice = Site(app)
    assert alice.login("alice", "alice-password").status_code == 303
    r = alice.client.post("/teach/quoridor/invitations", data={**form, "csrf": alice.csrf("/")})
    assert r.status_code == 403
    assert sink.handler.messages == []


def test_no_send_button_without_a_mail_server(tmp_path, make_config):
    teacher, _ = _teacher(make_config)
    page = _roster(teacher)
    assert 'id="send-invitations"' not in page and 'id="emails-zip"' in page
    r = teacher.client.post("/teach/quoridor/invitations", data={"csrf": teacher.csrf("/teach/quoridor"), "links": "[]"})
    assert r.status_code == 404


def test_the_emails_zip_gives_each_student_their_own_link_only(make_config):
    teacher, _ = _teacher(make_config)
    page = _roster(teacher)
    shown = dict(re.findall(r"<tr><td>(\w+)</td><td>[^<]*</td><td><code>(http://testserver/setup/[\w-]+)</code>", page))
    found = re.search(r'id="emails-zip" href="data:application/zip;base64,([^"]+)"', page)
    assert found, "no e-mails zip on the roster page"
    files = zipfile.ZipFile(io.BytesIO(base64.b64decode(html.unescape(found.group(1)))))
    assert sorted(files.namelist()) == ["cyril.eml", "dana.eml", "eve.eml"]
    addresses = {"cyril": "cyril@example.edu", "dana": "dana@refuse.example.edu"}
    for login, link in shown.items():
        msg = email.message_from_bytes(files.read(f"{login}.eml"), policy=policy.default)
        assert (msg["To"].addresses[0].addr_spec if msg["To"] else None) == addresses.get(login)
        assert re.findall(r"http://testserver/setup/[\w-]+", msg.get_content()) == [link]
        assert not any(other.rsplit("/", 1)[1] in msg.as_string() for other in shown.values() if other != link)
        assert "Quoridor" in msg["Subject"]
    assert "No e-mail address on the roster for eve" in page


@pytest.mark.parametrize("smtp, complaint", [
    ("{host: h, from: a@b.c, password: secret}", "serve.smtp: holds a password: never write it in config.yaml"),
    ("{host: h, from: nobody}", "serve.smtp.from: 'nobody' is not an e-mail address"),
    ("{host: h, from: a@b.c, user: u}", "serve.smtp: needs both user and password_env"),
    ("{host: mail.example.edu, from: a@b.c, user: u, password_env: P, starttls: false}", "unencrypted"),
])
def test_a_broken_mail_setting_is_one_sentence(tmp_path, smtp, complaint):
    cfg = tmp_path / "config.yaml"
    cfg.write_text(f"assignments:\n  q: {{ruleset: quoridor, submissions: s}}\nserve:\n  smtp: {smtp}\n")
    with pytest.raises(ConfigError) as caught:
        load_config(cfg)
    said = str(caught.value)
    assert complaint in said and said.endswith(".") and not re.search(r"[.!?] [A-Z]", said)     # one sentence


def test_a_mail_server_that_is_down_sends_nothing_and_the_next_press_sends_once(make_config):
    port = _free_port()                                  # nothing listens there yet
    teacher, _ = _teacher(make_config, port=port)
    form = _send_form(_roster(teacher), "send-invitations")
    said = _outcomes(teacher.client.post("/teach/quoridor/invitations", data=form).text)
    assert said["cyril"].startswith(f"Not sent: the mail server 127.0.0.1:{port} could not take it")
    handler = Sink()
    server = Controller(handler, hostname="127.0.0.1", port=port)
    server.start()
    try:
        said = _outcomes(teacher.client.post("/teach/quoridor/invitations", data=form).text)
    finally:
        server.stop()
    assert said["cyril"] == "Sent to cyril@example.edu."
    assert handler.envelopes == [["cyril@example.edu"]]


def test_the_password_variable_missing_is_said_and_the_button_disabled(make_config, sink, monkeypatch):
    monkeypatch.delenv("GRADER_TEST_SMTP_PASSWORD", raising=False)
    app = create_app(make_config(f"  smtp: {{host: 127.0.0.1, port: {sink.port}, from: a@example.edu, user: u, "
                                 f"password_env: GRADER_TEST_SMTP_PASSWORD, starttls: false}}\n"))
    accounts.create(app.service.db, "teacher", "Terry Teacher", role="instructor", password="teacher-password")
    teacher = Site(app)
    assert teacher.login("teacher", "teacher-password").status_code == 303
    page = _roster(teacher)
    assert re.search(r'<button type="submit" disabled>Send invitations', page)
    assert "The environment variable GRADER_TEST_SMTP_PASSWORD (serve.smtp.password_env) is not set" in page
    said = _outcomes(teacher.client.post("/teach/quoridor/invitations", data=_send_form(page, "send-invitations")).text)
    assert "GRADER_TEST_SMTP_PASSWORD" in said["cyril"] and said["cyril"].startswith("Not sent")
    assert sink.handler.messages == []


class HeldSink(Sink):
    """A mail server that holds the message until the test lets it go (or a minute passes, as a backstop)."""

    def __init__(self) -> None:
        super().__init__()
        self.entered, self.release, self.let_go = threading.Event(), threading.Event(), False

    async def handle_DATA(self, server, session, envelope: Envelope) -> str:
        self.entered.set()
        self.let_go = await asyncio.get_running_loop().run_in_executor(None, self.release.wait, 60)
        return await super().handle_DATA(server, session, envelope)


@contextmanager
def held_server():
    """A mail server whose every message waits for `handler.release`; let go and stopped at the end."""
    handler = HeldSink()
    server = Controller(handler, hostname="127.0.0.1", port=_free_port())
    server.start()
    try:
        yield handler, server.port
    finally:
        handler.release.set()
        server.stop()


def test_a_slow_mail_server_holds_no_other_page(make_config):
    with held_server() as (handler, port):
        teacher, _ = _teacher(make_config, port=port)
        form = _send_form(_roster(teacher), "send-invitations")
        with teacher.client:                             # one event loop for every request, as under uvicorn
            sending = threading.Thread(target=teacher.client.post, args=("/teach/quoridor/invitations",),
                                       kwargs={"data": form})
            sending.start()
            assert handler.entered.wait(60), "the invitation never reached the mail server"
            assert teacher.client.get("/teach/quoridor").status_code == 200     # answered while the send waits
            handler.release.set()
            sending.join()
    assert handler.let_go, "the page waited for the mail server: the send blocked the event loop"
    assert handler.envelopes == [["cyril@example.edu"]]


def test_a_double_click_sends_each_link_once(make_config):
    with held_server() as (handler, port):
        teacher, _ = _teacher(make_config, port=port)
        form = _send_form(_roster(teacher), "send-invitations")
        with teacher.client:
            first = threading.Thread(target=teacher.client.post, args=("/teach/quoridor/invitations",),
                                     kwargs={"data": form})
            first.start()
            assert handler.entered.wait(60), "the invitation never reached the mail server"
            second = _outcomes(teacher.client.post("/teach/quoridor/invitations", data=form).text)
            handler.release.set()
            first.join()
    assert second["cyril"] == "Not sent: another request is sending this link right now."
    assert handler.envelopes == [["cyril@example.edu"]]
