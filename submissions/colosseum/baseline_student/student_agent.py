"""Example submission: a greedy agent with a mobility heuristic (helpers in board_tools.py).

Finishes the game when that wins (or ties), never walls itself into the smaller zone, and otherwise
picks the move that keeps the most cells within reach for itself and the fewest for the opponent,
staying near the centre and away from cells that already have walls.
"""
from agents.agent import Agent
from agents.board_tools import toggle_wall, within_steps, zone
from store import register_agent


@register_agent("student_agent")
class StudentAgent(Agent):
    def __init__(self):
        super(StudentAgent, self).__init__()
        self.name = "GreedyMobility"
        self.autoplay = True

    def step(self, chess_board, my_pos, adv_pos, max_step):
        board = chess_board.tolist()
        size = len(board)
        me = (int(my_pos[0]), int(my_pos[1]))
        adv = (int(adv_pos[0]), int(adv_pos[1]))
        centre = (size - 1) / 2
        best, best_value = None, None
        for (r, c) in within_steps(board, me, adv, max_step):
            for d in range(4):
                if board[r][c][d]:
                    continue
                toggle_wall(board, r, c, d, True)
                mine = zone(board, (r, c))
                if adv in mine:
                    value = (len(within_steps(board, (r, c), adv, max_step))
                             - len(within_steps(board, adv, (r, c), max_step))
                             - sum(board[r][c]) * 2
                             - (abs(r - centre) + abs(c - centre)) * 0.5)
                else:
                    theirs = len(zone(board, adv))
                    value = 1000 * ((len(mine) > theirs) - (len(mine) < theirs)) + len(mine) - theirs
                toggle_wall(board, r, c, d, False)
                if best_value is None or value > best_value:
                    best, best_value = ((r, c), d), value
        return best
