"""Reading config.yaml: one loader that validates everything and answers mistakes in one sentence.

The schema is plain pydantic models with unknown keys forbidden, so a typo is caught rather than
silently ignored. `load_config` raises `ConfigError` whose message names the file, the key and what
was expected; callers print it and exit with status 2.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any, Literal, Union

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

POLICIES = ("forfeit", "random", "disqualify")


class ConfigError(ValueError):
    """A config problem, as one sentence for people."""


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class LimitsConfig(Strict):
    """Overrides of the ruleset's defaults; unset fields keep the course's values."""

    first_move_s: float | None = Field(None, gt=0)
    move_s: float | None = Field(None, gt=0)
    kill_after_s: float | None = Field(None, ge=0)
    kill_factor: float | None = Field(None, ge=1)
    memory_mb: int | None = Field(None, ge=16)
    max_submission_mb: float | None = Field(None, gt=0)
    output_kb: int = Field(64, ge=1)


class PolicyConfig(Strict):
    on_late: Literal["forfeit", "random", "disqualify"] | None = None
    on_illegal: Literal["forfeit", "random", "disqualify"] | None = None
    on_error: Literal["forfeit", "random", "disqualify"] | None = None


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


class LeagueConfig(Strict):
    format: Literal["round_robin", "random_subset", "gauntlet"] = "round_robin"
    games_per_pair: int = Field(2, ge=1, le=100000)
    seed: int = 0
    builtins: list[str] = Field(default_factory=list)      # built-in players entered in the league
    opponents: int = Field(5, ge=1)                         # random_subset: opponents per submission
    top_fraction: float = Field(0.1, gt=0, le=1)            # random_subset: who plays the playoff
    gauntlet: list[str] = Field(default_factory=lambda: ["random"])   # built-ins every submission meets
    concurrency: Union[int, Literal["auto"]] = "auto"
    executor: Literal["local", "dask"] = "local"
    dask: dict[str, Any] = Field(default_factory=dict)


class GradingConfig(Strict):
    kind: Literal["bands", "interpolate", "thresholds", "validation", "none"] = "none"   # validation: its points
    bands: list[tuple[float, float]] = Field(default_factory=list)
    max: float = 100
    pass_min: float = 50
    must_beat: str | None = None
    rules: list[dict[str, Any]] = Field(default_factory=list)
    failed_grade: float = 0


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
    anonymise: bool = False
    options: dict[str, Any] = Field(default_factory=dict)   # passed to the ruleset's shim
    penalties: dict[str, Any] = Field(default_factory=dict)  # BRUTE-style; see grader/lms/penalties.py
    report_url: str | None = None                     # where the site is published; links in LMS feedback

    @field_validator("penalties")
    @classmethod
    def _known_penalties(cls, value: dict) -> dict:
        from .lms.penalties import PenaltyConfigError, check_config

        try:
            check_config(value)
        except PenaltyConfigError as exc:
            raise ValueError(str(exc).rstrip(".")) from None
        return value

    @field_validator("ruleset")
    @classmethod
    def _known_ruleset(cls, value: str) -> str:
        import rulesets

        if value not in rulesets.NAMES:
            raise ValueError(f"must be one of {', '.join(rulesets.NAMES)}")
        return value


class Config(Strict):
    assignments: dict[str, AssignmentConfig]


def _sentence(path: Path, err: ValidationError) -> str:
    first = err.errors()[0]
    loc = ".".join(str(p) for p in first["loc"] if not str(p).startswith("function-after"))
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
    more = f" ({len(err.errors()) - 1} more problem(s) after this one)" if len(err.errors()) > 1 else ""
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
    """Game parameters and stage names are the ruleset's business: ask it."""
    import rulesets
    from rulesets.base import BadParams

    from .grading import GradingConfigError, compute_grades
    from .standings import compute_standings

    try:
        if a.grading.kind != "validation":
            compute_grades(compute_standings([], []), a.grading.model_dump())
    except GradingConfigError as exc:
        raise ConfigError(f"{path}: assignments.{name}.grading: {exc}") from None
    ruleset = rulesets.load(a.ruleset)
    try:
        game = ruleset.game(**a.game)
    except BadParams as exc:
        raise ConfigError(f"{path}: assignments.{name}.game: {exc}") from None
    except TypeError as exc:
        raise ConfigError(f"{path}: assignments.{name}.game: {exc}.") from None
    from .program_driver import check_patterns, program_kind

    kind = program_kind(ruleset)
    if kind is None and (a.validation.kind == "program" or a.validation.program_patterns):
        raise ConfigError(f"{path}: assignments.{name}.validation: {a.ruleset} has no command-line kind of "
                          f"submission, so kind must be auto or module and program_patterns must be empty.")
    if kind is not None:
        try:
            check_patterns(kind, a.validation.program_patterns)
        except ValueError as exc:
            raise ConfigError(f"{path}: assignments.{name}.validation.program_patterns: {exc}") from None
    known = {p.name for p in (ruleset.probes(game) if ruleset.probes else [])}
    for stage in a.validation.stages:
        if stage not in known:
            raise ConfigError(
                f"{path}: assignments.{name}.validation.stages.{stage}: is not a stage of "
                f"{a.ruleset} (stages: {', '.join(sorted(known)) or 'none'}).")
    for builtin in [*a.league.builtins, *a.league.gauntlet, a.validation.smoke_opponent]:
        if builtin not in ruleset.players:
            raise ConfigError(
                f"{path}: assignments.{name}.league: {builtin!r} is not a built-in player of "
                f"{a.ruleset} (built-ins: {', '.join(sorted(ruleset.players))}).")
