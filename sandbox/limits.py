"""Limits as plain data: what a player process may use. Filled from config by the grader."""
from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Limits:
    """Resource limits of one player process.

    Times are wall-clock seconds per call. A call answered after `soft` seconds is LATE; one not
    answered by `hard_for(soft)` is KILLED. `start_s` covers starting the process and importing
    the submission (the course's first-move allowance usually covers import too).
    """

    memory_mb: int = 500
    start_s: float = 30.0
    call_s: float = 2.0
    first_call_s: float = 30.0
    kill_after_s: float = 1.0
    kill_factor: float = 1.0
    cpu: int | None = None                 # core to pin the player to; None = pick none
    output_kb: int = 64                    # captured stdout+stderr kept per process
    message_kb: int = 64                   # largest reply accepted from the player
    freeze: bool = True                    # SIGSTOP the player between its calls
    read_paths: tuple[str, ...] = field(default_factory=tuple)   # extra read-only paths
    readable_until_first_reply: tuple[str, ...] = field(default_factory=tuple)  # e.g. data/ (Bohnenspiel)

    def hard_for(self, soft: float) -> float:
        """When a call whose soft limit is `soft` is killed."""
        return soft * self.kill_factor + self.kill_after_s
