"""What every answer and every log line must hold or never hold (spec/api.md §6), names as
they are kept, and workers that do not outlive their server."""

from __future__ import annotations

import base64
import csv
import hashlib
import io
import json
import os
import queue
import signal
import subprocess
import threading
import time
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient

from arbiter.service.core.standings_formats import csv_text, spreadsheet_safe
from arbiter.service.web import create_app
from arbiter.service.web.access_log import AccessLog, redacted
from arbiter.service.web.inputs import file_name
from tests.service.records import FINISHED_GRN
from tests.service.test_serve import copy_lines, post, serve_command, stop, wait_until_healthy

HANG = 60.0
"""Seconds after which a wait is taken as hung, on a machine however busy."""


@pytest.fixture
def client() -> FlaskClient:
    app: Flask = create_app({"TESTING": True})
    return app.test_client()


# --- headers --------------------------------------------------------------------------------

ANSWERS = [
    ("GET", "/", None, None),
    ("GET", "/events", None, None),
    ("GET", "/static/viewer.js", None, None),
    ("GET", "/api/v1/openapi.json", None, None),
    ("POST", "/api/v1/adjudicate", FINISHED_GRN, "text/plain"),
    ("POST", "/api/v1/standings?format=csv", FINISHED_GRN, "text/plain"),
    ("POST", "/api/v1/standings?format=trf", FINISHED_GRN, "text/plain"),
    ("GET", "/no/such/page", None, None),
    ("POST", "/api/v1/adjudicate", "", "text/plain"),  # 400
    ("POST", "/api/v1/adjudicate", "x", "image/png"),  # 415
]


@pytest.mark.parametrize(("method", "path", "body", "kind"), ANSWERS)
def test_every_answer_forbids_sniffing_and_carries_a_policy(
    client: FlaskClient, method: str, path: str, body: str | None, kind: str | None
) -> None:
    answer = client.open(path, method=method, data=body, content_type=kind)
    assert answer.headers["X-Content-Type-Options"] == "nosniff"
    policy = answer.headers["Content-Security-Policy"]
    assert "script-src 'self'" in policy and "frame-ancestors 'none'" in policy
    assert "unsafe-inline" not in policy


def test_the_one_inline_style_allowed_is_that_of_the_html_standings(
    client: FlaskClient,
) -> None:
    answer = client.post("/api/v1/standings?format=html", data=FINISHED_GRN,
                         content_type="text/plain")  # fmt: skip
    page = answer.get_data(as_text=True)
    style = page.split("<style>", 1)[1].split("</style>", 1)[0]
    digest = base64.b64encode(hashlib.sha256(style.encode()).digest()).decode()
    policy = answer.headers["Content-Security-Policy"]
    assert f"style-src 'self' 'sha256-{digest}';" in policy
    assert "script-src 'self';" in policy and "<script" not in page


def test_refusals_made_before_the_application_carry_the_headers_too(
    client: FlaskClient,
) -> None:
    for length, status in (("abc", 400), (str(2**40), 413)):
        answer = client.post(
            "/api/v1/adjudicate",
            data=b"x",
            content_type="text/plain",
            environ_overrides={"CONTENT_LENGTH": length},
        )
        assert answer.status_code == status
        assert answer.headers["X-Content-Type-Options"] == "nosniff"
        assert "Content-Security-Policy" in answer.headers


# --- CSV ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "name", ['=HYPERLINK("http://x","y")', "+1+1", "-2+3", "@SUM(A1)", "\tx", "\rx"]
)
def test_a_name_that_starts_like_a_formula_is_written_as_text(name: str) -> None:
    assert spreadsheet_safe(name) == "'" + name


@pytest.mark.parametrize("name", ["player-07", "Ilić", "a=b", "1st", ""])
def test_other_names_are_written_as_they_are(name: str) -> None:
    assert spreadsheet_safe(name) == name


def test_the_standings_csv_neutralises_players_and_events(client: FlaskClient) -> None:
    text = (
        FINISHED_GRN.replace('[Event "', '[Event "=cmd|')
        .replace('"player-05"', '"@SUM(1)"')
        .replace('"player-11"', '"-2+3"')
    )
    answer = client.post("/api/v1/standings?format=csv", data=text, content_type="text/plain")
    rows = list(csv.reader(io.StringIO(answer.get_data(as_text=True))))
    assert rows[0][:4] == ["event", "game", "rank", "player"] and len(rows) == 3
    assert {row[0] for row in rows[1:]} == {"'=cmd|Beginners' lesson"}
    assert {row[3] for row in rows[1:]} == {"'@SUM(1)", "'-2+3"}
    assert csv_text([]).startswith("event,game,rank,player")


# --- the access log -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("target", "shown"),
    [
        ("/api/v1/events/x?token=arb_abc123", "/api/v1/events/x?token=[hidden]"),
        ("/x?access_token=s3cret&round=2", "/x?access_token=[hidden]&round=2"),
        ("/x?API-KEY=1&Authorization=Bearer%20t", "/x?API-KEY=[hidden]&Authorization=[hidden]"),
        ("/x?q=arb_Zz-9_%2B", "/x?q=[hidden]"),
        ("/events/arb_xyz/desk", "/events/[hidden]/desk"),
        ("/api/v1/events?round=3", "/api/v1/events?round=3"),
        ("/events/arb%5FZz9/desk", "/events/[hidden]/desk"),  # percent-encoded
        ("/x?q=%61rb_Zz9&round=2", "/x?q=[hidden]&round=2"),
        ("/x/%2561rb_Zz9", "/x/[hidden]"),  # encoded twice over
        ("/x?q=%41RB%5Fzz", "/x?q=%41RB%5Fzz"),  # not a token: arb_ is written in lower case
    ],
)
def test_secrets_in_an_address_are_hidden(target: str, shown: str) -> None:
    assert redacted(target) == shown


def test_a_log_line_never_holds_a_token_from_the_query() -> None:
    out = io.StringIO()
    for style in ("common", "json"):
        AccessLog(style, out).write("1.2.3.4", "GET", "/x?token=arb_SECRET1", "HTTP/1.1",
                                    200, 10, 0.1)  # fmt: skip
    assert "SECRET1" not in out.getvalue() and out.getvalue().count("[hidden]") == 2
    assert json.loads(out.getvalue().splitlines()[1])["query"] == "token=[hidden]"


# --- file names -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("sent", "kept"),
    [
        ("../../etc/passwd", "passwd"),
        ("C:\\round 3\\board-2.grn", "board-2.grn"),
        ("a\x00b\x1b[31m.grn", "ab[31m.grn"),
        ("..", None),
        ("", None),
        ("x" * 300 + ".grn", ("x" * 300 + ".grn")[-255:]),
        ("board-2.grn", "board-2.grn"),
    ],
)
def test_a_file_name_is_kept_as_its_last_part(sent: str, kept: str | None) -> None:
    assert file_name(sent) == kept


def test_an_uploaded_file_s_path_is_not_echoed(client: FlaskClient) -> None:
    data = {"file": (io.BytesIO(FINISHED_GRN.encode()), "../../secret/board-1.grn")}
    answer = client.post("/api/v1/adjudicate", data=data, content_type="multipart/form-data")
    [report] = answer.get_json()["reports"]
    assert report["file"] == "board-1.grn"


# --- workers --------------------------------------------------------------------------------


def children(pid: int) -> list[int]:
    """The processes whose parent is ``pid``."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            found.append(int(stat.parent.name))
    return found


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    return state != "Z"


def started(*options: str) -> tuple[subprocess.Popen[str], str]:
    command = [*serve_command(), "--host", "127.0.0.1", *options]
    process = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                               stderr=subprocess.PIPE, text=True)  # fmt: skip
    lines: queue.Queue[str] = queue.Queue()
    threading.Thread(target=copy_lines, args=(process.stderr, lines), daemon=True).start()
    return process, wait_until_healthy(process, lines)


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="reads /proc")
def test_workers_leave_with_their_parent_and_the_port_can_be_taken_again() -> None:
    parent, url = started("--port", "0", "--workers", "2", "--threads", "2")
    port = url.rsplit(":", 1)[1]
    workers: list[int] = []
    try:
        deadline = time.monotonic() + HANG
        while len(workers) < 2 and time.monotonic() < deadline:
            workers = children(parent.pid)
            time.sleep(0.05)
        assert len(workers) == 2
        parent.send_signal(signal.SIGKILL)
        parent.wait(timeout=HANG)
        deadline = time.monotonic() + HANG
        while any(alive(pid) for pid in workers) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not [pid for pid in workers if alive(pid)], "workers outlived their parent"
    finally:
        for pid in workers:
            if alive(pid):
                os.kill(pid, signal.SIGKILL)
        if parent.poll() is None:
            parent.kill()
        if parent.stderr is not None:
            parent.stderr.close()
    again, url_again = started("--port", port)
    try:
        status, _, answer = post(f"{url_again}/api/v1/adjudicate", FINISHED_GRN.encode(),
                                 "text/plain")  # fmt: skip
        assert status == 200 and json.loads(answer)["count"] == 1
    finally:
        stop(again)
        if again.stderr is not None:
            again.stderr.close()
