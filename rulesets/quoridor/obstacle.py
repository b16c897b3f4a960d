"""The course's ``obstacle.py`` (B3B33ALP 2017/18), rebuilt from the assignment page.

An Obstacle is one forbidden step between two 4-neighbour cells; a two-cell wall is two of them.
Students do ``from obstacle import *`` and must return instances of this very class.
"""


class Obstacle:
    def __init__(self, fromx, fromy, tox, toy):
        self.fromx = fromx
        self.fromy = fromy
        self.tox = tox
        self.toy = toy

    def can_player_move(self, fromx, fromy, tox, toy):
        """False if this obstacle blocks the step (fromx, fromy) -> (tox, toy), in either direction."""
        if self.fromx == fromx and self.fromy == fromy and self.tox == tox and self.toy == toy:
            return False
        return not (self.fromx == tox and self.fromy == toy and self.tox == fromx and self.toy == fromy)

    def is_valid_obstacle(self, sizex, sizey):
        """True if both cells of the obstacle lie on a sizex x sizey board."""
        return (0 <= self.fromx < sizex and 0 <= self.tox < sizex
                and 0 <= self.fromy < sizey and 0 <= self.toy < sizey)

    def __eq__(self, other):
        return (type(self) == type(other) and  # noqa: E721 (the course's own comparison)
                self.fromx == other.fromx and self.fromy == other.fromy
                and self.tox == other.tox and self.toy == other.toy)

    def __hash__(self):
        return hash((self.fromx, self.fromy, self.tox, self.toy))

    def __str__(self):
        return "(" + str(self.fromx) + "," + str(self.fromy) + ")->(" + str(self.tox) + "," + str(self.toy) + ")"

    __repr__ = __str__


__all__ = ["Obstacle"]
