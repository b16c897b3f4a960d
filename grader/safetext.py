"""Texts from submissions made harmless where they are shown: spreadsheet cells.

A cell that a spreadsheet would read as a formula (it starts with =, +, -, @, a tab or a carriage
return: OWASP's CSV-injection list) is prefixed with a single quote, which spreadsheets show as text.
Numbers stay numbers.
"""
from __future__ import annotations

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def csv_cell(value):
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


def one_line(text) -> str:
    """Terminal text: control characters (ESC sequences, newlines, BiDi overrides) become spaces."""
    import unicodedata

    return "".join(" " if unicodedata.category(ch) in ("Cc", "Cf", "Zl", "Zp") else ch for ch in str(text))
