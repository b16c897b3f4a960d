"""BRUTE-style penalties: too many uploads and late uploads scale a student's points down.

Config (a plain dict, every key optional; absent keys switch that penalty off):

    upload_limit: 10          uploads allowed without penalty
    upload_penalty: 0.1       fraction of the points lost for each upload past the limit
    deadline: "2026-11-20T23:59:00"   naive = the same local time the import records
    late_period_hours: 24     length of one lateness period
    late_penalty: 0.1         fraction of the points lost for each started period past the deadline
    floor: 0.0                the factor never drops below this

Formulas:

    upload_factor = max(0, 1 - upload_penalty * max(0, uploads - upload_limit))
    late_periods  = ceil((uploaded_at - deadline) / late_period_hours)   (0 when on time)
    late_factor   = max(0, 1 - late_penalty * late_periods)
    points_after  = points * max(floor, upload_factor * late_factor)
"""
from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

KEYS = ("upload_limit", "upload_penalty", "deadline", "late_period_hours", "late_penalty", "floor")


class PenaltyConfigError(ValueError):
    """A penalty setting that makes no sense (one sentence)."""


@dataclass(frozen=True)
class Penalized:
    points: float
    factor: float
    lines: list[str] = field(default_factory=list)     # one sentence per penalty applied, for the student's feedback


def _fraction(config: Mapping[str, Any], key: str, default: float) -> float:
    value = config.get(key, default)
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value <= 1:
        raise PenaltyConfigError(f"penalty setting {key} must be a number from 0 to 1, not {value!r}.")
    return float(value)


def check_config(config: Mapping[str, Any] | None) -> dict:
    """The config with defaults filled in; `PenaltyConfigError` names the first bad key."""
    config = dict(config or {})
    unknown = sorted(set(config) - set(KEYS))
    if unknown:
        raise PenaltyConfigError(f"unknown penalty setting {unknown[0]!r}; known ones are {', '.join(KEYS)}.")
    out: dict[str, Any] = {"upload_penalty": _fraction(config, "upload_penalty", 0.1),
                           "late_penalty": _fraction(config, "late_penalty", 0.1),
                           "floor": _fraction(config, "floor", 0.0)}
    limit = config.get("upload_limit")
    if limit is not None and (isinstance(limit, bool) or not isinstance(limit, int) or limit < 1):
        raise PenaltyConfigError(f"penalty setting upload_limit must be a whole number of at least 1, not {limit!r}.")
    out["upload_limit"] = limit
    hours = config.get("late_period_hours", 24)
    if isinstance(hours, bool) or not isinstance(hours, (int, float)) or hours <= 0:
        raise PenaltyConfigError(f"penalty setting late_period_hours must be a positive number, not {hours!r}.")
    out["late_period_hours"] = float(hours)
    deadline = config.get("deadline")
    if deadline is not None:
        try:
            deadline = deadline if isinstance(deadline, datetime) else datetime.fromisoformat(str(deadline))
        except ValueError:
            raise PenaltyConfigError(f"penalty setting deadline must be a date and time like "
                                     f"2026-11-20T23:59:00, not {deadline!r}.") from None
    out["deadline"] = deadline
    return out


def deadline_of(config: Mapping[str, Any]) -> datetime | None:
    """The configured deadline as an aware moment (a naive one is the server's local time), or None."""
    value = config.get("deadline")
    if not value:
        return None
    moment = value if isinstance(value, datetime) else datetime.fromisoformat(str(value))
    return moment if moment.tzinfo else moment.astimezone()


def _local(moment: datetime) -> datetime:
    """Naive local time (the import records upload times that way); aware times are converted."""
    return moment.astimezone().replace(tzinfo=None) if moment.tzinfo else moment


def upload_factor(uploads: int | None, config: Mapping[str, Any]) -> float:
    limit = config.get("upload_limit")
    if limit is None or uploads is None:
        return 1.0
    return max(0.0, 1.0 - config["upload_penalty"] * max(0, uploads - limit))


def late_periods(uploaded_at: datetime | str | None, config: Mapping[str, Any]) -> int:
    """Started lateness periods between the deadline and the upload (0 when on time or unknown)."""
    deadline = config.get("deadline")
    if deadline is None or uploaded_at is None:
        return 0
    if isinstance(uploaded_at, str):
        uploaded_at = datetime.fromisoformat(uploaded_at)
    late_s = (_local(uploaded_at) - _local(deadline)).total_seconds()
    return math.ceil(late_s / (config["late_period_hours"] * 3600)) if late_s > 0 else 0


def apply_penalties(points: float, *, uploads: int | None = None, uploaded_at: datetime | str | None = None,
                    config: Mapping[str, Any] | None = None) -> Penalized:
    """Scale `points` by the upload-count and lateness penalties of `config` (see the module doc)."""
    config = check_config(config)
    lines = []
    up = upload_factor(uploads, config)
    if up < 1:
        lines.append(f"{uploads} uploads, {uploads - config['upload_limit']} past the limit of "
                     f"{config['upload_limit']}: points x {up:.2f}.")
    periods = late_periods(uploaded_at, config)
    late = max(0.0, 1.0 - config["late_penalty"] * periods)
    if periods:
        lines.append(f"uploaded {periods} started period(s) of {config['late_period_hours']:g} h after "
                     f"the deadline: points x {late:.2f}.")
    factor = max(config["floor"], up * late)
    return Penalized(points * factor, factor, lines)
