"""What describes a move form, once: the record every layer reads a form's facts from.

A move form (a placement, a capture, a sowing, a pass...) is a class of
:mod:`arbiter.notation.ast` whose ``form`` is a :class:`MoveForm`, and whose methods read it
from GRN and JSON, write it, and say which points it touches. The GRN reader, the JSON reader
and writer, the JSON schema, the rules engines' dispatch and the diagrams walk over the
registered forms (:func:`arbiter.notation.games.move_forms`) rather than naming any, so a
new form is one new class and its registration (``spec/grn.md`` section 5).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any, Final, NamedTuple

from arbiter.notation.plain import Plain
from arbiter.notation.point import Point

__all__ = ["SQUARE", "JsonField", "MoveForm", "POINT_FIELD", "Trace", "point_ok"]

SQUARE = "[A-Za-z][0-9]+"
"""A square as a GRN word may hold it: a file letter and a rank (which the reader then
checks). Every move word that is not a keyword begins with one."""

_POINT = re.compile(r"[a-sA-S](?:1[0-9]|[1-9])\Z")


def point_ok(value: object) -> bool:
    """Whether ``value`` is a coordinate as JSON records write one (the schema's ``point``)."""
    return type(value) is str and _POINT.match(value) is not None


class JsonField(Plain):
    """One field of a move's JSON object: its JSON Schema, and a quick check that says True
    only of values that schema accepts (the JSON reader asks the schema only about values
    the quick checks refuse; ``tests/notation/test_json.py`` holds each to its schema)."""

    _fields = ("schema", "check")
    __slots__ = _fields
    _compared = ("check",)  # a field is known by its check (a schema is an unhashable dict)

    def __init__(self, schema: Mapping[str, Any], check: Callable[[object], bool]) -> None:
        self.schema: Final = schema
        self.check: Final = check


POINT_FIELD = JsonField({"$ref": "#/$defs/point"}, point_ok)
"""A field holding one coordinate."""


class MoveForm(Plain):
    """The facts of one move form.

    ``type`` names it in JSON records and in a game's description (``moves``); ``title``
    says it in words, for messages. ``terminal`` is its terminal in the GRN grammar and
    ``pattern`` what a GRN word of this form is (a Python regular expression, which the
    grammar takes as it is); ``keyword`` is set for forms written as one word, like
    ``pass``. ``fields`` are its JSON fields in the order they are written, ``required``
    those a record must give, ``defs`` JSON Schema definitions its fields refer to.
    ``handler`` is the method of a rules class that plays it. ``variant`` names a flag of a
    game's description (``resolve``): a form with one is a richer way of writing another
    form of the same ``type``, available only in games that set the flag."""

    _fields = (
        "type", "title", "terminal", "pattern", "handler", "keyword", "fields", "required",
        "defs", "variant",
    )  # fmt: skip
    __slots__ = _fields
    _compared = ("type", "title", "terminal", "pattern", "handler", "keyword", "required",
                 "variant")  # fmt: skip
    """Not the JSON fields and definitions, which are unhashable dicts (a form is known by
    its terminal anyway: no two registered forms share one)."""

    def __init__(
        self,
        type: str,
        title: str,
        terminal: str,
        pattern: str,
        handler: str,
        keyword: str | None = None,
        fields: Mapping[str, JsonField] | None = None,
        required: tuple[str, ...] = (),
        defs: Mapping[str, Mapping[str, Any]] | None = None,
        variant: str | None = None,
    ) -> None:
        self.type: Final = type
        self.title: Final = title
        self.terminal: Final = terminal
        self.pattern: Final = pattern
        self.keyword: Final = keyword
        self.fields: Final[Mapping[str, JsonField]] = {} if fields is None else fields
        self.required: Final = required
        self.defs: Final[Mapping[str, Mapping[str, Any]]] = {} if defs is None else defs
        self.handler: Final = handler
        self.variant: Final = variant


class Trace(NamedTuple):
    """How a move is seen on a board: the squares it goes through, in order, as far as it
    stays on the board (none for a pass); ``walk`` for a move that goes step by step
    (drawn through every square) rather than from its first square to its last; and
    ``leaves``, the step ``(files, ranks)`` by which a walk would leave the board."""

    squares: tuple[Point, ...] = ()
    walk: bool = False
    leaves: tuple[int, int] | None = None
