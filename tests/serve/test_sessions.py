"""Sessions end when they should, on the server: a cookie kept from before logging out, before a
password change or before "log out everywhere" opens nothing; password guessing is slowed down."""
from __future__ import annotations

import re

import pytest


def copy_of(site, service):
    """Another browser holding a copy of `site`'s cookie, as an attacker who saved it would."""
    thief = service.site()
    thief.client.cookies.update(site.client.cookies)
    return thief


def test_a_saved_cookie_stops_working_after_logout(service):
    alice = service.site("alice", "alice-password")
    saved = copy_of(alice, service)
    assert saved.client.get("/", follow_redirects=False).status_code == 200
    token = alice.csrf("/")
    assert alice.client.post("/logout", data={"csrf": token}, follow_redirects=False).status_code == 303
    assert saved.client.get("/", follow_redirects=False).status_code == 303
    assert saved.client.get("/a/quoridor", follow_redirects=False).headers["location"].startswith("/login")


def test_changing_the_password_ends_every_other_session_and_the_new_password_works(service):
    alice = service.site("alice", "alice-password")
    elsewhere = service.site("alice", "alice-password")
    saved = copy_of(alice, service)
    page = alice.client.get("/password")
    assert page.status_code == 200 and "Change your password" in page.text
    token = alice.csrf("/password")
    wrong = alice.client.post("/password", data={"csrf": token, "current": "not-it", "password": "brand-new-pass",
                                                 "again": "brand-new-pass"})
    assert wrong.status_code == 401 and "current password is wrong" in wrong.text
    done = alice.client.post("/password", data={"csrf": token, "current": "alice-password",
                                                "password": "brand-new-pass", "again": "brand-new-pass"})
    assert done.status_code == 200 and 'id="changed"' in done.text
    assert alice.client.get("/", follow_redirects=False).status_code == 200      # this browser stays in
    for other in (elsewhere, saved):
        assert other.client.get("/", follow_redirects=False).status_code == 303
    assert service.site().login("alice", "alice-password").status_code == 401
    assert service.site().login("alice", "brand-new-pass").status_code == 303


def test_log_out_everywhere_ends_every_session_of_the_account(service):
    alice = service.site("alice", "alice-password")
    phone = service.site("alice", "alice-password")
    bob = service.site("bob", "bob-password")
    token = alice.csrf("/password")
    assert alice.client.post("/logout/everywhere", data={"csrf": token}, follow_redirects=False).status_code == 303
    for s in (alice, phone):
        assert s.client.get("/", follow_redirects=False).status_code == 303
    assert bob.client.get("/", follow_redirects=False).status_code == 200     # other accounts are untouched


def test_wrong_passwords_are_limited_per_account_with_growing_delays_and_a_sentence(service):
    from grader.serve import throttle

    attacker = service.site()
    statuses = [attacker.login("alice", f"guess-{n}").status_code for n in range(12)]
    assert statuses[: throttle.FREE_FAILURES["account"]] == [401] * throttle.FREE_FAILURES["account"]
    assert 429 in statuses
    refused = attacker.login("alice", "alice-password")                   # even the right one, for now
    assert refused.status_code == 429 and re.search(r"wait \d+ second", refused.text)
    assert "uid" not in refused.headers.get("set-cookie", "")
    assert attacker.client.get("/", follow_redirects=False).status_code == 303
    row = service.database.one("SELECT * FROM attempts WHERE subject = ?", ("login:account:alice@testclient",))
    first = row["blocked_until"] - row["last_at"]
    attacker.login("alice", "another-guess")                                # refused: does not count
    service.database.execute("UPDATE attempts SET blocked_until = 0 WHERE subject = ?", ("login:account:alice@testclient",))
    assert attacker.login("alice", "yet-another").status_code == 401
    row = service.database.one("SELECT * FROM attempts WHERE subject = ?", ("login:account:alice@testclient",))
    assert row["blocked_until"] - row["last_at"] >= 2 * first * 0.99         # the delay doubled
    assert service.site().login("bob", "bob-password").status_code == 303    # another account is not blocked


def test_a_classmate_guessing_someones_password_cannot_lock_the_owner_out(service):
    """Sixteen wrong passwords for alice from a classmate's address: the classmate is throttled,
    alice, from her own address, signs in at once."""
    classmate = service.site(address="10.0.0.2")
    statuses = [classmate.login("alice", f"guess-{n}").status_code for n in range(16)]
    assert statuses[-1] == 429
    assert classmate.login("alice", "alice-password").status_code == 429      # the guesser stays throttled
    assert service.site(address="10.0.0.1").login("alice", "alice-password").status_code == 303


def test_behind_one_address_the_owner_still_signs_in_from_her_own_browser_or_through_a_reset(service):
    """A campus behind one NAT address: a classmate there exhausts the address's and alice's counts.
    alice still signs in from the browser she used before (signed out since), and a new browser
    of hers gets in through the instructor's reset link, which no guessing blocks either."""
    from grader.serve import throttle

    nat = "10.9.9.9"
    own = service.site("alice", "alice-password", address=nat)
    assert own.client.post("/logout", data={"csrf": own.csrf("/")}, follow_redirects=False).status_code == 303
    classmate = service.site(address=nat)
    for n in range(throttle.FREE_FAILURES["address"] + 5):
        classmate.login("alice", f"guess-{n}")
        classmate.client.get(f"/setup/guess{n}")                              # and guessing reset links
    assert classmate.login("alice", "alice-password").status_code == 429
    new_browser = service.site(address=nat)
    assert new_browser.login("alice", "alice-password").status_code == 429    # a stranger's browser is throttled
    assert own.login("alice", "alice-password").status_code == 303            # her own browser is not

    teacher = service.site("teacher", "teacher-password")
    page = teacher.client.post("/teach/quoridor/reset", data={"csrf": teacher.csrf("/teach/quoridor"),
                                                              "login": "alice"}).text
    link = re.search(r"http://testserver(/setup/[A-Za-z0-9_-]+)", page)
    assert link, page
    token = new_browser.csrf(link.group(1))
    done = new_browser.client.post(link.group(1), data={"csrf": token, "password": "a-new-long-password",
                                                        "again": "a-new-long-password"}, follow_redirects=False)
    assert done.status_code == 303 and new_browser.client.get("/", follow_redirects=False).status_code == 200


def test_guessing_across_many_accounts_is_limited_per_address(service):
    from grader.serve import throttle

    attacker = service.site()
    statuses = [attacker.login(f"nobody{n}", "password1234").status_code
                for n in range(throttle.FREE_FAILURES["address"] + 3)]
    assert statuses[-1] == 429 and "network address" in attacker.login("alice", "alice-password").text


def test_set_password_links_cannot_be_guessed_quickly(service):
    from grader.serve import throttle

    guesser = service.site()
    codes = [guesser.client.get(f"/setup/guess{n}").status_code for n in range(throttle.FREE_FAILURES["address"] + 3)]
    assert codes[0] == 404 and codes[-1] == 429


@pytest.mark.parametrize("path", ["/", "/login", "/a/quoridor"])
def test_every_page_carries_the_security_headers(service, path):
    alice = service.site("alice", "alice-password")
    r = alice.client.get(path)
    csp = r.headers["content-security-policy"]
    assert "script-src 'self'" in csp and "unsafe-inline" not in csp and "frame-ancestors 'none'" in csp
    assert r.headers["x-content-type-options"] == "nosniff" and r.headers["referrer-policy"]
    assert "strict-transport-security" not in r.headers                       # plain HTTP: no HSTS
    assert "<script>" not in r.text and "<style>" not in r.text and "style=" not in r.text


def test_a_login_stuck_in_its_password_hash_does_not_stall_other_pages(service, monkeypatch):
    """While one login's hash has not finished, the login page, a static file and an upload's status
    still answer: the hash runs in the thread pool, not on the event loop."""
    import socket
    import threading
    import time

    import httpx
    import uvicorn

    from grader.serve import accounts
    from grader.serve.app import create_app

    hashing, release = threading.Event(), threading.Event()
    real = accounts.check_password

    def slow_check(db, login, password):
        if login == "alice":
            hashing.set()
            release.wait(120)
        return real(db, login, password)

    monkeypatch.setattr(accounts, "check_password", slow_check)
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(create_app(service.config), host="127.0.0.1", port=port,
                                           log_level="warning"))
    threading.Thread(target=server.run, daemon=True).start()
    while not server.started:
        time.sleep(0.05)
    base = f"http://127.0.0.1:{port}"
    try:
        stuck = httpx.Client(base_url=base, timeout=150)
        token = re.search(r'name="csrf" value="([^"]+)"', stuck.get("/login").text).group(1)
        result: dict = {}
        login = threading.Thread(target=lambda: result.update(r=stuck.post(
            "/login", data={"login": "alice", "password": "alice-password", "csrf": token})))
        login.start()
        assert hashing.wait(120)
        other = httpx.Client(base_url=base, timeout=60)
        try:
            assert other.get("/static/style.css").status_code == 200
            assert other.get("/login").status_code == 200
        finally:
            release.set()
        login.join()
        assert result["r"].status_code == 303                      # logged in once the hash finished
    finally:
        release.set()
        server.should_exit = True
