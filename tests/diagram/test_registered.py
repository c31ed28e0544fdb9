"""Games registered later are drawn from their descriptions alone (spec/diagrams.md §4):
their own letters and colours, the default board of their kind, and stacks drawn as their
pieces say (columns of men, heights of disks), with no change to arbiter.diagram."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest

import arbiter
from arbiter.adjudicator.game import Position
from arbiter.diagram.look import look
from arbiter.notation.games import GameDescription, Piece, register_game, unregister_game
from arbiter.notation.position import parse_position

DOTS = GameDescription(
    name="Dots",
    colours=("Green", "Purple"),
    sizes=(3, 4, 5),
    moves=("place", "pass"),
    pieces=(Piece("g", "Green dot"), Piece("p", "Purple dot")),
)
TOWERS = GameDescription(
    name="Towers",
    colours=("Jade", "Amber"),
    sizes=(4,),
    moves=("sow",),
    pieces=(Piece("j", "Jade man"), Piece("a", "Amber man")),
    stacks=True,
)
HEAPS = GameDescription(
    name="Heaps",
    colours=("Green", "Purple"),
    sizes=(4,),
    moves=("place", "move"),
    pieces=(Piece("g", "Green disk"), Piece("p", "Purple disk")),
    stacks=True,
)
SVG = "{http://www.w3.org/2000/svg}"


@pytest.fixture(autouse=True, scope="module")
def games() -> Iterator[None]:
    """The three games, known for this module only (no rules: a bare position is drawn)."""
    for game in (DOTS, TOWERS, HEAPS):
        register_game(game)
    yield
    for game in (DOTS, TOWERS, HEAPS):
        unregister_game(game.name)


def position(game: GameDescription, size: int, text: str) -> Position:
    return Position(game.name, size, parse_position(text, game, size))


def test_a_game_with_its_own_letters_and_colours_draws() -> None:
    board = position(DOTS, 3, "g,p,1/3/3")
    picture = arbiter.svg(board)
    assert 'fill="#1e7d4f"' in picture and 'fill="#c9a6e4"' in picture  # Green, Purple
    assert picture.count('r="15.5"') == 2  # two dots, drawn as disks
    assert 'fill="#ebe4d3"' in picture  # the default board of squares
    assert arbiter.text(board).splitlines()[1] == " 3  ●  ○  ·  3"
    assert arbiter.text(board, ascii=True).splitlines()[1] == " 3  g  p  .  3"


def test_stacks_of_men_are_columns_and_stacks_of_disks_heights() -> None:
    assert (look(TOWERS).stacks, look(HEAPS).stacks, look(DOTS).stacks) == (
        "column",
        "height",
        None,
    )
    tower = arbiter.svg(position(TOWERS, 4, "jjj,3/4/4/4"))
    assert len(re.findall(r'<rect x="-10"', tower)) == 3  # one bar per man
    assert arbiter.text(position(TOWERS, 4, "jjj,a,2/4/4/4")).splitlines()[1].split()[1:3] == [
        "jjj",
        "a",
    ]
    heap = arbiter.svg(position(HEAPS, 4, "ggg,3/4/4/4"), coordinates=False)
    assert '<rect x="-10"' not in heap and ">3</text>" in heap  # a disk with its height
    assert arbiter.text(position(HEAPS, 4, "ggg,3/4/4/4")).splitlines()[1].split()[1] == "●3"


def test_colours_without_a_paint_get_a_dark_and_a_light_one() -> None:
    first, second = look(TOWERS).colours
    assert first.ink == "#ffffff" and second.ink == "#1a1a1a"  # dark, then light
