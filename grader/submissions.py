"""Finding submissions and staging each one as a read-only copy keyed by its content hash.

A submission is a folder, a single entry file (`player.py`) or a zip with the files at its root
(or one folder down). The sandbox only ever sees the staged copy: the student's original folder,
other students' folders and the project stay out of its reach.
"""
from __future__ import annotations

import difflib
import hashlib
import os
import shutil
import stat
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from rulesets.base import JavaApi, Ruleset
from sandbox import state_dir, wire

from .archive import ArchiveRefused, copy_tree_safely, safe_extract

METADATA = ".submission.json"
IGNORED = {"__pycache__", METADATA, ".DS_Store", "__MACOSX"}


@dataclass
class Submission:
    id: str
    source: Path
    staged: Path | None = None
    content_hash: str = ""
    name: str = ""
    problem: str | None = None          # why it cannot be run at all (one sentence)
    builtin: bool = False
    metadata: dict = field(default_factory=dict)

    @property
    def display_name(self) -> str:
        return self.name or self.id


STAGE_ENV = "GRADER_STAGE_DIR"


def stage_root() -> Path:
    """Where staged copies live: `staged` in the grader's private state folder (sandbox/state_dir.py),
    or GRADER_STAGE_DIR when set; 0700, this user's, checked on every use (StateUnsafe otherwise).
    Shared between runs: copies are keyed by their content."""
    return state_dir.folder("staged", env=STAGE_ENV)


def content_hash(folder: Path) -> str:
    """sha256 over every file (metadata and caches excluded) in path order, each field with its
    length in front: the relative path and the bytes of one file can never be read as another
    split of the same stream (with plain separators, `a`="1", `b`="2" and `a`="1\\0b\\02" collided)."""
    h = hashlib.sha256(b"grader-tree-v2\0")
    files = sorted(_files(folder))
    h.update(len(files).to_bytes(8, "big"))
    for path in files:
        rel = path.relative_to(folder).as_posix().encode()
        data = path.read_bytes()
        h.update(len(rel).to_bytes(8, "big") + rel + len(data).to_bytes(8, "big"))
        h.update(data)
    return h.hexdigest()


def reusable(staged: Path, digest: str) -> bool:
    """Whether an existing staged copy may be used for `digest`: a real folder of this user's, read-only
    throughout (folders 0555, files 0444, no links; the top folder may still be writable by its owner
    alone, as another run's publish() leaves it for a moment), holding exactly the files the digest
    names."""
    try:
        top = os.lstat(staged)
        if not stat.S_ISDIR(top.st_mode) or stat.S_IMODE(top.st_mode) & 0o022 or \
                (hasattr(os, "geteuid") and top.st_uid != os.geteuid()):
            return False
        for dirpath, dirnames, filenames in os.walk(staged):
            for name in (os.path.join(dirpath, n) for n in dirnames + filenames):
                st = os.lstat(name)
                want = 0o555 if stat.S_ISDIR(st.st_mode) else 0o444 if stat.S_ISREG(st.st_mode) else None
                if want is None or stat.S_IMODE(st.st_mode) != want or \
                        (hasattr(os, "geteuid") and st.st_uid != os.geteuid()):
                    return False
        if content_hash(staged) != digest:
            return False
        os.chmod(staged, 0o555)                # another run's publish() may be between its rename and chmod
        return True
    except OSError:
        return False


def _files(folder: Path):
    for dirpath, dirnames, filenames in os.walk(folder):
        dirnames[:] = [d for d in dirnames if d not in IGNORED]
        for f in filenames:
            if f not in IGNORED and not f.endswith(".pyc"):
                yield Path(dirpath) / f


def _size_mb(folder: Path) -> float:
    return sum(p.stat().st_size for p in _files(folder)) / 1e6


def entry_folders(folder: Path, entry: str) -> list[Path]:
    """Sub-folders (one level down) that hold the entry file, in name order."""
    return sorted(d for d in folder.iterdir() if d.is_dir() and d.name not in IGNORED and (d / entry).is_file())


def _find_root(folder: Path, entry: str) -> Path | None:
    """The folder holding the entry file: the top, or the only sub-folder that has it."""
    if (folder / entry).is_file():
        return folder
    candidates = entry_folders(folder, entry)
    return candidates[0] if len(candidates) == 1 else None


def _missing_entry(tree: Path, entry: str) -> str:
    """Why no entry file was found, in the words that help the student fix it."""
    several = entry_folders(tree, entry)
    if several:
        return (f"the submission has {entry} in several folders ({', '.join(d.name for d in several)}); "
                f"it must have exactly one.")
    files = [p for p in tree.rglob("*") if p.is_file() and p.name not in IGNORED]
    if not files:
        return f"the submission is empty; it needs {entry}."
    if all(p.suffix.lower() == ".zip" for p in files):
        return (f"the submission holds only another zip ({', '.join(sorted(p.name for p in files))}); "
                f"zip {entry} itself, not a zip of a zip.")
    deeper = sorted(p.relative_to(tree).as_posix() for p in files if p.name == entry)
    if deeper:
        return (f"{entry} is too deep in the submission (at {deeper[0]}); it must be at the top level "
                f"or one folder down.")
    close = difflib.get_close_matches(entry.lower(), sorted({p.name.lower() for p in files}), n=1, cutoff=0.7)
    near = next((p.relative_to(tree).as_posix() for p in sorted(files) if close and p.name.lower() == close[0]), None)
    if near:
        return (f"the submission has no {entry} (at its top level or one folder down); is {near} meant to be "
                f"it? The name must match exactly.")
    return f"the submission has no {entry} (at its top level or one folder down)."


def publish(folder: Path, target: Path) -> Path:
    """Make `folder` read-only (files 0444, folders 0555) and rename it to `target`, unless another
    process got there first. The top folder is made read-only after the rename: moving a folder to
    another parent needs write permission on it, which only root has without it."""
    for dirpath, _dirnames, filenames in os.walk(folder):
        if dirpath != str(folder):
            os.chmod(dirpath, 0o555)
        for f in filenames:
            os.chmod(Path(dirpath) / f, 0o444)
    try:
        os.rename(folder, target)
        os.chmod(target, 0o555)
    except OSError:
        if not target.exists():
            raise
    return target


def _arrange_java(tree: Path, java: JavaApi, out: Path) -> Path | None:
    """The course's Java layout from whatever was uploaded (StudentPlayer.java alone, the package
    folder, src/, or a project): `out/<package>/` holds the folder that has the entry file, and
    `out/data/` the data folder found beside it, in it, or one level up (beside src/)."""
    hits = [p for p in tree.rglob(java.entry) if not IGNORED & set(p.relative_to(tree).parts)]
    if len(hits) != 1 or len(hits[0].relative_to(tree).parts) > 5:
        return None
    package = hits[0].parent
    shutil.copytree(package, out / java.package, ignore=shutil.ignore_patterns(*IGNORED, "*.class", "data"))
    for folder in (package, package.parent, package.parent.parent):
        if (folder / "data").is_dir() and (folder == tree or tree in folder.parents):
            shutil.copytree(folder / "data", out / "data", ignore=shutil.ignore_patterns(*IGNORED))
            break
    return out


@dataclass(frozen=True)
class Programs:
    """What makes a folder, or one uploaded file, a line-protocol program: taken from the table of
    player kinds by whoever knows the assignment (grader/intake.py), so staging never imports the builds."""

    build: Callable[[Path], str | None]   # the build a folder's files ask for; None: it is no program
    needs: str                            # what a program's folder holds, for the sentence that refuses one
    single_files: tuple[str, ...]         # suffixes of one uploaded file that is a whole program (.c, .cxx)


def _program_root(tree: Path, program: Programs) -> Path | None:
    """A line-protocol program's folder: the top, or its only sub-folder."""
    if program.build(tree):
        return tree
    subs = [d for d in tree.iterdir() if d.is_dir() and d.name not in IGNORED]
    return subs[0] if len(subs) == 1 and program.build(subs[0]) else None    # (.py programs have player.py or one file)


def load(path: Path, entry: str, max_mb: float, sub_id: str | None = None, builtin: bool = False,
         java: JavaApi | None = None, program: Programs | None = None) -> Submission:
    """Stage one submission. Problems (too big, hostile zip, no entry file) go in `.problem`, never raise.
    With `java`, a submission without `entry` may be a Java player in the course's layout; with
    `program`, a program in any language speaking the ruleset's line protocol (the function says
    which build a folder asks for). Callers take both from the assignment: grader/intake.py."""
    path = Path(path)
    sub = Submission(id=sub_id or (path.stem if path.is_file() else path.name), source=path, builtin=builtin)
    try:
        work = Path(tempfile.mkdtemp(prefix="incoming-", dir=stage_root()))
    except OSError as exc:                     # the grader's own folder: its owner must fix it
        sub.problem = f"the grader cannot stage submissions: {exc}."
        return sub
    try:
        tree = work / "tree"
        if path.is_dir():
            copy_tree_safely(path, tree)
        elif path.suffix.lower() == ".zip":
            safe_extract(path, tree)
        elif path.suffix == ".py":
            tree.mkdir()
            shutil.copyfile(path, tree / entry)
        elif (path.suffix == ".java" and java is not None) or (program is not None and path.suffix in program.single_files):
            tree.mkdir()
            shutil.copyfile(path, tree / path.name)
        else:
            files = [".py", *([".java"] if java is not None else []), *(program.single_files if program else [])]
            sub.problem = (f"{path.name} is neither a folder, a {', '.join(files[:-1])}{' or ' if len(files) > 1 else ''}"
                           f"{files[-1]} file nor a .zip archive.")
            return sub
        meta_file = (tree / METADATA)
        if meta_file.is_file():            # the submitter's own file: decoded as untrusted JSON
            try:
                meta = wire.decode_reply(meta_file.read_bytes())
            except (OSError, wire.WireError):
                meta = None
            if isinstance(meta, dict) and not path.is_dir():
                meta = {"name": meta["name"]} if "name" in meta else {}   # a zip's: the student's word only
            if isinstance(meta, dict):
                sub.metadata = meta
                sub.name = str(meta.get("name") or "")
        root = _find_root(tree, entry)
        if root is None and java is not None:
            root = _arrange_java(tree, java, work / "java")
        if root is None and program is not None:
            root = _program_root(tree, program)
        if root is None:
            sub.problem = _missing_entry(tree, entry)
            if java is not None:
                sub.problem = (sub.problem[:-1] + f"; a Java player needs exactly one {java.entry} "
                               f"(package {java.package}).")
            if program is not None:
                sub.problem = sub.problem[:-1] + "; a program needs " + program.needs + "."
            return sub
        size = _size_mb(root)
        if size > max_mb:
            sub.problem = f"the submission is {size:.1f} MB; at most {max_mb:g} MB is accepted."
            return sub
        sub.content_hash = content_hash(root)
        staged = stage_root() / sub.content_hash[:24]
        if os.path.lexists(staged) and not reusable(staged, sub.content_hash):
            if os.path.isdir(staged) and not os.path.islink(staged):
                state_dir.remove_tree(staged)                # not what its name says: staged again below
            else:
                os.unlink(staged)
        if not staged.exists():
            shutil.copytree(root, work / "final", ignore=shutil.ignore_patterns(*IGNORED, "*.pyc"))
            publish(work / "final", staged)
        sub.staged = staged
        return sub
    except ArchiveRefused as exc:
        sub.problem = str(exc)
        return sub
    except OSError as exc:
        sub.problem = f"the submission could not be read ({exc.strerror or exc})."
        return sub
    finally:
        state_dir.remove_tree(work)


def discover(folder: Path, entry: str, max_mb: float, java: JavaApi | None = None,
             program: Programs | None = None) -> list[Submission]:
    """Every submission in a folder: sub-folders, zips and .py (and .java) files, in name order."""
    folder = Path(folder)
    if not folder.is_dir():
        return []
    files = (".zip", ".py") + ((".java",) if java is not None else ()) + (program.single_files if program else ())
    children = [c for c in sorted(folder.iterdir()) if not c.name.startswith((".", "_"))
                and (c.is_dir() or c.suffix.lower() in files)]
    ids = [c.stem if c.is_file() else c.name for c in children]
    # alice/ and alice.zip would both be "alice": each is then known by its full name, so both are graded
    return [load(c, entry, max_mb, sub_id=c.name if ids.count(i) > 1 else None, java=java, program=program)
            if _is_text(c.name) else _not_text(c) for c, i in zip(children, ids)]


def _is_text(name: str) -> bool:
    try:
        name.encode("utf-8")
        return True
    except UnicodeEncodeError:             # undecodable bytes, held as surrogates no encoder accepts
        return False


def _not_text(path: Path) -> Submission:
    """A submission whose file name is not UTF-8 (unpacked from an old zip): refused with a sentence,
    under a name the store, the terminal and the reports can hold (`\\xff` for each such byte)."""
    name = os.fsencode(path.name).decode("utf-8", "backslashreplace")
    return Submission(id=name, source=path.with_name(name), problem=f"the name {name} is not UTF-8 text; "
                      "rename it so that it can be graded.")


def builtin(ruleset: Ruleset, name: str) -> Submission:
    """A built-in player, staged like any submission and named `builtin:<name>`."""
    sub = load(ruleset.players[name], ruleset.entry, 1000.0, sub_id=f"builtin:{name}", builtin=True)
    sub.name = f"{name} (built-in)"
    return sub
