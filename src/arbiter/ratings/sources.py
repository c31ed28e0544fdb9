"""Reading the files a rating run is given (``spec/ratings.md`` §1): JSON files of Abstract
Play records (one object or an array), and arbiter's own GRN and JSON records; files in
the order given, records in file order."""

from __future__ import annotations

import gc
import json
from collections.abc import Iterator
from dataclasses import dataclass

from arbiter.notation.abstractplay import is_abstractplay
from arbiter.notation.ast import Record
from arbiter.notation.errors import RecordError
from arbiter.notation.sources import (
    format_for_name,
    read_records,
    record_from_any_json,
    sniff_format,
)

__all__ = ["Item", "items_of"]


@dataclass(frozen=True, slots=True)
class Item:
    """One record of a file: an Abstract Play record's JSON value as read, an arbiter
    record, or why it could not be read (``problem``)."""

    file: str
    index: int | None
    raw: object = None
    record: Record | None = None
    problem: str | None = None


def items_of(file: str, data: bytes) -> Iterator[Item]:
    """Every record of the file ``file`` holding ``data``, in order."""
    if _is_json(file, data):
        yield from _json_items(file, data)
        return
    for found in read_records(data, file=file):
        if isinstance(found, RecordError):
            yield Item(file, found.index, problem=_problem(found))
        else:
            yield Item(file, found.index, record=found)


def _is_json(file: str, data: bytes) -> bool:
    """JSON by the file's name, else by its first characters (``[Game`` is GRN)."""
    named = format_for_name(file)
    if named is not None:
        return named != "grn"
    return sniff_format(data.lstrip(b"\xef\xbb\xbf")[:64]) != "grn"


def _json_items(file: str, data: bytes) -> Iterator[Item]:
    try:
        value = _loads(data)
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        yield Item(file, None, problem=f"not JSON: {error}")
        return
    for index, obj in enumerate(value if isinstance(value, list) else [value]):
        if is_abstractplay(obj):
            yield Item(file, index, raw=obj)
            continue
        try:
            yield Item(file, index, record=record_from_any_json(obj, index))
        except RecordError as error:
            yield Item(file, index, problem=_problem(error))


def _loads(data: bytes) -> object:
    """The JSON value of ``data``. The collector is paused meanwhile: a large file makes
    millions of containers, none of them garbage, and tracing them costs more than the
    parsing."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        return json.loads(data.decode("utf-8-sig"))
    finally:
        if enabled:
            gc.enable()


def _problem(error: RecordError) -> str:
    return f"{error.code}: {error}"
