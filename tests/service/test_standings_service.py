"""``arbiter standings`` and ``POST /api/v1/standings`` on the sample event: the same
standings in every format, exit codes, and the errors of each."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from flask.testing import FlaskClient

from arbiter.service.cli.main import main

FOLDER = Path(__file__).resolve().parents[2] / "samples" / "tournament"
FILES = sorted(FOLDER.iterdir())


def cli(runner: CliRunner, *args: str) -> tuple[int, str, str]:
    result = runner.invoke(main, ["standings", *args])
    return result.exit_code, result.stdout, result.stderr


def api(client: FlaskClient, query: str = "") -> tuple[int, str, bytes]:
    """The sample's files uploaded as the page uploads them."""
    files = [(path.open("rb"), path.name) for path in FILES]
    try:
        answer = client.post(
            "/api/v1/standings" + query, data={"file": files}, content_type="multipart/form-data"
        )
    finally:
        for stream, _ in files:
            stream.close()
    return answer.status_code, answer.content_type, answer.data


@pytest.fixture
def in_sample(monkeypatch: pytest.MonkeyPatch) -> None:
    """Run the CLI inside the sample folder, so that its file names are the uploads' names."""
    monkeypatch.chdir(FOLDER)


def test_cli_prints_the_table_and_lists_what_does_not_count(runner: CliRunner) -> None:
    code, out, err = cli(runner, str(FOLDER))
    assert code == 1  # one record is invalid
    lines = out.splitlines()
    assert lines[0] == "Autumn Open (Pilo): 4 round(s), 6 player(s)"
    assert lines[1] == (
        "tie-breaks: Buchholz (BH), Sonneborn-Berger (SB), Games won (won), "
        "Direct encounter (DE), Margin (margin)"
    )
    assert (
        "DE: the place among the players still tied, by their games against each other; "
        "blank for a player who was not tied when it was reached"
    ) in lines
    assert "not counted (5):" in lines
    assert "16 record(s), 11 counted, 5 not counted, 1 event table(s)" in err


@pytest.mark.usefixtures("in_sample")
def test_cli_and_api_give_the_same_json(runner: CliRunner, client: FlaskClient) -> None:
    code, out, _ = cli(runner, ".", "--json")
    status, kind, body = api(client)
    assert (code, status, kind) == (1, 200, "application/json")
    document = json.loads(out)
    assert document == json.loads(body)
    assert document["event"] == "Autumn Open" and len(document["standings"]) == 6
    assert {e["file"] for e in document["excluded"]} == {"round-4.grn", "uploads-after-round-4.grn"}


@pytest.mark.usefixtures("in_sample")
@pytest.mark.parametrize(
    ("fmt", "kind"),
    [
        ("table", "text/plain; charset=utf-8"),
        ("csv", "text/csv; charset=utf-8"),
        ("html", "text/html; charset=utf-8"),
        ("trf", "text/plain; charset=utf-8"),
    ],
)
def test_cli_and_api_give_the_same_text(
    runner: CliRunner, client: FlaskClient, fmt: str, kind: str
) -> None:
    code, out, err = cli(runner, ".", "--format", fmt, "--tiebreak", "sb,bh")
    status, content_type, body = api(client, f"?format={fmt}&tiebreak=sb,bh")
    assert (code, status, content_type) == (1, 200, kind)
    assert out == body.decode("utf-8")
    if fmt in ("csv", "trf"):  # no room in the output: the exclusions go to stderr
        assert "uploads-after-round-4.grn: record 2: invalid:" in err


def test_cli_exits_zero_when_every_record_is_valid(runner: CliRunner, tmp_path: Path) -> None:
    (tmp_path / "round-1.grn").write_bytes((FOLDER / "round-1.grn").read_bytes())
    code, out, _ = cli(runner, str(tmp_path), "--tiebreak", "direct")
    assert code == 0
    assert out.splitlines()[1] == "tie-breaks: Direct encounter (DE)"


@pytest.mark.parametrize(
    "args",
    [
        ["--tiebreak", "buchholz,median"],
        ["--tiebreak", "bh,bh"],
        ["--json", "--format", "csv"],
        ["--format", "pdf"],
        ["--format", "trf", "--total-rounds", "0"],
        ["--format", "trf", "--total-rounds", "2"],  # below the 4 rounds played
    ],
)
def test_cli_usage_errors_exit_two(runner: CliRunner, args: list[str]) -> None:
    code, out, err = cli(runner, str(FOLDER), *args)
    assert code == 2 and not out
    assert "Error" in err


def test_cli_trf_of_several_events_is_a_usage_error(runner: CliRunner, tmp_path: Path) -> None:
    text = (FOLDER / "round-1.grn").read_text(encoding="utf-8")
    (tmp_path / "a.grn").write_text(text, encoding="utf-8")
    (tmp_path / "b.grn").write_text(text.replace("Autumn Open", "Winter Open"), encoding="utf-8")
    code, _, err = cli(runner, str(tmp_path), "--format", "trf")
    assert code == 2 and "holds one tournament" in err
    code, out, _ = cli(runner, str(tmp_path), "--json")
    assert code == 0 and [t["event"] for t in json.loads(out)] == ["Autumn Open", "Winter Open"]


def test_cli_unreadable_path_is_listed(runner: CliRunner, tmp_path: Path) -> None:
    code, out, _ = cli(runner, str(tmp_path / "missing.grn"), "--json")
    assert code == 1
    (excluded,) = json.loads(out)["excluded"]
    assert excluded["reason"] == "invalid" and excluded["error"]["code"] == "io-error"


def test_api_reads_a_body_as_adjudicate_does(client: FlaskClient) -> None:
    body = (FOLDER / "round-1.grn").read_bytes()
    answer = client.post("/api/v1/standings?tiebreak=", data=body, content_type="text/plain")
    assert answer.status_code == 200
    document = answer.get_json()
    assert document["tiebreak_order"] == [] and document["rounds"] == 1
    assert [e["file"] for c in document["crosstable"] for e in c["results"] if e] == [None] * 6


@pytest.mark.parametrize(
    ("query", "parameter"),
    [
        ("?tiebreak=koya", "tiebreak"),
        ("?format=pdf", "format"),
        ("?total_rounds=0", "total_rounds"),
        ("?total_rounds=" + "9" * 5000, "total_rounds"),
        ("?total_rounds=²", "total_rounds"),
    ],
)
def test_api_bad_parameters(client: FlaskClient, query: str, parameter: str) -> None:
    answer = client.post("/api/v1/standings" + query, data="x", content_type="text/plain")
    assert answer.status_code == 400
    error = answer.get_json()["error"]
    assert (error["code"], error["parameter"]) == ("bad-parameter", parameter)


def test_api_cannot_write_trf_of_several_events(client: FlaskClient) -> None:
    text = (FOLDER / "round-1.grn").read_text(encoding="utf-8")
    body = text + "\n" + text.replace("Autumn Open", "Winter Open")
    answer = client.post("/api/v1/standings?format=trf", data=body, content_type="text/plain")
    assert answer.status_code == 422
    assert answer.get_json()["error"]["code"] == "cannot-format"
    answer = client.post("/api/v1/standings", data=body, content_type="text/plain")
    assert [t["event"] for t in answer.get_json()] == ["Autumn Open", "Winter Open"]


def test_api_refuses_an_empty_body(client: FlaskClient) -> None:
    answer = client.post("/api/v1/standings", data=b"", content_type="text/plain")
    assert answer.status_code == 400 and answer.get_json()["error"]["code"] == "empty-body"


def test_page_script_is_served(client: FlaskClient) -> None:
    answer = client.get("/static/standings.js")
    assert answer.status_code == 200 and answer.content_type.startswith("text/javascript")
    assert client.get("/static/index.html").status_code == 404
    assert client.get("/static/missing.js").get_json()["error"]["code"] == "not-found"
    assert 'src="/static/standings.js"' in client.get("/").get_data(as_text=True)
