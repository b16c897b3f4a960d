"""Similarity between submissions, the course's skeleton, this project's own reference code and an
archive of earlier years: token fingerprints, ranked pairs, an instructor-only page and a CSV.

Why fingerprints: a copy is usually disguised by renaming, reformatting, reordering functions and
rewriting comments. copydetect (the winnowing of Schleimer, Wilkerson and Aiken, as MOSS uses)
tokenises each file with Pygments, replaces every name by one letter and every string by another,
hashes the k-grams and keeps the minimum of each window; what survives those disguises is the
shape of the code. The course's skeleton files are boilerplate: their fingerprints count for no
one. So do passages found in more than `common_cutoff` submissions (MOSS's `-m`): idioms everyone
writes.

Scoring is in two steps so that a class of several hundred stays fast: an inverted index of the
fingerprints counts what every pair shares (most pairs share nothing), and only pairs at or above
`min_score` are compared in full by copydetect for the matching regions shown side by side.
A pair's score is the larger of the two shares (how much of A is found in B, of B in A): a short
copy of a long file scores high. Against reference and archive documents only the submission's
share counts.

Nothing a student wrote hides from it: every text source file of every language the player kinds
name, whatever its folder, one document per language; big files on a bounded part of their code,
never skipped; and what was not compared is said, with why (`code_files`).
"""
from __future__ import annotations

import csv
import io
import os
import re
import time
from collections import defaultdict
from collections.abc import Set
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from . import bounded, hidden_code
from .safetext import csv_cell
from .similarity_cache import ComparisonCache, digest

COMMENT = {"python": "#"}            # every other language here takes //
BLOCK_COMMENTS = {"python": (('"""', '"""'), ("'''", "'''"))}   # every other language here: /* */
LINE_COMMENT = {"python": re.compile(r"#[^\n]*")}                   # every other language here: //
READ_BYTES = 8 * 1024 * 1024         # of one file, at most this is read (a submission is smaller: intake)
READ_TOTAL = 64 * 1024 * 1024        # of one folder's files, at most this is read (an archive folder too)
MAX_FILE_BYTES = 512 * 1024          # of a larger file, its code without comments, head and tail, is compared
MAX_DOCUMENT_BYTES = 2 * 1024 * 1024  # of one language's files, smallest first (tokenised in about 6 s)
NAMED = 6                            # files named in one "not compared" sentence
KGRAM_BASE = 0x100000001B3          # the k-gram hash's base (FNV's prime) and its bit mixer (splitmix64's)
KGRAM_MIX = 0xBF58476D1CE4E5B9
TOKENIZE_CPU_S = 10.0                # tokenising one document (real code: about 3 s a megabyte)
COMPARED_RULE = ("every text source file of every player kind's language, whatever its folder; a big file on "
                 "its code's head and tail, never skipped; all a player could run in each of its languages "
                 "(other kinds' files, any text file, notebook cells, zip archives, code packed in a string); "
                 "what was not compared, and code built at run time, is listed with why")
CSV_COLUMNS = ["score", "a", "a_kind", "a_label", "b", "b_kind", "b_label", "share_a", "share_b", "tokens"]


class CodeFingerprint(Protocol):
    """What this module uses of copydetect.CodeFingerprint (copydetect has no type hints)."""

    hashes: set[int]                  # the winnowed k-gram hashes
    hash_idx: dict[int, list[int]]    # hash -> its token offsets
    k: int
    filtered_code: str
    token_coverage: Any               # a NumPy number


@dataclass
class Document:
    """One body of code: a submission, a reference (this project's engine, a built-in player), an
    archived submission, or a skeleton. `text` is the code files of one language, concatenated with
    a comment line naming each file (comments are not fingerprinted)."""

    id: str
    kind: str                         # "submission" | "reference" | "archive"
    label: str
    language: str
    text: str
    files: list[str] = field(default_factory=list)
    fingerprint: CodeFingerprint | None = None
    lexer: str = ".py"                # a suffix Pygments knows the language by (the language's first)

    @property
    def size(self) -> int:
        return len(self.fingerprint.hashes) if self.fingerprint is not None else 0


@dataclass
class Pair:
    a: Document
    b: Document
    score: float                      # the larger share (submission's share against reference/archive)
    share_a: float                    # how much of A's fingerprinted code is found in B
    share_b: float
    tokens: int = 0                   # tokens of A inside matching regions (full comparison only)
    slices_a: list = field(default_factory=list)   # [(start, end)] character ranges of A's text
    slices_b: list = field(default_factory=list)

    def row(self) -> dict:
        return {"score": round(self.score, 4), "a": self.a.id, "a_kind": self.a.kind, "a_label": self.a.label,
                "b": self.b.id, "b_kind": self.b.kind, "b_label": self.b.label,
                "share_a": round(self.share_a, 4), "share_b": round(self.share_b, 4), "tokens": self.tokens}


@dataclass
class SimilarityReport:
    documents: list[Document]
    pairs: list[Pair]                 # ranked, best first; only those at or above min_score
    skipped: list[str]                # one sentence per document that had no code to compare or was too costly
    settings: dict
    seconds: float = 0.0

    def summary(self) -> str:
        subs = sum(1 for d in self.documents if d.kind == "submission")
        return (f"similarity: {subs} submission(s) against each other, {len(self.documents) - subs} "
                f"reference/archive document(s); {len(self.pairs)} pair(s) at or above "
                f"{self.settings['min_score']:.0%} in {self.seconds:.1f} s.")


# --------------------------------------------------------------------------------- documents
@dataclass
class CodeFiles:
    """A folder's code, read under bounds: per language, (path relative to the folder, text) in path
    order; and one phrase per file that was not compared, or only in part, saying why."""

    texts: dict[str, list[tuple[str, str]]]
    notes: list[str]


def code_files(folder: Path, languages: dict[str, str], exclude: Set[Path] = frozenset(),
               runnable: bool = False) -> CodeFiles:
    """Every text source file under `folder` (whatever its subfolder), grouped by language
    (`languages`: {suffix: language}, grader.player_kinds.code_languages). A file larger than
    MAX_FILE_BYTES is compared on its code without comments, its head and tail up to that bound; a
    language's files are read smallest first up to MAX_DOCUMENT_BYTES. Nothing is skipped without
    a note. `runnable` (a student's folder): everything its code could run is compared in each of
    its languages -- the files of its other languages, every other text file (a notebook by its
    code cells), a zip archive's text files, and code packed in a string (grader/hidden_code.py) --
    since a player may run code
    kept in any file; a file that builds code at run time is named in the notes."""
    base = folder.parent if folder.is_file() else folder
    paths = [folder] if folder.is_file() else sorted(folder.rglob("*"))
    found: dict[str, list[tuple[int, Path]]] = defaultdict(list)
    notes: list[str] = []
    other: list[tuple[int, Path]] = []
    for path in paths:
        rel = path.relative_to(base).as_posix()
        if path.is_symlink():
            notes.append(f"{rel} (a link)")
        elif not path.is_file() or path.resolve() in exclude:
            continue
        elif path.suffix.lower() not in languages:
            other.append((path.stat().st_size, path))
        else:
            found[languages[path.suffix.lower()]].append((path.stat().st_size, path))
    texts: dict[str, list[tuple[str, str]]] = {}
    unread = [READ_TOTAL]
    for language, files in found.items():
        budget, kept = MAX_DOCUMENT_BYTES, []
        extra = [(size, path) for lang, more in found.items() if lang != language for size, path in more]
        for size, path in sorted(files, key=lambda f: (f[0], f[1])) + sorted(extra + other if runnable else []):
            rel = path.relative_to(base).as_posix()
            if budget <= 0:
                notes.append(f"{rel} (the {language} code read passed {MAX_DOCUMENT_BYTES // 1024**2} MB)")
                continue
            text, note = _read_counted(path, size, language, min(MAX_FILE_BYTES, budget), unread)
            if text is None and runnable and note == "not text":
                text = hidden_code.zipped_text(path, min(MAX_FILE_BYTES, budget))
                note = "" if text is not None else note
            if text is None:
                if not (runnable and (size, path) in other and note == "not text"):
                    notes.append(f"{rel} ({note})")
                continue
            if note:
                notes.append(f"{rel} (compared in part: {note})")
            if runnable:
                text = _unhidden(rel, text, language, min(MAX_FILE_BYTES, budget), notes)
            budget -= len(text.encode("utf-8", errors="replace"))
            kept.append((rel, text))
        if kept:
            texts[language] = sorted(kept)
    unread_other = [rel for rel in (p.relative_to(base).as_posix() for _, p in other)
                    if not runnable or not found or rel not in {r for kept in texts.values() for r, _ in kept}]
    if unread_other:
        notes.append(f"{len(unread_other)} file(s) not of a compared language ({_named(unread_other)})")
    return CodeFiles(texts, list(dict.fromkeys(notes)))


def _read_counted(path: Path, size: int, language: str, bound: int, unread: list[int]) -> tuple[str | None, str]:
    """`_bounded_text`, within what is left of the folder's read budget (`unread[0]`, bytes)."""
    if unread[0] <= 0:
        return None, f"the files read passed {READ_TOTAL // 1024**2} MB"
    unread[0] -= min(size, READ_BYTES)
    return _bounded_text(path, language, bound)


def _unhidden(rel: str, text: str, language: str, bound: int, notes: list[str]) -> str:
    """`text` as the code it runs: a notebook's code cells, as its compiler reads it (a coding line,
    Java's \\u escapes: hidden_code.as_read), with any code packed in its strings
    appended (hidden_code.unpacked); a note when it builds code at run time from something else."""
    if rel.lower().endswith(".ipynb"):
        text = hidden_code.notebook_code(text) or text
    text = hidden_code.as_read(text, language)
    packed = hidden_code.unpacked(text, bound)
    how = hidden_code.builds_code(text, language)
    if how is not None and not packed:
        notes.append(f"{rel} (builds code at run time with {how}: what it runs may not be compared; read it)")
    mark = COMMENT.get(language, "//")
    return text + "".join(f"\n{mark} ----- unpacked from a string -----\n{code}\n" for code in packed)


def _named(items: list[str]) -> str:
    return ", ".join(items[:NAMED]) + (f" and {len(items) - NAMED} more" if len(items) > NAMED else "")


def _bounded_text(path: Path, language: str, bound: int) -> tuple[str | None, str]:
    """(the text to compare, a note when it is not the whole file) or (None, why not at all): at most
    READ_BYTES read; a file with a NUL byte is not text; past `bound`, comments go, then the middle."""
    try:
        with path.open("rb") as f:
            data = f.read(READ_BYTES + 1)
            if len(data) > READ_BYTES:          # its head and its tail, as a copy may follow any padding
                f.seek(-(READ_BYTES // 2), os.SEEK_END)
                data = data[:READ_BYTES // 2] + b"\n" + f.read(READ_BYTES // 2)
                size = f.tell()
            else:
                size = len(data)
    except OSError as exc:
        return None, f"unreadable: {exc.strerror or exc}"
    if b"\0" in data:
        return None, "not text"
    note = (f"its first and last {READ_BYTES // 2**21} MB of {size / 2**20:.1f} MB read"
            if size > READ_BYTES else "")
    text = data.decode("utf-8", errors="replace")
    if len(text) <= bound:
        return text, note
    text = without_comments(text, language)
    if len(text) > bound:
        half = bound // 2
        text = text[:half] + f"\n{COMMENT.get(language, '//')} ...\n" + text[-half:]
        return text, (f"{size // 1024} KB: its code without comments, the first and last {half // 1024} KB"
                      + (f"; {note}" if note else ""))
    return text, f"{size // 1024} KB: its code without comments" + (f"; {note}" if note else "")


def without_comments(text: str, language: str) -> str:
    """The text with its comments and blank lines dropped, in time linear in its length (padding a
    copy with a huge comment does not push the code past the bound)."""
    for opening, closing in BLOCK_COMMENTS.get(language, (("/*", "*/"),)):
        parts, at = [], 0
        while (start := text.find(opening, at)) != -1:
            parts.append(text[at:start])
            end = text.find(closing, start + len(opening))
            at = len(text) if end == -1 else end + len(closing)
        parts.append(text[at:])
        text = "".join(parts)
    text = LINE_COMMENT.get(language, _SLASHES).sub("", text)
    return "\n".join(line for line in text.splitlines() if line.strip())


_SLASHES = re.compile(r"//[^\n]*")


def documents(doc_id: str, kind: str, label: str, folder: Path, languages: dict[str, str],
              exclude: Set[Path] = frozenset(), runnable: bool = False) -> tuple[list[Document], list[str]]:
    """One Document per language of `folder`'s code (none when it holds no code), and the notes on
    what was not compared (`code_files`; `runnable`: a student's folder, all it could run)."""
    found = code_files(folder, languages, exclude, runnable)
    docs = []
    for language, files in sorted(found.texts.items()):
        mark = COMMENT.get(language, "//")
        parts = [f"{mark} ===== {rel} =====\n{text}" + ("" if text.endswith("\n") else "\n") for rel, text in files]
        lexer = next(suffix for suffix, lang in languages.items() if lang == language)
        docs.append(Document(doc_id, kind, label, language, "".join(parts), [rel for rel, _ in files], lexer=lexer))
    return docs, found.notes


def reference_documents(ruleset_dir: Path, players: dict[str, Path], skeleton: set[Path],
                        languages: dict[str, str]) -> list[Document]:
    """This project's own code a student could copy: the ruleset's engine and probes as one
    document, each built-in player as another (one per language). The course files students are
    given are skeleton."""
    player_dirs = {p.resolve() for p in players.values()}
    own = set(skeleton)
    for folder in player_dirs:
        own |= {f.resolve() for f in folder.rglob("*") if f.is_file()}
    docs, _ = documents("reference:engine", "reference", f"this grader's {ruleset_dir.name} engine and probes",
                        ruleset_dir, {".py": "python"}, exclude=own)
    for name, folder in sorted(players.items()):
        docs += documents(f"builtin:{name}", "reference", f"built-in player '{name}'", Path(folder), languages)[0]
    return docs


def archive_documents(archive: Path, entry: str, languages: dict[str, str]) -> list[Document]:
    """Every earlier submission under `archive`: the shallowest folders holding the entry file, at
    any depth (archive/2023/alice/player.py)."""
    docs: list[Document] = []
    chosen: list[Path] = []
    root = archive.resolve()
    for folder in sorted({p.parent for p in root.rglob(entry) if p.is_file()}, key=lambda p: (len(p.parts), p)):
        if any(c in folder.parents for c in chosen):
            continue
        chosen.append(folder)
        rel = folder.relative_to(root).as_posix()
        docs += documents(f"archive:{rel}", "archive", f"archive {rel}", folder, languages, runnable=True)[0]
    return sorted(docs, key=lambda d: (d.id, d.language))


# --------------------------------------------------------------------------------- fingerprints
def fingerprint(doc: Document, k: int, window: int, boilerplate) -> None:
    """Tokenise and hash `doc` in a bounded child (grader/bounded.py): a student's bytes can make the
    tokenizer slow or hungry. `bounded.ReadRefused` with a sentence when it is too costly."""
    (refused,) = fingerprint_all([doc], k, window, boilerplate)
    if refused:
        raise bounded.ReadRefused(refused)


def fingerprint_all(docs: list[Document], k: int, window: int, boilerplate) -> list[str]:
    """Tokenise and hash every document, all in one bounded child and each within its own bounds;
    one sentence per document ("" when fingerprinted) says why one was set aside."""
    # here, not above: copydetect takes ~0.8 s to import (measured) and only the similarity report
    # needs it, not every `grader` command; imported before the fork, so the child imports nothing
    import copydetect

    copydetect.utils.hashed_kgrams = stable_kgrams     # its own uses hash(): salted anew in every process
    items = [(copydetect.CodeFingerprint, f"code{d.lexer}", k, window, boilerplate, d.text) for d in docs]
    outcomes = bounded.run_each(_code_fingerprint, items, what=lambda n: f"the code of {docs[n].label}",
                                cpu_s=TOKENIZE_CPU_S)
    for doc, outcome in zip(docs, outcomes):
        if not isinstance(outcome, bounded.ReadRefused):
            doc.fingerprint = outcome
    return [str(o) if isinstance(o, bounded.ReadRefused) else "" for o in outcomes]


def stable_kgrams(string: str, k: int) -> np.ndarray:
    """The hash of every k-gram of `string`, the same in every process (copydetect's `hashed_kgrams`
    takes Python's hash(), salted per process: the same code was given other fingerprints, and pairs
    other scores, in every run, so a copy near `min_score` was listed in one report and not the
    next): a polynomial hash of its characters mod 2**64, its bits mixed so winnowing's minima fall
    evenly."""
    n = len(string) - k + 1
    if n <= 0:
        return np.array([], dtype=np.int64)
    chars = np.frombuffer(string.encode("utf-32-le", errors="surrogatepass"), dtype=np.uint32).astype(np.uint64)
    h = np.zeros(n, dtype=np.uint64)
    with np.errstate(over="ignore"):
        for j in range(k):
            h = h * np.uint64(KGRAM_BASE) + chars[j:j + n]
        h ^= h >> np.uint64(31)
        h *= np.uint64(KGRAM_MIX)
        h ^= h >> np.uint64(29)
    return h.view(np.int64)


def _code_fingerprint(make, name: str, k: int, window: int, boilerplate, text: str) -> CodeFingerprint:
    return make(name, k, window, boilerplate=boilerplate, fp=io.StringIO(text))


def skeleton_hashes(paths: list[Path], k: int, window: int, languages: dict[str, str]):
    """The fingerprints of the course's skeleton files, whatever their language."""
    hashes: set = set()
    for path in paths:
        for doc in documents("skeleton", "skeleton", "skeleton", path, languages, runnable=True)[0]:
            fingerprint(doc, k, window, None)
            assert doc.fingerprint is not None  # fingerprint() raises when it could not set one
            hashes |= doc.fingerprint.hashes
    return np.array(sorted(hashes), dtype=np.int64)


def drop_hashes(doc: Document, common: set) -> None:
    """Forget fingerprints that too many submissions share (copydetect keeps them per file)."""
    from copydetect.utils import (
        get_token_coverage,  # here: copydetect is slow to import (see fingerprint_all)
    )

    fp = doc.fingerprint
    assert fp is not None  # compare() drops hashes of fingerprinted documents only
    gone = fp.hashes & common
    if gone:
        fp.hashes = fp.hashes - gone
        for h in gone:
            fp.hash_idx.pop(h, None)
        fp.token_coverage = get_token_coverage(fp.hash_idx, fp.k, len(fp.filtered_code))


def shared_counts(docs: list[Document], comparable) -> dict[tuple[int, int], int]:
    """{(i, j): fingerprints documents i and j share}, for the pairs `comparable(i, j)` allows."""
    index: dict[int, list[int]] = defaultdict(list)
    for n, doc in enumerate(docs):
        assert doc.fingerprint is not None  # compare() passes fingerprinted documents only
        for h in doc.fingerprint.hashes:
            index[h].append(n)
    counts: dict[tuple[int, int], int] = defaultdict(int)
    for holders in index.values():
        for x in range(len(holders)):
            for y in range(x + 1, len(holders)):
                i, j = holders[x], holders[y]
                if comparable(i, j):
                    counts[i, j] += 1
    return counts


def full_comparison(pair: Pair) -> None:
    """copydetect's token-level comparison: the shares by tokens and the matching regions."""
    from copydetect import compare_files  # here: copydetect is slow to import (see fingerprint_all)

    tokens, (share_a, share_b), (slices_a, slices_b) = compare_files(pair.a.fingerprint, pair.b.fingerprint)
    pair.tokens = int(tokens)
    pair.share_a, pair.share_b = float(share_a), float(share_b)
    pair.score = pair_score(pair.a, pair.b, pair.share_a, pair.share_b)
    pair.slices_a = [(int(s), int(e)) for s, e in zip(*slices_a)] if len(slices_a) else []
    pair.slices_b = [(int(s), int(e)) for s, e in zip(*slices_b)] if len(slices_b) else []


def pair_score(a: Document, b: Document, share_a: float, share_b: float) -> float:
    if b.kind != "submission":
        return share_a
    return max(share_a, share_b)


# --------------------------------------------------------------------------------- the report
def compare(submissions: list[Document], others: list[Document], skeleton: list[Path], *,
            languages: dict[str, str], k: int = 25, window: int = 4, min_score: float = 0.3,
            common_cutoff: int | None = None, cache: ComparisonCache | None = None) -> SimilarityReport:
    """Every pair of submissions, and every submission against each reference/archive document.
    `cache`: token-level results of an earlier run, reused for a pair whose two documents, settings
    and dropped fingerprints are unchanged."""
    t0 = time.perf_counter()
    boiler = skeleton_hashes(skeleton, k, window, languages)
    docs, refused = [], []
    for doc, why in zip(submissions + others, fingerprint_all(submissions + others, k, window, boiler)):
        if why:
            refused.append(f"{doc.label}: {why}")
        else:
            docs.append(doc)
    kept = {id(d) for d in docs}
    submissions = [d for d in submissions if id(d) in kept]
    n_subs = len(submissions)
    cutoff = common_cutoff if common_cutoff is not None else max(10, n_subs // 10)
    holders: dict[int, int] = defaultdict(int)
    for doc in submissions:
        assert doc.fingerprint is not None  # those refused were left out just above
        for h in doc.fingerprint.hashes:
            holders[h] += 1
    common = {h for h, n in holders.items() if n > cutoff}
    dropped = {}
    for doc in docs:
        assert doc.fingerprint is not None
        dropped[id(doc)] = sorted(doc.fingerprint.hashes & common)
        drop_hashes(doc, common)
    settings_key = (k, window, digest(boiler.tobytes()))

    def comparable(i: int, j: int) -> bool:      # j > i: others come after the submissions
        return i < n_subs and docs[i].language == docs[j].language

    pairs = []
    for (i, j), shared in shared_counts(docs, comparable).items():
        a, b = docs[i], docs[j]
        share_a, share_b = shared / max(a.size, 1), shared / max(b.size, 1)
        if pair_score(a, b, share_a, share_b) >= min_score * 0.8:   # fingerprint shares run close to token shares
            pair = Pair(a, b, 0.0, share_a, share_b)
            if cache is None:
                full_comparison(pair)
            else:
                key = digest(a.text, b.text, a.language, a.kind, b.kind, settings_key, dropped[id(a)], dropped[id(b)])
                known = cache.get("pairs", key)
                if known is not None:
                    pair.tokens, pair.share_a, pair.share_b = known["tokens"], known["share_a"], known["share_b"]
                    pair.slices_a = [tuple(s) for s in known["slices_a"]]
                    pair.slices_b = [tuple(s) for s in known["slices_b"]]
                    pair.score = pair_score(a, b, pair.share_a, pair.share_b)
                else:
                    full_comparison(pair)
                    cache.put("pairs", key, {"tokens": pair.tokens, "share_a": pair.share_a, "share_b": pair.share_b,
                                             "slices_a": pair.slices_a, "slices_b": pair.slices_b})
            if pair.score >= min_score:
                pairs.append(pair)
    pairs.sort(key=lambda p: (-p.score, -p.tokens, p.a.id, p.b.id))
    settings = {"k": k, "window": window, "min_score": min_score, "common_cutoff": cutoff,
                "skeleton": [str(p) for p in skeleton]}
    return SimilarityReport(docs, pairs, refused, settings, time.perf_counter() - t0)


def csv_text(report: SimilarityReport) -> str:
    out = io.StringIO()
    rows = [p.row() for p in report.pairs]
    writer = csv.DictWriter(out, fieldnames=CSV_COLUMNS, lineterminator="\n")
    writer.writeheader()
    for row in rows:
        writer.writerow({key: csv_cell(value) for key, value in row.items()})
    return out.getvalue()


def highlighted(text: str, slices: list[tuple[int, int]]) -> list[tuple[bool, str]]:
    """The text cut into (matching?, part) runs, for the template to escape and mark."""
    out, pos = [], 0
    for start, end in sorted(slices):
        start, end = max(start, pos), min(end, len(text))
        if start > pos:
            out.append((False, text[pos:start]))
        if end > start:
            out.append((True, text[start:end]))
            pos = end
    if pos < len(text):
        out.append((False, text[pos:]))
    return out
