"""Reading config.yaml: one loader that validates everything and answers mistakes in one sentence.

The schema is plain pydantic models with unknown keys forbidden, so a typo is caught rather than
silently ignored. `load_config` raises `ConfigError` whose message names the file, the key and what
was expected; callers print it and exit with status 2.

A leaf: it reads the schema and asks the ruleset (its game parameters, stages and built-ins), and
imports no other module of the grader but grader/penalties.py, itself a leaf. What only the grader can judge (a grading formula tried on
an empty league, a console program's patterns, the builds of the kinds table) is checked where an
assignment is loaded (grader/config_checks.py, called by grader/assignment.py).
"""
from __future__ import annotations

import ipaddress
import re
import string
from email.utils import parseaddr
from pathlib import Path
from typing import Annotated, Any, Literal
from urllib.parse import urlsplit

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

import rulesets
from rulesets.base import BadParams
from sandbox.layers import LAYERS

from .penalties import PenaltyConfigError, check_config

POLICIES = ("forfeit", "random", "disqualify")


class ConfigError(ValueError):
    """A config problem, as one sentence for people."""


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class LimitsConfig(Strict):
    """Overrides of the ruleset's defaults; unset fields keep the course's values."""

    first_move_s: float | None = Field(None, gt=0)
    load_s: float | None = Field(None, gt=0)          # loading (importing) the submission, on its own; None:
                                                      # loading is part of the first-move allowance, as courses ran it
    move_s: float | None = Field(None, gt=0)
    kill_after_s: float | None = Field(None, ge=0)
    kill_factor: float | None = Field(None, ge=1)
    clock: Literal["cpu", "wall"] | None = None       # what move limits measure: CPU time or the player's own
                                                      # wall-clock time (None: what the course's harness timed)
    wall_factor: float = Field(3.0, ge=1)             # cpu clock: unanswered after move × wall_factor + wall_after_s
    wall_after_s: float = Field(1.0, ge=0)            # of wall-clock time, the player is killed
    memory_mb: int | None = Field(None, ge=16)
    max_submission_mb: float | None = Field(None, gt=0)
    output_kb: int = Field(64, ge=1)


class PolicyConfig(Strict):
    on_late: Literal["forfeit", "random", "disqualify"] | None = None
    on_illegal: Literal["forfeit", "random", "disqualify"] | None = None
    on_error: Literal["forfeit", "random", "disqualify"] | None = None
    on_none: Literal["forfeit", "random", "disqualify"] | None = None
    on_uncaught: Literal["forfeit", "random", "random_rest", "disqualify"] | None = None


class StageConfig(Strict):
    points: float | None = Field(None, ge=0)
    required: bool | None = None


class ValidationConfig(Strict):
    stages: dict[str, StageConfig] = Field(default_factory=dict)
    smoke_games: int = Field(2, ge=0, le=20)
    smoke_opponent: str = "random"
    smoke_required: bool = True       # False: smoke games are reported but do not keep a player out
    kind: Literal["auto", "module", "program"] = "auto"   # rulesets with a command-line kind (rbnim)
    program_patterns: dict[str, str] = Field(default_factory=dict)   # overrides of the output patterns
    submission_patterns: dict[str, dict[str, str]] = Field(default_factory=dict)   # by submission id, the rare case


class AdaptiveConfig(Strict):
    """`league.format: adaptive` (grader/adaptive.py): waves of games only where a cut is in doubt."""

    first_opponents: int = Field(6, ge=1)         # opponents per player in the first wave
    wave_opponents: int = Field(2, ge=1)          # new pairings per doubtful player in each later wave
    wave_share: float = Field(1.0, gt=0, le=1)    # at most this share of the players get games in a wave
    waves: int = Field(20, ge=1)                  # each wave spends at least 1/waves of the budget
    confidence: float = Field(0.95, gt=0.5, lt=1)  # a cut is separated when no interval at this level holds it
    budget: float = Field(0.15, gt=0, le=1)       # at most this share of a full round robin's games


class CollusionConfig(Strict):
    """Replaying suspicious pairs before the collusion check (grader/collusion.py): a pair whose games
    against each other are improbable at `screen` (uncorrected) plays more seat-swapped twins until
    the corrected test decides or it has `max_games`; the replays never count in the standings."""

    replay: bool = True
    screen: float = Field(0.1, gt=0, lt=1)        # uncorrected p-value that makes a pair suspicious
    max_games: int = Field(12, ge=2, le=1000)     # a replayed pair's games in all, league games included


class LeagueConfig(Strict):
    format: Literal["round_robin", "random_subset", "gauntlet", "adaptive"] = "round_robin"
    games_per_pair: int = Field(2, ge=1, le=100000)
    seed: int = 0
    builtins: list[str] = Field(default_factory=list)      # built-in players entered in the league
    opponents: int = Field(5, ge=1)                         # random_subset: opponents per submission
    top_fraction: float = Field(0.1, gt=0, le=1)            # random_subset: the playoff; adaptive: a cut
    adaptive: AdaptiveConfig = Field(default_factory=AdaptiveConfig)
    collusion: CollusionConfig = Field(default_factory=CollusionConfig)
    gauntlet: list[str] = Field(default_factory=lambda: ["random"])   # built-ins every submission meets
    concurrency: Annotated[int, Field(ge=1)] | Literal["auto"] = "auto"
    executor: Literal["local", "dask"] = "local"
    prefork: bool = True            # start players from a pre-imported template (sandbox/prefork.py)
    dask: dict[str, Any] = Field(default_factory=dict)


class ProgramsConfig(Strict):
    """Builds of players (grader/builds.py; Java players too): which line-protocol builds are allowed, and
    the limits of every build and of the build cache."""

    builds: list[str] | None = None             # rows of grader/player_kinds.py; None: every one (builds.allowed_builds)
    build_time_s: float = Field(120, gt=0)
    build_memory_mb: int = Field(1024, ge=64)
    output_mb: int = Field(64, ge=1)            # what one build may leave in its folder, in all
    output_files: int = Field(4096, ge=16)
    cache_mb: int = Field(2048, ge=1)           # the build cache: least recently used evicted above it


class ThresholdRule(Strict):
    """One "thresholds" rule: scoring more than `share` against the built-in `beats` (decided by
    the sequential test) earns `grade`."""

    beats: str
    grade: float
    share: float = Field(0.5, ge=0, le=1)


class GradingConfig(Strict):
    kind: Literal["bands", "interpolate", "thresholds", "ladder", "validation", "none"] = "none"   # validation: its points
    bands: list[tuple[float, float]] = Field(default_factory=list)
    max: float = 100
    pass_min: float = 50
    must_beat: str | None = None
    rules: list[ThresholdRule] = Field(default_factory=list)   # thresholds, ladder: {beats, grade}
    failed_grade: float = 0
    # every pass/fail against a built-in (must_beat, rules) is a sequential test (grader/sprt.py):
    error: float = 0.05              # the chance a "beats"/"does not beat" decision is wrong
    margin: float = 0.1              # "beats" means scoring ½ (a rule's share) + margin a game, "does not" ½
    max_games: int = 200             # per student and built-in; then undecided, which is not beating it


class SimilarityConfig(Strict):
    """`grader similarity` (and `grader run` when set): what is shared template code, what else to compare."""

    skeleton: list[str] = Field(default_factory=list)   # course files every student starts from (relative paths)
    archive: str | None = None                          # earlier years' submissions, one folder each
    min_score: float = Field(0.3, gt=0, le=1)           # pairs listed from this share of matching code
    k: int = Field(25, ge=5, le=200)                    # fingerprint length in tokens
    window: int = Field(4, ge=1, le=100)                # winnowing window
    common_cutoff: int | None = Field(None, ge=1)       # ignore passages in more submissions (default max(10, n/10))
    alpha: float = Field(0.01, gt=0, lt=1)              # collusion flags: family-wise false-flag rate

    @field_validator("skeleton")
    @classmethod
    def _inside_the_course(cls, value: list[str]) -> list[str]:
        """Relative to the course folder, so a course folder that moves keeps its skeleton."""
        for path in value:
            if Path(path).is_absolute():
                raise ValueError(f"{path} is an absolute path; give it relative to the course folder "
                                 f"(the config's), so the skeleton stays found when the folder moves")
        return value


class SandboxConfig(Strict):
    """What the sandbox must apply before this assignment is graded on a machine."""

    require: list[str] = Field(default_factory=list)   # names from `grader doctor`: memory, uid, network, …

    @field_validator("require")
    @classmethod
    def _known_layers(cls, value: list[str]) -> list[str]:
        unknown = [name for name in value if name not in LAYERS]
        if unknown:
            raise ValueError(f"{', '.join(map(repr, unknown))} names no protection; `grader doctor` lists them: "
                             f"{', '.join(LAYERS)}")
        return list(dict.fromkeys(value))


SPARRING_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]*")


class AssignmentConfig(Strict):
    title: str = ""
    ruleset: str
    submissions: str                                  # folder of submissions, relative to the config file
    reports: str | None = None                        # output folder; default reports/<name>
    store: str | None = None                          # SQLite file; default <reports>/results.sqlite
    game: dict[str, Any] = Field(default_factory=dict)
    limits: LimitsConfig = Field(default_factory=LimitsConfig)
    policy: PolicyConfig = Field(default_factory=PolicyConfig)
    validation: ValidationConfig = Field(default_factory=ValidationConfig)
    league: LeagueConfig = Field(default_factory=LeagueConfig)
    grading: GradingConfig = Field(default_factory=GradingConfig)
    programs: ProgramsConfig = Field(default_factory=ProgramsConfig)
    anonymise: bool = False
    options: dict[str, Any] = Field(default_factory=dict)   # passed to the ruleset's shim
    penalties: dict[str, Any] = Field(default_factory=dict)  # BRUTE-style; see grader/penalties.py
    report_url: str | None = None                     # where the site is published; links in LMS feedback
    public_names: bool | list[str] = False            # the public site's names: pseudonyms, all real names, or these ids
    similarity: SimilarityConfig | None = None        # run the similarity report with every `grader run`
    sandbox: SandboxConfig = Field(default_factory=SandboxConfig)
    sparring: dict[str, str] = Field(default_factory=dict)   # the course's sparring players: name -> file or folder

    @field_validator("sparring")
    @classmethod
    def _sparring_inside_the_course(cls, value: dict[str, str]) -> dict[str, str]:
        """Named as `grader play` takes them, and inside the course folder: the students' package
        ships each at the same place beside its config."""
        for name, where in value.items():
            if not SPARRING_NAME.fullmatch(name):
                raise ValueError(f"{name!r} is not a sparring player's name: letters, digits, '_' and '-' only "
                                 f"(students type it: grader play mine.py sparring:NAME)")
            rel = Path(where)
            if rel.is_absolute() or ".." in rel.parts or not where.strip():
                raise ValueError(f"{name}: {where!r} must be a path inside the course folder, relative to the "
                                 f"config (the students' package ships it beside the config)")
        return value

    @field_validator("penalties")
    @classmethod
    def _known_penalties(cls, value: dict) -> dict:
        try:
            check_config(value)
        except PenaltyConfigError as exc:
            raise ValueError(str(exc).rstrip(".")) from None
        return value

    @field_validator("options")
    @classmethod
    def _read_once_is_a_list_of_paths(cls, value: dict) -> dict:
        paths = value.get("read_once", [])
        if not isinstance(paths, list) or not all(isinstance(p, str) and p for p in paths):
            raise ValueError(f"read_once must be a list of paths inside the submission (got {paths!r})")
        return value

    @field_validator("ruleset")
    @classmethod
    def _known_ruleset(cls, value: str) -> str:
        if value not in rulesets.names():
            raise ValueError(f"must be one of {', '.join(rulesets.names())}; {rulesets.WHERE}")
        return value


def _networks(value: list[str]) -> list[str]:
    """Proxy addresses must be IP addresses or networks (`10.0.0.5`, `10.0.0.0/24`), never names."""
    for item in value:
        try:
            ipaddress.ip_network(item, strict=False)
        except ValueError:
            raise ValueError(f"{item!r} is not an IP address or network (e.g. 127.0.0.1 or 10.0.0.0/24)") from None
    return value


class TrustedProxyConfig(Strict):
    """Single sign-on through a proxy in front: the user's login comes from `header`, believed only
    from the proxy's own `addresses` (and only for logins on the roster)."""

    header: str = Field(min_length=1)
    addresses: list[str] = Field(min_length=1)

    _check_addresses = field_validator("addresses")(_networks)


class OidcConfig(Strict):
    """A university login through OpenID Connect (the provider's discovery URL and this client)."""

    issuer: str                                       # e.g. https://login.example.edu/realms/uni
    client_id: str
    client_secret: str
    claim: str = "preferred_username"                 # the claim that holds the roster's login
    label: str = "Log in with the university account"


class PracticeConfig(Strict):
    """`serve.practice`: students' practice matches (grader/serve/practice.py), never graded."""

    opponents: Literal["classmates", "builtins", "off"] = "classmates"   # whom a student may pick
    games: int = Field(2, ge=1, le=20)                # seat-swapped games per match
    keep_days: float = Field(7, gt=0)                 # a match (row and replay) is deleted after this
    rate_limit: int = Field(6, ge=1)                  # matches per student per rate_window_s
    rate_window_s: float = Field(3600, gt=0)
    queue_max: int = Field(30, ge=1)                  # matches waiting at once, the whole class
    running_max: int = Field(1, ge=1)                 # matches played at once: the other workers keep to uploads
    wait_max_s: float = Field(1800, gt=0)             # a match still waiting after this ends with a reason


class LtiPlatformConfig(Strict):
    """One LMS registered with this tool (LTI 1.3): what its admin's registration page shows."""

    issuer: str                                       # e.g. https://canvas.instructure.com
    client_id: str                                    # the id the LMS gave this tool
    auth_url: str                                     # its OIDC authorization endpoint (the launch goes there)
    token_url: str                                    # its OAuth 2 token endpoint (for roster and grades)
    jwks_url: str                                     # its public keys
    deployment_ids: list[str] = Field(min_length=1)   # the deployments of this tool it may launch from
    name: str = ""                                    # shown to instructors, e.g. "University Moodle"


class LtiConfig(Strict):
    """Students arrive from the LMS and grades go back to it (grader/serve/lti.py, docs/LTI.md)."""

    platforms: list[LtiPlatformConfig] = []
    grade: Literal["best", "latest", "league"] = "best"   # what is sent: the best or latest upload's grade,
                                                      # or the grade of the last league run begun after the deadline
    send_every_minutes: float | None = Field(10, gt=0)   # grades go back by themselves this often; null: by hand
    dynamic_registration: bool = False                # an LMS may register itself at /lti/register (docs/LTI.md)
    allowed_origins: list[str] = []                   # e.g. [https://moodle.example.edu]: only these may register,
                                                      # and they launch at once; empty: each waits for approval

    @field_validator("allowed_origins")
    @classmethod
    def _origins(cls, value: list[str]) -> list[str]:
        for origin in value:
            parts = urlsplit(origin)
            if parts.scheme != "https" or not parts.netloc or origin.rstrip("/") != f"https://{parts.netloc}":
                raise ValueError(f"{origin!r} is not an https origin (https://host or https://host:port)")
        return [o.rstrip("/") for o in value]

    @model_validator(mode="after")
    def _some_platform(self) -> LtiConfig:
        if not self.platforms and not self.dynamic_registration:
            raise ValueError("lists no platform: add one under platforms, or set dynamic_registration: true "
                             "and register the LMS from its side")
        return self

PLACEHOLDERS = ("course", "name", "login", "link", "expires", "site")


def _placeholders(text: str) -> str:
    """An invitation's words may name only the placeholders the service fills in."""
    try:
        fields = [f for _, f, _, _ in string.Formatter().parse(text) if f is not None]
    except ValueError as exc:
        raise ValueError(f"has a broken placeholder ({exc}); write {{{{ and }}}} for a brace") from None
    for field in fields:
        if field not in PLACEHOLDERS:
            raise ValueError(f"{{{field}}} is not a placeholder; the invitation knows "
                             f"{', '.join('{' + p + '}' for p in PLACEHOLDERS)}")
    return text


class InvitationConfig(Strict):
    """`serve.invitation`: the words of the e-mail that brings a student their set-password link."""

    course: str = ""                                  # the course's name in it; default: the assignment's title
    subject: str = "Your account for {course}"
    text: str = ("Hello {name},\n\nyou have an account in the upload service of {course}, with the login {login}.\n"
                 "Choose your password with this link; it works once, until {expires}:\n\n{link}\n\n"
                 "Afterwards, log in at {site} to upload your player.\n")

    _check = field_validator("subject", "text")(_placeholders)

    @field_validator("text")
    @classmethod
    def _has_link(cls, value: str) -> str:
        if "{link}" not in value:
            raise ValueError("has no {link}: the e-mail would not carry the student's set-password link")
        return value


class SmtpConfig(Strict):
    """`serve.smtp`: the mail server that sends the invitations (grader/serve/invitations.py).
    The password is never in config.yaml: `password_env` names the environment variable that holds it."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True)

    host: str = Field(min_length=1)
    port: int = Field(587, ge=1, le=65535)
    sender: str = Field(alias="from")                 # e.g. "Game AI <gameai@example.edu>"
    starttls: bool = True
    user: str | None = None
    password_env: str | None = None                   # e.g. GRADER_SMTP_PASSWORD

    @model_validator(mode="before")
    @classmethod
    def _no_password(cls, data: Any) -> Any:
        if isinstance(data, dict) and "password" in data:
            raise ValueError("holds a password: never write it in config.yaml; put it in an environment variable "
                             "and name that variable with password_env")
        return data

    @field_validator("sender")
    @classmethod
    def _address(cls, value: str) -> str:
        if "@" not in parseaddr(value)[1]:
            raise ValueError(f"{value!r} is not an e-mail address (e.g. \"Game AI <gameai@example.edu>\")")
        return value

    @model_validator(mode="after")
    def _login_pair(self) -> SmtpConfig:
        if bool(self.user) != bool(self.password_env):
            raise ValueError("needs both user and password_env (the name of the environment variable that "
                             "holds the password), or neither")
        if self.user and not self.starttls and self.host not in ("localhost", "127.0.0.1", "::1"):
            raise ValueError("would send the password unencrypted to another machine: set starttls: true")
        return self


class ServeConfig(Strict):
    """`grader serve`: the upload service (grader/serve/)."""

    data_dir: str = ".grader/serve"                   # uploads, the database, league folders, the secret key
    database_url: str | None = None                   # default: SQLite in data_dir; or postgresql://…
    host: str = "127.0.0.1"
    port: int = Field(8000, ge=1, le=65535)
    workers: Annotated[int, Field(ge=1)] | Literal["auto"] = "auto"   # evaluation processes (one per core)
    max_upload_mb: float = Field(10, gt=0)            # refused before it reaches the disk
    rate_limit: int = Field(10, ge=1)                 # uploads per account per rate_window_s
    rate_window_s: float = Field(600, gt=0)
    league_every_hours: float | None = Field(None, gt=0)   # e.g. 24: a league run every night
    https_only: bool = False                          # mark the session cookie Secure (behind TLS)
    trusted_proxy: TrustedProxyConfig | None = None
    proxy_addresses: list[str] = []                   # reverse proxies whose X-Forwarded-For/-Proto are believed
    public_url: str | None = None                     # e.g. https://grader.example.edu: links in set-password pages
    oidc: OidcConfig | None = None
    lti: LtiConfig | None = None
    lease_s: float = Field(60, gt=0)                  # a dead worker's job is taken over after this
    practice: PracticeConfig = PracticeConfig()
    invitation: InvitationConfig = InvitationConfig()
    smtp: SmtpConfig | None = None                    # sends the invitations; without it they are files to download

    _check_proxies = field_validator("proxy_addresses")(_networks)

    @field_validator("public_url")
    @classmethod
    def _absolute(cls, value: str | None) -> str | None:
        if value is not None and not value.startswith(("https://", "http://")):
            raise ValueError("must start with https:// (or http://)")
        return value.rstrip("/") if value else value


class Config(Strict):
    assignments: dict[str, AssignmentConfig]
    serve: ServeConfig = Field(default_factory=ServeConfig)


def _key(loc: tuple) -> str:
    """The config key of an error location, without pydantic's names for union members and validators."""
    return ".".join(str(p) for p in loc if not (isinstance(p, str) and ("-" in p or "[" in p)))


def _sentence(path: Path, err: ValidationError) -> str:
    errors = err.errors()
    first = errors[0]
    loc = _key(first["loc"])
    msg = first["msg"]
    if first["type"] == "extra_forbidden":
        msg = "is not a known setting (check the spelling)"
    elif first["type"] == "missing":
        msg = "is required but missing"
    else:
        msg = msg[0].lower() + msg[1:]
        msg = msg.replace("Value error, ", "").replace("value error, ", "")
        if "input" in first and first["type"] not in ("value_error",):
            msg += f" (got {first['input']!r})"
    others = {_key(e["loc"]) for e in errors} - {loc}      # a union reports each member's complaint
    more = f" ({len(others)} more problem(s) after this one)" if others else ""
    return f"{path}: {loc}: {msg}.{more}"


def load_config(path: str | Path) -> tuple[Config, Path]:
    """Parse and validate a config file; returns the config and the folder paths are relative to."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ConfigError(f"{path}: no such config file.") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{path}: cannot be read ({exc}).") from None
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" at line {mark.line + 1}, column {mark.column + 1}" if mark else ""
        problem = getattr(exc, "problem", None) or "invalid YAML"
        raise ConfigError(f"{path}: is not valid YAML{where}: {problem}.") from None
    if not isinstance(data, dict):
        raise ConfigError(f"{path}: must be a mapping with an 'assignments' key.")
    try:
        config = Config.model_validate(data)
    except ValidationError as exc:
        raise ConfigError(_sentence(path, exc)) from None
    base = path.resolve().parent
    for name, assignment in config.assignments.items():
        _check_ruleset_settings(path, name, assignment)
    return config, base


def _check_ruleset_settings(path: Path, name: str, a: AssignmentConfig) -> None:
    """Game parameters, stage names and built-ins are the ruleset's business: ask it."""
    ruleset = rulesets.load(a.ruleset)
    try:
        game = ruleset.game(**a.game)
    except BadParams as exc:
        raise ConfigError(f"{path}: assignments.{name}.game: {exc}") from None
    except TypeError as exc:
        raise ConfigError(f"{path}: assignments.{name}.game: {exc}.") from None
    known = {p.name for p in (ruleset.probes(game) if ruleset.probes else [])}
    for stage in a.validation.stages:
        if stage not in known:
            raise ConfigError(
                f"{path}: assignments.{name}.validation.stages.{stage}: is not a stage of "
                f"{a.ruleset} (stages: {', '.join(sorted(known)) or 'none'}).")
    _check_builtins(path, name, a, ruleset)
    _check_sparring(path, name, a, ruleset)


def _check_sparring(path: Path, name: str, a: AssignmentConfig, ruleset) -> None:
    """Every sparring player is there, and no name is also a built-in's (a bare name must mean one player)."""
    for player, where in a.sparring.items():
        if player in ruleset.players:
            raise ConfigError(f"{path}: assignments.{name}.sparring.{player}: is also the name of a built-in "
                              f"player of {a.ruleset}; give the sparring player another name.")
        found = path.resolve().parent / where
        if not found.exists():
            raise ConfigError(f"{path}: assignments.{name}.sparring.{player}: {found} does not exist (paths are "
                              f"relative to the config's folder).")


def _check_builtins(path: Path, name: str, a: AssignmentConfig, ruleset) -> None:
    """Every built-in the config names exists (a grading rule's built-in is played until its test
    decides, whether the league enters it or not)."""
    named = [("league.builtins", b) for b in a.league.builtins]
    named += [("league.gauntlet", b) for b in a.league.gauntlet]
    named += [("validation.smoke_opponent", a.validation.smoke_opponent)]
    if a.grading.must_beat:
        named.append(("grading.must_beat", a.grading.must_beat))
    if a.grading.kind in ("thresholds", "ladder"):
        named += [("grading.rules", rule.beats) for rule in a.grading.rules]
    for key, builtin in named:
        if builtin not in ruleset.players:
            raise ConfigError(
                f"{path}: assignments.{name}.{key}: {builtin!r} is not a built-in player of "
                f"{a.ruleset} (built-ins: {', '.join(sorted(ruleset.players))}).")
