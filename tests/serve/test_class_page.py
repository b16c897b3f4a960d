"""The instructor's class page says what each column holds: the upload checks' points, apart from
the league's grade, which has its own column once a league has computed the grades."""
from __future__ import annotations

import csv
import io
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
GOOD = ROOT / "submissions" / "quoridor" / "alice" / "player.py"
BROKEN = ROOT / "submissions" / "quoridor" / "no_crossing" / "player.py"


def _table(page: str) -> tuple[list[str], dict[str, list[str]]]:
    """The students table's headers, and each row's cells (as text) by the student's login."""
    table = page[page.index('id="students"'):page.index("</table>", page.index('id="students"'))]
    text = lambda cell: " ".join(re.sub(r"<[^>]+>", " ", cell).split())    # noqa: E731
    headers = [text(h) for h in re.findall(r"<th>(.*?)</th>", table)]
    rows = {}
    for row in re.findall(r"<tr>(.*?)</tr>", table[table.index("<tbody>"):], re.S):
        cells = [text(c) for c in re.findall(r"<td>(.*?)</td>", row, re.S)]
        rows[cells[0].split()[-1]] = cells
    return headers, rows


def test_the_class_page_names_check_points_and_shows_the_league_grade_in_its_own_column(service):
    service.site("alice", "alice-password").upload(GOOD)
    service.site("bob", "bob-password").upload(BROKEN)
    service.work()
    teacher = service.site("teacher", "teacher-password")
    headers, _ = _table(teacher.client.get("/teach/quoridor").text)
    assert headers[:5] == ["Student", "Uploads", "Latest upload", "Best check (points)", "Best check after penalties"]
    assert "League grade" not in headers                               # no league yet: no grade to show
    assert "There is no league grade yet" in teacher.client.get("/teach/quoridor").text

    teacher.client.post("/teach/quoridor/league", data={"csrf": teacher.csrf("/teach/quoridor")})
    service.work()
    page = teacher.client.get("/teach/quoridor").text
    headers, rows = _table(page)
    grade = headers.index("League grade")
    exported = {r["student_id"]: r for r in csv.DictReader(io.StringIO(teacher.client.get("/teach/quoridor/grades.csv").text))}
    for login in ("alice", "bob"):                                      # the grade the CSV exports
        row = exported[login]
        assert rows[login][grade].startswith(f"{float(row['grade']):.4g} / {float(row['max_grade']):.4g}"), rows[login]
    assert rows["alice"][headers.index("Best check (points)")] == "2 / 2"
    assert "failed" not in rows["bob"][grade]                           # its Latest column already says why
