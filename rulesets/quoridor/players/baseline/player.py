"""Baseline player: walks its shortest path; places the obstacle that lengthens the opponent's
shortest path most relative to its own, when that gains at least as much as a step would."""
from collections import deque

from obstacle import *


class Player:
    def __init__(self, name):
        self.name = name
        self.version = "baseline-1"

    def initialization(self, sizex, sizey, myx, myy, opponentx, opponenty, max_obstacles, list_of_obstacles):
        self.sizex, self.sizey = sizex, sizey
        self.myx, self.myy = myx, myy
        self.opponentx, self.opponenty = opponentx, opponenty
        self.max_obstacles = max_obstacles
        self.obstacles = list(list_of_obstacles)
        self.my_goal_row = sizey - 1 if myy == 0 else 0
        self.opponent_goal_row = 0 if self.my_goal_row == sizey - 1 else sizey - 1
        self.my_obstacles = 0

    # --- the board: blocked steps as a set of unordered cell pairs ----------------------------
    def blocked(self, extra=()):
        out = set()
        for o in list(self.obstacles) + list(extra):
            out.add(frozenset([(o.fromx, o.fromy), (o.tox, o.toy)]))
        return out

    def is_in_board(self, x, y):
        return 0 <= x < self.sizex and 0 <= y < self.sizey

    def neighbours(self, x, y, blocked):
        for nx, ny in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
            if self.is_in_board(nx, ny) and frozenset([(x, y), (nx, ny)]) not in blocked:
                yield nx, ny

    def distances(self, goal, blocked):
        """Steps from every cell to the goal row (pawns ignored); unreachable cells are missing."""
        dist = {}
        queue = deque()
        for x in range(self.sizex):
            dist[(x, goal)] = 0
            queue.append((x, goal))
        while queue:
            x, y = queue.popleft()
            for n in self.neighbours(x, y, blocked):
                if n not in dist:
                    dist[n] = dist[(x, y)] + 1
                    queue.append(n)
        return dist

    def expand_player(self):
        blocked = self.blocked()
        return [[nx, ny] for nx, ny in self.neighbours(self.myx, self.myy, blocked)
                if (nx, ny) != (self.opponentx, self.opponenty)]

    def candidate_walls(self):
        for x in range(self.sizex - 1):
            for y in range(self.sizey - 1):
                yield [Obstacle(x, y, x, y + 1), Obstacle(x + 1, y, x + 1, y + 1)]
                yield [Obstacle(x, y, x + 1, y), Obstacle(x, y + 1, x + 1, y + 1)]

    def wall_effects(self):
        """(wall, my distance, opponent's distance) for every legal wall."""
        if self.my_obstacles >= self.max_obstacles:
            return []
        blocked = self.blocked()
        out = []
        for pair in self.candidate_walls():
            edges = self.blocked(pair) - blocked
            if len(edges) < 2:
                continue                      # shares an edge with an obstacle already placed
            after = blocked | edges
            mine = self.distances(self.my_goal_row, after).get((self.myx, self.myy))
            theirs = self.distances(self.opponent_goal_row, after).get((self.opponentx, self.opponenty))
            if mine is not None and theirs is not None:
                out.append((pair, mine, theirs))
        return out

    def expand_obstacles(self):
        return [pair for pair, _mine, _theirs in self.wall_effects()]

    # --- playing ---------------------------------------------------------------------------
    def make_move(self):
        blocked = self.blocked()
        mine = self.distances(self.my_goal_row, blocked)
        theirs = self.distances(self.opponent_goal_row, blocked)
        my_d, their_d = mine[(self.myx, self.myy)], theirs[(self.opponentx, self.opponenty)]
        best = None
        if their_d <= my_d + 1:               # the opponent is about as close as I am: slow it down
            for pair, m, t in self.wall_effects():
                gain = (t - their_d) - (m - my_d)
                if gain >= 2 and (best is None or gain > best[0]):
                    best = (gain, pair)
        if best is not None:
            self.obstacles.extend(best[1])
            self.my_obstacles += 1
            return 2, best[1]
        steps = self.expand_player()
        if steps:
            x, y = min(steps, key=lambda s: (mine.get((s[0], s[1]), 10 ** 6), s))
            self.myx, self.myy = x, y
            return 1, [x, y]
        walls = self.expand_obstacles()
        if walls:
            self.obstacles.extend(walls[0])
            self.my_obstacles += 1
            return 2, walls[0]
        return None, None

    def opponent_move(self, moveType, result):
        if moveType == 1:
            self.opponentx, self.opponenty = result
        elif moveType == 2:
            self.obstacles.extend(result)
