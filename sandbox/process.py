"""PlayerProcess: one restricted child process, one call at a time, verdicts instead of exceptions.

The manager side never imports student code. It spawns `python -s -P -m sandbox.child` (or has a
pre-fork template fork one, sandbox/prefork.py), speaks length-prefixed JSON over two dedicated
pipes, freezes the process between calls (SIGSTOP/SIGCONT), enforces soft/hard limits on the
player's CPU time with a wall-clock backstop (or on wall-clock time: `Limits.clock`), and turns
every way a player can fail into a `Verdict`. See sandbox/child.py for what the child applies
to itself.
"""
from __future__ import annotations

import logging
import os
import select
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING

from . import host, seeding, wire
from .capture import OutputCapture
from .cgroup import PlayerCgroup
from .cputime import CpuMeter
from .limits import Budget, Limits, kill_sentence, late_sentence
from .verdict import CallResult, ProcessReport, Verdict

if TYPE_CHECKING:
    from . import box  # Linux only; imported where a player starts

log = logging.getLogger(__name__)

CHILD_ENV = {"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "MALLOC_ARENA_MAX": "1",
             "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1",
             "PYTHONHASHSEED": seeding.HASH_SEED}
# `python -I` less its -E: no user site (-s), no script folder on sys.path (-P), and the
# environment is CHILD_ENV alone, so its PYTHONHASHSEED fixes the string hash seed.
PYTHON = (sys.executable, "-s", "-P")
REQUEST_CAP = 256 * 1024 * 1024      # what the child accepts from the trusted manager
EXIT_GRACE_S = 0.5                   # after EOF or at close: time to exit on its own
# Windows has none of these signals; its child objects (sandbox/portable.py) take the names
STOP, CONT, KILL = (getattr(signal, name, name) for name in ("SIGSTOP", "SIGCONT", "SIGKILL"))


class _CallTimer:
    """One call's budget, and when and at what CPU reading it began."""

    def __init__(self, budget: Budget, start: float, cpu0: float) -> None:
        self.budget, self.start, self.cpu0 = budget, start, cpu0


def describe_status(status: int) -> str:
    code = os.waitstatus_to_exitcode(status)
    return f"signal {signal.Signals(-code).name}" if code < 0 else f"exit {code}"


class SpawnedChild(subprocess.Popen):
    """The spawn path's child: the manager's own child, signalled through its process group
    (its own session) and reaped with wait4. sandbox.prefork.ForkedChild has the same methods."""

    def release(self) -> None:
        """Nothing to let go of: the manager reaped its own child."""

    def signal_group(self, sig: int) -> None:
        try:
            os.killpg(self.pid, sig)
        except (ProcessLookupError, PermissionError):
            pass

    def wait_stop(self):
        """Block until the child is stopped (None) or has ended ((status, rusage)).
        ChildProcessError when it cannot be waited for."""
        pid, status, rusage = os.wait4(self.pid, os.WUNTRACED)
        return None if os.WIFSTOPPED(status) else (status, rusage)

    def wait_end(self, timeout: float | None):
        """(status, rusage) once the child has ended; None if it still runs after `timeout`
        seconds (None: no limit). ChildProcessError when it cannot be waited for."""
        end = None if timeout is None else time.perf_counter() + timeout
        while True:
            pid, status, rusage = os.wait4(self.pid, 0 if end is None else os.WNOHANG)
            if pid and (os.WIFEXITED(status) or os.WIFSIGNALED(status)):
                return status, rusage
            if end is not None:
                if time.perf_counter() >= end:
                    return None
                time.sleep(0.005)


def spawn_child(cfg: dict, req_r: int, rep_w: int, out_w: int) -> SpawnedChild:
    """`python -s -P -m sandbox.child <request fd> <reply fd>`, as root pid 1 of a new pid namespace."""
    argv = [*PYTHON, "-m", "sandbox.child", str(req_r), str(rep_w)]
    kwargs = dict(stdin=subprocess.DEVNULL, stdout=out_w, stderr=out_w, pass_fds=(req_r, rep_w),
                  close_fds=True, start_new_session=True, cwd="/", env=CHILD_ENV)
    if host.pid_namespace_reason() is not None or os.geteuid() != 0:
        cfg["pid_namespace_missing"] = host.pid_namespace_reason() or \
            "not root: only a pre-forked player gets a pid namespace (in a user namespace)"
        return SpawnedChild(argv, **kwargs)
    from .confine import in_new_pid_namespace
    child, cfg["pid_namespace_missing"] = in_new_pid_namespace(lambda: SpawnedChild(argv, **kwargs))
    return child


class PlayerProcess:
    """A sandboxed player. Nothing the player does raises here: every call returns a CallResult.

    `prefork`: a sandbox.prefork.PreforkPool (or True for the shared one) to fork the child from
    a template that has already imported the shim; the spawn path is used when it cannot.
    `seed`: seeds `random` (and NumPy's global generator when the shim has imported it) before
    the submission is opened, so a game replayed with its seed meets the same random choices."""

    def __init__(self, shim: str, submission: str | Path, limits: Limits,
                 options: dict | None = None, name: str = "player", prefork=None,
                 seed: int | None = None, program=None, lines=None) -> None:
        self.shim = shim
        self.submission = str(Path(submission).resolve())
        self.limits = limits
        self.options = options or {}
        self.name = name
        self.prefork = prefork
        self.seed = seed
        self.program = program                  # sandbox.program.Program: exec it after restricting
        self.lines = lines                      # a line-protocol program's adapter: call(proc, method, args, soft)
        self.proc = None                        # SpawnedChild or sandbox.prefork.ForkedChild
        self.started_by = ""                    # "spawn" or "prefork" once started
        self.cgroup: PlayerCgroup | None = None
        self.slot: box.Slot | None = None       # the box: this player's own uid, while it lives
        self.output: OutputCapture | None = None
        self.status: int | None = None          # wait status once reaped
        self.rusage = None
        self.death: CallResult | None = None    # the fatal result, repeated to later calls
        self.frozen = False
        self.killed_by_manager = False
        self.protections: dict[str, str] = {}
        self.report: ProcessReport | None = None
        self.seq = 0                            # id of the last request; its reply must echo it
        self.first_turn_open = bool(limits.readable_until_first_reply)   # hidden after the first move
        self.meter: CpuMeter | None = None      # reads the child's CPU time (sandbox/cputime.py)
        self.cpu_seen = 0.0                     # the last CPU reading, in seconds

    # ----------------------------------------------------------------- lifecycle
    @property
    def alive(self) -> bool:
        return self.proc is not None and self.status is None and self.death is None

    def __enter__(self) -> PlayerProcess:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def start(self) -> CallResult:
        """Spawn the child, let it restrict itself and open the submission (limit: start_s)."""
        if self.proc is not None:
            return CallResult(Verdict.PROTOCOL, message="start() was already called.")
        failed = self._launch()
        if failed is not None:
            return failed
        if self.lines is not None:
            return self._ready_only()
        return self._exchange({"open": self.options, "seed": self.seed}, self.limits.start_s, t0=self.t_spawn,
                              ready=True)

    def _ready_only(self) -> CallResult:
        """A line-protocol program: the sandbox's ready frame, then the program's own lines."""
        frames = wire.FrameBuffer(self.limits.message_kb * 1024)
        got = self._receive(frames, _CallTimer(self.limits.budget(self.limits.start_s), self.t_spawn, 0.0))
        if isinstance(got, CallResult):
            return got
        if not (isinstance(got, dict) and isinstance(got.get("ready"), dict)):
            return self._fail(Verdict.PROTOCOL, "The player's first message is not the sandbox's ready report.")
        self.protections.update({str(k): str(v) for k, v in got["ready"].items()})
        self.pending_lines = bytearray(frames.data)        # what the program wrote already, if anything
        self._freeze()
        return CallResult(Verdict.OK, None, "", time.perf_counter() - self.t_spawn)

    def exchange_line(self, lines: list[str], soft: float) -> CallResult:
        """Write `lines` to a line-protocol program's stdin and read one line back (its value),
        within soft/hard limits; the program is frozen again afterwards."""
        from .program import LineBuffer
        if not self.alive:
            return self._repeat_death()
        budget = self.limits.budget(soft)
        buf = LineBuffer(self.limits.message_kb * 1024)
        buf.feed(bytes(self.pending_lines))
        self.pending_lines = bytearray()
        cpu0 = self._cpu_s()
        self._thaw()
        start = time.perf_counter()
        timer = _CallTimer(budget, start, cpu0)
        data = "".join(line + "\n" for line in lines).encode()
        if data and not self._send(data, start + budget.wall):
            return self._timeout(timer)
        got = self._receive(buf, timer)
        if isinstance(got, CallResult):
            return got
        wall = time.perf_counter() - start
        cpu = max(0.0, self._cpu_s() - cpu0)
        self.pending_lines = bytearray(buf.data)
        self._freeze()
        late = late_sentence(budget, wall, cpu)
        if late:
            return CallResult(Verdict.LATE, got, late, wall, cpu)
        return CallResult(Verdict.OK, got, "", wall, cpu)

    def _launch(self) -> CallResult | None:
        """Spawn (or fork) the child with its pipes and capture; the fatal result if it failed."""
        from . import box  # Linux only: the portable sandbox has its own start

        lim = self.limits
        uid_missing = host.uid_reason() or box.unreadable_reason(self.submission)
        if uid_missing is None:
            try:
                self.slot = box.acquire()
            except OSError as exc:
                uid_missing = str(exc)
        reason = host.cgroup_reason()
        if reason is None:
            try:
                self.cgroup = PlayerCgroup(lim.memory_mb, self.slot.cgroup_name if self.slot else None)
            except OSError as exc:
                reason = str(exc)
        self.protections["memory"] = (self.cgroup.describe() if self.cgroup else
                                      f"RLIMIT_AS {lim.memory_mb} MB ({reason})")
        self.protections["freeze"] = "SIGSTOP between calls" if lim.freeze else "off"
        self.protections["output"] = f"stdout+stderr captured, {lim.output_kb} KB kept"
        req_r, self.req_w = os.pipe()
        self.rep_r, rep_w = os.pipe()
        out_r, out_w = os.pipe()
        cfg = {"shim": self.shim, "submission": self.submission, "request_fd": req_r, "reply_fd": rep_w,
               "cgroup_procs": self.cgroup.procs_files if self.cgroup else [],
               "address_space_mb": max(4 * lim.memory_mb, 2048) if self.cgroup else lim.memory_mb,
               "cpu": lim.cpu, "netns": True, "read_paths": list(lim.read_paths),
               "python_path": list(lim.python_path),
               "readable_until_first_reply": list(lim.readable_until_first_reply),
               "uid": self.slot.uid if self.slot else None, "uid_missing": uid_missing}
        if self.program is not None:
            cfg["exec"] = self.program.to_cfg()
            if self.slot is not None:          # a build writes its output as the box's own uid
                for folder in self.program.write:
                    os.chown(folder, self.slot.uid, self.slot.uid)
            if self.program.address_space_mb:
                cfg["address_space_mb"] = max(cfg["address_space_mb"], self.program.address_space_mb)
                if self.cgroup is None:       # the program's own limits (a JVM's -Xmx) hold its memory
                    self.protections["memory"] = (f"RLIMIT_AS {cfg['address_space_mb']} MB, the program's own "
                                                  f"flags for the rest ({reason})")
        self.t_spawn = time.perf_counter()
        if self.prefork is not None:
            from .prefork import launch
            self.proc = launch(self.prefork, cfg, req_r, rep_w, out_w)
            if self.proc is not None:
                self.started_by = "prefork"
            else:                              # the template may hold the pipes: use new ones
                for fd in (req_r, rep_w, out_r, out_w, self.req_w, self.rep_r):
                    os.close(fd)
                req_r, self.req_w = os.pipe()
                self.rep_r, rep_w = os.pipe()
                out_r, out_w = os.pipe()
                cfg.update(request_fd=req_r, reply_fd=rep_w)
        try:
            if self.proc is None:
                self.started_by = "spawn"
                self.proc = spawn_child(cfg, req_r, rep_w, out_w)
                wire.write_all(self.req_w, wire.encode(cfg))     # its configuration: never on argv
        except OSError as exc:
            for fd in (req_r, rep_w, out_r, out_w, self.req_w, self.rep_r):
                try:
                    os.close(fd)
                except OSError:
                    pass
            self._remove_cgroup()
            self._release_slot(clean=self.proc is None)
            self.death = CallResult(Verdict.CRASHED, message=f"The player process could not be started: {exc}.")
            return self.death
        finally:
            for fd in (req_r, rep_w, out_w):
                try:
                    os.close(fd)
                except OSError:
                    pass
        os.set_blocking(self.rep_r, False)
        self.output = OutputCapture(out_r, lim.output_kb * 1024, self.name)
        return None

    def run(self, timeout: float) -> CallResult:
        """Run a program that does not speak the protocol (a build: `program.wire` False) to its
        end: OK on exit status 0 (value 0), CRASHED with the status as value, KILLED after `timeout` s."""
        if self.proc is not None:
            return CallResult(Verdict.PROTOCOL, message="run() after start().")
        failed = self._launch()
        if failed is not None:
            return failed
        frames = wire.FrameBuffer(self.limits.message_kb * 1024)
        timer = _CallTimer(Budget("wall", timeout, timeout, timeout), self.t_spawn, 0.0)
        got = self._receive(frames, timer)
        if isinstance(got, CallResult) and got.verdict is not Verdict.EXITED:
            return got
        if isinstance(got, dict) and isinstance(got.get("ready"), dict):
            self.protections.update({str(k): str(v) for k, v in got["ready"].items()})
        remaining = self.t_spawn + timeout - time.perf_counter()
        if not self._wait_exit(max(0.0, remaining)):
            return self._timeout(timer)
        wall = time.perf_counter() - self.t_spawn
        cpu = (self.rusage.ru_utime + self.rusage.ru_stime) if self.rusage else 0.0
        code = os.waitstatus_to_exitcode(self.status)
        if code == 0:
            return CallResult(Verdict.OK, 0, "", wall, cpu)
        if code == -signal.SIGKILL and self.cgroup is not None and self.cgroup.hit_limit():
            return CallResult(Verdict.MEMORY, code, f"The program went over {self.limits.memory_mb} MB of memory.",
                              wall, cpu)
        return CallResult(Verdict.CRASHED, code, f"The program ended with {describe_status(self.status)}.", wall, cpu)

    def call(self, method: str, args: dict | None = None, soft: float | None = None) -> CallResult:
        """One RPC: handler.rpc_<method>(**args) in the child, within soft/hard limits."""
        if self.proc is None:
            return CallResult(Verdict.PROTOCOL, message="The player was not started.")
        if not self.alive:
            return self._repeat_death()
        soft = self.limits.call_s if soft is None else soft
        if self.lines is not None:
            return self.lines.call(self, method, args or {}, soft)
        res = self._exchange({"method": method, "args": args or {}}, soft)
        if method == "move" and self.first_turn_open and res.verdict in (Verdict.OK, Verdict.LATE):
            self._hide_first_turn_paths()
        return res

    def _hide_first_turn_paths(self) -> None:
        """After the first move, cover the first-turn files in the player's private root from
        outside (root only): the child's own Landlock domain binds only the thread that served the
        move, and a player can keep that thread and answer every later call itself."""
        from .box import hide_in_root
        from .child import first_turn_paths
        self.first_turn_open = False
        if not self.protections.get("private_root", "missing").startswith("missing") and self.proc is not None:
            why = hide_in_root(self.proc.pid, first_turn_paths({"submission": self.submission,
                                                                "readable_until_first_reply":
                                                                    self.limits.readable_until_first_reply}))
            self.protections["first_turn"] = (f"missing: {why}" if why else
                                              "first-turn files covered in its root after the first move")

    def close(self) -> ProcessReport:
        """Stop the child (politely: EOF, then SIGKILL), reap it, remove its cgroup. Idempotent."""
        if self.report is not None:
            return self.report
        peak = None
        if self.proc is not None:
            if self.status is None:
                self._close_fd("req_w")
                self._signal(CONT)
                if not self._wait_exit(EXIT_GRACE_S):
                    self._kill()
            self._close_fd("req_w")
            self._close_fd("rep_r")
            self.output.finish()
            if self.rusage is not None:
                peak = self.rusage.ru_maxrss / 1024
            if self.cgroup is not None:
                peak = max(p for p in (peak, self.cgroup.peak_mb()) if p is not None)
        self._remove_cgroup()
        self._release_slot(clean=self.proc is None or self.rusage is not None)
        self.report = ProcessReport(
            peak_memory_mb=None if peak is None else round(peak, 1),
            output=self.output.text if self.output else "",
            output_dropped=self.output.dropped if self.output else 0,
            exit_status=describe_status(self.status) if self.status is not None else "",
            cpu_s=(self.rusage.ru_utime + self.rusage.ru_stime) if self.rusage else 0.0,
            protections=dict(self.protections))
        return self.report

    # ----------------------------------------------------------------- one exchange
    def _exchange(self, message: dict, soft: float, t0: float | None = None, ready: bool = False) -> CallResult:
        """Send one request and wait for its reply (after the child's "ready" frame when `ready`).
        The call is timed on the limits' clock from before the child is thawed."""
        unasked = 0 if ready else self._pending_bytes()   # the ready frame may already be there
        if unasked:
            return self._fail(Verdict.PROTOCOL, f"The player wrote {unasked} bytes to the protocol pipe without being asked.")
        if unasked is None:
            return self._died_unexpectedly()
        budget = self.limits.budget(soft)
        cpu0 = 0.0 if ready else self._cpu_s()               # start: everything since the process began
        self._thaw()
        start = time.perf_counter() if t0 is None else t0
        timer = _CallTimer(budget, start, cpu0)
        self.seq += 1
        if not self._send(wire.encode({**message, "id": self.seq}), start + budget.wall):
            return self._timeout(timer)
        frames = wire.FrameBuffer(self.limits.message_kb * 1024)
        if ready:
            got = self._receive(frames, timer)
            if isinstance(got, CallResult):
                return got
            if not (isinstance(got, dict) and isinstance(got.get("ready"), dict)):
                return self._fail(Verdict.PROTOCOL, "The player's first message is not the sandbox's ready report.")
            self.protections.update({str(k): str(v) for k, v in got["ready"].items()})
        reply = self._receive(frames, timer)
        if isinstance(reply, CallResult):
            return reply
        wall = time.perf_counter() - start
        cpu = max(0.0, self._cpu_s() - cpu0)
        if frames.data:
            return self._fail(Verdict.PROTOCOL, "The player sent more than one reply to one call.")
        if not (isinstance(reply, dict) and ("ok" in reply) != ("error" in reply)
                and ("ok" in reply or isinstance(reply["error"], dict))):      # exactly one of them
            return self._fail(Verdict.PROTOCOL, "The reply is not an {ok} or {error} message.")
        if reply.get("id") != self.seq:
            return self._fail(Verdict.PROTOCOL, "The reply does not answer the call that was made.")
        self._freeze()
        if "error" in reply:
            err = reply["error"]
            return CallResult(Verdict.ERROR, message=f"{err.get('type', 'Error')}: {err.get('message', '')}"[:1000],
                              wall_s=wall, cpu_s=cpu, traceback=str(err.get("traceback", "")))
        value = reply["ok"]
        late = late_sentence(budget, wall, cpu)
        if late:
            return CallResult(Verdict.LATE, value, late, wall, cpu)
        return CallResult(Verdict.OK, value, "", wall, cpu)

    def _receive(self, frames: wire.FrameBuffer, timer: _CallTimer):
        """The next whole frame's value, or the fatal CallResult (timeout, EOF, bad frame).
        On the CPU clock the child's CPU time is read again whenever it could have reached the
        hard limit (it runs on at most `parallel` cores), so the kill comes within ~2 ms of it."""
        parallel = 1 if self.limits.cpu is not None else (os.cpu_count() or 1)
        while True:
            try:
                got = frames.pop()
            except wire.WireError as exc:
                return self._fail(Verdict.PROTOCOL, f"Bad reply: {exc}.")
            if got is not None:
                return got[0]
            wait = timer.start + timer.budget.wall - time.perf_counter()
            if wait <= 0:
                return self._timeout(timer)
            if timer.budget.clock == "cpu":
                left = timer.budget.hard - (self._cpu_s() - timer.cpu0)
                if left <= 0:
                    return self._timeout(timer)
                wait = min(wait, max(left / parallel, 0.002))
            chunk = self._read_reply(wait)
            if chunk == b"":
                return self._died_unexpectedly()
            if chunk is not None:
                frames.feed(chunk)

    def _read_reply(self, timeout: float) -> bytes | None:
        """What the reply pipe holds within `timeout` seconds: bytes, b"" at EOF, None when nothing came."""
        ready, _, _ = select.select([self.rep_r], [], [], timeout)
        if not ready:
            return None
        try:
            return os.read(self.rep_r, 1 << 16)
        except BlockingIOError:
            return None

    def _send(self, data: bytes, deadline: float) -> bool:
        view = memoryview(data)
        os.set_blocking(self.req_w, False)
        try:
            while view:
                remaining = deadline - time.perf_counter()
                if remaining <= 0:
                    return False
                _, ready, _ = select.select([], [self.req_w], [], remaining)
                if ready:
                    try:
                        view = view[os.write(self.req_w, view):]
                    except BlockingIOError:
                        continue
                    except BrokenPipeError:
                        return True      # the child is gone: the read loop sees EOF
        finally:
            os.set_blocking(self.req_w, True)
        return True

    def _pending_bytes(self) -> int | None:
        """Bytes the child wrote since its last reply (None: the pipe is at EOF)."""
        chunk = self._read_reply(0)
        return 0 if chunk is None else (len(chunk) or None)

    # ----------------------------------------------------------------- failures
    def _timeout(self, timer: _CallTimer) -> CallResult:
        cpu = max(0.0, self._cpu_s() - timer.cpu0)
        self._kill()
        wall = time.perf_counter() - timer.start
        if self._over_memory():
            return self._dead(Verdict.MEMORY, f"The player went over {self.limits.memory_mb} MB of memory.", wall, cpu)
        return self._dead(Verdict.KILLED, kill_sentence(timer.budget, wall, cpu), wall, cpu)

    def _fail(self, verdict: Verdict, message: str) -> CallResult:
        self._kill()
        return self._dead(verdict, message)

    def _died_unexpectedly(self) -> CallResult:
        """EOF on the reply pipe: the child exited, or it closed the pipe and is still running."""
        if not self._wait_exit(EXIT_GRACE_S):
            return self._fail(Verdict.PROTOCOL, "The player closed the protocol pipe.")
        code = os.waitstatus_to_exitcode(self.status)
        if self._over_memory():
            return self._dead(Verdict.MEMORY, f"The player went over {self.limits.memory_mb} MB of memory.")
        if code < 0:
            sig = signal.Signals(-code)
            if sig.name == "SIGSYS":
                return self._dead(Verdict.CRASHED, "The player was killed for a forbidden system call (SIGSYS).")
            return self._dead(Verdict.CRASHED, f"The player process died by {sig.name}.")
        if code == wire.MEMORY_EXIT:
            return self._dead(Verdict.MEMORY, f"The player ran out of memory (limit {self.limits.memory_mb} MB).")
        if code == 0:
            return self._dead(Verdict.EXITED, "The player process exited without answering.")
        return self._dead(Verdict.CRASHED, f"The player process exited with status {code}.")

    def _over_memory(self) -> bool:
        """Whether the memory limit ended the process (the cgroup's OOM counter)."""
        return self.cgroup is not None and self.cgroup.hit_limit()

    def _dead(self, verdict: Verdict, message: str, wall: float = 0.0, cpu: float | None = None) -> CallResult:
        if cpu is None:
            cpu = (self.rusage.ru_utime + self.rusage.ru_stime) if self.rusage else 0.0
        self.death = CallResult(verdict, message=message, wall_s=wall, cpu_s=cpu)
        return self.death

    def _repeat_death(self) -> CallResult:
        if self.death is None:
            self._died_unexpectedly()
        d = self.death
        return CallResult(d.verdict, message=f"The player process is gone: {d.message}")

    # ----------------------------------------------------------------- process control
    def _signal(self, sig: int) -> None:
        self.proc.signal_group(sig)

    def _freeze(self) -> None:
        if not self.limits.freeze or self.status is not None:
            return
        self._signal(STOP)
        try:
            ended = self.proc.wait_stop()
        except ChildProcessError:
            return
        if ended is None:
            self.frozen = True
        else:
            self._reaped(*ended)

    def _thaw(self) -> None:
        if self.frozen:
            self._signal(CONT)
            self.frozen = False

    def _kill(self) -> None:
        if self.status is not None:
            return
        self.killed_by_manager = True
        self._signal(KILL)
        try:
            self._reaped(*self.proc.wait_end(None))
        except ChildProcessError:
            self.status = 0

    def _wait_exit(self, timeout: float) -> bool:
        """Reap the child if it exits within `timeout`."""
        if self.status is not None:
            return True
        try:
            ended = self.proc.wait_end(timeout)
        except ChildProcessError:
            return False
        if ended is None:
            return False
        self._reaped(*ended)
        return True

    def _reaped(self, status: int, rusage) -> None:
        self.status, self.rusage, self.frozen = status, rusage, False
        self.proc.returncode = os.waitstatus_to_exitcode(status)   # keeps Popen from waiting again
        self.proc.release()

    def _cpu_s(self) -> float:
        """CPU seconds of the whole process so far (all threads), as precisely as the host reads
        them (sandbox/cputime.py); once it has ended, what its rusage says."""
        if self.meter is None and self.proc is not None and self.status is None:
            self.meter = CpuMeter(self.proc.pid, self.cgroup.cpu_usage_file if self.cgroup else None)
            self.protections["cpu_time"] = self.meter.source
        used = self.meter.seconds() if self.meter is not None and self.status is None else None
        if used is None and self.rusage is not None:
            used = self.rusage.ru_utime + self.rusage.ru_stime
        if used is not None:
            self.cpu_seen = max(self.cpu_seen, used)
        return self.cpu_seen

    def _close_fd(self, attr: str) -> None:
        fd = getattr(self, attr, None)
        if fd is not None:
            setattr(self, attr, None)
            try:
                os.close(fd)
            except OSError:
                pass

    def _release_slot(self, clean: bool) -> None:
        """Give the uid back; a player whose end was not seen leaves its box to be reclaimed."""
        if self.slot is not None:
            if clean:
                self.slot.release()
            else:
                os.close(self.slot.fd)         # still marked in use: the next holder kills first
            self.slot = None

    def _remove_cgroup(self) -> None:
        if self.cgroup is not None:
            self.cgroup.remove()
            self.cgroup = None
