# Semestralni prace B3B33ALP - Bohumil Svoboda
# Jen bezi nejkratsi cestou do cile; prekazky nestavi.
from obstacle import *


def neighbours(x, y):
    return [(x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)]


class Player:
    def __init__(self, name):
        self.name = name
        self.version = "bob-1"

    def initialization(self, sizex, sizey, myx, myy, opponentx, opponenty, max_obstacles, list_of_obstacles):
        self.sizex = sizex
        self.sizey = sizey
        self.myx = myx
        self.myy = myy
        self.opponentx = opponentx
        self.opponenty = opponenty
        self.max_obstacles = max_obstacles
        self.obstacles = list_of_obstacles[:]
        if myy == 0:
            self.my_goal_row = sizey - 1
        else:
            self.my_goal_row = 0
        self.opponent_goal_row = sizey - 1 - self.my_goal_row
        self.my_obstacles = 0

    def is_in_board(self, x, y):
        return 0 <= x < self.sizex and 0 <= y < self.sizey

    def free(self, fx, fy, tx, ty, obstacles):
        for o in obstacles:
            if not o.can_player_move(fx, fy, tx, ty):
                return False
        return True

    def distance(self, x, y, goal, obstacles):
        """Pocet kroku do cilove rady (BFS), None kdyz cesta neexistuje."""
        seen = {(x, y): 0}
        front = [(x, y)]
        while front:
            nxt = []
            for cx, cy in front:
                if cy == goal:
                    return seen[(cx, cy)]
                for nx, ny in neighbours(cx, cy):
                    if self.is_in_board(nx, ny) and (nx, ny) not in seen and self.free(cx, cy, nx, ny, obstacles):
                        seen[(nx, ny)] = seen[(cx, cy)] + 1
                        nxt.append((nx, ny))
            front = nxt
        return None

    def expand_player(self):
        result = []
        for nx, ny in neighbours(self.myx, self.myy):
            if not self.is_in_board(nx, ny):
                continue
            if nx == self.opponentx and ny == self.opponenty:
                continue
            if self.free(self.myx, self.myy, nx, ny, self.obstacles):
                result.append([nx, ny])
        return result

    def expand_obstacles(self):
        if self.my_obstacles >= self.max_obstacles:
            return []
        result = []
        for x in range(self.sizex - 1):
            for y in range(self.sizey - 1):
                for pair in ([Obstacle(x, y, x, y + 1), Obstacle(x + 1, y, x + 1, y + 1)],
                             [Obstacle(x, y, x + 1, y), Obstacle(x, y + 1, x + 1, y + 1)]):
                    overlap = False
                    for o in pair:
                        if not self.free(o.fromx, o.fromy, o.tox, o.toy, self.obstacles):
                            overlap = True
                    if overlap:
                        continue
                    after = self.obstacles + pair
                    if self.distance(self.myx, self.myy, self.my_goal_row, after) is None:
                        continue
                    if self.distance(self.opponentx, self.opponenty, self.opponent_goal_row, after) is None:
                        continue
                    result.append(pair)
        return result

    def make_move(self):
        moves = self.expand_player()
        if moves:
            moves.sort(key=lambda m: self.distance(m[0], m[1], self.my_goal_row, self.obstacles))
            self.myx, self.myy = moves[0]
            return 1, moves[0]
        walls = self.expand_obstacles()
        if walls:
            self.obstacles = self.obstacles + walls[0]
            self.my_obstacles += 1
            return 2, walls[0]
        return None, None

    def opponent_move(self, moveType, result):
        if moveType == 1:
            self.opponentx, self.opponenty = result[0], result[1]
        elif moveType == 2:
            self.obstacles = self.obstacles + result
