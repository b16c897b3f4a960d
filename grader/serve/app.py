"""The service's pages: plain server-rendered HTML (the report's Jinja2 templates and stylesheet).

Each handler is a plain function run in the thread pool (`handler`): password hashing, SQL, fsync and
file reads never run on the event loop, so a flood of logins does not stall pages or uploads.
Sessions are rows on the server (`sessions`), so logging out ends every copy of the cookie; password
guesses are limited (`throttle`). The identity header of a single sign-on proxy is believed only
from the proxy's configured addresses. Every response carries a CSP without inline script,
frame-ancestors, nosniff and Referrer-Policy (HSTS over TLS). Every page checks the session against what it shows: a student sees only their own uploads (ids
are unguessable, and an id of someone else's upload answers 404 exactly as an unknown one does);
instructor pages answer 403 to students. Every form carries the session's CSRF token. Upload
bodies are counted as they arrive and refused past the limit before anything is written.
"""
from __future__ import annotations

import base64
import csv
import hmac
import html
import io
import ipaddress
import json
import re
import secrets
from pathlib import Path

import jinja2
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.middleware.sessions import SessionMiddleware
from starlette.requests import Request
from starlette.responses import (
    FileResponse,
    HTMLResponse,
    JSONResponse,
    PlainTextResponse,
    RedirectResponse,
    Response,
)
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from .. import usecases
from ..penalties import deadline_of
from ..results_doc import ResultsDoc, SubmissionRow
from . import accounts, invitation_pages, invitations, lti, oidc, practice_pages, sessions, throttle, uploads
from .context import ServeContext, secret_key
from .league_folder import folder_name, league_assignment
from .site_file import site_file
from .times import when, zoned

TEMPLATES = Path(__file__).resolve().parent.parent / "templates"
STATIC = Path(__file__).resolve().parent.parent / "static"
KNOWN_LOGINS = 4           # accounts a browser remembers having signed in from (throttle.py: its own count)


class BodyLimit:
    """ASGI middleware: a POST body larger than `limit` bytes is answered 413 as soon as it is over
    (by Content-Length, or by counting as it arrives), so an oversized upload never reaches the disk.
    A body within the limit is read here and handed on whole."""

    def __init__(self, app, limit: int) -> None:
        self.app, self.limit = app, limit

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http" or scope["method"] != "POST":
            return await self.app(scope, receive, send)
        declared = dict(scope["headers"]).get(b"content-length")
        if declared is not None and declared.isdigit() and int(declared) > self.limit:
            return await self._refuse(send)
        chunks, seen = [], 0
        while True:
            message = await receive()
            if message["type"] != "http.request":
                return
            chunks.append(message.get("body", b""))
            seen += len(chunks[-1])
            if seen > self.limit:
                return await self._refuse(send)
            if not message.get("more_body"):
                break
        body, sent = b"".join(chunks), False

        async def replay():
            nonlocal sent
            if sent:
                return await receive()
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}

        await self.app(scope, replay, send)

    async def _refuse(self, send):
        body = f"The upload is larger than {self.limit / 1e6:.0f} MB, the most this service accepts.".encode()
        await send({"type": "http.response.start", "status": 413,
                    "headers": [(b"content-type", b"text/plain; charset=utf-8"), (b"connection", b"close")]})
        await send({"type": "http.response.body", "body": body})


CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; object-src 'none'; "
       "base-uri 'none'; form-action 'self'; frame-ancestors 'none'")
HEADERS = [(b"content-security-policy", CSP.encode()), (b"x-content-type-options", b"nosniff"),
           (b"referrer-policy", b"same-origin"), (b"x-frame-options", b"DENY")]
HSTS = (b"strict-transport-security", b"max-age=31536000")


class SecurityHeaders:
    """ASGI middleware: every response carries the security headers; HSTS only when served over TLS
    (directly, or as a trusted proxy's X-Forwarded-Proto says)."""

    def __init__(self, app, svc: Service) -> None:
        self.app, self.svc, self.service = app, svc, svc

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        tls = self.svc.over_tls(Request(scope))

        async def with_headers(message):
            if message["type"] == "http.response.start":
                own = message.get("headers", [])
                ours = [h for h in HEADERS if h[0] != b"content-security-policy"
                        or all(k.lower() != h[0] for k, _ in own)]     # a page with its own CSP keeps it
                message["headers"] = [*own, *ours, *([HSTS] if tls else [])]
            await send(message)

        await self.app(scope, receive, with_headers)


def _networks(addresses: list[str]) -> list:
    return [ipaddress.ip_network(a, strict=False) for a in addresses]


def _within(host: str | None, networks: list) -> bool:
    try:
        address = ipaddress.ip_address(host or "")
    except ValueError:
        return False
    return any(address in n for n in networks)


class Service(ServeContext):
    """Configuration, database and templates shared by the routes, and who is asking."""

    lti: lti.Tool | None = None                     # set by create_app when `serve.lti` is configured

    def __init__(self, config_path: Path) -> None:
        super().__init__(config_path)
        self.env = jinja2.Environment(loader=jinja2.FileSystemLoader(str(TEMPLATES / "serve")), autoescape=True,
                                      undefined=jinja2.StrictUndefined, trim_blocks=True, lstrip_blocks=True)
        self.env.filters["when"] = when
        self.env.globals["verdict_words"] = usecases.verdict_words
        self.env.filters["pts"] = lambda v: "" if v is None else f"{v:.4g}"
        proxy = self.settings.trusted_proxy
        if proxy is not None and not proxy.addresses:
            raise ValueError("serve.trusted_proxy needs the proxy's own addresses; without them anyone could "
                             "send the identity header.")
        self.identity_proxies = _networks(proxy.addresses) if proxy else []
        self.forwarders = self.identity_proxies + _networks(self.settings.proxy_addresses)

    # ------------------------------------------------------------------ who is asking
    def _peer(self, request: Request) -> str | None:
        return request.client.host if request.client else None

    def client_address(self, request: Request) -> str:
        """The client's address: the TCP peer, or the last X-Forwarded-For hop when the peer is our proxy."""
        peer = self._peer(request) or "unknown"
        forwarded = request.headers.get("x-forwarded-for", "")
        if forwarded and _within(peer, self.forwarders):
            return forwarded.split(",")[-1].strip() or peer
        return peer

    def over_tls(self, request: Request) -> bool:
        if request.url.scheme == "https":
            return True
        return (_within(self._peer(request), self.forwarders)
                and request.headers.get("x-forwarded-proto", "").lower() == "https")

    def base_url(self, request: Request) -> str:
        """Where links point: serve.public_url, else what a trusted proxy forwards, else this request."""
        if self.settings.public_url:
            return self.settings.public_url
        if _within(self._peer(request), self.forwarders):
            host = request.headers.get("x-forwarded-host") or request.headers.get("host", "")
            return f"{'https' if self.over_tls(request) else 'http'}://{host}"
        return str(request.base_url).rstrip("/")

    def user(self, request: Request) -> dict | None:
        proxy = self.settings.trusted_proxy
        if proxy is not None and _within(self._peer(request), self.identity_proxies):
            login = request.headers.get(proxy.header, "").strip()
            if login:
                return accounts.by_login(self.db, login)
        token = request.session.get("sid")
        return sessions.user(self.db, token) if isinstance(token, str) else None

    def log_in(self, request: Request, user: dict) -> None:
        """A fresh session (and CSRF token) for this browser, which is now one the account signed in from."""
        known = [login for login in self._known(request) if login != user["login"]][-(KNOWN_LOGINS - 1):]
        self.log_out(request)
        request.session["known"] = [*known, user["login"]]
        request.session["sid"] = sessions.start(self.db, user["id"])

    def log_out(self, request: Request) -> None:
        """End this browser's session; what it remembers of itself (`device`, `known`) stays."""
        device, known = request.session.get("device") or secrets.token_urlsafe(16), self._known(request)
        request.session.clear()
        request.session.update(device=device, known=known)

    def _known(self, request: Request) -> list[str]:
        known = request.session.get("known")
        return [k for k in known if isinstance(k, str)] if isinstance(known, list) else []

    def device(self, request: Request, login: str) -> str:
        """This browser's id if `login` signed in from it before (the signed cookie says so), else "":
        its wrong passwords are then counted apart, so no one else's can lock it out (throttle.py)."""
        device = request.session.get("device")
        return device if isinstance(device, str) and login in self._known(request) else ""

    def need_user(self, request: Request) -> dict:
        user = self.user(request)
        if user is None:
            raise HTTPException(303, headers={"Location": f"/login?next={request.url.path}"})
        return user

    def need_instructor(self, request: Request) -> dict:
        user = self.need_user(request)
        if user["role"] != "instructor":
            raise HTTPException(403, "This page is for instructors.")
        return user

    def csrf(self, request: Request) -> str:
        token = request.session.get("csrf")
        if not token:
            token = request.session["csrf"] = secrets.token_urlsafe(24)
        return token

    async def form(self, request: Request):
        """The POSTed form, after checking its CSRF token."""
        form = await request.form(max_files=1, max_fields=20)
        expected = request.session.get("csrf", "")
        if not expected or not hmac.compare_digest(str(form.get("csrf", "")), expected):
            raise HTTPException(403, "The form has expired or did not come from this site; reload the page and try again.")
        return form

    def page(self, request: Request, template: str, status: int = 200, **context) -> HTMLResponse:
        user = self.user(request)
        html = self.env.get_template(template).render(user=user, csrf=self.csrf(request), oidc=self.settings.oidc,
                                                      lti=self.settings.lti, **context)
        return HTMLResponse(html, status_code=status, headers={"Cache-Control": "no-store"})

    def assignment(self, name: str):
        a = self.assignments.get(name)
        if a is None:
            raise HTTPException(404, "No such assignment.")
        return a

    def own_upload(self, request: Request, upload_id: str) -> tuple[dict, dict]:
        """(user, upload) when the upload is the user's (or the user teaches); 404 otherwise."""
        user = self.need_user(request)
        upload = uploads.by_id(self.db, upload_id)
        if upload is None or (upload["user_id"] != user["id"] and user["role"] != "instructor"):
            raise HTTPException(404, "No such upload.")
        return user, upload

    def league_folder(self, name: str) -> Path:
        return self.data_dir / "league" / name / "reports"

    def results(self, name: str) -> ResultsDoc | None:
        """The service's last league of the assignment, read by the use case `grader report` reads it
        with; None before the first league (or if its file is damaged: the next league rewrites it)."""
        try:
            return usecases.results(league_assignment(self.assignment(name), self.data_dir))
        except usecases.Refused:
            return None


def handler(svc: Service, fn):
    """An endpoint that reads (and CSRF-checks) a POSTed form on the event loop, then runs `fn` (password
    hashing, SQL, fsync, files) in the thread pool, so no request's blocking work stalls another's."""

    async def endpoint(request: Request):
        form = await svc.form(request) if request.method == "POST" else None
        return await run_in_threadpool(fn, svc, request, form)

    return endpoint


# -------------------------------------------------------------------- logging in
def login(svc: Service, request: Request, form) -> Response:
    error, status = "", 200
    if form is not None:
        name, address = str(form.get("login", "")).strip(), svc.client_address(request)
        device = svc.device(request, name)
        try:
            throttle.check(svc.db, "login", name, address, device)
            user = accounts.check_password(svc.db, name, str(form.get("password", "")))
            if user:
                throttle.succeeded(svc.db, "login", name, address, device)
                svc.log_in(request, user)
                nxt = request.query_params.get("next", "/")
                return RedirectResponse(nxt if nxt.startswith("/") and not nxt.startswith("//") else "/", 303)
            throttle.failed(svc.db, "login", name, address, device)
            error, status = "The login or the password is wrong.", 401
        except throttle.TooManyAttempts as exc:
            error, status = str(exc), 429
    return svc.page(request, "login.html", status=status, error=error)


def logout(svc: Service, request: Request, form) -> Response:
    token = request.session.get("sid")
    if isinstance(token, str):
        sessions.end(svc.db, token)
    svc.log_out(request)
    return RedirectResponse("/login", 303)


def logout_everywhere(svc: Service, request: Request, form) -> Response:
    user = svc.need_user(request)
    sessions.end_all(svc.db, user["id"])
    svc.log_out(request)
    return RedirectResponse("/login", 303)


def setup(svc: Service, request: Request, form) -> Response:
    token, address = request.path_params["token"], svc.client_address(request)
    user = accounts.user_for_token(svc.db, token)      # a real link always works: no guesser can block it
    if user is None:
        try:
            throttle.check(svc.db, "setup", "", address)
        except throttle.TooManyAttempts as exc:
            return svc.page(request, "message.html", status=429, title="Too many attempts", message=str(exc))
        throttle.failed(svc.db, "setup", "", address)
        return svc.page(request, "message.html", status=404, title="Link not valid",
                        message="This set-password link is unknown, used or expired; ask your instructor for a new one.")
    error = ""
    if form is not None:
        password = str(form.get("password", ""))
        error = accounts.password_problem(password, str(form.get("again", "")))
        if not error and accounts.set_password(svc.db, token, password):
            sessions.end_all(svc.db, user["id"])
            throttle.cleared(svc.db, "login", user["login"])
            svc.log_in(request, user)
            return RedirectResponse("/", 303)
    return svc.page(request, "setup.html", user_name=user["name"] or user["login"], error=error)


def change_password(svc: Service, request: Request, form) -> Response:
    user = svc.need_user(request)
    error, status, done = "", 200, False
    if form is not None:
        where = (user["login"], svc.client_address(request), svc.device(request, user["login"]))
        try:
            throttle.check(svc.db, "login", *where)
            if not accounts.check_password(svc.db, user["login"], str(form.get("current", ""))):
                throttle.failed(svc.db, "login", *where)
                error, status = "The current password is wrong.", 401
            else:
                new = str(form.get("password", ""))
                error = accounts.password_problem(new, str(form.get("again", "")))
                if not error:
                    accounts.change_password(svc.db, user["id"], new)
                    sessions.end_all(svc.db, user["id"])
                    svc.log_in(request, user)
                    done = True
        except throttle.TooManyAttempts as exc:
            error, status = str(exc), 429
    return svc.page(request, "password.html", status=status if error else 200, error=error, done=done)


# -------------------------------------------------------------------- students
def home(svc: Service, request: Request, form) -> Response:
    user = svc.need_user(request)
    rows = []
    for name, a in svc.assignments.items():
        mine = uploads.of_user(svc.db, user["id"], name)
        best = max((u["points"] for u in mine if u["points"] is not None), default=None)
        rows.append({"name": name, "title": a.title, "uploads": len(mine), "best": best,
                     "latest": mine[0] if mine else None, "deadline": deadline(a.config.penalties),
                     "upload_limit": a.config.penalties.get("upload_limit")})
    return svc.page(request, "home.html", rows=rows)


def assignment_page(svc: Service, request: Request, form) -> Response:
    user = svc.need_user(request)
    name = request.path_params["name"]
    a = svc.assignment(name)
    mine = uploads.of_user(svc.db, user["id"], name)
    for u in mine:
        u["after"] = uploads.penalised(u, a.config.penalties)
    results = svc.results(name)
    games = own_games(results, user["login"]) if results else []
    return svc.page(request, "assignment.html", a=a, name=name, uploads=mine, games=games,
                    has_league=results is not None, penalties=a.config.penalties, deadline=deadline(a.config.penalties),
                    accepted=", ".join(uploads.accepted_suffixes(a.ruleset.entry)),
                    max_mb=min(svc.settings.max_upload_mb, a.max_submission_mb), message=request.query_params.get("m", ""))


def upload(svc: Service, request: Request, form) -> Response:
    user = svc.need_user(request)
    name = request.path_params["name"]
    a = svc.assignment(name)
    item = form.get("file")
    try:
        if item is None or not hasattr(item, "read"):
            raise uploads.UploadRefused("Choose a file to upload.")
        uploads.check_rate(svc.db, user["id"], svc.settings.rate_limit, svc.settings.rate_window_s)
        limit = min(svc.settings.max_upload_mb, a.max_submission_mb) * 1e6
        data = item.file.read(int(limit) + 1)
        if len(data) > limit:
            raise uploads.UploadRefused(f"The upload is larger than {limit / 1e6:g} MB.", status=413)
        if not data:
            raise uploads.UploadRefused("The file is empty.")
        row = uploads.store(svc.db, svc.data_dir, user["id"], name,
                            uploads.accepted_filename(item.filename, a.ruleset.entry, data), data,
                            rate=(svc.settings.rate_limit, svc.settings.rate_window_s))
    except uploads.UploadRefused as exc:
        return svc.page(request, "message.html", status=exc.status, title="Upload not taken", message=str(exc),
                        back=f"/a/{name}")
    return RedirectResponse(f"/uploads/{row['id']}", 303)


def upload_page(svc: Service, request: Request, form) -> Response:
    _, u = svc.own_upload(request, request.path_params["id"])
    a = svc.assignment(u["assignment"])
    verdict = json.loads(u["verdict_json"]) if u["verdict_json"] else None
    owner = accounts.by_id(svc.db, u["user_id"])
    return svc.page(request, "upload.html", u=u, a=a, verdict=verdict, owner=owner,
                    position=uploads.queue_position(svc.db, u), after=uploads.penalised(u, a.config.penalties),
                    pictures=_pictures(verdict))


def upload_status(svc: Service, request: Request, form) -> Response:
    _, u = svc.own_upload(request, request.path_params["id"])
    return JSONResponse({"status": u["status"], "stage": u["stage"], "position": uploads.queue_position(svc.db, u),
                         "passed": u["passed"], "points": u["points"]}, headers={"Cache-Control": "no-store"})


def league_site(svc: Service, request: Request, form) -> Response:
    """The league's public site (pseudonyms, no logins, e-mails or captured output): what every student
    gets, each page with a link back to the assignment's page in the service."""
    svc.need_user(request)
    name = request.path_params["name"]
    svc.assignment(name)
    response = site_file(svc.league_folder(name) / "public", request.path_params.get("path", ""),
                          "No league has been played yet.")
    if Path(response.path).suffix != ".html":
        return response
    page = Path(response.path).read_text(encoding="utf-8")
    back = (f'<nav class="service"><a href="/a/{html.escape(name)}">← Back to '
            f'{html.escape(svc.assignment(name).title)} in the upload service</a></nav>')
    page = re.sub(r"<body[^>]*>", lambda m: m.group(0) + "\n" + back, page, count=1)
    return HTMLResponse(page, headers={"Cache-Control": "no-store"})


# -------------------------------------------------------------------- instructors
def league_site_private(svc: Service, request: Request, form) -> Response:
    """The instructor's league site (real names, logins, captured output): instructors only."""
    svc.need_instructor(request)
    name = request.path_params["name"]
    svc.assignment(name)
    return site_file(svc.league_folder(name), request.path_params.get("path", ""), "No league has been played yet.")


def teach(svc: Service, request: Request, form) -> Response:
    svc.need_instructor(request)
    name = request.path_params["name"]
    a = svc.assignment(name)
    results = svc.results(name)
    graded = results is not None and any(s.get("grade") is not None for s in results.get("submissions", []))
    rows = []
    for s in accounts.students(svc.db):
        mine = uploads.of_user(svc.db, s["id"], name)
        done = [u for u in mine if u["status"] == "done"]
        best = max(done, key=lambda u: (u["points"] or 0, u["uploaded_at"]), default=None)
        rows.append({"student": s, "count": len(mine), "latest": mine[0] if mine else None, "best": best,
                     "best_after": uploads.penalised(best, a.config.penalties) if best else None,
                     "league": league_row(results, s["login"]) if results is not None and graded else None})
    return svc.page(request, "teach.html", a=a, name=name, rows=rows, runs=uploads.league_runs(svc.db, name),
                    graded_at=results["assignment"].get("generated_at") if results is not None and graded else None,
                    grader_failed=uploads.grader_failed_count(svc.db, name),
                    message=request.query_params.get("m", ""), new_accounts=[])


def student_uploads(svc: Service, request: Request, form) -> Response:
    svc.need_instructor(request)
    name = request.path_params["name"]
    a = svc.assignment(name)
    s = accounts.by_id(svc.db, int(request.path_params["uid"]))
    if s is None:
        raise HTTPException(404, "No such student.")
    mine = uploads.of_user(svc.db, s["id"], name)
    for u in mine:
        u["after"] = uploads.penalised(u, a.config.penalties)
    return svc.page(request, "student.html", a=a, name=name, s=s, uploads=mine)


def upload_file(svc: Service, request: Request, form) -> Response:
    svc.need_instructor(request)
    _, u = svc.own_upload(request, request.path_params["id"])
    return FileResponse(u["path"], filename=u["filename"], media_type="application/octet-stream")


def rejudge(svc: Service, request: Request, form) -> Response:
    svc.need_instructor(request)
    name = request.path_params["name"]
    svc.assignment(name)
    n = uploads.rejudge(svc.db, name, str(form.get("upload") or "") or None)
    return RedirectResponse(f"/teach/{name}?m=" + f"{n} upload(s) queued for evaluation again.", 303)


def league_now(svc: Service, request: Request, form) -> Response:
    user = svc.need_instructor(request)
    name = request.path_params["name"]
    svc.assignment(name)
    queued = uploads.queue_league_run(svc.db, name, user["id"])
    m = ("League run queued: its progress and result are under League runs (reload the page)." if queued
         else "A league run is already queued or running: see League runs.")
    return RedirectResponse(f"/teach/{name}?m={m}", 303)


def grades(svc: Service, request: Request, form) -> Response:
    svc.need_instructor(request)
    name = request.path_params["name"]
    svc.assignment(name)
    path = svc.league_folder(name) / "grades.csv"
    if not path.is_file():
        return PlainTextResponse("No league has been played yet, so there are no grades.", 404)
    return FileResponse(path, filename=f"{name}-grades.csv", media_type="text/csv")


def roster(svc: Service, request: Request, form) -> Response:
    svc.need_instructor(request)
    name = request.path_params["name"]
    item = form.get("roster")
    text = item.file.read().decode("utf-8-sig", errors="replace") if hasattr(item, "file") else ""
    try:
        people = accounts.read_roster(text)
    except accounts.RosterError as exc:
        return svc.page(request, "message.html", status=400, title="Roster not read", message=f"The {exc}",
                        back=f"/teach/{name}")
    made = []
    for p in people:
        acc = accounts.create(svc.db, p["login"], p["name"], p["email"], p["role"])
        if acc is not None:
            made.append({"login": acc.login, "name": acc.name, "email": p["email"], "token": acc.token,
                         "link": f"{svc.base_url(request)}/setup/{acc.token}"})
    return svc.page(request, "roster.html", name=name, made=made, skipped=len(people) - len(made),
                    csv_url=links_csv(made), **invitation_pages.roster_context(svc, request, name, made))


def links_csv(made: list[dict]) -> str:
    """The set-password links as a CSV for a mail merge, inside a data: URL: the tokens are shown this once
    and never stored, so the file is made now, in the page, and not kept on the server."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(["login", "name", "email", "link"])
    for m in made:
        writer.writerow([m["login"], m["name"], m.get("email", ""), m["link"]])
    return "data:text/csv;charset=utf-8;base64," + base64.b64encode(out.getvalue().encode("utf-8")).decode()


def reset_link(svc: Service, request: Request, form) -> Response:
    svc.need_instructor(request)
    login = str(form.get("login", ""))
    name = request.path_params["name"]
    token = accounts.new_setup_token(svc.db, login)
    user = accounts.by_login(svc.db, login)
    if token is None or user is None:
        raise HTTPException(404, "No such account.")
    made = [{"login": login, "name": user["name"], "email": user["email"], "token": token,
             "link": f"{svc.base_url(request)}/setup/{token}"}]
    return svc.page(request, "roster.html", name=name, skipped=0, made=made, csv_url=links_csv(made),
                    **invitation_pages.roster_context(svc, request, name, made))


def asset(svc: Service, request: Request, form) -> Response:
    """The service's own stylesheet and script (files, so the CSP needs no inline code)."""
    name = request.path_params["file"]
    if name not in ASSETS:
        raise HTTPException(404, "Not found.")
    return FileResponse(TEMPLATES / "serve" / name, media_type=ASSETS[name], headers={"Cache-Control": "max-age=300"})


ASSETS = {"serve.css": "text/css", "serve.js": "text/javascript", "favicon.png": "image/png"}


def favicon(svc: Service, request: Request, form) -> Response:
    """The icon every browser asks for on every page (a 32-pixel PNG: browsers take one at this name)."""
    return FileResponse(TEMPLATES / "serve" / "favicon.png", media_type="image/png",
                        headers={"Cache-Control": "max-age=86400"})


def deadline(penalties: dict) -> str:
    """The deadline as configured, with the time zone it is counted in."""
    moment = deadline_of(penalties)
    return zoned(moment, "%Y-%m-%d %H:%M") if moment else ""


def create_app(config_path: Path) -> SecurityHeaders:
    """The service as an ASGI app: the routes inside the session, body-limit and header middleware."""
    svc = Service(config_path)
    svc.lti = lti.Tool(svc) if svc.settings.lti else None
    invitations.create_tables(svc.db)

    def page(path: str, fn, methods=("GET",)) -> Route:
        return Route(path, handler(svc, fn), methods=list(methods))

    async def error_page(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, HTTPException)
        if exc.status_code == 303:
            return Response(status_code=303, headers=exc.headers)
        return await run_in_threadpool(svc.page, request, "message.html", status=exc.status_code,
                                       title=f"{exc.status_code}", message=exc.detail)

    post, both = ("POST",), ("GET", "POST")
    routes = [
        page("/", home), page("/login", login, both), page("/logout", logout, post),
        page("/logout/everywhere", logout_everywhere, post), page("/password", change_password, both),
        page("/setup/{token}", setup, both),
        page("/a/{name}", assignment_page), page("/a/{name}/upload", upload, post),
        page("/uploads/{id}", upload_page), page("/uploads/{id}/status", upload_status),
        page("/uploads/{id}/file", upload_file),
        page("/league/{name}/", league_site), page("/league/{name}/{path:path}", league_site),
        page("/teach/{name}", teach), page("/teach/{name}/students/{uid:int}", student_uploads),
        page("/teach/{name}/site/", league_site_private), page("/teach/{name}/site/{path:path}", league_site_private),
        page("/teach/{name}/rejudge", rejudge, post), page("/teach/{name}/league", league_now, post),
        page("/teach/{name}/grades.csv", grades), page("/teach/{name}/roster", roster, post),
        page("/teach/{name}/reset", reset_link, post), page("/assets/{file}", asset),
        page("/favicon.ico", favicon),
        *oidc.routes(svc), *practice_pages.routes(page), *invitation_pages.routes(page), *lti.routes(svc.lti, page),
        Mount("/static", StaticFiles(directory=str(STATIC)), name="static"),
    ]
    middleware = [Middleware(SessionMiddleware, secret_key=secret_key(svc.data_dir), session_cookie="grader_session",
                             same_site="lax" if svc.settings.oidc or svc.lti else "strict", https_only=svc.settings.https_only,
                             max_age=sessions.LIFETIME_S)]
    app = Starlette(routes=routes, middleware=middleware, exception_handlers={HTTPException: error_page})
    limit = int(max(svc.settings.max_upload_mb, *(a.max_submission_mb for a in svc.assignments.values())) * 1e6)
    outer = SecurityHeaders(BodyLimit(app, limit + 64 * 1024), svc)      # room for the form's other fields
    return outer


def league_row(results: ResultsDoc, login: str) -> SubmissionRow | None:
    """The student's row in the last league's results (its standing and grade), if they were in it."""
    return next((s for s in results.get("submissions", []) if s["id"] == folder_name(login)), None)


def own_games(results: ResultsDoc, login: str) -> list[dict]:
    """The student's games in the last league, with each opponent as the public site names them."""
    subs = results.get("submissions", [])
    mine = league_row(results, login)
    if mine is None:
        return []
    public = {s["id"]: s.get("public_name") or "another student" for s in subs}
    out = []
    for g in results.get("games", []):
        if mine["id"] not in (g["seat0"], g["seat1"]):
            continue
        seat = 0 if g["seat0"] == mine["id"] else 1
        points = g["points"][seat]
        losing = (g.get("losing_moves") or {}).get(str(seat))
        out.append({"opponent": public.get(g["seat1" if seat == 0 else "seat0"], "another student"), "seat": seat,
                    "result": "win" if points == 1 else "draw" if points == 0.5 else "loss", "detail": g["detail"],
                    "losing": losing["sentence"] if losing else None})
    return out


def _pictures(verdict: dict | None) -> dict:
    """Each failing check's SVG picture as a data: URL (an <img> runs no script)."""
    out = {}
    for c in (verdict or {}).get("checks", []):
        if c.get("svg"):
            out[c["name"]] = "data:image/svg+xml;base64," + base64.b64encode(c["svg"].encode()).decode()
    return out
