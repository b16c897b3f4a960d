"""Times as people read them: the server's local time with its zone named, so nobody guesses it."""
from __future__ import annotations

from datetime import datetime


def when(t: float | None) -> str:
    """A stored time as the server's local time with its zone, so nobody guesses it."""
    return zoned(datetime.fromtimestamp(t).astimezone(), "%Y-%m-%d %H:%M:%S") if t else ""


def zoned(moment: datetime, layout: str) -> str:
    """`moment` with its zone: "2030-01-15 23:59 CET (UTC+01:00)", or "… UTC+01:00" for a bare offset."""
    offset = moment.strftime("%z")
    offset = f"UTC{offset[:3]}:{offset[3:]}"
    zone = moment.strftime("%Z")
    return f"{moment.strftime(layout)} {zone if zone == offset or zone == 'UTC' else f'{zone} ({offset})'}"
