"""The operations the CLI and the HTTP API share: read sources, adjudicate, convert.

Each yields one item per record, in input order, and never stops at a bad record: not even
when the program itself fails on one (``internal-error``, ``spec/cli.md``).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from typing import IO, Final

from arbiter.adjudicator.replay import Report, adjudicate, canonical_record, error_report
from arbiter.notation.ast import Record
from arbiter.notation.errors import LimitError, RecordError, internal_error
from arbiter.notation.games import GameDescription, all_games
from arbiter.notation.grn_writer import write_record
from arbiter.notation.json_writer import array_element, json_array
from arbiter.notation.limits import unreadable_written
from arbiter.notation.plain import Plain
from arbiter.notation.sources import Notation, read_records

SourceData = bytes | str | IO[bytes]


def adjudicate_source(
    source: SourceData, *, file: str | None = None, fmt: Notation | None = None
) -> Iterator[Report]:
    """One report per record of ``source`` (``spec/report.md``)."""
    for item in read_records(source, file=file, fmt=fmt):
        yield report_for(item, file=file)


def adjudicated_source(
    source: SourceData,
    *,
    file: str | None = None,
    fmt: Notation | None = None,
    encoding: str = "utf-8",
) -> Iterator[tuple[Record | None, Report]]:
    """Each record of ``source`` (its bytes decoded from ``encoding``) with its report, the
    record None when it could not be read: what standings are computed from
    (``spec/standings.md``)."""
    for item in read_records(source, file=file, fmt=fmt, encoding=encoding):
        yield (None if isinstance(item, RecordError) else item), report_for(item, file=file)


def report_for(item: Record | RecordError, *, file: str | None = None) -> Report:
    """The report of a record, or of the error that kept it from being read (or read
    whole). A failure of the program on this record is its ``internal-error``."""
    try:
        if isinstance(item, RecordError):
            return error_report(item, file=file)
        return adjudicate(item, file=file)
    except Exception as err:  # a bug: the record is reported as such, the batch goes on
        return error_report(internal_error(err, index=item.index, file=file), file=file)


class Converted(Plain):
    """One record converted, with its ``text`` in the target notation (for JSON, as an
    element of the array), or the error that stopped it; ``note`` when it was written as
    found because it could not be made canonical."""

    _fields = ("index", "record", "error", "note", "text")
    __slots__ = _fields

    def __init__(
        self,
        index: int,
        record: Record | None,
        error: RecordError | None = None,
        note: RecordError | None = None,
        text: str | None = None,
    ) -> None:
        self.index: Final = index
        self.record: Final = record
        self.error: Final = error
        self.note: Final = note
        self.text: Final = text


def convert_source(
    source: SourceData,
    *,
    to: Notation = "grn",
    file: str | None = None,
    fmt: Notation | None = None,
    encoding: str = "utf-8",
) -> Iterator[Converted]:
    """Read every record and make it canonical (Implo steps written in full) where it is
    legal; an illegal record is kept as written, with the reason in ``note``. A record that
    could be read only in part is an error (writing it would lose what was not read), and
    so is one whose text in ``to`` its reader would refuse (``too-large``). With ``to``
    ``abstractplay``, a record that format cannot hold is an error (``cannot-convert``).
    The bytes of ``source`` are decoded from ``encoding``."""
    records = read_records(source, file=file, fmt=fmt, encoding=encoding)
    for position, item in enumerate(records):
        yield convert_item(item, to=to, file=file, position=position)


def convert_item(
    item: Record | RecordError, *, to: Notation, file: str | None, position: int
) -> Converted:
    """One record of :func:`convert_source`."""
    if isinstance(item, RecordError):
        return Converted(item.index if item.index is not None else position, None, item)
    note = None
    try:
        try:
            record = canonical_record(item)
        except RecordError as err:
            record, note = item, err.located(index=item.index, file=file)
        text = record_text(record, to)
    except RecordError as err:  # Abstract Play cannot hold this record
        return Converted(item.index, None, err.located(index=item.index, file=file))
    except Exception as err:  # a bug: the record is reported as such, the batch goes on
        return Converted(item.index, None, internal_error(err, index=item.index, file=file))
    why = unreadable_written(text, to)
    if why is not None:
        problem = LimitError(
            f"the record cannot be converted: {why}, which the reader refuses",
            code="too-large",
            index=item.index,
            file=file,
            where=item.where.get("Game"),
        )
        return Converted(item.index, None, problem)
    return Converted(item.index, record, note=note, text=text)


def record_text(record: Record, to: Notation) -> str:
    """One record in notation ``to``: canonical GRN, an element of the JSON array, or the
    compact object of an Abstract Play record (raises ``cannot-convert`` for a record that
    format cannot hold)."""
    if to == "abstractplay":
        from arbiter.adjudicator.abstractplay import abstractplay_object  # only when converting

        return json.dumps(abstractplay_object(record), ensure_ascii=False, separators=(",", ":"))
    return write_record(record) if to == "grn" else array_element(record)


def output_parts(texts: Iterable[str], to: Notation) -> Iterator[str]:
    """The output of a conversion, piece by piece: GRN records with an empty line between
    two, or the JSON array of them (``[]`` when there are none), ending in LF. Abstract
    Play: one record as an object, as the site writes it, any other number as an array."""
    if to == "json":
        yield from json_array(texts)
        return
    if to == "abstractplay":
        yield from _abstractplay_parts(iter(texts))
        return
    separator = ""
    for text in texts:
        yield separator + text
        separator = "\n"


def _abstractplay_parts(texts: Iterator[str]) -> Iterator[str]:
    """Compact Abstract Play JSON: the first record is held until the second shows whether
    the output is one object or an array; after that, each record is written as it comes."""
    first = next(texts, None)
    if first is None:
        yield "[]\n"
        return
    second = next(texts, None)
    if second is None:
        yield first + "\n"
        return
    yield "[" + first + "," + second
    for text in texts:
        yield "," + text
    yield "]\n"


def game_rows() -> list[dict[str, object]]:
    """What ``arbiter games --json`` and ``GET /api/v1/games`` list: one row per registered
    game, from its description.

    ``sizes`` is ``[smallest, largest]`` for a range of sizes, else every allowed size."""
    return [_game_row(game) for game in all_games()]


def _game_row(game: GameDescription) -> dict[str, object]:
    ranged = len(game.sizes) > 2 and game.sizes == tuple(range(game.min_size, game.max_size + 1))
    return {
        "name": game.name,
        "sizes": [game.min_size, game.max_size] if ranged else list(game.sizes),
        "colours": list(game.colours),
        "moves": sorted(game.moves),
        "komi": game.komi,
        "pie_rule": game.pie,
        "button": game.button,
        "scored": game.scored,
        "board": game.board,
        "setup_letters": game.letters,
        "pieces": [{"letter": piece.letter, "name": piece.name} for piece in game.pieces],
    }
