"""Pre-forked player start: the manager's side of the fork servers in sandbox/zygote.py.

`PreforkPool` keeps one template process per shim (and course packages), started on first use and restarted
when it has died. `launch()` hands it a player's pipes by SCM_RIGHTS and gets back a
`ForkedChild`, which PlayerProcess drives exactly like its spawned child:

- signals go through a pidfd the template opened on its own unreaped child, so a signal can
  never reach a recycled pid. The player is alone in its session and process group (it calls
  setsid and seccomp forbids fork), so this is the killpg of the spawn path;
- the template reaps the child (only a parent can) and sends its wait status and rusage on a
  per-child status socket; EOF there without a report means the template died, and the
  orphan's status is then unknowable (reported as exit 0, like an unreapable spawned child);
- "stopped" is read from /proc (every thread in state T), since only a parent can wait for it.

When no template can be used (not Linux, no pidfd, a template that will not start) `launch`
returns None and PlayerProcess spawns as before.
"""
from __future__ import annotations

import atexit
import json
import os
import resource
import select
import signal
import socket
import subprocess
import sys
import threading
from typing import Any

from .interpreter import CHILD_ENV, PYTHON
from .player import Ended
from .wire import ChildConfig

REPLY_BYTES = 4096
START_S = 30.0                     # a template's imports (numpy) on a loaded machine
STOP_POLL_S = 0.0002


def available() -> str | None:
    """Why pre-forking cannot work on this host (None: it can)."""
    if os.environ.get("GRADER_SANDBOX", "") == "portable":
        return "GRADER_SANDBOX=portable: every player is spawned"
    if not sys.platform.startswith("linux"):
        return f"{sys.platform} has no fork server support here"
    if not hasattr(os, "pidfd_open") or not hasattr(signal, "pidfd_send_signal"):
        return "no pidfd support in this Python"
    return None


class Zygote:
    """One template process and the manager's end of its control socket."""

    def __init__(self, shim: str, python_path: tuple[str, ...] = ()) -> None:
        self.shim = shim
        self.sock, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        try:
            self.proc = subprocess.Popen(
                [*PYTHON, "-m", "sandbox.zygote",
                 json.dumps({"shim": shim, "python_path": list(python_path), "control_fd": theirs.fileno()})],
                stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                pass_fds=(theirs.fileno(),), close_fds=True, start_new_session=True, cwd="/",
                env=CHILD_ENV)
        finally:
            theirs.close()
        hello = self._answer(START_S)
        if "ready" not in hello:
            self.stop()
            raise OSError(hello.get("error", "the template did not start"))

    @property
    def pid(self) -> int:
        return self.proc.pid

    def alive(self) -> bool:
        return self.proc.poll() is None

    def fork(self, cfg: ChildConfig, fds: list[int]) -> tuple[int, int]:
        """(pid, pidfd) of a new child holding `fds`. BrokenPipeError/ConnectionError before
        the request was delivered (the descriptors are still only ours); OSError after."""
        socket.send_fds(self.sock, [json.dumps(cfg.to_message()).encode()], fds)
        pid, pidfd = self._answer(START_S, with_fd=True)
        return int(pid), int(pidfd)

    def _answer(self, timeout: float, with_fd: bool = False) -> Any:
        ready, _, _ = select.select([self.sock], [], [], timeout)
        if not ready:
            raise OSError("the template did not answer")
        msg, fds, _, _ = socket.recv_fds(self.sock, REPLY_BYTES, 1)
        if not msg:
            raise OSError("the template closed its control socket")
        reply = json.loads(msg)
        if not with_fd:
            return reply
        if "pid" not in reply or len(fds) != 1:
            for fd in fds:
                os.close(fd)
            raise OSError(reply.get("error", "the template's answer has no pid"))
        return reply["pid"], fds[0]

    def stop(self) -> None:
        """Hang up (the template exits at EOF, and its running children die with it), then reap it."""
        self.sock.close()
        try:
            self.proc.wait(2.0)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


class PreforkPool:
    """Fork servers by (shim, the course's packages), started on demand, replaced when dead.
    Thread-safe. A child pins itself to its CPU after the fork (sandbox/pinning.py), so one
    template serves every CPU."""

    def __init__(self) -> None:
        self.zygotes: dict[tuple[str, tuple[str, ...]], Zygote] = {}
        self.lock = threading.Lock()
        self.last_error = ""
        self.owner = os.getpid()

    def _forget_if_inherited(self) -> None:
        """After a fork of the manager, the copy must not talk on its parent's control sockets
        (their requests and answers would interleave): it starts templates of its own."""
        if os.getpid() != self.owner:
            self.zygotes, self.lock, self.owner = {}, threading.Lock(), os.getpid()

    def __enter__(self) -> PreforkPool:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def zygote(self, shim: str, python_path: tuple[str, ...] = ()) -> Zygote:
        """The live template for (shim, the course's packages), started (or restarted) if needed;
        OSError if it cannot start."""
        z = self.zygotes.get((shim, python_path))
        if z is not None and not z.alive():
            z.stop()
            z = None
        if z is None:
            z = self.zygotes[(shim, python_path)] = Zygote(shim, python_path)
        return z

    def fork(self, cfg: ChildConfig, fds: list[int]) -> ForkedChild | None:
        """A child forked for `cfg` holding `fds`, or None (the caller spawns instead)."""
        self._forget_if_inherited()
        with self.lock:
            key = (cfg.shim, tuple(cfg.python_path))
            status_mine, status_theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
            try:
                for _attempt in (1, 2):
                    try:
                        z = self.zygote(*key)
                        pid, pidfd = z.fork(cfg, [*fds, status_theirs.fileno()])
                        return ForkedChild(pid, pidfd, status_mine)
                    except (BrokenPipeError, ConnectionError) as exc:
                        self._drop(key, exc)       # died before it got the request: retry afresh
                    except OSError as exc:
                        self._drop(key, exc)       # a child may hold the pipes: no retry
                        break
            finally:
                status_theirs.close()
            status_mine.close()
            return None

    def _drop(self, key: tuple[str, tuple[str, ...]], exc: Exception) -> None:
        self.last_error = str(exc)
        z = self.zygotes.pop(key, None)
        if z is not None:
            z.stop()

    def close(self) -> None:
        self._forget_if_inherited()
        with self.lock:
            for z in self.zygotes.values():
                z.stop()
            self.zygotes.clear()


class ForkedChild:
    """A player forked by a template: what PlayerProcess needs of its child (see SpawnedChild)."""

    def __init__(self, pid: int, pidfd: int, status: socket.socket) -> None:
        self.pid = pid
        self.pidfd: int | None = pidfd
        self.status: socket.socket | None = status
        self.returncode: int | None = None
        try:                                       # read at every freeze: kept open (pread, ~1 µs)
            self.stat_fd: int | None = os.open(f"/proc/{pid}/stat", os.O_RDONLY | os.O_CLOEXEC)
        except OSError:
            self.stat_fd = None

    def signal_group(self, sig: Any) -> None:
        if self.pidfd is None:
            return
        try:
            signal.pidfd_send_signal(self.pidfd, sig)
        except (ProcessLookupError, PermissionError):
            pass

    def wait_stop(self) -> Ended | None:
        """None once every thread is stopped, (status, rusage) if the child ended first."""
        while True:
            if _stopped(self.pid, self.stat_fd):
                return None
            ended = self.wait_end(STOP_POLL_S)
            if ended is not None:
                return ended

    def wait_end(self, timeout: float | None) -> Ended | None:
        """(status, rusage) from the template once the child has ended; None after `timeout`."""
        if self.status is None:
            raise ChildProcessError("already collected")
        ready, _, _ = select.select([self.status], [], [], timeout)
        if not ready:
            return None
        msg = self.status.recv(REPLY_BYTES)
        if msg:
            report = json.loads(msg)
            return int(report["status"]), resource.struct_rusage(report["rusage"])
        # The template died: the orphan is init's to reap. Wait for it to end, status unknown.
        gone, _, _ = select.select([] if self.pidfd is None else [self.pidfd], [], [], timeout)
        if not gone:
            return None
        self.release()
        raise ChildProcessError("the template that forked the player died")

    def release(self) -> None:
        """Close the pidfd and the status socket (the child has been collected)."""
        if self.pidfd is not None:
            os.close(self.pidfd)
            self.pidfd = None
        if self.status is not None:
            self.status.close()
            self.status = None
        if getattr(self, "stat_fd", None) is not None:
            assert self.stat_fd is not None
            os.close(self.stat_fd)
            self.stat_fd = None

    def __del__(self) -> None:
        self.release()


def _stat_fields(path: str, fd: int | None = None) -> list[bytes]:
    """The fields of a /proc stat file (or of its open descriptor `fd`) after the command name
    ([] when unreadable)."""
    try:
        if fd is not None:
            return os.pread(fd, 1024, 0).rsplit(b")", 1)[1].split()
        with open(path, "rb") as f:
            return f.read().rsplit(b")", 1)[1].split()
    except (OSError, IndexError):
        return []


def _stopped(pid: int, fd: int | None = None) -> bool:
    """Every thread of `pid` is in state T (a lone main thread is read from one file, `fd` when open)."""
    fields = _stat_fields(f"/proc/{pid}/stat", fd)
    if not fields or fields[0] not in (b"T", b"t", b"Z"):
        return False
    if fields[17] == b"1":                        # num_threads
        return fields[0] != b"Z"
    try:
        tids = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return False
    states = [(_stat_fields(f"/proc/{pid}/task/{tid}/stat") or [b"X"])[0] for tid in tids]
    return any(s in (b"T", b"t") for s in states) and all(s in (b"T", b"t", b"Z") for s in states)


_shared: PreforkPool | None = None
_shared_lock = threading.Lock()


def shared_pool() -> PreforkPool:
    """The process-wide pool `PlayerProcess(..., prefork=True)` uses (closed at exit)."""
    global _shared
    with _shared_lock:
        if _shared is None:
            _shared = PreforkPool()
            atexit.register(_shared.close)
        return _shared


def forget_inherited() -> None:
    """In a forked manager (the upload service's bounded job, grader/serve/upload_job.py): its parent's
    templates are not its children, so they would neither die with it nor be its to use; it starts its own."""
    global _shared, _shared_lock
    _shared, _shared_lock = None, threading.Lock()


def launch(prefork: PreforkPool | bool, cfg: ChildConfig, req_r: int, rep_w: int, out_w: int) -> ForkedChild | None:
    """PlayerProcess's entry: a forked child for `cfg`, or None to spawn instead."""
    if available() is not None:
        return None
    pool = prefork if isinstance(prefork, PreforkPool) else shared_pool()
    return pool.fork(cfg, [req_r, rep_w, out_w])
