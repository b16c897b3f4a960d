"""The course's example ``manager.py`` (B3B33ALP 2017/18), as the assignment page describes it.

A minimal game manager for trying a Player out at home: it places the players in the middle
column of the first and last rows with one initial obstacle, calls ``initialization`` on both and
then alternates ``opponent_move`` / ``make_move``, player 1 first. Like the course's, it does not
check that moves are legal (the grader's referee does that). Students import it
(``from manager import *``) to test their player; inside the grader it is only offered so that
such an import works.
"""
from obstacle import *  # noqa: F401,F403 - the course's manager exposed Obstacle too


class Manager:
    def __init__(self, p1, p2, sizex, sizey):
        """p1, p2: Player objects; sizex, sizey: the board's size."""
        self.p1 = p1
        self.p2 = p2
        self.sizex = sizex
        self.sizey = sizey
        self.obstacles = []

    def init(self):
        """Place both players, put one two-cell obstacle near the middle, tell both players."""
        self.x1, self.y1 = self.sizex // 2, 0
        self.x2, self.y2 = self.sizex // 2, self.sizey - 1
        self.obstacles = [Obstacle(2, self.sizex // 2, 2, self.sizey // 2 + 1),
                          Obstacle(3, self.sizex // 2, 3, self.sizey // 2 + 1)]
        self.p1.initialization(self.sizex, self.sizey, self.x1, self.y1, self.x2, self.y2, 4, list(self.obstacles))
        self.p2.initialization(self.sizex, self.sizey, self.x2, self.y2, self.x1, self.y1, 4, list(self.obstacles))

    def check_result(self, player, moveType, result):
        """True if make_move's answer has the right shape (a step, two Obstacles or None); the
        position of a stepping player is updated and new obstacles are kept."""
        if moveType is None:
            return True
        if moveType == 1 and len(result) == 2:
            if player == 1:
                self.x1, self.y1 = result[0], result[1]
            else:
                self.x2, self.y2 = result[0], result[1]
            return True
        if moveType == 2 and len(result) == 2 and all(type(o) == Obstacle for o in result):
            self.obstacles.extend(result)
            return True
        print(f"Upps, player{player} returned invalid output from move()")
        return False

    def is_winner(self):
        """True once a player stands in its goal row."""
        return self.y1 == self.sizey - 1 or self.y2 == 0

    def game(self, max_rounds=1000):
        """Play until a player wins: tell p1 where p2 is, ask p1, tell p2, ask p2, and so on."""
        move2, result2 = 1, [self.x2, self.y2]
        for _ in range(max_rounds):
            self.p1.opponent_move(move2, result2)
            move1, result1 = self.p1.make_move()
            print("p1 returned: ", move1, result1)
            if not self.check_result(1, move1, result1):
                return
            if self.is_winner():
                print("P1 wins")
                return
            self.p2.opponent_move(move1, result1)
            move2, result2 = self.p2.make_move()
            print("p2 returned: ", move2, result2)
            if not self.check_result(2, move2, result2):
                return
            if self.is_winner():
                print("p2 wins!")
                return
            print("p1=(", self.x1, self.y1, "), p2=(", self.x2, self.y2, ")")
        print("end of the game")
