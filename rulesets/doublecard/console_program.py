"""The console kind of Double Card: a COMP 472 program with a console of its own (mode menus, then moves).

Many COMP 472 programs were played at the keyboard: a menu for the mode ("1 - Human vs Human,
2 - Human vs AI"), questions for who starts and who plays colours or dots, then the board, a prompt
for the human's move and the AI's move printed in the course's notation ("AI plays 0 5 A 2").
The grader's console driver (grader/console_driver.py) plays the human, as for Red-Blue Nim: it
answers the set-up questions by their meaning, types the first legal move in the course's
notation on its turns, and checks every move the program's AI prints against the referee. Output
it cannot follow raises `console.unparsable` ("needs a human"). Nothing here imports the grader.

A Python program is this kind when it prompts (an `input("...")` with a question) and has no
`Player` (that is the Python API; a program that reads its input without prompts is a
line-protocol player, rulesets/doublecard/lines.py); so is a Java `Main.java` or a C/C++/Rust
program that prints questions (grader/native_console.py): they are played the same way (the
Java one in the JVM shim, the others watched by sandbox/console_lines.py).
"""
from __future__ import annotations

from dataclasses import dataclass

from rulesets import linear_re
from rulesets.base import IllegalMove

from .engine import DoubleCardGame, DoubleCardState

PATTERNS = {
    # a line where the program's AI says its move: "AI plays 0 5 A 2", "Computer move: F 2 F 3 3 A 2"
    "computer_move": r"(?im)^[^\n]*\b(?:ai|computer|cpu|bot|machine)\b[^\n]*$",
    # who won, or a draw: "Colours win!", "AI wins the game", "It's a draw"
    "result": r"(?i)\b(?:wins?|won|winner|draw|tie|tied)\b[^\n]*",
    "human_answer": "auto",
}
ENTRIES = ("player.py", "main.py")
MOVE_TEXT = linear_re.compile(r"(?i)\b(?:0\s+[1-8]\s+[a-h]\s*\d{1,2}|[a-h]\s*\d{1,2}\s+[a-h]\s*\d{1,2}\s+[1-8]\s+"
                              r"[a-h]\s*\d{1,2})\b")
QUOTED = linear_re.compile(r"'[^'\n]{1,40}'|\"[^\"\n]{1,40}\"|\([^)\n]*\)|\b(?i:e\.?\s?g)\b\.?[^\n]*")
REFUSED = linear_re.compile(r"(?i)\b(?:invalid|illegal|try again|not (?:a )?valid|not allowed|error|wrong|cannot)\b")
AI = r"(?:ai|computer|cpu|bot|machine)"
VERSUS = linear_re.compile(rf"(?i)\b(?:human|player|you)\b[^\n]*\b{AI}\b|\b{AI}\b[^\n]*\b(?:human|player|you)\b")
AGAINST = linear_re.compile(rf"(?i)\b(?:against|vs\.?|versus|with)\s+(?:the\s+|an?\s+)?{AI}\b")
AI_FIRST = linear_re.compile(rf"(?i)^\W*{AI}\b")
ROLE_WORDS = linear_re.compile(r"(?i)\b(?:colou?rs?|dots?)\b")
ROLE = {"colours": r"(?i)\bcolou?r", "dots": r"(?i)\bdot"}
ASKS_FIRST = linear_re.compile(r"(?i)\b(?:first|start|begin|starts)\b")
ASKS_YES = linear_re.compile(r"(?i)\b(?:y/n|yes/no|\(y\)|yes or no)\b|\?\s*$")
ASKS_MOVE = linear_re.compile(r"(?i)\b(?:move|placement)\b")      # "Enter your move", not "Who moves first?"
MAX_PLIES = 10                 # moves played in one scenario (both sides): enough to see the AI answer several
SETUP_QUESTIONS = 8            # set-up questions answered before the first move at most


def moves_in(line: str) -> list[str]:
    """The course-notation moves written in `line`, outside quotes, parentheses and examples."""
    return [m.group(0) for m in MOVE_TEXT.finditer(QUOTED.sub(" ", line))]


@dataclass
class Scenario:
    """One game from the console: the human asks for a game against the AI, moving first or second."""

    label: str
    computer_first: bool

    def play(self, console) -> None:
        human_role = "dots" if self.computer_first else "colours"      # the first mover plays colours
        state = DoubleCardGame().new_state(0)
        computer = 0 if self.computer_first else 1
        output, typed, setup = console.launch([]), None, 0
        while not state.is_over and state.ply < MAX_PLIES:
            for text in self.computer_moves(console, output, typed):
                self.check_computer_move(console, state, computer, text)
                if state.is_over:
                    break
            if state.is_over or state.ply >= MAX_PLIES:
                break
            if console.exited:
                raise console.fail(f"The program ended after {state.ply} moves, before the game was over.")
            if state.ply <= 1 and setup < SETUP_QUESTIONS and self.is_setup(console, output):
                setup += 1
                output, typed = console.send(self.setup_answer(console, output, human_role)), None
                continue
            if state.to_move == computer:
                raise console.unparsable(f"the AI's move after {state.ply} moves", "computer_move", output)
            output, typed = self.human_move(console, state, output)

    def is_setup(self, console, output: str) -> bool:
        """Whether the program is asking a set-up question (mode, who starts, colours or dots), not a move."""
        prompt = console.prompt(output)
        if not console.waiting or ASKS_MOVE.search(QUOTED.sub(" ", prompt)):
            return False
        menu = [label for label in console.menu(output).values() if self.score(label, "colours") or
                self.score(label, "dots") or ROLE_WORDS.search(label)]
        return bool(menu or ROLE_WORDS.search(prompt) or ASKS_FIRST.search(prompt) or VERSUS.search(prompt)
                    or AGAINST.search(prompt))

    def setup_answer(self, console, output: str, role: str) -> str:
        """What a person types to get a game against the AI, moving first or second, as `role`."""
        prompt = console.prompt(output)
        options = console.menu(output)          # a menu, or options inside the question ("'0' for Colors")
        if options:
            scores = {key: self.score(label, role) for key, label in options.items()}
            best = max(scores, key=lambda k: scores[k])
            if scores[best] > 0:
                return str(best)
        if ROLE_WORDS.search(prompt):               # the role in the prompt's own spelling: "colors", "Dots"
            shown = linear_re.search(ROLE[role] + r"\w*", prompt)
            return shown.group(0).lower() if shown else role
        if ASKS_FIRST.search(prompt):
            if linear_re.search(rf"(?i)\b{AI}\b", prompt) and linear_re.search(r"(?i)\b(?:human|you|player)\b", prompt) \
                    and not ASKS_YES.search(prompt):
                return "ai" if self.computer_first else "human"
            return "n" if self.computer_first else "y"          # "Do you want to go first? (y/n)"
        if (AGAINST.search(prompt) or VERSUS.search(prompt)) and ASKS_YES.search(prompt):
            return "y"                                      # "Play against the computer? (y/n)"
        raise console.unparsable("what the program asks before the game", "human_answer", output,
                                 f"{prompt!r} asks neither for the mode, nor who starts, nor colours or dots")

    def score(self, label: str, role: str) -> int:
        """How well a menu option fits the game wanted: human against the AI, the right one first."""
        text = label.lower()
        points = 0
        if VERSUS.search(text):
            points += 4
            points += 2 if bool(AI_FIRST.search(text)) == self.computer_first else 0
        elif linear_re.search(rf"(?i)\b{AI}\b[^\n]*\b{AI}\b|\bhuman\b[^\n]*\bhuman\b", text):
            points -= 4                                      # AI vs AI, human vs human
        if linear_re.search(ROLE[role], text):
            points += 3
        if ASKS_FIRST.search(text) and not ROLE_WORDS.search(text):
            wants_ai = bool(linear_re.search(rf"(?i)\b{AI}\b", text))
            points += 3 if wants_ai == self.computer_first else -1
        return points

    def computer_moves(self, console, output: str, typed: str | None) -> list[str]:
        """The moves the AI announces in `output` (an echo of the human's move is not the AI's)."""
        found: list[str] = []
        for match in console.find("computer_move", output):
            for text in moves_in(match.group(0)):
                if typed is not None and not found and _same(text, typed):
                    continue
                found.append(text)
        return found

    def check_computer_move(self, console, state: DoubleCardState, computer: int, text: str) -> None:
        if state.to_move != computer:
            raise console.fail(f"The program announced the AI's move {text!r} after {state.ply} moves, on the "
                               f"human's turn ({'the AI' if self.computer_first else 'the human'} moves first).")
        try:
            move = state.parse_move(text)
            state.copy().play(move)
        except IllegalMove as exc:
            raise console.fail(f"After {state.ply} moves the AI played {text!r}, which is illegal: {exc}") from None
        state.play(move)

    def human_move(self, console, state: DoubleCardState, output: str) -> tuple[str, str]:
        """Type the first legal move in the course's notation (again in other spellings if refused)."""
        move = state.legal_moves()[0]
        text = state.move_text(move)
        for form in (text, text.lower(), " ".join(text.split()[:-2] + [text.split()[-2] + text.split()[-1]])):
            after = console.send(form)
            if not (console.waiting and REFUSED.search(after) and not console.find("computer_move", after)):
                state.play(move)
                return after, form
            output = after
        raise console.unparsable(f"the human's move after {state.ply} moves", "human_answer", output,
                                 f"the program refused {text!r} in every spelling tried")


def _same(a: str, b: str) -> bool:
    return a.upper().split() == b.upper().split()


@dataclass(frozen=True)
class ConsoleKind:
    """What the grader's console driver needs: the scripts, the patterns, the scenarios, the points."""

    entry: str = "player.py"
    entries: tuple = ENTRIES
    patterns: dict | None = None
    points: float = 10.0
    templates: tuple = ("human_answer",)

    def is_program(self, facts) -> bool:
        """A Python source that prompts at its console and has no `Player`: this kind."""
        return facts.prompts and "Player" not in facts.bound

    def scenarios(self) -> list[Scenario]:
        return [Scenario("against the AI, the AI moving first", True),
                Scenario("against the AI, the human moving first", False)]


CONSOLE_PROGRAM = ConsoleKind(patterns=PATTERNS)
