"""The quick walk of :func:`arbiter.notation.json_reader.check_structure`: whether a parsed
JSON value is plainly within the limits of its form, and how many values it holds.

It keeps no path, so it cannot word a problem; where it finds one, or a value it does not
know, the reader walks the value again node by node and says what the problem is and where
(compiled by mypyc, ``setup.py``: every JSON and Abstract Play record read goes through it).
"""

from __future__ import annotations

import re
from typing import Any, Final, cast

from arbiter.notation import limits

__all__ = ["plain_count"]

_LONE_SURROGATE: Final = re.compile(f"[{chr(0xD800)}-{chr(0xDFFF)}]")
"""Half of a UTF-16 pair alone (JSON's \\u escapes can write one): no character. Built from
``chr``: mypyc takes no surrogate in a string literal."""

_ITEMS: Final = limits.MAX_JSON_ITEMS
_MEMBERS: Final = limits.MAX_JSON_MEMBERS
_DEPTH: Final = limits.MAX_JSON_DEPTH
_MOVES: Final = limits.MAX_MOVES
_TAGS: Final = limits.MAX_TAGS


def plain_count(value: object, depth: int = 1, most: int = _ITEMS) -> int:
    """How many values the full walk counts in ``value`` (strings, arrays, objects and
    keys), standing at ``depth``; -1 where the full walk might find a problem there.
    ``most`` is the limit of items of ``value``, if it is an array.

    Only these pass: strings (exactly ``str``) without a lone surrogate, lists within
    their limit, dicts within the members' limit whose keys are such strings, numbers,
    booleans and null, nested no deeper than an array or object with items may stand. A
    subclass of any of them (a long number kept as text, an object with a repeated key) is
    left to the full walk."""
    kind = type(value)
    if kind is str:
        return 1 if _plain_text(cast(str, value)) else -1
    if kind is list:
        return _list_count(cast(list[Any], value), depth, most)
    if kind is dict:
        return _dict_count(cast(dict[Any, Any], value), depth)
    return 0 if value is None or kind is int or kind is float or kind is bool else -1


def _list_count(items: list[Any], depth: int, most: int) -> int:
    if len(items) > most or (items and depth >= _DEPTH):
        return -1
    total = 1
    for item in items:
        found = plain_count(item, depth + 1)
        if found < 0:
            return -1
        total += found
    return total


def _dict_count(members: dict[Any, Any], depth: int) -> int:
    if len(members) > _MEMBERS or (members and depth >= _DEPTH):
        return -1
    total = 1 + len(members)
    for key, item in members.items():
        if type(key) is not str or not _plain_text(key):
            return -1
        # the record's own moves and tags have limits of their own
        most = (
            _ITEMS
            if depth != 1
            else _MOVES
            if key == "moves"
            else _TAGS
            if key == "tags"
            else _ITEMS
        )
        found = plain_count(item, depth + 1, most)
        if found < 0:
            return -1
        total += found
    return total


def _plain_text(text: str) -> bool:
    """A string without a lone surrogate (an ASCII one has none: no search)."""
    return text.isascii() or _LONE_SURROGATE.search(text) is None
