"""The wire protocol between manager and child: 4-byte big-endian length, then UTF-8 JSON.

Both sides use this module so the framing is written once. Never pickle: a reply is data from
an untrusted process. A player can write any bytes to its reply pipe (bypassing the shim), so the
manager decodes replies with `decode_reply`: bounded size (FrameBuffer), nesting depth, number
sizes and text, every failure a WireError with one sentence. `MEMORY_EXIT` is the exit status
the child uses after a MemoryError. `ChildConfig` is the first message: what the child is told
about itself (the same record in the spawned, pre-forked and portable children).
"""
from __future__ import annotations

import json
import math
import os
import re
import struct
from dataclasses import asdict, dataclass, field, replace
from typing import Any

from .command import Command

HEADER = struct.Struct(">I")
MEMORY_EXIT = 75            # EX_TEMPFAIL: the child hit MemoryError (RLIMIT_AS mode)
MAX_DEPTH = 32              # nesting of arrays and objects in a reply (the games need 5)
MAX_INT = 2 ** 63           # integers in a reply stay below this in absolute value
# A whole string (or an unclosed one: to the end, so each byte is scanned once), or one bracket.
_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"?|[\[\]{}]')
_SURROGATE = re.compile(r"\\u[dD][89a-fA-F]")
_LONG_INT = re.compile(r"\d{19}")


class WireError(Exception):
    """A message that breaks the protocol; str() is one sentence."""


@dataclass
class ChildConfig:
    """Everything the child needs to restrict itself and open the submission, from the trusted
    manager (never on argv, where the player could read it). `uid_missing` and
    `pid_namespace_missing` say why a layer could not be given (None: it was)."""

    shim: str
    submission: str = ""
    request_fd: int = -1                     # set by the child: the descriptors it was given
    reply_fd: int = -1
    cgroup_procs: list[str] = field(default_factory=list)   # cgroup.procs files to join
    cgroup_dir: str | None = None            # a cgroup v2 directory to be created in (CLONE_INTO_CGROUP)
    address_space_mb: int = 0                # RLIMIT_AS
    cpu: int | None = None                   # core to pin to
    netns: bool = True                       # a network namespace of its own (root only)
    read_paths: list[str] = field(default_factory=list)
    python_path: list[str] = field(default_factory=list)    # the course's packages, ahead of site-packages
    readable_until_first_reply: list[str] = field(default_factory=list)
    uid: int | None = None                   # the box's uid (sandbox/box.py)
    uid_missing: str | None = None
    pid_namespace_missing: str | None = None
    exec: Command | None = None              # a program to become after the ready frame

    def to_message(self) -> dict[str, Any]:
        """The JSON form sent to the child."""
        msg = asdict(replace(self, exec=None))
        msg["exec"] = self.exec.to_message() if self.exec is not None else None
        return msg

    @classmethod
    def from_message(cls, msg: object, **given: Any) -> ChildConfig:
        """The record `to_message` made (`given`: fields the receiver knows better, its descriptors);
        WireError when it is not one."""
        if not isinstance(msg, dict) or not isinstance(msg.get("shim"), str):
            raise WireError("the child's configuration is not a ChildConfig message")
        known = {k: v for k, v in msg.items() if k in cls.__dataclass_fields__}
        run = known.pop("exec", None)
        return cls(**{**known, **given}, exec=Command.from_message(run) if isinstance(run, dict) else None)


def encode(obj: Any) -> bytes:
    """One framed message."""
    body = json.dumps(obj, separators=(",", ":")).encode()
    return HEADER.pack(len(body)) + body


def decode(body: bytes) -> Any:
    """The JSON value of one message body from the trusted side (the manager's requests), or WireError."""
    try:
        return json.loads(body.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as exc:
        raise WireError(f"the reply is not JSON ({exc.__class__.__name__})") from None


def decode_reply(body: bytes) -> Any:
    """The JSON value of one message body from the untrusted side, or WireError.

    Bounded before and after parsing: at most MAX_DEPTH levels of nesting (checked on the text,
    so a 30 000-deep array never reaches the recursive parser), no NaN or infinite numbers,
    integers below MAX_INT, and text that is valid Unicode (a lone surrogate becomes U+FFFD, so
    the value can always be printed, stored and encoded again)."""
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError:
        raise WireError("the reply is not UTF-8 text") from None
    if too_deep(text, MAX_DEPTH):
        raise WireError(f"the reply is nested more than {MAX_DEPTH} levels deep")
    try:
        value = json.loads(text, parse_constant=_refuse_constant, parse_float=_float)
    except _Refused as exc:
        raise WireError(str(exc)) from None
    except (ValueError, RecursionError, MemoryError) as exc:
        raise WireError(f"the reply is not JSON ({exc.__class__.__name__})") from None
    return _checked(value) if _SURROGATE.search(text) or _LONG_INT.search(text) else value


def too_deep(text: str, limit: int) -> bool:
    """True when the JSON text nests arrays/objects more than `limit` deep (brackets inside
    strings do not count); stops at the first bracket beyond the limit. Linear in the text: a
    string token that never closes runs to the end instead of being retried at every quote."""
    if text.count("[") + text.count("{") <= limit:
        return False
    depth = 0
    for token in _TOKEN.finditer(text):
        ch = text[token.start()]
        if ch in "[{":
            depth += 1
            if depth > limit:
                return True
        elif ch != '"':
            depth -= 1
    return False


class _Refused(ValueError):
    """A number the reply may not hold (the message is the WireError's sentence)."""


def _refuse_constant(name: str) -> float:
    raise _Refused(f"the reply holds {name}, which is not a JSON number")


def _float(digits: str) -> float:
    value = float(digits)
    if not math.isfinite(value):
        raise _Refused("the reply holds a number too large to be finite")
    return value


def _checked(value: Any) -> Any:
    """`value` with its integers bounded and every text (keys too) made valid Unicode: JSON's
    \\ud800 escapes can name lone surrogates, which could not be printed, stored or encoded again.
    Walked with its own stack; only called when the text holds a long number or such an escape."""
    root = [value]
    stack: list[tuple[Any, Any]] = [(root, 0)]
    while stack:
        holder, key = stack.pop()
        v = holder[key]
        if isinstance(v, str):
            holder[key] = _text(v)
        elif isinstance(v, int) and not -MAX_INT < v < MAX_INT:
            raise WireError("the reply holds an integer too large to be a move or an answer")
        elif isinstance(v, list):
            stack.extend((v, i) for i in range(len(v)))
        elif isinstance(v, dict):
            if any(not _valid_text(k) for k in v):
                fixed = {_text(k): item for k, item in v.items()}
                v.clear()
                v.update(fixed)
            stack.extend((v, k) for k in v)
    return root[0]


def _valid_text(s: str) -> bool:
    try:
        s.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _text(s: str) -> str:
    return s if _valid_text(s) else s.encode("utf-8", "surrogatepass").decode("utf-8", "replace")


def write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


def read_exact(fd: int, n: int) -> bytes | None:
    """Blocking read of exactly n bytes; None on EOF (the other side is gone)."""
    chunks: list[bytes] = []
    got = 0
    while got < n:
        chunk = os.read(fd, min(n - got, 1 << 20))
        if not chunk:
            return None
        chunks.append(chunk)
        got += len(chunk)
    return b"".join(chunks)


def read_message(fd: int) -> Any:
    """Blocking read of one message (used by the trusted side's partner: the child)."""
    head = read_exact(fd, HEADER.size)
    if head is None:
        return None
    body = read_exact(fd, HEADER.unpack(head)[0])
    if body is None:
        return None
    return decode(body)


class FrameBuffer:
    """Incremental decoder for bytes arriving from an untrusted writer, with a size cap
    (each body decoded with `decode_reply`)."""

    def __init__(self, max_bytes: int) -> None:
        self.max_bytes = max_bytes
        self.data = bytearray()

    def feed(self, chunk: bytes) -> None:
        self.data += chunk

    def expected(self) -> int | None:
        """Body length announced by the header, once it has arrived; WireError if too big."""
        if len(self.data) < HEADER.size:
            return None
        n: int = HEADER.unpack_from(self.data)[0]
        if n > self.max_bytes:
            raise WireError(f"the reply announces {n} bytes, more than the {self.max_bytes // 1024} KB allowed")
        return n

    def pop(self) -> tuple[Any] | None:
        """The next complete message's value (in a 1-tuple, as a reply may be null), or None if incomplete."""
        n = self.expected()
        if n is None or len(self.data) < HEADER.size + n:
            return None
        body = bytes(self.data[HEADER.size:HEADER.size + n])
        del self.data[:HEADER.size + n]
        return (decode_reply(body),)
