"""Check the meaning of a record's values and build the :class:`~notation.ast.Record`.

Both readers (GRN and JSON) end here, so a record means the same whichever way it came in.
Implements ``spec/grn.md`` sections "Tags", "Move forms by game" and "Results". Rules of play
are not checked here.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from arbiter.notation import limits
from arbiter.notation.ast import (
    NOWHERE,
    Capture,
    ImploPlace,
    Location,
    Move,
    Place,
    Record,
    Tag,
    Turn,
    tuple_of,
)
from arbiter.notation.errors import InvalidRecordError, LimitError, RecordError
from arbiter.notation.games import GameDescription, find_game
from arbiter.notation.limits import BLANK, ascii_number
from arbiter.notation.plain import Plain
from arbiter.notation.position import TooManyDigits, format_position, parse_position
from arbiter.notation.results import normalise_result as normalise_result  # read from here too
from arbiter.notation.results import result_message


class RawValue(Plain):
    """A raw value as a reader found it, with its location."""

    _fields = ("text", "where")
    __slots__ = _fields

    def __init__(self, text: str, where: Location = NOWHERE) -> None:
        self.text: Final = text
        self.where: Final = where


_TURN: Final[type[Turn]] = Turn
_OF: Final[Any] = tuple_of()
"""``Turn`` and ``ast.tuple_of()`` (which makes one from values given as arguments) as
constants: compiled code looks a class that is not compiled up in the module's globals at
every use (here, every ply), and reads a constant from a static."""


def build_record(
    *,
    game: RawValue | None,
    size: RawValue | None,
    komi: RawValue | None = None,
    setup: RawValue | None = None,
    players: Sequence[tuple[str, RawValue]] = (),
    tags: Sequence[Tag] = (),
    turns: Sequence[Turn] = (),
    result: RawValue | None = None,
    comment: str | None = None,
    index: int = 0,
    start: Location = NOWHERE,
    problems: Sequence[RecordError] = (),
) -> Record:
    """Return the record these values describe.

    Raises ``InvalidRecordError`` (with ``code`` and location) for the first value that
    leaves the record without a meaning for the game: unknown game, size out of range,
    missing or bad komi, bad setup; ``LimitError`` for a value over a limit. Problems that
    do not stop a replay, given in ``problems`` by the reader or found here (a komi the game
    does not have, a move it does not have, which ends the turns read, a result that is
    not one of the game's), are raised after the record is built: the first in reading
    order, carrying the record and the others (see :class:`RecordError`)."""
    found = list(problems)
    spec = _game(game, start)
    board = _size(size, spec, start)
    _check_texts(players, tags, turns, comment, setup, start)
    where = {"Game": game.where if game else start, "Size": size.where if size else start}
    checked, move_problem = _check_turns(turns, spec, board)
    komi_value, komi_problem = _komi(komi, spec, where["Game"])
    claim, result_problem = _result(result, spec)
    record = Record(
        game=spec.name,
        size=board,
        komi=komi_value,
        setup=_setup(setup, spec, board),
        players=tuple((colour, value.text) for colour, value in players),
        tags=tuple(tags),
        turns=checked,
        result=claim,
        comment=comment,
        where=where,
        index=index,
    )
    for name, value in (("Komi", komi), ("Setup", setup), ("Result", result)):
        if value is not None:
            record.where[name] = value.where
    found += [p for p in (move_problem, komi_problem, result_problem) if p is not None]
    if found:
        found.sort(key=lambda err: (err.line or 0, err.column or 0))
        first = found[0]
        first.record, first.more = record, tuple(found[1:])
        raise first
    return record


def _check_turns(
    turns: Sequence[Turn], spec: GameDescription, size: int
) -> tuple[tuple[Turn, ...], RecordError | None]:
    """The turns as the game reads them, up to the first move the game cannot have (a
    wrong form, a square off the board), and the error of that move if there is one."""
    try:
        return tuple(_check_turn(turn, spec, size, ply) for ply, turn in enumerate(turns, 1)), None
    except InvalidRecordError as err:
        ply = err.ply or 1
        return tuple(
            _check_turn(turn, spec, size, n) for n, turn in enumerate(turns[: ply - 1], 1)
        ), err


def _check_texts(
    players: Sequence[tuple[str, RawValue]],
    tags: Sequence[Tag],
    turns: Sequence[Turn],
    comment: str | None,
    setup: RawValue | None,
    start: Location,
) -> None:
    """Refuse what GRN could not write back (line breaks in tag values, '}' in comments)
    and texts over MAX_TEXT characters."""
    for name, where, value in [
        *((c, v.where, v.text) for c, v in players),
        *((t.name, t.where, t.value) for t in tags),
        *((("Setup", setup.where, setup.text),) if setup is not None else ()),
    ]:
        if "\n" in value or "\r" in value:
            raise InvalidRecordError(
                f"the value of tag {name!r} contains a line break",
                code="malformed-tag",
                where=where,
            )
        if len(value) > limits.MAX_TEXT:
            raise _too_long(f"the value of tag {name!r}", where)
    if comment is not None:
        _check_comment(comment, start)
    for turn in turns:  # few turns have a comment: nothing is built for the others
        if turn.comment is not None:
            _check_comment(turn.comment, turn.where)


def _check_comment(note: str, where: Location) -> None:
    if "}" in note:
        raise InvalidRecordError("a comment may not contain '}'", code="bad-comment", where=where)
    if len(note) > limits.MAX_TEXT:
        raise _too_long("a comment", where)


def _too_long(what: str, where: Location) -> LimitError:
    return LimitError(
        f"{what} is longer than {limits.MAX_TEXT} characters", code="too-long", where=where
    )


def _digits(text: str, what: str, where: Location) -> None:
    """Refuse a whole number of more than MAX_DIGITS digits before anything converts it."""
    if len(text) > limits.MAX_DIGITS and ascii_number(text):
        raise LimitError(
            f"{what} has more than {limits.MAX_DIGITS} digits", code="too-many-digits", where=where
        )


def _game(game: RawValue | None, start: Location) -> GameDescription:
    if game is None:
        raise InvalidRecordError("the Game tag is required", code="missing-tag", where=start)
    try:
        return find_game(game.text)
    except KeyError as err:
        raise InvalidRecordError(err.args[0], code="unknown-game", where=game.where) from None


def _size(size: RawValue | None, spec: GameDescription, start: Location) -> int:
    if size is None:
        raise InvalidRecordError("the Size tag is required", code="missing-tag", where=start)
    text = size.text.strip(BLANK)
    _digits(text, "the size", size.where)
    if not (ascii_number(text) and int(text) in spec.sizes):
        raise InvalidRecordError(
            f"size {_shown(size.text)} is not allowed: {spec.name} is played on sizes "
            f"{spec.sizes_text}",
            code="bad-size",
            where=size.where,
        )
    return int(text)


def _komi(
    komi: RawValue | None, spec: GameDescription, game_where: Location
) -> tuple[int | None, RecordError | None]:
    """The komi, and the problem of a komi given to a game that has none (then ignored)."""
    if komi is None:
        if spec.komi:
            raise InvalidRecordError(
                f"{spec.name} records need a Komi tag (an integer)",
                code="missing-komi",
                where=game_where,
            )
        return None, None
    if not spec.komi:
        return None, InvalidRecordError(
            f"{spec.name} has no komi; remove the Komi tag",
            code="komi-not-allowed",
            where=komi.where,
        )
    text = komi.text.strip(BLANK)
    digits = text[1:] if text[:1] in ("+", "-") else text
    _digits(digits, "the komi", komi.where)
    if not ascii_number(digits):
        raise InvalidRecordError(
            f"komi {_shown(komi.text)} is not a whole number", code="bad-komi", where=komi.where
        )
    value = int(text)
    if abs(value) > limits.MAX_KOMI:
        raise LimitError(
            f"komi {value} is out of range: it lies between -{limits.MAX_KOMI} and "
            f"{limits.MAX_KOMI}",
            code="komi-out-of-range",
            where=komi.where,
        )
    return value, None


def _setup(setup: RawValue | None, spec: GameDescription, size: int) -> str | None:
    if setup is None:
        return None
    # One ``except`` clause and one variable: mypyc gives an ``except`` variable the type of
    # its first clause, so a second clause of another type binding the same name fails in
    # the compiled build (spec/build.md, "Code that mypyc compiles").
    try:
        return format_position(parse_position(setup.text, spec, size))
    except ValueError as err:
        where, message = setup.where, f"bad Setup: {err}"
        if isinstance(err, TooManyDigits):
            raise LimitError(message, code="too-many-digits", where=where) from None
        raise InvalidRecordError(message, code="bad-setup", where=where) from None


def _result(result: RawValue | None, spec: GameDescription) -> tuple[str, RecordError | None]:
    """The canonical claim, or ``*`` and the problem when the text is not a result of the
    game (the claim is then unknown; the record is still replayed)."""
    if result is None:
        return "*", None
    text = result.text.strip(BLANK)
    margin = text.partition("+")[2].partition(".")[0]
    if len(margin) > limits.MAX_DIGITS and ascii_number(margin):
        return "*", LimitError(
            f"the margin of the result has more than {limits.MAX_DIGITS} digits",
            code="too-many-digits",
            where=result.where,
        )
    canonical = normalise_result(text, spec)
    if canonical is None:
        return "*", InvalidRecordError(
            result_message(result.text, spec), code="bad-result", where=result.where
        )
    return canonical, None


def _shown(text: str) -> str:
    """A value for a message: quoted, and cut short when long."""
    return repr(text if len(text) <= 40 else text[:37] + "...")


def _check_turn(turn: Turn, spec: GameDescription, size: int, ply: int) -> Turn:
    move = turn.move
    # The common moves first, checked without building anything (every move of every record
    # passes here).
    if type(move) is Place:
        at = move.at
        if at.file < size and at.rank < size and "place" in spec.moves:
            if not spec.resolve:
                return turn
            made: Turn = _OF(_TURN, _with_steps(move), turn.comment, turn.where)
            return made
    elif type(move) is Capture:
        origin, target = move.origin, move.target
        if (
            origin.file < size
            and origin.rank < size
            and target.file < size
            and target.rank < size
            and "move" in spec.moves
        ):  # compared one by one: max() would be a call with keyword parsing in compiled code
            return turn
    elif type(move) is ImploPlace:
        if spec.resolve is True and "place" in spec.moves and _implo_on_board(move, size):
            return turn
    return _check_any_turn(turn, spec, size, ply)


def _implo_on_board(move: ImploPlace, size: int) -> bool:
    """Whether every point of an Implo move lies on the board (what :func:`check_move`
    finds through ``points()``, without building their tuple)."""
    at = move.at
    if at.file >= size or at.rank >= size:
        return False
    for step in move.resolve:
        patch, remove = step.patch, step.remove
        if patch.file >= size or patch.rank >= size:
            return False
        if remove is not None and (remove.file >= size or remove.rank >= size):
            return False
    return True


def _with_steps(move: Place) -> ImploPlace:
    """An Implo placement written without steps, as the Implo move it is (one object per
    point: moves are immutable values, and two placements are equal when their points
    are)."""
    at = move.at
    file, rank = at.file, at.rank
    if not (0 <= file < _PLACES_SIDE and 0 <= rank < _PLACES_SIDE):
        return ImploPlace(at)
    index = rank * _PLACES_SIDE + file  # a list index: a point's hash makes a tuple
    found = _IMPLO_PLACES[index]
    if found is None:
        found = _IMPLO_PLACES[index] = ImploPlace(at)
    return found


_PLACES_SIDE: Final = 32
"""Wider than any board (19 points a side at most: the files a to s)."""
_IMPLO_PLACES: Final[list[ImploPlace | None]] = [None] * (_PLACES_SIDE * _PLACES_SIDE)
"""The placements made so far, by the point's rank and file."""


def _form_of(move: Move, game: GameDescription) -> bool:
    """Whether ``move`` is of a form ``game`` has (a variant only where the game sets its
    flag)."""
    variant = move.form.variant
    return move.type in game.moves and (variant is None or getattr(game, variant) is True)


def _check_any_turn(turn: Turn, spec: GameDescription, size: int, ply: int) -> Turn:
    move = check_move(turn.move, spec, size, ply=ply, where=turn.where)
    return turn if move is turn.move else turn._replace(move=move)


def check_move(
    move: Move,
    game: GameDescription,
    size: int | None = None,
    *,
    ply: int | None = None,
    where: Location | None = None,
) -> Move:
    """``move`` as ``game`` reads it: a placement in Implo becomes one with (no) resolution
    steps. With ``size``, every square it names must lie on the board.

    Raises ``InvalidRecordError``: ``wrong-move-form`` for a form the game does not have,
    ``off-board`` for a square beyond ``size``; located at ``ply`` and ``where``."""
    if game.resolve and type(move) is Place:
        move = _with_steps(move)
    if not _form_of(move, game):
        raise InvalidRecordError(
            f"{str(move)!r} is a {move.called()}, which {game.name} does not have",
            code="wrong-move-form",
            ply=ply,
            move=str(move),
            where=where,
        )
    if size is None:
        return move
    for point in move.points():
        if point.file >= size or point.rank >= size:
            raise InvalidRecordError(
                f"{point} is off the {size}×{size} board",
                code="off-board",
                ply=ply,
                move=str(move),
                where=where,
            )
    return move


def move_in_game(move: Move, game: GameDescription, size: int) -> Move | None:
    """``move`` as :func:`check_move` reads it in ``game`` on a board of ``size``, or None
    where it would refuse it: the same checks without the cost of an error, for moves that
    are tried rather than read (the slips of a move, most of them off the board or of no
    form of the game)."""
    if game.resolve and type(move) is Place:
        move = _with_steps(move)
    if not _form_of(move, game):
        return None
    for point in move.points():
        if point.file >= size or point.rank >= size:
            return None
    return move
