"""Texts from submissions made harmless where people see them: the terminal and spreadsheets.

A submission's name (its own `.submission.json`), its exception text, its captured output and its
folder name reach the terminal and the CSV files the grader writes. In a terminal, control and
format characters act instead of showing: ESC sequences recolour the screen or retitle the
window, a carriage return overwrites a line, a newline splits a table row, a BiDi override
reverses what follows. In a spreadsheet a cell that begins with = + - @ (or a tab or carriage
return) runs as a formula (OWASP, "CSV Injection"). The HTML site escapes on its own (Jinja2
autoescaping).
"""
from __future__ import annotations

import re
import unicodedata

from rich.console import Console
from rich.markup import escape

# C0/C1 controls, DEL, format characters (BiDi embeddings, overrides and isolates, zero-width
# marks), line and paragraph separators, surrogates.
_UNSAFE_CATEGORIES = {"Cc", "Cf", "Zl", "Zp", "Cs"}
_ASCII_SAFE = re.compile(r"[\x20-\x7e]*")
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r", "\n")
_NUMBER = re.compile(r"-?\d+([.,]\d+)?")
_FULLWIDTH = str.maketrans("＝＋－＠", "=+-@")       # what East Asian input turns into formulas


_NAMED = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def _visible(ch: str) -> str:
    if ch in _NAMED:
        return _NAMED[ch]
    code = ord(ch)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


def terminal(text: object, keep_newlines: bool = True) -> str:
    """`text` with every character that could act on a terminal written as a visible escape
    (ESC → \\x1b, U+202E → \\u202e); newlines and tabs kept when `keep_newlines`."""
    text = str(text)
    if _ASCII_SAFE.fullmatch(text):
        return text
    kept = "\n\t" if keep_newlines else ""
    return "".join(_visible(ch) if ch not in kept and unicodedata.category(ch) in _UNSAFE_CATEGORIES else ch
                   for ch in text)


def one_line(text: object) -> str:
    """`text` for one line of a table or a list: every control character escaped, newlines too."""
    return terminal(text, keep_newlines=False)


def markup(text: object, line: bool = True) -> str:
    """`text` ready for rich's print: escaped for the terminal (one line unless `line` is False)
    and for rich's own [markup]."""
    return escape(one_line(text) if line else terminal(text))


class SafeConsole(Console):
    """A rich Console that makes every string it is asked to print harmless (newlines kept), so a
    submission's text the caller forgot to clean cannot reach the terminal raw."""

    def print(self, *objects, **kwargs) -> None:
        super().print(*(terminal(o) if isinstance(o, str) else o for o in objects), **kwargs)

    def rule(self, title="", **kwargs) -> None:
        super().rule(terminal(title) if isinstance(title, str) else title, **kwargs)


def csv_cell(value: object) -> object:
    """A value for a CSV cell: text that a spreadsheet would run as a formula gets a leading
    apostrophe (OWASP's advice; the cell then shows the text as written), also when the formula
    sign follows spaces, controls or invisible characters (a BOM, a zero-width space, NUL) or is
    a full-width one. Numbers, and text that is just a number ("-2.50"), pass unchanged."""
    if not isinstance(value, str) or not value or _NUMBER.fullmatch(value):
        return value
    head = value[:1]
    for ch in value:                       # past any space, control or invisible format character
        if not (ch.isspace() or unicodedata.category(ch) in _UNSAFE_CATEGORIES):
            head = ch.translate(_FULLWIDTH)
            break
    if value.startswith(FORMULA_STARTS) or head in FORMULA_STARTS[:4]:
        return "'" + value
    return value


console = SafeConsole(highlight=False, soft_wrap=True)             # the terminal of every door that prints:
err = SafeConsole(stderr=True, highlight=False, soft_wrap=True)    # texts from submissions cannot act on it
