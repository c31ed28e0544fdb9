"""The operations the CLI and the HTTP API share: read sources, adjudicate, convert.

Each yields one item per record, in input order, and never stops at a bad record.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import BinaryIO

from adjudicator.replay import Report, adjudicate, canonical_record, error_report
from notation.ast import Record
from notation.errors import RecordError
from notation.games import GAMES
from notation.io import Format, read_records
from notation.jsonio import write_json
from notation.writer import write_records

Source = bytes | str | BinaryIO


def adjudicate_source(source: Source, *, file: str | None = None,
                      fmt: Format | None = None) -> Iterator[Report]:
    """One report per record of ``source`` (``spec/report.md``)."""
    for item in read_records(source, file=file, fmt=fmt):
        yield report_for(item, file=file)


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


def convert_source(source: Source, *, file: str | None = None,
                   fmt: Format | None = None) -> Iterator[Converted]:
    """Read every record and make it canonical (Implo steps written in full) where it is
    legal; an illegal record is kept as written, with the reason in ``note``."""
    for position, item in enumerate(read_records(source, file=file, fmt=fmt)):
        if isinstance(item, RecordError):
            yield Converted(item.index if item.index is not None else position, None, item)
            continue
        try:
            yield Converted(item.index, canonical_record(item))
        except RecordError as err:
            yield Converted(item.index, item, note=err.located(index=item.index, file=file))


def render(records: Iterable[Record], to: Format) -> str:
    """Canonical text of ``records`` in notation ``to``."""
    records = list(records)
    return write_records(records) if to == "grn" else write_json(records)


def game_rows() -> list[dict[str, object]]:
    """What ``arbiter games --json`` and ``GET /api/v1/games`` list: one row per game.

    ``sizes`` is ``[smallest, largest]`` for a range of sizes, else every allowed size."""
    return [
        {"name": spec.name,
         "sizes": [min(spec.sizes), max(spec.sizes)] if len(spec.sizes) > 2 else list(spec.sizes),
         "colours": list(spec.colours), "moves": sorted(spec.move_types), "komi": spec.komi,
         "pie_rule": spec.swap, "setup_letters": spec.pieces}
        for spec in GAMES.values()
    ]
