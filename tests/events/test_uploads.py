"""Uploads checked against their event (spec/events.md §4), on SQLite and PostgreSQL: a record
of another game is refused as a record, a file that is not text is refused whole, the event
a record is uploaded to is its event whatever its Event tag says, and every page and export
of an event answers whatever was uploaded to it (the fuzz corpus's hostile records)."""

from __future__ import annotations

import collections
import random
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient

from fuzz.inputs import Input, Inputs
from tests.events.conftest import bearer, body, create
from tests.events.test_events import ROUNDS, post_files

ROOT = Path(__file__).resolve().parents[2]
PLETORE = ROOT / "samples" / "pletore" / "valid" / "02-open-8x8-komi0.grn"
"""A Pletore game of an event named Autumn Open (the name of the Pilo events here)."""


def upload(
    client: FlaskClient, event: str, token: str, data: bytes, kind: str = "text/plain"
) -> Any:
    return client.post(
        f"/api/v1/events/{event}/records", data=data, headers=bearer(token), content_type=kind
    )


def every_read(event: str) -> list[str]:
    """Every page and export of an event."""
    api = f"/api/v1/events/{event}"
    return [
        f"/events/{event}",
        f"/events/{event}/desk",
        api,
        f"{api}/records",
        f"{api}/records?format=grn",
        f"{api}/records?round=1",
        f"{api}/uploads",
        f"{api}/log",
        f"{api}/verify",
        *(f"{api}/standings?format={fmt}" for fmt in ("json", "table", "csv", "html", "trf")),
    ]


def test_a_record_of_another_game_is_refused_as_a_record(client: FlaskClient) -> None:
    event, token = create(client, rounds=5)
    post_files(client, event, token, ROUNDS[0])
    before = body(client.get(f"/api/v1/events/{event}/standings"))
    answer = post_files(client, event, token, PLETORE)
    assert answer.status_code == 201, answer.json
    (refused,) = body(answer)["uploads"][0]["records"]
    error = refused["report"]["errors"][0]
    assert (refused["valid"], refused["file"], refused["index"]) == (False, PLETORE.name, 0)
    assert error == {
        "code": "wrong-game",
        "message": "the record is a game of Pletore; this event is of Pilo",
        "game": "Pletore",
        "event_game": "Pilo",
    }
    assert refused["players"] == {} and refused["round"] is None and refused["warnings"] == []
    for path in every_read(event):
        assert client.get(path).status_code == 200, path
    after = body(client.get(f"/api/v1/events/{event}/standings"))
    assert after["standings"] == before["standings"]  # never counted
    assert after["excluded"][-1]["message"].startswith("wrong-game: the record is a game of")
    number = refused["record"]
    given = client.put(
        f"/api/v1/events/{event}/records/{number}/result",
        json={"result": "White+F", "reason": "x"},
        headers=bearer(token),
    )
    assert given.status_code == 422 and body(given)["error"]["code"] == "cannot-correct"
    grn = client.get(f"/api/v1/events/{event}/records?format=grn").data.decode()
    assert grn.count("[Game ") == 3 and "Pletore" not in grn  # the event's records only
    kept = client.get(f"/api/v1/events/{event}/uploads/{refused['upload_sha256']}")
    assert kept.data == PLETORE.read_bytes()  # the upload as sent


def test_a_record_of_another_game_kept_before_never_counts(
    client: FlaskClient, database: str
) -> None:
    """A record of another game kept by an earlier version, its header whole, is read as
    refused: the page and the standings answer, and it does not count."""
    from sqlalchemy import update

    from arbiter.service.events.migrate import open_store
    from arbiter.service.events.store import records

    event, token = create(client)
    post_files(client, event, token, ROUNDS[0])
    store = open_store(database)
    pletore_header = (
        '{"game": "Pletore", "size": 8, "komi": 0, "setup": null, '
        '"players": {"Black": "b", "White": "w"}, '
        '"tags": [["Event", "Autumn Open"], ["Round", "1"]], "result": "White+3"}'
    )
    with store.write() as conn:  # as an earlier version kept it
        conn.execute(update(records).where(records.c.number == 1).values(header=pletore_header))
    for path in every_read(event):
        if not path.endswith("/verify"):  # the digest no longer matches, as it should not
            assert client.get(path).status_code == 200, path
    standings = body(client.get(f"/api/v1/events/{event}/standings"))
    assert standings["excluded"][0]["message"].startswith("wrong-game")
    assert len(standings["standings"]) == 4  # the two other games' players


@pytest.mark.parametrize(
    ("data", "what"),
    [
        (b"\xff\xd8\xff\xe0\x00\x10JFIF\x00" + random.Random(1).randbytes(50_000), "JPEG"),
        (b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n" + random.Random(2).randbytes(20_000), "PDF"),
        (random.Random(3).randbytes(5_000).replace(b"\x00", b"\x01"), "not UTF-8"),
    ],
)
def test_a_file_that_is_not_text_is_refused_whole(
    client: FlaskClient, data: bytes, what: str
) -> None:
    event, token = create(client)
    version = body(client.get(f"/api/v1/events/{event}"))["version"]
    both, kind = multipart([(ROUNDS[0].read_bytes(), "round-1.grn"), (data, "scan.jpg")])
    answer = upload(client, event, token, both, kind)
    assert answer.status_code == 422, answer.json
    error = body(answer)["error"]
    assert (error["code"], error["file"]) == ("not-text", "scan.jpg") and what in error["message"]
    alone = upload(client, event, token, data, "application/octet-stream")
    assert body(alone)["error"]["code"] == "not-text" and body(alone)["error"]["file"] is None
    assert body(client.get(f"/api/v1/events/{event}"))["version"] == version  # nothing kept
    assert body(client.get(f"/api/v1/events/{event}/uploads"))["uploads"] == []


def test_the_event_a_record_is_uploaded_to_is_its_event(client: FlaskClient) -> None:
    event, token = create(client, rounds=4)
    other = ROUNDS[1].read_bytes().replace(b'[Event "Autumn Open"]', b'[Event "Spring Cup"]')
    untagged = ROUNDS[3].read_bytes().replace(b'[Event "Autumn Open"]\n', b"")
    for data in (ROUNDS[0].read_bytes(), other, untagged):
        assert upload(client, event, token, data).status_code == 201
    standings = client.get(f"/api/v1/events/{event}/standings")
    document = body(standings)
    assert document["event"] == "Autumn Open" and document["rounds"] == 4  # one table
    assert not [e for e in document["excluded"] if e["reason"] == "no-event"]
    trf = client.get(f"/api/v1/events/{event}/standings?format=trf")
    assert trf.status_code == 200 and trf.data.startswith(b"012 Autumn Open (Pilo)\n")
    warnings = [
        [w["code"] for w in one["warnings"]]
        for one in body(client.get(f"/api/v1/events/{event}/records"))["records"]
    ]
    assert warnings == [[]] * 3 + [["event-tag-differs"]] * 3 + [["no-event-tag"]] * 3
    page = client.get(f"/events/{event}").data.decode()
    assert page.count("Event tag names &#39;Spring Cup&#39;") == 3
    assert page.count("has no Event tag") == 3
    renamed = client.patch(
        f"/api/v1/events/{event}", json={"name": "Spring Cup"}, headers=bearer(token)
    )
    assert renamed.status_code == 200
    after = body(client.get(f"/api/v1/events/{event}/records"))["records"]
    assert [len(one["warnings"]) for one in after] == [1, 1, 1, 0, 0, 0, 1, 1, 1]
    assert body(client.get(f"/api/v1/events/{event}/standings"))["event"] == "Spring Cup"


def test_an_event_with_nothing_counted_has_its_trf(client: FlaskClient) -> None:
    event, _ = create(client, rounds=3)
    trf = client.get(f"/api/v1/events/{event}/standings?format=trf")
    assert trf.status_code == 200
    lines = trf.data.decode().splitlines()
    assert lines[:4] == ["012 Autumn Open (Pilo)", "062 0", "142 3", "XXR 3"]
    assert [line.split(",")[0] for line in lines[4:]] == ["### head: entry 1"]


PER_KIND = 200
"""Hostile inputs of each kind of the fuzz corpus uploaded to one event."""


def corpus() -> dict[str, list[Input]]:
    """``PER_KIND`` inputs of every kind the fuzz harness draws, from a fixed seed."""
    inputs = Inputs(random.Random(20261125), legal=20, grammar=60)
    kinds: dict[str, list[Input]] = collections.defaultdict(list)
    while len(kinds) < 9 or any(len(found) < PER_KIND for found in kinds.values()):
        item = inputs.draw()
        found = kinds[item.kind.split(" (")[0]]
        if len(found) < PER_KIND:
            found.append(item)
    return kinds


def test_every_page_answers_whatever_was_uploaded(client: FlaskClient) -> None:
    event, token = create(client, rounds=9)
    answered: collections.Counter[int] = collections.Counter()
    for kind, items in corpus().items():
        files = [
            (item.data, f"{kind.replace(' ', '-')}-{n}.{item.fmt or 'txt'}")
            for n, item in enumerate(items)
        ]
        while files:  # twenty files a request; one that is not text is sent again alone
            batch, files = files[:20], files[20:]
            answer = _send(client, event, token, batch)
            answered[answer.status_code] += 1
            if answer.status_code == 422:
                refused = body(answer)["error"]
                assert refused["code"] == "not-text", refused
                named = [one for one in batch if one[1] == refused["file"]]
                assert named, refused
                files = [one for one in batch if one[1] != refused["file"]] + files
    assert set(answered) <= {200, 201, 422} and answered[201] >= 60
    summary = body(client.get(f"/api/v1/events/{event}"))
    assert summary["records"]["total"] > 1000
    for path in every_read(event):
        answer = client.get(path)
        assert answer.status_code == 200, (path, answer.data[:300])


def _send(client: FlaskClient, event: str, token: str, files: list[tuple[bytes, str]]) -> Any:
    data, kind = multipart(files)
    return upload(client, event, token, data, kind)


BOUNDARY = b"arbiter-test-boundary-5f0c9e2d41b7a3c8"


def multipart(files: list[tuple[bytes, str]]) -> tuple[bytes, str]:
    """A multipart body of ``files`` (bytes and name), encoded here: the test client would
    spool a big body to a file it never closes."""
    parts = [
        b'--%s\r\nContent-Disposition: form-data; name="file"; filename="%s"\r\n\r\n%s\r\n'
        % (BOUNDARY, name.encode(), data)
        for data, name in files
    ]
    body = b"".join(parts) + b"--%s--\r\n" % BOUNDARY
    return body, f"multipart/form-data; boundary={BOUNDARY.decode()}"
