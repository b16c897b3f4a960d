"""Double Card's line protocol: the course's console convention, for programs in any language.

The manager side of a line-protocol player (trusted; it runs in the grader, the program in the
sandbox). The program reads lines on stdin and writes its moves on stdout, one a line, in the
course's notation:

1. first line: its role and whether it moves first, e.g. `colours first` or `dots second`;
2. whenever it is its turn it prints its move (`0 5 A 2`, `F 2 F 3 3 A 2`); before each of its
   turns except a first move it is sent the opponent's move, one line.

It is the Python API's protocol (Player(role, first), opponent_move, choose_move) as text, so the
probes' scripted games (scripted.py: the opponent plays in the grader; the probes make a game's
`setup` and `move` calls) drive a program exactly as they drive a Python player.
"""
from __future__ import annotations

from rulesets.lines import LineAdapter
from sandbox import CallResult, Verdict

from .engine import DoubleCardGame


class DoubleCardLines(LineAdapter):
    """One program's conversation: `call(proc, method, args, soft)` answers the grader's RPCs."""

    API_NAMES = ("Player",)         # a player.py binding this is the Python API, else a console program

    def __init__(self) -> None:
        self.queue: list[str] = []
        self.seat = 0
        self.started = False

    def ask(self, proc, soft: float) -> CallResult:
        lines, self.queue = self.queue, []
        res = proc.exchange_line(lines, soft)
        if res.verdict in (Verdict.OK, Verdict.LATE) and isinstance(res.value, str):
            res.value = res.value.strip()
        return res

    def call(self, proc, method: str, args: dict, soft: float) -> CallResult:
        if method == "interface":
            return CallResult(Verdict.OK, [])
        if method == "setup":
            self.seat = int(args.get("seat", 0))
            state = args.get("state")
            game = DoubleCardGame(**(state or {}).get("params", {}))
            self.started = True
            self.queue = [f"{game.role(self.seat)} {'first' if self.seat == 0 else 'second'}"]
            return CallResult(Verdict.OK, None)
        if method == "move":
            if not self.started:
                self.call(proc, "setup", {"seat": args["state"].get("ply", 0) % 2, "state": args["state"]}, soft)
            self.queue += [item["move"] for item in args.get("last") or [] if item.get("seat") != self.seat]
            return self.ask(proc, soft)
        return CallResult(Verdict.ERROR, message=f"RuntimeError: a line-protocol program has no {method} call.")
