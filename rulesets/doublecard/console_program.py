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
from rulesets.console import ConsoleProgram

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
HUMAN = r"(?:you|your|human|me|i|myself)"
# a question about a seat: "AI palys as the 1th player or 2nd palyer?(1 or 2)", "Are you player 1 or 2?"
PLAYER_WORD = r"p[la][a-z]{2,4}rs?"                                 # player, palyer, plyer
ASKS_SEAT = linear_re.compile(rf"(?i)\b{PLAYER_WORD}\b[^\n]*\b(?:1|one|1st|1th|first)\b[^\n]*\b(?:2|two|2nd|second)\b|"
                              rf"\b(?:1st|1th|first)\b[^\n]*\b(?:2nd|2th|second)\b[^\n]*\b{PLAYER_WORD}\b")
FIRST_PLAYER = linear_re.compile(rf"(?i)\b{PLAYER_WORD}\s*(?:1|one)\b|\b(?:1st|1th|first)\s+{PLAYER_WORD}\b|"
                                 r"^\W*(?:1st|1th|first)\W*$")
SECOND_PLAYER = linear_re.compile(rf"(?i)\b{PLAYER_WORD}\s*(?:2|two)\b|\b(?:2nd|2th|second)\s+{PLAYER_WORD}\b|"
                                  r"^\W*(?:2nd|2th|second)\W*$")
SEAT_LABEL = linear_re.compile(rf"(?i)\b(?:1st|1th|2nd|2th|first|second)\s+{PLAYER_WORD}\b")
YES_NO = linear_re.compile(r"(?i)y(?:es)?|no?")
ASKS_NAME = linear_re.compile(r"(?i)\bname\b")
# modes without an opponent's name: "Automatic Mode", "Single player"; "Manual Mode", "Two players"
AUTOMATIC = linear_re.compile(r"(?i)\b(?:auto\w*|single[- ]?player|one[- ]player|1[- ]player)\b")
MANUAL = linear_re.compile(r"(?i)\b(?:manual\w*|two[- ]players?|2[- ]players?|pvp|multiplayer)\b")
# a yes/no a person declines to keep the game plain: "Generate a trace file?", "Play again?"
DECLINE = linear_re.compile(r"(?i)\b(?:trace|log|file|save|debug|verbose|again|quit|exit|replay|undo)\b")
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
        """Whether the program is asking a set-up question (mode, who starts, colours or dots, a yes/no
        or a name), not for a move."""
        question = unbracketed(console.question(output))
        if not console.waiting or ASKS_MOVE.search(QUOTED.sub(" ", question)):
            return False
        labels = list(console.menu(output).values())
        menu = [label for label in labels if self.score(label, "colours") or self.score(label, "dots")
                or ROLE_WORDS.search(label) or SEAT_LABEL.search(label) or YES_NO.fullmatch(label.strip(" .:"))]
        return bool(menu or ROLE_WORDS.search(question) or ASKS_FIRST.search(question) or VERSUS.search(question)
                    or AGAINST.search(question) or ASKS_SEAT.search(question) or ASKS_YES.search(question)
                    or ASKS_NAME.search(question))

    def setup_answer(self, console, output: str, role: str) -> str:
        """What a person types to get a game against the AI, moving first or second, as `role`: each
        question read by whom it is about ("Does AI play first?" is not "Do you want to go first?")."""
        question = unbracketed(console.question(output))
        about = subject(question)
        options = console.menu(output)          # a menu, or options inside the question ("'0' for Colors")
        asked_role = self.role_asked(question, about, role)
        if options:
            picked = self.pick(question, about, options, asked_role)
            if picked is not None:
                return str(picked)
            if not (ROLE_WORDS.search(question) or ASKS_FIRST.search(question) or ASKS_SEAT.search(question)):
                shown = "; ".join(f"{k}: {label}" for k, label in options.items())
                raise console.unparsable("what the program asks before the game", "human_answer", output,
                                         f"none of its options ({shown}) is plainly a game against the AI")
        if ROLE_WORDS.search(question):               # the role in the prompt's own spelling: "colors", "Dots"
            shown = linear_re.search(ROLE[asked_role] + r"\w*", question)
            return shown.group(0).lower() if shown else asked_role
        if ASKS_SEAT.search(question) and about is not None:       # "AI palys as the 1th player or 2nd palyer?"
            return "1" if (about == "ai") == self.computer_first else "2"
        if ASKS_FIRST.search(question):
            if about is None and linear_re.search(rf"(?i)\b{AI}\b", question):
                return "ai" if self.computer_first else "human"      # "Who goes first, human or AI?"
            return yes_no(question, (about == "ai") == self.computer_first)
        if (AGAINST.search(question) or VERSUS.search(question)) and ASKS_YES.search(question):
            return yes_no(question, True)                            # "Play against the computer? (y/n)"
        if ASKS_NAME.search(question):
            return "grader"
        if ASKS_YES.search(question):                                # "Use alpha-beta pruning? (y/n)"
            return yes_no(question, not DECLINE.search(question))
        raise console.unparsable("what the program asks before the game", "human_answer", output,
                                 f"{question!r} asks neither for the mode, nor who starts, nor colours or dots")

    def role_asked(self, question: str, about: str | None, role: str) -> str:
        """The role to answer with: the human's, the AI's, or player 1's (the first mover plays colours)."""
        other = "dots" if role == "colours" else "colours"
        if FIRST_PLAYER.search(question):
            return "colours" if not SECOND_PLAYER.search(question) else "dots"
        if SECOND_PLAYER.search(question):
            return "dots"
        return other if about == "ai" else role

    def pick(self, question: str, about: str | None, options: dict[int, str], role: str) -> int | None:
        """The option a person picks, or None when no option fits the question."""
        labels = {key: label.strip(" .:") for key, label in options.items()}
        yes = [k for k, label in labels.items() if linear_re.fullmatch(r"(?i)y(?:es)?", label)]
        no = [k for k, label in labels.items() if linear_re.fullmatch(r"(?i)no?", label)]
        if yes and no:                                               # "1- Yes 2- No"
            wanted = (about == "ai") == self.computer_first if ASKS_FIRST.search(question) else \
                not DECLINE.search(question)
            return yes[0] if wanted else no[0]
        seats = {k: 1 if FIRST_PLAYER.search(label) else 2 for k, label in labels.items()
                 if FIRST_PLAYER.search(label) or SECOND_PLAYER.search(label)}
        if len(seats) >= 2 and about is not None:                    # "Which player shall AI play: 1 - 1st player"
            seat = 1 if (about == "ai") == self.computer_first else 2
            return next((k for k, s in seats.items() if s == seat), None)
        if ASKS_FIRST.search(question) and not ROLE_WORDS.search(question):
            ai_named = [k for k, label in labels.items() if linear_re.search(rf"(?i)\b{AI}\b", label)
                        and not VERSUS.search(label)]
            human_named = [k for k, label in labels.items() if linear_re.search(r"(?i)\b(?:human|you|me|player)\b",
                                                                                   label) and not VERSUS.search(label)]
            if ai_named and human_named:                             # "Who starts? (1) Human (2) AI"
                return ai_named[0] if self.computer_first else human_named[0]
        scores = {key: self.score(label, role) for key, label in labels.items()}
        best = max(scores, key=lambda k: scores[k])
        return best if scores[best] > 0 else None

    def score(self, label: str, role: str) -> int:
        """How well a menu option fits the game wanted: human against the AI, the right one first."""
        text = label.lower()
        points = 0
        ai = len(linear_re.findall(rf"(?i)\b{AI}\b", text))
        people = len(linear_re.findall(r"(?i)\b(?:human|player|you)\b", text))
        if MANUAL.search(text) or (ai >= 2 and not people) or (people >= 2 and not ai):
            points -= 4                                      # AI vs AI, human vs human, "Manual Mode"
        elif VERSUS.search(text) or AGAINST.search(text):
            points += 4
            points += 2 if bool(AI_FIRST.search(text)) == self.computer_first else 0
        elif AUTOMATIC.search(text):
            points += 4                                      # "Automatic Mode", "Single player"
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


def unbracketed(text: str) -> str:
    """`text` with an initial in brackets joined to its word, as a person reads it: "(c)olors" is "colors"."""
    for found in {m.group(0) for m in linear_re.finditer(r"\(([A-Za-z])\)([A-Za-z])", text)}:
        text = text.replace(found, found[1] + found[3])
    return text


def subject(question: str) -> str | None:
    """Whom a question is about: "ai" (the program's AI: "Does AI play first?"), "human" (the person at
    the keyboard: "Do you want to go first?"), or None (both or neither: "Who goes first, human or AI?")."""
    ai = bool(linear_re.search(rf"(?i)\b{AI}\b", question))
    human = bool(linear_re.search(rf"(?i)\b{HUMAN}\b", question))
    return "ai" if ai and not human else "human" if human and not ai else None


def yes_no(question: str, yes: bool) -> str:
    """"y" or "n", or the words when the question offers them ("(yes/no)")."""
    words = bool(linear_re.search(r"(?i)\byes\s*/\s*no\b|\byes or no\b", question))
    return ("yes" if yes else "no") if words else ("y" if yes else "n")


def _same(a: str, b: str) -> bool:
    return a.upper().split() == b.upper().split()


def is_program(facts) -> bool:
    """A Python source that asks at its console (an `input("...")` prompt, or a question or a menu
    printed before a bare `input()`) and is not the course's Python API (a `Player` with `choose_move`)."""
    return facts.reads_console and (facts.prompts or facts.asks) and "Player.choose_move" not in facts.methods


def scenarios() -> list[Scenario]:
    """A game against the AI each way round."""
    return [Scenario("against the AI, the AI moving first", True),
            Scenario("against the AI, the human moving first", False)]


# students named theirs game.py, DoubleCard.py, driver.py, ...: any name is taken
CONSOLE_PROGRAM = ConsoleProgram(entry="player.py", patterns=PATTERNS, scenarios=scenarios, is_program=is_program,
                                 entries=ENTRIES, any_entry=True)
