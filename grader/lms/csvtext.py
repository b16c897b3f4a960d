"""A CSV file kept as its exact text, so a few cells can change while every other byte stays put.

LMS gradebooks are round-tripped: the instructor downloads a worksheet, the grader fills two
columns, the instructor uploads it again. Re-writing the file with the csv module would change
quoting, line endings or the BOM of rows nobody touched; here each cell keeps its raw text
(quotes included) and only replaced cells are re-quoted, in the style of the cell they replace.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from ..safetext import csv_cell

BOM = b"\xef\xbb\xbf"


class CsvProblem(ValueError):
    """A CSV file that cannot be read (one sentence)."""


@dataclass
class Record:
    """One CSV record: the raw text of each cell and the line ending that closed it."""

    raw: list[str]
    ending: str

    def values(self) -> list[str]:
        return [unquote(cell) for cell in self.raw]


@dataclass
class CsvText:
    """A whole CSV file: encoding, BOM, records; `encode()` gives back the same bytes unless cells changed."""

    records: list[Record]
    encoding: str = "utf-8"
    bom: bool = False
    delimiter: str = ","
    name: str = "the CSV file"
    header_index: int = 0
    changed: set[int] = field(default_factory=set)

    @classmethod
    def read(cls, path: Path, delimiter: str | None = ",") -> CsvText:
        """Read a CSV file; `delimiter=None` takes the one its header line uses (`,`, `;` or tab)."""
        path = Path(path)
        try:
            data = path.read_bytes()
        except OSError as exc:
            raise CsvProblem(f"{path.name} cannot be read ({exc.strerror or exc}).") from None
        return cls.parse(data, delimiter, path.name)

    @classmethod
    def parse(cls, data: bytes, delimiter: str | None = ",", name: str = "the CSV file") -> CsvText:
        bom = data.startswith(BOM)
        body = data[len(BOM):] if bom else data
        for encoding in ("utf-8", "cp1252"):
            try:
                text = body.decode(encoding)
                break
            except UnicodeDecodeError:
                continue
        else:
            raise CsvProblem(f"{name} is neither UTF-8 nor Windows-1252 text.")
        delimiter = delimiter or sniff_delimiter(text)
        records = split_records(text, delimiter)
        if not records:
            raise CsvProblem(f"{name} is empty.")
        return cls(records, encoding, bom, delimiter, name)

    @property
    def header(self) -> list[str]:
        return self.records[self.header_index].values()

    def column(self, title: str) -> int | None:
        """Index of the column whose header is `title` (surrounding spaces ignored)."""
        for i, h in enumerate(self.header):
            if h.strip() == title:
                return i
        return None

    def set(self, row: int, col: int, value: str) -> None:
        """Replace one cell, quoting like the cell it replaces (or when the value needs it); text a
        spreadsheet would run as a formula is neutralised (grader/safetext.py)."""
        value = str(csv_cell(value))
        record = self.records[row]
        while len(record.raw) <= col:
            record.raw.append("")
        old = record.raw[col]
        needs = any(c in value for c in (self.delimiter, '"', "\n", "\r")) or value != value.strip()
        record.raw[col] = quote(value) if needs or old.startswith('"') else value
        self.changed.add(row)

    def encode(self) -> bytes:
        text = "".join(self.delimiter.join(r.raw) + r.ending for r in self.records)
        return (BOM if self.bom else b"") + text.encode(self.encoding)

    def write(self, path: Path) -> None:
        Path(path).write_bytes(self.encode())


def sniff_delimiter(text: str) -> str:
    """The separator of the first record: `,`, `;` (Canvas's and Excel's choice in decimal-comma
    locales) or a tab, whichever occurs most often outside quotes; `,` when there is none."""
    counts = {",": 0, ";": 0, "\t": 0}
    quoted = False
    for c in text:
        if c == '"':
            quoted = not quoted
        elif not quoted and c in "\r\n":
            break
        elif not quoted and c in counts:
            counts[c] += 1
    best = max(counts, key=lambda d: counts[d])
    return best if counts[best] else ","


def quote(value: str) -> str:
    return '"' + value.replace('"', '""') + '"'


def unquote(cell: str) -> str:
    if len(cell) >= 2 and cell.startswith('"') and cell.endswith('"'):
        return cell[1:-1].replace('""', '"')
    return cell


def split_records(text: str, delimiter: str = ",") -> list[Record]:
    """Split CSV text into records of raw cells; quoted cells may hold delimiters and line breaks."""
    records: list[Record] = []
    cells: list[str] = []
    start = i = 0
    quoted = False
    n = len(text)
    while i < n:
        c = text[i]
        if quoted:
            if c == '"':
                if text.startswith('""', i):
                    i += 2
                    continue
                quoted = False
        elif c == '"' and i == start:
            quoted = True
        elif c == delimiter:
            cells.append(text[start:i])
            start = i + 1
        elif c in "\r\n":
            ending = "\r\n" if text.startswith("\r\n", i) else c
            cells.append(text[start:i])
            records.append(Record(cells, ending))
            cells = []
            i += len(ending)
            start = i
            continue
        i += 1
    if start < n or cells:
        cells.append(text[start:])
        records.append(Record(cells, ""))
    return records
