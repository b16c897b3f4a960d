"""The upload service as an LTI 1.3 tool (`serve.lti`): students arrive from the LMS signed in.

The launch is OpenID Connect's implicit flow started by the platform (LTI 1.3 core §5.1, the
1EdTech Security Framework §5.1.1): the LMS calls `/lti/login` (third-party login initiation), the
tool answers with a redirect to the LMS's authorization endpoint carrying a fresh state and nonce,
and the LMS posts a signed ID token to `/lti/launch`. Before anyone is signed in, the launch must
pass every check, each refused with one sentence and nothing changed:
the state was issued here and is used once; the token's signature matches a key in the platform's
JWKS (fetched and kept, `lti_keys`); iss is the platform's, aud holds this tool's client id (azp too
when aud has several); it has not expired and is not dated in the future; its nonce is this login's
and was never seen before; the deployment is one the config lists; the message is a resource link
request of LTI 1.3.0 and names its user. Then the LMS user's account is found or made
(`lti_roster.account`), the LMS course is remembered for the roster and the gradebook, and the
browser gets a session. Platforms are registered in config.yaml, or register themselves by LTI
Dynamic Registration while the instructor allows it and launch once an instructor approves them on
`/lti` (`lti_registration`); `/lti` shows the LMS admin what to enter on their side (docs/LTI.md).
"""
from __future__ import annotations

import base64
import json
import secrets
import sys
import threading
import time
from urllib.parse import urlencode, urlsplit

import httpx
from joserfc import jwt
from joserfc.errors import JoseError
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, RedirectResponse, Response
from starlette.routing import Route

from ..config import LtiPlatformConfig
from . import lti_deep_link, lti_grades, lti_keys, lti_registration, lti_roster, lti_store
from .lti_deep_link import AGS_CLAIM, NRPS_CLAIM
from .lti_services import PlatformError, Services

CLAIM = "https://purl.imsglobal.org/spec/lti/claim/"
MESSAGE_TYPES = ("LtiResourceLinkRequest", "LtiDeepLinkingRequest")
LEEWAY_S = 60           # clocks of the LMS and this server may differ by this much
AGAIN = "open the activity from the LMS again"


class LaunchRefused(Exception):
    """A launch that signs no one in, as one sentence."""


class Tool:
    """This service as an LTI tool: its key, its platforms and their keys and services."""

    def __init__(self, svc) -> None:
        self.svc = svc
        settings = svc.settings.lti
        self.configured: list[LtiPlatformConfig] = settings.platforms
        self.grade_policy: str = settings.grade
        self.dynamic_registration: bool = settings.dynamic_registration
        self.allowed_origins: list[str] = settings.allowed_origins
        self.key = lti_keys.tool_key(svc.data_dir)
        self.transport: httpx.BaseTransport | None = None        # tests put a fake LMS here
        self.platform_keys = lti_keys.PlatformKeys(self.http)
        self.kept_services: dict[tuple[str, str], Services] = {}
        self.lock = threading.Lock()
        lti_store.create_tables(svc.db)

    def http(self) -> httpx.Client:
        return lti_keys.http_client(self.transport)

    @property
    def platforms(self) -> list[LtiPlatformConfig]:
        """The platforms that may launch: config.yaml's, then those that registered themselves and were
        approved (read each time: another web process may have registered or approved one)."""
        return [*self.configured, *lti_store.registered_platforms(self.svc.db)]

    @property
    def waiting(self) -> list[LtiPlatformConfig]:
        """The platforms that registered themselves and wait for the instructor's approval."""
        return lti_store.registered_platforms(self.svc.db, approved=False)

    def services(self, platform: LtiPlatformConfig) -> Services:
        """The platform's services (its access tokens kept between calls)."""
        key = (platform.issuer, platform.client_id)
        with self.lock:
            if key not in self.kept_services or self.kept_services[key].platform != platform:
                self.kept_services[key] = Services(platform, self.key, self.http)
            return self.kept_services[key]

    def register(self, base: str, params: dict) -> tuple[LtiPlatformConfig, bool]:
        """Dynamic registration: the LMS at `openid_configuration` registered and kept as a platform, with
        whether it may launch at once (its origin is in serve.lti.allowed_origins) or waits for the
        instructor's approval. With allowed_origins set, any other origin is refused before it is read."""
        if not self.dynamic_registration:
            raise lti_registration.RegistrationRefused(
                "This service does not take registrations from an LMS; its instructor turns on "
                "serve.lti.dynamic_registration, or enters the LMS under serve.lti.platforms.")
        lms = lti_registration.origin(str(params.get("openid_configuration") or ""))
        if self.allowed_origins and lms not in self.allowed_origins:
            raise lti_registration.RegistrationRefused(
                f"This service takes registrations only from {', '.join(self.allowed_origins)} "
                f"(serve.lti.allowed_origins), not from {lms or 'an unnamed LMS'}; nothing was registered.")
        with self.http() as client:
            platform = lti_registration.register(client, base, f"Game grader ({self.svc.config_path.resolve().parent.name})",
                                                 str(params.get("openid_configuration") or ""),
                                                 str(params.get("registration_token") or "") or None)
        if any(p.issuer == platform.issuer and p.client_id == platform.client_id for p in self.configured):
            raise lti_registration.RegistrationRefused(
                f"The LMS {platform.issuer} with client id {platform.client_id} is already in config.yaml; "
                f"nothing was registered.")
        allowed = lti_registration.origin(platform.issuer) in self.allowed_origins
        lti_store.save_platform(self.svc.db, platform, approved=allowed)
        return platform, allowed

    def platform(self, issuer: str, client_id: str = "") -> LtiPlatformConfig | None:
        return next((p for p in self.platforms if p.issuer == issuer and (not client_id or p.client_id == client_id)),
                    None)

    # ------------------------------------------------------------------ login initiation
    def login_redirect(self, params: dict, launch_url: str) -> str:
        """Where the browser goes next: the LMS's authorization endpoint with a fresh state and nonce."""
        issuer, client_id = str(params.get("iss") or ""), str(params.get("client_id") or "")
        platform = self.platform(issuer, client_id)
        if platform is None and any(p.issuer == issuer and (not client_id or p.client_id == client_id)
                                    for p in self.waiting):
            raise LaunchRefused(f"The LMS {issuer} registered itself and waits for the instructor's approval on "
                                f"this service's LTI page, so it cannot sign anyone in yet.")
        if platform is None:
            raise LaunchRefused(f"The LMS {issuer or '(unnamed)'} is not registered with this service; "
                                f"its admin adds it under serve.lti.platforms.")
        if not params.get("login_hint"):
            raise LaunchRefused("The LMS started a launch without a login_hint; " + AGAIN + ".")
        state, nonce = secrets.token_urlsafe(24), secrets.token_urlsafe(24)
        lti_store.new_state(self.svc.db, state, nonce, platform.issuer, platform.client_id)
        query = {"scope": "openid", "response_type": "id_token", "response_mode": "form_post", "prompt": "none",
                 "client_id": platform.client_id, "redirect_uri": launch_url, "login_hint": params["login_hint"],
                 "state": state, "nonce": nonce}
        if params.get("lti_message_hint"):
            query["lti_message_hint"] = params["lti_message_hint"]
        return f"{platform.auth_url}{'&' if '?' in platform.auth_url else '?'}{urlencode(query)}"

    # ------------------------------------------------------------------ the launch
    def verify(self, id_token: str, state: str) -> tuple[LtiPlatformConfig, dict]:
        """(the platform, the token's claims) for a launch that passes every check; LaunchRefused otherwise."""
        begun = lti_store.take_state(self.svc.db, state) if state else None
        if begun is None:
            raise LaunchRefused("This launch was not started here or was used already; " + AGAIN + ".")
        platform = self.platform(begun["issuer"], begun["client_id"])
        if platform is None:
            raise LaunchRefused(f"The LMS {begun['issuer']} is no longer registered with this service.")
        try:
            keys = self.platform_keys.get(platform.jwks_url, _kid(id_token))
        except (httpx.HTTPError, ValueError, JoseError) as exc:
            raise LaunchRefused(f"The LMS's public keys could not be read from {platform.jwks_url} "
                                f"({type(exc).__name__}); try again in a minute.") from exc
        try:
            claims = dict(jwt.decode(id_token, keys, algorithms=["RS256"]).claims)
        except (JoseError, ValueError) as exc:
            raise LaunchRefused("The launch's signature does not match the LMS's published keys; nothing was "
                                "changed.") from exc
        self._check(platform, claims, begun["nonce"])
        return platform, claims

    def _check(self, platform: LtiPlatformConfig, claims: dict, nonce: str) -> None:
        now = time.time()
        if claims.get("iss") != platform.issuer:
            raise LaunchRefused(f"The launch names the LMS {claims.get('iss')!r}, not {platform.issuer}, "
                                f"where it began.")
        audience = claims.get("aud")
        audience = [audience] if isinstance(audience, str) else list(audience or [])
        if platform.client_id not in audience or (len(audience) > 1 and claims.get("azp") != platform.client_id):
            raise LaunchRefused("The launch was meant for another tool: its audience is not this tool's client id.")
        if not isinstance(claims.get("exp"), int | float) or claims["exp"] + LEEWAY_S < now:
            raise LaunchRefused("The launch has expired; " + AGAIN + ".")
        if not isinstance(claims.get("iat"), int | float) or claims["iat"] - LEEWAY_S > now:
            raise LaunchRefused("The launch is dated in the future; the LMS's clock or this server's is wrong.")
        if claims.get("nonce") != nonce:
            raise LaunchRefused("The launch does not answer the login this service began (its nonce differs); "
                                + AGAIN + ".")
        if not lti_store.use_nonce(self.svc.db, platform.issuer, nonce):
            raise LaunchRefused("This launch was used already (its nonce was seen before); " + AGAIN + ".")
        deployment = claims.get(CLAIM + "deployment_id")
        if deployment not in platform.deployment_ids:
            raise LaunchRefused(f"The launch comes from a deployment of this tool ({deployment}) that this service "
                                f"does not know; the LMS admin adds it to serve.lti.platforms.")
        if claims.get(CLAIM + "version") != "1.3.0":
            raise LaunchRefused(f"The launch is LTI version {claims.get(CLAIM + 'version')!r}; this service "
                                f"takes 1.3.0.")
        kind = claims.get(CLAIM + "message_type")
        if kind not in MESSAGE_TYPES:
            raise LaunchRefused(f"This service takes resource link and deep linking launches only, not {kind!r}.")
        if kind == "LtiDeepLinkingRequest" and lti_roster.role_of(claims.get(CLAIM + "roles") or []) != "instructor":
            raise LaunchRefused("Only the course's staff can add this service's assignments to the LMS course.")
        if kind == "LtiDeepLinkingRequest" and not (claims.get(lti_deep_link.SETTINGS_CLAIM) or {}).get(
                "deep_link_return_url"):
            raise LaunchRefused("The deep linking launch does not say where to send the choice (no "
                                "deep_link_return_url); " + AGAIN + ".")
        if kind == "LtiDeepLinkingRequest":
            self._same_course(platform, claims)
        if not claims.get("sub"):
            raise LaunchRefused("The launch names no user (an anonymous launch); this service must know the student.")

    def _same_course(self, platform: LtiPlatformConfig, claims: dict) -> None:
        """A deep link puts this service's assignments into the LMS course it comes from, so it is taken only
        from the course this service is linked to (the first one an activity was added to or opened in):
        from another course it would bring that course's students into this course's grader. A request that
        names no course (the spec allows it) is taken; the activity's first launch then names it."""
        context = claims.get(CLAIM + "context") or {}
        here = str(context.get("id") or "") if isinstance(context, dict) else ""
        linked = lti_store.linked_courses(self.svc.db)
        if here and linked and not any(c["issuer"] == platform.issuer and c["context_id"] == here for c in linked):
            ours = ", ".join(repr(c["title"] or c["context_id"]) for c in linked)
            theirs = repr(str(context.get("title") or context.get("label") or here))
            raise LaunchRefused(f"This service grades the LMS course {ours}, so a deep link from another course "
                                f"({theirs}) is refused: it would bring that course's students into this course's "
                                f"grader.")

    def arrive(self, platform: LtiPlatformConfig, claims: dict) -> tuple[dict, str]:
        """(the account, where to go) for a verified launch; the LMS course is remembered for its assignment.
        LaunchRefused, with nothing changed, when the launch's e-mail names an account not this user's."""
        db = self.svc.db
        role = lti_roster.role_of(claims.get(CLAIM + "roles") or [])
        who = lti_store.Identity(platform.issuer, platform.client_id, str(claims.get(CLAIM + "deployment_id")),
                                 str(claims["sub"]))
        try:
            user = lti_roster.account(db, who, str(claims.get("name") or ""), str(claims.get("email") or ""), role)
        except lti_roster.IdentityRefused as exc:
            raise LaunchRefused(str(exc)) from exc
        name = self.assignment_of(claims)
        context = claims.get(CLAIM + "context") or {}
        if name and context.get("id"):
            ags, nrps = claims.get(AGS_CLAIM) or {}, claims.get(NRPS_CLAIM) or {}
            lti_store.save_course(db, {
                "issuer": platform.issuer, "context_id": str(context["id"]), "assignment": name,
                "deployment_id": str(claims.get(CLAIM + "deployment_id")),
                "title": str(context.get("title") or context.get("label") or ""),
                "memberships_url": nrps.get("context_memberships_url"), "lineitems_url": ags.get("lineitems"),
                "lineitem_url": ags.get("lineitem"), "scopes": " ".join(ags.get("scope") or [])})
            lti_store.add_member(db, platform.issuer, str(context["id"]), user["id"])
        return user, f"/a/{name}" if name else "/"

    def assignment_of(self, claims: dict) -> str | None:
        """The assignment the LMS activity is: its custom `assignment` parameter, or the target link's /a/NAME."""
        custom = claims.get(CLAIM + "custom") or {}
        name = str(custom.get("assignment") or "") if isinstance(custom, dict) else ""
        if not name:
            path = urlsplit(str(claims.get(CLAIM + "target_link_uri") or "")).path.rstrip("/")
            name = path.removeprefix("/a/") if path.startswith("/a/") else ""
        return name if name in self.svc.assignments else None

    # ------------------------------------------------------------------ roster and grades
    def course_services(self, course: dict) -> tuple[LtiPlatformConfig, Services]:
        platform = next((p for p in self.platforms if p.issuer == course["issuer"]
                         and course["deployment_id"] in p.deployment_ids), None)
        if platform is None:
            raise PlatformError(f"the LMS {course['issuer']} is no longer registered here", transient=False)
        return platform, self.services(platform)

    def sync_roster(self, name: str) -> list[str]:
        """Each linked LMS course's roster read into accounts; a sentence per course."""
        said = []
        for course in lti_store.courses(self.svc.db, name):
            try:
                platform, services = self.course_services(course)
                said.append(f"{course['title'] or course['context_id']}: "
                            f"{lti_roster.sync(self.svc.db, services, platform, course).sentence()}")
            except PlatformError as exc:
                said.append(f"{course['title'] or course['context_id']}: the roster was not read: {exc}.")
        return said or [NOT_LINKED]

    def send_grades(self, name: str) -> list[str]:
        """Each linked LMS course's decisions made and sent; a sentence per course."""
        said = []
        assignment = self.svc.assignment(name)
        league = (lti_grades.league_after_deadline(self.svc.db, assignment, name, self.svc.results(name))
                  if self.grade_policy == "league" else None)
        for course in lti_store.courses(self.svc.db, name):
            try:
                platform, services = self.course_services(course)
                done = lti_grades.passback(self.svc.db, services, platform, assignment, name, self.grade_policy,
                                           course, league)
                said.append(f"{course['title'] or course['context_id']}: {done.sentence()}")
            except PlatformError as exc:
                said.append(f"{course['title'] or course['context_id']}: no grades sent: {exc}.")
        return said or [NOT_LINKED]


    def send_all(self) -> list[str]:
        """Every linked assignment's grades sent (what the service does by itself every few minutes)."""
        linked = {c["assignment"] for name in self.svc.assignments for c in lti_store.courses(self.svc.db, name)}
        return [line for name in sorted(linked) for line in self.send_grades(name)]

    def keep_sending(self, stop: threading.Event, every_s: float) -> None:
        """Send the grades every `every_s` seconds until `stop` is set; a failure is logged, never fatal."""
        while not stop.wait(every_s):
            try:
                for line in self.send_all():
                    print(f"grader serve: LMS grades: {line}", file=sys.stderr)
            except Exception as exc:       # a database hiccup must not end the grade passback for good
                print(f"grader serve: LMS grades not sent this time: {exc}", file=sys.stderr)


NOT_LINKED = ("No LMS course is linked to this assignment yet: add it as an LTI activity in the LMS and "
              "open it once as the instructor.")


def _kid(token: str) -> str | None:
    """The key id in the token's header (read before verifying, only to pick the key)."""
    try:
        head = token.split(".", 1)[0]
        header = json.loads(base64.urlsafe_b64decode(head + "=" * (-len(head) % 4)))
    except (ValueError, UnicodeDecodeError):
        return None
    kid = header.get("kid") if isinstance(header, dict) else None
    return str(kid) if kid else None


# -------------------------------------------------------------------- the pages
def routes(tool: Tool | None, page) -> list[Route]:
    """The LTI endpoints and the instructor's LTI page when `serve.lti` is set; nothing otherwise.
    `page(path, fn, methods)`: the app's route maker for pages run in the thread pool with CSRF."""
    if tool is None:
        return []
    svc = tool.svc

    def refusal(request: Request, exc: LaunchRefused, status: int = 400) -> Response:
        return svc.page(request, "message.html", status=status, title="The LMS launch was refused", message=str(exc))

    async def login(request: Request) -> Response:
        params = dict(await request.form()) if request.method == "POST" else dict(request.query_params)
        try:
            target = await run_in_threadpool(tool.login_redirect, params, f"{svc.base_url(request)}/lti/launch")
        except LaunchRefused as exc:
            return await run_in_threadpool(refusal, request, exc)
        return RedirectResponse(target, 302)

    async def launch(request: Request) -> Response:
        form = await request.form()

        def arrive() -> Response:
            try:
                platform, claims = tool.verify(str(form.get("id_token") or ""), str(form.get("state") or ""))
                user, target = tool.arrive(platform, claims)
            except LaunchRefused as exc:
                return refusal(request, exc)
            svc.log_in(request, user)
            if claims.get(CLAIM + "message_type") == "LtiDeepLinkingRequest":
                request.session["lti_deep_link"] = lti_deep_link.request_of(platform, claims)
                target = "/lti/deep-link"
            return RedirectResponse(target, 303)

        return await run_in_threadpool(arrive)

    async def register(request: Request) -> Response:
        """Dynamic registration, opened by the LMS in its admin's browser (often in a frame of the LMS's page)."""
        params = dict(request.query_params)
        lms = lti_registration.origin(str(params.get("openid_configuration") or ""))

        def run() -> Response:
            try:
                platform, approved = tool.register(svc.base_url(request), params)
            except lti_registration.RegistrationRefused as exc:
                page = svc.page(request, "message.html", status=400, title="The LMS registration was refused",
                                message=str(exc))
            else:
                page = svc.page(request, "lti_registered.html", platform=platform, approved=approved, lms_origin=lms)
            page.headers["content-security-policy"] = lti_registration.framed_by(lms)
            return page

        return await run_in_threadpool(run)

    async def jwks(request: Request) -> Response:
        return JSONResponse(lti_keys.public_jwks(tool.key), headers={"Cache-Control": "max-age=300"})

    def registration(svc_, request: Request, form) -> Response:
        base = svc.base_url(request)
        return svc.page(request, "lti.html", base=base, platforms=tool.platforms, configured=tool.configured,
                        waiting=tool.waiting, dynamic_registration=tool.dynamic_registration,
                        allowed_origins=tool.allowed_origins, said=request.query_params.get("m"),
                        public_pem=tool.key.as_pem(private=False).decode(), kid=tool.key.kid,
                        assignments=svc.assignments)

    def course_page(svc_, request: Request, form) -> Response:
        svc.need_instructor(request)
        name = request.path_params["name"]
        a = svc.assignment(name)
        return svc.page(request, "lti_course.html", a=a, name=name, courses=lti_store.courses(svc.db, name),
                        scores=lti_store.scores(svc.db, name), said=request.query_params.getlist("m"))

    def act(what):
        def run(svc_, request: Request, form) -> Response:
            svc.need_instructor(request)
            name = request.path_params["name"]
            svc.assignment(name)
            said = what(name)
            return RedirectResponse(f"/teach/{name}/lti?{urlencode([('m', s) for s in said])}", 303)
        return run

    def decide_platform(approve: bool):
        def run(svc_, request: Request, form) -> Response:
            """The instructor approves a platform that registered itself, or removes it."""
            svc.need_instructor(request)
            issuer, client_id = str(form.get("issuer") or ""), str(form.get("client_id") or "")
            done = (lti_store.approve_platform if approve else lti_store.remove_platform)(svc.db, issuer, client_id)
            said = (f"{issuer} (client id {client_id}) {'may now launch' if approve else 'was removed'}." if done
                    else f"No waiting platform {issuer} with client id {client_id}; nothing was changed.")
            return RedirectResponse(f"/lti?{urlencode({'m': said})}", 303)
        return run

    def deep_link(svc_, request: Request, form) -> Response:
        """GET: the instructor's choice of assignments; POST: the signed answer, posted on to the LMS."""
        svc.need_instructor(request)
        asked = request.session.get("lti_deep_link")
        if not isinstance(asked, dict):
            return svc.page(request, "message.html", status=400, title="No deep linking request",
                            message="Nothing was asked by the LMS in this session; start from \"Add an activity\" "
                                    "in the LMS course.")
        if form is None:
            return svc.page(request, "lti_deep_link.html", assignments=svc.assignments, answer=None)
        chosen = [str(n) for n in form.getlist("assignment") if str(n) in svc.assignments]
        base = svc.base_url(request)
        answer = lti_deep_link.response(tool.key, asked, [(n, svc.assignments[n].title, f"{base}/a/{n}")
                                                          for n in chosen])
        request.session.pop("lti_deep_link", None)
        for n in chosen if asked.get("context_id") else ():     # the course is linked before any activity opens
            lti_store.save_course(svc.db, lti_deep_link.course_of(asked, n))
        page = svc.page(request, "lti_deep_link.html", assignments=svc.assignments, chosen=chosen,
                        answer={"url": asked["return_url"], "jwt": answer})
        page.headers["content-security-policy"] = lti_deep_link.return_policy(asked["return_url"])
        return page

    return [Route("/lti/login", login, methods=["GET", "POST"]), Route("/lti/launch", launch, methods=["POST"]),
            Route("/lti/jwks", jwks), Route("/lti/register", register), page("/lti", registration),
            page("/lti/platforms/approve", decide_platform(True), ("POST",)),
            page("/lti/platforms/remove", decide_platform(False), ("POST",)),
            page("/lti/deep-link", deep_link, ("GET", "POST")), page("/teach/{name}/lti", course_page), page("/teach/{name}/lti/roster", act(tool.sync_roster), ("POST",)),
            page("/teach/{name}/lti/grades", act(tool.send_grades), ("POST",))]
