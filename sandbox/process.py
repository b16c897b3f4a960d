"""PlayerProcess: one restricted child process, one call at a time, verdicts instead of exceptions.

This module is the process: it starts the child (spawned afresh, sandbox/spawn.py, or forked from
a pre-imported template, sandbox/prefork.py), freezes it between calls (SIGSTOP/SIGCONT), times
every call on the limits' clock (sandbox/limits.py: the player's CPU time, or its own wall-clock
time, which leaves out what it spent waiting for a CPU) with a backstop on its own wall-clock
time, kills it at the hard limit, turns every way it can end into a `Verdict`, and cleans up. What
is said over the pipes is a conversation object the process owns: the framed-JSON dialect
(sandbox/rpc.py) or a line-protocol program's lines (sandbox/line_protocol.py). See
sandbox/child.py for what the child applies to itself.
"""
from __future__ import annotations

import logging
import os
import select
import signal
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from . import host, pinning, wire
from .blame import unsent_kill
from .capture import OutputCapture
from .cgroup import PlayerCgroup
from .command import Command
from .cputime import CpuMeter, QueueMeter, Ran, ThreadDelay, foreign_wait, thawed_for
from .limits import Budget, Limits, Spent, kill_sentence, late_sentence
from .line_protocol import LineConversation
from .player import Child, Incoming, Usage
from .rpc import FramedConversation
from .verdict import CallResult, ProcessReport, Verdict, describe_status

if TYPE_CHECKING:
    from . import box  # Linux only; imported where a player starts

log = logging.getLogger(__name__)

EXIT_GRACE_S = 0.5                   # after EOF or at close: time to exit on its own
CPU_SLACK_S = 0.001                  # thawed just before a call's real clock starts: CPU it may use first
SLOW_THAW_S = 0.0002                 # a thaw that took longer is settled (CallTimer.thaw_held) ...
SETTLE_S = 0.002                     # ... looking at the player this often until it is seen thawed
HELD_LOOK_S = 0.001                  # a ready player whose CPU clock does not move over this is held back
# Windows has none of these signals; its child objects (sandbox/portable.py) take the names
STOP, CONT, KILL = (getattr(signal, name, name) for name in ("SIGSTOP", "SIGCONT", "SIGKILL"))


MANAGER = ThreadDelay()              # the manager's own wait for a CPU, per thread that runs calls


class CallTimer:
    """One call's budget, and when and at what readings (CPU, each thread's run time and delay) it
    began. `unsent`: what of the request did not fit in the pipe before the thaw; `mark` and
    `woke`: the manager thread's own readings (sandbox/cputime.py `ThreadDelay`) just before its
    last wait for the reply and as it returned from it. `thaw_held`: seconds the manager took to thaw
    the player (its SIGCONT went out at `start` + that at the latest), until `settle` has seen how
    much of that the player was still stopped."""

    def __init__(self, budget: Budget, start: float, cpu0: float, waits0: dict[str, Ran],
                 unsent: bytes = b"") -> None:
        self.budget, self.start, self.cpu0, self.waits0 = budget, start, cpu0, waits0
        self.unsent = unsent
        self.mark: tuple[int, int, int] | None = None
        self.woke: tuple[int, int, int] | None = None
        self.thaw_held = 0.0
        self.exact0: float | None = None


class PlayerProcess:
    """A sandboxed player. Nothing the player does raises here: every call returns a CallResult.

    `prefork`: a sandbox.prefork.PreforkPool (or True for the shared one) to fork the child from
    a template that has already imported the shim; the spawn path is used when it cannot.
    `seed`: seeds `random` (and NumPy's global generator when the shim has imported it) before
    the submission is opened, so a game replayed with its seed meets the same random choices.
    `program`: a sandbox.command.Command the child becomes after restricting itself; `lines`: a
    line-protocol program's adapter (a ruleset's, `call(conversation, method, args, soft)`)."""

    def __init__(self, shim: str, submission: str | Path, limits: Limits,
                 options: dict[str, Any] | None = None, name: str = "player", prefork: Any = None,
                 seed: int | None = None, program: Command | None = None, lines: Any = None) -> None:
        self.shim = shim
        self.submission = str(Path(submission).resolve())
        self.limits = limits
        self.options = options or {}
        self.name = name
        self.prefork = prefork
        self.seed = seed
        self.program = program
        self.conversation: FramedConversation | LineConversation = (
            FramedConversation(self) if lines is None else LineConversation(self, lines))
        self.proc: Child | None = None          # SpawnedChild, sandbox.prefork.ForkedChild, PortableChild
        self.started_by = ""                    # "spawn" or "prefork" once started
        self.t_spawn = 0.0
        self.req_w: int | None = None
        self.rep_r: int | None = None
        self.cgroup: PlayerCgroup | None = None
        self.slot: box.Slot | None = None       # the box: this player's own uid, while it lives
        self.output: OutputCapture | None = None
        self.status: int | None = None          # wait status once reaped
        self.rusage: Usage | None = None
        self.death: CallResult | None = None    # the fatal result, repeated to later calls
        self.frozen = False
        self.killed_by_manager = False
        self.kills: list[str] = []              # every SIGKILL the grader sent this player, and why
        self.lost = ""                          # why its end cannot be known (its template died)
        self.protections: dict[str, str] = {}
        self.report: ProcessReport | None = None
        self.first_turn_open = bool(limits.readable_until_first_reply)   # hidden after the first move
        self.meter: CpuMeter | None = None      # reads the child's CPU time (sandbox/cputime.py)
        self.queue: QueueMeter | None = None    # reads its run-queue delay
        self.cpu_seen = 0.0                     # the last CPU reading, in seconds
        self.waits_seen: dict[str, Ran] = {}    # the last run time and delay readings, by thread (ns)
        self.cpu: int | None = None             # the CPU it is pinned to (sandbox/pinning.py)

    # ----------------------------------------------------------------- lifecycle
    @property
    def alive(self) -> bool:
        return self.proc is not None and self.status is None and self.death is None

    def __enter__(self) -> PlayerProcess:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def start(self) -> CallResult:
        """Spawn the child, let it restrict itself and open the submission (limit: start_s)."""
        if self.proc is not None:
            return CallResult(Verdict.PROTOCOL, message="start() was already called.")
        failed = self._launch()
        if failed is not None:
            return failed
        return self.conversation.start(self.options, self.seed)

    def call(self, method: str, args: dict[str, Any] | None = None, soft: float | None = None) -> CallResult:
        """One call into the player (`handler.rpc_<method>(**args)` for the framed dialect), within
        soft/hard limits."""
        if self.proc is None:
            return CallResult(Verdict.PROTOCOL, message="The player was not started.")
        if not self.alive:
            return self.repeat_death()
        res = self.conversation.call(method, args or {}, self.limits.call_s if soft is None else soft)
        if method == "move" and self.first_turn_open and res.verdict in (Verdict.OK, Verdict.LATE):
            self._hide_first_turn_paths()
        return res

    def exchange_line(self, lines: list[str], soft: float) -> CallResult:
        """A line-protocol program: write `lines`, read one line back (sandbox/line_protocol.py)."""
        if not isinstance(self.conversation, LineConversation):
            return CallResult(Verdict.PROTOCOL, message="exchange_line() on a player that speaks framed JSON.")
        return self.conversation.exchange_line(lines, soft)

    def run(self, timeout: float) -> CallResult:
        """Run a program that does not speak the protocol (a build: `program.io` "none") to its
        end: OK on exit status 0 (value 0), CRASHED with the status as value, KILLED after `timeout`
        s of its own wall-clock time."""
        if self.proc is not None:
            return CallResult(Verdict.PROTOCOL, message="run() after start().")
        failed = self._launch()
        if failed is not None:
            return failed
        frames = wire.FrameBuffer(self.limits.message_kb * 1024)
        timer = CallTimer(Budget("wall", timeout, timeout, timeout), self.t_spawn, 0.0, {})
        got = self.receive(frames, timer)
        if isinstance(got, CallResult) and got.verdict is not Verdict.EXITED:
            return got
        if isinstance(got, dict) and isinstance(got.get("ready"), dict):
            self.protections.update({str(k): str(v) for k, v in got["ready"].items()})
        while not self._wait_exit(max(0.002, timeout - self.spent(timer).own)):
            if self.spent(timer).own >= timeout:
                return self.timeout(timer)
        spent = self.spent(timer)
        status = self.status if self.status is not None else 0
        code = os.waitstatus_to_exitcode(status)
        if code == 0:
            return CallResult(Verdict.OK, 0, "", spent.wall, spent.cpu, queued_s=spent.queued)
        if code == -signal.SIGKILL and self.cgroup is not None and self.cgroup.hit_limit():
            return CallResult(Verdict.MEMORY, code, f"The program went over {self.limits.memory_mb} MB of memory.",
                              spent.wall, spent.cpu, queued_s=spent.queued)
        if code == -signal.SIGKILL and not self.kills:
            return CallResult(Verdict.CRASHED, code, self._unsent_kill("The program"), spent.wall, spent.cpu,
                              queued_s=spent.queued)
        return CallResult(Verdict.CRASHED, code, f"The program ended with {describe_status(status)}.",
                          spent.wall, spent.cpu, queued_s=spent.queued)

    def close(self) -> ProcessReport:
        """Stop the child (politely: EOF, then SIGKILL), reap it, remove its cgroup. Idempotent."""
        if self.report is not None:
            return self.report
        peak = None
        if self.proc is not None:
            if self.status is None and not self.lost:     # a lost one cannot be waited for or signalled
                self._close_fd("req_w")
                self._signal(CONT)
                if not self._wait_exit(EXIT_GRACE_S):
                    self._kill(f"at close: still running {EXIT_GRACE_S} s after its input was closed")
            self._close_fd("req_w")
            self._close_fd("rep_r")
            if self.output is not None:
                self.output.finish()
            if self.rusage is not None:
                peak = self.rusage.ru_maxrss / 1024
            if self.cgroup is not None:
                peak = max(p for p in (peak, self.cgroup.peak_mb()) if p is not None)
        for meter in (self.meter, self.queue):
            if meter is not None:
                meter.close()
        self._remove_cgroup()
        self._release_slot(clean=self.proc is None or self.rusage is not None)
        self.report = ProcessReport(
            peak_memory_mb=None if peak is None else round(peak, 1),
            output=self.output.text if self.output else "",
            output_dropped=self.output.dropped if self.output else 0,
            exit_status=describe_status(self.status) if self.status is not None else
            "unknown: lost with its template" if self.lost else "",
            cpu_s=(self.rusage.ru_utime + self.rusage.ru_stime) if self.rusage else 0.0,
            protections=dict(self.protections), kills=list(self.kills))
        return self.report

    # ----------------------------------------------------------------- starting
    def _launch(self) -> CallResult | None:
        """Spawn (or fork) the child with its pipes and capture; the fatal result if it failed."""
        from . import box, spawn  # Linux only (namespaces, wait4): the portable sandbox has its own start

        lim = self.limits
        uid_missing = host.uid_reason() or box.unreadable_reason(self.submission, host.pid_namespace_reason() is not None)
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
        self.cpu = pinning.cpu_for(lim.cpu)
        cfg = self.child_config(uid_missing)
        if self.program is not None:
            cfg.exec = self.program
            if self.slot is not None:          # a build writes its output as the box's own uid
                for folder in self.program.write:
                    os.chown(folder, self.slot.uid, self.slot.uid)
            if self.program.address_space_mb:
                cfg.address_space_mb = max(cfg.address_space_mb, self.program.address_space_mb)
                if self.cgroup is None:       # the program's own limits (a JVM's -Xmx) hold its memory
                    self.protections["memory"] = (f"RLIMIT_AS {cfg.address_space_mb} MB, the program's own "
                                                  f"flags for the rest ({reason})")
        req_r, self.req_w = os.pipe()
        self.rep_r, rep_w = os.pipe()
        out_r, out_w = os.pipe()
        cfg.request_fd, cfg.reply_fd = req_r, rep_w
        self.t_spawn = time.perf_counter()
        if self.prefork is not None:
            from .prefork import launch  # Linux only (pidfds, SCM_RIGHTS)
            self.proc = launch(self.prefork, cfg, req_r, rep_w, out_w)
            if self.proc is not None:
                self.started_by = "prefork"
            else:                              # the template may hold the pipes: use new ones
                for fd in (req_r, rep_w, out_r, out_w, self.req_w, self.rep_r):
                    os.close(fd)
                req_r, self.req_w = os.pipe()
                self.rep_r, rep_w = os.pipe()
                out_r, out_w = os.pipe()
                cfg.request_fd, cfg.reply_fd = req_r, rep_w
        try:
            if self.proc is None:
                self.started_by = "spawn"
                self.proc = spawn.spawn_child(cfg, req_r, rep_w, out_w)
                wire.write_all(self.req_w, wire.encode(cfg.to_message()))   # its configuration: never on argv
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
        os.set_blocking(self.req_w, False)
        self.output = OutputCapture(out_r, lim.output_kb * 1024, self.name)
        return None

    def child_config(self, uid_missing: str | None) -> wire.ChildConfig:
        """What the child is told about itself (its descriptors are filled in at launch)."""
        lim = self.limits
        return wire.ChildConfig(
            shim=self.shim, submission=self.submission,
            cgroup_procs=self.cgroup.procs_files if self.cgroup else [],
            cgroup_dir=self.cgroup.start_in if self.cgroup else None,
            address_space_mb=max(4 * lim.memory_mb, 2048) if self.cgroup else lim.memory_mb,
            cpu=self.cpu, netns=True, read_paths=list(lim.read_paths),
            python_path=list(lim.python_path),
            readable_until_first_reply=list(lim.readable_until_first_reply),
            uid=self.slot.uid if self.slot else None, uid_missing=uid_missing)

    def _hide_first_turn_paths(self) -> None:
        """After the first move, cover the first-turn files in the player's private root from
        outside (root only): the child's own Landlock domain binds only the thread that served the
        move, and a player can keep that thread and answer every later call itself."""
        from .box import hide_in_root  # Linux only (mount namespaces)
        from .child import first_turn_paths  # Linux only, like box (it imports box)
        self.first_turn_open = False
        if self.protections.get("private_root", "missing").startswith("missing"):
            self.protections["first_turn"] = host.first_turn_row(os.geteuid() == 0, "the player has no private root")
        elif self.proc is not None:
            why = hide_in_root(self.proc.pid, first_turn_paths(
                wire.ChildConfig(self.shim, self.submission,
                                 readable_until_first_reply=list(self.limits.readable_until_first_reply))),
                               getattr(self.proc, "pidfd", None))
            self.protections["first_turn"] = (f"missing: {why}" if why else
                                              "first-turn files covered in its root after the first move")

    # ----------------------------------------------------------------- the transport a conversation uses
    def begin(self, soft: float, t0: float | None = None, request: bytes = b"") -> CallTimer:
        """Thaw the player and start timing a call whose soft limit is `soft`. `t0`: the call began
        then, with the process itself (its start: every reading counts from zero). `request`: what
        to write it; while it is frozen, as much as the pipe takes is written before the clock
        starts, so the manager's own write (and its wait for a CPU meanwhile) is not the player's
        time; the rest is `timer.unsent`, for `send`."""
        budget = self.limits.budget(soft)
        unsent = self._prewrite(request) if self.frozen else request
        cpu0, waits0 = (0.0, {}) if t0 is not None else (self._cpu_s(), self._waits())
        frozen = self.frozen and t0 is None
        exact0 = self._exact_cpu_s() if frozen else None
        start = time.perf_counter() if t0 is None else t0
        self._thaw()
        timer = CallTimer(budget, start, cpu0, waits0, unsent)
        thawing = time.perf_counter() - start if frozen else 0.0
        timer.thaw_held = thawing if thawing > SLOW_THAW_S else 0.0
        timer.exact0 = exact0
        return timer

    def settle(self, timer: CallTimer) -> None:
        """Start the call's clock no earlier than the player could run: when the manager was held
        back between starting the clock and sending SIGCONT (preempted on a busy machine), the
        player was still stopped, and its run-queue delay does not hold that time. Once any of its
        threads is seen to have run or waited since the thaw, the clock starts that long before
        now (each thread's run time and delay since then is at most the time since the thaw,
        sandbox/cputime.py `thawed_for`), and never later than the SIGCONT was sent."""
        now = time.perf_counter()                  # read before the threads: never more than their time
        waits = self._waits()
        exact = self._exact_cpu_s()
        cpu = exact - timer.exact0 if exact is not None and timer.exact0 is not None else 0.0
        seen = thawed_for(timer.waits0, waits, cpu)
        if seen is not None:
            timer.start += max(0.0, min(timer.thaw_held, now - timer.start - seen))
            timer.thaw_held = 0.0

    @property
    def cores(self) -> int:
        """How many CPUs its threads may use at once: 1 once it has pinned itself."""
        pinned = self.cpu if not self.protections.get("cpu", "").startswith("missing") else None
        return pinning.cores(pinned)

    def spent(self, timer: CallTimer, awake: float = 0.0) -> Spent:
        """What the call has used so far, on every clock; `awake`: seconds at its end that were the
        manager's own lateness in reading the reply, not the player's (sandbox/cputime.py)."""
        waits = self._waits()
        cpu = max(0.0, self._cpu_s() - timer.cpu0)           # read after the waits: never less than theirs
        serving = str(self.proc.pid) if self.proc is not None else ""      # the thread that answers calls
        held = foreign_wait(timer.waits0, waits, cpu, awake, serving)
        return Spent.measured(max(0.0, time.perf_counter() - timer.start - awake), cpu, held, self.cores)

    def answered(self, timer: CallTimer, value: Any) -> CallResult:
        """The call was answered with `value`: freeze the player, OK or LATE on the limits' clock."""
        spent = self.spent(timer, MANAGER.lateness(timer.mark, timer.woke))
        self.freeze()
        late = late_sentence(timer.budget, spent.own, spent.cpu, spent.queued)
        return CallResult(Verdict.LATE if late else Verdict.OK, value, late, spent.wall, spent.cpu,
                          queued_s=spent.queued)

    def receive(self, incoming: Incoming, timer: CallTimer) -> Any:
        """The next whole message's value, or the fatal CallResult (timeout, EOF, bad message).
        The clocks are read again whenever the call could have reached a limit: the player's own
        time runs no faster than real time, and its CPU time no faster than `cores` times it, so
        the kill comes within ~2 ms of the limit."""
        budget = timer.budget
        while True:
            try:
                got = incoming.pop()
            except wire.WireError as exc:
                return self.fail(Verdict.PROTOCOL, f"Bad reply: {exc}.")
            if got is not None:
                return got[0]
            wait = self.left(timer)
            if budget.clock == "cpu":
                cores = self.cores
                real = time.perf_counter() - timer.start + CPU_SLACK_S     # its CPU time is at most cores x this
                cpu = self._cpu_s() - timer.cpu0 if real * cores >= budget.hard else real * cores
                if cpu >= budget.hard:
                    return self.timeout(timer)
                wait = min(wait, (budget.hard - cpu) / cores)
            if wait <= 0:                          # on a reading that may count a wait not yet ended
                wait = SETTLE_S if self.held_now() else self.left(timer)
                if wait <= 0:
                    return self.timeout(timer)
            wait = min(wait, getattr(incoming, "poll_s", wait))     # it may become whole without a byte
            if timer.thaw_held:
                wait = min(wait, SETTLE_S)
            timer.mark = MANAGER.reading()
            chunk = self._read_reply(max(wait, 0.002))
            if chunk == b"":
                return self.died_unexpectedly()
            if chunk is None and timer.thaw_held:
                self.settle(timer)                 # no reply yet: its threads' times are the call's so far
            if chunk is not None:
                timer.woke = MANAGER.reading()
                incoming.feed(chunk)

    def left(self, timer: CallTimer) -> float:
        """Seconds of real time that may pass before the call could reach its backstop (`budget.wall`
        of the player's own time). The run delay is read only once real time has reached it: the
        player's own time is never more than real time."""
        real = time.perf_counter() - timer.start
        if real < timer.budget.wall:
            return timer.budget.wall - real
        return timer.budget.wall - self.spent(timer).own

    def held_now(self) -> bool:
        """Whether the player is being held back right now: a thread of it is ready to run, yet its
        CPU clock does not move over a moment. The kernel adds a wait to the run delay only once it
        ends, so until then a reading charges it: the backstop is reached only on a reading taken
        when it was not held back."""
        if self.queue is None or self.status is not None:
            return False
        before = self._exact_cpu_s()
        if before is None or not self.queue.runnable():
            return False
        time.sleep(HELD_LOOK_S)
        after = self._exact_cpu_s()
        return after == before and self.queue.runnable()

    def send(self, data: bytes, timer: CallTimer) -> bool:
        """Write `data` to the request pipe; False when the player did not take it before the call's
        backstop (it does not read)."""
        return self._send(data, lambda: self.left(timer))

    def pending_bytes(self) -> int | None:
        """Bytes the child wrote since its last reply (None: the pipe is at EOF)."""
        chunk = self._read_reply(0)
        return 0 if chunk is None else (len(chunk) or None)

    def receive_ready(self, incoming: Incoming, timer: CallTimer) -> CallResult | None:
        """The child's first message must be the sandbox's ready report (what it applied): keep it.
        None when it was; else the fatal result."""
        got = self.receive(incoming, timer)
        if isinstance(got, CallResult):
            return got
        if not (isinstance(got, dict) and isinstance(got.get("ready"), dict)):
            return self.fail(Verdict.PROTOCOL, "The player's first message is not the sandbox's ready report.")
        self.protections.update({str(k): str(v) for k, v in got["ready"].items()})
        return None

    def _read_reply(self, timeout: float) -> bytes | None:
        """What the reply pipe holds within `timeout` seconds: bytes, b"" at EOF, None when nothing came."""
        assert self.rep_r is not None
        ready, _, _ = select.select([self.rep_r], [], [], timeout)
        if not ready:
            return None
        try:
            return os.read(self.rep_r, 1 << 16)
        except BlockingIOError:
            return None

    def _prewrite(self, data: bytes) -> bytes:
        """Write what the (non-blocking) request pipe takes of `data` now; what it did not take."""
        assert self.req_w is not None
        try:
            return data[os.write(self.req_w, data):] if data else data
        except (BlockingIOError, BrokenPipeError):
            return data                      # full, or the child is gone: `send` sees to it

    def _send(self, data: bytes, left: Callable[[], float]) -> bool:
        """Write all of `data` to the (non-blocking) request pipe, waiting for room only when it is
        full (a request usually fits at once: one write); False once `left()` (seconds the call has
        left) reaches 0 first."""
        assert self.req_w is not None
        view = memoryview(data)
        while view:
            try:
                view = view[os.write(self.req_w, view):]
                continue
            except BlockingIOError:
                pass
            except BrokenPipeError:
                return True      # the child is gone: the read loop sees EOF
            remaining = left()
            if remaining <= 0:
                return False
            select.select([], [self.req_w], [], remaining)
        return True

    # ----------------------------------------------------------------- failures
    def timeout(self, timer: CallTimer) -> CallResult:
        """The call reached its hard limit or its backstop: kill the player and say which."""
        spent = self.spent(timer)
        self._kill(f"the {timer.budget.clock} time limit of the call")
        if self._over_memory():
            return self._dead(Verdict.MEMORY, f"The player went over {self.limits.memory_mb} MB of memory.",
                              spent.wall, spent.cpu)
        return self._dead(Verdict.KILLED, kill_sentence(timer.budget, spent.own, spent.cpu, spent.queued),
                          spent.wall, spent.cpu, spent.queued)

    def fail(self, verdict: Verdict, message: str) -> CallResult:
        """The player broke the protocol: kill it, with `message`."""
        self._kill(f"{verdict.value}: {message}")
        return self._dead(verdict, message)

    def died_unexpectedly(self) -> CallResult:
        """EOF on the reply pipe: the child exited, or it closed the pipe and is still running."""
        if not self._wait_exit(EXIT_GRACE_S):
            if self.lost:
                return self._dead(Verdict.INFRA, self.lost)
            return self.fail(Verdict.PROTOCOL, "The player closed the protocol pipe.")
        code = os.waitstatus_to_exitcode(self.status or 0)
        if self._over_memory():
            return self._dead(Verdict.MEMORY, f"The player went over {self.limits.memory_mb} MB of memory.")
        if code == -signal.SIGKILL and not self.kills:
            return self._dead(Verdict.CRASHED, self._unsent_kill("The player process"))
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

    def repeat_death(self) -> CallResult:
        """A call to a player that is gone: its fatal verdict again."""
        if self.death is None:
            self.died_unexpectedly()
        d = self.death
        assert d is not None
        return CallResult(d.verdict, message=f"The player process is gone: {d.message}")

    def _unsent_kill(self, subject: str) -> str:
        """A SIGKILL that is not in self.kills, nor the memory limit's (checked first), of a player
        not lost with its template (the one host fault recorded): the player's own end (sandbox/blame.py)."""
        log.warning("player %s (pid %s) died by a SIGKILL the grader did not send: its own end", self.name,
                    self.proc.pid if self.proc else None)
        return unsent_kill(subject)

    def _over_memory(self) -> bool:
        """Whether the memory limit ended the process (the cgroup's OOM counter)."""
        return self.cgroup is not None and self.cgroup.hit_limit()

    def _dead(self, verdict: Verdict, message: str, wall: float = 0.0, cpu: float | None = None,
              queued: float = 0.0) -> CallResult:
        if cpu is None:
            cpu = (self.rusage.ru_utime + self.rusage.ru_stime) if self.rusage else 0.0
        self.death = CallResult(verdict, message=message, wall_s=wall, cpu_s=cpu, queued_s=queued)
        return self.death

    # ----------------------------------------------------------------- process control
    def _signal(self, sig: Any) -> None:
        if self.proc is not None:
            self.proc.signal_group(sig)

    def freeze(self) -> None:
        """SIGSTOP the player between calls (when the limits say so); reap it if it ended instead."""
        if not self.limits.freeze or self.status is not None or self.proc is None:
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

    def _kill(self, why: str) -> None:
        """SIGKILL the player, noting why (ProcessReport.kills): a kill the grader did not note is the
        player's own end unless the host is seen at fault (sandbox/blame.py)."""
        if self.status is not None or self.proc is None:
            return
        self.killed_by_manager = True
        self.kills.append(why)
        log.info("player %s (pid %s) killed by the grader: %s", self.name, self.proc.pid, why)
        self._signal(KILL)
        try:
            ended = self.proc.wait_end(None)
        except ChildProcessError:
            self.status = 0
            return
        if ended is not None:
            self._reaped(*ended)

    def _wait_exit(self, timeout: float) -> bool:
        """Reap the child if it exits within `timeout`."""
        if self.status is not None:
            return True
        if self.proc is None:
            return False
        try:
            ended = self.proc.wait_end(timeout)
        except ChildProcessError as exc:
            self.lost = f"The player process was lost by the grader ({exc}); the game is the grader's to replay."
            return False
        if ended is None:
            return False
        self._reaped(*ended)
        return True

    def _reaped(self, status: int, rusage: Usage) -> None:
        self.status, self.rusage, self.frozen = status, rusage, False
        if self.queue is not None:
            self.queue.close()
        if self.meter is not None:
            self.meter.close()
        if self.proc is not None:
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

    def _exact_cpu_s(self) -> float | None:
        """The process's CPU seconds up to now (sandbox/cputime.py `CpuMeter.exact`), None where unreadable."""
        self._cpu_s()                              # opens the meter
        return self.meter.exact() if self.meter is not None and self.status is None else None

    def _waits(self) -> dict[str, Ran]:
        """How long each of the process's threads has waited for a CPU so far (sandbox/cputime.py);
        the last readings once it has ended, none where the host cannot tell (then the wall clock
        counts that waiting, as a plain one would)."""
        if self.queue is None and self.proc is not None and self.status is None:
            self.queue = QueueMeter(self.proc.pid)
            self.protections["wait_for_cpu"] = self.queue.source
        waits = self.queue.waits() if self.queue is not None and self.status is None else None
        if waits is not None:
            self.waits_seen = waits
        return self.waits_seen

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
                assert self.slot.fd is not None  # only release() clears it, and self.slot goes with it
                os.close(self.slot.fd)         # still marked in use: the next holder kills first
            self.slot = None

    def _remove_cgroup(self) -> None:
        if self.cgroup is not None:
            self.cgroup.remove()
            self.cgroup = None
