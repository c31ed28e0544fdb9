"""Abstract Play records of Pletore, read and written (spec/abstractplay.md).

The three records under samples/pletore/valid/*abstractplay* are real downloads made by
Abstract Play's own code; the others are built here, each to show one fact of the format.
"""

from __future__ import annotations

import json
import re
from copy import deepcopy
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from arbiter.adjudicator.abstractplay import abstractplay_object, write_abstractplay
from arbiter.adjudicator.replay import adjudicate
from arbiter.notation.abstractplay import abstractplay_losses, record_from_abstractplay
from arbiter.notation.ast import Record, Tag, Turn
from arbiter.notation.errors import RecordError
from arbiter.notation.grn_reader import parse_grn_record as parse_grn
from arbiter.notation.grn_writer import write_grn
from arbiter.notation.sources import parse_record, read_records
from tests.budget import examples
from tests.strategies import legal_games

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = [
    ROOT / "samples" / "pletore" / "valid" / name
    for name in (
        "08-abstractplay-11x11-pie-swapped.json",  # a pie with the seats swapped
        "09-abstractplay-11x11-resigned-out-of-turn.json",  # a resignation
        "10-abstractplay-11x11-button.json",  # a button taken
    )
]
VALIDATOR = Draft202012Validator(
    json.loads((Path(__file__).parent / "abstractplay_schema.json").read_text("utf-8"))
)
RFC3339 = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)")


def load(path: Path) -> dict[str, Any]:
    value: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return value


def read(obj: object) -> Record:
    return record_from_abstractplay(obj)


def error_of(obj: object) -> RecordError:
    with pytest.raises(RecordError) as caught:
        record_from_abstractplay(obj)
    return caught.value


def tags(record: Record) -> dict[str, str]:
    return {tag.name: tag.value for tag in record.tags}


def assert_schema_valid(obj: dict[str, Any]) -> None:
    """The written record keeps to the site's schema (dates checked here: jsonschema checks
    the date-time format only with an optional package)."""
    assert list(VALIDATOR.iter_errors(obj)) == []
    for key in ("date-start", "date-end", "date-generated"):
        assert RFC3339.fullmatch(obj["header"][key]), obj["header"][key]


def ap(
    moves: list[list[str]],
    results: tuple[int, int] = (0, 1),
    variants: list[str] | None = None,
    scores: tuple[float, float] | None = None,
    **header: Any,
) -> dict[str, Any]:
    """An Abstract Play record of Pletore as the site writes one (11x11, komi offer)."""
    players = [
        {"name": name, "userid": f"u-{name}", "result": result}
        for name, result in zip(("Ana", "Bo"), results, strict=True)
    ]
    for player, score in zip(players, scores or (), strict=False):
        player["score"] = score
    head: dict[str, Any] = {
        "game": {
            "name": "Pletore",
            "variants": ["Smaller board (11x11)", "Komi offer"] if variants is None else variants,
        },
        "site": {"name": "Abstract Play", "gameid": "pletore#0001"},
        "date-start": "2026-01-05T10:00:00.000Z",
        "date-end": "2026-01-09T18:30:00.000Z",
        "date-generated": "2026-01-10T00:00:00.000Z",
        "players": players,
        **header,
    }
    return {"header": head, "moves": moves}


def round_trip(record: Record) -> tuple[dict[str, Any], Record]:
    """The record written as Abstract Play (checked against the schema) and read back."""
    written = json.loads(write_abstractplay(record))
    assert_schema_valid(written)
    return written, read(written)


# --- the site's own records ------------------------------------------------------------------


@pytest.mark.parametrize("path", FIXTURES, ids=lambda p: p.name)
def test_site_records_give_the_site_s_winner_and_scores(path: Path) -> None:
    header = load(path)["header"]
    report = adjudicate(read(load(path)))
    seats = header["players"]
    winner = max(range(2), key=lambda seat: seats[seat]["result"])
    assert report.valid, report.errors
    assert report.winner == ("Black", "White")[winner]
    assert report.winner_player == seats[winner]["name"]
    totals = {colour: figures["total"] for colour, figures in report.details.items()}
    assert totals == {"Black": seats[0]["score"], "White": seats[1]["score"]}
    if report.finished:
        assert report.scores == totals


def test_the_three_downloads_adjudicate_as_the_site_decided() -> None:
    got = {p.name[:2]: adjudicate(read(load(p))) for p in FIXTURES}
    assert {k: (r.result, r.winner_player) for k, r in got.items()} == {
        "08": ("White+15", "Aaron"),
        "09": ("White+R", "leaf_eater"),
        "10": ("Black+25.5", "Brontë"),
    }
    assert got["08"].termination == "rules" and got["09"].termination == "resignation"
    # 10: White (ogreworld) took the button at round 8: -1 komi, +0.5.
    assert got["10"].details["White"]["button"] == 0.5
    assert got["10"].details["White"]["komi"] == -1


@pytest.mark.parametrize("path", FIXTURES, ids=lambda p: p.name)
def test_site_records_survive_the_round_trip(path: Path) -> None:
    original = load(path)
    grn = write_grn(read(original))
    again = json.loads(write_abstractplay(parse_grn(grn)))
    assert_schema_valid(again)
    assert again == original  # AP -> GRN -> AP gives the site's record back
    assert write_grn(read(again)) == grn  # and AP -> GRN -> AP -> GRN is a fixed point


def test_a_site_record_as_grn() -> None:
    record = read(load(FIXTURES[0]))  # 08: the pie with the seats swapped
    assert (record.size, record.komi, record.result) == (11, 10, "White+15")
    assert dict(record.players) == {"Black": "Quasar", "White": "Aaron"}
    assert tags(record) == {
        "Site": "Abstract Play",
        "Date": "2026.06.08",
        "APGameId": "pletore#c4261ccf-3c22-4bbf-8ff5-a8511c4beab5",
        "APDateStart": "2026-06-08T18:55:11.601Z",
        "APDateEnd": "2026-07-02T14:22:31.958Z",
        "APDateGenerated": "2026-11-22T21:39:54.742Z",
        "APVariants": "Smaller board (11x11); Komi offer",
        "APKomiBid": "10",
        "APPie": "pied",
        "APBlackUserId": "ccb9e083-e7f2-4ba0-94b2-129793119f3e",
        "APWhiteUserId": "d61a00e3-8d9b-4dec-baf7-a7d34bfde27a",
        "APBlackScore": "58",
        "APWhiteScore": "73",
    }
    assert [str(move) for move in record.moves[:3]] == ["h8", "i8", "i2"]
    assert str(record.moves[36]) == "i5x"  # round 19, seat 0: 'i5x' flips i5


# --- the pie --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("flag", "pie"),
    [({}, "kept"), ({"pied": True}, "pied"), ({"pie-invoked": True}, "pie-invoked")],
)
def test_the_pie_is_the_players_colours_whether_or_not_seats_were_swapped(
    flag: dict[str, Any], pie: str
) -> None:
    obj = ap([["6", "pie"], ["f6", "resign"]], results=(1, 0), **flag)
    record = read(obj)
    # The players are listed in their final seats: seat 1 is Black whatever the pie did.
    assert dict(record.players) == {"Black": "Ana", "White": "Bo"}
    assert tags(record)["APPie"] == pie
    assert [str(m) for m in record.moves] == ["f6"]  # the pie is no move
    report = adjudicate(record)
    assert (report.result, report.winner_player, report.swapped) == ("Black+R", "Ana", False)
    written, again = round_trip(record)
    assert written == obj and again == record


def test_a_swap_flag_without_a_pie_is_refused() -> None:
    error = error_of(ap([["6", "timeout"]], results=(1, 0), pied=True))
    assert (error.code, error.pointer) == ("bad-pie", "/header/pied")


def test_a_false_swap_flag_says_nothing() -> None:
    obj = ap([["6", "pie"], ["f6", "resign"]], results=(1, 0), pied=False)
    record = read(obj)
    assert tags(record)["APPie"] == "kept"
    assert round_trip(record)[0] == obj


# --- resignations and timeouts ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("results", "claimed"),
    [((0, 1), "White+R"), ((1, 0), "Black+R")],
    ids=["black-resigned-out-of-turn", "white-resigned-in-turn"],
)
def test_the_resigner_comes_from_the_results_not_the_column(
    results: tuple[int, int], claimed: str
) -> None:
    # After c3 it is White's turn: "resign" stands in White's column whoever resigned.
    record = read(ap([["5", "pie"], ["c3", "resign"]], results=results))
    report = adjudicate(record)
    assert (report.valid, report.result, report.termination) == (True, claimed, "resignation")
    assert record.where["Result"].pointer == "/moves/1/1"
    assert read(round_trip(record)[0]) == record


def test_a_timeout_before_any_stone() -> None:
    record = read(ap([["timeout"]], results=(0, 1)))
    assert (record.komi, record.turns, record.result) == (0, (), "White+T")
    assert tags(record)["APKomiBid"] == ""  # no bid was made
    report = adjudicate(record)
    assert (report.valid, report.winner_player, report.plies) == (True, "Bo", 0)
    written, again = round_trip(record)
    assert written["moves"] == [["timeout"]] and again == record


def test_a_timeout_between_the_bid_and_the_pie() -> None:
    record = read(ap([["7", "timeout"]], results=(1, 0)))
    assert (record.komi, record.result) == (7, "Black+T")
    assert "APPie" not in tags(record)
    assert round_trip(record)[0]["moves"] == [["7", "timeout"]]


def test_a_timeout_in_the_winner_s_column_contradicts_the_header() -> None:
    error = error_of(ap([["5", "pie"], ["c3", "timeout"]], results=(0, 1)))
    assert (error.code, error.pointer) == ("result-conflict", "/moves/1/1")


def test_a_finished_game_claims_the_margin_of_the_header_s_scores() -> None:
    fixture = load(FIXTURES[0])
    assert read(fixture).result == "White+15"
    fixture["header"]["players"][1]["score"] = 74  # one point more than the moves give
    report = adjudicate(read(fixture))
    assert report.errors[0]["code"] == "result-mismatch"
    assert report.errors[0]["pointer"] == "/header/players"
    del fixture["header"]["players"][1]["score"]
    assert read(fixture).result == "White"  # no margin without both scores
    assert adjudicate(read(fixture)).valid


def test_a_winner_without_an_ending_is_a_result_mismatch() -> None:
    report = adjudicate(read(ap([["5", "pie"], ["c3", "d4"]], results=(1, 0))))
    assert [e["code"] for e in report.errors] == ["result-mismatch"]


@pytest.mark.parametrize("word", ["draw", "abandoned"])
@pytest.mark.parametrize(
    ("before", "pointer"),
    [([], "/moves/0/0"), (["5"], "/moves/0/1"), (["5", "pie", "c3"], "/moves/1/1")],
)
def test_draws_and_abandoned_games_are_refused(word: str, before: list[str], pointer: str) -> None:
    entries = [*before, word]
    error = error_of(ap([entries[i : i + 2] for i in range(0, len(entries), 2)], results=(1, 1)))
    assert (error.code, error.pointer) == ("bad-result", pointer)


def test_equal_results_say_no_winner() -> None:
    error = error_of(ap([["5", "pie"], ["c3", "resign"]], results=(0, 0)))
    assert (error.code, error.pointer) == ("bad-result", "/header/players/1/result")


def test_nothing_may_follow_the_end() -> None:
    error = error_of(ap([["5", "pie"], ["resign", "c3"]], results=(0, 1)))
    assert (error.code, error.pointer) == ("syntax-error", "/moves/1/1")


# --- komi, variants, board size ------------------------------------------------------------


@pytest.mark.parametrize(("bid", "komi"), [("-0", 0), ("08", 8), ("-3", -3), ("122", 122)])
def test_odd_bids_give_their_value_and_are_kept_as_typed(bid: str, komi: int) -> None:
    record = read(ap([[bid, "pie"], ["f6", "resign"]], results=(1, 0)))
    assert (record.komi, tags(record)["APKomiBid"]) == (komi, bid)
    written, again = round_trip(record)
    assert written["moves"][0] == [bid, "pie"] and again == record


@pytest.mark.parametrize("bid", ["+5", "5.5", "seven", "123", "-123", "c3"])
def test_bids_the_site_refuses(bid: str) -> None:
    error = error_of(ap([[bid, "pie"], ["f6", "resign"]], results=(1, 0)))
    assert (error.code, error.pointer) == ("bad-komi", "/moves/0/0")


def test_a_game_without_komi_offer() -> None:
    obj = ap([["f6", "c3"], ["resign"]], results=(0, 1), variants=["No komi offer"])
    record = read(obj)
    assert (record.komi, record.size, "APKomiBid" in tags(record)) == (0, 13, False)
    assert [str(m) for m in record.moves] == ["f6", "c3"]
    assert adjudicate(record).result == "White+R"
    written, again = round_trip(record)
    assert written == obj and again == record
    error = error_of(ap([["f6", "pie"]], variants=["No komi offer"]))
    assert (error.code, error.pointer) == ("syntax-error", "/moves/0/1")


def test_the_pie_must_follow_the_bid() -> None:
    error = error_of(ap([["5", "c3"]]))
    assert (error.code, error.pointer) == ("syntax-error", "/moves/0/1")


@pytest.mark.parametrize(
    ("variants", "size"),
    [
        (None, 13),
        ([], 13),
        (["Komi offer"], 13),
        (["Default board (13x13)", "Komi offer"], 13),
        (["Larger board (15x15)"], 15),
        (["Largest board (17x17)"], 17),
        (["size-11"], 11),
    ],
)
def test_the_board_size_comes_from_the_variants(variants: list[str] | None, size: int) -> None:
    obj = ap([["5", "pie"], ["c3", "resign"]], results=(1, 0), variants=variants or [])
    if variants is None:
        del obj["header"]["game"]["variants"]
    record = read(obj)
    assert record.size == size
    assert round_trip(record)[1] == record


@pytest.mark.parametrize(
    ("variants", "pointer"),
    [
        (["Board (9x11)"], "/header/game/variants/0"),
        (["Smaller board (11x11)", "Larger board (15x15)"], "/header/game/variants/1"),
        (["Huge board (25x25)"], "/header/game/variants/0"),
    ],
)
def test_board_sizes_that_cannot_be(variants: list[str], pointer: str) -> None:
    error = error_of(ap([["5", "pie"]], variants=variants))
    assert (error.code, error.pointer) == ("bad-size", pointer)


# --- located errors -------------------------------------------------------------------------


def test_an_illegal_move_is_located_by_round_and_seat() -> None:
    report = adjudicate(read(ap([["6", "pie"], ["f6", "c3"], ["d9", "f6"]], results=(1, 0))))
    hints = report.errors[0].pop("suggestions")  # each located as the moves are
    assert isinstance(hints, list)
    assert {hint["pointer"] for hint in hints} <= {"/moves/2/1", "/moves/1/0"}
    assert report.errors == [
        {
            "code": "illegal-move",
            "message": "f6 is occupied",
            "ply": 4,
            "move": "f6",
            "pointer": "/moves/2/1",
        }
    ]
    report = adjudicate(read(ap([["f6", "f6"]], variants=["No komi offer"])))
    assert (report.errors[0]["ply"], report.errors[0]["pointer"]) == (2, "/moves/0/1")


@pytest.mark.parametrize(
    ("moves", "code", "pointer"),
    [
        ([["5", "pie"], ["c3", "zz"]], "syntax-error", "/moves/1/1"),
        ([["5", "pie"], ["c3", "pie"]], "syntax-error", "/moves/1/1"),
        ([["5", "pie"], ["l1"]], "off-board", "/moves/1/0"),
        ([["5", "pie"], ["c3", "c3xc5"]], "wrong-move-form", "/moves/1/1"),
        ([["5", "pie"], ["c3", None]], "schema", "/moves/1/1"),
        ([["5", "pie"], ["c3", {"move": "d4"}]], "schema", "/moves/1/1"),
        ([["5"], ["c3", "d4"]], "schema", "/moves/0"),
        ([["5", "pie", "c3"]], "schema", "/moves/0"),
        ([[]], "schema", "/moves/0"),
        ("c3", "schema", "/moves"),
    ],
)
def test_broken_move_lists(moves: Any, code: str, pointer: str) -> None:
    error = error_of(ap(moves))
    assert (error.code, error.pointer) == (code, pointer)


@pytest.mark.parametrize(
    ("change", "code", "pointer"),
    [
        (lambda o: o.pop("header"), "schema", ""),
        (lambda o: o.update(comment="x"), "schema", "/comment"),
        (lambda o: o["header"].pop("players"), "schema", "/header"),
        (
            lambda o: o["header"]["players"].append({"name": "Cy", "result": 0}),
            "schema",
            "/header/players",
        ),
        (lambda o: o["header"]["players"][0].pop("result"), "schema", "/header/players/0"),
        (
            lambda o: o["header"]["players"][0].update(result="1"),
            "schema",
            "/header/players/0/result",
        ),
        (
            lambda o: o["header"]["players"][0].update(score=True),
            "schema",
            "/header/players/0/score",
        ),
        (
            lambda o: o["header"]["game"].update(name="Homeworlds"),
            "unknown-game",
            "/header/game/name",
        ),
        (lambda o: o["header"]["game"].update(varaints=[]), "schema", "/header/game/varaints"),
        (lambda o: o["header"]["site"].update(url="x"), "schema", "/header/site/url"),
        (lambda o: o["header"].update({"date-start": "yesterday"}), "schema", "/header/date-start"),
        (lambda o: o["header"].update(unrated="no"), "schema", "/header/unrated"),
        (lambda o: o["header"].pop("date-end"), "schema", "/header"),
        (
            lambda o: o["header"]["players"][0].update(name="A\nB"),
            "malformed-tag",
            "/header/players/0/name",
        ),
    ],
)
def test_broken_headers(change: Any, code: str, pointer: str) -> None:
    obj = ap([["5", "pie"], ["resign"]], results=(0, 1))
    change(obj)
    error = error_of(obj)
    assert (error.code, error.pointer) == (code, pointer)


def test_errors_carry_the_record_index_and_file() -> None:
    good, bad = ap([["5", "pie"], ["resign"]], results=(0, 1)), ap([["5", "pie"], ["zz"]])
    items = list(read_records(json.dumps([good, bad]), file="downloads.json"))
    assert isinstance(items[0], Record)
    assert isinstance(items[1], RecordError)
    assert (items[1].index, items[1].file, items[1].pointer) == (1, "downloads.json", "/moves/1/0")


# --- telling the formats apart --------------------------------------------------------------


def test_json_records_are_told_apart_by_shape() -> None:
    ours = {"game": "Pletore", "size": 5, "komi": 0, "moves": [{"type": "place", "at": "c3"}]}
    theirs = ap([["5", "pie"], ["c3", "resign"]], results=(1, 0))
    first, second = read_records(json.dumps([ours, theirs]))
    assert isinstance(first, Record) and isinstance(second, Record)
    assert (first.size, second.size) == (5, 11)
    assert parse_record(json.dumps(theirs)) == second
    [forced] = read_records(json.dumps(ours), fmt="abstractplay")
    assert isinstance(forced, RecordError) and forced.code == "schema"


# --- everything is kept ---------------------------------------------------------------------


def test_every_field_is_kept_through_grn() -> None:
    obj = ap([["-2", "pie"], ["c3", "resign"]], results=(1, 0), scores=(1, -1.5))
    obj["header"].update(event="Spring Cup", round="3", unrated=True, startingPosition="x")
    obj["header"]["site"]["gameid"] = 12345
    obj["header"]["players"][0].update(is_ai=False, rating=1500)
    record = read(obj)
    assert tags(record)["APGameId"] == "12345"
    assert json.loads(tags(record)["APExtra"]) == {
        "header": {"startingPosition": "x"},
        "players": [{"rating": 1500}, {}],
    }
    grn = write_grn(record)
    again = json.loads(write_abstractplay(parse_grn(grn)))
    obj["header"]["site"]["gameid"] = "12345"  # an id is written back as text
    assert again == obj
    assert write_grn(read(again)) == grn


@pytest.mark.parametrize(
    ("variants", "tag"),
    [
        (["Smaller board (11x11)", "Komi offer"], "Smaller board (11x11); Komi offer"),
        ([], ""),
        (["Komi offer", "a; b"], '["Komi offer", "a; b"]'),
        ([""], '[""]'),
    ],
)
def test_variants_are_kept_exactly(variants: list[str], tag: str) -> None:
    obj = ap([["5", "pie"], ["resign"]], results=(0, 1), variants=variants)
    record = read(obj)
    assert tags(record)["APVariants"] == tag
    assert round_trip(record)[0] == obj


def test_variants_are_distinct() -> None:
    error = error_of(ap([["5", "pie"]], variants=["Komi offer", "Komi offer"]))
    assert (error.code, error.pointer) == ("schema", "/header/game/variants/1")


# --- writing records that came from elsewhere ---------------------------------------------


LESSON = ROOT / "samples" / "pletore" / "valid" / "05-lesson-5x5.grn"


def test_a_grn_record_written_for_the_site() -> None:
    record = parse_grn(LESSON.read_text(encoding="utf-8"))
    written, again = round_trip(record)
    header = written["header"]
    assert header["game"] == {"name": "Pletore", "variants": ["Board (5x5)", "Komi offer"]}
    assert header["site"] == {"name": "?"}
    assert header["date-start"] == "2026-08-30T00:00:00.000Z"
    report = adjudicate(record)
    assert [(p["name"], p["score"], p["result"]) for p in header["players"]] == [
        ("player-11", report.scores["Black"], 0),  # type: ignore[index]
        ("player-05", report.scores["White"], 1),  # type: ignore[index]
    ]
    assert written["moves"][:2] == [["2", "pie"], ["e5", "a2"]]
    assert written["moves"][-1] == ["pass"]
    assert (again.size, again.komi, again.players, again.result) == (
        record.size,
        record.komi,
        record.players,
        record.result,
    )
    assert again.moves == record.moves
    assert {t.name: t.value for t in record.tags}.items() <= tags(again).items()


def test_what_the_site_cannot_hold_is_named() -> None:
    record = parse_grn(LESSON.read_text(encoding="utf-8").replace("1. e5", "{opening} 1. e5"))
    record = Record(**{**_fields(record), "tags": (*record.tags, Tag("Annotator", "x"))})
    assert abstractplay_losses(record) == ["1 comment(s)", "tag 'Annotator'"]
    assert abstractplay_losses(read(load(FIXTURES[0]))) == []


def _fields(record: Record) -> dict[str, Any]:
    return {name: getattr(record, name) for name in Record._fields}


def test_an_unknown_result_takes_the_rules_winner() -> None:
    record = parse_grn(LESSON.read_text(encoding="utf-8").replace("White+7", "*"))
    players = abstractplay_object(record)["header"]["players"]
    assert [p["result"] for p in players] == [0, 1]


def test_dates_come_from_the_date_tag_or_the_time_of_writing() -> None:
    record = read(ap([["5", "pie"], ["resign"]], results=(0, 1)))
    changed = Record(**{**_fields(record), "tags": _retagged(record, "Date", "2026.02.01")})
    assert abstractplay_object(changed)["header"]["date-start"] == "2026-02-01T00:00:00.000Z"
    bare = Record("Pletore", 11, komi=0, result="White+R")
    before = datetime.now(UTC).replace(microsecond=0)
    header = abstractplay_object(bare)["header"]
    written = datetime.fromisoformat(header["date-start"])
    assert before <= written <= datetime.now(UTC)
    assert header["date-end"] == header["date-generated"] == header["date-start"]


def _retagged(record: Record, name: str, value: str) -> tuple[Tag, ...]:
    return tuple(Tag(name, value) if t.name == name else t for t in record.tags)


@pytest.mark.parametrize(
    ("grn", "why"),
    [
        ('[Game "Pilo"]\n[Size "5"]\n\n1. c3 Blue+R', "Pletore only"),
        ('[Game "Pletore"]\n[Size "3"]\n[Komi "0"]\n[Setup "3/1,b,1/3"]\n\nWhite+R', "Setup"),
        ('[Game "Pletore"]\n[Size "3"]\n[Komi "11"]\n\nWhite+R', "komi"),
        ('[Game "Pletore"]\n[Size "5"]\n[Komi "0"]\n\n1. c3 White+F', "forfeit"),
        ('[Game "Pletore"]\n[Size "5"]\n[Komi "0"]\n\n1. c3 White+T', "to move"),
        ('[Game "Pletore"]\n[Size "5"]\n[Komi "0"]\n\n1. c3 *', "winner"),
    ],
)
def test_records_the_site_cannot_hold(grn: str, why: str) -> None:
    with pytest.raises(RecordError) as caught:
        abstractplay_object(parse_grn(grn))
    assert caught.value.code == "cannot-convert" and why in caught.value.message


def test_a_timeout_of_the_player_to_move_is_written() -> None:
    record = parse_grn('[Game "Pletore"]\n[Size "5"]\n[Komi "0"]\n\n1. c3 Black+T')
    assert abstractplay_object(record)["moves"] == [["0", "pie"], ["c3", "timeout"]]


# --- any legal game goes there and back -----------------------------------------------------


@st.composite
def ended_games(draw: st.DrawFn) -> Record:
    """A random legal Pletore game with players, ended by the rules, a resignation or a
    timeout of the player to move."""
    game = draw(legal_games("Pletore", max_plies=40))
    result = game.result
    if result == "*":
        how = draw(st.sampled_from("RT"))
        loser = len(game.turns) % 2 if how == "T" else draw(st.integers(0, 1))
        result = f"{('Black', 'White')[1 - loser]}+{how}"
    names = st.text(st.characters(blacklist_categories=("Cs", "Cc")), min_size=1, max_size=8)
    players = (("Black", draw(names)), ("White", draw(names)))
    return Record(game.game, game.size, game.komi, None, players, (), game.turns, result)


@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(ended_games())
def test_any_ended_game_goes_to_the_site_and_back(record: Record) -> None:
    written, again = round_trip(record)
    assert (again.size, again.komi, again.players, again.moves, again.result) == (
        record.size,
        record.komi,
        record.players,
        record.moves,
        record.result,
    )
    assert adjudicate(again).result == adjudicate(record).result
    grn = write_grn(again)
    assert write_grn(read(json.loads(write_abstractplay(again)))) == grn
    assert all(isinstance(turn, Turn) for turn in again.turns)


def test_writing_does_not_change_the_record_read() -> None:
    original = load(FIXTURES[1])
    record = read(deepcopy(original))
    abstractplay_object(record)
    assert read(original) == record


# --- any input: a record or a located error ---------------------------------------------------

WORDS = ["c3", "d4", "e5", "k11", "c3x", "d4x", "pass", "button", "pie", "resign", "timeout"]
json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.sampled_from([10**400, 1e308 * 10, -0.0, 0.5])
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=12)
    | st.sampled_from([*WORDS, "-0", "08", "+5", "draw", "Pletore"]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner),
    max_leaves=12,
)


def _paths(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found = [path]
    if isinstance(value, dict):
        items: Any = value.items()
    elif isinstance(value, list):
        items = enumerate(value)
    else:
        return found
    for key, child in items:
        found.extend(_paths(child, (*path, key)))
    return found


def _same_kind(value: object) -> st.SearchStrategy[Any]:
    """Values of the JSON type ``value`` has: changes that more often still read."""
    if isinstance(value, bool):
        return st.booleans()
    if isinstance(value, int | float):
        return st.integers(-3, 3) | st.sampled_from([0.5, 1.0, 1e308 * 10])
    if isinstance(value, str):
        return st.sampled_from([*WORDS, "-0", "08", "+5", "draw", ""]) | st.text(max_size=6)
    return st.nothing()


@settings(max_examples=examples(300), deadline=None)
@given(st.data())
def test_any_change_to_a_record_gives_a_record_or_a_located_error(data: st.DataObject) -> None:
    obj = ap([["5", "pie"], ["c3", "d4"], ["e5", "resign"]], scores=(3, 4), event="Cup")
    path = data.draw(st.sampled_from(_paths(obj)[1:]))
    parent = obj
    for key in path[:-1]:
        parent = parent[key]
    if data.draw(st.booleans()) and isinstance(parent, dict):
        del parent[path[-1]]
    else:
        parent[path[-1]] = data.draw(_same_kind(parent[path[-1]]) | json_values)
    try:
        record = read(obj)
    except RecordError as err:
        assert err.pointer is not None and err.index == 0
        event(f"refused: {err.code}")
        return
    event("read")
    adjudicate(record)
    written, again = round_trip(record)
    assert write_grn(again) == write_grn(record)


@settings(max_examples=examples(100), deadline=None)
@given(json_values)
def test_any_json_value_gives_a_record_or_a_located_error(value: object) -> None:
    for item in read_records(json.dumps(value).encode(), fmt="abstractplay"):
        assert isinstance(item, Record) or item.pointer is not None or item.line is not None


def test_numbers_beyond_a_double_are_refused() -> None:
    text = json.dumps(ap([["5", "pie"], ["resign"]], results=(0, 1)))
    huge = text.replace('"result": 1', '"result": 1e999')
    [error] = read_records(huge.encode())
    assert isinstance(error, RecordError)
    assert (error.code, error.pointer) == ("schema", "/header/players/1/result")


opening = st.sampled_from([[["5", "pie"]], [["-0", "pie"]], [["08"]], [["7", "timeout"]], []])


@settings(max_examples=examples(300), deadline=None)
@given(
    opening,
    st.lists(st.lists(st.sampled_from(WORDS), min_size=2, max_size=2), max_size=5),
    st.lists(st.sampled_from(WORDS), max_size=1),
    st.sampled_from([(0, 1), (1, 0)]),
    st.sampled_from([None, ["No komi offer"], ["Larger board (15x15)"], []]),
    st.sampled_from([{}, {"pied": True}, {"pie-invoked": True}]),
)
def test_every_readable_record_is_a_fixed_point(
    first: list[list[str]],
    body: list[list[str]],
    last: list[str],
    results: tuple[int, int],
    variants: list[str] | None,
    flag: dict[str, Any],
) -> None:
    moves = [*first, *body, *([last] if last else [])]
    try:
        record = read(ap(moves, results=results, variants=variants, **flag))
    except RecordError as err:
        event(f"refused: {err.code}")
        return
    event(f"read: valid {adjudicate(record).valid}")
    grn = write_grn(record)
    written = json.loads(write_abstractplay(parse_grn(grn)))  # never cannot-convert
    assert_schema_valid(written)
    assert write_grn(read(written)) == grn
