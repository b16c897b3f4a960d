"""Blame by evidence: whose doing a player's end was, when the grader did not end it on purpose.

A player's end is the player's own -- a crash, so a lost game under the course's failure rules --
unless the grader can show a cause of its own: a SIGKILL it sent (`PlayerProcess.kills`, each with
why: the time limit, a broken protocol), the memory limit it set (the cgroup's OOM counter, the
portable sandbox's memory watch), or a host fault it recorded. Only a host fault makes a call
`infra` (the game is replayed, never scored); the one recorded is a player lost with the template
that forked it (its end cannot be known: `PlayerProcess.lost`). A signal from anywhere else is
evidence of nothing: the player itself can raise one (a POSIX timer delivers SIGKILL past seccomp's
signal rules, a lowered RLIMIT_CPU where no filter denies it, its own kill() in the portable
sandbox), so it can never excuse a loss. Not even a rise in the machine's count of OOM kills
(/proc/vmstat `oom_kill`) is taken as one: it counts every cgroup's memory-limit kills too, so on a
machine shared with other graders a player that killed itself right after one would be excused.
"""
from __future__ import annotations

RULE = ("a SIGKILL the grader did not send is the player's own end (a crash: a lost game), whoever sent "
        "it; only a host fault the grader recorded (the template that forked the player lost) makes the "
        "game the grader's, replayed")


def unsent_kill(subject: str) -> str:
    """The sentence for a SIGKILL the grader did not send, the memory limit did not cause and no
    host fault explains: the player's own end."""
    return (f"{subject} died by a SIGKILL the grader did not send (not its time or memory limit) and no "
            f"fault of the machine was recorded: its end is its own.")


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
