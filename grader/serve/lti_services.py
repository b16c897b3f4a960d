"""Calling an LMS's LTI services (roster, gradebook) as the tool: an access token, then JSON.

The token comes from the platform's token endpoint by OAuth 2 client credentials, with a JWT
assertion signed by the tool's key (Authlib's RFC 7523 `private_key_jwt_sign`: iss = sub =
client_id, aud = the token endpoint, a fresh jti), as the 1EdTech Security Framework asks. Tokens
are kept until a minute before they expire. Every failure becomes a `PlatformError` with one
sentence and whether trying again later may help (a timeout, 429 or 5xx) or not (any other 4xx).
"""
from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import httpx
from authlib.oauth2.rfc7523 import private_key_jwt_sign
from joserfc.jwk import RSAKey

from ..config import LtiPlatformConfig

ASSERTION_TYPE = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"
MAX_PAGES = 200


class PlatformError(Exception):
    """The LMS did not do what was asked, as one sentence; `transient` when a later try may work."""

    def __init__(self, sentence: str, transient: bool) -> None:
        super().__init__(sentence)
        self.transient = transient


def _failure(what: str, exc: Exception) -> PlatformError:
    if isinstance(exc, httpx.HTTPStatusError):
        status = exc.response.status_code
        said = " ".join(exc.response.text.split())[:200]
        return PlatformError(f"the LMS answered {status} to {what}{f': {said}' if said else ''}",
                             transient=status in (408, 425, 429) or status >= 500)
    if isinstance(exc, httpx.HTTPError):
        return PlatformError(f"the LMS could not be reached for {what} ({type(exc).__name__})", transient=True)
    return PlatformError(f"the LMS's answer to {what} was not what LTI defines ({exc})", transient=False)


class Services:
    """One platform's services as this tool: `get_all` follows paging, `send` posts JSON."""

    def __init__(self, platform: LtiPlatformConfig, key: RSAKey,
                 http: Callable[[], httpx.Client]) -> None:
        self.platform, self.key, self.http = platform, key, http
        self.tokens: dict[str, tuple[float, str]] = {}
        self.lock = threading.Lock()

    def token(self, scopes: list[str]) -> str:
        wanted = " ".join(sorted(scopes))
        with self.lock:
            kept = self.tokens.get(wanted)
        if kept and kept[0] > time.time() + 60:
            return kept[1]
        assertion = private_key_jwt_sign(self.key, client_id=self.platform.client_id,
                                         token_endpoint=self.platform.token_url, header={"kid": self.key.kid},
                                         expires_in=300)
        try:
            with self.http() as client:
                response = client.post(self.platform.token_url, data={
                    "grant_type": "client_credentials", "client_assertion_type": ASSERTION_TYPE,
                    "client_assertion": assertion if isinstance(assertion, str) else assertion.decode(),
                    "scope": wanted})
                response.raise_for_status()
                doc = response.json()
            token, lifetime = str(doc["access_token"]), float(doc.get("expires_in") or 3600)
        except (httpx.HTTPError, ValueError, KeyError, TypeError) as exc:
            raise _failure("the request for an access token", exc) from exc
        with self.lock:
            self.tokens[wanted] = (time.time() + lifetime, token)
        return token

    def get_all(self, url: str, scopes: list[str], accept: str, what: str) -> Iterator[Any]:
        """Every page of a container (the `Link: <…>; rel="next"` header leads on), as JSON documents."""
        headers = {"Authorization": f"Bearer {self.token(scopes)}", "Accept": accept}
        pages = 0
        next_url: str | None = url
        try:
            with self.http() as client:
                while next_url and pages < MAX_PAGES:
                    response = client.get(next_url, headers=headers)
                    response.raise_for_status()
                    pages += 1
                    yield response.json()
                    next_url = response.links.get("next", {}).get("url")
        except (httpx.HTTPError, ValueError) as exc:
            raise _failure(what, exc) from exc

    def send(self, url: str, scopes: list[str], media_type: str, doc: dict, what: str,
             accept: str = "application/json") -> dict:
        """POST one JSON document; the platform's JSON answer ({} when it has none)."""
        headers = {"Authorization": f"Bearer {self.token(scopes)}", "Content-Type": media_type, "Accept": accept}
        try:
            with self.http() as client:
                response = client.post(url, json=doc, headers=headers)
                response.raise_for_status()
                return response.json() if response.content else {}
        except (httpx.HTTPError, ValueError) as exc:
            raise _failure(what, exc) from exc


def below(url: str, segment: str) -> str:
    """`url` with `/segment` added to its path, its query kept (a line item's `/scores`)."""
    parts = urlsplit(url)
    return urlunsplit(parts._replace(path=parts.path.rstrip("/") + "/" + segment))
