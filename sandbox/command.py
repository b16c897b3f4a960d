"""A program the sandboxed child runs in place of the Python shim: the last step of its bootstrap.

After every restriction is applied and the "ready" frame is written, the child `execve`s
`argv` (a JVM speaking the wire protocol on stdin/stdout, or a build tool). That exec is the
only one: seccomp still denies fork and every process-creating clone, and Landlock grants the
EXECUTE right only on `execute` (the program and its dynamic loader), so the program cannot
start anything else. `write` folders (a build's output) are the only writable paths, and
`fsize_mb` lifts RLIMIT_FSIZE for them. The manager side is sandbox.process.PlayerProcess
(`program=`), which also runs build programs to their end (`PlayerProcess.run`); the Command
travels to the child inside its sandbox.wire.ChildConfig.

`io` says what the program's stdin/stdout are: "frames" (the request and reply pipes, the wire
protocol: the Java shim), "lines" (the same pipes, one text line per message: a line-protocol
player, spoken to by a ruleset's `lines` adapter on the manager side), or "none" (a build:
stdin empty, stdout the captured output). A build may start processes (`processes`: the
compiler driver runs cc1plus, as, ld); the pids cgroup still bounds them, and only `execute`
paths may be executed.
"""
from __future__ import annotations

import os
import struct
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Command:
    argv: tuple[str, ...]
    execute: tuple[str, ...] = ()          # files with Landlock EXECUTE (argv[0] and its loader)
    read: tuple[str, ...] = ()             # extra read-only paths the program needs
    write: tuple[str, ...] = ()            # writable folders (builds only)
    env: dict[str, str] = field(default_factory=dict)
    io: str = "frames"                     # "frames", "lines" or "none" (see above)
    processes: bool = False                # may fork (builds only)
    address_space_mb: int | None = None    # RLIMIT_AS for it (a JVM reserves far more than it uses)
    fsize_mb: int = 0                      # largest file it may write
    nofile: int = 64

    def to_message(self) -> dict[str, Any]:
        """What the child is told (JSON); `from_message` reads it back."""
        return {"argv": list(self.argv), "execute": list(self.execute), "read": list(self.read),
                "write": list(self.write), "env": dict(self.env), "io": self.io, "processes": self.processes,
                "address_space_mb": self.address_space_mb, "fsize_mb": self.fsize_mb, "nofile": self.nofile}

    @classmethod
    def from_message(cls, msg: dict[str, Any]) -> Command:
        return cls(argv=tuple(msg["argv"]), execute=tuple(msg.get("execute", ())), read=tuple(msg.get("read", ())),
                   write=tuple(msg.get("write", ())), env=dict(msg.get("env") or {}), io=str(msg.get("io", "frames")),
                   processes=bool(msg.get("processes")), address_space_mb=msg.get("address_space_mb"),
                   fsize_mb=int(msg.get("fsize_mb", 0)), nofile=int(msg.get("nofile", 64)))


def loader_paths(executable: str) -> list[str]:
    """The ELF interpreter (PT_INTERP) of a 64-bit little-endian `executable`, resolved: the
    kernel opens it for execve, so it needs the EXECUTE right too. [] when there is none."""
    try:
        with open(executable, "rb") as f:
            head = f.read(64)
            if head[:6] != b"\x7fELF\x02\x01":
                return []
            phoff, = struct.unpack_from("<Q", head, 32)
            phentsize, phnum = struct.unpack_from("<HH", head, 54)
            for i in range(phnum):
                f.seek(phoff + i * phentsize)
                ph = f.read(phentsize)
                if struct.unpack_from("<I", ph, 0)[0] == 3:          # PT_INTERP
                    offset, = struct.unpack_from("<Q", ph, 8)
                    size, = struct.unpack_from("<Q", ph, 32)
                    f.seek(offset)
                    path = f.read(size).rstrip(b"\0").decode()
                    return [os.path.realpath(path)]
    except (OSError, struct.error, UnicodeDecodeError):
        return []
    return []


def exec_command(run: Command, req_fd: int, rep_fd: int, env: dict[str, str] | None = None) -> None:
    """In the restricted child: become the program (never returns). `env` is added to its own."""
    if run.io != "none":
        os.dup2(req_fd, 0)
        os.dup2(rep_fd, 1)
    else:
        null = os.open("/dev/null", os.O_RDONLY)
        os.dup2(null, 0)
        os.close(null)
    for fd in (req_fd, rep_fd):
        if fd > 2:
            os.close(fd)
    try:
        os.execve(run.argv[0], run.argv, {**run.env, **(env or {})})
    except OSError as exc:
        os.write(2, f"sandbox: could not start {run.argv[0]}: {exc.strerror}\n".encode())
        os._exit(127)
