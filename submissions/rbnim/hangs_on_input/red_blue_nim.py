#!/usr/bin/env python3
"""Red-Blue Nim, CSE 4308 Assignment 2 -- example submission that HANGS waiting for input.

It reads the human's move with sys.stdin.read(), which waits for the end of the input instead of
one line: typed interactively, the game never goes on after "Your move:".
"""
import sys

ORDER = [("red", 2), ("blue", 2), ("red", 1), ("blue", 1)]


def moves(red, blue, version):
    order = ORDER if version == "standard" else ORDER[::-1]
    return [(pile, n) for pile, n in order if (red if pile == "red" else blue) >= n]


def play(red, blue, move):
    pile, n = move
    return (red - n, blue) if pile == "red" else (red, blue - n)


def negamax(red, blue, version, alpha, beta):
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


def main(argv):
    red, blue = int(argv[0]), int(argv[1])
    version = argv[2] if len(argv) > 2 else "standard"
    player = argv[3] if len(argv) > 3 else "computer"
    while red > 0 and blue > 0:
        print(f"Red: {red}  Blue: {blue}")
        if player == "computer":
            move = computer_move(red, blue, version)
            print(f"Computer takes {move[1]} {move[0]}.")
        else:
            print("Your move:")
            pile, count = sys.stdin.read().split()[:2]      # the bug: waits for end of input
            move = (pile, int(count))
        red, blue = play(red, blue, move)
        player = "human" if player == "computer" else "computer"
    score = 2 * red + 3 * blue
    winner = player if version == "misere" else ("human" if player == "computer" else "computer")
    print(f"{winner.capitalize()} wins {score} points.")


if __name__ == "__main__":
    main(sys.argv[1:])
