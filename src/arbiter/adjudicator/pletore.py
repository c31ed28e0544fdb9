"""Pletore: a territory game of sight lines, pinches and flips.

Implements ``spec/rules/pletore.md``, which states the published rules as read with
``RULINGS.md``. The board is a flat ``bytes`` indexed by ``rank * size + file`` holding
``EMPTY``, ``BLACK`` or ``WHITE`` (a move copies it as one block of memory, where a tuple
would copy and count a reference per point). ``BLACK`` (1) and ``WHITE`` (2) are also bit
masks, so the colours a point sees along a line OR together and "pinched by" is one AND of
the horizontal and the vertical masks; control is that AND when it names exactly one
colour.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache
from typing import Any, Final, NamedTuple

from arbiter.adjudicator.base import Outcome, Rules
from arbiter.adjudicator.board import EAST, NORTH, SOUTH, WEST, geometry, point_index
from arbiter.notation.ast import Button, Flip, Grid, Move, Pass, Place, Point, tuple_of
from arbiter.notation.errors import IllegalMoveError
from arbiter.notation.games import GameDescription, Piece

DESCRIPTION = GameDescription(
    name="Pletore",
    colours=("Black", "White"),
    sizes=tuple(range(3, 20)),
    moves=("place", "flip", "pass", "button"),
    pieces=(Piece("b", "black stone"), Piece("w", "white stone")),
    scored=True,
    half_points=True,
    komi=True,
    board="points",
)
# Final: compiled code reads each from a static (or inlines it), not from the module.
EMPTY: Final = 0
BLACK: Final = 1
WHITE: Final = 2
NAMES: Final = {BLACK: DESCRIPTION.colours[0], WHITE: DESCRIPTION.colours[1]}
LETTERS: Final = ("", *DESCRIPTION.letters)  # indexed by EMPTY, BLACK, WHITE: Setup letters
SWAPPED: Final = (EMPTY, WHITE, BLACK)  # a cell with its colour exchanged
STONE_BYTES: Final = tuple(bytes((cell,)) for cell in (EMPTY, BLACK, WHITE))  # cells as bytes
CONTROL: Final = (EMPTY, BLACK, WHITE, EMPTY)  # pinch mask -> controller (3: both, nobody)
SIGHT: Final = (WEST, EAST, SOUTH, NORTH)  # the order of each point's rays in _controller
BUTTON_VALUE = 0.5
GAME_OVER = "the game is over (both players passed)"


class State(NamedTuple):
    """A Pletore position and everything the rules need to know about its past.

    A named tuple: immutable, and several times cheaper to build than a frozen dataclass.

    ``ply`` counts the turns played (0 before Black's first). ``passes`` counts the passes
    just made in a row (two end the game). ``button`` is the colour holding the button, or
    ``EMPTY`` while nobody has taken it (always so when it is not in play).
    """

    size: int
    komi: int
    board: bytes
    ply: int = 0
    passes: int = 0
    button: int = EMPTY

    @property
    def mover(self) -> int:
        """The colour whose turn it is: Black on even plies (Black moves first)."""
        return _mover(self.ply)

    @property
    def button_in_play(self) -> bool:
        """The button is used only when komi and size have the same parity."""
        return self.komi % 2 == self.size % 2


_STATE: Final[type[State]] = State
"""``State`` as a constant: compiled code looks a class that is not compiled up in the
module's globals at every use (here, every ply), and reads a constant from a static."""

_OF: Final[Any] = tuple_of()
"""``ast.tuple_of()``: a named tuple built from values given as arguments (one per ply here),
held in a constant of this module, which compiled code reads from a static."""


class PletoreRules(Rules[State]):
    """Pletore as in ``spec/rules/pletore.md``: Black first, integer komi, optional button."""

    description = DESCRIPTION
    sight = True  # a point is controlled by the stones it sees along its lines

    def to_move(self, state: State) -> str:
        return NAMES[state.mover]

    def position(self, state: State) -> Grid:
        return geometry(state.size).grid([LETTERS[cell] for cell in state.board])

    def details(self, state: State) -> dict[str, Any]:
        """The score breakdown as it would stand if the game ended now."""
        return _breakdown(state)

    def controller(self, state: State, at: Point) -> str | None:
        """The colour that controls ``at`` (empty or not), or None."""
        index = point_index(at, state.size)
        return NAMES.get(_controller(state.board, state.size, index))

    def control_map(self, state: State) -> tuple[str | None, ...]:
        """The controller of every point, in flat index order (a1, b1, ...)."""
        return tuple(NAMES.get(c) for c in _control_map(state.board, state.size))

    # The interface's parts -----------------------------------------------------------------

    def _initial(self, size: int, komi: int | None, cells: tuple[str, ...] | None) -> State:
        """The empty board, or ``cells``; the button always starts untaken, Black to move."""
        assert komi is not None  # the description requires one
        board = bytes(size * size) if cells is None else bytes(map(LETTERS.index, cells))
        return State(size, komi, board)

    def _game_over(self, state: State) -> str | None:
        return GAME_OVER if state.passes >= 2 else None

    def _outcome(self, state: State) -> Outcome:
        """The higher total wins.

        Raises ``RuntimeError`` on a tied score, which the rules make impossible (spec
        section 6); a tie means a state that no legal game reaches."""
        details = _breakdown(state)
        totals = {name: figures["total"] for name, figures in details.items()}
        black, white = totals[NAMES[BLACK]], totals[NAMES[WHITE]]
        if black == white:
            raise RuntimeError(
                f"{DESCRIPTION.name} score tied at {black}: this state breaks the rules"
            )
        return Outcome(NAMES[BLACK if black > white else WHITE], scores=totals, details=details)

    def _legal_moves(self, state: State) -> Iterator[Move]:
        """Placements and flips in board order (a1, b1, ..., then rank 2), then the button or
        a pass."""
        moves = list(_candidates(state))
        if _mirror_applies(state):
            kept = [m for m in moves if not _mirrored(_board_after(state, m))]
            moves = kept or moves  # Choice: waived when it would leave White no turn at all
        return iter(moves)

    def _place(self, state: State, move: Place) -> State:
        at = move.at
        i = point_index(at, state.size)
        if state.board[i] != EMPTY:
            raise IllegalMoveError(f"{at} is occupied")
        mover = _mover(state.ply)
        opponent = 3 - mover
        if _controller(state.board, state.size, i) == opponent:
            raise IllegalMoveError(f"{at} is controlled by {NAMES[opponent]}")
        return _mirror_checked(state, _next(state, _set(state.board, i, mover)), move)

    def _flip(self, state: State, move: Flip) -> State:
        at = move.at
        i = point_index(at, state.size)
        me, cell = _mover(state.ply), state.board[i]
        if cell == EMPTY:
            raise IllegalMoveError(f"cannot flip {at}: it is empty")
        if cell == me:
            raise IllegalMoveError(f"cannot flip {at}: the stone is {NAMES[me]}'s own")
        if _controller(state.board, state.size, i) != me:
            raise IllegalMoveError(f"cannot flip {at}: {NAMES[me]} does not control it")
        return _mirror_checked(state, _next(state, _set(state.board, i, me)), move)

    def _pass(self, state: State, move: Pass) -> State:
        if state.button_in_play and state.button == EMPTY:
            raise IllegalMoveError("the button must be taken before passing")
        loose = _first_uncontrolled(state)
        if loose is not None:
            name = geometry(state.size).names[loose]
            raise IllegalMoveError(f"cannot pass: {name} is not controlled")
        after = state._replace(ply=state.ply + 1, passes=state.passes + 1)
        return _mirror_checked(state, after, move)

    def _button(self, state: State, move: Button) -> State:
        if not state.button_in_play:
            raise IllegalMoveError(
                f"the button is not in play (komi {state.komi}, size {state.size})"
            )
        if state.button != EMPTY:
            raise IllegalMoveError("the button has already been taken")
        after = state._replace(ply=state.ply + 1, passes=0, button=state.mover)
        return _mirror_checked(state, after, move)


# --- applying a move ----------------------------------------------------------------------


def _mover(ply: int) -> int:
    """``State.mover`` as a plain function, which compiled code calls directly (a property
    of a named tuple is reached through the object's attributes)."""
    return BLACK if ply % 2 == 0 else WHITE


def _next(state: State, board: bytes) -> State:
    """The state after a board play: the pass streak is broken."""
    after: State = _OF(_STATE, state.size, state.komi, board, state.ply + 1, 0, state.button)
    return after


def _set(board: bytes, i: int, colour: int) -> bytes:
    """``board`` with ``colour`` on point ``i``."""
    return board[:i] + STONE_BYTES[colour] + board[i + 1 :]


def _mirror_checked(state: State, after: State, move: Move) -> State:
    """``after``, unless the mirror rule forbids ``move``, which led to it from ``state``.

    Raises ``IllegalMoveError``. Choice: the rule is waived when every move of the turn
    would break it (only a contrived Setup can do that)."""
    if (
        _mirror_applies(state)
        and _mirrored(after.board)
        and any(not _mirrored(_board_after(state, m)) for m in _candidates(state))
    ):
        raise IllegalMoveError(_mirror_message(state, move))
    return after


# --- move generation ----------------------------------------------------------------------


def _candidates(state: State) -> Iterator[Move]:
    """Every move legal apart from the mirror rule, in the documented order."""
    me, opponent = state.mover, 3 - state.mover
    control = _control_map(state.board, state.size)
    points = geometry(state.size).points
    for i, (cell, ctl) in enumerate(zip(state.board, control, strict=True)):
        if cell == EMPTY and ctl != opponent:
            yield Place(points[i])
        elif cell == opponent and ctl == me:
            yield Flip(points[i])
    if state.button_in_play and state.button == EMPTY:
        yield Button()
    elif all(ctl for cell, ctl in zip(state.board, control, strict=True) if cell == EMPTY):
        yield Pass()


def _board_after(state: State, move: Move) -> bytes:
    """The board after a move already known to be legal (a pass or the button changes none)."""
    if isinstance(move, (Place, Flip)):
        return _set(state.board, point_index(move.at, state.size), state.mover)
    return state.board


def _first_uncontrolled(state: State) -> int | None:
    """The first empty point nobody controls, or None. Each empty point's four rays are
    scanned to their first stones: a pass comes when the board is nearly full, so this
    looks at a few points, where a control map would sweep the whole board."""
    board, size = state.board, state.size
    for i, cell in enumerate(board):
        if cell == EMPTY and _controller(board, size, i) == EMPTY:
            return i
    return None


# --- the mirror rule ----------------------------------------------------------------------


def _mirror_applies(state: State) -> bool:
    """The mirror rule binds White's first turn (ply 2, whatever it is) on even boards."""
    return state.size % 2 == 0 and state.ply == 1


def _mirrored(board: bytes) -> bool:
    """True if swapping every stone's colour gives the board turned by 180 degrees."""
    if board.count(BLACK) != board.count(WHITE):
        return False
    last = len(board) - 1
    return all(cell == SWAPPED[board[last - i]] for i, cell in enumerate(board))


def _mirror_message(state: State, move: Move) -> str:
    if isinstance(move, (Place, Flip)):
        i = point_index(move.at, state.size)
        answered = geometry(state.size).names[len(state.board) - 1 - i]
        return f"mirror rule: {move} answers {answered}"
    return (
        f"mirror rule: after {move}, swapping the colours would give the board "
        "turned by 180 degrees"
    )


# --- sight and control --------------------------------------------------------------------


def _controller(board: bytes, size: int, i: int) -> int:
    """Who controls point ``i``: scan the four rays to their first stones."""
    left, right, down, up = _sight_rays(size)[i]
    horizontal = _first_stone(board, left) | _first_stone(board, right)
    vertical = _first_stone(board, down) | _first_stone(board, up)
    return CONTROL[horizontal & vertical]


@cache
def _sight_rays(size: int) -> tuple[tuple[tuple[int, ...], ...], ...]:
    """Each point's rays in the order of ``SIGHT``, by size: looked up by the size alone
    (a look-up by the tuple of directions hashes that tuple at every move)."""
    return geometry(size).rays(SIGHT)


def _first_stone(board: bytes, ray: tuple[int, ...]) -> int:
    for j in ray:
        if board[j]:
            return board[j]
    return EMPTY


def _control_map(board: bytes, size: int) -> list[int]:
    """The controller of every point, by one sweep each way along every row and column."""
    table = geometry(size)
    rows, columns = table.rows, table.columns
    horizontal = _sight_masks(board, rows)
    vertical = _sight_masks(board, columns)
    return [CONTROL[h & v] for h, v in zip(horizontal, vertical, strict=True)]


def _sight_masks(board: bytes, lines: tuple[tuple[int, ...], ...]) -> list[int]:
    """For each point, the OR of the colours of the first stones it sees along its line."""
    seen = [EMPTY] * len(board)
    for line in lines:
        last = EMPTY
        for i in line:
            seen[i] = last
            if board[i]:
                last = board[i]
        last = EMPTY
        for i in reversed(line):
            seen[i] |= last
            if board[i]:
                last = board[i]
    return seen


# --- scoring and setup --------------------------------------------------------------------


def _breakdown(state: State) -> dict[str, Any]:
    """Per colour: stones, controlled empty points, komi, button and their total."""
    control = _control_map(state.board, state.size)
    out: dict[str, Any] = {}
    for colour, name in NAMES.items():
        stones = state.board.count(colour)
        controlled = sum(
            1
            for cell, ctl in zip(state.board, control, strict=True)
            if cell == EMPTY and ctl == colour
        )
        komi = state.komi if colour == WHITE else 0
        button = BUTTON_VALUE if state.button == colour else 0
        out[name] = {
            "stones": stones,
            "controlled": controlled,
            "komi": komi,
            "button": button,
            "total": _number(stones + controlled + komi + button),
        }
    return out


def _number(value: float) -> int | float:
    """An int where the value is whole, so that results read "Black+2", not "Black+2.0"."""
    return int(value) if value == int(value) else value
