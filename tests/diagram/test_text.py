"""Text diagrams (spec/diagrams.md §3): boards of points and squares, stacks, markers, the
marks of the last and the refused move, Unicode and ASCII."""

from __future__ import annotations

import arbiter
from arbiter.adjudicator.game import Position
from arbiter.notation.games import find_game
from arbiter.notation.position import parse_position
from arbiter.notation.sources import parse_record


def position(game: str, size: int, text: str) -> Position:
    return Position(game, size, parse_position(text, find_game(game), size))


def test_a_board_of_points_is_drawn_with_lines() -> None:
    record = parse_record('[Game "Pletore"]\n[Size "3"]\n[Komi "0"]\n\n1. b2 a1 *')
    assert arbiter.text(record) == (
        "    a  b  c\n"
        " 3  ┌──┬──┐  3\n"
        " 2  ├──●──┤  2\n"
        " 1 (○)─┴──┘  1\n"
        "    a  b  c\n"
        "Pletore 3×3 · ply 2 · 1. White a1\n"
        "Black to move\n"
        "(…) last move\n"
    )


def test_ascii_uses_the_notations_letters() -> None:
    record = parse_record('[Game "Pletore"]\n[Size "3"]\n[Komi "0"]\n\n1. b2 a1 *')
    assert arbiter.text(record, ply=1, ascii=True) == (
        "    a  b  c\n"
        " 3  +  +  +  3\n"
        " 2  + (b) +  2\n"
        " 1  +  +  +  1\n"
        "    a  b  c\n"
        "Pletore 3×3 · ply 1 · 1. Black b2\n"
        "White to move\n"
        "(…) last move\n"
    )


def test_stacks_blocks_and_a_refused_capture() -> None:
    record = parse_record('[Game "Pilo"]\n[Size "3"]\n[Setup "oo,1,b/x,1,bb/3"]\n\n1. c2xa3 *')
    assert arbiter.text(record) == (
        "    a   b   c\n"
        " 3 >○2< ·   ●   3\n"
        " 2  ▒   ·  >●2< 2\n"
        " 1  ·   ·   ·   1\n"
        "    a   b   c\n"
        "Pilo 3×3 · ply 1 · 1. Blue c2xa3 refused\n"
        "illegal-move: c2xa3: c2 and a3 are not on one row or column\n"
        ">…< refused move\n"
    )


def test_implo_markers_and_stones_differ() -> None:
    shown = arbiter.text(position("Implo", 3, "b,w,B/W,2/3"))
    assert shown.splitlines()[1] == " 3  ●──○──■  3"
    assert shown.splitlines()[2] == " 2  □──┼──┤  2"
    ascii_shown = arbiter.text(position("Implo", 3, "b,w,B/W,2/3"), ascii=True)
    assert ascii_shown.splitlines()[1] == " 3  b  w  B  3"


def test_pilare_stacks_are_their_letters_bottom_to_top_and_a_sowing_its_ends() -> None:
    game = arbiter.Game("Pilare", size=6)
    game.play("a1:ne")
    lines = arbiter.text(game).splitlines()
    # Red's a1 held a neutral man under a Red one: the neutral man went north to a2, the
    # Red one east to b2; a1 is empty.
    assert lines[5:7] == [
        " 2  nrn ( nr)  n    n    n    nr  2",
        " 1 ( · )  nr   nr   nr   nr   nr  1",
    ]
