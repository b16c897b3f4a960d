"""Connect Four: a random player. step() is called once a turn; return a column that is not full."""
import random


class StudentAgent:
    def step(self, board, me):
        return random.choice([c for c in range(len(board[0])) if board[-1][c] == -1])
