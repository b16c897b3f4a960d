"""What the web app and every worker share: the service's folder, database, key and settings."""
from __future__ import annotations

import os
import secrets
from pathlib import Path

from ..assignment import load_assignments, load_checked_config
from .db import Database
from .practice import create_tables


def data_dir(config, base: Path) -> Path:
    """The service's folder, made (or kept) readable by the service's user only: it holds the
    uploaded code, the database of password hashes and the session key."""
    folder = (base / config.serve.data_dir).resolve()
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    os.chmod(folder, 0o700)
    return folder


def database_url(config, base: Path) -> str:
    return config.serve.database_url or f"sqlite:///{data_dir(config, base) / 'grader.sqlite'}"


class ServeContext:
    """What the web app and every worker read from the config: the serve settings, the data folder,
    the assignments and the database."""

    def __init__(self, config_path: str | Path) -> None:
        self.config_path = Path(config_path)
        config, base = load_checked_config(self.config_path)
        self.settings = config.serve
        self.data_dir = data_dir(config, base)
        self.assignments = load_assignments(self.config_path)
        self.db = Database(database_url(config, base))
        create_tables(self.db)                      # practice matches: tables of their own (practice.py)


def secret_key(folder: Path) -> str:
    """The session-signing key, made once and kept readable by this user only."""
    path = folder / "secret.key"
    if not path.exists():
        folder.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w") as f:
            f.write(secrets.token_urlsafe(48))
    return path.read_text().strip()


