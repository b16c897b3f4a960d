"""A Colosseum player of a set skill, for leagues whose true order is known: on each turn it plays
the bundled baseline_student's greedy move with probability SKILL (agents/skill.py, written by the
benchmark) and otherwise a random legal move. The coin is a function of the position, so a game is
the same whenever it is replayed from its seed.
"""
import random

from agents.board_tools import within_steps
from agents.skill import SKILL
from agents.student_agent_greedy import StudentAgent as Greedy
from store import register_agent


@register_agent("student_agent")
class StudentAgent(Greedy):
    def step(self, chess_board, my_pos, adv_pos, max_step):
        board = chess_board.tolist()
        me = (int(my_pos[0]), int(my_pos[1]))
        adv = (int(adv_pos[0]), int(adv_pos[1]))
        coin = random.Random(f"{board}{me}{adv}{SKILL}")
        if coin.random() < SKILL:
            return super().step(chess_board, my_pos, adv_pos, max_step)
        moves = [((r, c), d) for (r, c) in sorted(within_steps(board, me, adv, max_step))
                 for d in range(4) if not board[r][c][d]]
        return coin.choice(moves)
