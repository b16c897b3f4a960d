"""A university login through OpenID Connect (`serve.oidc`), with Authlib doing the protocol.

Why Authlib rather than our own code: the provider's discovery document, the state and nonce, the
ID token's signature (from the provider's published keys), issuer, audience and expiry are all
checked by a well-kept library. The claim named by `serve.oidc.claim` must be a login on the
roster; anyone else gets a sentence saying so, never a new account.
"""
from __future__ import annotations

from authlib.integrations.starlette_client import OAuth, OAuthError
from joserfc.errors import JoseError
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import RedirectResponse
from starlette.routing import Route

from . import accounts


def routes(svc) -> list[Route]:
    """/login/oidc and its callback when `serve.oidc` is set; nothing otherwise."""
    settings = svc.settings.oidc
    if settings is None:
        return []
    oauth = OAuth()
    oauth.register("university", client_id=settings.client_id, client_secret=settings.client_secret,
                   server_metadata_url=settings.issuer.rstrip("/") + "/.well-known/openid-configuration",
                   client_kwargs={"scope": "openid profile email"})
    client = oauth.create_client("university")

    async def start(request: Request):
        return await client.authorize_redirect(request, f"{svc.base_url(request)}/login/oidc/callback")

    async def callback(request: Request):
        try:
            token = await client.authorize_access_token(request)
        except (OAuthError, JoseError) as exc:        # a refused login, a bad state, nonce or signature
            return await run_in_threadpool(svc.page, request, "message.html", status=400,
                                           title="University login failed",
                                           message=f"The university login did not complete ({exc.error}); try again.")
        login = str((token.get("userinfo") or {}).get(settings.claim) or "").strip()
        user = await run_in_threadpool(accounts.by_login, svc.db, login) if login else None
        if user is None:
            return await run_in_threadpool(
                svc.page, request, "message.html", status=403, title="Not on the roster",
                message=f"The university account {login or '(without a login)'} is not on this course's roster; "
                        f"ask your instructor to add it.")
        await run_in_threadpool(svc.log_in, request, user)
        return RedirectResponse("/", 303)

    return [Route("/login/oidc", start), Route("/login/oidc/callback", callback)]
