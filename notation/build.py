"""Check the meaning of a record's values and build the :class:`~notation.ast.Record`.

Both readers (GRN and JSON) end here, so a record means the same whichever way it came in.
Implements ``spec/grn.md`` sections "Tags", "Move forms by game" and "Results". Rules of play
are not checked here.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from arbiter.notation.ast import (
    NOWHERE,
    Capture,
    Flip,
    ImploPlace,
    Location,
    Move,
    Place,
    Point,
    Record,
    Resolve,
    Sow,
    Tag,
    Turn,
)
from arbiter.notation.errors import InvalidRecordError
from arbiter.notation.games import FORM_NAMES, GameDescription, find_game
from arbiter.notation.position import format_position, parse_position

TERMINATIONS = ("R", "T", "F")


@dataclass(frozen=True, slots=True)
class Value:
    """A raw value as a reader found it, with its location."""

    text: str
    where: Location = NOWHERE


def build_record(
    *,
    game: Value | None,
    size: Value | None,
    komi: Value | None = None,
    setup: Value | None = None,
    players: Sequence[tuple[str, Value]] = (),
    tags: Sequence[Tag] = (),
    turns: Sequence[Turn] = (),
    result: Value | None = None,
    comment: str | None = None,
    index: int = 0,
    start: Location = NOWHERE,
) -> Record:
    """Return the record these values describe.

    Raises ``InvalidRecordError`` (with ``code`` and location) for the first value that
    cannot be right for the game: unknown game, size out of range, missing or unwanted komi,
    bad setup or result, a move form the game does not have, a square off the board."""
    spec = _game(game, start)
    board = _size(size, spec, start)
    _check_texts(players, tags, turns, comment, start)
    where = {"Game": game.where if game else start, "Size": size.where if size else start}
    record = Record(
        game=spec.name,
        size=board,
        komi=_komi(komi, spec, where["Game"]),
        setup=_setup(setup, spec, board),
        players=tuple((colour, value.text) for colour, value in players),
        tags=tuple(tags),
        turns=tuple(_check_turn(turn, spec, board, ply) for ply, turn in enumerate(turns, 1)),
        result=_result(result, spec),
        comment=comment,
        where=where,
        index=index,
    )
    for name, value in (("Komi", komi), ("Setup", setup), ("Result", result)):
        if value is not None:
            record.where[name] = value.where
    return record


def _check_texts(
    players: Sequence[tuple[str, Value]],
    tags: Sequence[Tag],
    turns: Sequence[Turn],
    comment: str | None,
    start: Location,
) -> None:
    """Refuse what GRN could not write back: line breaks in tag values, '}' in comments."""
    for name, where, value in [
        *((c, v.where, v.text) for c, v in players),
        *((t.name, t.where, t.value) for t in tags),
    ]:
        if "\n" in value or "\r" in value:
            raise InvalidRecordError(
                f"the value of tag {name!r} contains a line break",
                code="malformed-tag",
                where=where,
            )
    notes = [(comment, start), *((t.comment, t.where) for t in turns)]
    for note, where in notes:
        if note is not None and "}" in note:
            raise InvalidRecordError(
                "a comment may not contain '}'", code="bad-comment", where=where
            )


def _game(game: Value | None, start: Location) -> GameDescription:
    if game is None:
        raise InvalidRecordError("the Game tag is required", code="missing-tag", where=start)
    try:
        return find_game(game.text)
    except KeyError as err:
        raise InvalidRecordError(err.args[0], code="unknown-game", where=game.where) from None


def _size(size: Value | None, spec: GameDescription, start: Location) -> int:
    if size is None:
        raise InvalidRecordError("the Size tag is required", code="missing-tag", where=start)
    text = size.text.strip()
    if not (text.isascii() and text.isdigit() and _small(text) in spec.sizes):
        raise InvalidRecordError(
            f"size {size.text!r} is not allowed: {spec.name} is played on sizes {spec.sizes_text}",
            code="bad-size",
            where=size.where,
        )
    return int(text)


def _komi(komi: Value | None, spec: GameDescription, game_where: Location) -> int | None:
    if komi is None:
        if spec.komi:
            raise InvalidRecordError(
                f"{spec.name} records need a Komi tag (an integer)",
                code="missing-komi",
                where=game_where,
            )
        return None
    if not spec.komi:
        raise InvalidRecordError(
            f"{spec.name} has no komi; remove the Komi tag",
            code="komi-not-allowed",
            where=komi.where,
        )
    text = komi.text.strip()
    digits = text[1:] if text[:1] in "+-" else text
    if not (digits.isascii() and digits.isdigit()):
        raise InvalidRecordError(
            f"komi {komi.text!r} is not a whole number", code="bad-komi", where=komi.where
        )
    value = _small(text)
    if value is None:
        raise InvalidRecordError(
            f"komi {komi.text[:20]!r}... has too many digits", code="bad-komi", where=komi.where
        )
    return value


def _small(text: str) -> int | None:
    """``int(text)`` for text known to be digits, or None when Python refuses to convert
    that many digits (over 4300): such a number is no size or komi of any game."""
    try:
        return int(text)
    except ValueError:
        return None


def _setup(setup: Value | None, spec: GameDescription, size: int) -> str | None:
    if setup is None:
        return None
    try:
        return format_position(parse_position(setup.text, spec, size))
    except ValueError as err:
        raise InvalidRecordError(f"bad Setup: {err}", code="bad-setup", where=setup.where) from None


def _result(result: Value | None, spec: GameDescription) -> str:
    if result is None:
        return "*"
    text = result.text.strip()
    canonical = normalise_result(text, spec)
    if canonical is None:
        raise InvalidRecordError(
            f"{result.text!r} is not a {spec.name} result", code="bad-result", where=result.where
        )
    return canonical


def normalise_result(text: str, spec: GameDescription) -> str | None:
    """The canonical spelling of a result string for ``spec``'s game, or None if it is not one.

    Colours are matched without regard to case; ``Black+R``, ``Orange+6``, ``White+3.5``,
    ``Red`` and ``*`` are examples (``spec/grn.md``, "Results")."""
    if text == "*":
        return text
    colour_text, plus, margin = text.partition("+")
    colour = next((c for c in spec.colours if c.lower() == colour_text.lower()), None)
    if colour is None:
        return None
    if not plus:
        return colour  # the winner alone: a claim every game allows
    if margin.upper() in TERMINATIONS:
        return f"{colour}+{margin.upper()}"
    if not spec.scored:
        return None
    whole, dot, half = margin.partition(".")
    if not (whole.isascii() and whole.isdigit()) or (whole != "0" and whole.startswith("0")):
        return None
    if dot and not (spec.half_points and half == "5"):
        return None
    return f"{colour}+{margin}"


def _check_turn(turn: Turn, spec: GameDescription, size: int, ply: int) -> Turn:
    move = turn.move
    # The common moves first, checked without building anything (every move of every record
    # passes here).
    if type(move) is Place:
        at = move.at
        if at.file < size and at.rank < size and "place" in spec.moves:
            if not spec.resolve:
                return turn
            return Turn(_with_steps(move), turn.comment, turn.where)
    elif type(move) is Capture:
        origin, target = move.origin, move.target
        if "move" in spec.moves and max(origin.file, origin.rank, target.file, target.rank) < size:
            return turn
    return _check_any_turn(turn, spec, size, ply)


def _with_steps(move: Place) -> ImploPlace:
    """An Implo placement written without steps, as the Implo move it is (one object per
    point: moves are immutable values)."""
    found = _IMPLO_PLACES.get(move)
    if found is None:
        found = _IMPLO_PLACES[move] = ImploPlace(move.at)
    return found


_IMPLO_PLACES: dict[Place, ImploPlace] = {}


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
    if move.type not in game.moves or (isinstance(move, ImploPlace) and not game.resolve):
        raise InvalidRecordError(
            f"{str(move)!r} is a {_form_name(move)}, which {game.name} does not have",
            code="wrong-move-form",
            ply=ply,
            move=str(move),
            where=where,
        )
    for point in _points(move) if size is not None else ():
        if point.file >= size or point.rank >= size:  # type: ignore[operator]
            raise InvalidRecordError(
                f"{point} is off the {size}×{size} board",
                code="off-board",
                ply=ply,
                move=str(move),
                where=where,
            )
    return move


def _form_name(move: Move) -> str:
    if isinstance(move, ImploPlace) and move.resolve:
        return "placement with resolution steps"
    return FORM_NAMES[move.type]


def _points(move: Move) -> list[Point]:
    if isinstance(move, Place | Flip):
        return [move.at]
    if isinstance(move, ImploPlace):
        return [move.at, *(p for step in move.resolve for p in _step_points(step))]
    if isinstance(move, Capture):
        return [move.origin, move.target]
    if isinstance(move, Sow):
        return [move.origin]
    return []


def _step_points(step: Resolve) -> list[Point]:
    return [step.patch] if step.remove is None else [step.patch, step.remove]
