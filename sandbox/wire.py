"""The wire protocol between manager and child: 4-byte big-endian length, then UTF-8 JSON.

Both sides use this module so the framing is written once. Never pickle: a reply is data from
an untrusted process. `MEMORY_EXIT` is the exit status the child uses after a MemoryError.
"""
from __future__ import annotations

import json
import os
import struct

HEADER = struct.Struct(">I")
MEMORY_EXIT = 75            # EX_TEMPFAIL: the child hit MemoryError (RLIMIT_AS mode)


class WireError(Exception):
    """A message that breaks the protocol; str() is one sentence."""


def encode(obj) -> bytes:
    """One framed message."""
    body = json.dumps(obj, separators=(",", ":")).encode()
    return HEADER.pack(len(body)) + body


def decode(body: bytes):
    """The JSON value of one message body, or WireError."""
    try:
        return json.loads(body.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as exc:
        raise WireError(f"the reply is not JSON ({exc.__class__.__name__})") from None


def write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


def read_exact(fd: int, n: int) -> bytes | None:
    """Blocking read of exactly n bytes; None on EOF (the other side is gone)."""
    chunks, got = [], 0
    while got < n:
        chunk = os.read(fd, min(n - got, 1 << 20))
        if not chunk:
            return None
        chunks.append(chunk)
        got += len(chunk)
    return b"".join(chunks)


def read_message(fd: int):
    """Blocking read of one message (used by the trusted side's partner: the child)."""
    head = read_exact(fd, HEADER.size)
    if head is None:
        return None
    body = read_exact(fd, HEADER.unpack(head)[0])
    if body is None:
        return None
    return decode(body)


class FrameBuffer:
    """Incremental decoder for bytes arriving from an untrusted writer, with a size cap."""

    def __init__(self, max_bytes: int) -> None:
        self.max_bytes = max_bytes
        self.data = bytearray()

    def feed(self, chunk: bytes) -> None:
        self.data += chunk

    def expected(self) -> int | None:
        """Body length announced by the header, once it has arrived; WireError if too big."""
        if len(self.data) < HEADER.size:
            return None
        n = HEADER.unpack_from(self.data)[0]
        if n > self.max_bytes:
            raise WireError(f"the reply announces {n} bytes, more than the {self.max_bytes // 1024} KB allowed")
        return n

    def pop(self):
        """The next complete message's value, or None if incomplete."""
        n = self.expected()
        if n is None or len(self.data) < HEADER.size + n:
            return None
        body = bytes(self.data[HEADER.size:HEADER.size + n])
        del self.data[:HEADER.size + n]
        return (decode(body),)
