"""Corrected copies (``arbiter.notation.repair``): the move at a ply replaced by its
canonical token, a note of what was written there, and nothing else of the text changed, in
GRN and JSON, for every game; and the errors of corrections that cannot be applied."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import arbiter
from arbiter.notation.ast import Location, Record
from arbiter.notation.repair import (
    BadCorrection,
    CannotLocate,
    CorrectionError,
    NoSuchPly,
    NoSuchRecord,
    UnreadableMove,
    apply_correction,
    correct,
    parse_correction,
    source_bytes,
    source_text,
)

ROOT = Path(__file__).resolve().parents[2]
VALID = sorted((ROOT / "samples").glob("*/valid/*.grn"))
BLITZ = (ROOT / "samples" / "pilo" / "valid" / "02-blitz-6x6.grn").read_text(encoding="utf-8")
SLIPPED = BLITZ.replace("3. e2 c2", "3. e1 c2")  # ply 5, e2 typed as e1: refused there


def record_of(text: str, index: int = 0) -> Record:
    found = list(arbiter.read_records(text.encode()))[index]
    assert isinstance(found, Record), found
    return found


def other_move(record: Record, ply: int) -> str:
    """A move of the record's own forms that differs from the one at ``ply``."""
    written = record.turns[ply - 1].move
    return next(str(t.move) for t in record.turns if t.move != written and str(t.move) != "swap")


@pytest.mark.parametrize("path", VALID, ids=lambda p: f"{p.parent.parent.name}/{p.stem}")
def test_only_the_move_corrected_changes_in_grn_and_json(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    record = record_of(text)
    if len(record.turns) < 3:
        pytest.skip("too short to have another move")
    ply = len(record.turns) // 2 + 1
    move = other_move(record, ply)
    for written in (text, arbiter.write_json(record)):
        corrected = record_of(apply_correction(written, ply, move))
        before, after = record.turns, corrected.turns
        assert [t for i, t in enumerate(after) if i != ply - 1] == [
            t for i, t in enumerate(before) if i != ply - 1
        ]
        assert str(after[ply - 1].move) == str(arbiter.parse_move(record.game, move))
        note = f"was: {before[ply - 1].move}"
        old = before[ply - 1].comment
        assert after[ply - 1].comment == (note if old is None else f"{note}; {old}")
        assert corrected.replace(turns=before) == record


def test_a_grn_copy_differs_only_at_the_move() -> None:
    fixed = apply_correction(SLIPPED, 5, "E2")
    assert fixed == BLITZ.replace("3. e2 c2", "3. e2 {was: e1} c2")
    assert arbiter.adjudicate(arbiter.parse_record(fixed)).valid


def test_a_comment_after_the_move_keeps_its_text_after_the_note() -> None:
    with_comment = SLIPPED.replace("3. e1 c2", "3. e1\n{  in a hurry } c2")
    assert "3. e2\n{was: e1; in a hurry } c2" in apply_correction(with_comment, 5, "e2")
    empty = SLIPPED.replace("3. e1 c2", "3. e1{} c2")
    assert "3. e2{was: e1} c2" in apply_correction(empty, 5, "e2")


def test_line_ends_a_byte_order_mark_and_other_bytes_are_kept() -> None:
    crlf = "\ufeff" + SLIPPED.replace("\n", "\r\n")
    fixed = apply_correction(crlf, 5, "e2")
    assert fixed == "\ufeff" + BLITZ.replace("3. e2", "3. e2 {was: e1}").replace("\n", "\r\n")
    latin = source_text(SLIPPED.replace("player-21", "Jos\xe9").encode("latin-1"))
    with pytest.raises(CannotLocate, match="cannot be read"):
        apply_correction(latin, 5, "e2")
    fixed_bytes = source_bytes(apply_correction(latin, 5, "e2", line=10, column=22))
    assert b"Jos\xe9" in fixed_bytes and b"3. e2 {was: e1} c2" in fixed_bytes


def test_json_keeps_its_layout_and_the_comment() -> None:
    record = record_of(SLIPPED)
    moves = [{"type": "place", "at": str(t.move)} for t in record.turns[:6]]
    moves[4]["comment"] = "in a hurry"
    document = {"game": "Pilo", "size": 6, "moves": moves}
    for text in (json.dumps(document), json.dumps(document, separators=(",", ":"))):
        fixed = apply_correction(text, 5, "e2")
        assert json.loads(fixed)["moves"][4] == {
            "type": "place",
            "at": "e2",
            "comment": "was: e1; in a hurry",
        }
        undone = fixed.replace('"e2", "comment": "was: e1; ', '"e1", "comment": "')
        assert undone.replace('"e2","comment":"was: e1; ', '"e1","comment":"') == text
    pretty = arbiter.write_json(record)
    fixed = apply_correction(pretty, 5, "e2")
    expected = '    {\n      "type": "place",\n      "at": "e2",\n      "comment": "was: e1"\n    }'
    assert expected in fixed
    assert fixed.count("\n") == pretty.count("\n") + 1


def test_a_record_of_an_array_or_of_a_grn_file_is_picked_by_index() -> None:
    record = record_of(SLIPPED)
    array = arbiter.write_json([record, record])
    fixed = json.loads(apply_correction(array, 5, "e2", index=1))
    assert fixed[0]["moves"][4] == {"type": "place", "at": "e1"}
    assert fixed[1]["moves"][4]["comment"] == "was: e1"
    two = SLIPPED + "\n" + SLIPPED
    assert apply_correction(two, 5, "e2", index=1) == SLIPPED + "\n" + apply_correction(
        SLIPPED, 5, "e2"
    )
    with pytest.raises(NoSuchRecord, match="no record 3"):
        apply_correction(two, 5, "e2", index=2)


def test_a_record_that_cannot_be_read_is_corrected_at_the_place_given() -> None:
    unreadable = BLITZ.replace("3. e2 c2", "3. 2e c2")
    with pytest.raises(CannotLocate, match="syntax-error"):
        apply_correction(unreadable, 5, "e2")
    assert apply_correction(unreadable, 5, "e2", line=10, column=22) == BLITZ.replace(
        "3. e2 c2", "3. e2 {was: 2e} c2"
    )
    off_board = arbiter.write_json(record_of(BLITZ)).replace('"at": "e2"', '"at": "z9"', 1)
    fixed = apply_correction(off_board, 5, "e2", pointer="/moves/4/at")
    assert json.loads(fixed)["moves"][4] == {"type": "place", "at": "e2", "comment": "was: z9"}
    assert arbiter.adjudicate(arbiter.parse_record(fixed)).valid


@pytest.mark.parametrize(
    ("ply", "move", "error", "message"),
    [
        (99, "e2", NoSuchPly, "there is no ply 99: the record has 51 plies"),
        (0, "e2", NoSuchPly, "plies are counted from 1"),
        (5, "z9", UnreadableMove, "'z9' is no move of Pilo"),
        (5, "g1", UnreadableMove, "g1 is off the 6×6 board"),
        (5, "c3:nne", UnreadableMove, "a sowing move, which Pilo does not have"),
        (5, "e 2", UnreadableMove, "is no move of Pilo"),
        (5, "e1", CorrectionError, "ply 5 already holds e1"),
    ],
)
def test_corrections_that_cannot_be_applied_say_why(
    ply: int, move: str, error: type[Exception], message: str
) -> None:
    with pytest.raises(error, match=message.replace("(", r"\(")) as raised:
        apply_correction(SLIPPED, ply, move)
    assert isinstance(raised.value, CorrectionError) and isinstance(raised.value, ValueError)


def test_the_place_given_must_hold_a_move() -> None:
    unreadable = BLITZ.replace("3. e2 c2", "3. 2e c2")
    with pytest.raises(CannotLocate, match="no move stands at line 10, column 200"):
        apply_correction(unreadable, 5, "e2", line=10, column=200)
    with pytest.raises(CannotLocate, match="no move stands at line 99"):
        apply_correction(unreadable, 5, "e2", line=99, column=1)
    with pytest.raises(CannotLocate, match="no Game tag stands before the place given"):
        apply_correction(unreadable, 5, "e2", line=0, column=5)


def test_abstract_play_records_are_not_corrected_in_place() -> None:
    download = ROOT / "samples" / "pletore" / "valid" / "08-abstractplay-11x11-pie-swapped.json"
    text = download.read_text(encoding="utf-8")
    with pytest.raises(CannotLocate, match="Abstract Play record cannot hold"):
        apply_correction(text, 3, "a1")


def test_correct_says_what_it_replaced() -> None:
    done = correct(SLIPPED, 5, "E2")
    assert (done.ply, done.move, done.written) == (5, "e2", "e1")


@pytest.mark.parametrize(
    ("text", "parsed"),
    [
        ("23:c4", (23, "c4", Location())),
        (" 5:d4/e5/a1:b2@7:13 ", (5, "d4/e5/a1:b2", Location(7, 13))),
        ("3:c3:nne@/moves/2", (3, "c3:nne", Location(pointer="/moves/2"))),
    ],
)
def test_corrections_are_written_ply_colon_move(
    text: str, parsed: tuple[int, str, Location]
) -> None:
    assert parse_correction(text) == parsed


@pytest.mark.parametrize("text", ["c4", "23", "23:", ":c4", "x:c4", "23:c4@7", "1234567890:c4"])
def test_other_shapes_are_no_corrections(text: str) -> None:
    with pytest.raises(BadCorrection, match="PLY:MOVE"):
        parse_correction(text)
