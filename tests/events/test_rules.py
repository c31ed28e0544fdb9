"""The events' rules (``events/rules.py``) on plain values: no database, no Flask. Each rule
has a case it allows and a case it refuses, with the refusal's code."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

import pytest

from arbiter.service.events import common, rules
from arbiter.service.events.common import EventError
from arbiter.service.events.kinds import kind_named
from arbiter.service.events.paired import rules as paired_rules
from arbiter.service.events.rows import EventRow, RecordRow, TokenRow

AT = "2026-11-25T17:02:03.456Z"
EVENT = EventRow("ev", "Autumn Open", "Pilo", 5, None, True, AT, None, 3)
DIRECTOR = TokenRow("ev", 1, "a" * 64, "director", "director", AT, None)
PLAYER = TokenRow("ev", 2, "b" * 64, "upload", "player-07", AT, None)
HEADER = '{"game": "Pilo", "players": {"Blue": "a", "Orange": "b"}}'
RECORD = RecordRow("ev", 3, 1, 2, "accepted", None, 1, HEADER, "{}", "d" * 64)


def refused(code: str, rule: Callable[..., Any], *args: Any, **kwargs: Any) -> EventError:
    """The refusal of ``rule`` on these values, which must have ``code``."""
    with pytest.raises(EventError) as caught:
        rule(*args, **kwargs)
    assert caught.value.code == code, caught.value.message
    return caught.value


# --- who may change an event --------------------------------------------------------------


def test_a_change_needs_a_token() -> None:
    assert rules.change_token("arb_x") == "arb_x"
    assert "Authorization: Bearer" in refused("missing-token", rules.change_token, None).message
    refused("missing-token", rules.change_token, "")
    assert rules.read_token("arb_x") == "arb_x"
    assert refused("missing-token", rules.read_token, None).message == (
        "this needs the event's director token"
    )


def test_a_token_acts_for_its_event_with_its_role() -> None:
    assert rules.actor(DIRECTOR, "ev", "director") == rules.Actor("ev", 1, "director")
    assert rules.actor(PLAYER, "ev", "upload") == rules.Actor("ev", 2, "upload")
    assert rules.actor(DIRECTOR, "ev", "upload").role == "director"  # the director uploads too
    refused("bad-token", rules.actor, None, "ev", "upload")
    revoked = refused("revoked-token", rules.actor, replace(PLAYER, revoked_at=AT), "ev", "upload")
    assert AT in revoked.message
    refused("wrong-event", rules.actor, DIRECTOR, "other", "director")
    refused("not-allowed", rules.actor, PLAYER, "ev", "director")


def test_a_revoked_token_of_another_event_is_refused_as_revoked_first() -> None:
    refused("revoked-token", rules.actor, replace(PLAYER, revoked_at=AT), "other", "director")


def test_an_event_must_exist() -> None:
    assert rules.found_event(EVENT, "ev") is EVENT
    assert refused("no-such-event", rules.found_event, None, "nope").message == (
        "there is no event 'nope'"
    )


def test_a_finalised_event_is_read_only() -> None:
    rules.open_event(EVENT)
    finalised = replace(EVENT, finalised_at=AT)
    assert AT in refused("event-finalised", rules.open_event, finalised).message


# --- records and tokens by number ---------------------------------------------------------


def test_a_number_names_a_row_only_when_it_fits() -> None:
    assert rules.names_a_row(0) and rules.names_a_row(common.MAX_NUMBER)
    assert not rules.names_a_row(common.MAX_NUMBER + 1) and not rules.names_a_row(-1)


def test_a_record_or_a_token_must_exist() -> None:
    assert rules.found_record(RECORD, 3) is RECORD
    assert refused("no-such-record", rules.found_record, None, 9).message == (
        "the event has no record 9"
    )
    assert rules.found_token(PLAYER, 2) is PLAYER
    refused("no-such-token", rules.found_token, None, 9)


# --- what a change may do to a record -----------------------------------------------------


def test_only_a_pending_record_is_confirmed() -> None:
    rules.confirmable(replace(RECORD, status="pending"))
    assert refused("not-pending", rules.confirmable, RECORD).message == (
        "record 3 is accepted, not pending"
    )
    refused("not-pending", rules.confirmable, replace(RECORD, status="excluded"))


def test_only_a_record_not_excluded_is_excluded() -> None:
    rules.excludable(RECORD)
    rules.excludable(replace(RECORD, status="pending"))
    refused("already-excluded", rules.excludable, replace(RECORD, status="excluded"))


def test_only_an_excluded_record_is_reinstated() -> None:
    rules.reinstatable(replace(RECORD, status="excluded"))
    refused("not-excluded", rules.reinstatable, RECORD)
    refused("not-excluded", rules.reinstatable, replace(RECORD, status="pending"))


def test_only_a_readable_record_is_given_an_official_result() -> None:
    assert rules.correctable(RECORD) == "Pilo"
    refused("cannot-correct", rules.correctable, replace(RECORD, header=None))


@pytest.mark.parametrize(
    ("given", "game", "official"),
    [
        ("blue+f", "Pilo", "Blue+F"),
        (" Orange+R ", "Pilo", "Orange+R"),
        ("Blue", "Pilo", "Blue"),
        ("blue+2", "Pilo", "Blue+2"),
    ],
)
def test_an_official_result_is_a_finished_result_of_the_game(
    given: str, game: str, official: str
) -> None:
    assert rules.official_result(given, game) == official


@pytest.mark.parametrize("given", ["1-0", "*", "Red+R", "", None, 3, "Blue+" + "9" * 50, "  "])
def test_anything_else_is_no_official_result(given: object) -> None:
    error = refused("bad-result", rules.official_result, given, "Pilo")
    assert error.extra == {"field": "result"} and "or a margin" in error.message
    assert "a margin" not in refused("bad-result", rules.official_result, "x", "Implo").message


def test_only_an_official_result_is_taken_back() -> None:
    assert rules.clearable(replace(RECORD, official_result="Blue+F")) == "Blue+F"
    refused("no-official-result", rules.clearable, RECORD)


def test_a_players_records_wait_when_the_event_says_so() -> None:
    director, player = rules.Actor("ev", 1, "director"), rules.Actor("ev", 2, "upload")
    assert rules.upload_status(director, EVENT) == "accepted"
    assert rules.upload_status(player, EVENT) == "pending"
    assert rules.upload_status(player, replace(EVENT, confirm_uploads=False)) == "accepted"


# --- tokens, and the event's limits -------------------------------------------------------


def test_a_token_is_revoked_once_and_never_the_last_director_token() -> None:
    rules.revocable(PLAYER, directors=1)
    rules.revocable(DIRECTOR, directors=2)
    refused("already-revoked", rules.revocable, replace(PLAYER, revoked_at=AT), 1)
    assert "issue another" in refused("last-director-token", rules.revocable, DIRECTOR, 1).message


def test_an_event_has_a_bounded_number_of_tokens() -> None:
    assert rules.room_for_token(0) == 1
    assert rules.room_for_token(common.MAX_TOKENS - 1) == common.MAX_TOKENS
    refused("too-many-tokens", rules.room_for_token, common.MAX_TOKENS)


def test_an_event_holds_bounded_records_and_bytes() -> None:
    rules.room_for_upload(common.MAX_RECORDS, common.MAX_BYTES)
    refused("event-full", rules.room_for_upload, common.MAX_RECORDS + 1, 0)
    error = refused("event-full", rules.room_for_upload, 1, common.MAX_BYTES + 1)
    assert error.message == "an event holds at most 20000 records and 256 MiB of uploads"


def test_the_limits_are_read_when_the_rule_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(common, "MAX_RECORDS", 5)
    rules.room_for_upload(5, 0)
    refused("event-full", rules.room_for_upload, 6, 0)


def test_the_planned_rounds_are_not_below_those_played() -> None:
    rules.planned_rounds(4, played=4)
    rules.planned_rounds(None, played=4)  # not planned: nothing to compare
    assert refused("rounds-below-played", rules.planned_rounds, 3, 4).message.startswith(
        "4 rounds have been played"
    )


# --- the fields of a request --------------------------------------------------------------


def test_a_name_or_a_label_is_text_with_its_blanks_made_one_space() -> None:
    assert rules.name(" Autumn \t\u00a0 Open\n") == "Autumn Open"
    assert rules.label("player\u200907") == "player 07"
    assert rules.name("x" * common.MAX_NAME) == "x" * common.MAX_NAME
    for given in (None, "", " \u00a0\ufeff ", 7, ["x"]):
        assert refused("bad-field", rules.name, given).extra == {"field": "name"}
    too_long = refused("bad-field", rules.label, "x" * (common.MAX_LABEL + 1))
    assert too_long.message == "'label' is longer than 100 characters"


def test_a_reason_keeps_its_lines_and_may_be_optional() -> None:
    assert rules.reason("  wrong\n round \n") == "wrong\n round"
    assert rules.reason(None, required=False) is None
    assert refused("bad-field", rules.reason, None).extra == {"field": "reason"}
    refused("bad-field", rules.reason, "\n", required=False)
    refused("bad-field", rules.reason, "x" * (common.MAX_REASON + 1))


def test_a_game_is_named_in_any_case() -> None:
    assert rules.game("pIlO") == "Pilo"
    error = refused("bad-field", rules.game, "Chess")
    assert error.message == "'game' must be one of Pilo, Petrify, Implo, Pletore, Pilare"
    refused("bad-field", rules.game, None)


def test_the_planned_rounds_are_a_whole_number_from_1_to_999() -> None:
    assert [rules.rounds(value) for value in (1, 7, 7.0, 999, None)] == [1, 7, 7, 999, None]
    for given in (0, 1000, True, "7", 7.5, -1):
        assert refused("bad-field", rules.rounds, given).extra == {"field": "rounds"}


def test_the_tiebreaks_are_a_list_of_names() -> None:
    assert rules.tiebreaks(["wins", "sb"]) == "wins,sonneborn-berger"
    assert rules.tiebreaks(None) is None
    for given in ("wins", ["elo"], [1], {"wins": 1}):
        assert refused("bad-field", rules.tiebreaks, given).extra == {"field": "tiebreaks"}


def test_a_flag_is_true_or_false_and_a_role_one_of_two() -> None:
    assert rules.flag(False, "confirm_uploads") is False
    refused("bad-field", rules.flag, 1, "confirm_uploads")
    assert rules.role("upload") == "upload" and rules.role("director") == "director"
    assert refused("bad-field", rules.role, "admin").extra == {"field": "role"}


def test_a_new_event_has_a_name_a_game_and_nothing_unknown() -> None:
    made = rules.new_event({"name": " Open ", "game": "implo"})
    assert made == rules.NewEvent("Open", "Implo", None, None, True)
    assert refused("bad-field", rules.new_event, {"name": "x", "game": "Pilo", "x": 1}).extra == {
        "field": "x"
    }
    # the fields are checked in turn: the name before the game
    error = refused("bad-field", rules.new_event, {"game": "Chess"})
    assert error.extra == {"field": "name"}


def test_a_change_of_the_event_sets_its_editable_fields_in_the_order_given() -> None:
    asked = rules.event_changes({"rounds": 7.0, "name": " New ", "reason": " more "})
    assert list(asked.values.items()) == [("rounds", 7), ("name", "New")]
    assert asked.reason == "more"
    assert rules.event_changes({"tiebreaks": None}).values == {"tiebreaks": None}
    refused("bad-field", rules.event_changes, {"game": "Implo"})
    assert refused("bad-field", rules.event_changes, {"reason": "x"}).message == (
        "give one of name, rounds, tiebreaks, confirm_uploads"
    )
    error = refused("bad-field", rules.event_changes, {"rounds": 0, "name": ""})
    assert error.extra == {"field": "rounds"}  # the first field given is checked first


# --- what can be kept as text -------------------------------------------------------------


def test_a_text_holds_no_nul_and_no_lone_surrogate() -> None:
    assert rules.storable("Autumn Open \u00e9\U0001f600") and not rules.storable("a\x00b")
    assert not rules.storable("a\ud800") and not rules.storable("\udfff")
    for rule, field in ((rules.name, "name"), (rules.label, "label"), (rules.reason, "reason")):
        for given in ("a\x00b", "a\ud800", "\udc00 b"):
            error = refused("bad-field", rule, given)
            assert error.extra == {"field": field} and "NUL or a lone surrogate" in error.message


def test_a_file_name_fits_or_is_refused_never_cut() -> None:
    assert rules.file_name(None) is None
    longest = "x" * (common.MAX_FILE_NAME - 4) + ".grn"
    assert rules.file_name(longest) == longest
    for given in ("", "y" + longest, "a\x00.grn", "a\ud800.grn"):
        assert refused("bad-field", rules.file_name, given).extra == {"field": "file"}


def test_an_id_names_an_event_only_when_it_could_be_stored() -> None:
    for given in ("ev", "abcdefghijklm", "x" * common.MAX_EVENT_ID):
        assert rules.names_an_event(given) and rules.event_id(given) == given
    for given in ("", "\x00", "a\x00", "\ud800", "x" * (common.MAX_EVENT_ID + 1), "a\nb"):
        assert not rules.names_an_event(given)
        refused("no-such-event", rules.event_id, given)
    assert refused("no-such-event", rules.event_id, "y" * 1000).message == (
        f"there is no event '{'y' * 40}...'"
    )


# --- what an upload holds -----------------------------------------------------------------

GRN = b'[Game "Pilo"]\n[Size "6"]\n[Event "Autumn Open"]\n\n1. c3 d4 *\n'


@pytest.mark.parametrize(
    "data",
    [
        GRN,
        b"\xef\xbb\xbf" + GRN,  # a byte-order mark
        b'[{"game": "Pilo", "size": 6, "moves": [], "result": "*"}]',
        GRN.replace(b"Autumn", "Autumn \u00e9t\u00e9 \u00e0".encode("cp1252")),  # a few odd bytes
        '[Blue "J\u00f6rg"]\n'.encode() * 200,  # letters of two bytes, cut at 1 KiB
        b"",
        b"\n\t\r\f\v " * 300,
    ],
)
def test_text_is_taken_even_in_another_encoding(data: bytes) -> None:
    rules.text_source(data, "round-1.grn")


@pytest.mark.parametrize(
    ("data", "what"),
    [
        (b"\x89PNG\r\n\x1a\n" + bytes(range(256)), "a PNG image"),
        (b"\xff\xd8\xff\xe0\x00\x10JFIF" + b"\x80" * 5000, "a JPEG image"),
        (b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<< /Type /Catalog >>\n", "a PDF document"),
        (b"PK\x03\x04" + b"\x14" * 30, "a ZIP archive"),
        (b"\x00\x00\x00\x18ftypheic" + b"\x00" * 100, "ISO media"),
        ('[Game "Pilo"]'.encode("utf-16"), "UTF-16 text"),
        (GRN + b"\x00" + GRN, "NUL bytes"),
        (bytes(range(128, 256)) * 8, "are not UTF-8 text"),
        (b"[Game " + bytes(range(1, 32)) * 4, "are not UTF-8 text"),
    ],
)
def test_a_photo_a_document_or_junk_is_not_text(data: bytes, what: str) -> None:
    error = refused("not-text", rules.text_source, data, "scan.jpg")
    assert what in error.message and error.extra == {"file": "scan.jpg"}
    assert error.message.startswith("the file 'scan.jpg' is not text (")
    assert refused("not-text", rules.text_source, data, None).message.startswith("the body is")


def test_only_the_first_kib_is_looked_at() -> None:
    rules.text_source(GRN * 40 + b"\x00" * 5000, "long.grn")  # the reader reports the rest
    assert rules.SNIFFED == 1024


def test_a_record_counts_for_its_event_and_a_tag_that_differs_is_a_warning() -> None:
    tags = [["Event", " Autumn   Open "], ["Round", "1"]]
    assert rules.event_tag_warnings(tags, "Autumn Open") == ()
    (differs,) = rules.event_tag_warnings([["Event", "Spring Cup"]], "Autumn Open")
    assert differs.code == "event-tag-differs"
    assert differs.message == (
        "the record's Event tag names 'Spring Cup'; it counts for Autumn Open, the event it "
        "was uploaded to"
    )
    for missing in ([], [["Event", "  "]], [["Round", "1"]]):
        (none,) = rules.event_tag_warnings(missing, "Autumn Open")
        assert none.code == "no-event-tag" and "counts for Autumn Open" in none.message
    (long,) = rules.event_tag_warnings([["Event", "z" * 500]], "Autumn Open")
    assert len(long.message) < 250


# --- the event as it happens ------------------------------------------------------------


def test_a_check_in_is_for_a_round_not_yet_published_of_an_event_that_checks_in() -> None:
    checking = replace(EVENT, pairing="dutch", check_in=True)
    assert paired_rules.check_in_round(None, checking, 2) == 3
    assert paired_rules.check_in_round(4, checking, 2) == 4
    refused("round-already-paired", paired_rules.check_in_round, 2, checking, 2)
    refused("bad-field", paired_rules.check_in_round, 6, checking, 2)  # the event plans 5
    refused("no-check-in", paired_rules.check_in_round, None, replace(checking, check_in=False), 2)
    paired_rules.present_in(1, None, 3, 7)
    refused("bad-field", paired_rules.present_in, 4, None, 3, 7)  # a late entry from round 4
    refused("already-withdrawn", paired_rules.present_in, 1, 3, 3, 7)
    assert rules.new_event({"name": "A", "game": "Pilo", "pairing": "round-robin",
                            "check_in": True}).check_in  # fmt: skip
    open_event = rules.new_event({"name": "A", "game": "Pilo", "check_in": True})
    refused("bad-field", kind_named("none").created, open_event)  # only a paired event
    assert kind_named("dutch").created(replace(open_event, pairing="dutch", rounds=5)).check_in
    refused("bad-field", kind_named, "swiss")


def test_a_players_own_token_acts_for_that_player_only() -> None:
    paired_rules.for_player("director", None, 5, 2)
    paired_rules.for_player("player", 5, 5, 2)
    refused("not-your-player", paired_rules.for_player, "player", 6, 5, 2)
    refused("not-allowed", paired_rules.for_player, "upload", 5, 5, 2)
    assert paired_rules.reporter("player", 5, (5, 6)) == 5
    refused("not-your-board", paired_rules.reporter, "player", 7, (5, 6))
    refused("not-allowed", paired_rules.reporter, "upload", 5, (5, 6))
    refused("not-allowed", paired_rules.reporter, "director", None, (5, 6))
    assert rules.token_player(3, "player") == 3
    refused("bad-field", rules.token_player, None, "player")
    refused("bad-field", rules.token_player, 3, "director")
    assert rules.role("player") == "player"


def test_a_draft_is_published_once_and_takes_no_result_before() -> None:
    paired_rules.publishable(True, 2)
    refused("not-a-draft", paired_rules.publishable, False, 2)
    refused("no-such-round", paired_rules.publishable, None, 2)
    paired_rules.not_a_draft(False, 2)
    refused("round-is-draft", paired_rules.not_a_draft, True, 2)
    assert paired_rules.draft_field({"draft": True}) and not paired_rules.draft_field({})
    refused("bad-field", paired_rules.draft_field, {"draft": "yes"})
    refused("bad-field", paired_rules.draft_field, {"round": 2})


def test_a_board_with_a_result_takes_no_more_reports() -> None:
    from arbiter.service.events.paired.state import Outcome

    paired_rules.free_to_report(None, 1, 1)
    agreed = Outcome("1-0", 3, "reported", None, None, "players")
    assert (
        "both players'"
        in refused("board-has-a-result", paired_rules.free_to_report, agreed, 1, 1).message
    )
    given = Outcome("+-", 3, "forfeit", None, None, "director")
    assert (
        "the director's"
        in refused("board-has-a-result", paired_rules.free_to_report, given, 1, 1).message
    )
