"""Texts from submissions in the terminal and in spreadsheets (grader/safetext.py).

The class of attacks, not one example: every C0/C1 control, DEL, BiDi embedding/override/isolate,
zero-width and line-separator character is shown as a visible escape; ordinary text in any
script stays as it is; every CSV the grader writes neutralises cells a spreadsheet would run.
"""
from __future__ import annotations

import csv
import io
import unicodedata

import pytest

from grader.lms.csvtext import CsvText
from grader.lms.export import write_grades_csv
from grader.safetext import SafeConsole, csv_cell, markup, one_line, terminal

ACTIVE = ([chr(c) for c in range(0x20) if chr(c) not in "\n\t"] + [chr(0x7F)]
          + [chr(c) for c in range(0x80, 0xA0)]
          + ["\u061c", "\u200b", "\u200e", "\u200f", "\u2028", "\u2029", "\u202a", "\u202b", "\u202c", "\u202d",
             "\u202e", "\u2066", "\u2067", "\u2068", "\u2069", "\ufeff", "\U000e0041"])


@pytest.mark.parametrize("ch", ACTIVE, ids=lambda c: f"U+{ord(c):04X}")
def test_every_active_character_is_shown_as_a_visible_escape(ch):
    shown = terminal(f"a{ch}b")
    assert ch not in shown and shown.startswith("a\\") and shown.endswith("b")
    assert all(unicodedata.category(c) not in ("Cc", "Cf", "Zl", "Zp") or c in "\n\t" for c in shown)


def test_ordinary_text_newlines_and_tabs_stay_and_one_line_escapes_them_too():
    text = "Zoë 中文 Ελληνικά עברית 🎲\ttab\nnext"
    assert terminal(text) == text
    assert one_line(text) == "Zoë 中文 Ελληνικά עברית 🎲\\ttab\\nnext"
    assert markup("[bold]x[/]\x1b") == "\\[bold]x\\[/]\\x1b"


def test_a_safe_console_prints_no_raw_control_character_from_any_string():
    buf = io.StringIO()
    console = SafeConsole(file=buf, force_terminal=True, width=200, highlight=False)
    console.print("title \x1b]0;pwned\x07 \x9b2J over\rwrite \u202eexe", "second \x1b[31m")
    console.rule("\x1b[5mrule")
    out = buf.getvalue()
    assert "]0;pwned\x07" not in out and "\x9b" not in out and "\r" not in out and "\u202e" not in out
    assert "\\x1b]0;pwned\\x07" in out and "\\u202eexe" in out


@pytest.mark.parametrize("text", ["=1+1", "+1", "-1+1", "@SUM(A1:A2)", "\t=1", "\r=1", " =1", "\u00a0@x",
                                  '=HYPERLINK("http://evil","x")', "-cmd|' /C calc'!A0"])
def test_formula_cells_are_neutralised(text):
    assert csv_cell(text) == "'" + text


@pytest.mark.parametrize("value", ["Ann", "-2.50", "-2,50", "12", 5, -1.5, None, "", "a=b", "x-1"])
def test_other_cells_and_numbers_stay(value):
    assert csv_cell(value) == value


def test_grades_csv_and_filled_lms_sheets_neutralise_formulas(tmp_path):
    rows = [{"student_id": "=1+2", "name": "@evil", "grade": -1.0, "max_grade": 10, "feedback": "-bad\nnext"}]
    path = write_grades_csv(rows, tmp_path / "grades.csv")
    cells = next(r for i, r in enumerate(csv.reader(path.open(encoding="utf-8", newline=""))) if i == 1)
    assert cells[:2] == ["'=1+2", "'@evil"] and "'-bad\nnext" in cells
    assert "-1.0" in cells
    sheet = CsvText.parse(b"Identifier,Grade,Feedback comments\r\nParticipant 1,,\r\n")
    sheet.set(1, 2, "=cmd()")
    sheet.set(1, 1, "-3.00")
    assert sheet.encode() == b"Identifier,Grade,Feedback comments\r\nParticipant 1,-3.00,'=cmd()\r\n"


METADATA = [(b"[1]", ""), (b'{"name": "' + b"[" * 10 + b'"}', "[" * 10),
            (b'{"name": ' + b"[" * 30000 + b"]" * 30000 + b"}", ""), (b'{"name": "Ann\\ud800"}', "Ann\ufffd\ufffd\ufffd"),
            (b'{"name": 1e999}', ""), (b"\xff", "")]


def test_a_submitters_own_metadata_file_never_breaks_loading(tmp_path):
    from grader.submissions import load

    for k, (meta, name) in enumerate(METADATA):
        folder = tmp_path / f"sub{k}"
        folder.mkdir()
        (folder / "player.py").write_text("x = 1\n")
        (folder / ".submission.json").write_bytes(meta)
        sub = load(folder, "player.py", 10.0)
        assert sub.problem is None and sub.name == name, meta[:40]
        sub.display_name.encode("utf-8")
