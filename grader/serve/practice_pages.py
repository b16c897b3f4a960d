"""The practice pages: pick an opponent, offer oneself as one, and a match's result and games.

Kept apart from app.py (whose route table takes `routes(page)`), so the upload pages and these grow
without touching each other. Every handler is a plain function the app runs in its thread pool; the
queue's rules (who may be picked, the rate, the queue's size, the order behind uploads) are in practice.py.
"""
from __future__ import annotations

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, RedirectResponse, Response
from starlette.routing import Route

from . import practice
from .site_file import site_file

MODES = {"classmates": "classmates who offer their player, or the course's built-in and sparring players",
         "builtins": "the course's built-in and sparring players", "off": "nobody: the course has turned practice off"}


def practice_page(svc, request: Request, form) -> Response:
    user = svc.need_user(request)
    name = request.path_params["name"]
    a = svc.assignment(name)
    matches = practice.of_user(svc.db, user["id"], name)
    for m in matches:
        if m["status"] not in practice.FINISHED:
            practice.sweep(svc.db, svc.data_dir, svc.settings, m["id"])
    return svc.page(request, "practice.html", a=a, name=name, mode=svc.settings.practice.opponents, modes=MODES,
                    games=svc.settings.practice.games, opted_in=practice.opted_in(svc.db, user["id"]),
                    opponents=practice.opponents(svc.db, a, svc.data_dir, svc.settings, user["id"]),
                    passing=practice.latest_passing(svc.db, user["id"], name),
                    matches=practice.of_user(svc.db, user["id"], name))


def request_match(svc, request: Request, form) -> Response:
    user = svc.need_user(request)
    name = request.path_params["name"]
    a = svc.assignment(name)
    try:
        row = practice.request(svc.db, a, svc.data_dir, svc.settings, user, str(form.get("opponent", "")))
    except practice.PracticeRefused as exc:
        return svc.page(request, "message.html", status=exc.status, title="Practice match not taken",
                        message=str(exc), back=f"/a/{name}/practice")
    return RedirectResponse(f"/practice/{row['id']}", 303)


def opt_in(svc, request: Request, form) -> Response:
    user = svc.need_user(request)
    name = request.path_params["name"]
    svc.assignment(name)
    practice.set_opt_in(svc.db, user["id"], str(form.get("on", "")) == "1")
    return RedirectResponse(f"/a/{name}/practice", 303)


def own_match(svc, request: Request) -> dict:
    """The match if it is the user's (or the user teaches), its stale state ended first; 404 otherwise."""
    user = svc.need_user(request)
    match_id = request.path_params["id"]
    practice.sweep(svc.db, svc.data_dir, svc.settings, match_id)
    row = practice.by_id(svc.db, match_id)
    if row is None or (row["user_id"] != user["id"] and user["role"] != "instructor"):
        raise HTTPException(404, "No such practice match (matches are deleted after a while).")
    return row


def match_page(svc, request: Request, form) -> Response:
    m = own_match(svc, request)
    return svc.page(request, "practice_match.html", m=m, a=svc.assignment(m["assignment"]),
                    played=practice.games(svc.data_dir, m["id"]), keep_days=svc.settings.practice.keep_days)


def match_site(svc, request: Request, form) -> Response:
    """The match's replays in the league's replay viewer: the student who asked (and staff) only."""
    m = own_match(svc, request)
    return site_file(svc.data_dir / "practice" / m["id"] / "site", request.path_params.get("path", ""),
                     "This match has no replays: it was not played, or it has expired.")


def match_status(svc, request: Request, form) -> Response:
    m = own_match(svc, request)
    return JSONResponse({"status": m["status"], "reason": m["reason"], "points": m["points"],
                         "opponent_points": m["opponent_points"]}, headers={"Cache-Control": "no-store"})


def routes(page) -> list[Route]:
    """The practice routes, built by the app's `page(path, fn, methods)`."""
    post = ("POST",)
    return [page("/a/{name}/practice", practice_page), page("/a/{name}/practice/match", request_match, post),
            page("/a/{name}/practice/offer", opt_in, post),
            page("/practice/{id}", match_page), page("/practice/{id}/status", match_status),
            page("/practice/{id}/site/{path:path}", match_site)]
