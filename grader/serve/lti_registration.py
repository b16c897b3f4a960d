"""LTI Dynamic Registration 1.0: an LMS registers this tool by itself, so nobody copies client ids.

The LMS admin gives the LMS this service's `/lti/register` address. The LMS opens it in the admin's
browser with `openid_configuration` (where the LMS describes itself) and, often, a one-time
`registration_token`. The tool reads that configuration and checks that its `issuer` is at the same
origin as the address it came from (spec §3.5.1). Then it posts its own client registration, with
the bearer token, to the LMS's `registration_endpoint` (§3.5.2): the redirect and login URLs, the
JWKS URL, the AGS and NRPS scopes, and the LTI tool configuration (domain, target link, claims,
and the resource-link and deep-linking messages). The LMS answers with the client id and the
deployment (§3.6), which become a platform here, used exactly like one from config.yaml
(`lti_store.save_platform`). The page then asks the LMS to close it (`org.imsglobal.lti.close`).

Anyone who can reach the address could register an "LMS", so it works only while the instructor's
switch `serve.lti.dynamic_registration` is on (off by default), and the platform it keeps cannot launch
until an instructor approves it on `/lti`, unless its origin is in `serve.lti.allowed_origins` (which then
refuses every other origin); as Moodle and Canvas keep a self-registered tool inactive until their admin
turns it on. Every refusal is one sentence, and nothing is kept.
"""
from __future__ import annotations

import re
from urllib.parse import urlsplit

import httpx

from ..config import LtiPlatformConfig

TOOL_CONFIG = "https://purl.imsglobal.org/spec/lti-tool-configuration"
PLATFORM_CONFIG = "https://purl.imsglobal.org/spec/lti-platform-configuration"
SCOPES = ("https://purl.imsglobal.org/spec/lti-ags/scope/lineitem",
          "https://purl.imsglobal.org/spec/lti-ags/scope/lineitem.readonly",
          "https://purl.imsglobal.org/spec/lti-ags/scope/result.readonly",
          "https://purl.imsglobal.org/spec/lti-ags/scope/score",
          "https://purl.imsglobal.org/spec/lti-nrps/scope/contextmembership.readonly")
CLAIMS = ("iss", "sub", "name", "given_name", "family_name", "email")
NEEDED = ("issuer", "authorization_endpoint", "token_endpoint", "jwks_uri", "registration_endpoint")
NOTHING = "nothing was registered"
ORIGIN = re.compile(r"https://[A-Za-z0-9.-]+(:[0-9]+)?")     # what may go into a CSP header as it is


class RegistrationRefused(Exception):
    """A registration that registers nothing, as one sentence."""


def origin(url: str) -> str:
    """scheme://host[:port] of a URL ('' for one without both)."""
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}" if parts.scheme and parts.netloc else ""


def platform_configuration(client: httpx.Client, url: str) -> dict:
    """The LMS's OpenID configuration from `url`, checked: an https address, every endpoint the tool needs,
    and an issuer at the origin the configuration came from."""
    if urlsplit(url).scheme != "https" or not origin(url):
        raise RegistrationRefused(f"The LMS gave {url or 'no address'} as its configuration, not an https address; "
                                  f"start the registration again from the LMS ({NOTHING}).")
    try:
        response = client.get(url, headers={"Accept": "application/json"})
        response.raise_for_status()
        conf = response.json()
    except (httpx.HTTPError, ValueError) as exc:
        raise RegistrationRefused(f"The LMS's configuration could not be read from {url} ({_why(exc)}); "
                                  f"{NOTHING}.") from exc
    if not isinstance(conf, dict):
        raise RegistrationRefused(f"The LMS's configuration at {url} is not a JSON object; {NOTHING}.")
    missing = [k for k in NEEDED if not isinstance(conf.get(k), str) or not conf[k]]
    if missing:
        raise RegistrationRefused(f"The LMS's configuration at {url} lacks {', '.join(missing)}; {NOTHING}.")
    if origin(conf["issuer"]) != origin(url):
        raise RegistrationRefused(f"The LMS's configuration names the issuer {conf['issuer']}, which is not at "
                                  f"{origin(url)} where the configuration came from; {NOTHING}.")
    return conf


def client_registration(base: str, name: str, conf: dict) -> dict:
    """This tool as an OAuth client registration with the LTI tool configuration (spec §3.5.2), asking only
    for the scopes and claims the LMS says it supports (all of ours when it does not say)."""
    supported_scopes = conf.get("scopes_supported")
    supported_claims = conf.get("claims_supported")
    scopes = [s for s in SCOPES if not isinstance(supported_scopes, list) or s in supported_scopes]
    claims = [c for c in CLAIMS if not isinstance(supported_claims, list) or c in supported_claims]
    return {
        "application_type": "web", "response_types": ["id_token"], "grant_types": ["implicit", "client_credentials"],
        "initiate_login_uri": f"{base}/lti/login", "redirect_uris": [f"{base}/lti/launch"], "client_name": name,
        "jwks_uri": f"{base}/lti/jwks", "token_endpoint_auth_method": "private_key_jwt", "scope": " ".join(scopes),
        TOOL_CONFIG: {
            "domain": urlsplit(base).netloc, "target_link_uri": f"{base}/", "claims": claims,
            "description": "Checks students' game-playing agents, runs their league and sends the grades back.",
            "messages": [{"type": "LtiResourceLinkRequest", "target_link_uri": f"{base}/"},
                         {"type": "LtiDeepLinkingRequest", "target_link_uri": f"{base}/lti/deep-link",
                          "label": f"{name}: add assignments"}]}}


def register(client: httpx.Client, base: str, name: str, url: str, token: str | None) -> LtiPlatformConfig:
    """Read the LMS's configuration at `url`, register this tool with it, and return the LMS as a platform."""
    conf = platform_configuration(client, url)
    headers = {"Accept": "application/json"} | ({"Authorization": f"Bearer {token}"} if token else {})
    try:
        response = client.post(conf["registration_endpoint"], json=client_registration(base, name, conf),
                               headers=headers)
        response.raise_for_status()
        answer = response.json()
    except httpx.HTTPStatusError as exc:
        raise RegistrationRefused(f"The LMS refused the registration ({_why(exc)}); {NOTHING}.") from exc
    except (httpx.HTTPError, ValueError) as exc:
        raise RegistrationRefused(f"The LMS did not answer the registration ({_why(exc)}); {NOTHING}.") from exc
    tool = answer.get(TOOL_CONFIG) if isinstance(answer, dict) else None
    client_id = answer.get("client_id") if isinstance(answer, dict) else None
    deployment = tool.get("deployment_id") if isinstance(tool, dict) else None
    if not client_id or not deployment:
        lacks = " and ".join(w for w, v in (("a client_id", client_id), ("a deployment_id", deployment)) if not v)
        raise RegistrationRefused(f"The LMS's answer to the registration lacks {lacks}; {NOTHING} here, so remove "
                                  f"the tool the LMS made and register it in config.yaml instead.")
    described = conf.get(PLATFORM_CONFIG)
    family = described.get("product_family_code") if isinstance(described, dict) else None
    host = urlsplit(conf["issuer"]).netloc
    return LtiPlatformConfig(issuer=conf["issuer"], client_id=str(client_id), auth_url=conf["authorization_endpoint"],
                             token_url=conf["token_endpoint"], jwks_url=conf["jwks_uri"],
                             deployment_ids=[str(deployment)], name=f"{family} ({host})" if family else host)


def _why(exc: Exception) -> str:
    if isinstance(exc, httpx.HTTPStatusError):
        said = " ".join(exc.response.text.split())[:200]
        return f"it answered {exc.response.status_code}{f': {said}' if said else ''}"
    return type(exc).__name__


def framed_by(lms_origin: str) -> str:
    """The CSP of the registration's pages: the service's own, shown inside the LMS that opened them."""
    ancestors = lms_origin if ORIGIN.fullmatch(lms_origin) else "'none'"
    return ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; object-src 'none'; "
            f"base-uri 'none'; form-action 'self'; frame-ancestors {ancestors}")
