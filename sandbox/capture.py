"""Draining a child's stdout+stderr pipe in a thread, so the child never blocks on output.

Keeps the first `keep_bytes` and counts (and drops) the rest.
"""
from __future__ import annotations

import os
import threading


class OutputCapture:
    def __init__(self, fd: int, keep_bytes: int, name: str = "player") -> None:
        self.fd = fd
        self.keep_bytes = keep_bytes
        self.kept = bytearray()
        self.dropped = 0
        self.thread = threading.Thread(target=self._drain, name=f"output-{name}", daemon=True)
        self.thread.start()

    def _drain(self) -> None:
        try:
            while True:
                chunk = os.read(self.fd, 1 << 16)
                if not chunk:
                    return
                room = self.keep_bytes - len(self.kept)
                if room > 0:
                    self.kept += chunk[:room]
                self.dropped += max(0, len(chunk) - max(room, 0))
        except OSError:
            return
        finally:
            os.close(self.fd)

    def finish(self, timeout: float = 2.0) -> None:
        """Wait for EOF (the child and all its copies of the pipe are gone)."""
        self.thread.join(timeout)

    @property
    def text(self) -> str:
        return self.kept.decode("utf-8", errors="replace")
