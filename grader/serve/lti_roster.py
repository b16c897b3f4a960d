"""Who an LMS user is here, and the roster of an LMS course (LTI Names and Role Provisioning Services).

An LMS user is known by the platform's `sub` (its stable user id). The first time one arrives (by a
launch or a roster sync) an account is found by e-mail (a CSV roster may have made it) or made, and
linked; afterwards the link decides, and the name, e-mail and role follow the LMS. Staff roles
(Instructor, TeachingAssistant, Administrator, ContentDeveloper, Mentor) make an instructor here,
anything else a student. The CSV roster keeps working beside this: both make the same accounts.
"""
from __future__ import annotations

import hashlib
from dataclasses import dataclass

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


def _login(issuer: str, sub: str, email: str) -> str:
    if email:
        return email
    return f"lti-{hashlib.sha256(issuer.encode()).hexdigest()[:6]}-{sub}"


def account(db: Database, issuer: str, sub: str, name: str, email: str, role: str) -> dict:
    """The account of this LMS user, found by link or by e-mail, or made; kept up to date with the LMS."""
    user = lti_store.person(db, issuer, sub)
    if user is None and email:
        user = db.one("SELECT * FROM users WHERE login = ? OR (email = ? AND email != '') ORDER BY id",
                      (email, email))
    if user is None:
        made = accounts.create(db, _login(issuer, sub, email), name, email, role)
        user = accounts.by_login(db, made.login if made else _login(issuer, sub, email))
        assert user is not None, "an account just made is there"
    lti_store.link_person(db, issuer, sub, user["id"])
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

    def sentence(self) -> str:
        return (f"The LMS lists {self.students} student(s) and {self.staff} staff member(s): {self.made} "
                f"linked for the first time, {self.updated} brought up to date"
                f"{f', {self.left} inactive member(s) skipped' if self.left else ''}.")


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
            known = lti_store.person(db, platform.issuer, sub) is not None
            user = account(db, platform.issuer, sub, name, str(member.get("email") or ""), role)
            lti_store.add_member(db, platform.issuer, course["context_id"], user["id"])
            done.updated += known
            done.made += not known
            done.students += role == "student"
            done.staff += role != "student"
    return done
