"""Moodle's offline grading worksheet as Moodle writes it, in the course's language.

Moodle writes the worksheet's headers, the "Participant " prefix of the identifiers, Yes/No and the
dates in the language of the person who downloads it (CTU's Moodle is Czech). The column titles
below are Moodle's own language-pack strings (`mod/assign` and core: recordid, fullname, grade,
maxgrade, gradecanbechanged, lastmodifiedsubmission, lastmodifiedgrade, submissionteam, and the
comments feedback plugin's name) for English, Czech, German, French and Spanish. Where a title is
not among them, the worksheet is still recognised by its structure (Moodle's fixed column order):
the identifier column holds `<prefix><number>` in every row, "Grade can be changed" holds only
yes/no words, the maximum grade sits just before it (after an optional workflow column), the
grade just before the maximum, and "Last modified (submission)" just after it.

Dates are `userdate()` in the downloader's Moodle time zone and language (format
`strftimedaydatetime`, e.g. "Friday, 20 November 2026, 2:03 PM", "pátek, 20. listopadu 2026,
14:03"); they are read back as naive local times, which is how the import records upload times.
Numbers are read as Moodle's `unformat_float` reads them: a decimal comma is accepted.
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass
from datetime import datetime

from .csvtext import CsvText

TITLES: dict[str, tuple[str, ...]] = {     # en, cs, de, fr, es (and older English spellings)
    "identifier": ("Identifier", "Identifikátor", "ID", "Identifiant", "Identificador"),
    "fullname": ("Full name", "Celé jméno", "Vollständiger Name", "Nom complet", "Nombre completo"),
    "grade": ("Grade", "Známka", "Bewertung", "Note", "Calificación"),
    "maxgrade": ("Maximum grade", "Maximální známka", "Bestwertung", "Note maximale", "Calificación máxima"),
    "canchange": ("Grade can be changed", "Známku lze změnit", "Bewertung kann geändert werden",
                  "La note peut être modifiée", "La calificación puede cambiarse"),
    "submitted": ("Last modified (submission)", "Poslední změna (odevzdání)", "Zuletzt geändert (Abgabe)",
                  "Dernière modification (travail remis)", "Última modificación (entrega)"),
    "graded": ("Last modified (grade)", "Poslední změna (známka)", "Zuletzt geändert (Bewertung)",
               "Dernière modification (note)", "Última modificación (calificación)"),
    "feedback": ("Feedback comments", "Komentáře k hodnocení", "Feedback als Kommentar",
                 "Feedback par commentaires", "Comentarios de retroalimentación"),
    "team": ("Group", "Skupina", "Gruppe", "Groupe", "Grupo"),
    "email": ("Email address", "E-mailová adresa", "E-Mail-Adresse", "Adresse de courriel", "Dirección de correo"),
}
YES = {"yes", "ano", "ja", "oui", "sí", "si"}
NO = {"no", "ne", "nein", "non"}
IDENT = re.compile(r"^(?P<prefix>\D*?)\s*(?P<id>\d+)$")
MONTHS = {
    1: "january leden ledna januar jänner janvier enero",
    2: "february únor února februar février febrero",
    3: "march březen března märz mars marzo",
    4: "april duben dubna avril abril",
    5: "may květen května mai mayo",
    6: "june červen června juni juin junio",
    7: "july červenec července juli juillet julio",
    8: "august srpen srpna août agosto",
    9: "september září septembre septiembre setiembre",
    10: "october říjen října oktober octobre octubre",
    11: "november listopad listopadu novembre noviembre",
    12: "december prosinec prosince dezember décembre diciembre",
}
MONTH = {word: n for n, words in MONTHS.items() for word in words.split()}
CLOCK = re.compile(r"(?P<h>\d{1,2}):(?P<m>\d{2})(?::(?P<s>\d{2}))?\s*(?P<ampm>[ap])?\.?\s*m?\.?", re.I)


@dataclass
class Columns:
    """Where the worksheet's columns are (None: the worksheet has no such column)."""

    identifier: int
    grade: int
    maxgrade: int | None = None
    canchange: int | None = None
    submitted: int | None = None
    feedback: int | None = None
    fullname: int | None = None
    team: int | None = None
    email: int | None = None


def _norm(text: str) -> str:
    return " ".join(text.split()).casefold()


def _titled(header: list[str], key: str) -> int | None:
    wanted = {_norm(t) for t in TITLES[key]}
    return next((i for i, h in enumerate(header) if _norm(h) in wanted), None)


def participant_id(cell: str) -> str | None:
    """The number of a worksheet identifier ("Participant 101", "Účastník 101", "Teilnehmer/in101")."""
    m = IDENT.match(cell.strip())
    return m["id"] if m else None


def _prefix(cell: str) -> str | None:
    """The words before a worksheet identifier's number ("Participant"), None if it is not one."""
    m = IDENT.match(cell.strip())
    return m["prefix"] if m else None


def columns(sheet: CsvText) -> Columns | None:
    """The worksheet's columns by their localised titles, else by Moodle's column order; None if not a worksheet."""
    header = sheet.header
    rows = [r.values() for r in sheet.records[1:] if any(v.strip() for v in r.values())]

    def cells(i: int) -> list[str]:
        return [r[i].strip() for r in rows if len(r) > i]

    found = {key: _titled(header, key) for key in TITLES}
    ident = found["identifier"]
    if ident is None or (rows and not all(participant_id(c) for c in cells(ident))):
        ident = next((i for i in range(len(header)) if rows and all(participant_id(c) for c in cells(i))
                      and len({_prefix(c) for c in cells(i)}) == 1), None)
    if ident is None:
        return None
    canchange = found["canchange"]
    if canchange is None and rows:
        canchange = next((i for i in range(ident + 1, len(header))
                          if cells(i) and all(c.casefold() in YES | NO for c in cells(i))), None)
    maxgrade = found["maxgrade"]
    if maxgrade is None and canchange is not None:
        maxgrade = next((i for i in (canchange - 1, canchange - 2) if i > ident and cells(i)
                         and all(to_float(c) is not None for c in cells(i)) and len(set(cells(i))) == 1), None)
    grade = found["grade"]
    if grade is None and maxgrade is not None:
        grade = maxgrade - 1
    if grade is None or grade == ident:
        return None
    submitted = found["submitted"]
    if submitted is None and canchange is not None and canchange + 1 < len(header):
        submitted = canchange + 1
    feedback = found["feedback"]
    if feedback is None and submitted is not None:       # "Last modified (grade)", then the comments
        graded = found["graded"]
        if graded is None:
            graded = next((i for i in range(len(header) - 2, submitted, -1) if cells(i)
                           and all(c in ("-", "") or parse_date(c) for c in cells(i))), None)
        feedback = graded + 1 if graded is not None and graded + 1 < len(header) else None
    fullname = found["fullname"] if found["fullname"] is not None else (ident + 1 if ident + 1 < grade else None)
    return Columns(identifier=ident, grade=grade, maxgrade=maxgrade, canchange=canchange, submitted=submitted,
                   feedback=feedback, fullname=fullname, team=found["team"], email=found["email"])


def is_no(cell: str) -> bool:
    return cell.strip().casefold() in NO


def to_float(text: str) -> float | None:
    """A number as Moodle's unformat_float reads it: spaces ignored, a decimal comma accepted."""
    cleaned = text.strip().replace("\u00a0", "").replace(" ", "").replace(",", ".")
    try:
        value = float(cleaned)
    except ValueError:
        return None
    return value if math.isfinite(value) else None


def parse_date(text: str) -> datetime | None:
    """A worksheet date in any of the five languages (or ISO); None for "-", empty or unreadable."""
    text = text.strip()
    if not text or text in ("-", "–"):
        return None
    try:
        return datetime.fromisoformat(text)
    except ValueError:
        pass
    clock = CLOCK.search(text)
    if not clock:
        return None
    hour, minute, second = int(clock["h"]), int(clock["m"]), int(clock["s"] or 0)
    if clock["ampm"]:
        hour = hour % 12 + (12 if clock["ampm"].lower() == "p" else 0)
    rest = text[:clock.start()] + " " + text[clock.end():]
    words = re.findall(r"[^\W\d_]+", rest.casefold())
    numbers = [int(n) for n in re.findall(r"\d+", rest)]
    month = next((MONTH[w] for w in words if w in MONTH), None)
    year = next((n for n in numbers if n >= 1000), None)
    day = next((n for n in numbers if 1 <= n <= 31), None)
    if month is None and len(numbers) >= 3:         # a numeric date: day, month, year
        day, month = numbers[0], numbers[1]
    if month is None or year is None or day is None:
        return None
    try:
        return datetime(year, month, day, hour, minute, second)
    except ValueError:
        return None
