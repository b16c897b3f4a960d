"""The service's pages: plain server-rendered HTML (the report's Jinja2 templates and stylesheet).

Every page checks the session against what it shows: a student sees only their own uploads (ids
are unguessable, and an id of someone else's upload answers 404 exactly as an unknown one does);
instructor pages answer 403 to students. Every form carries the session's CSRF token. Upload
bodies are counted as they arrive and refused past the limit before anything is written.
"""
from __future__ import annotations

import hmac
import json
import secrets
import time
from datetime import datetime
from pathlib import Path

import jinja2
from starlette.applications import Starlette
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

from . import ServeContext, accounts, uploads

TEMPLATES = Path(__file__).resolve().parent.parent / "templates"
STATIC = Path(__file__).resolve().parent.parent / "static"


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


class Service(ServeContext):
    """Configuration, database and templates shared by the routes."""

    def __init__(self, config_path: Path) -> None:
        super().__init__(config_path)
        self.env = jinja2.Environment(loader=jinja2.FileSystemLoader(str(TEMPLATES / "serve")), autoescape=True,
                                      undefined=jinja2.StrictUndefined, trim_blocks=True, lstrip_blocks=True)
        self.env.filters["when"] = lambda t: datetime.fromtimestamp(t).strftime("%Y-%m-%d %H:%M:%S") if t else ""
        self.env.filters["pts"] = lambda v: "" if v is None else f"{v:.4g}"

    # ------------------------------------------------------------------ sessions
    def user(self, request: Request) -> dict | None:
        proxy = self.settings.trusted_proxy
        if proxy is not None:
            login = request.headers.get(proxy.header)
            if login and request.client and request.client.host in proxy.addresses:
                return self.db.one("SELECT * FROM users WHERE login = ?", (login.strip(),))
        uid = request.session.get("uid")
        return self.db.one("SELECT * FROM users WHERE id = ?", (uid,)) if uid else None

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
        html = self.env.get_template(template).render(user=user, csrf=self.csrf(request), **context)
        return HTMLResponse(html, status_code=status, headers={"Cache-Control": "no-store"})

    def assignment(self, name: str):
        a = self.assignments.get(name)
        if a is None:
            raise HTTPException(404, "No such assignment.")
        return a

    def own_upload(self, request: Request, upload_id: str) -> tuple[dict, dict]:
        """(user, upload) when the upload is the user's (or the user teaches); 404 otherwise."""
        user = self.need_user(request)
        upload = self.db.one("SELECT * FROM uploads WHERE id = ?", (upload_id,))
        if upload is None or (upload["user_id"] != user["id"] and user["role"] != "instructor"):
            raise HTTPException(404, "No such upload.")
        return user, upload

    def league_folder(self, name: str) -> Path:
        return self.data_dir / "league" / name / "reports"

    def results(self, name: str) -> dict | None:
        path = self.league_folder(name) / "results.json"
        try:
            return json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None


def create_app(config_path: Path) -> Starlette:
    svc = Service(config_path)

    # ---------------------------------------------------------------- logging in
    async def login(request: Request):
        error = ""
        if request.method == "POST":
            form = await svc.form(request)
            user = accounts.check_password(svc.db, str(form.get("login", "")).strip(), str(form.get("password", "")))
            if user:
                request.session.clear()
                request.session["uid"] = user["id"]
                nxt = request.query_params.get("next", "/")
                return RedirectResponse(nxt if nxt.startswith("/") and not nxt.startswith("//") else "/", 303)
            error = "The login or the password is wrong."
        return svc.page(request, "login.html", status=401 if error else 200, error=error)

    async def logout(request: Request):
        await svc.form(request)
        request.session.clear()
        return RedirectResponse("/login", 303)

    async def setup(request: Request):
        token = request.path_params["token"]
        user = accounts.user_for_token(svc.db, token)
        if user is None:
            return svc.page(request, "message.html", status=404, title="Link not valid",
                            message="This set-password link is unknown, used or expired; ask your instructor for a new one.")
        error = ""
        if request.method == "POST":
            form = await svc.form(request)
            password = str(form.get("password", ""))
            if len(password) < 10:
                error = "Choose a password of at least 10 characters."
            elif password != str(form.get("again", "")):
                error = "The two passwords differ."
            elif accounts.set_password(svc.db, token, password):
                request.session.clear()
                request.session["uid"] = user["id"]
                return RedirectResponse("/", 303)
        return svc.page(request, "setup.html", user_name=user["name"] or user["login"], error=error)

    # ---------------------------------------------------------------- students
    async def home(request: Request):
        user = svc.need_user(request)
        rows = []
        for name, a in svc.assignments.items():
            mine = uploads.of_user(svc.db, user["id"], name)
            best = max((u["points"] for u in mine if u["points"] is not None), default=None)
            rows.append({"name": name, "title": a.title, "uploads": len(mine), "best": best,
                         "latest": mine[0] if mine else None, "deadline": a.config.penalties.get("deadline"),
                         "upload_limit": a.config.penalties.get("upload_limit")})
        return svc.page(request, "home.html", rows=rows)

    async def assignment_page(request: Request):
        user = svc.need_user(request)
        name = request.path_params["name"]
        a = svc.assignment(name)
        mine = uploads.of_user(svc.db, user["id"], name)
        for u in mine:
            u["after"] = uploads.penalised(u, a.config.penalties)
        results = svc.results(name)
        games = own_games(results, user["login"]) if results else []
        return svc.page(request, "assignment.html", a=a, name=name, uploads=mine, games=games,
                        has_league=results is not None, penalties=a.config.penalties,
                        max_mb=min(svc.settings.max_upload_mb, a.max_submission_mb), message=request.query_params.get("m", ""))

    async def upload(request: Request):
        user = svc.need_user(request)
        name = request.path_params["name"]
        a = svc.assignment(name)
        form = await svc.form(request)
        item = form.get("file")
        try:
            if item is None or not hasattr(item, "read"):
                raise uploads.UploadRefused("Choose a file to upload.")
            uploads.check_rate(svc.db, user["id"], svc.settings.rate_limit, svc.settings.rate_window_s)
            limit = min(svc.settings.max_upload_mb, a.max_submission_mb) * 1e6
            data = await item.read(int(limit) + 1)
            if len(data) > limit:
                raise uploads.UploadRefused(f"The upload is larger than {limit / 1e6:g} MB.", status=413)
            if not data:
                raise uploads.UploadRefused("The file is empty.")
            row = uploads.store(svc.db, svc.data_dir, user["id"], name,
                                uploads.safe_filename(item.filename, a.ruleset.entry), data)
        except uploads.UploadRefused as exc:
            return svc.page(request, "message.html", status=exc.status, title="Upload not taken", message=str(exc),
                            back=f"/a/{name}")
        return RedirectResponse(f"/uploads/{row['id']}", 303)

    async def upload_page(request: Request):
        _user, u = svc.own_upload(request, request.path_params["id"])
        a = svc.assignment(u["assignment"])
        verdict = json.loads(u["verdict_json"]) if u["verdict_json"] else None
        owner = svc.db.one("SELECT login, name FROM users WHERE id = ?", (u["user_id"],))
        return svc.page(request, "upload.html", u=u, a=a, verdict=verdict, owner=owner,
                        position=uploads.queue_position(svc.db, u), after=uploads.penalised(u, a.config.penalties),
                        pictures=_pictures(verdict))

    async def upload_status(request: Request):
        _, u = svc.own_upload(request, request.path_params["id"])
        return JSONResponse({"status": u["status"], "position": uploads.queue_position(svc.db, u),
                             "passed": u["passed"], "points": u["points"]}, headers={"Cache-Control": "no-store"})

    async def league_site(request: Request):
        svc.need_user(request)
        name = request.path_params["name"]
        svc.assignment(name)
        root = svc.league_folder(name).resolve()
        rel = request.path_params.get("path") or "index.html"
        target = (root / rel).resolve()
        if (root not in target.parents and target != root) or not target.is_file():
            raise HTTPException(404, "No league has been played yet." if not root.exists() else "Not found.")
        if target.suffix not in (".html", ".css", ".js", ".svg", ".png"):
            raise HTTPException(404, "Not found.")     # results.json, grades.csv and the store stay private
        return FileResponse(target, headers={"Cache-Control": "no-store"})

    # ---------------------------------------------------------------- instructors
    async def teach(request: Request):
        svc.need_instructor(request)
        name = request.path_params["name"]
        a = svc.assignment(name)
        students = svc.db.query("SELECT * FROM users WHERE role = 'student' ORDER BY login")
        rows = []
        for s in students:
            mine = uploads.of_user(svc.db, s["id"], name)
            done = [u for u in mine if u["status"] == "done"]
            best = max(done, key=lambda u: (u["points"] or 0, u["uploaded_at"]), default=None)
            rows.append({"student": s, "count": len(mine), "latest": mine[0] if mine else None, "best": best,
                         "best_after": uploads.penalised(best, a.config.penalties) if best else None})
        runs = svc.db.query("SELECT * FROM league_runs WHERE assignment = ? ORDER BY requested_at DESC LIMIT 5", (name,))
        failed = svc.db.query("SELECT COUNT(*) AS n FROM uploads WHERE assignment = ? AND status = 'grader_failed'",
                              (name,))[0]["n"]
        return svc.page(request, "teach.html", a=a, name=name, rows=rows, runs=runs, grader_failed=failed,
                        message=request.query_params.get("m", ""), new_accounts=[])

    async def student_uploads(request: Request):
        svc.need_instructor(request)
        name = request.path_params["name"]
        a = svc.assignment(name)
        s = svc.db.one("SELECT * FROM users WHERE id = ?", (int(request.path_params["uid"]),))
        if s is None:
            raise HTTPException(404, "No such student.")
        mine = uploads.of_user(svc.db, s["id"], name)
        for u in mine:
            u["after"] = uploads.penalised(u, a.config.penalties)
        return svc.page(request, "student.html", a=a, name=name, s=s, uploads=mine)

    async def upload_file(request: Request):
        svc.need_instructor(request)
        _, u = svc.own_upload(request, request.path_params["id"])
        return FileResponse(u["path"], filename=u["filename"], media_type="application/octet-stream")

    async def rejudge(request: Request):
        svc.need_instructor(request)
        name = request.path_params["name"]
        svc.assignment(name)
        form = await svc.form(request)
        n = uploads.rejudge(svc.db, name, str(form.get("upload") or "") or None)
        return RedirectResponse(f"/teach/{name}?m=" + f"{n} upload(s) queued for evaluation again.", 303)

    async def league_now(request: Request):
        user = svc.need_instructor(request)
        name = request.path_params["name"]
        svc.assignment(name)
        await svc.form(request)
        with svc.db.transaction() as tx:
            busy = tx.query("SELECT id FROM league_runs WHERE assignment = ? AND status IN ('queued', 'running')", (name,))
            if not busy:
                tx.insert("INSERT INTO league_runs (assignment, requested_by, status, requested_at) "
                          "VALUES (?, ?, 'queued', ?)", (name, user["id"], time.time()))
        m = "A league run is already queued or running." if busy else "League run queued."
        return RedirectResponse(f"/teach/{name}?m={m}", 303)

    async def grades(request: Request):
        svc.need_instructor(request)
        name = request.path_params["name"]
        svc.assignment(name)
        path = svc.league_folder(name) / "grades.csv"
        if not path.is_file():
            return PlainTextResponse("No league has been played yet, so there are no grades.", 404)
        return FileResponse(path, filename=f"{name}-grades.csv", media_type="text/csv")

    async def roster(request: Request):
        svc.need_instructor(request)
        name = request.path_params["name"]
        form = await svc.form(request)
        item = form.get("roster")
        text = (await item.read()).decode("utf-8-sig", errors="replace") if hasattr(item, "read") else ""
        try:
            people = accounts.read_roster(text)
        except accounts.RosterError as exc:
            return svc.page(request, "message.html", status=400, title="Roster not read", message=f"The {exc}",
                            back=f"/teach/{name}")
        made = []
        for p in people:
            acc = accounts.create(svc.db, p["login"], p["name"], p["email"], p["role"])
            if acc is not None:
                made.append({"login": acc.login, "name": acc.name, "link": f"{request.base_url}setup/{acc.token}"})
        return svc.page(request, "roster.html", name=name, made=made, skipped=len(people) - len(made))

    async def reset_link(request: Request):
        svc.need_instructor(request)
        form = await svc.form(request)
        login = str(form.get("login", ""))
        token = accounts.new_setup_token(svc.db, login)
        if token is None:
            raise HTTPException(404, "No such account.")
        return svc.page(request, "roster.html", name=request.path_params["name"], skipped=0,
                        made=[{"login": login, "name": "", "link": f"{request.base_url}setup/{token}"}])

    async def error_page(request: Request, exc: HTTPException):
        if exc.status_code == 303:
            return Response(status_code=303, headers=exc.headers)
        return svc.page(request, "message.html", status=exc.status_code, title=f"{exc.status_code}",
                        message=exc.detail)

    routes = [
        Route("/", home), Route("/login", login, methods=["GET", "POST"]), Route("/logout", logout, methods=["POST"]),
        Route("/setup/{token}", setup, methods=["GET", "POST"]),
        Route("/a/{name}", assignment_page), Route("/a/{name}/upload", upload, methods=["POST"]),
        Route("/uploads/{id}", upload_page), Route("/uploads/{id}/status", upload_status),
        Route("/uploads/{id}/file", upload_file),
        Route("/league/{name}/", league_site), Route("/league/{name}/{path:path}", league_site),
        Route("/teach/{name}", teach), Route("/teach/{name}/students/{uid:int}", student_uploads),
        Route("/teach/{name}/rejudge", rejudge, methods=["POST"]), Route("/teach/{name}/league", league_now, methods=["POST"]),
        Route("/teach/{name}/grades.csv", grades), Route("/teach/{name}/roster", roster, methods=["POST"]),
        Route("/teach/{name}/reset", reset_link, methods=["POST"]),
        Mount("/static", StaticFiles(directory=str(STATIC)), name="static"),
    ]
    from . import secret_key

    middleware = [Middleware(SessionMiddleware, secret_key=secret_key(svc.data_dir), session_cookie="grader_session",
                             same_site="strict", https_only=svc.settings.https_only, max_age=12 * 3600)]
    app = Starlette(routes=routes, middleware=middleware, exception_handlers={HTTPException: error_page})
    app.state.service = svc
    limit = int(max(svc.settings.max_upload_mb, *(a.max_submission_mb for a in svc.assignments.values())) * 1e6)
    return BodyLimit(app, limit + 64 * 1024)          # room for the form's other fields


def own_games(results: dict, login: str) -> list[dict]:
    """The student's games in the last league, with the opponent as the published site names them."""
    mine = next((s for s in results.get("submissions", []) if s["id"] == _folder(login)), None)
    if mine is None:
        return []
    out = []
    for g in results.get("games", []):
        if mine["id"] not in (g["seat0"], g["seat1"]):
            continue
        seat = 0 if g["seat0"] == mine["id"] else 1
        points = g["points"][seat]
        out.append({"opponent": g["seat1_name" if seat == 0 else "seat0_name"], "seat": seat,
                    "result": "win" if points == 1 else "draw" if points == 0.5 else "loss", "detail": g["detail"]})
    return out


def _folder(login: str) -> str:
    from .worker import _folder_name

    return _folder_name(login)


def _pictures(verdict: dict | None) -> dict:
    """Each failing check's SVG picture as a data: URL (an <img> runs no script)."""
    import base64

    out = {}
    for c in (verdict or {}).get("checks", []):
        if c.get("svg"):
            out[c["name"]] = "data:image/svg+xml;base64," + base64.b64encode(c["svg"].encode()).decode()
    return out
