"""Reading JSON game records (``spec/json.md``, ``spec/record.schema.json``).

A JSON source is decoded (UTF-8), parsed, checked against the schema record by record, and
each record that passes is handed to :func:`notation.build.build_record`, the same meaning
checks the GRN reader ends in. Errors carry a JSON pointer relative to their record and the
record's ``index`` in the file; a broken record never stops the records after it.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

from jsonschema import ValidationError

from arbiter.notation.ast import (
    Button,
    Capture,
    Flip,
    ImploPlace,
    Location,
    Move,
    Pass,
    Place,
    Point,
    Record,
    Resolve,
    Sow,
    Swap,
    Tag,
    Turn,
)
from arbiter.notation.build import Value, build_record
from arbiter.notation.errors import (
    InvalidRecordError,
    NotationSyntaxError,
    RecordError,
    SchemaError,
)
from arbiter.notation.games import GAMES, GameDescription, find_game
from arbiter.notation.json_schema import record_schema, record_validator

MAX_DEPTH = 32
"""Records nest five deep at most (record, moves, move, resolve, step); deeper input is
refused before validation, so that no error message has to describe a huge nested value."""


# --- reading -------------------------------------------------------------------------------


def read_json(
    data: str | bytes | bytearray,
    *,
    file: str | None = None,
    read_item: Callable[[object, int], Record] | None = None,
) -> list[Record | RecordError]:
    """Return the records of a JSON source (one record object or an array of them), in order.

    Each parsed record is read by ``read_item`` (by default :func:`record_from_json`; the
    sources module passes one that also knows Abstract Play records). A record that cannot
    be read is replaced by its :class:`RecordError` (``index`` and ``file`` set). A source
    that is not UTF-8 or not JSON gives a single error with index 0 (code ``encoding`` or
    ``bad-json``). Never raises :class:`RecordError`."""
    try:
        value = _load(data)
    except RecordError as err:
        return [err.located(index=0, file=file)]
    items = value if isinstance(value, list) else [value]
    read = read_item or record_from_json
    return [_read_one(read, item, index, file) for index, item in enumerate(items)]


def _read_one(
    read: Callable[[object, int], Record], item: object, index: int, file: str | None
) -> Record | RecordError:
    try:
        return read(item, index)
    except RecordError as err:
        return err.located(index=index, file=file)


def record_from_json(obj: object, index: int = 0) -> Record:
    """Return the record that the parsed JSON value ``obj`` describes.

    Raises :class:`SchemaError` (code ``schema``, ``pointer`` naming the offending value) if
    ``obj`` breaks the schema, ``NotationSyntaxError`` (``bad-json``) for a repeated key, and
    :class:`InvalidRecordError` for a value the game cannot have (``off-board``,
    ``bad-setup``, ``duplicate-tag``, ...). The error's ``index`` is ``index``."""
    try:
        check_structure(obj)
        errors = list(record_validator().iter_errors(obj))
        if errors:
            raise _schema_error(min(errors, key=lambda error: _relevance(error, obj)), obj)
        assert isinstance(obj, dict)  # the schema says so
        return _build(obj, index)
    except RecordError as err:
        raise err.located(index=index) from None


def _load(data: str | bytes | bytearray) -> object:
    text = _decode(data) if isinstance(data, bytes | bytearray) else data
    text = text.removeprefix("\ufeff")  # a byte order mark is allowed and ignored
    try:
        return json.loads(text, object_pairs_hook=_object, parse_constant=_reject_constant)
    except json.JSONDecodeError as err:
        raise NotationSyntaxError(
            f"not valid JSON: {err.msg}", code="bad-json", line=err.lineno, column=err.colno
        ) from None
    except _NotJson as err:
        line, column = _line_column(text, _constant_offset(text))
        raise NotationSyntaxError(
            f"{err} is not a JSON value", code="bad-json", line=line, column=column
        ) from None
    except RecursionError:
        raise NotationSyntaxError(
            "the JSON is nested too deeply to read", code="bad-json"
        ) from None
    except ValueError as err:  # e.g. an integer of more than 4300 digits
        raise NotationSyntaxError(f"not valid JSON: {err}", code="bad-json") from None


def _decode(data: bytes | bytearray) -> str:
    try:
        return bytes(data).decode("utf-8")
    except UnicodeDecodeError as err:
        line, column = _line_column(bytes(data[: err.start]).decode("utf-8"), err.start)
        raise NotationSyntaxError(
            f"the bytes are not UTF-8: byte 0x{data[err.start]:02x} at offset {err.start}",
            code="encoding",
            line=line,
            column=column,
        ) from None


def _line_column(text: str, offset: int) -> tuple[int, int]:
    """1-based line and column (in characters) of ``offset`` within ``text``."""
    before = text[:offset]
    return before.count("\n") + 1, offset - (before.rfind("\n") + 1) + 1


class _NotJson(ValueError):
    """NaN or Infinity: Python's json module reads them, JSON does not have them."""


def _reject_constant(name: str) -> object:
    raise _NotJson(name)


_STRING_OR_CONSTANT = re.compile(r'"(?:[^"\\]|\\.)*"|(NaN|-?Infinity)')


def _constant_offset(text: str) -> int:
    for match in _STRING_OR_CONSTANT.finditer(text):
        if match.group(1):
            return match.start(1)
    return 0


class _RepeatedKeys(dict[str, Any]):
    """A JSON object in which some key was written twice; ``repeated`` is the first such."""

    repeated: str


def _object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    obj = dict(pairs)
    if len(obj) == len(pairs):
        return obj
    marked = _RepeatedKeys(obj)
    seen: set[str] = set()
    for key, _ in pairs:
        if key in seen:
            marked.repeated = key
            return marked
        seen.add(key)
    raise AssertionError("unreachable: fewer keys than pairs means a key repeats")


def check_structure(obj: object) -> None:
    """Raise for the first repeated key (in document order) or for nesting beyond MAX_DEPTH."""
    stack: list[tuple[object, str, int]] = [(obj, "", 1)]
    while stack:
        value, pointer, depth = stack.pop()
        if isinstance(value, _RepeatedKeys):
            raise NotationSyntaxError(
                f"the key {value.repeated!r} is written twice in one object",
                code="bad-json",
                pointer=f"{pointer}/{_escape(value.repeated)}",
            )
        children: list[tuple[object, object]] = []
        if isinstance(value, dict):
            children = list(value.items())
        elif isinstance(value, list):
            children = list(enumerate(value))
        if children and depth >= MAX_DEPTH:
            raise SchemaError(
                f"values are nested more than {MAX_DEPTH} deep", code="schema", pointer=pointer
            )
        stack.extend(
            (child, f"{pointer}/{_escape(str(key))}", depth + 1)
            for key, child in reversed(children)
        )


def _escape(key: str) -> str:
    """A key as a JSON pointer reference token (RFC 6901)."""
    return key.replace("~", "~0").replace("/", "~1")


# --- from a valid object to a Record -------------------------------------------------------


def _at(pointer: str) -> Location:
    return Location(pointer=pointer)


def _build(obj: dict[str, Any], index: int) -> Record:
    spec = find_game(obj["game"])
    return build_record(
        game=Value(obj["game"], _at("/game")),
        size=Value(str(int(obj["size"])), _at("/size")),  # the schema allows 8.0
        komi=Value(str(int(obj["komi"])), _at("/komi")) if "komi" in obj else None,
        setup=Value(obj["setup"], _at("/setup")) if "setup" in obj else None,
        players=_players(obj.get("players", {}), spec),
        tags=_tags(obj.get("tags", [])),
        turns=[_turn(move, ply) for ply, move in enumerate(obj.get("moves", []))],
        result=Value(obj["result"], _at("/result")) if "result" in obj else None,
        comment=obj.get("comment"),
        index=index,
        start=_at(""),
    )


def _players(players: dict[str, str], spec: GameDescription) -> list[tuple[str, Value]]:
    """The players in the game's colour order (JSON objects have no meaningful order)."""
    return [
        (colour, Value(players[colour], _at(f"/players/{colour}")))
        for colour in spec.colours
        if colour in players
    ]


def _tags(tags: list[dict[str, str]]) -> list[Tag]:
    seen: set[str] = set()
    for number, tag in enumerate(tags):
        if tag["name"] in seen:  # GRN cannot hold a repeated tag either
            raise InvalidRecordError(
                f"tag {tag['name']!r} is repeated",
                code="duplicate-tag",
                pointer=f"/tags/{number}/name",
            )
        seen.add(tag["name"])
    return [
        Tag(tag["name"], tag["value"], _at(f"/tags/{number}")) for number, tag in enumerate(tags)
    ]


def _turn(obj: dict[str, Any], number: int) -> Turn:
    return Turn(_move(obj), obj.get("comment"), _at(f"/moves/{number}"))


def _move(obj: dict[str, Any]) -> Move:
    kind = obj["type"]
    if kind == "place" and "resolve" in obj:
        return ImploPlace(Point.parse(obj["at"]), tuple(map(_step, obj["resolve"])))
    if kind in ("place", "flip"):
        return (Place if kind == "place" else Flip)(Point.parse(obj["at"]))
    if kind == "move":
        return Capture(Point.parse(obj["from"]), Point.parse(obj["to"]))
    if kind == "sow":
        return Sow(Point.parse(obj["from"]), obj["path"].lower())
    return _BARE_MOVES[kind]()


def _step(obj: dict[str, str]) -> Resolve:
    remove = Point.parse(obj["remove"]) if "remove" in obj else None
    return Resolve(Point.parse(obj["patch"]), remove)


_BARE_MOVES: dict[str, type[Pass | Swap | Button]] = {"pass": Pass, "swap": Swap, "button": Button}


# --- schema errors as people read them ------------------------------------------------------


def _relevance(error: ValidationError, record: object) -> tuple[list[int], int]:
    """Sort key: the error on the value that comes first in the record, then the one from
    the most specific part of the schema (a game's own rule before the general one).

    jsonschema's ``best_match`` prefers the shortest path and, among siblings, the last
    one; a person fixing a record wants the first problem in reading order."""
    position: list[int] = []
    node: Any = record
    for part in error.absolute_path:
        position.append(list(node).index(part) if isinstance(node, dict) else int(part))
        node = node[part]
    return position, -len(error.absolute_schema_path)


def _schema_error(error: ValidationError, record: object) -> SchemaError:
    path = list(error.absolute_path)
    if "propertyNames" in error.absolute_schema_path:
        path.append(str(error.instance))  # point at the offending key itself
    if error.validator is None:
        path = _false_schema_path(error, record)
    pointer = "".join(f"/{_escape(str(part))}" for part in path)
    # A '}' would end the comment in GRN; spec/grn.md gives this its own code.
    code = "bad-comment" if path[-1:] == ["comment"] and error.validator == "pattern" else "schema"
    return SchemaError(_message(error, record), code=code, pointer=pointer)


def _message(error: ValidationError, record: object) -> str:
    game = _game_name(record)
    if error.validator == "required":
        missing = next(name for name in error.validator_value if name not in error.instance)
        return f"{_owner(error, game)} needs {missing!r}"
    if error.validator == "additionalProperties" and error.validator_value is False:
        extra = next(key for key in error.instance if key not in error.schema.get("properties", {}))
        return f"{_owner(error, game)} has no field {extra!r}"
    if error.validator is None:  # a `false` subschema: a field this game does not have
        path = _false_schema_path(error, record)
        return f"{path[-1] if path else 'this field'!r} is not allowed in a {game} record"
    if error.validator == "not":
        return _reserved_tag_message(error.instance, game)
    title = error.schema.get("title") if isinstance(error.schema, dict) else None
    if isinstance(title, str):
        return f"{_describe(error.instance)} is not {title}"
    return str(error.message)[:200]


def _false_schema_path(error: ValidationError, record: object) -> list[str | int]:
    """The path of the value that a ``false`` subschema rejected.

    jsonschema (4.26) reports such an error, met through ``properties``, without the
    property's name in its path; it is found again from the schema path: the ``properties``
    object that holds ``false``, and the key of the parent object that meets it."""
    path: list[str | int] = list(error.absolute_path)
    try:
        schema: Any = record_schema()["$defs"]["record"]
        for part in error.absolute_schema_path:
            schema = schema[part]
        parent: Any = record
        for part in path:
            parent = parent[part]
        return path + [key for key, sub in schema.items() if sub is False and key in parent][:1]
    except (KeyError, IndexError, TypeError, AttributeError):
        return path


def _game_name(record: object) -> str | None:
    game = record.get("game") if isinstance(record, dict) else None
    return game if isinstance(game, str) and game.lower() in GAMES else None


def _owner(error: ValidationError, game: str | None) -> str:
    """Name the object an error is about: "a Pletore record", "a 'sow' move", "a tag"."""
    path = list(error.absolute_path)
    if not path:
        return f"a {game} record" if game else "a record"
    if path[0] == "moves" and len(path) == 2 and isinstance(error.instance, dict):
        kind = error.instance.get("type")
        return f"a {kind!r} move" if isinstance(kind, str) else "a move"
    return {"tags": "a tag", "moves": "a resolution step"}.get(str(path[0]), "this object")


def _reserved_tag_message(name: object, game: str | None) -> str:
    spec = GAMES.get(game.lower()) if game else None
    if spec and name in spec.colours:
        return f"tag name {name!r} is reserved: give the players in 'players'"
    return f"tag name {name!r} is reserved: use the record's field {str(name).lower()!r}"


def _describe(value: object) -> str:
    """A short description of a JSON value for messages (never the whole of a big value)."""
    if isinstance(value, bool) or value is None:
        return json.dumps(value)
    if isinstance(value, str):
        return repr(value if len(value) <= 40 else value[:37] + "...")
    if isinstance(value, int | float):
        return json.dumps(value)[:40]
    return "an object" if isinstance(value, dict) else "an array"
