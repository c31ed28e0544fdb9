"""Results you can prove (spec/events.md §6): every write answers a signed receipt; a
receipt kept before a change made behind the service's back finds it, on SQLite and on
PostgreSQL; verification covers every column a reader sees; an archive imports one event
and nothing else.

The tamperings are made as the owner of the database would make them: with their own
connection, the append-only triggers dropped or disabled where they stand in the way."""

from __future__ import annotations

import io
import json
import shutil
import sqlite3
import tracemalloc
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from flask.testing import FlaskClient
from sqlalchemy import create_engine, text
from sqlalchemy.engine import Engine, make_url

from arbiter.service.cli.main import main
from arbiter.service.events.chain import GENESIS, make_entry
from arbiter.service.events.receipts import read_receipts
from arbiter.service.web import create_app
from tests.events.conftest import bearer, body, create
from tests.events.test_events import ROUNDS, post_files

GAME = (ROUNDS[0]).read_bytes()


# --- the owner's own connection ---------------------------------------------------------------


@pytest.fixture
def owner(database: str) -> Iterator[Engine]:
    """A connection to the database as its owner makes one, outside the service: on SQLite
    a plain connection (no foreign keys, no triggers of the service's own making in the
    way once dropped); on PostgreSQL the superuser, who may disable triggers."""
    url = make_url(database)
    if url.get_backend_name() == "sqlite":
        engine = create_engine(url.set(drivername="sqlite+pysqlite"))
    else:
        engine = create_engine(url.set(drivername="postgresql+psycopg"))
    yield engine
    engine.dispose()


def unguarded(engine: Engine, sql: str, **values: Any) -> None:
    """Run ``sql`` with the append-only triggers out of the way, as an owner can."""
    with engine.begin() as conn:
        if engine.dialect.name == "sqlite":
            names = conn.execute(text("SELECT name FROM sqlite_master WHERE type='trigger'"))
            for (name,) in list(names):
                conn.execute(text(f"DROP TRIGGER {name}"))
        else:  # triggers and foreign keys left aside for this transaction (a superuser's right)
            conn.execute(text("SET LOCAL session_replication_role = replica"))
        conn.execute(text(sql), values)


def event_with_changes(client: FlaskClient) -> tuple[str, str, list[dict[str, Any]]]:
    """An event with an upload and two corrections: its id, token and every receipt."""
    event, token = create(client)
    receipts = []
    answer = post_files(client, event, token, ROUNDS[0])
    receipts.append(body(answer)["receipt"])
    for path, payload in (
        ("records/1/exclude", {"reason": "played twice"}),
        ("records/1/reinstate", {"reason": "it was not"}),
    ):
        answer = client.post(f"/api/v1/events/{event}/{path}", json=payload,
                             headers=bearer(token))  # fmt: skip
        assert answer.status_code == 200
        receipts.append(body(answer)["receipt"])
    return event, token, receipts


def cut(owner: Engine, event: str) -> None:
    """Take the last entry of :func:`event_with_changes` (the reinstatement) away, and what
    it changed with it: the tables then agree with the shorter trail."""
    unguarded(owner, "DELETE FROM log WHERE event_id = :e AND number = 4", e=event)
    unguarded(owner, "UPDATE records SET status = 'excluded' WHERE event_id = :e AND number = 1",
              e=event)  # fmt: skip
    unguarded(owner, "UPDATE events SET version = 3 WHERE id = :e", e=event)


def check(client: FlaskClient, event: str, receipts: list[dict[str, Any]]) -> dict[str, Any]:
    answer = client.post(f"/api/v1/events/{event}/verify", json={"receipts": receipts})
    assert answer.status_code == 200, answer.json
    return body(answer)


# --- receipts ---------------------------------------------------------------------------------


def test_every_write_answers_a_receipt_signed_by_the_key_the_event_shows(
    client: FlaskClient,
) -> None:
    answer = client.post("/api/v1/events", json={"name": "Proof Open", "game": "Pilo"})
    created = body(answer)
    event, token = created["id"], created["token"]
    receipts = [created["receipt"]]
    writes = [
        ("POST", "records", None),
        ("POST", "records/1/exclude", {"reason": "test"}),
        ("POST", "records/1/reinstate", {"reason": "test"}),
        ("PUT", "records/1/result", {"result": "Blue+F", "reason": "no show"}),
        ("DELETE", "records/1/result", {"reason": "he came"}),
        ("POST", "tokens", {"role": "upload", "label": "p1"}),
        ("DELETE", "tokens/2", {"reason": "lost"}),
        ("PATCH", "", {"rounds": 7}),
        ("POST", "finalise", {"reason": "over"}),
    ]
    for method, path, payload in writes:
        url = f"/api/v1/events/{event}/{path}".rstrip("/")
        if path == "records":
            done = post_files(client, event, token, ROUNDS[0])
        else:
            done = client.open(url, method=method, json=payload, headers=bearer(token))
        assert 200 <= done.status_code < 300, (path, done.json)
        receipts.append(body(done)["receipt"])
    shown = body(client.get(f"/api/v1/events/{event}"))
    log = body(client.get(f"/api/v1/events/{event}/log"))["log"]
    assert [r["entry"] for r in receipts] == list(range(1, len(log) + 1))
    assert [r["hash"] for r in receipts] == [entry["hash"] for entry in log]
    assert {r["key"] for r in receipts} == {shown["key"]}
    assert shown["head"] == {"entry": len(log), "hash": log[-1]["hash"]}
    assert all(one.signature_holds() for one in read_receipts(receipts, "answers"))
    assert check(client, event, receipts)["ok"] is True


def test_the_same_bytes_sent_again_answer_a_receipt_of_the_head(client: FlaskClient) -> None:
    event, token = create(client)
    first = body(post_files(client, event, token, ROUNDS[0]))["receipt"]
    again = post_files(client, event, token, ROUNDS[0])
    assert again.status_code == 200 and body(again)["receipt"]["entry"] == first["entry"]
    assert body(client.get(f"/api/v1/events/{event}"))["version"] == 2


def test_a_refused_write_has_no_receipt(client: FlaskClient) -> None:
    event, _ = create(client)
    answer = client.post(f"/api/v1/events/{event}/finalise", headers=bearer("arb_wrong"))
    assert answer.status_code == 401 and "receipt" not in body(answer)


# --- tamperings found by a receipt kept before ------------------------------------------------


def test_a_cut_trail_is_found_by_a_later_receipt(client: FlaskClient, owner: Engine) -> None:
    event, _, receipts = event_with_changes(client)
    cut(owner, event)
    found = check(client, event, receipts)
    assert found["valid"] is True, found["problems"]  # the database agrees with itself
    assert found["ok"] is False
    assert (
        "the trail ends at entry 3; entries from 4 on were removed"
        in found["receipts"]["problems"][0]
    )


def test_a_rehashed_chain_is_found_by_a_receipt(client: FlaskClient, owner: Engine) -> None:
    event, _, receipts = event_with_changes(client)
    log = body(client.get(f"/api/v1/events/{event}/log"))["log"]
    prev = GENESIS
    for entry in log:  # the reason of entry 3 rewritten, and every hash after it made anew
        reason = "a different reason" if entry["number"] == 3 else entry["reason"]
        made = make_entry(event, entry["number"], entry["at"], entry["token"], entry["action"],
                          entry["details"], reason, prev)  # fmt: skip
        unguarded(owner, "UPDATE log SET reason = :r, prev = :p, hash = :h "
                  "WHERE event_id = :e AND number = :n", r=reason, p=prev, h=made.hash,
                  e=event, n=entry["number"])  # fmt: skip
        prev = made.hash
    found = check(client, event, receipts)
    assert found["valid"] is True and found["ok"] is False, found
    problems = found["receipts"]["problems"]  # the receipts of entries 3 and 4; 2 holds
    assert [problem.split(": ", 1)[0] for problem in problems] == [
        f"receipt for entry 3 of event {event}",
        f"receipt for entry 4 of event {event}",
    ]
    assert f"entry 4's hash is now {prev[:16]}" in problems[1]
    assert all("the trail was rewritten at or before it" in problem for problem in problems)


def test_a_deleted_event_is_found_by_a_receipt_and_by_verify_all(
    client: FlaskClient, owner: Engine, database: str
) -> None:
    event, _, receipts = event_with_changes(client)
    unguarded(owner, "DELETE FROM events WHERE id = :e", e=event)
    found = check(client, event, receipts)
    assert found["ok"] is False
    assert "the database holds no such event; it was deleted" in found["receipts"]["problems"][0]
    done = CliRunner().invoke(main, ["db", "verify", "--database", database])
    assert done.exit_code == 1
    assert f"{event}: its trail or rows remain, but the event itself was deleted" in done.stdout


def test_an_entry_replaced_on_sqlite_is_refused_by_the_database(
    client: FlaskClient, database: str
) -> None:
    if not database.startswith("sqlite"):
        pytest.skip("INSERT OR REPLACE is SQLite's")
    event, _, _ = event_with_changes(client)
    conn = sqlite3.connect(database.removeprefix("sqlite:///"))
    try:
        with pytest.raises(sqlite3.DatabaseError, match="append-only"):
            conn.execute(
                "INSERT OR REPLACE INTO log (event_id, number, at, token, action, details, "
                "reason, prev, hash) VALUES (?, 4, 'x', 1, 'finalised', '{}', NULL, 'p', 'h')",
                (event,),
            )
        with pytest.raises(sqlite3.DatabaseError, match="append-only"):
            conn.execute(
                "INSERT OR REPLACE INTO uploads (event_id, number, sha256, file_name, format, "
                "size, data, token, created_at) VALUES (?, 1, 'x', NULL, NULL, 1, x'00', 1, 'x')",
                (event,),
            )
    finally:
        conn.close()


def test_a_database_rolled_back_is_found_by_a_later_receipt(
    client: FlaskClient, database: str, tmp_path: Path
) -> None:
    if not database.startswith("sqlite"):
        pytest.skip("a file copied back is SQLite's rollback; PostgreSQL's is the cut trail")
    path = Path(database.removeprefix("sqlite:///"))
    event, token = create(client)
    post_files(client, event, token, ROUNDS[0])
    with sqlite3.connect(path) as conn:  # a consistent copy, as a backup tool makes one
        conn.execute("PRAGMA wal_checkpoint(FULL)")
    shutil.copy(path, tmp_path / "backup.sqlite3")
    later = client.post(f"/api/v1/events/{event}/records/1/exclude",
                        json={"reason": "a later change"}, headers=bearer(token))  # fmt: skip
    receipt = body(later)["receipt"]
    restored = tmp_path / "restored.sqlite3"  # the backup put back, and the server started on it
    shutil.copy(tmp_path / "backup.sqlite3", restored)
    client = create_app({"TESTING": True, "DATABASE": f"sqlite:///{restored}"}).test_client()
    found = check(client, event, [receipt])
    assert found["valid"] is True and found["ok"] is False, found
    assert "the trail ends at entry 2" in found["receipts"]["problems"][0]


def test_db_verify_takes_receipts_from_files(
    client: FlaskClient, owner: Engine, database: str, tmp_path: Path
) -> None:
    event, _, receipts = event_with_changes(client)
    kept = tmp_path / "receipts.json"
    kept.write_text(json.dumps(receipts))
    runner = CliRunner()
    done = runner.invoke(main, ["db", "verify", "--database", database, "--receipts", str(kept)])
    assert done.exit_code == 0, done.output
    assert "3 receipt(s) checked, 0 that do not hold" in done.stderr
    cut(owner, event)
    done = runner.invoke(main, ["db", "verify", event, "--database", database,
                                "--receipts", str(kept)])  # fmt: skip
    assert done.exit_code == 1
    assert f"receipt for entry 4 of event {event}: the trail ends at entry 3" in done.stdout
    kept.write_text('[{"version": 1, "event": "x", "entry": 0}]')
    done = runner.invoke(main, ["db", "verify", "--database", database, "--receipts", str(kept)])
    assert done.exit_code == 1 and "bad-receipt" in done.stderr and "'entry'" in done.stderr


def test_a_receipt_of_another_key_or_forged_does_not_hold(client: FlaskClient) -> None:
    event, _, receipts = event_with_changes(client)
    forged = {**receipts[-1], "hash": receipts[0]["hash"]}
    found = check(client, event, [forged])
    assert found["ok"] is False and "signature does not hold" in found["receipts"]["problems"][0]
    answer = client.post(f"/api/v1/events/{event}/verify", json={"receipts": [{"version": 9}]})
    assert answer.status_code == 400 and body(answer)["error"]["code"] == "bad-receipt"


# --- verification covers every column a reader sees -------------------------------------------


@pytest.mark.parametrize(
    ("sql", "problem"),
    [
        ("UPDATE records SET round = 7 WHERE event_id = :e AND number = 1",
         "record 1: its round is 7; its header says 1"),
        ("UPDATE uploads SET token = 9 WHERE event_id = :e AND number = 1",
         "upload 1: it was sent with token 9; the trail says token 1"),
        ("UPDATE events SET version = 99 WHERE id = :e",
         "the event's version is 99; the trail ends at entry 4"),
    ],
)  # fmt: skip
def test_every_column_follows_from_the_trail(
    client: FlaskClient, owner: Engine, sql: str, problem: str
) -> None:
    event, _, _ = event_with_changes(client)
    assert body(client.get(f"/api/v1/events/{event}/verify"))["valid"] is True
    unguarded(owner, sql, e=event)
    found = body(client.get(f"/api/v1/events/{event}/verify"))
    assert found["valid"] is False and problem in found["problems"]


def test_nothing_follows_the_finalised_entry(client: FlaskClient, owner: Engine) -> None:
    event, token, _ = event_with_changes(client)
    client.post(f"/api/v1/events/{event}/finalise", json={}, headers=bearer(token))
    log = body(client.get(f"/api/v1/events/{event}/log"))["log"]
    after = make_entry(event, len(log) + 1, log[-1]["at"], 1, "excluded",
                       {"record": 1, "was": "accepted"}, "late", log[-1]["hash"])  # fmt: skip
    row = after.row()
    unguarded(owner, "INSERT INTO log (event_id, number, at, token, action, details, reason, "
              "prev, hash) VALUES (:event_id, :number, :at, :token, :action, :details, "
              ":reason, :prev, :hash)", **row)  # fmt: skip
    unguarded(owner, "UPDATE records SET status = 'excluded' WHERE event_id = :e AND number = 1",
              e=event)  # fmt: skip
    unguarded(owner, f"UPDATE events SET version = {len(log) + 1} WHERE id = :e", e=event)
    found = body(client.get(f"/api/v1/events/{event}/verify"))
    assert found["problems"] == [
        f"entry {len(log) + 1}: it was made after the event was finalised (entry {len(log)})"
    ]


def test_an_event_without_a_trail_does_not_verify(client: FlaskClient, owner: Engine) -> None:
    event, _, _ = event_with_changes(client)
    unguarded(owner, "DELETE FROM log WHERE event_id = :e", e=event)
    found = body(client.get(f"/api/v1/events/{event}/verify"))
    assert found["problems"] == ["the event has no trail: not one entry records it"]


# --- an archive is one event ------------------------------------------------------------------


def export(database: str, event: str, tmp_path: Path) -> bytes:
    out = tmp_path / f"{event}.zip"
    done = CliRunner().invoke(main, ["db", "export", event, "-o", str(out),
                                     "--database", database])  # fmt: skip
    assert done.exit_code == 0, done.output
    return out.read_bytes()


def rewritten(archive: bytes, change: Any) -> bytes:
    """``archive`` with its event.json changed by ``change`` (its uploads kept)."""
    source = zipfile.ZipFile(io.BytesIO(archive))
    description = json.loads(source.read("event.json"))
    change(description)
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as target:
        for info in source.infolist():
            data = source.read(info)
            if info.filename == "event.json":
                data = json.dumps(description).encode()
            target.writestr(info.filename, data)
    return out.getvalue()


@pytest.mark.parametrize("part", ["tokens", "uploads", "records", "log"])
def test_an_archive_with_a_row_of_another_event_is_refused_whole(
    client: FlaskClient, database: str, tmp_path: Path, part: str
) -> None:
    mine, _, _ = event_with_changes(client)
    other, _ = create(client, name="Another")
    archive = export(database, mine, tmp_path)
    key = "event" if part == "log" else "event_id"

    def forge(description: dict[str, Any]) -> None:
        description["event"]["id"] = "fresh0000000a"  # imported as a new event...
        for name in ("tokens", "uploads", "records", "log"):
            for row in description[name]:
                row["event" if name == "log" else "event_id"] = "fresh0000000a"
        description[part][-1][key] = other  # ...with one row for the other event

    forged = tmp_path / "forged.zip"
    forged.write_bytes(rewritten(archive, forge))
    before = body(client.get(f"/api/v1/events/{other}/log"))["log"]
    done = CliRunner().invoke(main, ["db", "import", str(forged), "--database", database])
    assert done.exit_code == 1
    assert f"belongs to '{other}'" in done.stderr and "nothing of it was imported" in done.stderr
    assert body(client.get(f"/api/v1/events/{other}/log"))["log"] == before
    assert client.get("/api/v1/events/fresh0000000a").status_code == 404


def test_an_archive_s_description_is_bounded_while_it_is_read(
    client: FlaskClient, database: str, tmp_path: Path
) -> None:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        with archive.open("event.json", "w") as member:  # 80 MiB of spaces, a few KB zipped
            for _ in range(80):
                member.write(b" " * (1 << 20))
    path = tmp_path / "huge.zip"
    path.write_bytes(out.getvalue())
    tracemalloc.start()
    try:
        done = CliRunner().invoke(main, ["db", "import", str(path), "--database", database])
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert done.exit_code == 1 and "larger than" in done.stderr
    assert peak < 90 * 2**20, f"{peak / 2**20:.0f} MiB"
