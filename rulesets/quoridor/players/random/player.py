"""Random player: a uniformly random choice among its own legal moves (steps and obstacles)."""
import random
from collections import deque

from obstacle import *


class Player:
    def __init__(self, name):
        self.name = name
        self.version = "random-1"
        self.rng = random.Random()

    def initialization(self, sizex, sizey, myx, myy, opponentx, opponenty, max_obstacles, list_of_obstacles):
        self.sizex, self.sizey = sizex, sizey
        self.myx, self.myy = myx, myy
        self.opponentx, self.opponenty = opponentx, opponenty
        self.max_obstacles = max_obstacles
        self.obstacles = list(list_of_obstacles)
        self.my_goal_row = sizey - 1 if myy == 0 else 0
        self.opponent_goal_row = 0 if self.my_goal_row == sizey - 1 else sizey - 1
        self.my_obstacles = 0

    # --- the board ---------------------------------------------------------------------
    def is_in_board(self, x, y):
        return 0 <= x < self.sizex and 0 <= y < self.sizey

    def can_step(self, fx, fy, tx, ty, extra=()):
        for o in list(self.obstacles) + list(extra):
            if not o.can_player_move(fx, fy, tx, ty):
                return False
        return True

    def has_path(self, x, y, goal, extra=()):
        seen = {(x, y)}
        queue = deque([(x, y)])
        while queue:
            cx, cy = queue.popleft()
            if cy == goal:
                return True
            for nx, ny in ((cx + 1, cy), (cx - 1, cy), (cx, cy + 1), (cx, cy - 1)):
                if self.is_in_board(nx, ny) and (nx, ny) not in seen and self.can_step(cx, cy, nx, ny, extra):
                    seen.add((nx, ny))
                    queue.append((nx, ny))
        return False

    def expand_player(self):
        moves = []
        for nx, ny in ((self.myx + 1, self.myy), (self.myx - 1, self.myy),
                       (self.myx, self.myy + 1), (self.myx, self.myy - 1)):
            if not self.is_in_board(nx, ny) or (nx, ny) == (self.opponentx, self.opponenty):
                continue
            if self.can_step(self.myx, self.myy, nx, ny):
                moves.append([nx, ny])
        return moves

    def overlaps(self, o):
        for p in self.obstacles:
            if not p.can_player_move(o.fromx, o.fromy, o.tox, o.toy):
                return True
        return False

    def expand_obstacles(self):
        if self.my_obstacles >= self.max_obstacles:
            return []
        walls = []
        for x in range(self.sizex - 1):
            for y in range(self.sizey - 1):
                horizontal = [Obstacle(x, y, x, y + 1), Obstacle(x + 1, y, x + 1, y + 1)]
                vertical = [Obstacle(x, y, x + 1, y), Obstacle(x, y + 1, x + 1, y + 1)]
                for pair in (horizontal, vertical):
                    if self.overlaps(pair[0]) or self.overlaps(pair[1]):
                        continue
                    if (self.has_path(self.myx, self.myy, self.my_goal_row, pair)
                            and self.has_path(self.opponentx, self.opponenty, self.opponent_goal_row, pair)):
                        walls.append(pair)
        return walls

    # --- playing -------------------------------------------------------------------------
    def make_move(self):
        moves = [(1, m) for m in self.expand_player()] + [(2, w) for w in self.expand_obstacles()]
        if not moves:
            return None, None
        kind, result = self.rng.choice(moves)
        if kind == 1:
            self.myx, self.myy = result
        else:
            self.obstacles.extend(result)
            self.my_obstacles += 1
        return kind, result

    def opponent_move(self, moveType, result):
        if moveType == 1:
            self.opponentx, self.opponenty = result
        elif moveType == 2:
            self.obstacles.extend(result)
