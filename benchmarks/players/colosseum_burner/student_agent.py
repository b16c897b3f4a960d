"""Benchmark player: spends 90% of a 0.25 s move budget as CPU time, then plays a random walk.

Used by benchmarks/bench_harness.py to count false timeouts under full load: this player must
never be timed out when the machine is busy, because it stays inside its own budget.
"""
import time

import numpy as np
from agents.agent import Agent
from store import register_agent

BUDGET_S = 0.25
BURN_S = 0.9 * BUDGET_S
MOVES = ((-1, 0), (0, 1), (1, 0), (0, -1))


@register_agent("student_agent")
class StudentAgent(Agent):
    def __init__(self):
        super().__init__()
        self.name = "Burner"
        self.rng = np.random.default_rng(0)

    def step(self, chess_board, my_pos, adv_pos, max_step):
        start = time.process_time()
        x = 0
        while time.process_time() - start < BURN_S:
            x += 1
        r, c = my_pos
        for _ in range(int(self.rng.integers(0, max_step + 1))):
            free = [d for d in range(4) if not chess_board[r, c, d]
                    and (r + MOVES[d][0], c + MOVES[d][1]) != tuple(adv_pos)]
            if not free:
                break
            d = int(self.rng.choice(free))
            r, c = r + MOVES[d][0], c + MOVES[d][1]
        sides = [d for d in range(4) if not chess_board[r, c, d]]
        return (int(r), int(c)), int(sides[0] if sides else 0)
