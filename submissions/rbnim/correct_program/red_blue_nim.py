#!/usr/bin/env python3
"""Red-Blue Nim, CSE 4308 Assignment 2 -- the interactive program (example submission).

    red_blue_nim.py <num-red> <num-blue> [standard|misere] [computer|human] [depth]

The computer moves with MinMax and alpha-beta pruning in the assignment's order; the human types
a pile and a count such as "red 1" or "blue 2". The depth is accepted and ignored (no extra credit).
"""
import sys

ORDER = [("red", 2), ("blue", 2), ("red", 1), ("blue", 1)]
USAGE = "usage: red_blue_nim.py <num-red> <num-blue> [standard|misere] [computer|human] [depth]"


def moves(red, blue, version):
    order = ORDER if version == "standard" else ORDER[::-1]
    return [(pile, n) for pile, n in order if (red if pile == "red" else blue) >= n]


def play(red, blue, move):
    pile, n = move
    return (red - n, blue) if pile == "red" else (red, blue - n)


def negamax(red, blue, version, alpha, beta):
    """Value of the position for the player about to move."""
    if red == 0 or blue == 0:
        score = 2 * red + 3 * blue
        return score if version == "misere" else -score
    best = float("-inf")
    for move in moves(red, blue, version):
        best = max(best, -negamax(*play(red, blue, move), version, -beta, -alpha))
        alpha = max(alpha, best)
        if alpha >= beta:
            break
    return best


def computer_move(red, blue, version):
    best_move, alpha = None, float("-inf")
    for move in moves(red, blue, version):
        value = -negamax(*play(red, blue, move), version, float("-inf"), -alpha)
        if value > alpha:
            best_move, alpha = move, value
    return best_move


def ask_human(red, blue):
    while True:
        words = input('Your move -- pile and count (e.g. "red 1"): ').lower().split()
        if len(words) == 2 and words[0] in ("red", "blue") and words[1] in ("1", "2"):
            move = (words[0], int(words[1]))
            if (red if move[0] == "red" else blue) >= move[1]:
                return move
            print(f"The {move[0]} pile does not have {move[1]} marbles.")
        else:
            print('Please type a pile (red or blue) and a count (1 or 2), e.g. "blue 2".')


def main(argv):
    if len(argv) < 2:
        print(USAGE)
        return 1
    try:
        red, blue = int(argv[0]), int(argv[1])
    except ValueError:
        print(USAGE)
        return 1
    version = argv[2].lower().replace("è", "e") if len(argv) > 2 else "standard"
    first = argv[3].lower() if len(argv) > 3 else "computer"
    if red < 0 or blue < 0 or version not in ("standard", "misere") or first not in ("computer", "human"):
        print(USAGE)
        return 1
    print(f"Red-Blue Nim, {version} version: {red} red and {blue} blue marbles; the {first} moves first.")
    player = first
    while red > 0 and blue > 0:
        print(f"Red: {red}  Blue: {blue}")
        if player == "computer":
            move = computer_move(red, blue, version)
            print(f"Computer takes {move[1]} {move[0]}.")
        else:
            move = ask_human(red, blue)
        red, blue = play(red, blue, move)
        player = "human" if player == "computer" else "computer"
    score = 2 * red + 3 * blue
    other = "human" if player == "computer" else "computer"
    winner = player if version == "misere" else other
    print(f"Red: {red}  Blue: {blue}")
    print(f"Game over: the {player} faces an empty pile.")
    print(f"{winner.capitalize()} wins {score} points.")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
