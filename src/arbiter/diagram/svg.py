"""SVG diagrams of positions (``spec/diagrams.md``).

:func:`render` draws a :class:`~arbiter.diagram.frames.Frame`: the board (squares, or the
lines of a board of points), file letters and rank numbers, the pieces as the game's
:class:`~arbiter.diagram.look.Look` says, the last move, a refused move, and optionally the
points each colour controls; then a caption. The output is one self-contained SVG document:
no scripts, no external fonts or images, no ids (so that several diagrams can be inlined in
one page without clashing). Coordinates are in units of :data:`UNIT` per square; the
picture is drawn at one pixel per unit unless a width is asked.

A document is put together from parts, in this order: :func:`open_tag`, :func:`title`, the
:func:`board`, the :func:`tint` of the last move's squares, the control marks, the pieces,
the :func:`marks` of the moves, the caption, and ``</svg>``. Each piece and each control
mark is a fragment drawn around (0, 0) and placed with ``<g transform="translate(x y)">``
(:func:`place`). The page's viewer receives these parts once per record (and the fragments
once per kind of square) and puts each ply's picture together the same way, so that it shows
exactly what ``POST /api/v1/diagram`` draws (``spec/api.md`` section 3.6).

Drawing a full 19×19 board has to stay well under 5 ms (``docs/performance.md``, "Diagrams"): the
parts are plain strings, and each kind of square's fragment is drawn once.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from html import escape

from arbiter.diagram.frames import Frame
from arbiter.diagram.look import Look, PieceLook, look
from arbiter.notation.ast import FILES, Move, Point
from arbiter.notation.forms import Trace
from arbiter.notation.games import GameDescription

UNIT = 40
"""The side of one square (or the distance between two lines), in SVG units."""
PAD = 10
LABELS = 22
"""Room for the file letters below the board and the rank numbers left of it."""
LINE_HEIGHT = 17
FONT = "DejaVu Sans, Verdana, Arial, Helvetica, sans-serif"
HIGHLIGHT = "#f4d03f"
"""The last move's squares are tinted with this (under the pieces)."""
LAST = "#111111"
REFUSED = "#c4007a"
"""A refused move is drawn dashed, with a cross, in this colour over a white halo: it is
told from the last move by its shape and line style even without colour."""
NO_CONTROL = "-"
"""In a control string, a point that no colour controls or that is not empty."""
CLOSE = "</svg>\n"


@dataclass(frozen=True, slots=True)
class Options:
    """What :func:`render` draws besides the pieces (``spec/diagrams.md``, "Options")."""

    coordinates: bool = True
    caption: bool = True
    control: bool = False
    width: int | None = None


@dataclass(frozen=True, slots=True)
class Layout:
    """Where things go in a diagram of a ``size`` board: the board's top-left corner, the
    picture's width, and the bottom of the board with its labels."""

    size: int
    left: int
    top: int
    width: int
    bottom: int
    look: Look

    def centre(self, point: Point) -> tuple[int, int]:
        """The SVG coordinates of the centre of ``point``'s square (or its intersection)."""
        half = UNIT // 2
        return (
            self.left + point.file * UNIT + half,
            self.top + (self.size - 1 - point.rank) * UNIT + half,
        )

    def on_board(self, file: int, rank: int) -> bool:
        return 0 <= file < self.size and 0 <= rank < self.size


def layout(game: GameDescription, size: int, coordinates: bool = True) -> Layout:
    """The layout of a diagram of ``game`` on a ``size`` board."""
    left = PAD + (LABELS if coordinates else 0)
    bottom = PAD + size * UNIT + (LABELS if coordinates else 4)
    return Layout(size, left, PAD, left + size * UNIT + PAD, bottom, look(game))


def render(frame: Frame, options: Options = Options()) -> str:
    """The SVG document of ``frame`` drawn with ``options``."""
    where = layout(frame.game, frame.position.size, options.coordinates)
    lines = caption_lines(frame, where.width) if options.caption else []
    height = where.bottom + len(lines) * LINE_HEIGHT + (PAD if lines else PAD - 4)
    control = control_string(frame) if options.control else None
    return "".join(
        (
            open_tag(where.width, height, options.width),
            title(frame),
            board(where, options.coordinates),
            tint(where, frame.last),
            place_control(where, control) if control else "",
            place_pieces(where, frame.position.grid),
            marks(where, frame),
            caption(where, lines, frame),
            CLOSE,
        )
    )


def open_tag(width: int, height: int, shown: int | None = None) -> str:
    """The ``<svg>`` tag of a picture ``width`` by ``height`` units (shown ``shown`` pixels
    wide), and its white background."""
    size = (
        f' width="{shown}" height="{round(height * shown / width)}"'
        if shown
        else f' width="{width}" height="{height}"'
    )
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}"{size} '
        f'role="img" font-family="{FONT}">'
        f'<rect width="{width}" height="{height}" fill="#ffffff"/>'
    )


def title(frame: Frame) -> str:
    """The picture's title (what a screen reader says): its caption on one line."""
    return f"<title>{escape(' — '.join(frame.caption()))}</title>"


def place(x: int, y: int, fragment: str) -> str:
    """``fragment``, drawn around (0, 0), moved to (``x``, ``y``)."""
    return f'<g transform="translate({x} {y})">{fragment}</g>'


# The board -------------------------------------------------------------------------------


def board(where: Layout, coordinates: bool = True) -> str:
    """The empty board with its grid, and the file letters and rank numbers."""
    drawn = _drawn(where.look)
    key = ("board", where.size, coordinates)
    found = drawn.get(key)
    if found is None:
        parts = list(_squares(where))
        if coordinates:
            parts += _coordinates(where)
        found = drawn[key] = "".join(parts)
    return found


def _squares(where: Layout) -> Iterator[str]:
    paint, side, x, y = where.look.board, where.size * UNIT, where.left, where.top
    yield (
        f'<rect x="{x}" y="{y}" width="{side}" height="{side}" fill="{paint.fill}" '
        f'stroke="{paint.line}" stroke-width="2"/>'
    )
    if where.look.points:
        yield _lines(where, UNIT // 2, where.size, UNIT // 2, side - UNIT // 2, "1.3")
        return
    if paint.alternate:
        cells = "".join(
            f"M{x + f * UNIT} {y + r * UNIT}h{UNIT}v{UNIT}h-{UNIT}z"
            for r in range(where.size)
            for f in range(where.size)
            if (f + r) % 2 != where.size % 2  # a1 is dark, as on a chessboard
        )
        yield f'<path d="{cells}" fill="{paint.alternate}"/>'
    yield _lines(where, UNIT, where.size - 1, 0, side, "1")


def _lines(where: Layout, first: int, count: int, start: int, end: int, width: str) -> str:
    """The grid: ``count`` lines each way, the first ``first`` units into the board, each
    running from ``start`` to ``end`` units into it."""
    x, y = where.left, where.top
    path = "".join(
        f"M{x + o} {y + start}V{y + end}M{x + start} {y + o}H{x + end}"
        for o in (first + i * UNIT for i in range(count))
    )
    line = where.look.board.line
    return f'<path d="{path}" stroke="{line}" stroke-width="{width}" fill="none"/>'


def _coordinates(where: Layout) -> Iterator[str]:
    paint, size = where.look.board, where.size
    base = where.top + size * UNIT + 16
    yield f'<g font-size="13" fill="{paint.label}" text-anchor="middle">'
    for f in range(size):
        yield f'<text x="{where.left + f * UNIT + UNIT // 2}" y="{base}">{FILES[f]}</text>'
    for r in range(size):
        y = where.top + (size - 1 - r) * UNIT + UNIT // 2 + 5
        yield f'<text x="{where.left - 12}" y="{y}">{r + 1}</text>'
    yield "</g>"


def tint(where: Layout, move: Move | None) -> str:
    """The last move's squares, tinted (boards of squares only: on a board of points the
    ring on the stone says it)."""
    if move is None or where.look.points:
        return ""
    parts = []
    trace = move.trace(where.size)
    for point in trace.squares[:1] if trace.walk else trace.squares:
        if where.on_board(point.file, point.rank):
            x, y = where.centre(point)
            parts.append(
                f'<rect x="{x - UNIT // 2 + 1}" y="{y - UNIT // 2 + 1}" width="{UNIT - 2}" '
                f'height="{UNIT - 2}" fill="{HIGHLIGHT}" fill-opacity="0.55"/>'
            )
    return "".join(parts)


# Control ---------------------------------------------------------------------------------


def control_string(frame: Frame) -> str | None:
    """Who controls each empty point, one character a point from a1 along the ranks: the
    index of the controlling colour (``0``, ``1``) or ``-``. None for a game whose rules do
    not say (only Pletore's do)."""
    control = frame.control()
    if control is None:
        return None
    colours = frame.game.colours
    cells = [cell for row in frame.position.grid for cell in row]
    return "".join(
        NO_CONTROL if owner is None or cells[i] else str(colours.index(owner))
        for i, owner in enumerate(control)
    )


def control_fragments(style: Look) -> tuple[str, str]:
    """The mark of a point each colour controls: a small square of its colour."""
    return tuple(  # type: ignore[return-value]
        f'<rect x="-5" y="-5" width="10" height="10" fill="{paint.fill}" '
        f'stroke="{paint.stroke}" stroke-width="1.2"/>'
        for paint in style.colours
    )


def place_control(where: Layout, control: str) -> str:
    """The control marks of a control string (see :func:`control_string`)."""
    fragments, size = control_fragments(where.look), where.size
    return "".join(
        place(*where.centre(Point(i % size, i // size)), fragments[int(owner)])
        for i, owner in enumerate(control)
        if owner != NO_CONTROL
    )


# The pieces ------------------------------------------------------------------------------


def place_pieces(where: Layout, grid: Sequence[Sequence[str]]) -> str:
    """Every piece of ``grid``, rank 1 first, each square's fragment placed on it."""
    style = where.look
    return "".join(
        place(*where.centre(Point(file, rank)), fragment(style, cell))
        for rank, row in enumerate(grid)
        for file, cell in enumerate(row)
        if cell
    )


def fragment(style: Look, cell: str) -> str:
    """What stands on one square (its letters, bottom to top), drawn around (0, 0)."""
    drawn = _drawn(style)
    found = drawn.get(cell)
    if found is None:
        found = drawn[cell] = _fragment(style, cell)
    return found


def _drawn(style: Look) -> dict[object, str]:
    """What has been drawn for a look: boards and square fragments, which never change."""
    found = _DRAWN.get(style.game.name)
    if found is None or found[0] is not style:
        found = _DRAWN[style.game.name] = (style, {})
    return found[1]


_DRAWN: dict[str, tuple[Look, dict[object, str]]] = {}
"""The parts drawn so far, per game (and per look: a game registered anew draws anew)."""


def _fragment(style: Look, cell: str) -> str:
    pieces = style.pieces
    if len(cell) == 1:
        return _piece(pieces[cell])
    if style.stacks == "column" or cell.strip(cell[0]):
        return _column([pieces[letter] for letter in cell])
    return _stack(pieces[cell[0]], len(cell))


def _piece(piece: PieceLook) -> str:
    paint, shape = piece.paint, piece.shape
    if shape == "stone":
        shine = "#ffffff" if paint.ink == "#ffffff" else "#000000"
        return (
            f'<circle r="18.5" fill="{paint.fill}" stroke="{paint.stroke}" stroke-width="1.2"/>'
            f'<circle cx="-6" cy="-7" r="6" fill="{shine}" fill-opacity="0.13"/>'
        )
    if shape == "marker":
        return (
            f'<rect x="-10" y="-10" width="20" height="20" rx="2" fill="{paint.fill}" '
            f'stroke="{paint.stroke}" stroke-width="1.5"/>'
        )
    if shape == "block":
        return (
            f'<rect x="-17" y="-17" width="34" height="34" rx="4" fill="{paint.fill}" '
            f'stroke="{paint.stroke}" stroke-width="1.5"/><rect x="-11" y="-11" width="22" '
            'height="22" rx="2" fill="#ffffff" fill-opacity="0.22"/>'
        )
    if shape == "man":
        return _column([piece])
    return _disk(piece, 0)


def _disk(piece: PieceLook, y: int) -> str:
    paint = piece.paint
    return (
        f'<circle cy="{y}" r="15.5" fill="{paint.fill}" stroke="{paint.stroke}" '
        f'stroke-width="1.5"/><circle cy="{y}" r="11" fill="none" stroke="{paint.stroke}" '
        'stroke-opacity="0.35"/>'
    )


def _stack(piece: PieceLook, height: int) -> str:
    """A one-coloured stack seen from above: the disks under the top one peek out below it
    (at most three), and the height is written on the top disk."""
    paint = piece.paint
    under = min(height - 1, 3)
    top = -under  # keep the stack centred in its square
    shadows = "".join(
        f'<circle cy="{top + 3 * k}" r="15.5" fill="{paint.fill}" stroke="{paint.stroke}" '
        'stroke-width="1.5"/>'
        for k in range(under, 0, -1)
    )
    return (
        f"{shadows}{_disk(piece, top)}"
        f'<text y="{top + 6}" font-size="17" font-weight="bold" text-anchor="middle" '
        f'fill="{paint.ink}">{height}</text>'
    )


def _column(men: Sequence[PieceLook]) -> str:
    """A stack seen from the side, bottom man at the bottom, drawn right of the square's
    centre so that its height, when it is more than one, fits in the top-left corner."""
    count = len(men)
    layer = min(9.0, 29.0 / count)
    bottom = UNIT // 2 - 5
    gap = 1.2 if layer >= 5 else 0.0
    parts = []
    for i, man in enumerate(men):
        parts.append(
            f'<rect x="-10" y="{_n(bottom - (i + 1) * layer)}" width="26" '
            f'height="{_n(layer - gap)}" rx="{_n(min(2.5, layer / 3))}" '
            f'fill="{man.paint.fill}" stroke="{man.paint.stroke}" '
            f'stroke-width="{1 if gap else 0.6}"/>'
        )
    if count > 1:
        parts.append(
            f'<text x="-17" y="-8" font-size="11" font-weight="bold" fill="#1f1f1f">{count}</text>'
        )
    return "".join(parts)


# The marks of moves ----------------------------------------------------------------------


def marks(where: Layout, frame: Frame) -> str:
    """The marks of the last move and of a refused move, drawn over the pieces."""
    parts = list(_last_mark(where, frame.last, frame.position.grid))
    if frame.refused is not None:
        parts += _refused_mark(where, frame.refused)
    return "".join(parts)


def _last_mark(where: Layout, move: Move | None, grid: Sequence[Sequence[str]]) -> Iterator[str]:
    """The last move: a ring on the piece placed or flipped (a move seen on one square), an
    arrow from where a piece left to where it went, or along the squares a walk (a sowing)
    went through."""
    trace = Trace() if move is None else move.trace(where.size)
    if len(trace.squares) == 1 and not trace.walk:
        at = trace.squares[0]
        x, y = where.centre(at)
        cell = grid[at.rank][at.file]
        ink = where.look.pieces[cell[-1]].paint.ink if cell else LAST
        yield f'<circle cx="{x}" cy="{y}" r="6.5" fill="none" stroke="{ink}" stroke-width="2.6"/>'
    elif trace.walk:
        yield _arrow(where, trace.squares, LAST, dashed=False)
    elif trace.squares:
        ends = [trace.squares[0], trace.squares[-1]]
        yield _arrow(where, ends, LAST, dashed=False, start=13)


def _refused_mark(where: Layout, move: Move) -> Iterator[str]:
    """The refused move: dashed, in :data:`REFUSED`, with a cross where it would have
    ended. Nothing is drawn for a refused pass, swap or button (the caption says it)."""
    trace = move.trace(where.size)
    if len(trace.squares) == 1 and not trace.walk:
        x, y = where.centre(trace.squares[0])
        yield (
            f'<circle cx="{x}" cy="{y}" r="17" fill="none" stroke="#ffffff" stroke-width="6" '
            f'stroke-opacity="0.8"/><circle cx="{x}" cy="{y}" r="17" fill="none" '
            f'stroke="{REFUSED}" stroke-width="3" stroke-dasharray="6 4"/>'
        )
        yield _cross(x, y)
    elif trace.walk:
        end = _edge(where, trace)
        yield _arrow(where, trace.squares, REFUSED, dashed=True, end=end)
        yield _cross(*(end or where.centre(trace.squares[-1])))
    elif trace.squares:
        ends = [trace.squares[0], trace.squares[-1]]
        yield _arrow(where, ends, REFUSED, dashed=True, start=13)
        yield _cross(*where.centre(ends[-1]))


def _edge(where: Layout, trace: Trace) -> tuple[int, int] | None:
    """The point on the board's edge where a walk would leave the board, if it does."""
    if trace.leaves is None:
        return None
    df, dr = trace.leaves
    x, y = where.centre(trace.squares[-1])
    return x + df * UNIT // 2, y - dr * UNIT // 2


def _arrow(
    where: Layout,
    path: Sequence[Point],
    colour: str,
    *,
    dashed: bool,
    end: tuple[int, int] | None = None,
    start: int = 0,
) -> str:
    """A line through the centres of ``path`` (then to ``end``) with a head at its end,
    over a white halo so that it shows on dark pieces; it begins ``start`` units away from
    the first centre (so as not to hide what stands there)."""
    points: list[tuple[float, float]] = [where.centre(p) for p in path]
    if end is not None:
        points.append(end)
    if len(points) < 2:
        x, y = points[0]
        return (
            f'<circle cx="{_n(x)}" cy="{_n(y)}" r="5" fill="{colour}" stroke="#ffffff" '
            'stroke-width="2"/>'
        )
    if start:
        points[0] = _towards(points[0], points[1], start)
    back = 9.0 if end is None else 0.0  # the head stops short of the centre it points at
    tip = _towards(points[-1], points[-2], back)
    base = _towards(tip, points[-2], 12.0)
    ux, uy = (tip[0] - base[0]) / 12, (tip[1] - base[1]) / 12
    head = (
        f"{_n(tip[0])},{_n(tip[1])} {_n(base[0] - uy * 7)},{_n(base[1] + ux * 7)} "
        f"{_n(base[0] + uy * 7)},{_n(base[1] - ux * 7)}"
    )
    line = " ".join(f"{_n(x)},{_n(y)}" for x, y in [*points[:-1], base])
    dash = ' stroke-dasharray="8 5"' if dashed else ""
    dots = "".join(
        f'<circle cx="{_n(x)}" cy="{_n(y)}" r="3.5" fill="{colour}"/>' for x, y in points[1:-1]
    )
    # The last move's arrow lets the pieces it passes over show through; a refused one is
    # drawn solid, since nothing of it stands on the board.
    opacity = "" if dashed else ' opacity="0.7"'
    return (
        f'<g{opacity}><g stroke-linecap="round" stroke-linejoin="round" fill="none">'
        f'<polyline points="{line}" stroke="#ffffff" stroke-opacity="0.85" stroke-width="8"/>'
        f'<polyline points="{line}" stroke="{colour}" stroke-width="4"{dash}/></g>{dots}'
        f'<polygon points="{head}" fill="{colour}" stroke="#ffffff" stroke-width="1.5"/></g>'
    )


def _towards(
    here: tuple[float, float], there: tuple[float, float], distance: float
) -> tuple[float, float]:
    """The point ``distance`` units from ``here`` on the way to ``there``."""
    dx, dy = there[0] - here[0], there[1] - here[1]
    length = max((dx * dx + dy * dy) ** 0.5, 1.0)
    return here[0] + dx * distance / length, here[1] + dy * distance / length


def _cross(x: float, y: float) -> str:
    d = (
        f"M{_n(x - 8)} {_n(y - 8)}L{_n(x + 8)} {_n(y + 8)}"
        f"M{_n(x + 8)} {_n(y - 8)}L{_n(x - 8)} {_n(y + 8)}"
    )
    return (
        f'<path d="{d}" stroke="#ffffff" stroke-width="9" stroke-linecap="round"/>'
        f'<path d="{d}" stroke="{REFUSED}" stroke-width="4.5" stroke-linecap="round"/>'
    )


# The caption -----------------------------------------------------------------------------


def caption_lines(frame: Frame, width: int) -> list[tuple[str, bool]]:
    """The caption's lines, wrapped to the picture's width: (text, bold)."""
    room = max(12, int((width - 2 * PAD - 16) / 7.2))  # about 7.2 units a character at 13
    head, tail = frame.caption()
    return [(line, True) for line in _wrap(head, room)] + [
        (line, False) for line in _wrap(tail, room)
    ]


def _wrap(text: str, room: int) -> list[str]:
    lines: list[str] = []
    for word in text.split(" "):
        if lines and len(lines[-1]) + 1 + len(word) <= room:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return lines


def caption(where: Layout, lines: Sequence[tuple[str, bool]], frame: Frame) -> str:
    """The caption under the board; the side to move gets a piece of its colour before its
    name, and the reason a move was refused is in :data:`REFUSED`."""
    parts = []
    icon = frame.refused is None and frame.to_move is not None
    for i, (text, bold) in enumerate(lines):
        x, y = PAD, where.bottom + 13 + i * LINE_HEIGHT
        weight = ' font-weight="bold"' if bold else ""
        fill = REFUSED if frame.refused is not None and not bold else "#222222"
        if icon and not bold and frame.to_move is not None:
            paint = where.look.colours[frame.game.colours.index(frame.to_move)]
            parts.append(
                f'<circle cx="{x + 6}" cy="{y - 4.5}" r="5.5" fill="{paint.fill}" '
                f'stroke="{paint.stroke}" stroke-width="1.2"/>'
            )
            x, icon = x + 16, False
        parts.append(
            f'<text x="{x}" y="{y}" font-size="13"{weight} fill="{fill}">{escape(text)}</text>'
        )
    return "".join(parts)


def _n(value: float) -> str:
    """A coordinate, with at most one decimal."""
    rounded = round(value, 1)
    return str(int(rounded)) if rounded == int(rounded) else str(rounded)
