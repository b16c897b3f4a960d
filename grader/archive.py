"""Unpacking students' zips and copying their folders without trusting a single byte of them.

Used wherever a student's files enter the grader (a submitted zip or folder, an LMS class download).
Everything is written into a fresh temporary folder beside `dest` and moved into place only when the
whole archive (nested zips included) has passed, so a refused archive leaves nothing behind.

What is refused, each with one sentence naming the archive (`ArchiveRefused`):
zip bombs (total, per-file and compression-ratio caps, counted on the bytes really decompressed,
plus entries that share their data), paths that leave the folder (`..`, absolute paths, drive
letters, backslashes, NUL bytes), links, devices and fifos, encrypted entries, duplicate names
(also after case folding and Unicode normalisation, and a name used both as file and folder),
too many files, too deep folders, zips nested too deep, damaged zips.

File names: a zip entry whose "UTF-8" flag (bit 11) is set is read as UTF-8. Without the flag, an
ASCII name is fine; non-ASCII bytes are accepted when they happen to be valid UTF-8 (macOS
Archive Utility writes UTF-8 without setting the flag) and refused otherwise (old Windows tools
write the local code page, e.g. CP437 or CP852, which cannot be told apart reliably).

Junk that operating systems add (`__MACOSX/`, `.DS_Store`, `Thumbs.db`, `desktop.ini`, `._*`) is
dropped silently. A zip inside the archive is unpacked in place (`dir/x.zip` becomes `dir/x/`),
under the same caps, counted together with the outer archive.
"""
from __future__ import annotations

import os
import re
import shutil
import stat
import tempfile
import time
import unicodedata
import zipfile
import zlib
from dataclasses import dataclass
from pathlib import Path

JUNK_NAMES = frozenset({".DS_Store", "Thumbs.db", "desktop.ini"})
JUNK_FOLDERS = frozenset({"__MACOSX"})
_DRIVE = re.compile(r"^[A-Za-z]:")
_CHUNK = 1 << 16
_MB = 1 << 20


@dataclass(frozen=True)
class ArchiveCaps:
    """Limits on what one archive (or folder) may unpack to; nested zips count towards the same caps."""

    max_total_mb: float = 100.0        # all files together, as really decompressed
    max_file_mb: float = 50.0          # any one file
    max_ratio: float = 200.0           # uncompressed / compressed size of one entry ...
    ratio_floor_mb: float = 1.0        # ... checked once the entry has produced this much
    max_files: int = 2000
    max_path_depth: int = 16           # folders inside folders
    max_nesting: int = 2               # zips inside zips (the outer archive is level 0)

    @property
    def total_bytes(self) -> int:
        return int(self.max_total_mb * _MB)

    @property
    def file_bytes(self) -> int:
        return int(self.max_file_mb * _MB)


class ArchiveRefused(ValueError):
    """An archive or folder that is not unpacked, with one plain sentence saying why."""

    def __init__(self, archive: str, problem: str):
        self.archive = archive
        self.problem = problem
        super().__init__(f"{archive} was refused: {problem}.")


def is_junk(name: str) -> bool:
    """True for files the operating system adds on its own (dropped silently)."""
    parts = [p for p in name.replace("\\", "/").split("/") if p]
    if any(p in JUNK_FOLDERS for p in parts):
        return True
    return bool(parts) and (parts[-1] in JUNK_NAMES or parts[-1].startswith("._"))


class _Tally:
    """What has been written so far (across nested zips) and the names already taken."""

    def __init__(self, caps: ArchiveCaps, label: str):
        self.caps = caps
        self.label = label
        self.files = 0
        self.bytes = 0
        self.files_at: set[tuple[str, ...]] = set()
        self.folders_at: dict[tuple[str, ...], tuple[str, ...]] = {}   # folded key -> spelling

    def refuse(self, problem: str) -> ArchiveRefused:
        return ArchiveRefused(self.label, problem)

    def claim(self, parts: tuple[str, ...], is_dir: bool, shown: str) -> None:
        """Reserve a path; refuse duplicates (case-folded, NFC) and file/folder clashes."""
        key = tuple(unicodedata.normalize("NFC", p).casefold() for p in parts)
        if len(parts) > self.caps.max_path_depth:
            raise self.refuse(f"{shown} lies more than {self.caps.max_path_depth} folders deep")
        for i in range(1, len(key) + (1 if is_dir else 0)):
            if key[:i] in self.files_at:
                raise self.refuse(f"{'/'.join(parts[:i])} is both a file and a folder")
            spelled = self.folders_at.setdefault(key[:i], parts[:i])
            if spelled != parts[:i]:
                raise self.refuse(f"it holds both {'/'.join(spelled)} and {'/'.join(parts[:i])} "
                                  "(names differing only in upper/lower case count as the same)")
        if is_dir:
            return
        if key in self.files_at:
            raise self.refuse(f"it holds {shown} twice (names differing only in upper/lower case count as the same)")
        if key in self.folders_at:
            raise self.refuse(f"{shown} is both a file and a folder")
        self.files_at.add(key)
        self.files += 1
        if self.files > self.caps.max_files:
            raise self.refuse(f"it holds more than {self.caps.max_files} files")

    def count_bytes(self, n: int, file_total: int, compressed: int | None, shown: str) -> None:
        """Account for `n` more bytes of a file that has produced `file_total` so far."""
        self.bytes += n
        caps = self.caps
        if file_total > caps.file_bytes:
            raise self.refuse(f"{shown} unpacks to more than {caps.max_file_mb:g} MB")
        if self.bytes > caps.total_bytes:
            raise self.refuse(f"it unpacks to more than {caps.max_total_mb:g} MB in total")
        if (compressed is not None and file_total > caps.ratio_floor_mb * _MB
                and file_total > caps.max_ratio * max(compressed, 1)):
            raise self.refuse(f"{shown} is compressed more than {caps.max_ratio:g} times (a zip bomb)")


def _split_name(raw: str, label: str, inside: str = "") -> tuple[str, ...]:
    """The safe path parts of an entry name, or refuse the archive (`inside` names a nested zip)."""
    if "\x00" in raw:
        raise ArchiveRefused(label, f"the name {raw!r}{inside} contains a NUL byte")
    if "\\" in raw:
        raise ArchiveRefused(label, f"the name {raw}{inside} contains a backslash (only / separates folders in a zip)")
    if raw.startswith("/") or _DRIVE.match(raw):
        raise ArchiveRefused(label, f"the name {raw}{inside} is an absolute path")
    parts = tuple(p for p in raw.split("/") if p not in ("", "."))
    if ".." in parts:
        raise ArchiveRefused(label, f"the name {raw}{inside} points outside the archive")
    return parts


def _entry_name(info: zipfile.ZipInfo, label: str) -> str:
    """The entry's name as text, following the UTF-8 decision documented above."""
    name = info.orig_filename
    if info.flag_bits & 0x800 or name.isascii():
        return name
    raw = name.encode("cp437")
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        raise ArchiveRefused(label, f"the file name {name!r} is not UTF-8 (zip it again with a tool that writes "
                                    "UTF-8 names, or use plain ASCII names)") from None


def _entry_kind(info: zipfile.ZipInfo, shown: str, label: str) -> str:
    """'dir' or 'file'; links, devices, fifos and sockets are refused."""
    mode = info.external_attr >> 16
    if mode:
        kind = stat.S_IFMT(mode)
        if kind == stat.S_IFLNK:
            raise ArchiveRefused(label, f"{shown} is a symbolic link, and links are not accepted")
        if kind in (stat.S_IFCHR, stat.S_IFBLK, stat.S_IFIFO, stat.S_IFSOCK):
            raise ArchiveRefused(label, f"{shown} is a device, fifo or socket, not a file")
        if kind == stat.S_IFDIR:
            return "dir"
    return "dir" if info.orig_filename.endswith("/") else "file"


def _write_stream(src, target: Path, tally: _Tally, compressed: int | None, shown: str) -> None:
    """Copy a stream into a new file, counting and capping the bytes really read."""
    fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o644)
    total = 0
    with os.fdopen(fd, "wb") as out:
        while chunk := src.read(_CHUNK):
            total += len(chunk)
            tally.count_bytes(len(chunk), total, compressed, shown)
            out.write(chunk)


def _mtime(date_time: tuple) -> float | None:
    try:
        return time.mktime(tuple(date_time) + (0, 0, -1))
    except (OverflowError, ValueError):
        return None


def _unpack_zip(archive: Path, into: Path, base: tuple[str, ...], tally: _Tally, depth: int,
                unpack_nested: bool) -> None:
    """Write the archive's entries under `into`, whose path parts below the tree root are `base`."""
    label = tally.label
    try:
        zf = zipfile.ZipFile(archive)
    except (zipfile.BadZipFile, OSError, ValueError, EOFError):
        where = "it is" if not base else f"{'/'.join(base)}.zip is"
        raise ArchiveRefused(label, f"{where} not a readable zip archive") from None
    with zf:
        infos = zf.infolist()
        if tally.files + len(infos) > tally.caps.max_files * 4 + 64:
            raise tally.refuse(f"it holds more than {tally.caps.max_files} files")
        if sum(i.file_size for i in infos) + tally.bytes > tally.caps.total_bytes:
            raise tally.refuse(f"it unpacks to more than {tally.caps.max_total_mb:g} MB in total")
        offsets: set[int] = set()
        nested: list[tuple[Path, tuple[str, ...]]] = []
        for info in infos:
            name = _entry_name(info, label)
            parts = _split_name(name, label, f" inside {'/'.join(base)}.zip" if base else "")
            if not parts or is_junk(name):
                continue
            shown = "/".join(base + parts)
            kind = _entry_kind(info, shown, label)
            if kind == "dir":
                tally.claim(base + parts, True, shown)
                (into.joinpath(*parts)).mkdir(parents=True, exist_ok=True)
                continue
            if info.flag_bits & 0x1:
                raise tally.refuse(f"{shown} is encrypted")
            if info.header_offset in offsets:
                raise tally.refuse(f"several entries share the data of {shown} (a zip bomb)")
            offsets.add(info.header_offset)
            tally.claim(base + parts, False, shown)
            if info.file_size > tally.caps.file_bytes:
                raise tally.refuse(f"{shown} unpacks to more than {tally.caps.max_file_mb:g} MB")
            target = into.joinpath(*parts)
            target.parent.mkdir(parents=True, exist_ok=True)
            try:
                with zf.open(info) as src:
                    _write_stream(src, target, tally, info.compress_size, shown)
            except (zipfile.BadZipFile, zlib.error, EOFError) as exc:
                raise tally.refuse(f"{shown} is damaged ({exc})") from None
            except NotImplementedError:
                raise tally.refuse(f"{shown} uses a compression method the grader cannot read") from None
            except RuntimeError as exc:        # zipfile's "encrypted, password required"
                raise tally.refuse(f"{shown} cannot be read ({exc})") from None
            mtime = _mtime(info.date_time)
            if mtime is not None:
                os.utime(target, (mtime, mtime))
            if unpack_nested and parts[-1].lower().endswith(".zip"):
                nested.append((target, base + parts))
        for inner, parts in nested:
            _unpack_nested(inner, parts, tally, depth)


def _unpack_nested(inner: Path, parts: tuple[str, ...], tally: _Tally, depth: int) -> None:
    """Replace `x.zip` by the folder `x/` holding its contents."""
    if depth + 1 > tally.caps.max_nesting:
        raise tally.refuse(f"{'/'.join(parts)} is a zip nested more than {tally.caps.max_nesting} levels deep")
    folder_parts = parts[:-1] + (parts[-1][:-4],)
    folder = inner.with_name(folder_parts[-1])
    if not folder_parts[-1] or folder.exists() or os.path.lexists(folder):
        raise tally.refuse(f"it holds both {'/'.join(parts)} and a folder or file {'/'.join(folder_parts)}")
    tally.claim(folder_parts, True, "/".join(folder_parts))
    folder.mkdir()
    _unpack_zip(inner, folder, folder_parts, tally, depth + 1, True)
    inner.unlink()


def _copy_folder(src: Path, into: Path, base: tuple[str, ...], tally: _Tally, unpack_zips: bool) -> None:
    """Copy a folder without following links; the same checks as for zip entries."""
    nested: list[tuple[Path, tuple[str, ...]]] = []
    for entry in sorted(os.scandir(src), key=lambda e: e.name):
        parts = base + (entry.name,)
        shown = "/".join(parts)
        if entry.name in JUNK_NAMES or entry.name in JUNK_FOLDERS or entry.name.startswith("._"):
            continue
        if "\\" in entry.name:
            raise tally.refuse(f"the name {shown} contains a backslash")
        try:
            entry.name.encode("utf-8")
        except UnicodeEncodeError:
            raise tally.refuse(f"the file name {shown!r} is not UTF-8") from None
        st = entry.stat(follow_symlinks=False)
        if stat.S_ISLNK(st.st_mode):
            raise tally.refuse(f"{shown} is a symbolic link, and links are not accepted")
        if stat.S_ISDIR(st.st_mode):
            tally.claim(parts, True, shown)
            (into / entry.name).mkdir()
            _copy_folder(Path(entry.path), into / entry.name, parts, tally, unpack_zips)
            continue
        if not stat.S_ISREG(st.st_mode):
            raise tally.refuse(f"{shown} is a device, fifo or socket, not a file")
        tally.claim(parts, False, shown)
        if st.st_size > tally.caps.file_bytes:
            raise tally.refuse(f"{shown} is larger than {tally.caps.max_file_mb:g} MB")
        try:
            fd = os.open(entry.path, os.O_RDONLY | os.O_NOFOLLOW | getattr(os, "O_NONBLOCK", 0))
        except OSError as exc:
            raise tally.refuse(f"{shown} cannot be read ({exc.strerror})") from None
        with os.fdopen(fd, "rb") as stream:
            if not stat.S_ISREG(os.fstat(stream.fileno()).st_mode):
                raise tally.refuse(f"{shown} changed into something that is not a file while it was copied")
            _write_stream(stream, into / entry.name, tally, None, shown)
        os.utime(into / entry.name, (st.st_mtime, st.st_mtime))
        if unpack_zips and entry.name.lower().endswith(".zip"):
            nested.append((into / entry.name, parts))
    for inner, parts in nested:
        _unpack_nested(inner, parts, tally, 0)


def _listing(tree: Path) -> list[str]:
    return sorted(p.relative_to(tree).as_posix() for p in tree.rglob("*") if p.is_file())


def _build(dest: Path, fill) -> list[str]:
    """Run `fill(tmp)` in a fresh folder beside `dest`, then move it into place; clean up on failure."""
    dest = Path(dest)
    if dest.exists() and (not dest.is_dir() or any(dest.iterdir())):
        raise FileExistsError(f"{dest} already exists and is not an empty folder")
    dest.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=".unpacking-", dir=dest.parent))
    try:
        fill(tmp)
        files = _listing(tmp)
        if dest.exists():
            dest.rmdir()
        os.rename(tmp, dest)
        os.chmod(dest, 0o755)
        return files
    finally:
        if tmp.exists():
            shutil.rmtree(tmp, ignore_errors=True)


def safe_extract(archive: Path, dest: Path, caps: ArchiveCaps = ArchiveCaps(), *,
                 unpack_nested: bool = True, label: str | None = None) -> list[str]:
    """Unpack a zip into `dest` (absent or empty) and return the files written, as sorted relative paths.

    Raises `ArchiveRefused` and writes nothing if any entry breaks a rule. `unpack_nested=False`
    keeps inner zips as files (a class download whose students' zips are judged one by one).
    """
    archive = Path(archive)
    tally = _Tally(caps, label or archive.name)
    if not archive.is_file():
        raise tally.refuse("it is not a file")
    size = archive.stat().st_size
    if size > caps.total_bytes + _MB:
        raise tally.refuse(f"it is larger than {caps.max_total_mb:g} MB")
    return _build(dest, lambda tmp: _unpack_zip(archive, tmp, (), tally, 0, unpack_nested))


def copy_tree_safely(src: Path, dest: Path, caps: ArchiveCaps = ArchiveCaps(), *,
                     unpack_zips: bool = False, label: str | None = None) -> list[str]:
    """Copy a folder into `dest` (absent or empty) under the same rules as `safe_extract`.

    Links anywhere in the folder are refused rather than followed; with `unpack_zips` every zip
    found in it is unpacked in place like a nested zip.
    """
    src = Path(src)
    tally = _Tally(caps, label or (src.name or str(src)))
    if src.is_symlink():
        raise tally.refuse("it is a symbolic link, and links are not accepted")
    if not src.is_dir():
        raise tally.refuse("it is not a folder")
    return _build(dest, lambda tmp: _copy_folder(src, tmp, (), tally, unpack_zips))
