"""Blame by evidence: whose doing a player's end was, when the grader did not end it on purpose.

A player's end is the player's own -- a crash, so a lost game under the course's failure rules --
unless the grader can show a cause of its own: a SIGKILL it sent (`PlayerProcess.kills`, each with
why: the time limit, a broken protocol), the memory limit it set (the cgroup's OOM counter, the
portable sandbox's memory watch), or a host fault it recorded. Only a host fault makes a call
`infra` (the game is replayed, never scored). The faults recorded: the template that forked the
player was lost (its end cannot be known), and the kernel's OOM killer acted on this machine while
a player without a memory cgroup of its own lived (/proc/vmstat `oom_kill` rose; with a cgroup, its
own counter says whose memory it was). A signal from anywhere else is evidence of nothing: the
player itself can raise one (a POSIX timer delivers SIGKILL past seccomp's signal rules, and the
portable sandbox has no filter at all), so it can never excuse a loss.
"""
from __future__ import annotations

VMSTAT = "/proc/vmstat"


def oom_kills_on_host() -> int | None:
    """How many processes the kernel's OOM killer has killed on this machine since boot (None:
    the host does not say)."""
    try:
        with open(VMSTAT, "rb") as f:
            for line in f:
                if line.startswith(b"oom_kill "):
                    return int(line.split()[1])
    except (OSError, ValueError):
        pass
    return None


class HostWitness:
    """What it records at a player's start and reads again at its end: whether the machine did
    something, meanwhile, that could have killed the player without the player's doing."""

    def __init__(self) -> None:
        self.oom_kills = oom_kills_on_host()

    def fault(self, has_cgroup: bool) -> str | None:
        """The host fault seen since the start, in words, or None. `has_cgroup`: the player had a
        memory cgroup of its own, whose OOM counter (read by the caller first) is the better witness."""
        if has_cgroup or self.oom_kills is None:
            return None
        now = oom_kills_on_host()
        if now is not None and now > self.oom_kills:
            return f"the kernel's OOM killer killed {now - self.oom_kills} process(es) on this machine meanwhile"
        return None


def unsent_kill(subject: str, fault: str | None) -> str:
    """The sentence for a SIGKILL the grader did not send: the machine's (`fault`) or the player's."""
    if fault is not None:
        return (f"{subject} was killed by a SIGKILL the grader did not send, and {fault}: the machine's "
                f"failure, so the game is the grader's to replay.")
    return (f"{subject} died by a SIGKILL the grader did not send (not its time or memory limit) and no "
            f"fault of the machine was recorded: its end is its own.")


RULE = ("a SIGKILL the grader did not send is the player's own end (a crash: a lost game), whoever sent "
        "it; only a host fault the grader recorded (the player's template lost; the kernel's OOM killer, "
        "for a player without a memory cgroup) makes the game the grader's, replayed")


def self_tuning_row(seccomp: str, landlock: str) -> str:
    """What keeps a player from changing how it is limited or scheduled, from the host's seccomp and
    Landlock rows (`missing: ...` when absent)."""
    if seccomp.startswith("missing"):
        return ("missing: no seccomp here, so a player can change its own rlimits, scheduling, priority "
                "and CPU affinity (the blame rule still makes an end it causes its own)")
    cgroup = ("its cgroup's files unwritable (Landlock)" if not landlock.startswith("missing") else
              "its cgroup's files kept only by their owner (no Landlock here)")
    return ("no change to its own rlimits, scheduling policy or priority, nice value, I/O priority or CPU "
            f"affinity (seccomp, set by the box first); {cgroup}")
