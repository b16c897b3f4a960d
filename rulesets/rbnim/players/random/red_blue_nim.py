"""Built-in random player: any legal move, from a fixed seed so games replay the same way."""
import random

RNG = random.Random(4308)


def choose_move(red, blue, version, depth=None):
    options = [(pile, n) for pile, have in (("red", red), ("blue", blue)) for n in (1, 2) if have >= n]
    return RNG.choice(options)
