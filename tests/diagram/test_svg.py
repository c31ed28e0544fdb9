"""SVG diagrams (spec/diagrams.md §2): well-formed and self-contained, every ply of every
sample, pieces where the position puts them and drawn as their game says, the marks of the
last and the refused move, the options, every size, and colours that survive grey print."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import arbiter
from arbiter.adjudicator.game import Position
from arbiter.adjudicator.pletore import PletoreRules
from arbiter.diagram.frames import frames
from arbiter.diagram.look import look
from arbiter.diagram.svg import REFUSED, Options, render
from arbiter.notation.ast import Capture, Place, Point, Record, Sow
from arbiter.notation.games import all_games, find_game
from arbiter.notation.position import parse_position
from arbiter.notation.sources import parse_record, read_records
from fuzz.work import calls
from tests.budget import examples
from tests.strategies import GAME_NAMES, setups

SVG = "{http://www.w3.org/2000/svg}"
ROOT = Path(__file__).resolve().parents[2]
SAMPLE_RECORDS = [
    item
    for path in sorted((ROOT / "samples").rglob("*"))
    if path.suffix in (".grn", ".json") and not path.name.endswith(".expected.json")
    for item in read_records(path)
    if isinstance(item, Record)
]


def parse(svg: str) -> ET.Element:
    root = ET.fromstring(svg)
    assert root.tag == f"{SVG}svg"
    return root


def placed(root: ET.Element) -> dict[tuple[int, int], ET.Element]:
    """The groups placed with translate(x y), by their (x, y)."""
    found = {}
    for group in root.iter(f"{SVG}g"):
        match = re.fullmatch(r"translate\((\d+) (\d+)\)", group.get("transform", ""))
        if match:
            found[(int(match[1]), int(match[2]))] = group
    return found


def centre(size: int, square: str, coordinates: bool = True) -> tuple[int, int]:
    point = Point.parse(square)
    left = 32 if coordinates else 10
    return left + point.file * 40 + 20, 10 + (size - 1 - point.rank) * 40 + 20


def texts(root: ET.Element) -> list[str]:
    return [element.text or "" for element in root.iter(f"{SVG}text")]


def position(game: str, size: int, text: str) -> Position:
    return Position(game, size, parse_position(text, find_game(game), size))


# --- every sample ---------------------------------------------------------------------------


def test_every_ply_of_every_sample_is_well_formed_and_start_and_end_differ() -> None:
    drawn = 0
    for record in SAMPLE_RECORDS:
        try:
            found = frames(record)
        except arbiter.RecordError:  # a bad Setup has no plies
            continue
        pictures = [render(frame) for frame in found]
        for picture, frame in zip(pictures, found, strict=True):
            root = parse(picture)
            occupied = sum(bool(cell) for row in frame.position.grid for cell in row)
            assert len(placed(root)) == occupied
        drawn += len(pictures)
        if any(frame.position != found[0].position for frame in found):
            assert pictures[0] != pictures[-1]
    assert drawn > 2000  # every sample, every ply


# --- what is drawn --------------------------------------------------------------------------


def test_pieces_stand_on_their_squares_with_their_games_shapes() -> None:
    root = parse(arbiter.svg(position("Implo", 3, "b,w,B/W,2/3")))
    groups = placed(root)
    assert set(groups) == {centre(3, s) for s in ("a3", "b3", "c3", "a2")}
    stones = [groups[centre(3, s)].find(f"{SVG}circle") for s in ("a3", "b3")]
    assert [stone.get("r") for stone in stones if stone is not None] == ["18.5", "18.5"]
    markers = [groups[centre(3, s)].find(f"{SVG}rect") for s in ("c3", "a2")]
    assert [(m.get("width"), m.get("fill")) for m in markers if m is not None] == [
        ("20", "#1c1c1c"),
        ("20", "#f8f8f5"),
    ]
    assert groups[centre(3, "a3")].find(f"{SVG}rect") is None  # a stone is no square


def test_a_board_of_points_has_lines_and_a_board_of_squares_has_squares() -> None:
    points = parse(arbiter.svg(position("Pletore", 5, "5/5/5/5/5")))
    squares = parse(arbiter.svg(position("Pilo", 5, "5/5/5/5/5")))
    grid = [p.get("d", "") for p in points.iter(f"{SVG}path")][0]
    # Lines run through the centres of the outer points: from 20 units into the board.
    assert "M52 30V190M52 30H212" in grid
    between = [p.get("d", "") for p in squares.iter(f"{SVG}path")][0]
    assert "M72 10V210" in between  # lines between squares, from edge to edge


def test_pilo_stacks_show_their_height_and_blocks_are_squares() -> None:
    root = parse(arbiter.svg(position("Pilo", 4, "ooo,b,x,1/4/4/4")))
    groups = placed(root)
    stack, disk, block = (groups[centre(4, s)] for s in ("a4", "b4", "c4"))
    assert [t.text for t in stack.iter(f"{SVG}text")] == ["3"]
    assert len(list(stack.iter(f"{SVG}circle"))) == 4  # two disks peek out, the top one has a rim
    assert stack.find(f"{SVG}circle").get("fill") == "#f6a230"  # type: ignore[union-attr]
    assert list(disk.iter(f"{SVG}text")) == []
    assert [r.get("width") for r in block.iter(f"{SVG}rect")] == ["34", "22"]


def test_pilare_stacks_show_every_man_bottom_to_top() -> None:
    root = parse(arbiter.svg(position("Pilare", 6, "nnr,5/6/6/6/6/6")))
    column = placed(root)[centre(6, "a6")]
    men = list(column.iter(f"{SVG}rect"))
    assert [m.get("fill") for m in men] == ["#f1ead8", "#f1ead8", "#e0483c"]
    heights = [float(m.get("y", "0")) for m in men]
    assert heights == sorted(heights, reverse=True)  # each man above the one before
    assert [t.text for t in column.iter(f"{SVG}text")] == ["3"]


def test_the_coordinates_are_file_letters_and_rank_numbers() -> None:
    root = parse(arbiter.svg(position("Pletore", 19, "/".join(["19"] * 19))))
    labels = texts(root)
    assert [label for label in labels if label.isalpha()] == list("abcdefghijklmnopqrs")
    assert [label for label in labels if label.isdigit()] == [str(n) for n in range(1, 20)]
    bare = parse(arbiter.svg(position("Pletore", 19, "/".join(["19"] * 19)), coordinates=False))
    assert not any(label.isdigit() or len(label) == 1 for label in texts(bare))


@pytest.mark.parametrize("game", [g.name for g in all_games()])
def test_every_size_draws(game: str) -> None:
    description = find_game(game)
    letter = description.pieces[0].letter
    for size in description.sizes:
        full = "/".join([",".join([letter] * size)] * size)
        for text in (full, "/".join([str(size)] * size)):
            root = parse(arbiter.svg(position(game, size, text)))
            assert root.get("viewBox", "").startswith(f"0 0 {42 + 40 * size} ")
        assert len(placed(root)) == 0
        assert len(placed(parse(arbiter.svg(position(game, size, full))))) == size * size


@settings(max_examples=examples(60), deadline=None)
@given(data=st.data(), game=st.sampled_from(GAME_NAMES))
def test_any_position_draws_every_piece_where_it_stands(data: st.DataObject, game: str) -> None:
    """Any grid of the game's letters (stacks too, even where the game has none), on any of
    its sizes: well-formed, one placed drawing per occupied square, at that square, and
    the same position as text has one row per rank."""
    description = find_game(game)
    size = data.draw(st.sampled_from(description.sizes[:6] + description.sizes[-1:]))
    board = position(game, size, data.draw(setups(description, size)))
    groups = placed(parse(arbiter.svg(board)))
    occupied = {
        centre(size, str(Point(f, r)))
        for r, row in enumerate(board.grid)
        for f, cell in enumerate(row)
        if cell
    }
    assert set(groups) == occupied
    parse(arbiter.svg(board, control=True, coordinates=False, caption=False))
    assert len(arbiter.text(board).splitlines()) == size + 4


# --- the marks ------------------------------------------------------------------------------


def test_the_last_placement_is_ringed_and_its_square_tinted() -> None:
    record = parse_record('[Game "Pilo"]\n[Size "4"]\n\n1. b2 c3 *')
    root = parse(arbiter.svg(record))
    x, y = centre(4, "c3")
    rings = [c for c in root.iter(f"{SVG}circle") if c.get("r") == "6.5"]
    assert [(c.get("cx"), c.get("cy")) for c in rings] == [(str(x), str(y))]
    assert rings[0].get("stroke") == "#1a1a1a"  # dark ink on a light Orange disk
    tints = [r for r in root.iter(f"{SVG}rect") if r.get("fill") == "#f4d03f"]
    assert [(r.get("x"), r.get("y")) for r in tints] == [(str(x - 19), str(y - 19))]
    assert "stroke-dasharray" not in arbiter.svg(record)


def test_a_capture_is_an_arrow_from_its_origin_to_its_target() -> None:
    game = arbiter.Game("Petrify", size=4)
    for move in ("b1", "d3", "b1xd3"):  # Orange's d3 falls to Blue's b1, diagonally
        game.play(move)
    root = parse(arbiter.svg(game))
    line = next(p for p in root.iter(f"{SVG}polyline") if p.get("stroke") == "#111111")
    (x1, y1), (x2, y2) = [tuple(map(float, pt.split(","))) for pt in line.get("points", "").split()]
    (ax, ay), (cx, cy) = centre(4, "b1"), centre(4, "d3")
    assert x1 > ax and y1 < ay and x2 < cx and y2 > cy  # between the two, pointing up-right
    assert x2 - x1 == pytest.approx(y1 - y2)  # along the diagonal


def test_a_refused_move_is_dashed_with_a_cross_on_the_position_before_it() -> None:
    record = parse_record('[Game "Pletore"]\n[Size "5"]\n[Komi "0"]\n\n1. c3 d4 2. c3 *')
    picture = arbiter.svg(record)
    root = parse(picture)
    x, y = centre(5, "c3")
    dashed = [c for c in root.iter(f"{SVG}circle") if c.get("stroke-dasharray")]
    assert [(c.get("cx"), c.get("cy"), c.get("stroke")) for c in dashed] == [
        (str(x), str(y), REFUSED)
    ]
    crosses = [p for p in root.iter(f"{SVG}path") if p.get("stroke") == REFUSED]
    assert crosses and crosses[0].get("d", "").startswith(f"M{x - 8} {y - 8}")
    assert len(placed(root)) == 2  # c3 and d4: the refused move placed nothing
    assert "illegal-move: c3 is occupied" in texts(root)
    rings = [c for c in root.iter(f"{SVG}circle") if c.get("r") == "6.5"]
    assert [(c.get("cx"), c.get("cy")) for c in rings] == [tuple(map(str, centre(5, "d4")))]


def test_a_refused_sowing_off_the_board_ends_at_the_edge() -> None:
    game = arbiter.Game("Pilare", size=6)
    frame = arbiter.diagram.frame(game, refused=Sow(Point.parse("f1"), "e"))
    root = parse(render(frame))
    x, y = centre(6, "f1")
    crosses = [p for p in root.iter(f"{SVG}path") if p.get("stroke") == REFUSED]
    assert crosses[0].get("d", "").startswith(f"M{x + 20 - 8} {y - 8}")  # on the right edge


def test_a_sowing_is_a_path_through_every_square_it_drops_a_man_on() -> None:
    game = arbiter.Game("Pilare", size=6)
    game.play("a1:ne")  # two men: b1, then b2
    root = parse(arbiter.svg(game))
    path = next(p for p in root.iter(f"{SVG}polyline") if p.get("stroke") == "#111111")
    points = [tuple(map(float, pt.split(","))) for pt in path.get("points", "").split()]
    assert points[0] == centre(6, "a1") and points[1] == centre(6, "a2")
    dots = [c for c in root.iter(f"{SVG}circle") if c.get("r") == "3.5"]
    assert [(c.get("cx"), c.get("cy")) for c in dots] == [tuple(map(str, centre(6, "a2")))]


def test_control_marks_the_empty_points_each_colour_controls() -> None:
    game = arbiter.Game("Pletore", size=5, komi=0)
    for move in ("b1", "e4", "a2", "d5"):  # Black pinches a1, White d4 and e5
        game.play(move)
    rules = game.rules
    assert isinstance(rules, PletoreRules)
    control = rules.control_map(game.state)
    empty = [i for i, row in enumerate(c for r in game.position.grid for c in r) if not row]
    expected = {i: owner for i, owner in enumerate(control) if owner and i in empty}
    root = parse(arbiter.svg(game, control=True))
    marks = {
        xy: group.find(f"{SVG}rect").get("fill")  # type: ignore[union-attr]
        for xy, group in placed(root).items()
        if group.find(f"{SVG}rect") is not None
    }
    paints = {"Black": "#1c1c1c", "White": "#f8f8f5"}
    assert expected and marks == {
        centre(5, str(Point(i % 5, i // 5))): paints[owner] for i, owner in expected.items()
    }
    assert not [g for g in placed(parse(arbiter.svg(game))).values() if g.find(f"{SVG}rect")]


def test_marks_given_for_a_bare_position() -> None:
    board = position("Pilo", 4, "4/4/1,b,2/4")
    root = parse(
        arbiter.svg(
            board,
            last=Place(Point.parse("b2")),
            refused=Capture(Point.parse("b2"), Point.parse("b4")),
        )
    )
    assert [c for c in root.iter(f"{SVG}circle") if c.get("r") == "6.5"]
    assert [p for p in root.iter(f"{SVG}polyline") if p.get("stroke-dasharray")]


# --- options and the document ---------------------------------------------------------------


def test_the_caption_says_what_is_shown_and_can_be_left_out() -> None:
    record = parse_record('[Game "Pilo"]\n[Size "4"]\n\n1. b2 c3 *')
    root = parse(arbiter.svg(record, ply=1))
    caption = " ".join(texts(root)[8:])  # after the four file letters and four rank numbers
    assert caption == "Pilo 4×4 · ply 1 · 1. Blue b2 Orange to move"
    title = root.find(f"{SVG}title")
    assert title is not None and title.text == "Pilo 4×4 · ply 1 · 1. Blue b2 — Orange to move"
    bare = parse(arbiter.svg(record, caption=False))
    assert "Orange to move" not in texts(bare) and "Blue to move" not in texts(bare)
    assert float(bare.get("height", "0")) < float(root.get("height", "0"))


def test_the_width_scales_the_picture() -> None:
    root = parse(arbiter.svg(arbiter.Game("Implo", size=9), width=300))
    _, _, w, h = map(int, root.get("viewBox", "").split())
    assert root.get("width") == "300" and int(root.get("height", "0")) == round(h * 300 / w)
    with pytest.raises(ValueError, match="positive"):
        arbiter.svg(arbiter.Game("Implo", size=9), width=0)


def test_the_document_is_self_contained() -> None:
    for record in SAMPLE_RECORDS[::5]:
        picture = arbiter.svg(record, control=True)
        for forbidden in (" id=", "href", "<script", "url(", "@import", "<style", "<image"):
            assert forbidden not in picture


def test_text_in_a_caption_is_escaped() -> None:
    record = parse_record('[Game "Pilo"]\n[Size "4"]\n\n1. b2 b2 *')
    frame = frames(record).at()
    error = frame.error
    assert error is not None
    error.message = "<b> & 'quoted'"
    root = parse(render(frame))
    title = root.find(f"{SVG}title")
    assert title is not None and (title.text or "").endswith("illegal-move: <b> & 'quoted'")
    assert "<b> &" not in render(frame)


def test_only_records_and_games_have_plies() -> None:
    with pytest.raises(ValueError, match="a ply can only be chosen"):
        arbiter.svg(position("Pilo", 4, "4/4/4/4"), ply=1)
    with pytest.raises(TypeError, match="cannot draw"):
        arbiter.svg("4/4/4/4")  # type: ignore[arg-type]


# --- colours --------------------------------------------------------------------------------


def luminance(colour: str) -> float:
    """Relative luminance (WCAG 2), which is what a grey print keeps of a colour."""
    channels = [int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    r, g, b = (c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: str, b: str) -> float:
    light, dark = sorted((luminance(a), luminance(b)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


@pytest.mark.parametrize("game", [g.name for g in all_games()])
def test_pieces_of_different_owners_differ_in_lightness(game: str) -> None:
    """In black-and-white print, and for every kind of colour blindness (which keeps
    lightness), the two colours' pieces and the neutral ones stay apart: a contrast ratio
    of at least 3 between any two of them."""
    paints = {piece.owner: piece.paint.fill for piece in look(find_game(game)).pieces.values()}
    fills = [fill for owner, fill in paints.items() if owner is not None or game == "Pilare"]
    for i, a in enumerate(fills):
        for b in fills[i + 1 :]:
            assert contrast(a, b) >= 3, (game, a, b)


def test_a_refused_mark_is_told_from_the_last_move_without_colour() -> None:
    record = parse_record('[Game "Pilo"]\n[Size "4"]\n\n1. b2 c3 2. d4xd1 *')
    picture = arbiter.svg(record)
    last = arbiter.svg(parse_record('[Game "Pilo"]\n[Size "4"]\n\n1. b2 c3 *'))
    assert "stroke-dasharray" in picture and "stroke-dasharray" not in last


# --- speed ----------------------------------------------------------------------------------


def full_board(size: int) -> Position:
    """A board of ``size`` with stones of both colours on two squares in three."""
    grid = tuple(
        tuple("" if (f * r) % 3 == 1 else "bw"[(f + r) % 2] for f in range(size))
        for r in range(size)
    )
    return Position("Pletore", size, grid)


@pytest.mark.checkout_only  # the compiled renderer's calls are not seen by the profiler
def test_a_full_19x19_board_costs_no_more_per_square_than_a_9x9() -> None:
    """A guard only (the figure of docs/performance.md is measured by bench/diagrams.py): the
    work of drawing a board, counted in calls, grows with its squares and no faster."""

    def per_square(size: int) -> float:
        frame = arbiter.diagram.frame(full_board(size))
        return calls(lambda: render(frame, Options(control=True))) / size**2

    assert per_square(19) <= per_square(9)
