"""Reading JSON game records (``spec/json.md``, ``spec/record.schema.json``).

A JSON source is cut into records (:mod:`arbiter.notation.json_split`), and each record is
decoded (UTF-8), parsed, checked against the limits and the schema, and handed to
:func:`notation.build.build_record`, the same meaning checks the GRN reader ends in. Errors
carry a JSON pointer relative to their record and the record's ``index`` in the file; a
broken record never stops the records after it.
"""

from __future__ import annotations

import io
import json
import re
from collections.abc import Callable, Iterator
from functools import cache
from typing import IO, Any, cast

from jsonschema import ValidationError

from arbiter.notation import limits
from arbiter.notation.ast import Location, Move, Record, Tag, Turn
from arbiter.notation.build import RawValue, build_record
from arbiter.notation.errors import (
    UTF8_ADVICE,
    InvalidRecordError,
    LimitError,
    NotationSyntaxError,
    RecordError,
    SchemaError,
)
from arbiter.notation.games import (
    GameDescription,
    find_game,
    game_named,
    generation,
    move_forms,
)
from arbiter.notation.json_form import plain_count
from arbiter.notation.json_schema import (
    fast_checks,
    record_schema,
    record_validator,
    result_pattern,
)
from arbiter.notation.json_split import JsonItem, split_json
from arbiter.notation.limits import BLANK

MAX_DEPTH = limits.MAX_JSON_DEPTH


# --- reading -------------------------------------------------------------------------------


def read_json(
    data: str | bytes | bytearray,
    *,
    file: str | None = None,
    read: ReadValue | None = None,
) -> list[Record | RecordError]:
    """Return the records of a JSON source (one record object or an array of them), in order.

    Each parsed record is read by ``read`` (by default :func:`record_from_json`; the sources
    module passes one that also knows Abstract Play records). A record that cannot be read
    is replaced by its :class:`RecordError` (``index`` and ``file`` set). Text that is not
    UTF-8 or not JSON is the error of the record it stands in (code ``encoding`` or
    ``bad-json``). Never raises :class:`RecordError`."""
    raw = data.encode("utf-8", "surrogatepass") if isinstance(data, str) else bytes(data)
    return list(iter_json(io.BytesIO(raw), file=file, read=read))


def iter_json(
    stream: IO[bytes], *, file: str | None = None, read: ReadValue | None = None
) -> Iterator[Record | RecordError]:
    """Like :func:`read_json`, reading a binary stream lazily, one record at a time."""
    for item in split_json(stream):
        yield read_item(item, file=file, read=read)


ReadValue = Callable[[object, int], Record]
"""Reads one parsed JSON value (and its index) into a record, or raises RecordError."""


def read_item(
    item: JsonItem, *, file: str | None = None, read: ReadValue | None = None
) -> Record | RecordError:
    """The record of one item from :func:`~arbiter.notation.json_split.split_json` (read by
    ``read``, by default :func:`record_from_json`), or the error that stopped it."""
    parsed: object = None
    try:
        if item.error is not None:
            raise item.error
        parsed = _load(item)
        return (read or record_from_json)(parsed, item.index)
    except RecordError as err:
        if (err.pointer or "").startswith("/moves/"):
            err.parsed = parsed
        return err.located(index=item.index, file=file)


def record_from_json(obj: object, index: int = 0) -> Record:
    """Return the record that the parsed JSON value ``obj`` describes.

    Raises :class:`SchemaError` (code ``schema``, ``pointer`` naming the offending value) if
    ``obj`` breaks the schema, ``NotationSyntaxError`` (``bad-json``) for a repeated key,
    ``LimitError`` for a record over a limit (``too-many-moves``, ``too-deep``, ...) and
    :class:`InvalidRecordError` for a value the game cannot have (``off-board``,
    ``bad-setup``, ``duplicate-tag``, ...). A result that is not one of the game's
    (``bad-result``) does not stop the record: the error carries it (see
    :class:`RecordError`). The error's ``index`` is ``index``."""
    try:
        check_structure(obj)
        problems = _check_schema(obj)
        assert isinstance(obj, dict)  # the schema says so
        return _build(obj, index, problems)
    except RecordError as err:
        raise err.located(index=index) from None


def _load(item: JsonItem) -> object:
    """Parse one record's text; errors are located in the source (line and column)."""
    text = _decode(item)
    try:
        return json.loads(
            text,
            object_pairs_hook=_object,
            parse_constant=_reject_constant,
            parse_int=_whole_number,
        )
    except json.JSONDecodeError as err:
        line, column = _in_source(item, err.lineno, err.colno)
        raise NotationSyntaxError(
            f"not valid JSON: {err.msg}", code="bad-json", line=line, column=column
        ) from None
    except _NotJson as err:
        line, column = _in_source(item, *_line_column(text, _constant_offset(text)))
        raise NotationSyntaxError(
            f"{err} is not a JSON value", code="bad-json", line=line, column=column
        ) from None
    except RecursionError:  # the splitter refuses deep nesting; this is a second guard
        raise LimitError(
            "the JSON is nested too deeply to read", code="too-deep", line=item.line
        ) from None


def _decode(item: JsonItem) -> str:
    try:
        return item.data.decode("utf-8")
    except UnicodeDecodeError as err:
        before = item.data[: err.start].decode("utf-8")
        line, column = _in_source(item, *_line_column(before, len(before)))
        raise NotationSyntaxError(
            f"the bytes are not UTF-8 (byte 0x{item.data[err.start]:02x} at offset {err.start} "
            f"of the record): {UTF8_ADVICE}",
            code="encoding",
            line=line,
            column=column,
        ) from None


def _in_source(item: JsonItem, line: int, column: int) -> tuple[int, int]:
    """A line and column within the record's text, as line and column in its source."""
    if line == 1:
        return item.line, item.column + column - 1
    return item.line + line - 1, column


def _line_column(text: str, offset: int) -> tuple[int, int]:
    """1-based line and column (in characters) of ``offset`` within ``text``."""
    before = text[:offset]
    return before.count("\n") + 1, offset - (before.rfind("\n") + 1) + 1


class _NotJson(ValueError):
    """NaN or Infinity: Python's json module reads them, JSON does not have them."""


def _reject_constant(name: str) -> object:
    raise _NotJson(name)


class _LongNumber(str):
    """A whole number over MAX_DIGITS digits, kept as its text: Python never converts it,
    and :func:`check_structure` refuses it where it stands."""


def _whole_number(text: str) -> int | _LongNumber:
    if len(text) > limits.MAX_DIGITS + (text[:1] == "-"):
        return _LongNumber(text)
    return int(text)


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


_LONE_SURROGATE = re.compile("[\ud800-\udfff]")
"""JSON's \\u escapes can write half of a UTF-16 pair alone: no character, and no UTF-8."""


def check_structure(obj: object) -> None:
    """Raise for the first problem of the value's form, in document order: a repeated key,
    a number of too many digits, a string holding a lone surrogate, an array or object over
    its limit, nesting beyond MAX_DEPTH. Each node costs a few operations, so that this
    check is cheap beside the schema's and bounds what the schema is asked to look at.

    A value that :func:`arbiter.notation.json_form.plain_count` finds plain has none of
    these problems: :func:`walk_structure`, which keeps each node's path to word the error,
    walks the others."""
    if not 0 <= plain_count(obj) <= limits.MAX_JSON_VALUES:
        walk_structure(obj)


def walk_structure(obj: object) -> None:
    """:func:`check_structure` node by node, each with its path, in document order."""
    stack: list[tuple[object, tuple[str | int, ...], int]] = [(obj, (), 1)]
    values = 0
    while stack:
        value, path, depth = stack.pop()
        if isinstance(value, str | list):
            values += 1
        elif isinstance(value, dict):
            values += 1 + len(value)  # the object and its keys
        if values > limits.MAX_JSON_VALUES:
            raise _form_error(
                "too-many-values",
                f"the record holds more than {limits.MAX_JSON_VALUES} strings, arrays and objects",
                path,
            )
        if isinstance(value, str):
            if type(value) is _LongNumber:
                raise _form_error(
                    "too-many-digits", f"a number has more than {limits.MAX_DIGITS} digits", path
                )
            if _LONE_SURROGATE.search(value):
                raise _form_error(
                    "encoding",
                    "a string holds a lone surrogate (\\ud800 to \\udfff), which is no character",
                    path,
                )
            continue
        children: list[tuple[str | int, object]]
        if isinstance(value, dict):
            if isinstance(value, _RepeatedKeys):
                raise _form_error(
                    "bad-json",
                    f"the key {value.repeated!r} is written twice in one object",
                    (*path, value.repeated),
                )
            if len(value) > limits.MAX_JSON_MEMBERS:
                raise _form_error(
                    "too-many-values",
                    f"an object has more than {limits.MAX_JSON_MEMBERS} members",
                    path,
                )
            for key in value:
                if _LONE_SURROGATE.search(key):
                    raise _form_error("encoding", "a key holds a lone surrogate", path)
            children = list(value.items())
        elif isinstance(value, list):
            _check_length(value, path)
            children = list(enumerate(value))
        else:
            continue
        if children and depth >= MAX_DEPTH:
            raise _form_error("too-deep", f"values are nested more than {MAX_DEPTH} deep", path)
        stack.extend((child, (*path, key), depth + 1) for key, child in reversed(children))


def _check_length(value: list[Any], path: tuple[str | int, ...]) -> None:
    if path == ("moves",):
        most, code, what = limits.MAX_MOVES, "too-many-moves", "turns"
    elif path == ("tags",):
        most, code, what = limits.MAX_TAGS, "too-many-tags", "tags"
    else:
        most, code, what = limits.MAX_JSON_ITEMS, "too-many-values", "values"
    if len(value) > most:
        raise _form_error(code, f"the array has more than {most} {what}", (*path, most))


def _form_error(code: str, message: str, path: tuple[str | int, ...]) -> RecordError:
    pointer = "".join(f"/{_escape(str(part))}" for part in path)
    kind = NotationSyntaxError if code in ("bad-json", "encoding") else LimitError
    return kind(message, code=code, pointer=pointer)


def _escape(key: str) -> str:
    """A key as a JSON pointer reference token (RFC 6901)."""
    return key.replace("~", "~0").replace("/", "~1")


# --- the schema, checked where it matters ---------------------------------------------------


def _check_schema(obj: object) -> list[RecordError]:
    """Raise the schema error of ``obj`` that comes first in reading order; return the
    problems that do not stop the record (a result that is not one of the game's).

    The schema is asked about the record without its moves and tags (unless a quick check
    of the game's own rules passes it), then about the first move and the first tag that
    the quick check does not pass, each alone: the schema costs about a millisecond per
    move, and a quarter of one per header; the quick check a microsecond."""
    if not isinstance(obj, dict):
        errors = list(record_validator().iter_errors(obj))
        raise _schema_error(min(errors, key=lambda e: _relevance(e, obj)), obj)
    shallow = {
        key: [] if key in ("moves", "tags") and isinstance(value, list) else value
        for key, value in obj.items()
        if key != "result"
    }
    game = _exact_game(obj.get("game"))
    quick = fast_checks(game) if game is not None else None
    found: list[_Found] = []
    if quick is None or not quick.header(shallow):
        found = [_Found(e, shallow) for e in record_validator().iter_errors(shallow)]
    if quick is not None:
        for field, quick_item in (("moves", quick.move), ("tags", quick.tag)):
            items = obj.get(field)
            if isinstance(items, list):
                found += _first_bad_item(obj, field, items, quick_item)
    if found:
        first = min(found, key=lambda f: f.order(obj))
        raise first.error()
    if "result" in obj and game is not None:
        return _check_result(obj["result"], game)
    return []


def _exact_game(name: object) -> GameDescription | None:
    """The game a record names in the one spelling JSON allows, if it is registered."""
    if not isinstance(name, str):
        return None
    game = game_named(name)
    return game if game is not None and game.name == name else None


def _first_bad_item(obj: dict[str, Any], field: str, items: list[Any], quick: Any) -> list[_Found]:
    """The schema errors of the first element of ``obj[field]`` that the schema refuses,
    found by asking it only about elements that fail the quick check."""
    for number, item in enumerate(items):
        if quick(item):
            continue
        alone = {"game": obj["game"], field: [item]}
        errors = [
            _Found(e, alone, (field, number))
            for e in record_validator().iter_errors(alone)
            if list(e.absolute_path)[:2] == [field, 0]
        ]
        if errors:
            return errors
    return []


class _Found:
    """A schema error met while checking ``checked`` (the record, or a part of it standing
    alone), and where it lies in the record: an element alone is at ``/field/0`` there and
    at ``/field/number`` in the record."""

    def __init__(
        self, error: ValidationError, checked: object, moved: tuple[str, int] | None = None
    ) -> None:
        self.validation, self.checked, self.moved = error, checked, moved

    def path(self) -> list[str | int]:
        path = list(self.validation.absolute_path)
        if self.moved is not None:
            path[:2] = list(self.moved)
        return path

    def order(self, record: dict[str, Any]) -> tuple[list[int], int]:
        """The sort key of :func:`_relevance`, in the record's own order."""
        position: list[int] = []
        node: Any = record
        for part in self.path():
            position.append(list(node).index(part) if isinstance(node, dict) else int(part))
            node = node[part]
        return position, -len(self.validation.absolute_schema_path)

    def error(self) -> SchemaError:
        error = _schema_error(self.validation, self.checked)
        if self.moved is not None and error.pointer is not None:
            field, number = self.moved
            prefix = f"/{field}/0"
            error.pointer = f"/{field}/{number}" + error.pointer[len(prefix) :]
        return error


def _check_result(value: object, game: GameDescription) -> list[RecordError]:
    if isinstance(value, str) and re.fullmatch(result_pattern(game)[1:-1], value):
        return []
    shown = _describe(value)
    return [
        InvalidRecordError(
            f"{shown} is not {game.called} result in its canonical spelling",
            code="bad-result",
            pointer="/result",
        )
    ]


# --- from a valid object to a Record -------------------------------------------------------


def _at(pointer: str) -> Location:
    return Location(pointer=pointer)


def _build(obj: dict[str, Any], index: int, problems: list[RecordError]) -> Record:
    spec = find_game(obj["game"])
    bad_result = any(problem.code == "bad-result" for problem in problems)
    return build_record(
        game=RawValue(obj["game"], _at("/game")),
        size=RawValue(str(int(obj["size"])), _at("/size")),  # the schema allows 8.0
        komi=RawValue(str(int(obj["komi"])), _at("/komi")) if "komi" in obj else None,
        setup=RawValue(obj["setup"], _at("/setup")) if "setup" in obj else None,
        players=_players(obj.get("players", {}), spec),
        tags=_tags(obj.get("tags", [])),
        turns=[_turn(move, ply) for ply, move in enumerate(obj.get("moves", []))],
        result=RawValue(obj["result"], _at("/result"))
        if "result" in obj and not bad_result
        else None,
        comment=_comment(obj.get("comment")),
        index=index,
        start=_at(""),
        problems=problems,
    )


def _players(players: dict[str, str], spec: GameDescription) -> list[tuple[str, RawValue]]:
    """The players in the game's colour order (JSON objects have no meaningful order)."""
    return [
        (colour, RawValue(players[colour], _at(f"/players/{colour}")))
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
    return Turn(move_from_json(obj), _comment(obj.get("comment")), _at(f"/moves/{number}"))


def _comment(text: str | None) -> str | None:
    """A comment as GRN reads one: without white space at either end (GRN could not keep
    it, so the record does not hold it either)."""
    return None if text is None else text.strip(BLANK)


def move_from_json(obj: dict[str, Any]) -> Move:
    """The move of a JSON move object the schema accepted: read by the first registered
    form of its type that has every field it holds (a placement with ``resolve`` is
    Implo's). Which game allows it, and on which board, is not checked here."""
    readers = _readers(generation())[obj["type"]]
    if len(readers) == 1:
        return readers[0][1](obj)
    for fields, read in readers:
        if all(key in fields for key in obj):
            return read(obj)
    raise InvalidRecordError(f"no move form reads {obj!r}", code="schema")  # the schema would


@cache
def _readers(
    _generation: int,
) -> dict[str, list[tuple[frozenset[str], Callable[[dict[str, Any]], Move]]]]:
    """For each move type, its forms' fields (with ``type`` and ``comment``) and readers."""
    readers: dict[str, list[tuple[frozenset[str], Callable[[dict[str, Any]], Move]]]] = {}
    for form in move_forms():
        fields = frozenset(["type", "comment", *form.form.fields])
        readers.setdefault(form.form.type, []).append((fields, form.from_json))
    return readers


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
    return SchemaError(_message(error, record), code=_code(error, path), pointer=pointer)


def _code(error: ValidationError, path: list[str | int]) -> str:
    """``schema``, or the code GRN gives the same problem: a '}' in a comment, and the
    limits the schema states (spec/grn.md sections 9 and 10)."""
    if path[-1:] == ["comment"] and error.validator == "pattern":
        return "bad-comment"
    if error.validator == "maxLength":
        return "too-long"
    if path == ["komi"] and error.validator in ("minimum", "maximum"):
        return "komi-out-of-range"
    if error.validator == "maxItems" and path in (["moves"], ["tags"]):
        return f"too-many-{path[0]}"
    return "schema"


def _message(error: ValidationError, record: object) -> str:
    game = _game_name(record)
    instance: Any = error.instance  # jsonschema types these as possibly unset
    if error.validator == "required":
        required = cast("list[str]", error.validator_value)
        missing = next(name for name in required if name not in instance)
        return f"{_owner(error, game)} needs {missing!r}"
    if error.validator == "additionalProperties" and error.validator_value is False:
        schema = cast("dict[str, Any]", error.schema)
        extra = next(key for key in instance if key not in schema.get("properties", {}))
        return f"{_owner(error, game)} has no field {extra!r}"
    if error.validator is None:  # a `false` subschema: a field this game does not have
        path = _false_schema_path(error, record)
        return f"{path[-1] if path else 'this field'!r} is not allowed in a {game} record"
    if error.validator == "not":
        return _reserved_tag_message(error.instance, game)
    if error.validator in ("minimum", "maximum") and list(error.absolute_path) == ["komi"]:
        return f"komi {_describe(error.instance)} is out of range: it lies between " + (
            f"-{limits.MAX_KOMI} and {limits.MAX_KOMI}"
        )
    if error.validator == "maxLength":
        return f"the text is longer than {error.validator_value} characters"
    if error.validator == "maxItems":
        return f"the array has more than {error.validator_value} values"
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
    return game if isinstance(game, str) and game_named(game) is not None else None


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
    spec = game_named(game) if game else None
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
