"""grader.archive: every hostile kind of archive is refused with its sentence and leaves nothing behind."""
from __future__ import annotations

import os
import stat
import struct
import time
import warnings
import zipfile
from pathlib import Path

import pytest
from lms_builders import listing, make_zip, zip_bytes

from grader.archive import ArchiveCaps, ArchiveRefused, copy_tree_safely, safe_extract


class RawName(zipfile.ZipInfo):
    """A zip entry whose name bytes are written as given, without the UTF-8 flag."""

    raw = b""

    def _encodeFilenameFlags(self):
        return self.raw, self.flag_bits & ~0x800


def raw_name_zip(path: Path, raw: bytes) -> Path:
    info = RawName("x", date_time=(2026, 1, 1, 0, 0, 0))
    info.raw = raw
    with zipfile.ZipFile(path, "w") as zf:
        zf.writestr(info, "print(1)")
    return path


def special_zip(path: Path, name: str, mode: int, data: str = "target") -> Path:
    info = zipfile.ZipInfo(name, date_time=(2026, 1, 1, 0, 0, 0))
    info.create_system = 3
    info.external_attr = mode << 16
    with zipfile.ZipFile(path, "w") as zf:
        zf.writestr("player.py", "x = 1")
        zf.writestr(info, data)
    return path


def overlapping_zip(path: Path) -> Path:
    """Two central-directory entries pointing at the same data (the non-recursive zip bomb trick)."""
    make_zip(path, {"a.txt": "0" * 1000})
    data = path.read_bytes()
    eocd = data.rindex(b"PK\x05\x06")
    cd_size, cd_offset = struct.unpack("<II", data[eocd + 12:eocd + 20])
    record = data[cd_offset:cd_offset + cd_size]
    twin = record.replace(b"a.txt", b"b.txt")
    end = bytearray(data[eocd:])
    struct.pack_into("<HHI", end, 8, 2, 2, cd_size * 2)
    path.write_bytes(data[:cd_offset + cd_size] + twin + bytes(end))
    return path


def lying_size_zip(path: Path) -> Path:
    """The central directory claims 100 bytes for a file that really inflates to 2 MB."""
    make_zip(path, {"big.bin": b"\0" * (2 << 20)})
    data = bytearray(path.read_bytes())
    cd = data.rindex(b"PK\x01\x02")
    struct.pack_into("<I", data, cd + 24, 100)
    path.write_bytes(bytes(data))
    return path


def duplicate_zip(path: Path, a: str, b: str) -> Path:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with zipfile.ZipFile(path, "w") as zf:
            zf.writestr(a, "1")
            zf.writestr(b, "2")
    return path


def encrypted_zip(path: Path) -> Path:
    """The 'encrypted' flag set in both headers (zipfile cannot write encrypted entries itself)."""
    make_zip(path, {"secret.py": "x"})
    data = bytearray(path.read_bytes())
    for signature, offset in ((b"PK\x03\x04", 6), (b"PK\x01\x02", 8)):
        at = data.index(signature) + offset
        struct.pack_into("<H", data, at, struct.unpack_from("<H", data, at)[0] | 0x1)
    path.write_bytes(bytes(data))
    return path


MB = 1 << 20
HOSTILE = {
    "dotdot": (lambda p: make_zip(p, {"ok.py": "1", "../evil.py": "x"}), None, "../evil.py points outside"),
    "dotdot-deep": (lambda p: make_zip(p, {"a/../../evil.py": "x"}), None, "points outside the archive"),
    "absolute": (lambda p: make_zip(p, {"/etc/evil.py": "x"}), None, "is an absolute path"),
    "drive-letter": (lambda p: make_zip(p, {"C:/evil.py": "x"}), None, "is an absolute path"),
    "backslash": (lambda p: make_zip(p, {"..\\evil.py": "x"}), None, "contains a backslash"),
    "symlink": (lambda p: special_zip(p, "link.py", stat.S_IFLNK | 0o777, "/etc/passwd"), None,
                "link.py is a symbolic link"),
    "fifo": (lambda p: special_zip(p, "pipe", stat.S_IFIFO | 0o644), None, "pipe is a device, fifo or socket"),
    "device": (lambda p: special_zip(p, "dev", stat.S_IFCHR | 0o644), None, "dev is a device"),
    "duplicate": (lambda p: duplicate_zip(p, "player.py", "player.py"), None, "holds player.py twice"),
    "casefold-duplicate": (lambda p: duplicate_zip(p, "Player.py", "player.py"), None, "holds player.py twice"),
    "file-and-folder": (lambda p: duplicate_zip(p, "lib", "lib/x.py"), None, "lib is both a file and a folder"),
    "not-utf8": (lambda p: raw_name_zip(p, b"h\x82.py"), None, "is not UTF-8"),
    "too-many-files": (lambda p: make_zip(p, {f"f{i}.py": "1" for i in range(6)}), ArchiveCaps(max_files=5),
                       "more than 5 files"),
    "too-deep": (lambda p: make_zip(p, {"a/b/c/d/e.py": "1"}), ArchiveCaps(max_path_depth=3),
                 "more than 3 folders deep"),
    "file-cap": (lambda p: make_zip(p, {"big.bin": os.urandom(2 * MB)}, compression=zipfile.ZIP_STORED),
                 ArchiveCaps(max_file_mb=1), "big.bin unpacks to more than 1 MB"),
    "total-cap": (lambda p: make_zip(p, {f"p{i}.bin": os.urandom(MB // 2) for i in range(3)},
                                     compression=zipfile.ZIP_STORED),
                  ArchiveCaps(max_total_mb=1), "more than 1 MB in total"),
    "ratio": (lambda p: make_zip(p, {"zeros.bin": b"\0" * (5 * MB)}), None, "compressed more than 200 times"),
    "overlap": (overlapping_zip, None, "share the data"),
    "lying-size": (lying_size_zip, None, "big.bin is damaged"),
    "encrypted": (encrypted_zip, None, "secret.py is encrypted"),
    "not-a-zip": (lambda p: p.write_bytes(b"this is not a zip") and p, None, "not a readable zip archive"),
    "nested-too-deep": (lambda p: make_zip(p, {"a.zip": zip_bytes({"b.zip": zip_bytes({"c.py": "1"})})}),
                        ArchiveCaps(max_nesting=1), "nested more than 1 levels deep"),
    "nested-traversal": (lambda p: make_zip(p, {"lib.zip": zip_bytes({"../../evil.py": "x"})}), None,
                         "../../evil.py inside lib.zip points outside"),
    "nested-cumulative": (lambda p: make_zip(p, {"a.bin": os.urandom(MB // 2 + 1000),
                                                 "in.zip": zip_bytes({"b.bin": os.urandom(MB // 2)})},
                                             compression=zipfile.ZIP_STORED),
                          ArchiveCaps(max_total_mb=1.2), "more than 1.2 MB in total"),
    "nested-clash": (lambda p: make_zip(p, {"lib.zip": zip_bytes({"x.py": "1"}), "lib/y.py": "2"}), None,
                     "holds both lib.zip and a folder or file lib"),
}


@pytest.mark.parametrize("kind", sorted(HOSTILE))
def test_hostile_archive_is_refused_and_writes_nothing(box: Path, kind: str):
    build, caps, phrase = HOSTILE[kind]
    archive = build(box / "evil.zip")
    before = listing(box.parent)
    with pytest.raises(ArchiveRefused) as caught:
        safe_extract(archive, box / "out", caps or ArchiveCaps())
    message = str(caught.value)
    assert phrase in message
    assert message.startswith("evil.zip was refused: ") and message.endswith(".") and "\n" not in message
    assert listing(box.parent) == before


def test_good_archive_unpacks_drops_junk_and_keeps_times(box: Path):
    archive = make_zip(box / "sub.zip", {
        "player.py": "x = 1", "lib/": "", "lib/util.py": "y = 2", "__MACOSX/._player.py": "junk",
        ".DS_Store": "junk", "lib/Thumbs.db": "junk", "desktop.ini": "junk", "._util.py": "junk",
        "data.zip": zip_bytes({"table.txt": "1 2 3", "__MACOSX/x": "junk"}),
        "naïve.py": "z = 3",
    })
    files = safe_extract(archive, box / "out")
    assert files == ["data/table.txt", "lib/util.py", "naïve.py", "player.py"]
    assert listing(box / "out") == ["data", "data/table.txt", "lib", "lib/util.py", "naïve.py", "player.py"]
    assert (box / "out" / "player.py").read_text() == "x = 1"
    expected = time.mktime((2026, 11, 20, 14, 3, 0, 0, 0, -1))
    assert (box / "out" / "player.py").stat().st_mtime == expected
    assert sorted(p.name for p in box.iterdir()) == ["out", "sub.zip"]


def test_utf8_names_without_the_flag_are_accepted(box: Path):
    archive = raw_name_zip(box / "mac.zip", "hráč.py".encode())
    assert safe_extract(archive, box / "out") == ["hráč.py"]


def test_small_files_may_compress_well(box: Path):
    archive = make_zip(box / "ok.zip", {"zeros.txt": "0" * 500_000})
    assert safe_extract(archive, box / "out") == ["zeros.txt"]


def test_existing_nonempty_destination_is_not_overwritten(box: Path):
    archive = make_zip(box / "ok.zip", {"player.py": "x"})
    (box / "out").mkdir()
    (box / "out" / "keep.txt").write_text("mine")
    with pytest.raises(FileExistsError):
        safe_extract(archive, box / "out")
    assert listing(box / "out") == ["keep.txt"]


def test_inner_zips_kept_whole_when_asked(box: Path):
    archive = make_zip(box / "class.zip", {"alice/player.zip": zip_bytes({"../x.py": "bad"})})
    assert safe_extract(archive, box / "out", unpack_nested=False) == ["alice/player.zip"]


# copy_tree_safely --------------------------------------------------------------------------------

def student_folder(root: Path) -> Path:
    (root / "lib").mkdir(parents=True)
    (root / "player.py").write_text("x = 1")
    (root / "lib" / "util.py").write_text("y = 2")
    (root / ".DS_Store").write_text("junk")
    return root


def test_folder_copy_keeps_files_and_drops_junk(box: Path):
    src = student_folder(box / "alice")
    make_zip(src / "data.zip", {"t.txt": "1"})
    assert copy_tree_safely(src, box / "out") == ["data.zip", "lib/util.py", "player.py"]
    assert copy_tree_safely(src, box / "out2", unpack_zips=True) == ["data/t.txt", "lib/util.py", "player.py"]


@pytest.mark.parametrize("kind", ["link-out", "link-in", "fifo", "self-link", "too-many", "casefold"])
def test_hostile_folder_is_refused_and_writes_nothing(box: Path, tmp_path: Path, kind: str):
    src = student_folder(box / "alice")
    caps = ArchiveCaps()
    if kind == "link-out":
        (src / "secrets").symlink_to("/etc")
        phrase = "secrets is a symbolic link"
    elif kind == "link-in":
        (src / "lib" / "again.py").symlink_to(src / "player.py")
        phrase = "lib/again.py is a symbolic link"
    elif kind == "fifo":
        os.mkfifo(src / "pipe")
        phrase = "pipe is a device, fifo or socket"
    elif kind == "self-link":
        (box / "link").symlink_to(src)
        src = box / "link"
        phrase = "it is a symbolic link"
    elif kind == "too-many":
        caps = ArchiveCaps(max_files=1)
        phrase = "more than 1 files"
    else:
        (src / "Player.py").write_text("x = 2")
        phrase = "twice"
    before = listing(box)
    with pytest.raises(ArchiveRefused) as caught:
        copy_tree_safely(src, box / "out", caps)
    assert phrase in str(caught.value) and str(caught.value).endswith(".")
    assert listing(box) == before
