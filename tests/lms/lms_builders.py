"""Builders for the archives and downloads the LMS and archive tests feed in (imported by name:
tests run with --import-mode=importlib, so conftest.py puts this folder on sys.path)."""
from __future__ import annotations

import io
import stat
import zipfile
from pathlib import Path


def make_zip(path: Path, entries: dict[str, bytes | str], *, compression=zipfile.ZIP_DEFLATED,
             date_time=(2026, 11, 20, 14, 3, 0)) -> Path:
    """A zip holding `entries` (name -> content; a name ending in / is a folder)."""
    with zipfile.ZipFile(path, "w", compression) as zf:
        for name, data in entries.items():
            info = zipfile.ZipInfo(name, date_time=date_time)
            info.compress_type = compression
            if name.endswith("/"):
                info.external_attr = (stat.S_IFDIR | 0o755) << 16
            zf.writestr(info, data)
    return path


def zip_bytes(entries: dict[str, bytes | str]) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, data in entries.items():
            zf.writestr(zipfile.ZipInfo(name, date_time=(2026, 11, 20, 14, 3, 0)), data)
    return buf.getvalue()


def listing(folder: Path) -> list[str]:
    """Every path under `folder` (files and folders, hidden ones too), sorted."""
    return sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*"))

