"""The JSON Schema of JSON records, made from the registered games' descriptions.

``spec/record.schema.json`` is this module's output for the five games (``spec/json.md``);
a test keeps the two identical. After changing a game's description or this module, write
the file again with ``arbiter schema > spec/record.schema.json``.

The part of the schema that is the same for every game is written out below; each
registered game adds one ``if``/``then`` block, so that an error points at the field that is
wrong for that game (``/moves/1/type``, ``/size``, ``/komi``).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator, Mapping
from functools import cache
from typing import Any, NamedTuple

from jsonschema import Draft202012Validator, ValidationError, validators
from referencing import Registry, Resource

from arbiter.notation import limits
from arbiter.notation.games import (
    GameDescription,
    all_games,
    form_types,
    forms_of,
    generation,
    move_forms,
)

SCHEMA_ID = "https://arbiter.games/schema/record/1.json"
RESERVED_TAGS = ("Game", "Size", "Komi", "Setup", "Result")
"""Tag names that are fields of a record, so never ordinary tags."""


def record_schema() -> dict[str, Any]:
    """The whole schema: a record object, or an array of them, for every registered game."""
    return _schema(generation())


@cache
def _schema(_generation: int) -> dict[str, Any]:
    games = list(all_games())
    names = [game.name for game in games]
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": SCHEMA_ID,
        "title": "Arbiter game record, version 1",
        "description": (
            f"A game record of {_or(names)}, or an array of such records. Prose: spec/json.md. "
            "The schema checks the form of each field; whether a square lies on the board, "
            "whether a Setup position is well formed and whether the moves are legal is "
            "checked by the reader and the adjudicator."
        ),
        "if": {"type": "array"},
        "then": {"items": {"$ref": "#/$defs/record"}},
        "else": {"$ref": "#/$defs/record"},
        "$defs": {
            "record": _record(games),
            "comment": {
                "title": "a comment (a string without '}', which would end a GRN comment)",
                "type": "string",
                "pattern": "^[^}]*$",
                "maxLength": limits.MAX_TEXT,
            },
            "line": {
                "title": "a one-line string (no line breaks, as in a GRN tag value)",
                "type": "string",
                "pattern": "^[^\\r\\n]*$",
                "maxLength": limits.MAX_TEXT,
            },
            "point": {
                "title": "a coordinate (a file letter a to s, then a rank 1 to 19, like d4)",
                "type": "string",
                "pattern": "^[a-sA-S](1[0-9]|[1-9])$",
            },
            "tag": _tag(),
            **_form_defs(),
            "move": _move(),
        },
    }


def _record(games: list[GameDescription]) -> dict[str, Any]:
    names = [game.name for game in games]
    return {
        "title": "a game record object",
        "type": "object",
        "required": ["game", "size"],
        "additionalProperties": False,
        "properties": {
            "game": {"title": f"a game name ({_or(names)})", "enum": names},
            "size": {"title": "a board size (a whole number)", "type": "integer"},
            "komi": {
                "title": "a komi (a whole number, negative allowed)",
                "type": "integer",
                "minimum": -limits.MAX_KOMI,
                "maximum": limits.MAX_KOMI,
            },
            "setup": {
                "title": "a position in the position notation (one line)",
                "$ref": "#/$defs/line",
            },
            "players": {
                "title": "an object mapping starting colours to player names",
                "type": "object",
                "additionalProperties": {"$ref": "#/$defs/line"},
            },
            "tags": {
                "title": "an array of tags",
                "type": "array",
                "items": {"$ref": "#/$defs/tag"},
                "maxItems": limits.MAX_TAGS,
            },
            "comment": {"$ref": "#/$defs/comment"},
            "moves": {
                "title": "an array of moves, one per turn",
                "type": "array",
                "items": {"$ref": "#/$defs/move"},
                "maxItems": limits.MAX_MOVES,
            },
            "result": {"title": "a result string", "type": "string"},
        },
        "allOf": [_game_block(game) for game in games],
    }


def _game_block(game: GameDescription) -> dict[str, Any]:
    """What one game allows: its sizes, komi, colours, move types and results."""
    a = game.called
    colours = list(game.colours)
    properties: dict[str, Any] = {"size": _sizes(game)}
    if not game.komi:
        properties["komi"] = False
    properties["players"] = {
        "propertyNames": {"title": f"{a} colour ({_or(colours)})", "enum": colours}
    }
    properties["tags"] = {"items": {"properties": {"name": {"not": {"enum": colours}}}}}
    moves: dict[str, Any] = {
        "type": {"title": f"{a} move type ({_or(list(game.moves))})", "enum": list(game.moves)}
    }
    moves.update(dict.fromkeys(_unavailable_fields(game), False))
    properties["moves"] = {"items": {"properties": moves}}
    properties["result"] = {
        "title": f"{a} result ({_results_text(game)})",
        "pattern": result_pattern(game),
    }
    then: dict[str, Any] = {"required": ["komi"]} if game.komi else {}
    then["properties"] = properties
    return {
        "if": {"required": ["game"], "properties": {"game": {"const": game.name}}},
        "then": then,
    }


def _sizes(game: GameDescription) -> dict[str, Any]:
    title = f"{game.called} board size ({game.sizes_text})"
    if game.sizes == tuple(range(game.min_size, game.max_size + 1)) and len(game.sizes) > 2:
        return {"title": title, "minimum": game.min_size, "maximum": game.max_size}
    return {"title": title, "enum": list(game.sizes)}


def result_pattern(game: GameDescription) -> str:
    """The result strings of ``game`` in their canonical spelling, as a regular expression
    (``spec/grn.md`` section 6): ``*``, a colour alone, a colour with ``+R``, ``+T`` or
    ``+F``, and for scored games a colour with a margin."""
    margin = "(0|[1-9][0-9]*)(\\.5)?" if game.half_points else "0|[1-9][0-9]*"
    endings = f"{margin}|R|T|F" if game.scored else "R|T|F"
    return f"^(\\*|({'|'.join(game.colours)})(\\+({endings}))?)$"


def _results_text(game: GameDescription) -> str:
    first, second = game.colours
    if not game.scored:
        return f"{first}, {second}, a colour with +R, +T or +F, or *"
    half = ", N possibly ending in .5" if game.half_points else ""
    return f"{first}+N, {second}+N{half}, a colour alone, a colour with +R, +T or +F, or *"


def _tag() -> dict[str, Any]:
    return {
        "title": "a tag object with a name and a value",
        "type": "object",
        "required": ["name", "value"],
        "additionalProperties": False,
        "properties": {
            "name": {
                "title": "a tag name (a letter, then letters, digits or underscores)",
                "type": "string",
                "pattern": "^[A-Za-z][A-Za-z0-9_]*$",
                "not": {"enum": list(RESERVED_TAGS)},
            },
            "value": {"$ref": "#/$defs/line"},
        },
    }


def _form_defs() -> dict[str, Any]:
    """The definitions the move forms' fields refer to (Implo's ``step``)."""
    defs: dict[str, Any] = {}
    for form in move_forms():
        defs.update(form.form.defs)
    return defs


def _move_shapes() -> dict[str, tuple[list[str], dict[str, Any]]]:
    """Each move type's required fields (its first form's) and every field any of its forms
    has, in the order of registration."""
    shapes: dict[str, tuple[list[str], dict[str, Any]]] = {}
    for form in move_forms():
        required, properties = shapes.setdefault(form.form.type, (list(form.form.required), {}))
        for name, field in form.form.fields.items():
            properties.setdefault(name, field.schema)
    return shapes


def _move() -> dict[str, Any]:
    forms = list(form_types())
    shapes = _move_shapes()
    blocks = []
    for form, (required, properties) in shapes.items():
        if not properties:
            continue
        then = {
            "required": required,
            "additionalProperties": False,
            "properties": {"type": True, "comment": True, **properties},
        }
        blocks.append(
            {"if": {"required": ["type"], "properties": {"type": {"const": form}}}, "then": then}
        )
    bare = [form for form in forms if not shapes[form][1]]
    if bare:
        blocks.append(
            {
                "if": {"required": ["type"], "properties": {"type": {"enum": bare}}},
                "then": {
                    "additionalProperties": False,
                    "properties": {"type": True, "comment": True},
                },
            }
        )
    return {
        "title": "a move object",
        "type": "object",
        "required": ["type"],
        "properties": {
            "type": {"title": f"a move type ({_or(forms)})", "enum": forms},
            "comment": {"$ref": "#/$defs/comment"},
        },
        "allOf": blocks,
    }


def _unavailable_fields(game: GameDescription) -> list[str]:
    """The fields only a variant form that ``game`` lacks has (``resolve``, for every game
    but Implo): the game's schema refuses them where they are."""
    available = forms_of(game)
    forms = move_forms()
    plain = {name for form in forms if form.form.variant is None for name in form.form.fields}
    return [
        name
        for form in forms
        if form.form.variant is not None and form not in available
        for name in form.form.fields
        if name not in plain
    ]


# --- the quick check of moves and tags ---------------------------------------------------

_TAG_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_]*\Z")


class FastChecks(NamedTuple):
    """Predicates for records of one game: a move object, a tag object, and a record's
    header (the record with ``moves`` and ``tags`` emptied and ``result`` left out)."""

    move: Callable[[object], bool]
    tag: Callable[[object], bool]
    header: Callable[[object], bool]


def fast_checks(game: GameDescription) -> FastChecks:
    """Predicates for records of ``game``, each saying True only of a value the schema
    accepts in that place (``tests/notation/test_json.py`` holds them to the schema), at
    about a microsecond where the schema's check costs a millisecond: the reader asks the
    schema only about values they refuse."""
    return _fast_checks(game.name, generation())


@cache
def _fast_checks(name: str, _generation: int) -> FastChecks:
    game = next(game for game in all_games() if game.name == name)
    fields: dict[str, tuple[tuple[str, ...], dict[str, Callable[[object], bool]]]] = {}
    for form in forms_of(game):
        required, checks = fields.setdefault(form.form.type, (form.form.required, {}))
        for name, field in form.form.fields.items():
            checks.setdefault(name, field.check)
    checks_of = {kind: {"comment": _comment_ok, **checks} for kind, (_, checks) in fields.items()}
    reserved = {*RESERVED_TAGS, *game.colours}

    def move_ok(move: object) -> bool:
        if type(move) is not dict:
            return False
        kind = move.get("type")
        if type(kind) is not str or kind not in fields:
            return False
        checks = checks_of[kind]
        for key, value in move.items():
            if key == "type":
                continue
            check = checks.get(key)
            if check is None or not check(value):
                return False
        return all(key in move for key in fields[kind][0])

    def tag_ok(tag: object) -> bool:
        if type(tag) is not dict or len(tag) != 2:
            return False
        name, value = tag.get("name"), tag.get("value")
        return (
            type(name) is str
            and _TAG_NAME.match(name) is not None
            and name not in reserved
            and type(value) is str
            and "\n" not in value
            and "\r" not in value
            and len(value) <= limits.MAX_TEXT
        )

    header_fields: dict[str, Callable[[object], bool]] = {
        "game": lambda value: value == game.name,
        "size": lambda value: type(value) is int and value in game.sizes,
        "setup": _line_ok,
        "players": lambda value: (
            type(value) is dict
            and all(key in game.colours and _line_ok(text) for key, text in value.items())
        ),
        "comment": _comment_ok,
        "moves": lambda value: value == [],
        "tags": lambda value: value == [],
    }
    if game.komi:
        header_fields["komi"] = lambda value: (
            type(value) is int and (-limits.MAX_KOMI <= value <= limits.MAX_KOMI)
        )

    def header_ok(header: object) -> bool:
        if type(header) is not dict or "size" not in header:
            return False
        if game.komi and "komi" not in header:
            return False
        return all(
            key in header_fields and header_fields[key](value) for key, value in header.items()
        )

    return FastChecks(move_ok, tag_ok, header_ok)


def _line_ok(value: object) -> bool:
    return (
        type(value) is str
        and "\n" not in value
        and "\r" not in value
        and len(value) <= limits.MAX_TEXT
    )


def _comment_ok(value: object) -> bool:
    return type(value) is str and "}" not in value and len(value) <= limits.MAX_TEXT


def _or(words: list[str]) -> str:
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} or {words[-1]}"


# --- validation ---------------------------------------------------------------------------


def _ecma_pattern(
    validator: Any, pattern: str, instance: object, schema: Mapping[str, Any]
) -> Iterator[ValidationError]:
    """``pattern`` with JSON Schema's (ECMA-262) meaning of ``$``: the very end of the string.

    Python's ``$`` also matches just before a final newline, which would let "d4\\n" pass as
    a coordinate."""
    if isinstance(instance, str) and not re.search(_python_regex(pattern), instance):
        yield ValidationError(f"{instance!r} does not match {pattern!r}")


@cache
def _python_regex(pattern: str) -> re.Pattern[str]:
    if pattern.endswith("$") and not pattern.endswith("\\$"):
        pattern = pattern[:-1] + r"\Z"
    return re.compile(pattern)


_Validator = validators.extend(Draft202012Validator, {"pattern": _ecma_pattern})


def record_validator() -> Any:
    """A validator of one record object (the schema's root also accepts an array of them),
    for the games registered now."""
    return _record_validator(generation())


@cache
def _record_validator(_generation: int) -> Any:
    schema = record_schema()
    registry: Registry[Any] = Registry().with_resource(SCHEMA_ID, Resource.from_contents(schema))
    return _Validator({"$ref": f"{SCHEMA_ID}#/$defs/record"}, registry=registry)


def source_validator() -> Any:
    """A validator of a whole JSON source: one record object or an array of them (the
    schema's root), for the games registered now."""
    return _source_validator(generation())


@cache
def _source_validator(_generation: int) -> Any:
    return _Validator(record_schema())


def schema_text() -> str:
    """The schema as ``spec/record.schema.json`` holds it."""
    return json.dumps(record_schema(), indent=2, ensure_ascii=False) + "\n"
