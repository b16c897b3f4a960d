"""A job's lease kept alive by a process of its own, so it never depends on the evaluation's progress.

Why a process and not a thread: an evaluation that never yields the interpreter (a regular
expression backtracking in C, a parser stuck in a C extension) holds the GIL, and a heartbeat thread
in the same process then never runs; the lease would expire and a second worker would take over a
job that is still being worked on. The heartbeat process shares nothing with the evaluation but the
database: it extends the lease every lease_s/3 while its worker lives, stops when told, and dies
with its worker (PR_SET_PDEATHSIG, and a check of its parent at every beat), so a dead worker's
lease still runs out and the job is taken over. The database URL travels on stdin, never on the
command line where other local accounts could read a password in it.

`python -m grader.serve.lease` is the heartbeat process; `Lease` starts and stops it.
"""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys

from .db import Database
from .parent_death import die_with_parent

LOST = 3                    # the heartbeat's exit status when the lease was taken over
READY = b"beating\n"        # what the heartbeat says after its first beat


class Lease:
    """`with Lease(...) as lease:` keeps the job's lease while the block runs; `lost` once taken over."""

    def __init__(self, db: Database, table: str, job_id, owner: str, lease_s: float) -> None:
        self.spec = {"url": db.url, "table": table, "id": job_id, "owner": owner, "lease_s": lease_s}
        self.proc: subprocess.Popen | None = None
        self.lost = False

    def __enter__(self) -> Lease:
        """Start the heartbeat and wait for its first beat: evaluation starts only under a live lease
        (`lost` is already True when the lease ran out before the heartbeat could start)."""
        self.proc = subprocess.Popen([sys.executable, "-m", "grader.serve.lease"], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, close_fds=True)
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(json.dumps(self.spec).encode())
        self.proc.stdin.close()
        self.lost = self.proc.stdout.readline() != READY
        self.proc.stdout.close()
        return self

    def __exit__(self, *exc) -> None:
        assert self.proc is not None
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
        self.lost = self.proc.wait() == LOST


def beat(spec: dict) -> int:
    """Extend the lease every lease_s/3 until stopped, the worker is gone, or the lease was taken over."""
    parent = os.getppid()
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGTERM})      # SIGTERM: "stop", taken between beats
    db = Database(spec["url"], create=False)
    ready = False
    while os.getppid() == parent:
        try:
            if not db.extend(spec["table"], spec["id"], spec["owner"], spec["lease_s"]):
                return LOST
            if not ready:
                sys.stdout.buffer.write(READY)
                sys.stdout.buffer.close()
                ready = True
        except Exception as exc:             # a busy database: try again at the next beat
            print(f"grader serve: lease heartbeat for {spec['table']} {spec['id']}: {exc}", file=sys.stderr)
        if signal.sigtimedwait({signal.SIGTERM}, spec["lease_s"] / 3) is not None:
            return 0
    return 0


def main() -> int:
    die_with_parent()
    return beat(json.loads(sys.stdin.read()))


if __name__ == "__main__":
    sys.exit(main())
