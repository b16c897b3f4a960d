"""The Double Card engine on hand-set positions: every worked example of the rules file (D1–D5),
the placement table, support, recycling, the move limit, notation, JSON and pictures."""
from __future__ import annotations

import json

import pytest

from rulesets.base import BadParams, IllegalMove
from rulesets.doublecard import board as B
from rulesets.doublecard.engine import DoubleCardGame

# samratdebroy/Double-Card test_cases/diagonal_open_win.txt: 21 lines, 3 of them illegal
D5_LINES = ["0 3 A 1", "0 7 C 1", "0 4 E 1", "0 5 C 2", "0 1 C 2", "0 4 F 1", "0 8 G 2", "0 3 A 2", "0 2 C 5",
            "0 3 G 1", "0 4 G 2", "0 2 H 2", "0 2 G 4", "0 8 G 6", "0 6 G 8", "0 4 G 10", "0 1 A 3", "0 2 A 4",
            "0 8 A 6", "0 6 A 8", "0 4 A 10"]
# the same file's sibling recycle_card_test.txt up to card 24 (its illegal lines left out): no line yet
FULL_BOARD = ["0 3 A 1", "0 7 C 1", "0 4 E 1", "0 5 C 2", "0 4 F 1", "0 3 A 2", "0 3 G 1", "0 4 G 2", "0 2 H 2",
              "0 2 G 4", "0 8 G 6", "0 6 G 8", "0 4 G 10", "0 1 A 3", "0 4 A 4", "0 8 A 6", "0 6 A 8", "0 4 A 10",
              "0 5 D 3", "0 5 D 4", "0 7 D 5", "0 2 D 6", "0 2 D 8", "0 2 C 3"]


def refusal(state, move: str) -> str:
    with pytest.raises(IllegalMove) as exc:
        state.play(move)
    return str(exc.value)


# ---- D1–D5 -----------------------------------------------------------------------------------

@pytest.mark.parametrize("moves, count", [([], 60), (["0 5 A 1"], 56), (["0 5 A 1", "0 2 A 2"], 52),
                                          (["0 4 A 1", "0 4 B 1", "0 4 C 1"], 56)])
def test_d1_move_counts(moves, count, position):
    assert len(position(*moves).legal_moves()) == count


def test_d2_both_kinds_of_line_the_mover_wins(position):
    dots_move = position("0 4 A 1", "0 4 B 1", "0 4 C 1", "0 4 D 1")
    assert dots_move.outcome.winner == 1 and "both kinds" in dots_move.outcome.detail
    colours_move = position("0 4 A 1", "0 4 B 1", "0 4 C 1", "0 2 H 1", "0 4 D 1")
    assert colours_move.outcome.winner == 0 and "both kinds" in colours_move.outcome.detail


def test_d3_colour_line_made_by_dots_wins_for_colours(position):
    state = position("0 4 A 1", "0 8 B 1", "0 4 C 1", "0 8 D 1")
    assert state.outcome.winner == 0
    assert state.outcome.detail.startswith("Colours (first player) win: 4 red in a line at A1–D1")
    assert state.outcome.detail.endswith("made by their opponent.")


def test_d4_dot_line_wins_for_dots(position):
    state = position("0 4 A 1", "0 6 B 1", "0 4 C 1", "0 6 D 1")
    assert state.outcome.winner == 1 and "4 filled (•) dots" in state.outcome.detail


def test_d5_shipped_diagonal_open_win():
    state = DoubleCardGame().new_state(0)
    refused = []
    for line in D5_LINES:
        if state.is_over:
            break
        try:
            state.play(line)
        except IllegalMove as exc:
            refused.append((line, str(exc)))
    assert refused == [("0 1 C 2", "C2 is already taken."), ("0 8 G 2", "G2 has nothing under it."),
                       ("0 2 C 5", "C5 has nothing under it.")]
    assert state.ply == 15 and state.history[-1] == "0 2 A 4"
    assert state.outcome.winner == 1                    # colours moved; the line is of open dots
    assert "4 open (◦) dots in a line at A4–D1" in state.outcome.detail


def test_seat0_role_dots_gives_the_same_line_to_the_first_player(position):
    state = position("0 4 A 1", "0 6 B 1", "0 4 C 1", "0 6 D 1", seat0_role="dots")
    assert state.role(0) == "dots" and state.outcome.winner == 0
    assert state.outcome.detail.startswith("Dots (first player) win")
    assert state.outcome.detail.endswith("made by their opponent.")


# ---- placements and support ------------------------------------------------------------------

@pytest.mark.parametrize("code, first, second", [(1, "R•", "W◦"), (2, "W◦", "R•"), (3, "W◦", "R•"),
                                                 (4, "R•", "W◦"), (5, "R◦", "W•"), (6, "W•", "R◦"),
                                                 (7, "W•", "R◦"), (8, "R◦", "W•")])
def test_segment_table(code, first, second, position):
    state = position(f"0 {code} B 1")
    other = 1 * 8 + 1 if code % 2 == 0 else 2                  # B2 above, or C1 to the right
    name = lambda c: "RW"[state.colour[c]] + B.DOT_SYMBOLS[state.dot[c]]   # noqa: E731
    assert (name(1), name(other)) == (first, second)


def test_assignment_example_0_5_a_2_puts_open_then_filled(position):
    state = position("0 1 A 1", "0 5 A 2")
    assert [B.DOT_SYMBOLS[state.dot[c]] for c in (8, 9)] == ["◦", "•"]


def test_support_and_overhang(position):
    state = position("0 2 A 1")                                 # A1–A2 standing
    assert refusal(state.copy(), "0 1 A 3") == "B3 has nothing under it."
    assert refusal(state.copy(), "0 1 B 2") == "B2 has nothing under it."
    assert refusal(state.copy(), "0 5 H 1") == "H1 with rotation 5 would need I1, outside the board."
    assert refusal(state.copy(), "0 2 A 2") == "A2 is already taken."
    state.play("0 2 B 1")
    state.play("0 1 A 3")                                       # both cells supported now
    assert refusal(position(), "0 2 A 12") == "A12 with rotation 2 would need A13, outside the board."
    full_column = position(*[f"0 2 C {r}" for r in (1, 3, 5, 7, 9, 11)])
    assert not any(m.split()[2] == "C" for m in full_column.legal_moves())
    assert refusal(full_column, "0 3 C 12") == "C12 is already taken."


# ---- recycling -------------------------------------------------------------------------------

@pytest.fixture
def full(position):
    state = position(*FULL_BOARD)
    assert state.recycling and not state.is_over and state.to_move == 0
    return state


def test_recycling_refusals(full):
    assert refusal(full.copy(), "0 1 H 4") == ("All 24 cards are on the board, so only recycling moves such as "
                                               "'F 2 F 3 3 A 2' are allowed now.")
    assert refusal(full.copy(), "C 3 C 4 4 H 4") == ("The card at C3–C4 cannot be recycled: "
                                                     "that card was just placed by your opponent.")
    assert refusal(full.copy(), "A 8 A 9 8 E 6") == "The card at A8–A9 cannot be recycled: a card rests on A9."
    assert refusal(full.copy(), "A 10 A 11 2 C 3") == "C3 is already taken."
    assert refusal(full.copy(), "G 10 G 11 6 E 8") == "E8 has nothing under it."
    assert refusal(full.copy(), "H 8 H 9 8 B 4") == "H8 is empty, so there is no card to recycle there."
    assert refusal(full.copy(), "A 1 B 1 1 H 4") == "The card at A1–B1 cannot be recycled: a card rests on A1."
    assert refusal(full.copy(), "G 10 G 11 4 G 10") == ("The card at G10–G11 cannot be recycled into the same "
                                                        "placement (4 at G10); a recycling move must change it.")


def test_recycling_moves_and_the_locked_card(full):
    assert "G 10 G 11 2 G 10" in full.legal_moves()             # turned in place: allowed by default
    full.play("g 11 g 10 2 g 10")                               # either cell first, any case
    assert full.history[-1] == "G 10 G 11 2 G 10"
    assert refusal(full.copy(), "G 10 G 11 4 H 4") == ("The card at G10–G11 cannot be recycled: "
                                                       "that card was just moved by your opponent.")
    full.play("C 3 C 4 4 H 4")                                  # the card of move 24 is free again
    assert (full.colour[3 * 8 + 7], full.dot[3 * 8 + 7]) == (B.RED, B.FILLED)
    assert all(m != "0 1 A 1" and not m.startswith("0 ") for m in full.legal_moves())


def test_strict_recycling_forbids_the_same_cells(full, position):
    strict = position(*FULL_BOARD, strict_recycle=True)
    assert refusal(strict, "G 10 G 11 2 G 10") == ("The card at G10–G11 cannot be recycled back into the same "
                                                   "cells: strict recycling is on.")
    assert set(strict.legal_moves()) < set(full.legal_moves())
    assert "G 10 G 11 2 G 10" not in strict.legal_moves()


def test_recycling_before_card_24_is_refused(position):
    assert refusal(position("0 2 A 1"), "A 1 A 2 2 B 1") == ("Recycling moves start once all 24 cards are "
                                                             "on the board; 1 are there now.")


def test_legal_moves_are_exactly_the_playable_ones(full):
    listed = set(full.legal_moves())
    for move in listed:
        full.copy().play(move)
    codes = range(1, 9)
    cells = [f"{c} {r}" for c in B.COLUMNS for r in range(1, 13)]
    sources = {" ".join(m.split()[:4]) for m in listed}
    for source in sources:
        for code in codes:
            for cell in cells:
                move = f"{source} {code} {cell}"
                try:
                    full.copy().play(move)
                    assert move in listed
                except IllegalMove:
                    assert move not in listed


# ---- the end of the game ---------------------------------------------------------------------

def test_move_limit_draw_and_a_win_on_the_last_move(position):
    draw = position("0 2 A 1", "0 2 C 1", "0 2 E 1", "0 2 G 1", max_moves=4)
    assert draw.outcome.points == (0.5, 0.5) and draw.outcome.reason == "move_limit"
    assert draw.to_move is None and draw.legal_moves() == []
    win = position("0 4 A 1", "0 8 B 1", "0 4 C 1", "0 8 D 1", max_moves=4)
    assert win.outcome.winner == 0 and win.outcome.reason == "line"
    assert refusal(win, "0 2 H 1") == "The game is over; no more moves can be played."


def test_default_and_tournament_limits():
    assert DoubleCardGame().params == {"max_moves": 60, "strict_recycle": False, "seat0_role": "colours"}
    assert DoubleCardGame(max_moves=40, seat0_role="dots").role(1) == "colours"


@pytest.mark.parametrize("params, words", [({"max_moves": 0}, "max_moves"), ({"max_moves": "40"}, "max_moves"),
                                           ({"strict_recycle": "yes"}, "strict_recycle"),
                                           ({"seat0_role": "red"}, "seat0_role"), ({"first": "dots"}, "no parameter")])
def test_bad_params_get_a_sentence(params, words):
    with pytest.raises(BadParams, match=words):
        DoubleCardGame(**params)


# ---- notation, JSON, pictures ----------------------------------------------------------------

@pytest.mark.parametrize("wire, canonical", [("0 5 a 2", "0 5 A 2"), ("  0   5 A   2 ", "0 5 A 2"),
                                             ("0 5 A2", "0 5 A 2"), ("F 3 F 2 3 a 2", "F 2 F 3 3 A 2"),
                                             ("f2 g2 1 a 1", "F 2 G 2 1 A 1")])
def test_parse_is_lenient(wire, canonical):
    assert DoubleCardGame().new_state(0).parse_move(wire) == canonical


@pytest.mark.parametrize("wire, sentence", [
    ("0 9 A 2", "'0 9 A 2' names rotation 9; rotations are 1 to 8."),
    ("0 5 J 2", "'0 5 J 2' names column J; columns are A to H."),
    ("0 5 A 13", "'0 5 A 13' names row 13; rows are 1 to 12."),
    ("1 5 A 2", "'1 5 A 2' is not a regular move: a regular move starts with 0, as in '0 5 A 2'."),
    ("A 1 C 1 1 A 2", "'A 1 C 1 1 A 2' names A1 and C1, which are not the two cells of one card."),
    ("pass", ("'pass' is not a Double Card move; write '0 5 A 2' for a regular move or 'F 2 F 3 3 A 2' "
             "for a recycling move.")),
    (None, "A move must be text like '0 5 A 2' or 'F 2 F 3 3 A 2'; the player sent nothing."),
    (7, "A move must be text like '0 5 A 2' or 'F 2 F 3 3 A 2'; the player sent a int."),
])
def test_parse_refuses_with_a_sentence(wire, sentence):
    with pytest.raises(IllegalMove) as exc:
        DoubleCardGame().new_state(0).parse_move(wire)
    assert str(exc.value) == sentence


def test_json_round_trip_keeps_the_locked_card_and_the_outcome(full, position):
    full.play("G 10 G 11 2 G 10")
    game = DoubleCardGame()
    copy = game.state_from_json(json.loads(json.dumps(full.to_json())))
    assert copy.to_json() == full.to_json() and copy.legal_moves() == full.legal_moves()
    assert copy.last_card == full.last_card and "G 10 G 11" not in " ".join(copy.legal_moves())
    won = position("0 4 A 1", "0 8 B 1", "0 4 C 1", "0 8 D 1")
    assert game.state_from_json(json.loads(json.dumps(won.to_json()))).outcome == won.outcome
    other = game.state_from_json(position(max_moves=40).to_json())
    assert other.game.params["max_moves"] == 40


def test_pictures_show_cards_and_marks(full, position):
    text = position("0 1 A 1", "0 5 A 2").render_text({"illegal": ["0 5 H 1"], "missing": ["junk"]})
    rows = text.splitlines()
    assert rows[-4].startswith(" 1 R•-") and rows[-6].startswith(" 2 R◦-")
    assert rows[-4].rstrip().endswith(".x")                      # H1 marked
    assert rows[-2] == "x illegal: 0 5 H 1" and rows[-1] == "? missing: junk"
    svg = full.render_svg({"illegal": ["C 3 C 4 4 H 4"]})
    assert svg.startswith("<svg") and svg.endswith("</svg>")
    assert svg.count('fill="#d9382c"') + svg.count('fill="#ffffff"') == 48
    assert "#d62728" in svg and "illegal: C 3 C 4 4 H 4" in svg
    assert ">A<" in svg and ">12<" in svg


def test_no_legal_recycling_move_is_a_draw(full):
    """No real board is known where this happens; the listing is emptied by hand to test the rule."""
    full._legal = []
    assert full.outcome.points == (0.5, 0.5) and full.outcome.reason == "no_moves"
    assert full.to_move is None and full.legal_moves() == []
