"""The command-line kind of Red-Blue Nim: the interactive program the assignment asked for.

`red_blue_nim.py <num-red> <num-blue> <version> <first-player> <depth>` is run by the grader's
console driver (grader/console_driver.py), which plays the human. Each scenario checks the
defaults, every computer move against the reference search, and the announced winner and score.
The human's moves are deterministic: the reference's move, or the first legal move.
The console is read as a person reads it (`Human` answers prompts by their meaning; `pairs` and
`claims` read moves and results in the phrasings students use); output it still cannot follow
raises `console.unparsable`, which makes the check "needs a human" rather than a silent 0.
Nothing here imports the grader: `play` only uses the console object it is given.
"""
from __future__ import annotations

from dataclasses import dataclass

from rulesets import linear_re
from rulesets.console import ConsoleProgram

from .engine import RBNimGame, RBNimState
from .probes import values_sentence
from .rules import describe
from .search import search

# Every pattern may be replaced in the config (validation.program_patterns, or one submission's
# validation.submission_patterns). Named groups are optional: without them the pile and count, or the
# winner and score, are read from the matched text as a person would read them.
PATTERNS = {
    # a line where the computer says what it took: "Computer takes 2 blue.", ">The Computer takes two red
    # marbles.", "Computer removes 2 marble from red pile.", "Computer played: ('blue', 2)", "Computer
    # took a red ball", "Computer takes 0 red and 2 blue marbles.", "Computer: blue 2"
    "computer_move": r"(?i)\b(?:computer|cpu|ai)\b(?:'s move)?(?:\s*:|[^\n]*?\b(?:takes?|took|taking|removes?|"
                     r"removed|removing|picks?|picked|chooses?|chose|chosen|selects?|selected|plays?|played|"
                     r"moves?|grabs?|grabbed)\b)[^\n]*",
    # who won or lost, and the score, on that line or the next: "Computer wins 6 points.", "You win with a
    # score of 9", "Computer loses. Human wins. Final score: 2", "Our Winner is computer with a score of 9",
    # "Computer loses!\n-9 points.", "human wins!\nScore: 12"
    "result": r"(?i)(?:\b(?:computer|cpu|ai|human|you|player)\b[^\n]*?\b(?:wins?|won|loses?|lost)\b|\bwinner\b)"
              r"[^\n]*(?:\n[^\n]*)?",
    # what the human types: "auto" answers each prompt in the form it asks for (a pile, a count, both in
    # the order shown, or a menu number); a template such as "{pile}\n{count}" types exactly that
    "human_answer": "auto",
}
HUMAN_WORDS = ("human", "you", "player")
PILES = ("red", "blue")
# a pile and a count next to each other, in either order ("two red marbles", "2 marble from red",
# "('blue', 2)", "RED x1", "red 2"); the count may be a number word
_FILLER = r"(?:\s+|\s*[,:'\"()]\s*)+(?:(?:marbles?|balls?|stones?|marble\(s\)|from|the|of|pile)\s+)*"
_COUNT = r"[+-]?\d+|[a-z]+"            # digits or a word; console.number says whether the word is a number
PAIRS = [linear_re.compile(rf"(?i)\b(?P<count>{_COUNT})\b{_FILLER}(?P<pile>red|blue)\b"),
         linear_re.compile(rf"(?i)\b(?P<pile>red|blue)s?\b['\"]?(?:\s*(?:pile|marbles?|balls?|stones?)\b)?\s*[,:x=-]?\s*"
                    rf"(?P<count>{_COUNT})\b")]
# piles named by their letter, beside a count: "Computer chooses: B 2", "R x1", "2 B"
LETTER_PAIRS = [linear_re.compile(r"(?i)(?:^|[\s:(\[,])(?P<pile>[rb])\s*[,:x=-]?\s*(?P<count>[12])\b"),
                linear_re.compile(r"(?i)\b(?P<count>[12])\s+(?P<pile>[rb])(?:$|[\s.,)\]!])")]
LETTERS = {"r": "red", "b": "blue"}
# a line that tells a move, the human's or the computer's ("** Human has removed 0 red and 2 blue marbles."):
# never the piles, though it names both colours with counts
TELLS_A_MOVE = linear_re.compile(r"(?i)\b(?:takes?|took|taking|removes?|removed|removing|picks?|picked|chooses?|"
                                 r"chose|grabs?|grabbed|selects?|selected)\b")
# a program that refuses its arguments: "usage: red_blue_nim.py <num-red> ...", "Not enough arguments"
USAGE = linear_re.compile(r"(?i)\busage\b|\b(?:not enough|missing|too few|requires?|expected)\b[^\n]*\barg")
REFUSED = linear_re.compile(r"(?i)\b(?:invalid|try again|not (?:a )?valid|please (?:enter|type|choose)|error|illegal|"
                     r"must be|not allowed|cannot|can't)\b")
ASKS_PILE = linear_re.compile(r"(?i)\b(?:red|blue|piles?|colou?rs?|r/b|b/r)\b")
ASKS_COUNT = linear_re.compile(r"(?i)\b(?:how many|number|count|amount|quantity|1 or 2|1-2|1/2|one or two)\b")
ASKS_LETTER = linear_re.compile(r"(?i)\b[rb]\s*(?:/|or)\s*[rb]\b")
BOTH_FORMS = ("{pile} {count}", "{count} {pile}", "{pile}\n{count}")
# what only illustrates, never the game's state: quoted strings ("e.g. 'red 2'", "['Red 1', 'Blue 2']")
# and examples ("e.g. red 2", "for example 2 blue") up to the end of their parenthesis or line
QUOTED = linear_re.compile(r"'([^'\n]{1,40})'|\"([^\"\n]{1,40})\"")
EXAMPLE = linear_re.compile(r"(?i)(?:\be\.?\s?g\b\.?|\bfor (?:example|instance)\b|\bexamples?\b:?|\bsuch as\b)[^\n)\]]*")
HINT = linear_re.compile(r"\([^)\n]*\)|\[[^\]\n]*\]")
ASKS_COLOUR_WORD = linear_re.compile(r"(?i)\bcolou?rs?\b")
REFUSED_PART = linear_re.compile(r"(?i)\b(?:invalid|try again|not (?:a )?valid|error|illegal|not allowed|wrong)\b")


def without_examples(text: str) -> str:
    """`text` without what only illustrates (quoted strings, "e.g. ..."): never read as the piles."""
    return EXAMPLE.sub(" ", QUOTED.sub(" ", text))


def main_clause(prompt: str) -> str:
    """The question without its hints: "Pick the colour (you take 1 or 2 next)" asks for a colour."""
    return without_examples(HINT.sub(" ", prompt))


def shown_options(text: str) -> list[str]:
    """Quoted strings in `text`, as shown: a list of moves ("['Red 1', 'Blue 2']") or an example."""
    return [m[1] if m[1] is not None else m[2] for m in QUOTED.finditer(text)]


def pairs(text: str, number, patterns=PAIRS) -> list[tuple[str, int]]:
    """Every (pile, count) written in `text`, in order of appearance; `number` reads a count written
    in digits or words (None: not a number). Counts of 0 ("0 red and 2 blue") are dropped."""
    found = []
    for pattern in patterns:
        for m in pattern.finditer(text):
            count = number(m["count"])
            if count:
                pile = m["pile"].lower()
                found.append((m.start(), (LETTERS.get(pile, pile), count)))
    return [pair for _, pair in sorted(found)]


def without_piles(prompt: str, number) -> str:
    """The question without the piles it shows ("Red=3 Blue=5. How many will you take?" asks a count)."""
    if piles_shown(prompt, number) is None:
        return prompt
    shown = {k for pattern in PAIRS for m in pattern.finditer(prompt) for k in range(m.start(), m.end())}
    return "".join(" " if k in shown else c for k, c in enumerate(prompt))


def piles_shown(line: str, number) -> tuple[int, int] | None:
    """(red, blue) when `line` shows both piles in one layout ("Red: 3  Blue: 5", "3 red and 5 blue
    marbles", "Current state: Red : 3, Blue : 0"), else None."""
    for pattern in PAIRS:                      # one layout at a time: in "Red: 3  Blue: 5", 3 is red's
        counts: dict[str, set[int]] = {"red": set(), "blue": set()}
        for m in pattern.finditer(line):
            count = number(m["count"])
            if count is not None:
                counts[m["pile"].lower()].add(count)
        if len(counts["red"]) == 1 and len(counts["blue"]) == 1:
            return counts["red"].pop(), counts["blue"].pop()
    return None


def _line(text: str, match) -> str:
    """The whole output line where `match` starts, for quoting."""
    start = text.rfind("\n", 0, match.start()) + 1
    end = text.find("\n", match.start())
    return text[start:end if end >= 0 else len(text)].strip()


def _after_enter(before: str, more: str) -> str:
    """Output joined as the terminal shows it: the human's Enter ends the prompt's line."""
    return before + ("\n" if before and not before.endswith("\n") else "") + more


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
        if console.exited and not console.find("computer_move", output):
            raise self.ended_at_start(console, output)
        while True:
            said = console.find("computer_move", output)
            self.check_piles_shown(console, state, [], output[:said[0].start()] if said else output, typed)
            moves = self.computer_moves(console, state, output)
            if not moves and not state.is_over and state.to_move == computer:
                self.no_computer_move(console, state, output, typed)
            self.check_piles_shown(console, state, moves, output, typed)
            for move, said in moves:
                self.check_computer_move(console, state, computer, move, said)
            if state.is_over:
                break
            if state.to_move == computer:          # its move was announced before the human's turn was over
                self.no_computer_move(console, state, output, typed)
            if console.exited:
                raise console.fail(f"The program ended at {_where(state)} on the human's turn, before the game "
                                   f"was over.")
            move = self.human_move(state)
            output, typed = Human(console, state, move).answer(output)
            state.play(move)
        self.check_result(console, state, computer, output)

    def ended_at_start(self, console, output: str):
        """The failure of a program that ended before the game began: silent, a usage message, or else."""
        args = f"With arguments {' '.join(self.argv)!r}"
        code = f" (exit status {console.exit_code})" if console.exit_code else ""
        if not output.strip():
            return console.fail(f"{args} the program printed nothing and ended{code}.")
        if USAGE.search(output):
            allowed = (" The assignment lets the version and the first player default (standard, computer first)."
                       if len(self.argv) < 4 else "")
            return console.fail(f"{args} the program refused its arguments with a usage message and ended{code}: "
                                f"{console.quoted(output)}.{allowed}")
        return console.fail(f"{args} the program ended{code} before the game began: {console.quoted(output)}.")

    def no_computer_move(self, console, state: RBNimState, output: str, typed: str | None) -> None:
        """The computer should have moved but nothing in `output` reads as its move: why, as an exception."""
        if console.error:
            raise console.fail(f"The program stopped at {_where(state)} before the computer's move.")
        if typed is None and console.waiting and not linear_re.search(r"(?i)\b(?:computer|cpu|ai)\b", output):
            raise console.fail(f"With arguments {' '.join(self.argv)!r} the computer moves first"
                               f"{self.defaulted('first')}, but the program asked the human for a move: "
                               f"{console.prompt(output)!r}.")
        after = f" after the human typed {typed!r}" if typed is not None else ""
        raise console.unparsable(f"the computer's move at {_where(state)}{after}", "computer_move", output)

    def defaulted(self, argument: str) -> str:
        """" (the default)" when the scenario leaves `argument` ("version" or "first") to the program."""
        return " (the default)" if len(self.argv) < {"version": 3, "first": 4}[argument] else ""

    def computer_moves(self, console, state: RBNimState, output: str) -> list[tuple[tuple[str, int], str]]:
        """The computer's moves announced in `output`, each (move, the line that says it), read with the
        computer_move pattern and cross-checked against the piles: a move the piles cannot allow is
        not taken as read (a TA must look)."""
        found = []
        red, blue = state.red, state.blue
        for match in console.find("computer_move", output):
            said = _line(output, match)
            if "pile" in match.groupdict() and "count" in match.groupdict():
                count = console.number(match["count"])
                if count is None or match["pile"] is None:
                    raise console.unparsable(f"the computer's move in {said!r}", "computer_move", output,
                                             f"the pattern's count {match['count']!r} is not a number")
                read = [(match["pile"].lower(), count)]
            else:
                read = pairs(match.group(0), console.number) or pairs(match.group(0), console.number, LETTER_PAIRS)
            if not read:
                continue                         # "the computer moves first", "Computer's turn..."
            possible = [m for m in dict.fromkeys(read) if m[0] in PILES and 1 <= m[1] <= 2
                        and m[1] <= (red if m[0] == "red" else blue)]
            if not possible:
                pile, count = read[0]
                raise console.unparsable(f"the computer's move at ({red} red, {blue} blue)", "computer_move", output,
                                         f"{said!r} reads as taking {count} {pile}, which these piles do not allow")
            move = possible[0]
            found.append((move, said))
            red, blue = (red - move[1], blue) if move[0] == "red" else (red, blue - move[1])
        return found

    def check_piles_shown(self, console, state: RBNimState, moves, output: str, typed: str | None) -> None:
        """The piles the program prints must be ones the game passes through: otherwise it understood
        the arguments or the human's answer differently from what was meant, and a TA must look."""
        passed = [(state.red, state.blue)]
        for (pile, count), _ in moves:
            red, blue = passed[-1]
            passed.append((red - count, blue) if pile == "red" else (red, blue - count))
        said = {_line(output, m) for m in console.find("computer_move", output)}
        for line in output.splitlines():
            told = line.strip() in said or TELLS_A_MOVE.search(line)
            shown = None if told else piles_shown(without_examples(line), console.number)
            if shown is not None and shown not in passed:
                when = f"after the human typed {typed!r}" if typed is not None else \
                    f"with arguments {' '.join(self.argv)!r}"
                raise console.unparsable(f"the piles {when}", "human_answer" if typed else "computer_move", output,
                                         f"{line.strip()!r} shows {shown[0]} red and {shown[1]} blue, but the piles "
                                         f"are {' or '.join(f'({r} red, {b} blue)' for r, b in passed)}")

    def check_computer_move(self, console, state: RBNimState, computer: int, move, said: str) -> None:
        if state.is_over:
            raise console.fail(f"The program announced {said!r} after the game was over at {_where(state)}.")
        if state.to_move != computer:
            first = "computer" if self.computer_first else "human"
            raise console.fail(f"The program announced {said!r} at {_where(state)} on the human's turn "
                               f"(with arguments {' '.join(self.argv)} the {first} moves first).")
        value, best = search(state.red, state.blue, state.version)
        assert best is not None  # search gives no move only once the game is over, refused just above
        if move != best:
            raise console.fail(f"At {_where(state)}{self.defaulted('version')} the computer took {move[1]} {move[0]} ({said!r}), but MinMax "
                               f"with alpha-beta in the prescribed order takes {describe(best)} (value {value:+d}); "
                               f"values of the moves in order: {values_sentence(state.red, state.blue, state.version)}.")
        state.play(move)

    def check_result(self, console, state: RBNimState, computer: int, output: str) -> None:
        out = state.outcome
        assert out is not None  # called once the game is over
        winner = "computer" if out.winner == computer else "human"
        amount = int(abs(out.scores[0]))
        facing = "computer" if state.turn == computer else "human"
        what = f"the winner and the final score at {_where(state)}"
        matches = console.find("result", output)
        if not matches and console.error:
            raise console.fail(f"The program stopped at {_where(state)} before announcing the winner.")
        if not matches:
            raise console.unparsable(what, "result", output)
        said_winner, score = read_result(console, matches)
        shown = " ".join(_line(output, m) for m in matches[:2])
        if said_winner is None:
            raise console.unparsable(what, "result", output, f"{shown!r} names no winner")
        if said_winner == "both":
            raise console.fail(f"The game ended at {_where(state)}, but the program announced {shown!r}, which "
                               f"names both players as the winner.")
        if score is None:
            raise console.unparsable(what, "result", output, f"{shown!r} gives no score")
        if (said_winner, score) != (winner, amount):
            raise console.fail(f"The game ended at {_where(state)} with the {facing} facing an empty pile, so the "
                               f"{winner} wins {amount} points, but the program announced {shown!r}.")


def read_result(console, matches) -> tuple[str | None, int | None]:
    """(winner, score) from the result lines: "computer", "human", "both" (they contradict) or None,
    and the first number after the first claim (its sign dropped: "-9 points" for a loser is 9)."""
    winners, score = set(), None
    for match in matches:
        groups = match.groupdict()
        text = match.group(0)
        if groups.get("winner") is not None:
            winners.add("human" if groups["winner"].lower() in HUMAN_WORDS else "computer")
        else:
            winners |= claims(text)
        if score is None:
            raw = groups.get("score")
            number = console.number(raw) if raw is not None else None
            if number is None:
                found = linear_re.search(r"[+-]?\d+", text[_first_claim(text):])
                number = int(found.group(0)) if found else None
            score = None if number is None else abs(number)
    if len(winners) > 1:
        return "both", score
    return (next(iter(winners)) if winners else None), score


CLAIM = linear_re.compile(r"(?i)\b(?P<who>computer|cpu|ai|human|you|player)\b(?:'s)?[^\n.!]*?"
                   r"\b(?P<verb>wins?|won|loses?|lost)\b|\bwinner\b\W*(?:is\s+)?(?:the\s+)?(?P<named>computer|human|you|player)\b")


def claims(text: str) -> set[str]:
    """Who the text says won: "Computer loses. Human wins." is {"human"}; "You lose" is {"computer"}."""
    out = set()
    for m in CLAIM.finditer(text):
        if m["named"]:
            out.add("human" if m["named"].lower() in HUMAN_WORDS else "computer")
            continue
        who = "human" if m["who"].lower() in HUMAN_WORDS else "computer"
        won = m["verb"].lower() in ("win", "wins", "won")
        out.add(who if won else ("computer" if who == "human" else "human"))
    return out


def _first_claim(text: str) -> int:
    m = CLAIM.search(text)
    return m.start() if m else 0


class Human:
    """The person at the keyboard for one turn: reads what the program asks and answers in that form
    (a numbered menu, a pile, a count, a count for one colour, or both in the order shown); a refused
    answer ("Invalid move, try again") is typed again in the next form."""

    def __init__(self, console, state: RBNimState, move: tuple[str, int]) -> None:
        self.console, self.state, self.move = console, state, move
        self.refused: set[str] = set()          # answers the program refused this turn, not typed again

    def answer(self, output: str) -> tuple[str, str]:
        """(what the program printed after the human's move, the last line typed)."""
        console, (pile, count) = self.console, self.move
        template = console.pattern("human_answer")
        if template != "auto":
            return self._type(template.format(pile=pile, count=count).split("\n"))
        asked: set[str] = set()            # "pile", "count": parts of the move typed so far
        colours: set[str] = set()          # colours asked for their own count ("number of red marbles")
        forms = list(BOTH_FORMS)           # ways to type both at once, tried in turn when refused
        prompt, typed, after = output, "", ""
        for _ in range(8):
            if not console.waiting:
                return after, typed
            kind, line = self.form(prompt, asked, colours, forms)
            asked |= {"pile", "count"} if kind in ("both", "menu") else {kind} if kind in ("pile", "count") else set()
            colours |= {kind[6:]} if kind.startswith("count:") else set()
            done = self._done(asked, colours)
            text = ""
            lines = line.split("\n")
            for k, typed in enumerate(lines):
                text = _after_enter(text, console.send(typed, complete=done and k == len(lines) - 1))
            after = _after_enter(after, text)
            if not done and console.waiting and REFUSED_PART.search(text) and kind in ("pile", "count"):
                asked.discard(kind)                                    # "Invalid colour": the same part again
                self.refused.add(f"{kind}:{line}")
                prompt = text
            elif not done:
                prompt = text
            elif console.waiting and REFUSED.search(text) and not console.find("computer_move", text):
                asked, colours, after, prompt = set(), set(), "", text     # refused: type it in the next form
                self.refused.add(f"{kind}:{line}")
            else:
                return after, typed
        raise console.unparsable(f"what the program wants typed at {_where(self.state)}", "human_answer", prompt,
                                 "it refused or kept asking after every form of the human's move tried")

    def _type(self, lines: list[str]) -> tuple[str, str]:
        output = ""
        for k, line in enumerate(lines):
            output = _after_enter(output, self.console.send(line, complete=k == len(lines) - 1))
        return output, lines[-1]

    def _done(self, asked: set, colours: set) -> bool:
        return colours == set(PILES) or (asked == {"pile", "count"} and not colours)

    def pile_forms(self, prompt: str, key: str | None = None) -> list[str]:
        """Ways to type the pile, the likeliest first: a letter where the prompt shows letters ("r/b"), the
        menu number, unless the prompt asks for a colour by name ("Enter a color"), then the word."""
        pile = self.move[0]
        letter = pile[0].upper() if linear_re.search(r"\bR\s*/\s*B\b", prompt) else \
            pile[0] if ASKS_LETTER.search(prompt) else None
        by_name = bool(ASKS_COLOUR_WORD.search(main_clause(prompt)))
        ways = [letter] + ([key] if key and not by_name else []) + [pile] + ([key] if key and by_name else [])
        return list(dict.fromkeys(w for w in ways + [pile.capitalize(), pile[0]] if w))

    def untried(self, kind: str, ways: list[str]) -> list[str]:
        return [w for w in ways if f"{kind}:{w}" not in self.refused]

    def form(self, text: str, asked: set, colours: set, forms: list[str]) -> tuple[str, str]:
        """(what is asked, what to type): "menu", "pile", "count", "count:<colour>" or "both"."""
        console, (pile, count) = self.console, self.move
        options = console.menu(text)
        prompt = without_piles(console.prompt(text), console.number)
        if options:
            for key, label in options.items():
                if pairs(label, console.number)[:1] == [self.move]:
                    return "menu", str(key)
            if "pile" not in asked:
                for key, label in options.items():
                    if linear_re.search(rf"(?i)\b{pile}\b", label) and not pairs(label, console.number):
                        ways = self.untried("pile", self.pile_forms(prompt, str(key)))
                        if ways:
                            return "pile", ways[0]
            if "pile" in asked:                       # "1) one marble  2) two marbles"
                for key, label in options.items():
                    if count in [console.number(w) for w in linear_re.findall(r"(?i)[a-z]+|\d+", label)]:
                        return "count", str(key)
        if not asked:                                 # a move shown as an option: typed exactly as shown
            for option in shown_options(text):
                if pairs(option, console.number) == [self.move] and f"both:{option.strip()}" not in self.refused:
                    return "both", option.strip()
        colour_words = set(linear_re.findall(r"(?i)\b(red|blue)\b", prompt.lower()))
        wants_pile = bool(ASKS_PILE.search(prompt))
        wants_count = bool(ASKS_COUNT.search(prompt))
        main = main_clause(prompt)                    # what the question asks, without its hints
        if bool(ASKS_PILE.search(main)) != bool(ASKS_COUNT.search(main)):
            wants_pile, wants_count = bool(ASKS_PILE.search(main)), bool(ASKS_COUNT.search(main))
        example = {order: bool(pairs(prompt, console.number, [pattern])) for order, pattern in zip(BOTH_FORMS, PAIRS[::-1])}
        if any(example.values()) and not asked:
            wants_pile = wants_count = True           # 'Enter your move, e.g. "red 2"': both, as the example
        if wants_count and len(colour_words) == 1 and not any(example.values()) \
                and not linear_re.search(r"(?i)\b(?:piles?|colou?rs?)\b", prompt):
            colour = colour_words.pop()               # "Enter number of red marbles to take:"
            return f"count:{colour}", str(count if colour == pile else 0)
        if wants_pile and not wants_count and "pile" not in asked:
            ways = self.untried("pile", self.pile_forms(prompt))
            if ways:
                return "pile", ways[0]
        if wants_count and not wants_pile and "count" not in asked:
            return "count", str(count)
        if wants_pile and wants_count and not asked:
            shown = [order for order, given in example.items() if given]     # 'e.g. "red 1"' shows the order
            if len(shown) == 1:
                first = shown[0]
            else:                                     # else the order the prompt names them: "(count color)"
                first = BOTH_FORMS[ASKS_COUNT.search(prompt).start() < ASKS_PILE.search(prompt).start()]
            if first in forms:
                forms.remove(first)
                return "both", first.format(pile=pile, count=count)
        if "pile" in asked and "count" not in asked:
            return "count", str(count)
        if "count" in asked and "pile" not in asked:
            return "pile", pile
        form = forms.pop(0) if forms else BOTH_FORMS[0]
        return "both", form.format(pile=pile, count=count)


def is_program(facts) -> bool:
    """A Python source (grader.python_source.Facts) without a top-level `choose_move` is the program."""
    return "choose_move" not in facts.functions


def scenarios() -> list[Scenario]:
    """The games played from the command line: each argument form, both versions, both first players."""
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


CONSOLE_PROGRAM = ConsoleProgram(entry="red_blue_nim.py", patterns=PATTERNS, scenarios=scenarios, is_program=is_program)
