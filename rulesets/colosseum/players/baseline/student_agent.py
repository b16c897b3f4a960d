"""Baseline agent: one-ply search with a territory heuristic and a one-move safety check.

For every legal move (cell within max_step steps, free side) it places the wall and scores the board:
- if that wall separates the players: a win is worth a lot, a loss costs a lot, a tie is neutral;
- otherwise: cells I reach first minus cells the opponent reaches first, minus a penalty for walls
  around my new cell (a cell with three walls is one wall away from a trap).
The best few moves are then checked against every reply of the opponent; a move that lets the
opponent close the board in its favour at once is dropped.
"""
from collections import deque

from agents.agent import Agent
from store import register_agent

MOVES = ((-1, 0), (0, 1), (1, 0), (0, -1))
OPPOSITE = (2, 3, 0, 1)
WIN = 10_000
SAFETY_CHECKED = 6      # how many of the best moves get the opponent-reply check


def neighbours(walls, cell):
    r, c = cell
    sides = walls[r][c]
    for d in range(4):
        if not sides[d]:
            yield r + MOVES[d][0], c + MOVES[d][1]


def reachable(walls, start, blocked, limit):
    """Cells reachable from start in at most `limit` steps, never entering `blocked`."""
    dist = {start: 0}
    queue = deque([start])
    while queue:
        cell = queue.popleft()
        if dist[cell] == limit:
            continue
        for nxt in neighbours(walls, cell):
            if nxt != blocked and nxt not in dist:
                dist[nxt] = dist[cell] + 1
                queue.append(nxt)
    return dist


def region(walls, start, stop_at=None):
    """The cells connected to start; returns None early if stop_at is among them."""
    seen = {start}
    queue = deque([start])
    while queue:
        for nxt in neighbours(walls, queue.popleft()):
            if nxt not in seen:
                if nxt == stop_at:
                    return None
                seen.add(nxt)
                queue.append(nxt)
    return seen


def distances(walls, start):
    dist = {start: 0}
    queue = deque([start])
    while queue:
        cell = queue.popleft()
        for nxt in neighbours(walls, cell):
            if nxt not in dist:
                dist[nxt] = dist[cell] + 1
                queue.append(nxt)
    return dist


def set_wall(walls, r, c, d, value):
    walls[r][c][d] = value
    walls[r + MOVES[d][0]][c + MOVES[d][1]][OPPOSITE[d]] = value


def final_score(walls, me, adv):
    """None while the players share a region, else a score from my side."""
    mine = region(walls, me, stop_at=adv)
    if mine is None:
        return None
    theirs = len(region(walls, adv))
    if len(mine) > theirs:
        return WIN + len(mine) - theirs
    if len(mine) < theirs:
        return -WIN + len(mine) - theirs
    return 0


def territory(walls, me, adv):
    mine, theirs = distances(walls, me), distances(walls, adv)
    score = 0
    for cell, d in mine.items():
        other = theirs.get(cell)
        if other is None or d < other:
            score += 1
        elif other < d:
            score -= 1
    closed = sum(walls[me[0]][me[1]])
    return score - (4 if closed >= 3 else 1 if closed == 2 else 0)


def opponent_can_win(walls, me, adv, max_step):
    for (r, c) in reachable(walls, adv, me, max_step):
        for d in range(4):
            if walls[r][c][d]:
                continue
            set_wall(walls, r, c, d, True)
            outcome = final_score(walls, (r, c), me)
            set_wall(walls, r, c, d, False)
            if outcome is not None and outcome > 0:
                return True
    return False


@register_agent("student_agent")
class StudentAgent(Agent):
    def __init__(self):
        super().__init__()
        self.name = "BaselineAgent"
        self.autoplay = True

    def step(self, chess_board, my_pos, adv_pos, max_step):
        walls = chess_board.tolist()
        me = (int(my_pos[0]), int(my_pos[1]))
        adv = (int(adv_pos[0]), int(adv_pos[1]))
        scored = []
        for (r, c) in reachable(walls, me, adv, max_step):
            for d in range(4):
                if walls[r][c][d]:
                    continue
                set_wall(walls, r, c, d, True)
                end = final_score(walls, (r, c), adv)
                value = territory(walls, (r, c), adv) if end is None else end
                set_wall(walls, r, c, d, False)
                scored.append((value, end is not None, (r, c), d))
        scored.sort(key=lambda item: item[0], reverse=True)
        best = scored[0]
        if best[1] and best[0] >= 0:
            return best[2], best[3]           # a move that ends the game and does not lose
        for value, ends, cell, d in scored[:SAFETY_CHECKED]:
            if ends:
                continue
            set_wall(walls, cell[0], cell[1], d, True)
            unsafe = opponent_can_win(walls, cell, adv, max_step)
            set_wall(walls, cell[0], cell[1], d, False)
            if not unsafe:
                return cell, d
        return best[2], best[3]
