# Red-Blue Nim, CSE 4308 Assignment 2 -- example submission with an OFF-BY-ONE terminal test:
# it treats a pile holding one marble as already empty.
# MinMax with alpha-beta pruning straight from the textbook: MAX is the computer.

def successors(red, blue, version):
    order = [("red", 2), ("blue", 2), ("red", 1), ("blue", 1)]
    if version == "misere":
        order.reverse()
    result = []
    for pile, count in order:
        left = red if pile == "red" else blue
        if left >= count:
            child = (red - count, blue) if pile == "red" else (red, blue - count)
            result.append(((pile, count), child))
    return result


def terminal(red, blue):
    return red <= 1 or blue <= 1


def utility(red, blue, version, computer_to_move):
    score = 2 * red + 3 * blue
    computer_wins = (version == "misere") == computer_to_move
    return score if computer_wins else -score


def max_value(red, blue, version, alpha, beta):
    if terminal(red, blue):
        return utility(red, blue, version, True)
    v = float("-inf")
    for _, (r, b) in successors(red, blue, version):
        v = max(v, min_value(r, b, version, alpha, beta))
        if v >= beta:
            return v
        alpha = max(alpha, v)
    return v


def min_value(red, blue, version, alpha, beta):
    if terminal(red, blue):
        return utility(red, blue, version, False)
    v = float("inf")
    for _, (r, b) in successors(red, blue, version):
        v = min(v, max_value(r, b, version, alpha, beta))
        if v <= alpha:
            return v
        beta = min(beta, v)
    return v


def choose_move(red, blue, version, depth=None):
    version = "misere" if version.lower() in ("misere", "misère") else "standard"
    best_move, alpha = None, float("-inf")
    for move, (r, b) in successors(red, blue, version):
        v = min_value(r, b, version, alpha, float("inf"))
        if v > alpha:
            best_move, alpha = move, v
    return best_move
