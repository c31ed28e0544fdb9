"""Text slips copied from paper scoresheets (spec/hints.md, "Text slips"): each is named with
its own code, an exact message and its place, the record is read as if the meant text had
been written, so that its report still replays the game, and it stays invalid."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

import arbiter
from arbiter.adjudicator.replay import Report, error_report
from arbiter.notation import grn_reader, grn_scan
from arbiter.notation.errors import RecordError
from arbiter.notation.grn_reader import parse_grn_record
from arbiter.notation.slips import meant_result
from arbiter.service.cli.main import main
from tests.test_extra_form import GAME as HOP_GAME
from tests.test_extra_form import Jump, hop_registered

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "samples"
BLITZ = (SAMPLES / "pilo/valid/02-blitz-6x6.grn").read_text(encoding="utf-8")
"""A real record: Pilo 6×6, 51 plies, Blue+5, each slip below written into it once."""
IMPLO = (SAMPLES / "implo/valid/06-resigned-9x9.grn").read_text(encoding="utf-8")
PLETORE = (SAMPLES / "pletore/valid/05-lesson-5x5.grn").read_text(encoding="utf-8")

PILO_FORMS = "Blue+N, Orange+N (N: the margin), Blue, Orange, a colour with +R, +T or +F, or *"
"""How a bad-result message of Pilo says which results the game has."""


def slipped(text: str, written: str, slip: str) -> bytes:
    """The bytes of ``text`` with its one ``written`` copied as ``slip``."""
    assert text.count(written) == 1, written
    return text.replace(written, slip).encode("utf-8")


def the_error(data: bytes) -> RecordError:
    """The error that reading ``data`` (one record) gives, through the library's front door."""
    [item] = arbiter.read_records(data)
    assert isinstance(item, RecordError), item
    return item


def fact(report: Report) -> tuple[object, ...]:
    """What a report says of the game: plies, official result, winner, final position."""
    return report.plies, report.result, report.winner_player, report.final_position


def official(text: str) -> Report:
    [record] = arbiter.read_records(text.encode("utf-8"))
    assert isinstance(record, arbiter.Record)
    return arbiter.adjudicate(record)


# --- each slip: the exact bytes, code, place and message ------------------------------------

SLIPS = [
    pytest.param(
        slipped(BLITZ, "7. f1", "7 f1"),
        ("missing-dot", 10, 55, "move number '7' has no dot: write '7.'"),
        id="missing-dot",
    ),
    pytest.param(
        slipped(BLITZ, "15. d5 b1xd1", "15. d5 b1-d1"),
        ("dash-for-x", 11, 61, "'b1-d1' is written with '-': a capturing move is written 'b1xd1'"),
        id="dash-for-x",
    ),
    pytest.param(
        slipped(BLITZ, "15. d5 b1xd1", "15. d5 B1-D1"),
        ("dash-for-x", 11, 61, "'B1-D1' is written with '-': a capturing move is written 'b1xd1'"),
        id="dash-for-x-capitals",
    ),
    pytest.param(
        slipped(BLITZ, '[Game "Pilo"]', '[game "Pilo"]'),
        ("tag-case", 1, 1, "tag 'game' is 'Game' written in another case"),
        id="tag-case-game",
    ),
    pytest.param(
        slipped(BLITZ, '[Size "6"]', '[SIZE "6"]'),
        ("tag-case", 2, 1, "tag 'SIZE' is 'Size' written in another case"),
        id="tag-case-size",
    ),
    pytest.param(
        slipped(BLITZ, '[Blue "player-21"]', '[blue "player-21"]'),
        ("tag-case", 6, 1, "tag 'blue' is 'Blue' written in another case"),
        id="tag-case-player",
    ),
    pytest.param(
        slipped(BLITZ, '[Event "Friday blitz"]', "[Event “Friday blitz”]"),
        (
            "curly-quotes",
            3,
            8,
            "curly quotes “…” around the value of tag 'Event': GRN needs straight quotes \"…\"",
        ),
        id="curly-quotes",
    ),  # fmt: skip
    pytest.param(
        slipped(BLITZ, '[Round "5"]', "[Round ‘5’]"),
        (
            "curly-quotes",
            5,
            8,
            "curly quotes ‘…’ around the value of tag 'Round': GRN needs straight quotes \"…\"",
        ),
        id="curly-single-quotes",
    ),  # fmt: skip
    pytest.param(
        slipped(BLITZ, '[Event "Friday blitz"]', "[Event „Friday blitz“]"),
        (
            "curly-quotes",
            3,
            8,
            "curly quotes „…“ around the value of tag 'Event': GRN needs straight quotes \"…\"",
        ),
        id="low-high-quotes",
    ),  # fmt: skip
]


@pytest.mark.parametrize(("data", "expected"), SLIPS)
def test_a_slip_is_named_in_its_place(data: bytes, expected: tuple[str, int, int, str]) -> None:
    error = the_error(data)
    assert (error.code, error.line, error.column, error.message) == expected
    assert error.record is not None and not error.more


@pytest.mark.parametrize(("data", "expected"), SLIPS)
def test_a_slip_is_read_as_meant_so_the_report_replays_the_game(
    data: bytes, expected: tuple[str, int, int, str]
) -> None:
    report = error_report(the_error(data))
    assert (
        fact(report) == fact(official(BLITZ)) == (51, "Blue+5", "player-21", report.final_position)
    )
    code, line, column, message = expected
    assert report.errors == [{"code": code, "message": message, "line": line, "column": column}]
    assert (report.valid, report.claimed_result, report.claim_ok) == (False, "Blue+5", True)


@pytest.mark.parametrize(("data", "expected"), SLIPS)
def test_both_paths_of_the_reader_read_a_slip_alike(
    data: bytes, expected: tuple[str, int, int, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    text = data.decode("utf-8")
    fast = _read(text)
    monkeypatch.setattr(grn_reader, "scan", lambda text, shift=0: None)
    assert _read(text) == fast


def _read(text: str) -> tuple[object, ...]:
    try:
        parse_grn_record(text)
    except RecordError as err:
        return err.code, err.message, err.line, err.column, err.record
    raise AssertionError("a slip is an error")


def test_the_record_read_on_is_the_record_meant() -> None:
    meant = official(BLITZ)
    for param in SLIPS:
        data = param.values[0]
        assert isinstance(data, bytes)
        record = the_error(data).record
        assert record is not None and arbiter.adjudicate(record).to_dict() == meant.to_dict()


def test_a_tag_in_another_case_beside_the_tag_itself_is_an_ordinary_tag() -> None:
    text = BLITZ.replace('[Size "6"]', '[Size "6"]\n[size "seven"]')
    [record] = arbiter.read_records(text)
    assert isinstance(record, arbiter.Record) and record.tag("size") == "seven"
    black = BLITZ.replace('[Round "5"]', '[black "someone"]')  # not a colour of Pilo
    [other] = arbiter.read_records(black)
    assert isinstance(other, arbiter.Record) and other.tag("black") == "someone"


def test_a_result_tag_in_another_case_is_the_claim() -> None:
    data = slipped(BLITZ, '[Result "Blue+5"]', '[result "Orange+5"]')
    report = error_report(the_error(data))
    assert [e["code"] for e in report.errors] == ["tag-case", "result-conflict"]


def test_several_slips_are_each_named_in_order() -> None:
    text = BLITZ.replace("[Game", "[GAME").replace("7. f1", "7 f1").replace("b1xd1", "b1-d1")
    error = the_error(text.encode())
    named = [(e.code, e.line) for e in (error, *error.more)]
    assert named == [("tag-case", 1), ("missing-dot", 10), ("dash-for-x", 11)]
    assert fact(error_report(error)) == fact(official(BLITZ))


def test_a_missing_dot_before_the_second_players_turn_is_also_a_wrong_number() -> None:
    error = the_error(slipped(BLITZ, "7. f1 a2", "7. f1 7 a2"))
    assert [(e.code, e.column) for e in (error, *error.more)] == [
        ("missing-dot", 61),
        ("bad-move-number", 61),
    ]
    assert error.more[0].message == "move number '7' stands before ply 14, which takes '7...'"


# --- a dash is a slip only where a capture is meant -------------------------------------------


def test_a_dash_in_a_game_without_captures_is_a_syntax_error() -> None:
    error = the_error(slipped(PLETORE, "2. c1 e3", "2. c1-e3"))
    assert (error.code, error.line, error.column) == ("syntax-error", 10, 13)
    assert error.message == "unexpected 'c1-e3': not a move, move number, comment or result"


@pytest.fixture
def hop() -> Iterator[None]:
    """The module of tests/test_extra_form.py registered: a jump is written ``b2-d2``."""
    with hop_registered():
        yield


@pytest.mark.usefixtures("hop")
def test_a_registered_move_form_written_with_a_dash_is_no_slip() -> None:
    record = arbiter.parse_record(HOP_GAME)
    assert isinstance(record.turns[2].move, Jump)
    pilo = the_error(slipped(BLITZ, "15. d5 b1xd1", "15. d5 b1-d1"))
    assert (pilo.code, pilo.message) == (
        "wrong-move-form",
        "'b1-d1' is a jump, which Pilo does not have",
    )


# --- results of other games ---------------------------------------------------------------------

NO_RESULT_TAG = BLITZ.replace('[Result "Blue+5"]\n', "")


@pytest.mark.parametrize(
    ("text", "ending", "expected"),
    [
        (NO_RESULT_TAG, "1-0", f"'1-0' is not a result of Pilo: write {PILO_FORMS}"),
        (NO_RESULT_TAG, "0-1", f"'0-1' is not a result of Pilo: write {PILO_FORMS}"),
        (NO_RESULT_TAG, "1/2-1/2", f"'1/2-1/2' is not a result of Pilo: write {PILO_FORMS}"),
        (NO_RESULT_TAG, "½-½", f"'½-½' is not a result of Pilo: write {PILO_FORMS}"),
        (BLITZ, "1-0", f"'1-0' is not a result of Pilo: write {PILO_FORMS}"),
        (
            NO_RESULT_TAG,
            "Blue wins",
            f"'Blue wins' is not a result of Pilo: write {PILO_FORMS}; did you mean 'Blue'?",
        ),
        (
            NO_RESULT_TAG,
            "blue won by 5 points",
            f"'blue won by 5 points' is not a result of Pilo: write {PILO_FORMS}; did you mean "
            "'Blue+5'?",
        ),
        (
            NO_RESULT_TAG,
            "Orange resigns",
            f"'Orange resigns' is not a result of Pilo: write {PILO_FORMS}; did you mean 'Blue+R'?",
        ),
        (NO_RESULT_TAG, "Black wins", f"'Black wins' is not a result of Pilo: write {PILO_FORMS}"),
    ],
)
def test_a_result_of_another_game_ending_the_movetext_says_this_games_forms(
    text: str, ending: str, expected: str
) -> None:
    data = slipped(text, "26. pass Blue+5", f"26. pass {ending}")
    error = the_error(data)
    line = text[: text.index("26. pass")].count("\n") + 1  # 13, or 12 without the Result tag
    assert (error.code, error.line, error.column, error.message) == (
        "bad-result",
        line,
        57,
        expected,
    )
    report = error_report(error)
    assert fact(report) == fact(official(BLITZ))
    assert (report.valid, report.claimed_result, report.claim_ok) == (False, None, None)


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("1-0", f"'1-0' is not a result of Pilo: write {PILO_FORMS}"),
        ("Blue wins", f"'Blue wins' is not a result of Pilo: write {PILO_FORMS}; did you "
         "mean 'Blue'?"),
        ("Orange won on time", f"'Orange won on time' is not a result of Pilo: write {PILO_FORMS}; "
         "did you mean 'Orange+T'?"),
    ],
)  # fmt: skip
def test_a_result_of_another_game_in_the_result_tag_says_this_games_forms(
    value: str, expected: str
) -> None:
    data = slipped(BLITZ, "26. pass Blue+5", "26. pass").replace(b"Blue+5", value.encode())
    error = the_error(data)
    assert (error.code, error.line, error.column, error.message) == ("bad-result", 8, 9, expected)
    assert fact(error_report(error)) == fact(official(BLITZ))


def test_each_game_says_its_own_forms() -> None:
    implo = the_error(slipped(IMPLO, "16. g7 Black+R", "16. g7 White resigns"))
    assert implo.message == (
        "'White resigns' is not a result of Implo: write Black, White, a colour with +R, +T or "
        "+F, or *; did you mean 'Black+R'?"
    )
    assert (implo.code, implo.line, implo.column) == ("bad-result", 12, 24)
    assert error_report(implo).plies == 31
    pletore = the_error(slipped(PLETORE, "13. pass White+7", "13. pass 0-1"))
    assert pletore.message == (
        "'0-1' is not a result of Pletore: write Black+N, White+N (N: the margin, which may "
        "end in .5), Black, White, a colour with +R, +T or +F, or *"
    )


def test_what_a_result_in_words_means_only_when_certain() -> None:
    pilo = arbiter.games()[0]
    assert pilo.name == "Pilo"
    meant = {
        text: meant_result(text, pilo)
        for text in ["Blue wins", "ORANGE WON", "Blue lost", "Orange forfeits", "Blue wins by 3",
                     "Blue won by resignation", "Blue wins by 2.5", "Blue wins big", "Red wins",
                     "Blue", "Blue wins by 03"]
    }  # fmt: skip
    assert meant == {
        "Blue wins": "Blue",
        "ORANGE WON": "Orange",
        "Blue lost": "Orange",
        "Orange forfeits": "Blue+F",
        "Blue wins by 3": "Blue+3",
        "Blue won by resignation": "Blue+R",
        "Blue wins by 2.5": None,  # Pilo has no half points
        "Blue wins big": None,
        "Red wins": None,
        "Blue": None,
        "Blue wins by 03": None,
    }


def test_a_result_after_the_result_is_a_syntax_error() -> None:
    error = the_error(slipped(BLITZ, "26. pass Blue+5", "26. pass Blue+5 1-0"))
    assert (error.code, error.line, error.column) == ("syntax-error", 13, 64)
    assert error.message == "unexpected '1-0' after the result; the result ends the movetext"


def test_a_result_in_words_inside_a_comment_is_left_alone() -> None:
    [record] = arbiter.read_records(
        slipped(BLITZ, "26. pass Blue+5", "26. pass {Blue wins} Blue+5")
    )
    assert isinstance(record, arbiter.Record) and record.turns[-1].comment == "Blue wins"


# --- bytes that are not UTF-8 -----------------------------------------------------------------

WINDOWS = BLITZ.replace("player-21", "José Núñez").encode("cp1252")
"""The record saved as Windows-1252 (an editor's default on many machines)."""


def test_bytes_that_are_not_utf8_say_how_to_save_the_file() -> None:
    error = the_error(WINDOWS)
    assert (error.code, error.line, error.column) == ("encoding", 6, 11)
    assert error.message == (
        "the bytes are not UTF-8 (byte 0xe9): save the file as UTF-8 (in most editors: Save As, "
        "Encoding: UTF-8)"
    )
    assert error.record is None


def test_a_file_of_another_encoding_is_read_when_it_is_named(tmp_path: Path) -> None:
    path = tmp_path / "round.grn"
    path.write_bytes(WINDOWS)
    with path.open("rb") as stream:
        for source in (path, WINDOWS, stream):
            [record] = arbiter.read_records(source, encoding="cp1252")
            assert isinstance(record, arbiter.Record)
            assert record.players == (("Blue", "José Núñez"), ("Orange", "player-04"))
    [again] = arbiter.read_records(WINDOWS.decode("cp1252"), encoding="cp1252")  # text: as is
    assert isinstance(again, arbiter.Record) and again.players[0][1] == "José Núñez"


def test_a_byte_the_encoding_does_not_have_is_still_an_encoding_error() -> None:
    data = BLITZ.replace("player-21", "player-\x81").encode("latin-1")
    [error] = arbiter.read_records(data, encoding="cp1252")
    assert isinstance(error, RecordError)
    assert (error.code, error.line, error.column) == ("encoding", 6, 15)
    assert error.message.startswith("the bytes are not UTF-8 (byte 0x81)")


def test_an_encoding_is_named_as_python_names_it() -> None:
    with pytest.raises(LookupError, match="'base64' is not a text encoding"):
        arbiter.read_records(WINDOWS, encoding="base64")
    with pytest.raises(LookupError, match="'no-such' is not a text encoding"):
        arbiter.read_records(WINDOWS, encoding="no-such")
    [record] = arbiter.read_records(WINDOWS, encoding="Windows-1252")
    assert isinstance(record, arbiter.Record)


WARNING = "arbiter: warning: the files are decoded from cp1252, not UTF-8 (--encoding)\n"


@pytest.fixture
def windows(tmp_path: Path) -> Path:
    """The record saved as Windows-1252, in a file."""
    path = tmp_path / "round.grn"
    path.write_bytes(WINDOWS)
    return path


def test_the_command_line_advises_utf8_and_reads_another_encoding_when_told(
    windows: Path,
) -> None:
    runner = CliRunner()
    refused = runner.invoke(main, ["validate", "--quiet", str(windows)])
    assert (refused.exit_code, refused.stdout) == (
        1,
        f"{windows}:6:11: encoding: the bytes are not UTF-8 (byte 0xe9): save the file as "
        "UTF-8 (in most editors: Save As, Encoding: UTF-8)\n",
    )
    read = runner.invoke(main, ["adjudicate", "--json", "--quiet", "--encoding", "cp1252",
                                str(windows)])  # fmt: skip
    assert (read.exit_code, read.stderr) == (0, WARNING)
    report = json.loads(read.stdout)
    assert (report["valid"], report["winner_player"]) == (True, "José Núñez")
    for jobs in ("1", "2"):
        converted = runner.invoke(main, ["convert", str(windows), "--to", "grn", "-j", jobs,
                                         "--encoding=Windows-1252"])  # fmt: skip
        assert (converted.exit_code, converted.stderr) == (0, WARNING)
        assert '[Blue "José Núñez"]' in converted.stdout
    shown = runner.invoke(main, ["show", str(windows), "--encoding", "cp1252"])
    assert (shown.exit_code, shown.stderr) == (0, WARNING)
    table = runner.invoke(main, ["standings", str(windows), "--encoding", "cp1252"])
    assert table.exit_code == 0 and "José Núñez" in table.stdout
    assert table.stderr.startswith(WARNING)


def test_an_encoding_python_does_not_know_is_a_usage_error(windows: Path) -> None:
    answer = CliRunner().invoke(main, ["validate", "--encoding", "base64", str(windows)])
    assert answer.exit_code == 2
    assert "Invalid value for '--encoding': 'base64' is not a text encoding" in answer.stderr


def test_the_fast_path_takes_a_tag_in_another_case_itself() -> None:
    text = BLITZ.replace('[Game "Pilo"]', '[game "Pilo"]')
    assert grn_scan.scan(text) is not None
    assert grn_scan.scan(BLITZ.replace("7. f1", "7 f1")) is None
