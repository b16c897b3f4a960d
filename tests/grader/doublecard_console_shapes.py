"""Seven Double Card console programs of our own, in the shapes COMP 472 students (Winter 2019) gave
theirs (issue 40), written here, never copied: an entry of any name beside helper modules (one of them
a `player.py` or `Player.py` that is not the course API), menus printed and read by a bare `input()`,
menus inside a several-line prompt, questions about who plays first asked of "you" or of "the AI",
misspelt ("AI palys as the 1th player or 2nd palyer?(1 or 2)"), options written "colors(0)", "[2]",
"(1) Human", yes/no menus ("1- Yes"), a name to type. Each plays through `ai_core.Board`: the
built-in random player's board (rulesets/doublecard/players/random), as a student's AI."""
from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
RANDOM = (ROOT / "rulesets" / "doublecard" / "players" / "random" / "player.py").read_text()

# the loop every shape shares, in its own words: `ai` is the AI's Board, `ai_turn` whose turn it is
LOOP = '''
def play(ai, ai_turn, ask_move, say_move):
    for _ in range(60):
        if ai_turn:
            say_move(ai.choose_move())
        else:
            while True:
                move = " ".join(ask_move().upper().split())
                if move in ai.moves():
                    break
                print("Invalid move, try again.")
            ai.opponent_move(move)
        ai_turn = not ai_turn
    print("Draw!")
'''

SHAPES: dict[str, dict[str, str]] = {
    # a menu printed line by line and read by a bare input(); "Does AI play first? (y/n)"
    "game.py, a printed menu read by input()": {
        "game.py": '''from ai_core import Board
from loop import play


def main():
    print("=== DOUBLE CARD ===")
    print("1. Human vs Human")
    print("2. Human vs AI")
    print("3. AI vs AI")
    print("Select a mode:")
    mode = input().strip()
    if mode != "2":
        print("Only Human vs AI is in this build.")
        return
    ai_first = input("Does AI play first? (y/n) ").strip().lower().startswith("y")
    ai = Board("colours" if ai_first else "dots", ai_first)

    def ask():
        print("Enter your move:")
        return input()

    play(ai, ai_first, ask, lambda m: print("AI move: " + m))


if __name__ == "__main__":
    main()
''',
    },
    # the seat of the AI, misspelt, with "(1 or 2)"; a yes/no about the search
    "doublecard.py, a misspelt question about the AI's seat": {
        "doublecard.py": '''from ai_core import Board
from loop import play

print("Welcome to Double Card!")
seat = input("AI palys as the 1th player or 2nd palyer?(1 or 2)").strip()
while seat not in ("1", "2"):
    seat = input("Plese enter 1 or 2:").strip()
pruning = input("Use alpha-beta pruning? (y/n): ").strip().lower() == "y"
ai = Board("colours" if seat == "1" else "dots", seat == "1")
play(ai, seat == "1", lambda: input("Please input your step: "), lambda m: print(f"AI's card: {m}"))
''',
    },
    # menus inside several-line prompts; a `player.py` that is not the course's Player; a trace to refuse
    "playGame.py, menus in multi-line prompts and a player.py of its own": {
        "playGame.py": '''from game import Game
from player import Player


def setup():
    print("Lets play Double Card")
    mode = input("Enter game mode:\\n1 - Manual Mode \\n2 - Automatic Mode\\n")
    if mode != "2":
        raise SystemExit("manual mode: two people at one keyboard")
    ai_seat = input("Which player shall AI play:\\n1 - 1st player \\n2 - 2nd player\\n")
    input("Do you want to activate alpha-beta??\\n1- Yes \\n2- No\\n")
    if input("Generate a trace file of the search?\\n1- Yes \\n2- No\\n") == "1":
        raise SystemExit("no trace file in this build")
    pref = input("Enter Player1's preference:\\n1 - dots \\n2 - colors\\n")
    first = Player("Player 1", "AI" if ai_seat == "1" else "H", "dots" if pref == "1" else "colours")
    return Game(first, ai_seat == "1")


if __name__ == "__main__":
    setup().run()
''',
        "game.py": '''from ai_core import Board
from loop import play


class Game:
    def __init__(self, first, ai_first):
        self.first, self.ai_first = first, ai_first

    def run(self):
        ai = Board(self.first.pref if self.ai_first else "dots", self.ai_first)

        def ask():
            print("Input the move:")
            return input()

        play(ai, self.ai_first, ask, lambda m: print("Player " + ("1" if self.ai_first else "2") + " (AI) plays " + m))
''',
        "player.py": '''class Player:
    def __init__(self, name, kind, pref):
        self.name, self.kind, self.pref = name, kind, pref
''',
    },
    # a tabbed menu in a prompt, a name to type, a marker menu, "Who goes first, human or AI?"
    "DoubleCardGame.py, a name and a marker to choose": {
        "DoubleCardGame.py": '''from ai_core import Board
from loop import play
from Player import Player

if __name__ == "__main__":
    print("Let's play DoubleCardGame!\\n")
    mode = input("Select the game mode:\\n\\t1 - Human vs. Human\\n\\t2 - Human vs. AI\\n")
    if int(mode) != 2:
        exit(0)
    name = input("\\nEnter player 1's name: ")
    marker = int(input("\\nSelect player 1's marker:\\n1 - Dots \\n2 - Color\\n"))
    who = input("Who goes first, human or AI? ").strip().lower()
    me = Player(name, "dots" if marker == 1 else "colours")
    ai_first = who.startswith("a")
    ai = Board("colours" if ai_first else "dots", ai_first)
    play(ai, ai_first, lambda: input(me.name + ", enter your move: "), lambda m: print("AI has played: " + m))
''',
        "Player.py": '''class Player:
    def __init__(self, name, marker):
        self.name, self.marker = name, marker
''',
    },
    # main.py: "Do you want to go first?" and a side to choose by its name
    "main.py, go first and a side by name": {
        "main.py": '''import sys

from ai_core import Board
from loop import play

if input("Play against the computer? (y/n) ").strip().lower() != "y":
    sys.exit(0)
me_first = input("Do you want to go first? (y/n) ").strip().lower() == "y"
side = input("Choose your side - colors or dots: ").strip().lower()
ai = Board("dots" if side.startswith("c") else "colours", not me_first)
play(ai, not me_first, lambda: input("Your move: "), lambda m: print("Computer placed " + m))
''',
    },
    # driver.py: "[Y/N]", options "(1) Human (2) AI", "(c)olors"
    "driver.py, options in brackets": {
        "driver.py": '''from ai_core import Board
from loop import play


def ask(question, allowed):
    while True:
        answer = input(question).strip().lower()
        if answer in allowed:
            return answer
        print("Not an option.")


def main():
    ask("Play against the AI? [Y/N]: ", ("y",))
    starter = ask("Who starts? (1) Human (2) AI: ", ("1", "2"))
    token = ask("Pick your token: (c)olors or (d)ots: ", ("c", "d", "colors", "dots", "colours"))
    ai = Board("dots" if token.startswith("c") else "colours", starter == "2")
    play(ai, starter == "2", lambda: input("move> "), lambda m: print("[AI] " + m))


main()
''',
    },
    # app.py: a class, options on one line "[1] ... [2] ...", then a bare prompt; "colors(0) or dots(1)"
    "app.py, a one-line menu and numbered roles": {
        "app.py": '''from ai_core import Board
from loop import play


class DoubleCardApp:
    def run(self):
        print("[1] Player vs Player  [2] Player vs Bot  [3] Bot vs Player")
        mode = input("Choice> ").strip()
        if mode not in ("2", "3"):
            return
        bot_first = mode == "3"
        role = int(input("Are you playing for colors(0) or dots(1)\\n"))
        ai = Board("dots" if role == 0 else "colours", bot_first)
        play(ai, bot_first, lambda: input("Enter your move (0 orientation column row)\\n"),
             lambda m: print("Bot chose " + m))


DoubleCardApp().run()
''',
    },
}


def write_shape(folder: Path, files: dict[str, str]) -> Path:
    """One shape's program in `folder`, with the AI's board and the shared loop beside it."""
    folder.mkdir(parents=True)
    (folder / "ai_core.py").write_text(RANDOM.replace("class Player:", "class Board:"))
    (folder / "loop.py").write_text(LOOP)
    for name, text in files.items():
        (folder / name).write_text(text)
    return folder
