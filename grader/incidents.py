"""An incident of a game (a player late, crashed, replaced by a random move) as one sentence.

A game's incidents are stored as records, `{"kind", "message", "ply", "seat"}` (grader.match,
grader.outputs). A TA reads them as sentences: "Move 3, seat 1 (alice): timeout — answered after
…". Every page that shows incidents calls `incident_sentence`, so they all read the same.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence

# what each kind of incident is called in the sentence (a kind not listed is shown as it is stored)
KIND_WORDS = {
    "timeout": "timeout", "late": "late", "killed": "killed at the hard time limit",
    "memory": "out of memory", "error": "exception", "crashed": "crashed", "exited": "exited without answering",
    "protocol": "unreadable reply", "illegal": "illegal move", "none": "no move",
    "uncaught": "uncaught Java Error", "substituted": "move replaced", "grader": "grader problem",
}


def _whole(value: object) -> int | None:
    """An int from a stored ply or seat (JSON may bring a float); None for anything else."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value != value:
        return None
    return int(value) if float(value).is_integer() else None


def incident_sentence(incident: object, seat_names: Sequence[str | None] = ()) -> str:
    """"Move 3, seat 1 (alice): timeout — answered after 2.4 s." from one incident record; the
    move is counted from 1 (the stored ply from 0), the seat as the game's pages number it (0, 1)
    and named from `seat_names`. A record that is not a mapping (an older document) is shown as it is."""
    if not isinstance(incident, Mapping):
        return "—" if incident is None or incident == "" else str(incident)
    ply, seat = _whole(incident.get("ply")), _whole(incident.get("seat"))
    where = []
    if ply is not None and ply >= 0:
        where.append(f"Move {ply + 1}")
    if seat is not None and seat >= 0:
        name = seat_names[seat] if seat < len(seat_names) else None
        where.append(f"seat {seat}" + (f" ({name})" if name else ""))
    kind = str(incident.get("kind") or "incident")
    what = KIND_WORDS.get(kind, kind.replace("_", " "))
    message = str(incident.get("message") or "").strip()
    sentence = (", ".join(where) + ": " if where else "") + what + (f" — {message}" if message else "")
    sentence = sentence[0].upper() + sentence[1:]
    return sentence if sentence.endswith((".", "!", "?")) else sentence + "."
