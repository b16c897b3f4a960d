"""The command-line kind of Red-Blue Nim: the interactive program the assignment asked for.

`red_blue_nim.py <num-red> <num-blue> <version> <first-player> <depth>` is run by the grader's
program driver (grader/program_driver.py), which plays the human. Each scenario checks the
defaults, every computer move against the reference search, and the announced winner and score.
The human's moves are deterministic: the reference's move, or the first legal move.
Nothing here imports the grader: `play` only uses the console object it is given.
"""
from __future__ import annotations

from dataclasses import dataclass

from .engine import RBNimGame, RBNimState
from .probes import values_sentence
from .rules import describe
from .search import search

PATTERNS = {
    # "Computer takes 2 blue.", "Computer removes 1 marble from the red pile", "computer picked 2 red marbles"
    "computer_move": r"(?i)\bcomputer\b[^\n]*?\b(?:takes?|took|removes?|removed|picks?|picked)\b\D*?"
                     r"(?P<count>[12])\s+(?:marbles?\s+)?(?:from\s+)?(?:the\s+)?(?P<pile>red|blue)\b",
    # "Computer wins 6 points.", "You win! Final score: 9", "Human won with 12 points"
    "result": r"(?i)\b(?P<winner>computer|human|you)\b[^\n]*?\b(?:wins?|won)\b\D*?(?P<score>\d+)",
    # what the human types; "\n" separates answers to successive prompts (e.g. "{pile}\n{count}")
    "human_answer": "{pile} {count}",
}
HUMAN_WORDS = ("human", "you")


def _line(text: str, match) -> str:
    """The whole output line where `match` starts, for quoting."""
    start = text.rfind("\n", 0, match.start()) + 1
    end = text.find("\n", match.start())
    return text[start:end if end >= 0 else len(text)].strip()


def _where(state: RBNimState) -> str:
    return f"({state.red} red, {state.blue} blue, {state.version})"


@dataclass
class Scenario:
    """One game from the command line; `computer_first` is what the arguments (or defaults) imply."""

    label: str
    argv: list[str]
    red: int
    blue: int
    version: str
    computer_first: bool
    human: str = "reference"             # the human's moves: "reference" or "first" (first legal)

    def human_move(self, state: RBNimState):
        return search(state.red, state.blue, state.version)[1] if self.human == "reference" else state.legal_moves()[0]

    def play(self, console) -> None:
        state = RBNimGame(red=self.red, blue=self.blue, version=self.version).new_state(0)
        computer = 0 if self.computer_first else 1
        output, typed = console.launch(self.argv), None
        while True:
            for match in console.find("computer_move", output):
                self.check_computer_move(console, state, computer, match)
            if state.is_over:
                break
            if state.to_move == computer:
                if typed is not None:
                    after = f" after the human typed {typed!r} (if the program refused it, set the human_answer pattern)"
                elif console.waiting:
                    after = (f" (with arguments {' '.join(self.argv)!r} the computer moves first{self.defaulted('first')}, "
                             f"but the program asked for input)")
                else:
                    after = ""
                raise console.unparsable(f"the computer's move at {_where(state)}{after}", "computer_move", output)
            if console.exited:
                raise console.fail(f"The program ended at {_where(state)} on the human's turn, before the game "
                                   f"was over.")
            move = self.human_move(state)
            state.play(move)
            output = ""
            lines = console.pattern("human_answer").format(pile=move[0], count=move[1]).split("\n")
            for k, line in enumerate(lines):
                typed = line
                output += console.send(line, complete=k == len(lines) - 1)
        self.check_result(console, state, computer, output)

    def defaulted(self, argument: str) -> str:
        """" (the default)" when the scenario leaves `argument` ("version" or "first") to the program."""
        return " (the default)" if len(self.argv) < {"version": 3, "first": 4}[argument] else ""

    def check_computer_move(self, console, state: RBNimState, computer: int, match) -> None:
        move = (match["pile"].lower(), int(match["count"]))
        said = _line(match.string, match)
        if state.is_over:
            raise console.fail(f"The program announced {said!r} after the game was over at {_where(state)}.")
        if state.to_move != computer:
            first = "computer" if self.computer_first else "human"
            raise console.fail(f"The program announced {said!r} at {_where(state)} on the human's turn "
                               f"(with arguments {' '.join(self.argv)} the {first} moves first).")
        value, best = search(state.red, state.blue, state.version)
        if move != best:
            raise console.fail(f"At {_where(state)}{self.defaulted('version')} the computer took {move[1]} {move[0]} ({said!r}), but MinMax "
                               f"with alpha-beta in the prescribed order takes {describe(best)} (value {value:+d}); "
                               f"values of the moves in order: {values_sentence(state.red, state.blue, state.version)}.")
        state.play(move)

    def check_result(self, console, state: RBNimState, computer: int, output: str) -> None:
        out = state.outcome
        winner = "computer" if out.winner == computer else "human"
        amount = int(abs(out.scores[0]))
        facing = "computer" if state.turn == computer else "human"
        match = console.expect("result", output, f"the winner and the final score at {_where(state)}")
        said_winner = "human" if match["winner"].lower() in HUMAN_WORDS else "computer"
        if (said_winner, int(match["score"])) != (winner, amount):
            raise console.fail(f"The game ended at {_where(state)} with the {facing} facing an empty pile, so the "
                               f"{winner} wins {amount} points, but the program announced {_line(output, match)!r}.")


@dataclass(frozen=True)
class ProgramKind:
    """What the grader's program driver needs: the script, its patterns, the scenarios, the points."""

    entry: str
    patterns: dict
    points: float = 10.0
    templates: tuple = ("human_answer",)          # patterns that are str.format templates, not regexes
    module_function: str = "choose_move"          # a submission defining this at top level is a module

    def scenarios(self) -> list[Scenario]:
        return [
            Scenario("defaults (3 5: standard, computer first)", ["3", "5"], 3, 5, "standard", True),
            Scenario("default first player (2 2 misere: computer first)", ["2", "2", "misere"], 2, 2, "misere", True),
            Scenario("5 3 standard computer", ["5", "3", "standard", "computer"], 5, 3, "standard", True, "first"),
            Scenario("4 4 standard human", ["4", "4", "standard", "human"], 4, 4, "standard", False),
            Scenario("3 5 misere computer", ["3", "5", "misere", "computer"], 3, 5, "misere", True),
            Scenario("4 4 misere human", ["4", "4", "misere", "human"], 4, 4, "misere", False, "first"),
            Scenario("6 5 standard human", ["6", "5", "standard", "human"], 6, 5, "standard", False, "first"),
            Scenario("5 6 misere computer", ["5", "6", "misere", "computer"], 5, 6, "misere", True, "first"),
        ]


PROGRAM = ProgramKind(entry="red_blue_nim.py", patterns=PATTERNS)
