"""Limits as plain data: what a player process may use (filled from config by the grader), and
the move clock they are measured on.

A call's time is measured on one of two clocks: the player's CPU time ("cpu"), or the wall-clock
time that was the player's own ("wall"): real time less the time it was runnable but waiting for
a CPU that other processes held (the kernel's run-queue delay, sandbox/cputime.py). On an idle
machine the two wall-clock figures are the same; on a loaded one the player is charged what it
would have used on an idle one, so load neither kills an honest player nor excuses a late one
(a search that loops until `time() + 2 s` still answers after 2 s of its own time). The
wall-clock backstop of the CPU clock is measured the same way.
"""
from __future__ import annotations

from dataclasses import dataclass, field

CLOCKS = ("cpu", "wall")


@dataclass(frozen=True)
class Budget:
    """One call's limits, in seconds. `clock` says what `soft` and `hard` measure: the player's
    CPU time ("cpu") or its own wall-clock time ("wall", see above). `wall` is when a call still
    unanswered is killed whatever the clock (a player that sleeps or blocks uses no CPU), on the
    player's own wall-clock time; in wall mode it equals `hard`."""

    clock: str
    soft: float
    hard: float
    wall: float


@dataclass(frozen=True)
class Limits:
    """Resource limits of one player process.

    Times are seconds per call, of CPU time (`clock="cpu"`, all threads of the process) or of
    the player's own wall-clock time (`clock="wall"`: less the time it waited for a CPU). A call that used more than `soft` is LATE; one still
    unanswered at `hard_for(soft)` is KILLED, and so is one unanswered after the wall-clock
    backstop `soft * wall_factor + wall_after_s` (never sooner than the hard limit). `start_s`
    covers starting the process and importing the submission (the course's first-move allowance
    usually covers import too).
    """

    memory_mb: int = 500
    start_s: float = 30.0
    call_s: float = 2.0
    first_call_s: float = 30.0
    kill_after_s: float = 1.0
    kill_factor: float = 1.0
    clock: str = "cpu"                     # "cpu" or "wall": what soft and hard limits measure
    wall_factor: float = 3.0               # cpu clock: the wall-clock backstop is soft * wall_factor
    wall_after_s: float = 1.0              # ... + wall_after_s
    cpu: int | None = None                 # core to pin the player to; None = the sandbox picks one
    output_kb: int = 64                    # captured stdout+stderr kept per process
    message_kb: int = 64                   # largest reply accepted from the player
    freeze: bool = True                    # SIGSTOP the player between its calls
    read_paths: tuple[str, ...] = field(default_factory=tuple)   # extra read-only paths
    python_path: tuple[str, ...] = field(default_factory=tuple)  # the course's packages, ahead of site-packages
    readable_until_first_reply: tuple[str, ...] = field(default_factory=tuple)  # e.g. data/ (Bohnenspiel)

    def __post_init__(self) -> None:
        if self.clock not in CLOCKS:
            raise ValueError(f"Limits.clock must be one of {', '.join(CLOCKS)} (got {self.clock!r})")

    def hard_for(self, soft: float) -> float:
        """When a call whose soft limit is `soft` is killed (on the limits' clock)."""
        return soft * self.kill_factor + self.kill_after_s

    def budget(self, soft: float) -> Budget:
        """The limits of one call whose soft limit is `soft`."""
        hard = self.hard_for(soft)
        if self.clock == "wall":
            return Budget("wall", soft, hard, hard)
        return Budget("cpu", soft, hard, max(hard, soft * self.wall_factor + self.wall_after_s))



@dataclass(frozen=True)
class Spent:
    """What one call used, in seconds. `own` is the wall-clock time that was the player's: `wall`
    less `queued`, the time it was held back waiting for a CPU while none of its threads ran, and
    never less than its CPU time spread over the cores it may use (`own_time`)."""

    wall: float
    cpu: float
    queued: float = 0.0

    @staticmethod
    def measured(wall: float, cpu: float, held: float, cores: int) -> Spent:
        """From the readings of a call: real seconds, CPU seconds, and the seconds it was held back
        while none of its threads ran (sandbox/cputime.py `foreign_wait`)."""
        own = own_time(wall, held, cpu, cores)
        return Spent(wall, cpu, wall - own)

    @property
    def own(self) -> float:
        return self.wall - self.queued


def own_time(wall: float, held: float, cpu: float, cores: int) -> float:
    """The player's own wall-clock time: `wall` less `held`, a time during which it was ready to
    run and none of its threads ran (sandbox/cputime.py `foreign_wait`), and never less than
    `cpu / cores`: CPU it used is time it had (a player is pinned to one CPU, so `cores` is 1
    wherever the host can pin)."""
    return max(0.0, min(wall, max(wall - held, cpu / max(1, cores))))


def over(value: float, limit: float) -> str:
    """`value` in seconds with enough digits to show how it stands against `limit`: 2.0008 beside
    a limit of 2 (never "2.00"), 2.31 where two digits already tell them apart."""
    for digits in range(2, 7):
        text = f"{value:.{digits}f}"
        if (float(text) > limit) == (value > limit) and (float(text) < limit) == (value < limit):
            return text
    return f"{value:.6f}"


def _not_counted(queued: float) -> str:
    """The clause that says how much waiting for a CPU was left out ("" when too little to say).
    It ends the sentence, so what comes first reads the same on an idle machine."""
    return f" ({queued:.2f} s spent waiting for a CPU on a busy machine not counted)" if queued >= 0.01 else ""


def late_sentence(budget: Budget, wall: float, cpu: float, queued: float = 0.0) -> str:
    """Why an answered call is late ("" when it is not), naming the clock whose limit it passed.
    `wall` is the player's own wall-clock time, `queued` what was left out of it."""
    if budget.clock == "cpu" and cpu > budget.soft:
        return f"Used {over(cpu, budget.soft)} s of CPU; the limit is {budget.soft:g} s."
    if budget.clock == "wall" and wall > budget.soft:
        return (f"Answered after {over(wall, budget.soft)} s of wall-clock time; the limit is {budget.soft:g} s"
                f"{_not_counted(queued)}.")
    return ""


def kill_sentence(budget: Budget, wall: float, cpu: float, queued: float = 0.0) -> str:
    """Why an unanswered call was killed: the CPU limit, or the wall-clock one (with the CPU used)."""
    if budget.clock == "cpu" and cpu >= budget.hard:
        return (f"Used {over(cpu, budget.hard)} s of CPU without answering (the limit is {budget.soft:g} s, "
                f"the kill at {budget.hard:g} s): the player was killed.")
    return (f"No answer after {budget.wall:g} s of wall-clock time while using {cpu:.2f} s of CPU: "
            f"the player was killed{_not_counted(queued)}.")
