"""JSON records: schema, reader, writer (spec/json.md, spec/record.schema.json)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from arbiter.notation.ast import (
    Button,
    Capture,
    Flip,
    ImploPlace,
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
from arbiter.notation.errors import RecordError
from arbiter.notation.games import all_games
from arbiter.notation.grn_reader import read_grn
from arbiter.notation.grn_writer import write_grn
from arbiter.notation.json_reader import read_json, record_from_json
from arbiter.notation.json_schema import fast_checks, record_schema, record_validator, schema_text
from arbiter.notation.json_writer import record_to_json, write_json
from fuzz.inputs import value_holders
from tests.budget import examples
from tests.strategies import records

ROOT = Path(__file__).resolve().parents[2]
SPEC_SCHEMA = ROOT / "spec" / "record.schema.json"
SCHEMA = record_schema()
PLAIN_VALIDATOR = Draft202012Validator(SCHEMA)  # the schema as any 2020-12 tool reads it


def p(text: str) -> Point:
    return Point.parse(text)


def turns(*moves: Move, comments: dict[int, str] | None = None) -> tuple[Turn, ...]:
    comments = comments or {}
    return tuple(Turn(move, comments.get(i)) for i, move in enumerate(moves))


EXAMPLES = {
    "Pilo": Record(
        game="Pilo",
        size=8,
        players=(("Blue", "player-07"), ("Orange", "player-12")),
        tags=(Tag("Event", "Autumn Open"), Tag("Round", "3"), Tag("Date", "2026.11.21")),
        turns=turns(
            Place(p("d4")),
            Swap(),
            Place(p("e5")),
            Capture(p("d4"), p("d7")),
            Pass(),
            comments={1: "the pie rule", 3: "a capture"},
        ),
        result="Orange+6",
        comment="text before the first move",
    ),
    "Petrify": Record(
        game="Petrify",
        size=6,
        setup="6/6/2,x,3/6/6/6",
        players=(("Orange", "player-12"),),
        turns=turns(Place(p("a1")), Place(p("f6")), Capture(p("a1"), p("a6")), Pass(), Pass()),
        result="Blue+0",
    ),
    "Implo": Record(
        game="Implo",
        size=5,
        players=(("Black", "player-03"), ("White", "player-04")),
        turns=turns(
            ImploPlace(p("c3")),
            Swap(),
            ImploPlace(p("d4"), (Resolve(p("e5")), Resolve(p("a1"), p("b2")))),
        ),
        result="White+R",
    ),
    "Pletore": Record(
        game="Pletore",
        size=7,
        komi=-3,
        turns=turns(Place(p("d4")), Flip(p("d4")), Button(), Pass(), comments={2: "button"}),
        result="White+3.5",
    ),
    "Pilare": Record(
        game="Pilare",
        size=6,
        players=(("Red", "player-01"),),
        tags=(Tag("Site", "club"),),
        turns=turns(Sow(p("c3"), "nne"), Sow(p("d4"), "s")),
        result="Black",
    ),
}


# --- the schema file -----------------------------------------------------------------------


def test_spec_schema_is_the_schema_made_from_the_game_descriptions() -> None:
    assert SPEC_SCHEMA.read_text(encoding="utf-8") == schema_text(), (
        "spec/record.schema.json is not what the game descriptions give; write it again "
        "with: arbiter schema > spec/record.schema.json"
    )


def test_schema_is_valid_and_versioned() -> None:
    Draft202012Validator.check_schema(SCHEMA)
    assert SCHEMA["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert SCHEMA["$id"].endswith("/record/1.json")


def test_the_examples_in_spec_json_md_are_valid_records() -> None:
    text = (ROOT / "spec" / "json.md").read_text(encoding="utf-8")
    blocks = [block.split("```", 1)[0] for block in text.split("```json\n")[1:]]
    assert blocks
    for block in blocks:
        assert all(isinstance(item, Record) for item in read_json(block)), block


def test_schema_has_one_if_then_block_per_game() -> None:
    blocks = SCHEMA["$defs"]["record"]["allOf"]
    assert [block["if"]["properties"]["game"]["const"] for block in blocks] == [
        game.name for game in all_games()
    ]


def test_schema_root_accepts_a_record_or_an_array_of_records() -> None:
    one = record_to_json(EXAMPLES["Pilo"])
    assert PLAIN_VALIDATOR.is_valid(one)
    assert PLAIN_VALIDATOR.is_valid([one, record_to_json(EXAMPLES["Pilare"])])
    assert not PLAIN_VALIDATOR.is_valid([one, {"game": "Pilo"}])


# --- round trips and the canonical form --------------------------------------------------


@pytest.mark.parametrize("game", sorted(EXAMPLES))
def test_example_round_trips(game: str) -> None:
    record = EXAMPLES[game]
    obj = record_to_json(record)
    assert PLAIN_VALIDATOR.is_valid(obj)
    assert record_from_json(obj) == record
    assert read_json(write_json([record])) == [record]


def test_several_records_round_trip_as_an_array() -> None:
    records = list(EXAMPLES.values())
    text = write_json(records)
    assert text.startswith("[\n") and text.endswith("]\n")
    assert read_json(text) == records
    assert [r.index for r in read_json(text) if isinstance(r, Record)] == list(range(5))


def test_canonical_form() -> None:
    record = Record(
        game="Pletore",
        size=5,
        komi=6,
        setup="5/5/2,b,2/5/5",
        players=(("White", "player-12"), ("Black", "player-07")),
        tags=(Tag("Event", "Café Open"),),
        comment="before",
        turns=turns(Place(p("c4")), Flip(p("c3")), comments={0: "first"}),
    )
    assert (
        write_json(record)
        == """\
{
  "game": "Pletore",
  "size": 5,
  "komi": 6,
  "setup": "5/5/2,b,2/5/5",
  "players": {
    "Black": "player-07",
    "White": "player-12"
  },
  "tags": [
    {
      "name": "Event",
      "value": "Café Open"
    }
  ],
  "comment": "before",
  "moves": [
    {
      "type": "place",
      "at": "c4",
      "comment": "first"
    },
    {
      "type": "flip",
      "at": "c3"
    }
  ],
  "result": "*"
}
"""
    )


def test_input_is_normalised() -> None:
    """Upper-case coordinates and paths, players in any order, 8.0 for 8, a BOM."""
    text = json.dumps(
        {
            "game": "Pilare",
            "size": 8.0,
            "players": {"Black": "player-02", "Red": "player-01"},
            "moves": [{"type": "sow", "from": "C3", "path": "NnE"}],
        }
    )
    [record] = read_json(b"\xef\xbb\xbf" + text.encode())
    assert isinstance(record, Record)
    assert record.players == (("Red", "player-01"), ("Black", "player-02"))
    assert record.size == 8
    assert record_to_json(record)["moves"] == [{"type": "sow", "from": "c3", "path": "nne"}]


def test_other_games_colours_are_ordinary_tags_and_comments_are_kept_as_grn_keeps_them() -> None:
    record = Record(
        game="Pilo",
        size=5,
        tags=(Tag("Red", "x"), Tag("game", "y")),
        turns=turns(Pass(), comments={0: "in  side"}),
        comment="",
    )
    assert read_json(write_json([record])) == [record]
    # White space at either end of a comment is not kept, in JSON as in GRN: otherwise a
    # record converted to GRN would not read back as itself.
    spaced = record.replace(turns=turns(Pass(), comments={0: " \n in  side\t"}))
    assert read_json(write_json([spaced])) == [record]
    assert list(read_grn(write_grn(record))) == [record]


def test_implo_placements_without_steps_are_implo_places() -> None:
    obj = {
        "game": "Implo",
        "size": 5,
        "moves": [{"type": "place", "at": "c3"}, {"type": "place", "at": "d4", "resolve": []}],
    }
    record = record_from_json(obj)
    assert record.moves == (ImploPlace(p("c3")), ImploPlace(p("d4")))
    assert [m for m in record_to_json(record)["moves"]] == [
        {"type": "place", "at": "c3"},
        {"type": "place", "at": "d4"},
    ]


def test_locations_are_json_pointers() -> None:
    record = record_from_json(record_to_json(EXAMPLES["Pilo"]))
    assert record.turns[3].where.pointer == "/moves/3"
    assert record.tags[1].where.pointer == "/tags/1"
    assert record.where["Result"].pointer == "/result"


def test_grn_to_json_to_grn_is_lossless() -> None:
    grn = pytest.importorskip("arbiter.notation.grn_reader")
    writer = pytest.importorskip("arbiter.notation.grn_writer")
    text = writer.write_record(EXAMPLES["Pilo"])
    [record] = list(grn.read_grn(text))
    [again] = read_json(write_json([record]))
    assert isinstance(again, Record)
    assert writer.write_record(again) == text


# --- errors ----------------------------------------------------------------------------------


def base(**changes: Any) -> dict[str, Any]:
    obj = record_to_json(EXAMPLES["Pilo"])
    obj.update(changes)
    return {key: value for key, value in obj.items() if value is not DELETE}


DELETE = object()
PLETORE = {"game": "Pletore", "size": 7}
MOVE = {"type": "place", "at": "d4"}

ERRORS = [
    ("flip in Pilo", base(moves=[MOVE, {"type": "flip", "at": "d4"}]), "schema", "/moves/1/type"),
    ("size 40", base(size=40), "schema", "/size"),
    ("size not a number", base(size="8"), "schema", "/size"),
    ("Pletore without komi", PLETORE, "schema", ""),
    ("komi in Pilo", base(komi=6), "schema", "/komi"),
    ("Pletore komi not an integer", {**PLETORE, "komi": 6.5}, "schema", "/komi"),
    ("Pilare size 7", {"game": "Pilare", "size": 7}, "schema", "/size"),
    ("bad coordinate", base(moves=[{"type": "place", "at": "t1"}]), "schema", "/moves/0/at"),
    (
        "coordinate with newline",
        base(moves=[{"type": "place", "at": "d4\n"}]),
        "schema",
        "/moves/0/at",
    ),
    (
        "off-board",
        base(size=5, moves=[MOVE, {"type": "place", "at": "f1"}]),
        "off-board",
        "/moves/1",
    ),
    (
        "off-board capture",
        base(size=5, moves=[{"type": "move", "from": "a1", "to": "a7"}]),
        "off-board",
        "/moves/0",
    ),
    ("bad result", base(result="Orange+x"), "bad-result", "/result"),
    ("half point outside Pletore", base(result="Blue+2.5"), "bad-result", "/result"),
    ("margin in Implo", {"game": "Implo", "size": 5, "result": "Black+3"}, "bad-result", "/result"),
    ("unknown game", base(game="Chess"), "schema", "/game"),
    ("game missing", base(game=DELETE), "schema", ""),
    ("unknown field", base(event="Autumn Open"), "schema", ""),
    ("foreign colour", base(players={"Red": "player-01"}), "schema", "/players/Red"),
    ("reserved tag", base(tags=[{"name": "Result", "value": "*"}]), "schema", "/tags/0/name"),
    ("colour as tag", base(tags=[{"name": "Orange", "value": "x"}]), "schema", "/tags/0/name"),
    ("bad tag name", base(tags=[{"name": "2nd", "value": "x"}]), "schema", "/tags/0/name"),
    (
        "repeated tag",
        base(tags=[{"name": "Round", "value": "1"}, {"name": "Round", "value": "2"}]),
        "duplicate-tag",
        "/tags/1/name",
    ),
    (
        "tag value with a line break",
        base(tags=[{"name": "Event", "value": "a\nb"}]),
        "schema",
        "/tags/0/value",
    ),
    (
        "resolve in Pilo",
        base(moves=[{**MOVE, "resolve": [{"patch": "e5"}]}]),
        "schema",
        "/moves/0/resolve",
    ),
    ("extra field in a move", base(moves=[{"type": "pass", "at": "d4"}]), "schema", "/moves/0"),
    ("move without type", base(moves=[{"at": "d4"}]), "schema", "/moves/0"),
    ("capture without target", base(moves=[{"type": "move", "from": "d4"}]), "schema", "/moves/0"),
    (
        "bad sowing path",
        {"game": "Pilare", "size": 6, "moves": [{"type": "sow", "from": "c3", "path": "nx"}]},
        "schema",
        "/moves/0/path",
    ),
    (
        "bad Implo step",
        {
            "game": "Implo",
            "size": 5,
            "moves": [{**MOVE, "resolve": [{"patch": "e5", "remove": "zz"}]}],
        },
        "schema",
        "/moves/0/resolve/0/remove",
    ),
    (
        "comment with }",
        base(moves=[{"type": "pass", "comment": "a } b"}]),
        "bad-comment",
        "/moves/0/comment",
    ),
    ("bad setup", base(setup="8/8"), "bad-setup", "/setup"),
    ("not an object", 42, "schema", ""),
]


@pytest.mark.parametrize(
    ("obj", "code", "pointer"), [e[1:] for e in ERRORS], ids=[e[0] for e in ERRORS]
)
def test_error_code_and_pointer(obj: object, code: str, pointer: str) -> None:
    [error] = read_json(json.dumps(obj), file="round3.json")
    assert isinstance(error, RecordError), error
    assert (error.code, error.pointer, error.index, error.file) == (code, pointer, 0, "round3.json")
    assert error.message and "False schema" not in error.message
    with pytest.raises(RecordError) as raised:
        record_from_json(obj, index=4)
    assert (raised.value.code, raised.value.pointer, raised.value.index) == (code, pointer, 4)


def test_messages_name_the_problem() -> None:
    [flip] = read_json(json.dumps(ERRORS[0][1]))
    assert "'flip'" in str(flip) and "Pilo" in str(flip)
    [komi] = read_json(json.dumps(PLETORE))
    assert "komi" in komi.message and "Pletore" in komi.message  # type: ignore[union-attr]


def test_the_first_problem_in_reading_order_is_reported() -> None:
    bad_moves = [MOVE, {"type": "flip", "at": "a1"}, {"type": "sow", "from": "a1", "path": "n"}]
    [error] = read_json(json.dumps(base(moves=bad_moves, result="x")))
    assert isinstance(error, RecordError) and error.pointer == "/moves/1/type"
    # A result that cannot be read does not stop the record; a size that cannot be does.
    [error] = read_json(json.dumps({"result": "x", "game": "Pilo", "size": 80}))
    assert isinstance(error, RecordError) and error.pointer == "/size" and error.record is None
    [error] = read_json(json.dumps({"result": "x", "game": "Pilo", "size": 8}))
    assert isinstance(error, RecordError) and error.pointer == "/result"
    assert error.record is not None and error.record.result == "*"
    [error] = read_json(json.dumps({"game": "Pletore", "size": 80}))
    assert isinstance(error, RecordError) and error.pointer == ""


def test_malformed_json_gives_line_and_column() -> None:
    [error] = read_json('{"game": "Pilo",\n  "size": 8,,\n}', file="x.json")
    assert isinstance(error, RecordError)
    assert (error.code, error.line, error.column, error.index, error.file) == (
        "bad-json",
        2,
        13,
        0,
        "x.json",
    )


def test_nan_is_not_json() -> None:
    [error] = read_json('{"game": "Pilo",\n "size": NaN}')
    assert isinstance(error, RecordError)
    assert (error.code, error.line, error.column) == ("bad-json", 2, 10)


def test_non_utf8_bytes() -> None:
    [error] = read_json(b'{"game": "Pilo",\n "size": 8, "x": "\xe9t\xe9"}')
    assert isinstance(error, RecordError)
    assert (error.code, error.line, error.column) == ("encoding", 2, 19)
    assert "offset 35" in error.message


def test_duplicate_keys() -> None:
    text = '[{"game": "Pilo", "size": 8},\n {"game": "Pilo", "size": 8, "size": 9}]'
    first, second = read_json(text)
    assert isinstance(first, Record)
    assert isinstance(second, RecordError)
    assert (second.code, second.pointer, second.index) == ("bad-json", "/size", 1)
    [nested] = read_json('{"game": "Pilo", "size": 8, "players": {"Blue": "a", "Blue": "b"}}')
    assert isinstance(nested, RecordError) and nested.pointer == "/players/Blue"


def test_a_broken_record_does_not_stop_the_others() -> None:
    good = record_to_json(EXAMPLES["Implo"])
    text = json.dumps(
        [
            good,
            base(size=40),
            "not a record",
            good,
            base(size=5, moves=[{"type": "place", "at": "f1"}]),
        ]
    )
    results = read_json(text, file="many.json")
    assert [type(r).__name__ for r in results] == [
        "Record",
        "SchemaError",
        "SchemaError",
        "Record",
        "InvalidRecordError",
    ]
    assert [r.index for r in results] == [0, 1, 2, 3, 4]
    errors = [r for r in results if isinstance(r, RecordError)]
    assert [(e.code, e.pointer, e.file) for e in errors] == [
        ("schema", "/size", "many.json"),
        ("schema", "", "many.json"),
        ("off-board", "/moves/0", "many.json"),
    ]


def test_empty_array_holds_no_records() -> None:
    assert read_json("[]") == []


@pytest.mark.parametrize(
    "text", ["[" * 100_000, "[" * 40 + "]" * 40, "{" + '"a": [' * 40 + "]" * 40 + "}"]
)
def test_deep_nesting_is_an_error(text: str) -> None:
    [error] = read_json(text)
    assert isinstance(error, RecordError) and error.code in ("bad-json", "too-deep")


# --- properties ------------------------------------------------------------------------------

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=10),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4)
    ),
    max_leaves=15,
)

any_record = records(max_moves=10)


@pytest.mark.parametrize("game", sorted(EXAMPLES))
@settings(max_examples=examples(40), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_random_records_validate_and_round_trip(game: str, data: st.DataObject) -> None:
    record = data.draw(records(game, max_moves=12))
    obj = record_to_json(record)
    assert PLAIN_VALIDATOR.is_valid(obj), list(PLAIN_VALIDATOR.iter_errors(obj))
    assert record_from_json(obj) == record
    text = write_json([record])
    assert read_json(text.encode("utf-8")) == [record]
    [again] = read_json(text)
    assert isinstance(again, Record) and write_json([again]) == text


@settings(max_examples=examples(200), deadline=None)
@given(json_values)
def test_any_json_value_gives_records_or_errors(value: object) -> None:
    for item in read_json(json.dumps(value)):
        assert isinstance(item, Record | RecordError)
    try:
        record_from_json(value)
    except RecordError:
        pass


@settings(max_examples=examples(200), deadline=None)
@given(st.binary(max_size=200))
def test_any_bytes_give_records_or_errors(data: bytes) -> None:
    for item in read_json(data):
        assert isinstance(item, Record | RecordError)


@st.composite
def damaged_records(draw: st.DrawFn) -> object:
    """A valid record object with one value replaced by an arbitrary JSON value, or removed."""
    obj: Any = record_to_json(draw(any_record))
    holders = value_holders(obj)
    node, key = draw(st.sampled_from(holders))
    if isinstance(node, dict) and draw(st.booleans()):
        del node[key]
    else:
        node[key] = draw(json_values)
    return obj


@settings(max_examples=examples(200), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(damaged_records())
def test_damaged_records_give_a_record_or_an_error(obj: object) -> None:
    [item] = read_json(json.dumps(obj))
    assert isinstance(item, Record | RecordError)
    if isinstance(item, RecordError):
        assert item.pointer is not None and item.index == 0


def _checked_as_the_reader_does(obj: Any) -> tuple[object, list[object], list[object]]:
    """The header (moves and tags emptied, result left out), the moves and the tags."""
    header = {
        key: [] if key in ("moves", "tags") and isinstance(value, list) else value
        for key, value in obj.items()
        if key != "result"
    }
    moves, tags = obj.get("moves"), obj.get("tags")
    return header, moves if isinstance(moves, list) else [], tags if isinstance(tags, list) else []


@settings(max_examples=examples(300), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(any_record.map(record_to_json), damaged_records()))
def test_the_quick_checks_accept_only_what_the_schema_accepts(obj: Any) -> None:
    # The reader asks the schema only about what a quick check refuses: a quick check that
    # accepted something the schema refuses would let a bad record through.
    game = next((g for g in all_games() if g.name == obj.get("game")), None)
    if game is None or not isinstance(obj, dict):
        return
    quick = fast_checks(game)
    header, moves, tags = _checked_as_the_reader_does(obj)
    if quick.header(header):
        assert record_validator().is_valid(header), header
    for field, items, ok in (("moves", moves, quick.move), ("tags", tags, quick.tag)):
        for item in items:
            if ok(item):  # the schema finds nothing in the item (the rest is not asked)
                alone = {"game": game.name, field: [item]}
                errors = record_validator().iter_errors(alone)
                assert not [e for e in errors if list(e.absolute_path)[:2] == [field, 0]], item


@settings(max_examples=examples(100), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(any_record)
def test_the_quick_checks_accept_every_well_formed_record(record: Record) -> None:
    # And they pass what is well formed, so that the schema is not asked about it.
    obj = record_to_json(record)
    quick = fast_checks(next(g for g in all_games() if g.name == record.game))
    header, moves, tags = _checked_as_the_reader_does(obj)
    assert quick.header(header), header
    assert all(map(quick.move, moves)) and all(map(quick.tag, tags))
