"""Limits as plain data: what a player process may use. Filled from config by the grader."""
from __future__ import annotations

from dataclasses import dataclass, field

CLOCKS = ("cpu", "wall")


@dataclass(frozen=True)
class Budget:
    """One call's limits, in seconds. `clock` says what `soft` and `hard` measure: the player's
    own CPU time ("cpu": other load on the machine cannot make it late) or wall-clock time
    ("wall"). `wall` is when a call still unanswered is killed whatever the clock (a player that
    sleeps or blocks uses no CPU); in wall mode it equals `hard`."""

    clock: str
    soft: float
    hard: float
    wall: float


@dataclass(frozen=True)
class Limits:
    """Resource limits of one player process.

    Times are seconds per call, of CPU time (`clock="cpu"`, all threads of the process) or of
    wall-clock time (`clock="wall"`). A call that used more than `soft` is LATE; one still
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
    cpu: int | None = None                 # core to pin the player to; None = pick none
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


def over(value: float, limit: float) -> str:
    """`value` in seconds with enough digits to show how it stands against `limit`: 2.0008 beside
    a limit of 2 (never "2.00"), 2.31 where two digits already tell them apart."""
    for digits in range(2, 7):
        text = f"{value:.{digits}f}"
        if (float(text) > limit) == (value > limit) and (float(text) < limit) == (value < limit):
            return text
    return f"{value:.6f}"


def late_sentence(budget: Budget, wall: float, cpu: float) -> str:
    """Why an answered call is late ("" when it is not), naming the clock whose limit it passed."""
    if budget.clock == "cpu" and cpu > budget.soft:
        return f"Used {over(cpu, budget.soft)} s of CPU; the limit is {budget.soft:g} s."
    if budget.clock == "wall" and wall > budget.soft:
        return f"Answered after {over(wall, budget.soft)} s of wall-clock time; the limit is {budget.soft:g} s."
    return ""


def kill_sentence(budget: Budget, wall: float, cpu: float) -> str:
    """Why an unanswered call was killed: the CPU limit, or the wall-clock one (with the CPU used)."""
    if budget.clock == "cpu" and cpu >= budget.hard:
        return (f"Used {over(cpu, budget.hard)} s of CPU without answering (the limit is {budget.soft:g} s, "
                f"the kill at {budget.hard:g} s): the player was killed.")
    return (f"No answer after {budget.wall:g} s of wall-clock time while using {cpu:.2f} s of CPU: "
            f"the player was killed.")
