"""Keys for LTI 1.3: the tool's own RSA key pair, and each platform's published keys.

The tool's key is made once and kept in the service's folder, readable by the service's user only
(`lti.key`, 0600): the LMS admin copies its public half (or the JWKS URL) into the registration, and
it signs the assertion that buys the tool an access token for the roster and the gradebook.
A platform's keys are fetched from its JWKS URL and kept for an hour; a token signed with a key id
not in the kept set fetches the set once more (the platform rotated its key), and no more.
"""
from __future__ import annotations

import os
import threading
import time
from pathlib import Path

import httpx
from joserfc.jwk import KeySet, RSAKey

KEY_FILE = "lti.key"
JWKS_KEPT_S = 3600


def tool_key(folder: Path) -> RSAKey:
    """The tool's private key, made on first use (2048-bit RSA, its kid the key's thumbprint)."""
    path = folder / KEY_FILE
    if not path.exists():
        key = RSAKey.generate_key(2048, private=True)
        pem = key.as_pem(private=True)
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:            # another process made it first: use theirs
            pass
        else:
            with os.fdopen(fd, "wb") as f:
                f.write(pem)
    key = RSAKey.import_key(path.read_bytes())
    key.ensure_kid()
    return key


def public_jwks(key: RSAKey) -> dict:
    """The tool's JWKS document (its public key only)."""
    return {"keys": [{**key.as_dict(private=False), "use": "sig", "alg": "RS256"}]}


class PlatformKeys:
    """Each platform's public keys by JWKS URL, fetched with httpx and kept for an hour."""

    def __init__(self, http) -> None:
        self.http = http                  # a callable returning an httpx.Client (tests give a fake transport)
        self.kept: dict[str, tuple[float, KeySet]] = {}
        self.lock = threading.Lock()

    def get(self, jwks_url: str, kid: str | None) -> KeySet:
        """The platform's keys, fetched again when too old or when they lack `kid`.
        Raises httpx.HTTPError (or ValueError for a document that is not a JWKS) when they cannot be had."""
        with self.lock:
            kept = self.kept.get(jwks_url)
        fresh = kept is not None and time.time() - kept[0] < JWKS_KEPT_S
        if kept is not None and fresh and _has(kept[1], kid):
            return kept[1]
        with self.http() as client:
            response = client.get(jwks_url, headers={"Accept": "application/json"})
            response.raise_for_status()
            keys = KeySet.import_key_set(response.json())
        with self.lock:
            self.kept[jwks_url] = (time.time(), keys)
        return keys


def _has(keys: KeySet, kid: str | None) -> bool:
    if kid is None:
        return True
    return any(k.kid == kid for k in keys.keys)


def http_client(transport: httpx.BaseTransport | None) -> httpx.Client:
    """The client every LTI call uses: a short timeout, so a slow LMS holds up no page for long."""
    return httpx.Client(transport=transport, timeout=httpx.Timeout(15.0), follow_redirects=False)
