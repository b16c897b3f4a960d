"""The portable sandbox: PlayerProcess where the Linux layers are absent (macOS, Windows) or are
switched off with GRADER_SANDBOX=portable (how this project's tests reach this path on Linux).

The calls, limits and verdicts are PlayerProcess's own; only the process handling differs, and
only what every platform offers through psutil protects the machine: wall-clock limits per call,
a memory watch that kills the player above its limit (polled, so a fast allocation may overshoot
for a moment), and suspend/resume between calls. There is no filesystem, network or process
restriction, and `protections()` says so. Imports nothing Linux-only (no fcntl, resource, prctl,
pidfd or seccomp): the child is sandbox/portable_child.py.
"""
from __future__ import annotations

import json
import os
import platform
import queue
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from types import SimpleNamespace
from typing import Any

import psutil

from . import blame, wire
from .capture import OutputCapture
from .interpreter import CHILD_ENV, PYTHON
from .limits import Limits
from .player import Ended
from .process import PlayerProcess
from .verdict import CallResult, ProcessReport, Verdict
from .wire import ChildConfig

ENV_VAR = "GRADER_SANDBOX"
WATCH_S = 0.02                     # memory watch period while the player runs
CHILDREN_S = 0.5                   # how often the processes it started are looked for (a scan of all)


def forced() -> bool:
    """GRADER_SANDBOX=portable: use this sandbox even on Linux."""
    return os.environ.get(ENV_VAR, "") == "portable"


def wanted() -> bool:
    """Whether players run in the portable sandbox: not Linux, or forced."""
    return not sys.platform.startswith("linux") or forced()


def protections(limits: Limits | None = None) -> dict[str, str]:
    """What this sandbox applies, in the words `grader doctor` and `grader check` print."""
    limits = limits or Limits()
    why = f"{ENV_VAR}=portable" if sys.platform.startswith("linux") else f"{platform.system()} has no Linux layers"
    return {
        "sandbox": f"portable ({why}); the server's Linux sandbox is stricter",
        "time": (f"{'CPU time (psutil)' if limits.clock == 'cpu' else 'wall-clock'} limit per call, "
                 "late after the soft limit, killed at the hard one or the wall-clock backstop"),
        "memory": f"psutil watch every {WATCH_S * 1000:g} ms: killed above {limits.memory_mb} MB",
        "freeze": "psutil suspend/resume of the player between its calls",
        "filesystem": "missing: no filesystem restriction (the player can read and write your files)",
        "network": "missing: no network restriction",
        "processes": "missing: the player may start processes (they are killed with it)",
        "first_turn": "missing: not enforced for this user (the portable sandbox restricts no file)",
        "self_tuning": blame.self_tuning_row("missing: no seccomp in the portable sandbox", "missing"),
        "blame": blame.RULE,
    }


def _status(returncode: int) -> int:
    """A POSIX-style wait status from Popen's returncode, which is what PlayerProcess reads."""
    if returncode < 0:
        return -returncode                                  # killed by a signal (not on Windows)
    return (returncode if returncode < 1 << 23 else 255) << 8   # a Windows NTSTATUS does not fit


class PortableChild(subprocess.Popen[bytes]):
    """The player process, driven through psutil; the methods PlayerProcess calls on its child.
    A thread watches its memory (with its children's) while it runs and kills it above the limit.
    Finding children means reading every process on the machine, so the watch does it every
    CHILDREN_S and suspension uses that list; killing looks afresh."""

    def __init__(self, args: list[str], memory_mb: int, **kw: Any) -> None:
        super().__init__(args, **kw)
        self.memory_mb = memory_mb
        self.peak_mb = 0.0
        self.cpu = (0.0, 0.0)
        self.over_memory = False
        self.suspended = False
        self.children: list[psutil.Process] = []
        self.done = threading.Event()
        self.ps: psutil.Process | None
        try:
            self.ps = psutil.Process(self.pid)
        except psutil.Error:
            self.ps = None
        threading.Thread(target=self._watch, name=f"memory-{self.pid}", daemon=True).start()

    def _tree(self, fresh: bool = False) -> list[psutil.Process]:
        """The player and the processes it started (looked for now when `fresh`)."""
        if self.ps is None:
            return []
        if fresh:
            try:
                self.children = self.ps.children(recursive=True)
            except psutil.Error:
                pass
        return [self.ps, *self.children]

    def cpu_s(self) -> float:
        """User+system CPU seconds of the player so far (the last known figure once it has ended)."""
        try:
            if self.ps is not None:
                t = self.ps.cpu_times()
                self.cpu = (t.user, t.system)
        except psutil.Error:
            pass
        return sum(self.cpu)

    def _measure(self, fresh: bool) -> float:
        """Resident MB of the player and its children; remembers the peak and the CPU time."""
        rss = 0
        for p in self._tree(fresh):
            try:
                rss += p.memory_info().rss
            except psutil.Error:
                pass
        self.cpu_s()
        self.peak_mb = max(self.peak_mb, rss / 2**20)
        return rss / 2**20

    def _watch(self) -> None:
        rescan = 0.0
        while not self.done.wait(WATCH_S):
            if self.suspended:
                continue
            fresh = time.monotonic() >= rescan
            rescan = time.monotonic() + CHILDREN_S if fresh else rescan
            if self._measure(fresh) > self.memory_mb:
                self.over_memory = True
                self.signal_group(PortableChild.KILL)
                return

    KILL, STOP, CONT = "SIGKILL", "SIGSTOP", "SIGCONT"

    def signal_group(self, sig: Any) -> None:
        """SIGSTOP, SIGCONT or SIGKILL (or their names, which is all Windows has) to the player and
        its children."""
        name = sig if isinstance(sig, str) else signal.Signals(sig).name
        tree = self._tree(fresh=name == "SIGKILL")
        for p in tree:
            try:
                if name == "SIGSTOP":
                    p.suspend()
                elif name == "SIGCONT":
                    p.resume()
                else:
                    p.kill()
            except psutil.Error:
                pass
        self.suspended = name == "SIGSTOP"

    def wait_stop(self) -> Ended | None:
        """None once suspended, (status, rusage) if it has ended. Windows suspends synchronously; a
        POSIX SIGSTOP takes effect a moment later, so its state is polled (for at most a second)."""
        deadline = time.perf_counter() + 1.0
        while self.poll() is None:
            try:
                if sys.platform == "win32" or (self.ps is not None and self.ps.status() == psutil.STATUS_STOPPED):
                    return None
            except psutil.Error:
                pass
            if time.perf_counter() > deadline:
                return None
            time.sleep(0.0002)
        return self._ended()

    def wait_end(self, timeout: float | None) -> Ended | None:
        try:
            self.wait(timeout)
        except subprocess.TimeoutExpired:
            return None
        return self._ended()

    def _ended(self) -> Ended:
        self.done.set()
        usage = SimpleNamespace(ru_maxrss=self.peak_mb * 1024, ru_utime=self.cpu[0], ru_stime=self.cpu[1])
        return _status(self.returncode if self.returncode is not None else 0), usage

    def release(self) -> None:
        self.done.set()


PYTHON_ONLY = ("The portable sandbox runs Python players only: programs (a build, a Java, C, C++ or Rust player) "
               "are built and run in the Linux sandbox, so this machine cannot run this one; the submission is "
               "not at fault.")


class PortablePlayerProcess(PlayerProcess):
    """PlayerProcess in the portable sandbox (`prefork` is ignored: every player is spawned). Its child
    imports a Python shim; a program to execute (a build, a JVM) is refused in one sentence (INFRA: the
    host's limit, never the student's fault), from `start` and `run` alike."""

    def _launch(self) -> CallResult | None:
        if self.program is not None:
            self.death = CallResult(Verdict.INFRA, message=PYTHON_ONLY)
            return self.death
        lim = self.limits
        self.protections.update(memory=f"psutil watch: killed above {lim.memory_mb} MB",
                                freeze="psutil suspend between calls" if lim.freeze else "off",
                                output=f"stdout+stderr captured, {lim.output_kb} KB kept")
        req_r, self.req_w = os.pipe()
        rep_r, rep_w = os.pipe()
        out_r, out_w = os.pipe()
        cfg = ChildConfig(self.shim, self.submission, python_path=list(lim.python_path),
                          readable_until_first_reply=list(lim.readable_until_first_reply))
        env = dict(CHILD_ENV, **{k: os.environ[k] for k in ("SYSTEMROOT", "SystemRoot") if k in os.environ})
        if sys.platform == "win32":
            env["PATH"] = os.path.dirname(sys.executable)
            session = {"creationflags": subprocess.CREATE_NEW_PROCESS_GROUP}
        else:
            session = {"start_new_session": True}
        self.t_spawn = time.perf_counter()
        self.started_by = "spawn"
        try:
            self.proc = PortableChild([*PYTHON, "-m", "sandbox.portable_child", json.dumps(cfg.to_message())],
                                      lim.memory_mb, stdin=req_r, stdout=rep_w, stderr=out_w,
                                      cwd=self.submission, env=env, **session)
        except OSError as exc:
            for fd in (self.req_w, rep_r, out_r):
                os.close(fd)
            self.req_w = None
            self.death = CallResult(Verdict.CRASHED, message=f"The player process could not be started: {exc}.")
            return self.death
        finally:
            for fd in (req_r, rep_w, out_w):
                os.close(fd)
        self.replies: queue.Queue[bytes] = queue.Queue()
        self.reply_eof = False
        threading.Thread(target=self._drain_replies, args=(rep_r,), name=f"replies-{self.name}", daemon=True).start()
        self.output = OutputCapture(out_r, lim.output_kb * 1024, self.name)
        return None

    def _drain_replies(self, fd: int) -> None:
        """Pipes cannot be polled on Windows: a thread reads the reply pipe (and closes it at EOF)."""
        try:
            while chunk := os.read(fd, 1 << 16):
                self.replies.put(chunk)
        except OSError:
            pass
        finally:
            os.close(fd)
            self.replies.put(b"")

    def _read_reply(self, timeout: float) -> bytes | None:
        if self.reply_eof:
            return b""
        try:
            chunk = self.replies.get(timeout=timeout) if timeout > 0 else self.replies.get_nowait()
        except queue.Empty:
            return None
        self.reply_eof = not chunk
        return chunk

    def _prewrite(self, data: bytes) -> bytes:
        return data                         # its pipe blocks: all of it goes through `_send`'s thread

    def _send(self, data: bytes, left: Callable[[], float]) -> bool:
        """Write in a thread, so a player that does not read cannot block the manager past the call's limit."""
        sent = threading.Event()

        def write() -> None:
            try:
                wire.write_all(self.req_w, data)   # type: ignore[arg-type]  # open while the player lives
            except OSError:
                pass                        # the child is gone: the read loop sees EOF
            finally:
                sent.set()
        threading.Thread(target=write, name=f"request-{self.name}", daemon=True).start()
        while not sent.wait(max(0.0, left())):
            if left() <= 0:
                return False
        return True

    def close(self) -> ProcessReport:
        """PlayerProcess.close, then the processes the player started and left running are killed."""
        child = self.proc if isinstance(self.proc, PortableChild) else None
        leftovers = child._tree(fresh=True)[1:] if self.report is None and child is not None else []
        if child is not None and self.report is None:
            child._measure(fresh=False)     # one sample while it lives: on a busy machine the watcher may have had none
        report = super().close()
        for p in leftovers:
            try:
                p.kill()
            except psutil.Error:
                pass
        return report

    def _over_memory(self) -> bool:
        return isinstance(self.proc, PortableChild) and self.proc.over_memory

    def _cpu_s(self) -> float:
        return self.proc.cpu_s() if isinstance(self.proc, PortableChild) else 0.0
