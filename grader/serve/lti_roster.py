"""Who an LMS user is here, and the roster of an LMS course (LTI Names and Role Provisioning Services).

An LMS user is known by the platform that names them (issuer, client id, deployment) and its `sub`,
and an account is bound to one such identity at most (`lti_identities`). The rules, so that a
platform can speak only for its own users:
- an identity seen before signs in to its own account. When the LMS made that account, the LMS's
  role is the account's role. When the account was adopted (below), the role never rises above what
  the account had when it was adopted;
- a new identity whose e-mail matches an account adopts that account only when no LMS identity is
  bound to it (a CSV roster or the instructor made it) and the LMS gives it the role it has here.
  Otherwise the launch or roster line is refused in one sentence and nothing changes: another
  platform, or another user of the same one, never takes over an account by e-mail or raises its role;
- otherwise a new account is made and bound.
Staff roles (Instructor, TeachingAssistant, Administrator, ContentDeveloper, Mentor) make an
instructor here, anything else a student.
"""
from __future__ import annotations

import hashlib
from dataclasses import dataclass, field

from ..config import LtiPlatformConfig
from . import accounts, lti_store
from .db import Database
from .lti_services import PlatformError, Services

NRPS_SCOPE = "https://purl.imsglobal.org/spec/lti-nrps/scope/contextmembership.readonly"
NRPS_MEDIA = "application/vnd.ims.lti-nrps.v2.membershipcontainer+json"
STAFF = ("instructor", "teachingassistant", "administrator", "contentdeveloper", "mentor")


def role_of(roles: list[str]) -> str:
    """'instructor' for an LMS staff role (full URI or NRPS's short name), else 'student'."""
    for role in roles:
        name = str(role).rsplit("#", 1)[-1].rsplit("/", 1)[-1].lower()
        if name in STAFF:
            return "instructor"
    return "student"


RANK = {"student": 0, "instructor": 1}


class IdentityRefused(Exception):
    """An LMS user who may not sign in to the account their e-mail names, as one sentence."""


def _login(who: lti_store.Identity, email: str) -> str:
    if email:
        return email
    platform = f"{who.issuer} {who.client_id} {who.deployment_id}"
    return f"lti-{hashlib.sha256(platform.encode()).hexdigest()[:6]}-{who.sub}"


def account(db: Database, who: lti_store.Identity, name: str, email: str, role: str) -> dict:
    """The account of this LMS user, by its binding, adopted by e-mail or made; IdentityRefused (nothing
    changed) when the e-mail names an account that this LMS user may not have, or not with this role."""
    user = lti_store.person(db, who)
    if user is not None:
        ceiling = user.pop("ceiling")
        if ceiling is not None and RANK[role] > RANK[ceiling]:
            role = ceiling
    elif email and (user := db.one("SELECT * FROM users WHERE login = ? OR (email = ? AND email != '') ORDER BY id",
                                   (email, email))) is not None:
        if lti_store.bound_to(db, user["id"]) is not None:
            raise IdentityRefused(f"The account for {email} belongs to another LMS user, so {who.issuer} cannot "
                                  f"sign in to it; nothing was changed.")
        if role != user["role"]:
            raise IdentityRefused(f"The account for {email} is a {user['role']} here but the LMS {who.issuer} says "
                                  f"{role}, so it is not linked; nothing was changed.")
        if not lti_store.bind(db, who, user["id"], ceiling=user["role"]):
            raise IdentityRefused(f"The account for {email} was being linked to an LMS user at the same moment, "
                                  f"so it is not linked; nothing was changed. Open the activity from the LMS again.")
    else:
        made = accounts.create(db, _login(who, email), name, email, role)
        user = accounts.by_login(db, made.login) if made else None
        if user is None:
            raise IdentityRefused(f"An account named {_login(who, email)} was made by someone else at the same "
                                  f"moment; open the activity from the LMS again.")
        if not lti_store.bind(db, who, user["id"], ceiling=None):
            raise IdentityRefused(f"You were signing in from {who.issuer} twice at the same moment, so this one "
                                  f"stopped; open the activity from the LMS again.")
    lti_store.update_person(db, user["id"], name or user["name"], email or user["email"], role)
    return accounts.by_id(db, user["id"]) or user


@dataclass
class RosterSync:
    """What one roster sync did, for the instructor's page."""

    made: int = 0
    updated: int = 0
    students: int = 0
    staff: int = 0
    left: int = 0          # members the LMS lists as Inactive or Deleted: not given accounts
    refused: list[str] = field(default_factory=list)    # members whose e-mail names an account not theirs

    def sentence(self) -> str:
        return (f"The LMS lists {self.students} student(s) and {self.staff} staff member(s): {self.made} "
                f"linked for the first time, {self.updated} brought up to date"
                f"{f', {self.left} inactive member(s) skipped' if self.left else ''}"
                f"{f', {len(self.refused)} refused ({self.refused[0]})' if self.refused else ''}.")


def sync(db: Database, services: Services, platform: LtiPlatformConfig, course: dict) -> RosterSync:
    """Read the course's membership from the LMS (every page) into accounts with their roles.
    Raises PlatformError when the LMS does not answer; nothing is half-changed that a repeat would not fix."""
    url = course.get("memberships_url")
    if not url:
        raise PlatformError("this course's launch did not offer the roster service (NRPS); "
                                  "turn on \"Names and Role Provisioning\" for the tool in the LMS", transient=False)
    done = RosterSync()
    for page in services.get_all(url, [NRPS_SCOPE], NRPS_MEDIA, "the roster request"):
        for member in page.get("members") or []:
            sub = str(member.get("user_id") or "")
            if not sub:
                continue
            if str(member.get("status") or "Active") != "Active":
                done.left += 1
                continue
            role = role_of(member.get("roles") or [])
            name = str(member.get("name") or " ".join(
                filter(None, (member.get("given_name"), member.get("family_name")))) or "")
            who = lti_store.Identity(platform.issuer, platform.client_id, str(course["deployment_id"]), sub)
            known = lti_store.person(db, who) is not None
            try:
                user = account(db, who, name, str(member.get("email") or ""), role)
            except IdentityRefused as exc:
                done.refused.append(str(exc).removesuffix("; nothing was changed."))
                continue
            lti_store.add_member(db, platform.issuer, course["context_id"], user["id"])
            done.updated += known
            done.made += not known
            done.students += role == "student"
            done.staff += role != "student"
    return done
