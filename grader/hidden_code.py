"""Code a submission runs that is not written out as code: a notebook's cells, a zip archive's files
(importable from sys.path), text packed into a string (base64 or hex, compressed or not) that the
player decodes and runs, and source the compiler
reads through an encoding (a Python coding line such as utf-7; Java's \\uXXXX escapes, which javac
translates before it reads a single token).

Why: similarity fingerprints tokens, and a whole copy of a classmate's player packed into one string
literal is a single token; a notebook's code is JSON strings. The similarity report compares what
these unpack to (grader/similarity.py), and says which files build code at run time from something
else (a cipher of the student's own cannot be undone here, so a TA is pointed at it instead).
Everything is bounded: a payload is unpacked only up to `limit` characters.
"""
from __future__ import annotations

import base64
import binascii
import bz2
import codecs
import json
import lzma
import re
import zipfile
import zlib
from pathlib import Path

MIN_PAYLOAD = 128                    # characters of base64 or hex before a run is tried as packed code
MAX_PAYLOADS = 16                    # runs tried in one file
MAX_MEMBERS = 64                     # members of one zip archive read (Python imports from a zip on sys.path)
BASE64_RUN = re.compile(r"[A-Za-z0-9+/_-][A-Za-z0-9+/_\-\s\\n]{" + str(MIN_PAYLOAD - 1) + r",}={0,2}")
HEX_RUN = re.compile(r"[0-9a-fA-F][0-9a-fA-F\s]{" + str(MIN_PAYLOAD - 1) + r",}")
CODING = re.compile(r"^[ \t\f]*#.*?coding[:=][ \t]*([-\w.]+)", re.MULTILINE)   # PEP 263, first two lines
JAVA_ESCAPE = re.compile(r"\\u+([0-9a-fA-F]{4})")                                  # JLS 3.3
SPACE = re.compile(r"\s+|\\n")
PRINTABLE = 0.97                     # share of printable characters in a decoded text that is code
# Ways a Python file turns data into running code: the builtins (not a method: `re.compile(`, `self.eval(`,
# `def eval(`), and the modules that load code.
BUILDS_CODE = {"python": re.compile(r"(?<![.\w])(?<!def )(exec|eval|compile|__import__)\s*\(|\b(marshal|zipimport|runpy|"
                                    r"importlib\.machinery|importlib\.util|types\.CodeType|codecs\.decode)\b")}


def as_read(text: str, language: str) -> str:
    """`text` as its compiler reads it: Python's by the codec its coding line names (PEP 263; the
    text was read as UTF-8), Java's with its \\uXXXX escapes translated (JLS 3.3)."""
    if language == "java" and "\\u" in text:
        return JAVA_ESCAPE.sub(lambda m: chr(int(m.group(1), 16)), text)
    if language != "python":
        return text
    match = CODING.search("\n".join(text.split("\n", 2)[:2]))
    if match is None:
        return text
    try:
        codec = codecs.lookup(match.group(1)).name
        return text if codec in ("utf-8", "ascii") else text.encode("utf-8", errors="replace").decode(codec)
    except (LookupError, UnicodeError):
        return text


def notebook_code(text: str) -> str | None:
    """The code cells of a Jupyter notebook, one after another; None when `text` is not one."""
    try:
        doc = json.loads(text)
    except (ValueError, RecursionError):
        return None
    cells = doc.get("cells") if isinstance(doc, dict) else None
    if not isinstance(cells, list):
        return None
    parts = []
    for cell in cells:
        if isinstance(cell, dict) and cell.get("cell_type") == "code":
            source = cell.get("source", "")
            parts.append("".join(s for s in source if isinstance(s, str)) if isinstance(source, list) else str(source))
    return "\n".join(parts) + "\n"


def zipped_text(path: Path, limit: int) -> str | None:
    """The text members of a zip archive (a player may put it on sys.path and import from it), each
    under a comment line naming it: at most MAX_MEMBERS members, `limit` characters in all, each
    inflated only that far; None when `path` is no readable zip or holds no text."""
    parts: list[str] = []
    left = limit
    try:
        with zipfile.ZipFile(path) as archive:
            for info in archive.infolist()[:MAX_MEMBERS]:
                if left <= 0:
                    break
                if info.is_dir():
                    continue
                with archive.open(info) as member:
                    data = member.read(left)
                text = _text(data) if b"\0" not in data else None
                if text is not None:
                    parts.append(f"# ----- {info.filename} -----\n{text}\n")
                    left -= len(text)
    except (OSError, zipfile.BadZipFile, ValueError, NotImplementedError, RuntimeError, EOFError, zlib.error):
        return None
    return "".join(parts) or None


def unpacked(text: str, limit: int) -> list[str]:
    """The texts packed in `text` as base64 or hex runs (each maybe zlib, gzip, bz2 or xz compressed)
    that decode to printable text: at most MAX_PAYLOADS runs, `limit` characters in all."""
    found: list[str] = []
    left = limit
    runs = dict.fromkeys(SPACE.sub("", m.group()) for pattern in (HEX_RUN, BASE64_RUN) for m in pattern.finditer(text))
    for run in list(runs)[:MAX_PAYLOADS]:
        if left <= 0:
            break
        data = _decoded(run)
        if data is None:
            continue
        code = _text(_decompressed(data, left) or data[:left])
        if code is not None:
            found.append(code)
            left -= len(code)
    return found


def builds_code(text: str, language: str) -> str | None:
    """The first call by which a file of `language` builds or loads code at run time, if any."""
    pattern = BUILDS_CODE.get(language)
    match = pattern.search(text) if pattern is not None else None
    return match.group().rstrip("( ") if match else None


def _decoded(run: str) -> bytes | None:
    if len(run) >= MIN_PAYLOAD and len(run) % 2 == 0 and all(c in "0123456789abcdefABCDEF" for c in run):
        try:
            return bytes.fromhex(run)
        except ValueError:
            return None
    try:
        return base64.b64decode(run + "=" * (-len(run) % 4), altchars=b"-_" if "-" in run or "_" in run else None,
                                validate=True)
    except (binascii.Error, ValueError):
        return None


def _decompressed(data: bytes, limit: int) -> bytes | None:
    """`data` inflated (zlib, gzip, bz2 or xz), at most `limit` bytes; None when it is none of them."""
    for make in (lambda: zlib.decompressobj(47), bz2.BZ2Decompressor, lzma.LZMADecompressor):
        try:
            inflater = make()
            if isinstance(inflater, bz2.BZ2Decompressor | lzma.LZMADecompressor):
                return inflater.decompress(data, max_length=limit)
            return inflater.decompress(data, limit)
        except (OSError, EOFError, ValueError, zlib.error, lzma.LZMAError):
            continue
    return None


def _text(data: bytes) -> str | None:
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return None
    printable = sum(1 for c in text if c.isprintable() or c in "\n\t\r")
    return text if text.strip() and printable >= PRINTABLE * len(text) else None
