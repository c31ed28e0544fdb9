"""The operations the CLI and the HTTP API share: read sources, adjudicate, convert.

Each yields one item per record, in input order, and never stops at a bad record.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import BinaryIO

from arbiter.adjudicator.replay import Report, adjudicate, canonical_record, error_report
from arbiter.notation.ast import Record
from arbiter.notation.errors import RecordError
from arbiter.notation.games import GameDescription, all_games
from arbiter.notation.grn_writer import write_grn
from arbiter.notation.json_writer import write_json
from arbiter.notation.sources import Format, read_records

Source = bytes | str | BinaryIO


def adjudicate_source(
    source: Source, *, file: str | None = None, fmt: Format | None = None
) -> Iterator[Report]:
    """One report per record of ``source`` (``spec/report.md``)."""
    for item in read_records(source, file=file, fmt=fmt):
        yield report_for(item, file=file)


def adjudicated_source(
    source: Source, *, file: str | None = None, fmt: Format | None = None
) -> Iterator[tuple[Record | None, Report]]:
    """Each record of ``source`` with its report, the record None when it could not be
    read: what standings are computed from (``spec/standings.md``)."""
    for item in read_records(source, file=file, fmt=fmt):
        yield (None if isinstance(item, RecordError) else item), report_for(item, file=file)


def report_for(item: Record | RecordError, *, file: str | None = None) -> Report:
    """The report of a record, or of the error that kept it from being read."""
    if isinstance(item, RecordError):
        return error_report(item, file=file)
    return adjudicate(item, file=file)


@dataclass(frozen=True, slots=True)
class Converted:
    """One record converted, or the error that stopped it; ``note`` when it was written
    as found because it could not be made canonical."""

    index: int
    record: Record | None
    error: RecordError | None = None
    note: RecordError | None = None


def convert_source(
    source: Source,
    *,
    file: str | None = None,
    fmt: Format | None = None,
    to: Format | None = None,
) -> Iterator[Converted]:
    """Read every record and make it canonical (Implo steps written in full) where it is
    legal; an illegal record is kept as written, with the reason in ``note``. With ``to``
    ``abstractplay``, a record that format cannot hold is an ``error`` (``cannot-convert``)."""
    for position, item in enumerate(read_records(source, file=file, fmt=fmt)):
        if isinstance(item, RecordError):
            yield Converted(item.index if item.index is not None else position, None, item)
            continue
        try:
            converted = Converted(item.index, canonical_record(item))
        except RecordError as err:
            converted = Converted(item.index, item, note=err.located(index=item.index, file=file))
        yield _writable(converted, to, file)


def _writable(converted: Converted, to: Format | None, file: str | None) -> Converted:
    """``converted``, or the error that keeps its record out of notation ``to``."""
    from arbiter.adjudicator.abstractplay import abstractplay_object  # only when converting

    if to != "abstractplay" or converted.record is None:
        return converted
    try:
        abstractplay_object(converted.record)
    except RecordError as err:
        return Converted(converted.index, None, err.located(index=converted.index, file=file))
    return converted


def render(records: Iterable[Record], to: Format) -> str:
    """Canonical text of ``records`` in notation ``to``. Abstract Play: one record as an
    object (as the site writes it), any other number as an array."""
    records = list(records)
    if to == "abstractplay":
        from arbiter.adjudicator.abstractplay import write_abstractplay

        return write_abstractplay(records[0] if len(records) == 1 else records)
    return write_grn(records) if to == "grn" else write_json(records)


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
