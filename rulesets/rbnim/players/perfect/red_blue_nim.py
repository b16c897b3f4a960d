"""Built-in perfect player, written as a student would: MinMax with alpha-beta in the assignment's order.

Negamax form: a value is for the player about to move. A transposition table keeps what each
search proved about a position (exact, at least, at most) so big piles stay fast.
"""
import math

STANDARD_ORDER = [("red", 2), ("blue", 2), ("red", 1), ("blue", 1)]
TABLE = {}


def moves(red, blue, version):
    order = STANDARD_ORDER if version == "standard" else STANDARD_ORDER[::-1]
    return [(pile, n) for pile, n in order if (red if pile == "red" else blue) >= n]


def apply(red, blue, move):
    pile, n = move
    return (red - n, blue) if pile == "red" else (red, blue - n)


def value(red, blue, version, alpha, beta):
    if red == 0 or blue == 0:                      # the player to move faces an empty pile
        points = 2 * red + 3 * blue
        return points if version == "misere" else -points
    key = (red, blue, version)
    low, high = TABLE.get(key, (-math.inf, math.inf))
    if low >= beta or low == high:
        return low
    if high <= alpha:
        return high
    alpha, beta = max(alpha, low), min(beta, high)
    start, best = alpha, -math.inf
    for move in moves(red, blue, version):
        best = max(best, -value(*apply(red, blue, move), version, -beta, -alpha))
        alpha = max(alpha, best)
        if alpha >= beta:
            break
    if best <= start:
        high = best
    elif best >= beta:
        low = best
    else:
        low = high = best
    TABLE[key] = (low, high)
    return best


def choose_move(red, blue, version, depth=None):
    version = version.lower().replace("è", "e")
    best_value, best_move, alpha = -math.inf, None, -math.inf
    for move in moves(red, blue, version):
        v = -value(*apply(red, blue, move), version, -math.inf, -alpha)
        if v > best_value:
            best_value, best_move, alpha = v, move, v
    return best_move
