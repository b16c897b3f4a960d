"""The invitation parts of the instructor's pages: the e-mails' zip and the "Send invitations" form on
the page that shows the set-password links, and the page that says what became of each one.

Kept apart from app.py (whose route table takes `routes(page)`); the letters, the ledger and the
sending are in invitations.py. Every handler is a plain function the app runs in its thread pool,
so a slow mail server holds one thread, never the event loop.
"""
from __future__ import annotations

import os

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from . import accounts, invitations


def words(svc, request: Request, name: str) -> invitations.Words:
    a = svc.assignment(name)
    smtp = svc.settings.smtp
    return invitations.Words(svc.settings.invitation, a.title or name, svc.base_url(request),
                             smtp.sender if smtp else "")


def roster_context(svc, request: Request, name: str, made: list[dict]) -> dict:
    """What the set-password links' page adds: the e-mails as a zip, and the links for the send form."""
    letters = []
    for m in made:
        user = accounts.by_login(svc.db, m["login"])
        if user is not None and user["setup_expires"]:
            letters.append(invitations.Letter(user["id"], m["login"], user["name"], user["email"], m["token"], m["link"],
                                              float(user["setup_expires"])))
    smtp = svc.settings.smtp
    missing = smtp.password_env if smtp and smtp.password_env and smtp.password_env not in os.environ else ""
    return {"emails_url": invitations.zip_url(letters, words(svc, request, name)),
            "no_address": [m for m in made if not m.get("email")],
            "links": invitations.form_links(letters) if letters else "", "smtp": smtp, "missing_env": missing}


def send_invitations(svc, request: Request, form) -> Response:
    """Send the links the form hands back, each once (`again=1`: those sent before, once more)."""
    svc.need_instructor(request)
    name = request.path_params["name"]
    if svc.settings.smtp is None:
        raise HTTPException(404, "This service has no mail server to send with (serve.smtp in config.yaml).")
    site = svc.base_url(request)
    try:
        letters, stale = invitations.letters_from_form(svc.db, str(form.get("links", "")), site)
    except invitations.DamagedForm as exc:
        raise HTTPException(400, str(exc)) from None
    outcomes = invitations.send(svc.db, svc.settings.smtp, letters, words(svc, request, name).message,
                                again=str(form.get("again", "")) == "1") + stale
    held = {o.login for o in outcomes if o.again}
    return svc.page(request, "invitations.html", name=name, outcomes=outcomes,
                    sent=sum(o.sent for o in outcomes),
                    again_links=invitations.form_links([x for x in letters if x.login in held]) if held else "")


def routes(page) -> list[Route]:
    """The invitation routes, built by the app's `page(path, fn, methods)`."""
    return [page("/teach/{name}/invitations", send_invitations, ("POST",))]
