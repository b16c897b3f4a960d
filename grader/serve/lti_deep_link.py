"""Deep linking (LTI Deep Linking 2.0): the instructor picks an assignment from inside the LMS, and the
LMS makes the activity itself, so nobody copies a target link by hand for each activity (INGInious#1020).

The launch is an `LtiDeepLinkingRequest`, checked like any other launch (`lti.Tool.verify`) and
taken from staff only. The tool answers with an `LtiDeepLinkingResponse` JWT signed with its own
key: iss = the client id, aud = the platform, the request's `data` returned untouched, and one
`ltiResourceLink` per chosen assignment whose URL is the assignment's page and whose custom
parameter names it. The browser posts that JWT to the LMS's `deep_link_return_url`. That page
alone allows a form to go to that address (its own CSP).
"""
from __future__ import annotations

import secrets
import time
from urllib.parse import urlsplit

from joserfc import jwt
from joserfc.jwk import RSAKey

from ..config import LtiPlatformConfig

SETTINGS_CLAIM = "https://purl.imsglobal.org/spec/lti-dl/claim/deep_linking_settings"
CLAIM = "https://purl.imsglobal.org/spec/lti/claim/"
ITEMS_CLAIM = "https://purl.imsglobal.org/spec/lti-dl/claim/content_items"
DATA_CLAIM = "https://purl.imsglobal.org/spec/lti-dl/claim/data"
AGS_CLAIM = "https://purl.imsglobal.org/spec/lti-ags/claim/endpoint"
NRPS_CLAIM = "https://purl.imsglobal.org/spec/lti-nrps/claim/namesroleservice"


def request_of(platform: LtiPlatformConfig, claims: dict) -> dict:
    """What the session keeps of a deep linking request until the instructor has chosen."""
    settings = claims.get(SETTINGS_CLAIM) or {}
    context = claims.get(CLAIM + "context") or {}
    ags, nrps = claims.get(AGS_CLAIM) or {}, claims.get(NRPS_CLAIM) or {}
    return {"issuer": platform.issuer, "client_id": platform.client_id,
            "deployment_id": str(claims.get(CLAIM + "deployment_id")),
            "return_url": str(settings.get("deep_link_return_url") or ""), "data": settings.get("data"),
            "context_id": str(context.get("id") or ""), "title": str(context.get("title") or context.get("label") or ""),
            "memberships_url": nrps.get("context_memberships_url"), "lineitems_url": ags.get("lineitems"),
            "scopes": " ".join(ags.get("scope") or [])}


def course_of(request: dict, assignment: str) -> dict:
    """The LMS course an assignment is linked to by the instructor's choice (`lti_store.save_course`)."""
    return {"issuer": request["issuer"], "context_id": request["context_id"], "assignment": assignment,
            "deployment_id": request["deployment_id"], "title": request["title"],
            "memberships_url": request.get("memberships_url"), "lineitems_url": request.get("lineitems_url"),
            "lineitem_url": None, "scopes": request.get("scopes") or ""}


def response(key: RSAKey, request: dict, items: list[tuple[str, str, str]]) -> str:
    """The signed LtiDeepLinkingResponse for (name, title, url) of each chosen assignment."""
    now = int(time.time())
    claims = {"iss": request["client_id"], "aud": request["issuer"], "iat": now, "exp": now + 600,
              "nonce": secrets.token_urlsafe(16), CLAIM + "deployment_id": request["deployment_id"],
              CLAIM + "message_type": "LtiDeepLinkingResponse", CLAIM + "version": "1.3.0",
              ITEMS_CLAIM: [{"type": "ltiResourceLink", "title": title, "url": url, "custom": {"assignment": name}}
                            for name, title, url in items]}
    if request.get("data") is not None:
        claims[DATA_CLAIM] = request["data"]
    return jwt.encode({"alg": "RS256", "kid": key.kid, "typ": "JWT"}, claims, key)


def return_policy(return_url: str) -> str:
    """The CSP of the page that posts the answer: the service's own, with the LMS's origin as a form target."""
    parts = urlsplit(return_url)
    return ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; object-src 'none'; "
            f"base-uri 'none'; form-action {parts.scheme}://{parts.netloc}; frame-ancestors 'none'")
