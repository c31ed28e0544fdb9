"""Check the meaning of a record's values and build the :class:`~notation.ast.Record`.

Both readers (GRN and JSON) end here, so a record means the same whichever way it came in.
Implements ``spec/grn.md`` sections "Tags", "Move forms by game" and "Results". Rules of play
are not checked here.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from notation.ast import (
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
from notation.errors import InvalidRecordError
from notation.games import GameSpec, find_game
from notation.position import format_position, parse_position

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


def _check_texts(players: Sequence[tuple[str, Value]], tags: Sequence[Tag],
                 turns: Sequence[Turn], comment: str | None, start: Location) -> None:
    """Refuse what GRN could not write back: line breaks in tag values, '}' in comments."""
    for name, where, value in [*((c, v.where, v.text) for c, v in players),
                               *((t.name, t.where, t.value) for t in tags)]:
        if "\n" in value or "\r" in value:
            raise InvalidRecordError(f"the value of tag {name!r} contains a line break",
                                     code="malformed-tag", where=where)
    notes = [(comment, start), *((t.comment, t.where) for t in turns)]
    for note, where in notes:
        if note is not None and "}" in note:
            raise InvalidRecordError("a comment may not contain '}'", code="bad-comment",
                                     where=where)


def _game(game: Value | None, start: Location) -> GameSpec:
    if game is None:
        raise InvalidRecordError("the Game tag is required", code="missing-tag", where=start)
    try:
        return find_game(game.text)
    except KeyError as err:
        raise InvalidRecordError(err.args[0], code="unknown-game", where=game.where) from None


def _size(size: Value | None, spec: GameSpec, start: Location) -> int:
    if size is None:
        raise InvalidRecordError("the Size tag is required", code="missing-tag", where=start)
    text = size.text.strip()
    if not (text.isascii() and text.isdigit() and int(text) in spec.sizes):
        allowed = (f"{spec.sizes[0]} to {spec.sizes[-1]}" if len(spec.sizes) > 2
                   else " or ".join(map(str, spec.sizes)))
        raise InvalidRecordError(
            f"size {size.text!r} is not allowed: {spec.name} is played on sizes {allowed}",
            code="bad-size", where=size.where)
    return int(text)


def _komi(komi: Value | None, spec: GameSpec, game_where: Location) -> int | None:
    if komi is None:
        if spec.komi:
            raise InvalidRecordError(f"{spec.name} records need a Komi tag (an integer)",
                                     code="missing-komi", where=game_where)
        return None
    if not spec.komi:
        raise InvalidRecordError(f"{spec.name} has no komi; remove the Komi tag",
                                 code="komi-not-allowed", where=komi.where)
    text = komi.text.strip()
    digits = text[1:] if text[:1] in "+-" else text
    if not (digits.isascii() and digits.isdigit()):
        raise InvalidRecordError(f"komi {komi.text!r} is not a whole number",
                                 code="bad-komi", where=komi.where)
    return int(text)


def _setup(setup: Value | None, spec: GameSpec, size: int) -> str | None:
    if setup is None:
        return None
    try:
        return format_position(parse_position(setup.text, spec, size))
    except ValueError as err:
        raise InvalidRecordError(f"bad Setup: {err}", code="bad-setup",
                                 where=setup.where) from None


def _result(result: Value | None, spec: GameSpec) -> str:
    if result is None:
        return "*"
    text = result.text.strip()
    canonical = normalise_result(text, spec)
    if canonical is None:
        raise InvalidRecordError(f"{result.text!r} is not a {spec.name} result",
                                 code="bad-result", where=result.where)
    return canonical


def normalise_result(text: str, spec: GameSpec) -> str | None:
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
        return None if spec.scored else colour
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


def _check_turn(turn: Turn, spec: GameSpec, size: int, ply: int) -> Turn:
    move = turn.move
    kind = type(move)
    # The common moves first, checked without building anything.
    if kind is Place and not spec.resolve and "place" in spec.move_types:
        if move.at.file < size and move.at.rank < size:  # type: ignore[union-attr]
            return turn
    elif kind is Capture and "move" in spec.move_types:
        if max(move.origin.file, move.origin.rank, move.target.file,  # type: ignore[union-attr]
               move.target.rank) < size:  # type: ignore[union-attr]
            return turn
    return _check_any_turn(turn, spec, size, ply)


def _check_any_turn(turn: Turn, spec: GameSpec, size: int, ply: int) -> Turn:
    move = turn.move
    if spec.resolve and isinstance(move, Place):
        move = ImploPlace(move.at)
        turn = replace(turn, move=move)
    if move.type not in spec.move_types or (isinstance(move, ImploPlace) and not spec.resolve):
        raise InvalidRecordError(
            f"{str(move)!r} is a {_form_name(move)}, which {spec.name} does not have",
            code="wrong-move-form", ply=ply, move=str(move), where=turn.where)
    for point in _points(move):
        if point.file >= size or point.rank >= size:
            raise InvalidRecordError(
                f"{point} is off the {size}×{size} board", code="off-board", ply=ply,
                move=str(move), where=turn.where)
    return turn


def _form_name(move: Move) -> str:
    if isinstance(move, ImploPlace) and move.resolve:
        return "placement with resolution steps"
    return {"place": "placement", "move": "capturing move", "pass": "pass", "swap": "swap",
            "flip": "flip", "button": "button", "sow": "sowing move"}[move.type]


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
