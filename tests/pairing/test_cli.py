"""``arbiter pair`` (``spec/cli.md``): text and JSON, ``--check``, the located errors and the
exit statuses."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from arbiter.pairing import write_trf
from arbiter.service.cli.main import main
from tests.budget import examples
from tests.pairing.events import played, player_line


def run(*args: str, stdin: bytes | None = None) -> Result:
    return CliRunner().invoke(main, ["pair", *args], input=stdin)


@pytest.fixture
def event(tmp_path: Path) -> Path:
    path = tmp_path / "club.trf"
    path.write_text(write_trf(played(7, 2, planned=5), name="Club"))
    return path


def test_text_lists_the_boards_by_pairing_number(event: Path) -> None:
    done = run(str(event))
    assert done.exit_code == 0, done.output
    lines = done.output.splitlines()
    assert lines[0] == "round 3 (dutch): 3 board(s)"
    assert [line.split(":")[0].strip() for line in lines[1:4]] == ["1", "2", "3"]
    assert lines[4].startswith("bye: ") and lines[4].endswith("(1 point(s))")


def test_json_gives_round_boards_and_bye(event: Path) -> None:
    done = run(str(event), "--json")
    assert done.exit_code == 0, done.output
    document = json.loads(done.output)
    assert set(document) == {"round", "boards", "bye"} and document["round"] == 3
    assert [set(b) for b in document["boards"]] == [{"board", "first", "second"}] * 3
    seated = {p for b in document["boards"] for p in (b["first"], b["second"])}
    assert seated | {document["bye"]} == set(range(1, 8))


@pytest.mark.parametrize("end", ["\r\n", "\r"])
def test_every_line_end_pairs_the_same(event: Path, end: str) -> None:
    other = event.with_suffix(".other")
    other.write_bytes(event.read_text().replace("\n", end).encode())
    assert run(str(other), "--json").output == run(str(event), "--json").output


def test_standard_input_is_read_for_a_dash(event: Path) -> None:
    assert run("-", "--json", stdin=event.read_bytes()).output == run(str(event), "--json").output


def test_a_round_robin_is_paired_by_the_berger_table(tmp_path: Path) -> None:
    path = tmp_path / "rr.trf"
    path.write_text("\n".join(player_line(n, f"P{n}", None) for n in range(1, 6)) + "\n")
    done = run(str(path), "--system", "round-robin", "--json")
    assert json.loads(done.output) == {
        "round": 1,
        "boards": [{"board": 1, "first": 2, "second": 5}, {"board": 2, "first": 3, "second": 4}],
        "bye": 1,
    }
    double = path.with_name("double.trf")
    double.write_text("192 FIDE_DOUBLEROUNDROBIN\n" + path.read_text())
    assert json.loads(run(str(double), "--json").output)["bye"] == 1


def test_check_lists_nothing_and_exits_0_for_a_well_paired_event(event: Path) -> None:
    done = run("--check", str(event))
    assert done.exit_code == 0
    assert done.output == (
        "all 2 round(s) agree with dutch\nstandings by points alone (points): agree\n"
    )
    document = json.loads(run("--check", str(event), "--json").output)
    assert document == {
        "system": "dutch",
        "rounds": 2,
        "standings": {"tiebreaks": [], "from": "points", "problems": []},
        "differences": [],
    }


def test_check_lists_each_round_that_differs_and_exits_1(event: Path) -> None:
    done = run("--check", str(event), "--system", "round-robin")
    assert done.exit_code == 1
    assert done.output.splitlines()[0].startswith("round 1: ")
    assert done.output.splitlines()[-2].endswith("round(s) differ from round-robin")
    document = json.loads(run("--check", str(event), "--system", "round-robin", "--json").output)
    assert document["differences"][0]["round"] == 1
    assert set(document["differences"][0]) == {"round", "problems", "expected", "played"}


def test_a_bad_file_is_one_located_line_and_status_1(tmp_path: Path) -> None:
    path = tmp_path / "bad.trf"
    path.write_text("012 x\nXXR 3\n" + player_line(1, "A", None, ["   2 w 1"]) + "\n")
    done = run(str(path))
    assert done.exit_code == 1
    assert done.output == f"arbiter: {path}:3: unknown-opponent: round 1: no player 2 to meet\n"


def test_a_file_that_cannot_be_paired_is_one_line_and_status_1(tmp_path: Path) -> None:
    path = tmp_path / "done.trf"
    path.write_text(write_trf(played(4, 2, planned=2), name="x"))
    done = run(str(path))
    assert done.exit_code == 1
    assert done.output == f"arbiter: {path}: complete: all 2 rounds are paired\n"
    assert "Traceback" not in done.output


def test_a_missing_file_is_an_io_error(tmp_path: Path) -> None:
    done = run(str(tmp_path / "nowhere.trf"))
    assert done.exit_code == 1 and ": io-error: " in done.output


def test_a_latin_1_file_is_read(tmp_path: Path) -> None:
    path = tmp_path / "old.trf"
    path.write_bytes(
        ("XXR 3\n" + player_line(1, "Muñoz", None) + "\n" + player_line(2, "B", None)).encode(
            "latin-1"
        )
    )
    assert run(str(path), "--json").exit_code == 0


@pytest.mark.parametrize(
    "args", [[], ["x.trf", "--system", "swiss"], ["x.trf", "--nothing"], ["a", "b"]]
)
def test_usage_errors_exit_2(args: list[str]) -> None:
    assert run(*args).exit_code == 2


def test_the_command_is_listed() -> None:
    done = CliRunner().invoke(main, ["--help"])
    assert "pair" in done.output


@settings(max_examples=examples(40), suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.data())
def test_any_changed_file_is_paired_or_one_located_line(event: Path, data: st.DataObject) -> None:
    """Whatever the file says, the command answers: the pairing, or one line naming the file
    and status 1; never a traceback."""
    text = event.read_text()
    for _ in range(data.draw(st.integers(1, 3))):
        at = data.draw(st.integers(0, len(text) - 1))
        text = text[:at] + data.draw(st.sampled_from("0123456789 wb-+=HFUZ\n")) + text[at + 1 :]
    changed = event.with_name("changed.trf")
    changed.write_text(text)
    done = run(str(changed), *data.draw(st.sampled_from([[], ["--check"], ["--json"]])))
    assert (
        "Traceback" not in done.output
        and done.exception is None
        or isinstance(done.exception, SystemExit)
    )
    assert done.exit_code in (0, 1)
    if done.exit_code == 1 and not done.output.startswith(("round", "all", "{")):
        assert done.output.startswith(f"arbiter: {changed}") and done.output.count("\n") == 1


def test_the_engine_is_bounded_when_asked(event: Path) -> None:
    """--max-seconds and --max-memory run the engine within those limits: the same boards
    within them, a clear error past them."""
    within = run(str(event), "--json", "--max-seconds", "120", "--max-memory", "2048")
    assert within.exit_code == 0 and within.stdout == run(str(event), "--json").stdout
    past = run(str(event), "--max-memory", "64", "--max-seconds", "0.1")
    assert past.exit_code == 1 and "engine-limit: the Dutch engine" in past.stderr
    assert "Traceback" not in past.stderr
