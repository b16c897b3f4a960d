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
"""
from __future__ import annotations

import csv
import io
import time
from collections import defaultdict
from collections.abc import Set
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from . import bounded
from .safetext import csv_cell
from .similarity_cache import ComparisonCache, digest

LANGUAGES = {".py": "python", ".java": "java", ".c": "c", ".h": "c", ".cpp": "cpp", ".cc": "cpp",
             ".hpp": "cpp", ".cs": "csharp", ".js": "javascript", ".rs": "rust", ".go": "go"}
COMMENT = {"python": "#"}            # every other language here takes //
SKIPPED_DIRS = {"__pycache__", ".git", "__MACOSX", "data", "node_modules"}
MAX_FILE_BYTES = 512 * 1024          # a file larger than this is data, not code a student wrote
TOKENIZE_CPU_S = 10.0                # tokenising one document (real code: about 3 s a megabyte)
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
def code_files(folder: Path, language: str | None = None) -> tuple[str | None, list[Path]]:
    """The language of a folder's code (that of `language`, else the most common code file) and
    its files in that language, sorted; data folders, caches and huge files are left out."""
    found: dict[str, list[Path]] = defaultdict(list)
    paths = [folder] if folder.is_file() else sorted(folder.rglob("*"))
    for path in paths:
        rel = path.relative_to(folder.parent if folder.is_file() else folder)
        if any(part in SKIPPED_DIRS or part.startswith(".") for part in rel.parts[:-1]):
            continue
        lang = LANGUAGES.get(path.suffix.lower())
        if lang and path.is_file() and not path.is_symlink() and path.stat().st_size <= MAX_FILE_BYTES:
            found[lang].append(path)
    if language is None:
        language = max(found, key=lambda k: len(found[k]), default=None)
    return language, (found.get(language, []) if language is not None else [])


def document(doc_id: str, kind: str, label: str, folder: Path, language: str | None = None,
             exclude: Set[Path] = frozenset()) -> Document | None:
    """A Document of `folder`'s code files (None when it holds no code)."""
    language, files = code_files(folder, language)
    files = [f for f in files if f.resolve() not in exclude]
    if not files:
        return None
    assert language is not None  # code_files found files, so it named their language
    base = folder.parent if folder.is_file() else folder
    mark = COMMENT.get(language, "//")
    parts, names = [], []
    for path in files:
        rel = path.relative_to(base).as_posix()
        text = path.read_bytes().decode("utf-8", errors="replace")
        parts.append(f"{mark} ===== {rel} =====\n{text}" + ("" if text.endswith("\n") else "\n"))
        names.append(rel)
    return Document(doc_id, kind, label, language, "".join(parts), names)


def reference_documents(ruleset_dir: Path, players: dict[str, Path], skeleton: set[Path]) -> list[Document]:
    """This project's own code a student could copy: the ruleset's engine and probes as one
    document, each built-in player as another. The course files students are given are skeleton."""
    player_dirs = {p.resolve() for p in players.values()}
    own = set(skeleton)
    for folder in player_dirs:
        own |= {f.resolve() for f in folder.rglob("*") if f.is_file()}
    docs = []
    engine = document("reference:engine", "reference", f"this grader's {ruleset_dir.name} engine and probes",
                      ruleset_dir, "python", exclude=own)
    if engine:
        docs.append(engine)
    for name, folder in sorted(players.items()):
        doc = document(f"builtin:{name}", "reference", f"built-in player '{name}'", Path(folder))
        if doc:
            docs.append(doc)
    return docs


def archive_documents(archive: Path, entry: str) -> list[Document]:
    """Every earlier submission under `archive`: the shallowest folders holding the entry file, at
    any depth (archive/2023/alice/player.py)."""
    docs: list[Document] = []
    chosen: list[Path] = []
    root = archive.resolve()
    for folder in sorted({p.parent for p in root.rglob(entry) if p.is_file()}, key=lambda p: (len(p.parts), p)):
        if any(c in folder.parents for c in chosen) or set(folder.relative_to(root).parts) & SKIPPED_DIRS:
            continue
        chosen.append(folder)
        rel = folder.relative_to(root).as_posix()
        doc = document(f"archive:{rel}", "archive", f"archive {rel}", folder)
        if doc:
            docs.append(doc)
    return sorted(docs, key=lambda d: d.id)


# --------------------------------------------------------------------------------- fingerprints
def fingerprint(doc: Document, k: int, window: int, boilerplate) -> None:
    """Tokenise and hash `doc` in a bounded child (grader/bounded.py): a student's bytes can make the
    tokenizer slow or hungry. `bounded.Refused` with a sentence when it is too costly."""
    (refused,) = fingerprint_all([doc], k, window, boilerplate)
    if refused:
        raise bounded.Refused(refused)


def fingerprint_all(docs: list[Document], k: int, window: int, boilerplate) -> list[str]:
    """Tokenise and hash every document, all in one bounded child and each within its own bounds;
    one sentence per document ("" when fingerprinted) says why one was set aside."""
    # here, not above: copydetect takes ~0.8 s to import (measured) and only the similarity report
    # needs it, not every `grader` command; imported before the fork, so the child imports nothing
    import copydetect

    items = [(copydetect.CodeFingerprint, f"code{next(e for e, lang in LANGUAGES.items() if lang == d.language)}",
              k, window, boilerplate, d.text) for d in docs]
    outcomes = bounded.run_each(_code_fingerprint, items, what=lambda n: f"the code of {docs[n].label}",
                                cpu_s=TOKENIZE_CPU_S)
    for doc, outcome in zip(docs, outcomes):
        if not isinstance(outcome, bounded.Refused):
            doc.fingerprint = outcome
    return [str(o) if isinstance(o, bounded.Refused) else "" for o in outcomes]


def _code_fingerprint(make, name: str, k: int, window: int, boilerplate, text: str) -> CodeFingerprint:
    return make(name, k, window, boilerplate=boilerplate, fp=io.StringIO(text))


def skeleton_hashes(paths: list[Path], k: int, window: int):
    """The fingerprints of the course's skeleton files, whatever their language."""
    hashes: set = set()
    for path in paths:
        for lang in {LANGUAGES.get(p.suffix.lower()) for p in ([path] if path.is_file() else path.rglob("*"))} - {None}:
            doc = document("skeleton", "skeleton", "skeleton", path, lang)
            if doc:
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
def compare(submissions: list[Document], others: list[Document], skeleton: list[Path], *, k: int = 25,
            window: int = 4, min_score: float = 0.3, common_cutoff: int | None = None,
            cache: ComparisonCache | None = None) -> SimilarityReport:
    """Every pair of submissions, and every submission against each reference/archive document.
    `cache`: token-level results of an earlier run, reused for a pair whose two documents, settings
    and dropped fingerprints are unchanged."""
    t0 = time.perf_counter()
    boiler = skeleton_hashes(skeleton, k, window)
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
