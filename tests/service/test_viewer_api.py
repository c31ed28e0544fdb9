"""``POST /api/v1/diagram`` and ``POST /api/v1/positions`` (spec/api.md §3.6), and the page's
own files: a ply drawn as SVG, every ply of the records at once, errors for plies and
records that do not exist, and the viewer's way of putting pictures together."""

from __future__ import annotations

import io
import re
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient

from arbiter.notation.games import find_game
from arbiter.notation.position import parse_position
from arbiter.service.core import diagrams

ROOT = Path(__file__).resolve().parents[2]
VALID = '[Game "Pilo"]\n[Size "4"]\n\n1. b2 c3 2. d4 a1 *\n'
ILLEGAL = '[Game "Pletore"]\n[Size "5"]\n[Komi "0"]\n\n1. c3 d4 2. c3 b2 3. a1 *\n'
BROKEN = '[Game "Pilo"]\n[Size "40"]\n\n1. b2 *\n'


def post(client: FlaskClient, path: str, body: str) -> Any:
    return client.post(path, data=body.encode(), content_type="text/plain")


def test_diagram_draws_a_ply_as_svg(client: FlaskClient) -> None:
    answer = post(client, "/api/v1/diagram?ply=1&width=200", VALID)
    assert answer.status_code == 200 and answer.mimetype == "image/svg+xml"
    root = ET.fromstring(answer.data)
    assert root.get("width") == "200"
    title = root.find("{http://www.w3.org/2000/svg}title")
    assert title is not None and title.text == "Pilo 4×4 · ply 1 · 1. Blue b2 — Orange to move"
    last = post(client, "/api/v1/diagram", VALID).get_data(as_text=True)
    assert "ply 4 · 2. Orange a1" in last  # the last ply by default


def test_diagram_of_an_invalid_record_shows_the_refused_move(client: FlaskClient) -> None:
    picture = post(client, "/api/v1/diagram?record=1", VALID + "\n" + ILLEGAL)
    text = picture.get_data(as_text=True)
    assert "ply 3 · 2. Black c3 refused" in text and "stroke-dasharray" in text


@pytest.mark.parametrize(
    ("query", "status", "code", "words"),
    [
        ("ply=5", 422, "no-such-ply", "no ply 5: the record has 4 plies"),
        ("record=1&ply=4", 422, "no-such-ply", "the move at ply 3 is refused"),
        ("record=3", 422, "no-such-record", "no record 3: 3 records were read"),
        ("record=2", 422, "unreadable-record", "record 2 cannot be drawn"),
        ("ply=-1", 400, "bad-parameter", "'ply' must be a whole number from 0 up"),
        ("ply=two", 400, "bad-parameter", "not 'two'"),
        ("width=8", 400, "bad-parameter", "'width' must be a whole number from 16 to 4096"),
        ("control=maybe", 400, "bad-parameter", "'control' must be true or false"),
    ],
)
def test_diagram_errors(
    client: FlaskClient, query: str, status: int, code: str, words: str
) -> None:
    answer = post(client, f"/api/v1/diagram?{query}", VALID + "\n" + ILLEGAL + "\n" + BROKEN)
    assert answer.status_code == status
    error = answer.get_json()["error"]
    assert error["code"] == code and words in error["message"]
    if code == "unreadable-record":
        assert error["problems"][0]["code"] == "bad-size" and error["problems"][0]["index"] == 2


def test_positions_gives_every_ply_of_every_record(client: FlaskClient) -> None:
    answer = post(client, "/api/v1/positions", VALID + "\n" + ILLEGAL + "\n" + BROKEN)
    assert answer.status_code == 200
    data = answer.get_json()
    assert data["count"] == 3
    valid, illegal, broken = data["records"]
    assert [f["ply"] for f in valid["frames"]] == [0, 1, 2, 3, 4]
    assert valid["frames"][1] == {
        "ply": 1,
        "position": "4/4/1,b,2/4",
        "move": "b2",
        "mover": "Blue",
        "to_move": "Orange",
        "result": None,
        "refused": False,
        "caption": ["Pilo 4×4 · ply 1 · 1. Blue b2", "Orange to move"],
    }
    assert valid["report"]["valid"] and valid["refused_ply"] is None and "svg" not in valid
    assert illegal["refused_ply"] == 3 and len(illegal["frames"]) == 4
    assert illegal["frames"][3]["refused"] and illegal["frames"][3]["move"] == "c3"
    assert illegal["frames"][3]["position"] == illegal["frames"][2]["position"]
    assert [m["move"] for m in illegal["moves"]] == ["c3", "d4", "c3", "b2", "a1"]
    assert illegal["moves"][2] == {"ply": 3, "number": 2, "move": "c3", "line": 10, "column": 13}
    assert broken["frames"] == [] and broken["game"] is None
    assert broken["report"]["errors"][0]["code"] == "bad-size"


def test_positions_answers_hold_a_bounded_number_of_plies(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(diagrams, "MAX_PLIES", 8)
    answer = post(client, "/api/v1/positions", VALID + "\n" + ILLEGAL)  # 5 + 4 plies
    assert answer.status_code == 422
    error = answer.get_json()["error"]
    assert (error["code"], error["limit"]) == ("too-many-plies", 8)
    assert "ask for one record at a time with record=K" in error["message"]
    one = post(client, "/api/v1/positions?record=1", VALID + "\n" + ILLEGAL)
    assert one.status_code == 200 and len(one.get_json()["records"][0]["frames"]) == 4


def test_positions_of_one_record_of_uploaded_files(client: FlaskClient) -> None:
    answer = client.post("/api/v1/positions?record=2", data=_files())
    (entry,) = answer.get_json()["records"]
    assert (entry["file"], entry["index"], entry["report"]["file"]) == ("b.grn", 1, "b.grn")
    too_far = client.post("/api/v1/positions?record=3", data=_files())
    assert too_far.status_code == 422
    assert too_far.get_json()["error"]["code"] == "no-such-record"


def _bytes(text: str) -> io.BytesIO:
    return io.BytesIO(text.encode())


def _files() -> dict[str, Any]:
    return {"file": [(_bytes(VALID), "a.grn"), (_bytes(ILLEGAL + "\n" + VALID), "b.grn")]}


def compose(record: dict[str, Any], frame: dict[str, Any], control: bool) -> str:
    """A ply's picture put together from the parts, as the page's viewer.js does."""
    sheet, size = record["svg"], record["size"]

    def place(index: int, fragment: str) -> str:
        x = sheet["left"] + (index % size) * sheet["unit"] + sheet["unit"] // 2
        y = sheet["top"] + (size - 1 - index // size) * sheet["unit"] + sheet["unit"] // 2
        return f'<g transform="translate({x} {y})">{fragment}</g>'

    parts = [sheet["open"], frame["svg"]["title"], sheet["board"], frame["svg"]["tint"]]
    if control and frame.get("control"):
        parts += [
            place(i, sheet["control"][int(owner)])
            for i, owner in enumerate(frame["control"])
            if owner != "-"
        ]
    grid = parse_position(frame["position"], find_game(record["game"]), size)
    cells = [cell for row in grid for cell in row]
    parts += [place(i, sheet["pieces"][cell]) for i, cell in enumerate(cells) if cell]
    return "".join([*parts, frame["svg"]["marks"], sheet["close"]])


@pytest.mark.parametrize(
    "sample",
    [
        "pletore/valid/05-lesson-5x5.grn",
        "pilo/invalid/01-unequal-heights-8x8.grn",
        "pilare/invalid/off_board_8x8.grn",
        "implo/valid/05-forced-steps-omitted-5x5.grn",
    ],
)
def test_the_viewers_pictures_are_the_diagrams_of_the_same_plies(
    client: FlaskClient, sample: str
) -> None:
    body = (ROOT / "samples" / sample).read_text(encoding="utf-8")
    data = post(client, "/api/v1/positions?svg=true&control=true", body).get_json()
    (record,) = data["records"]
    plies = len(record["frames"])
    for ply in sorted({0, 1, plies // 2, plies - 2, plies - 1}):
        for control in (False, True):
            query = f"ply={ply}&caption=false&control={'true' if control else 'false'}"
            drawn = post(client, f"/api/v1/diagram?{query}", body).get_data(as_text=True)
            assert compose(record, record["frames"][ply], control) == drawn, (ply, control)


def test_control_is_given_only_when_asked_and_only_where_the_rules_say(
    client: FlaskClient,
) -> None:
    pletore = post(client, "/api/v1/positions?control=true", ILLEGAL).get_json()["records"][0]
    assert all(re.fullmatch(r"[-01]{25}", f["control"]) for f in pletore["frames"])
    pilo = post(client, "/api/v1/positions?control=true", VALID).get_json()["records"][0]
    assert all(f["control"] is None for f in pilo["frames"])
    plain = post(client, "/api/v1/positions", ILLEGAL).get_json()["records"][0]
    assert all("control" not in f for f in plain["frames"])


# --- the page's files ------------------------------------------------------------------------


def test_every_file_the_page_names_is_served(client: FlaskClient) -> None:
    page = client.get("/").get_data(as_text=True)
    named = re.findall(r'(?:src|href)="(/[^"]*)"', page)
    assert {"/static/viewer.js", "/static/viewer.css", "/static/favicon.svg"} <= set(named)
    types = {".js": "text/javascript", ".css": "text/css", ".svg": "image/svg+xml"}
    for path in named:
        answer = client.get(path)
        assert answer.status_code == 200, path
        if path.startswith("/static/"):
            assert answer.mimetype == types[Path(path).suffix]
    icon = client.get("/favicon.ico")
    assert icon.status_code == 200 and icon.mimetype == "image/svg+xml"
    ET.fromstring(icon.data)


def test_no_other_file_is_served_from_static(client: FlaskClient) -> None:
    for path in ("/static/index.html", "/static/../api.py", "/static/nothing.js"):
        answer = client.get(path)
        assert answer.status_code == 404
        assert answer.get_json()["error"]["code"] == "not-found"
