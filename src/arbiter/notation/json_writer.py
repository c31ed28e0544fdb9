"""Writing records as canonical JSON (``spec/json.md``, ``spec/record.schema.json``).

The writer is the inverse of :func:`arbiter.notation.json_reader.record_from_json`: reading
what it writes gives the same record.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from typing import Any

from arbiter.notation.ast import Record, Turn
from arbiter.notation.games import game_named


def record_to_json(record: Record) -> dict[str, Any]:
    """Return the canonical JSON object of ``record`` (key order as in ``spec/json.md``)."""
    out: dict[str, Any] = {"game": record.game, "size": record.size}
    if record.komi is not None:
        out["komi"] = record.komi
    if record.setup is not None:
        out["setup"] = record.setup
    out["players"] = _players_object(record)
    out["tags"] = [{"name": tag.name, "value": tag.value} for tag in record.tags]
    if record.comment is not None:
        out["comment"] = record.comment
    out["moves"] = [_turn_object(turn) for turn in record.turns]
    out["result"] = record.result
    return out


def write_json(records: Record | Iterable[Record]) -> str:
    """Canonical JSON text, ending in LF: the object of one record when given a
    :class:`Record`, and an array of objects when given an iterable of records, whatever its
    length (one record, or none, still makes an array)."""
    if isinstance(records, Record):
        return json.dumps(record_to_json(records), indent=2, ensure_ascii=False) + "\n"
    return "".join(json_array(array_element(record) for record in records))


def array_element(record: Record) -> str:
    """``record`` as an element of the canonical array: its object indented one level,
    without the indentation of its first line (which the array puts before it)."""
    return json.dumps(record_to_json(record), indent=2, ensure_ascii=False).replace("\n", "\n  ")


def json_array(elements: Iterable[str]) -> Iterator[str]:
    """The pieces of the canonical array of ``elements`` (from :func:`array_element`), one
    element at a time, so that an array of any length is written in bounded memory. Joined,
    they are exactly ``json.dumps(objects, indent=2, ensure_ascii=False)`` and a LF."""
    separator = "[\n  "
    for element in elements:
        yield separator + element
        separator = ",\n  "
    yield "[]\n" if separator == "[\n  " else "\n]\n"


def _players_object(record: Record) -> dict[str, str]:
    """Players in the game's colour order; a colour the game lacks is kept, last."""
    game = game_named(record.game)
    colours = game.colours if game is not None else ()
    order = {colour: number for number, colour in enumerate(colours)}
    ordered = sorted(record.players, key=lambda pair: order.get(pair[0], len(order)))
    return dict(ordered)


def _turn_object(turn: Turn) -> dict[str, Any]:
    out = {"type": turn.move.type, **turn.move.json_fields()}
    if turn.comment is not None:
        out["comment"] = turn.comment
    return out
