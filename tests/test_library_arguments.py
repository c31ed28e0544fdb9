"""The front door checks its arguments, so that the pure and the compiled build answer a
wrong argument alike (spec/build.md §3): this file runs on both (``make test``)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

import arbiter

CASES: list[tuple[str, Callable[[], object], type[Exception], str]] = [
    ("komi 6.5", lambda: arbiter.Game("Pletore", 9, komi=6.5), ValueError,  # type: ignore[arg-type]
     "komi must be a whole number, not 6.5"),
    ("komi '6'", lambda: arbiter.Game("Pletore", 9, komi="6"), ValueError,  # type: ignore[arg-type]
     "komi must be a whole number, not '6'"),
    ("size 6.0", lambda: arbiter.Game("Pilo", 6.0), ValueError,  # type: ignore[arg-type]
     "Pilo is played on sizes 3 to 19, not 6.0"),
    ("size '6'", lambda: arbiter.Game("Pilo", "6"), ValueError,  # type: ignore[arg-type]
     "Pilo is played on sizes 3 to 19, not '6'"),
    ("size True", lambda: arbiter.Game("Pilo", True), ValueError,
     "Pilo is played on sizes 3 to 19, not True"),
    ("setup 5", lambda: arbiter.Game("Pilo", 4, setup=5), TypeError,  # type: ignore[arg-type]
     "a setup is a position's text or its ranks, not int"),
    ("setup of ints", lambda: arbiter.Game("Pilo", 3, setup=[[1, 2, 3]] * 3), TypeError,  # type: ignore[list-item]
     "a square of a setup is a string of pieces, in [1, 2, 3]"),
    ("play 5", lambda: arbiter.Game("Pilo", 4).play(5), TypeError,  # type: ignore[arg-type]
     "a move is its text or a move object, not int"),
    ("play None", lambda: arbiter.Game("Pilo", 4).play(None), TypeError,  # type: ignore[arg-type]
     "a move is its text or a move object, not NoneType"),
    ("parse_move", lambda: arbiter.parse_move("Implo", 5), TypeError,  # type: ignore[arg-type]
     "parse_move takes a game's name and a move's text, both str"),
    ("read_records", lambda: list(arbiter.read_records(5)), TypeError,  # type: ignore[arg-type]
     "records are read from a path, text, bytes or a stream, not int"),
    ("adjudicate", lambda: arbiter.adjudicate("x"), TypeError,  # type: ignore[arg-type]
     "adjudicate takes a Record, not str"),
]  # fmt: skip


@pytest.mark.parametrize(("call", "kind", "message"), [c[1:] for c in CASES],
                         ids=[c[0] for c in CASES])  # fmt: skip
def test_a_wrong_argument_gets_the_same_error_in_both_builds(
    call: Callable[[], object], kind: type[Exception], message: str
) -> None:
    with pytest.raises(kind) as caught:
        call()
    assert str(caught.value) == message


def test_a_setup_given_as_lists_of_ranks_is_read_as_a_grid() -> None:
    # Lists on purpose: Game takes ranks as any sequences, though its annotation says a Grid
    # (tuples).
    ranks = [["b", "", ""], ["", "", ""], ["", "", "o"]]
    game = arbiter.Game("Pilo", 3, setup=ranks)  # pyright: ignore[reportArgumentType]
    assert str(game.position) == "2,o/3/b,2"
    assert game.play("b2") == arbiter.parse_move("Pilo", "b2")


def test_a_games_errors_name_the_ply_and_the_move_and_no_line() -> None:
    # A live game has no lines: "line 1, column 1" once came from reading the move's text.
    game = arbiter.Game("Pilo", size=7)
    game.play("c3")
    with pytest.raises(arbiter.InvalidRecordError) as caught:
        game.play("z9")
    error = caught.value
    assert str(error) == (
        "ply 2: off-board: 'z9' names a square that no board has (files a to s, ranks 1 to 19)"
    )
    assert (error.line, error.column, error.ply, error.move) == (None, None, 2, "z9")
    with pytest.raises(arbiter.NotationSyntaxError, match=r"^ply 2: syntax-error: '1c' is not"):
        game.play("1c")
    assert game.ply == 1


SAMPLE = Path(__file__).resolve().parents[1] / "samples" / "pilo" / "valid" / "02-blitz-6x6.grn"


def test_read_records_reads_a_str_as_text_and_a_path_as_a_file() -> None:
    (error,) = arbiter.read_records("1. c3 d4")  # text, though it holds no tags
    assert isinstance(error, arbiter.RecordError) and error.code == "missing-tag"
    assert list(arbiter.read_records("   ")) == list(arbiter.read_records("")) == []
    (record,) = arbiter.read_records(SAMPLE)
    assert isinstance(record, arbiter.Record) and record.result == "Blue+5"


def test_a_str_naming_a_file_is_still_read_as_the_file_with_a_warning() -> None:
    with pytest.warns(DeprecationWarning, match=r"pass pathlib\.Path"):
        (record,) = arbiter.read_records(str(SAMPLE))
    assert isinstance(record, arbiter.Record)
    with pytest.warns(DeprecationWarning), pytest.raises(FileNotFoundError):
        arbiter.read_records("no-such-round.grn")  # a mistyped name is not read as a record


def test_a_records_tags_are_read_by_name() -> None:
    (record,) = arbiter.read_records(SAMPLE)
    assert isinstance(record, arbiter.Record)
    assert (record.tag("Event"), record.tag("Round"), record.tag("Blue")) == (
        "Friday blitz",
        "5",
        "player-21",
    )
    assert (record.tag("Game"), record.tag("Size"), record.tag("Result")) == ("Pilo", "6", "Blue+5")
    assert record.tag("Site") is None and record.tag("Site", "-") == "-"
    assert record.tag("event") is None  # names are compared exactly, as in GRN
