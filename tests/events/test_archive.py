"""Backup: ``arbiter db export`` writes one event to an archive and ``arbiter db import``
restores it into any database, with the same standings and a trail that still verifies;
and the ``arbiter db`` commands' other work and refusals (spec/events.md §7)."""

from __future__ import annotations

import io
import json
import zipfile
from pathlib import Path

import pytest
from click.testing import CliRunner
from flask.testing import FlaskClient

from arbiter.service.cli.main import main
from arbiter.service.events.migrate import head
from arbiter.service.web import create_app
from tests.events.conftest import bearer, body
from tests.events.test_trail import run_event
from tools.postgres import Postgres


@pytest.fixture(params=["sqlite-to-postgresql", "postgresql-to-sqlite"])
def two_databases(request: pytest.FixtureRequest, tmp_path: Path) -> tuple[str, str]:
    server: Postgres = request.getfixturevalue("postgres")
    sqlite = f"sqlite:///{tmp_path / 'events.sqlite3'}"
    postgresql = server.new_database()
    return (sqlite, postgresql) if request.param.startswith("sqlite") else (postgresql, sqlite)


def db(*args: str) -> tuple[int, str, str]:
    done = CliRunner().invoke(main, ["db", *args])
    return done.exit_code, done.stdout, done.stderr


def test_an_event_exported_and_imported_elsewhere_is_the_same(
    two_databases: tuple[str, str], tmp_path: Path
) -> None:
    source, target = two_databases
    client = create_app({"DATABASE": source}).test_client()
    event, token = run_event(client)
    archive = tmp_path / "event.zip"
    code, _, said = db("export", "--database", source, event, "-o", str(archive))
    assert code == 0, said
    code, _, said = db("import", "--database", target, str(archive))
    assert code == 0, said
    assert f"event {event} imported" in said
    restored = create_app({"DATABASE": target}).test_client()
    for path in (
        "",
        "/standings",
        "/standings?format=trf",
        "/records",
        "/log",
        "/uploads",
        "/verify",
    ):
        one = client.get(f"/api/v1/events/{event}{path}")
        two = restored.get(f"/api/v1/events/{event}{path}")
        assert (two.status_code, two.data) == (one.status_code, one.data), path
    assert body(restored.get(f"/api/v1/events/{event}/verify"))["valid"] is True
    code, out, _ = db("verify", "--database", target)
    assert code == 0 and out == f"{event}: ok (11 entries)\n"
    again = db("import", "--database", target, str(archive))
    assert again[0] == 1 and "event-exists" in again[2]
    # the director's token still works where the event went (it is finalised, hence 409)
    refused = restored.post(f"/api/v1/events/{event}/finalise", headers=bearer(token))
    assert refused.status_code == 409


def _rewritten(archive: bytes, change: str) -> bytes:
    """The archive with its description or an upload changed as ``change`` says."""
    source = zipfile.ZipFile(io.BytesIO(archive))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as target:
        for info in source.infolist():
            data = source.read(info)
            if info.filename == "event.json":
                description = json.loads(data)
                if change == "reason":
                    description["log"][6]["reason"] = "another reason"
                elif change == "status":
                    description["records"][0]["status"] = "accepted"
                data = json.dumps(description).encode()
            elif change == "upload" and info.filename.startswith("uploads/1-"):
                data = data.replace(b"Blue", b"Bleu", 1)
            target.writestr(info, data)
    return out.getvalue()


@pytest.mark.parametrize(
    ("change", "said"),
    [
        ("reason", "entry 7: its content does not match its hash"),
        ("status", "record 1: its status is 'accepted'; the trail says 'excluded'"),
        ("upload", "does not match its SHA-256"),
    ],
)
def test_an_archive_changed_since_its_export_is_refused(
    database: str, tmp_path: Path, change: str, said: str
) -> None:
    client = create_app({"DATABASE": database}).test_client()
    event, _ = run_event(client)
    exported = tmp_path / "event.zip"
    assert db("export", "--database", database, event, "-o", str(exported))[0] == 0
    changed = tmp_path / "changed.zip"
    changed.write_bytes(_rewritten(exported.read_bytes(), change))
    target = f"sqlite:///{tmp_path / 'other.sqlite3'}"
    code, _, message = db("import", "--database", target, str(changed))
    assert code == 1 and said in message, message
    assert db("list", "--database", target)[1] == ""  # nothing was kept


@pytest.mark.parametrize(
    "content",
    [b"", b"not a zip", b"PK\x03\x04" + b"\0" * 100, None],
    ids=["empty", "text", "broken-zip", "zip-without-event"],
)
def test_a_file_that_is_no_archive_is_refused_in_one_line(
    tmp_path: Path, content: bytes | None
) -> None:
    path = tmp_path / "x.zip"
    if content is None:
        with zipfile.ZipFile(path, "w") as archive:
            archive.writestr("other.txt", "x")
    else:
        path.write_bytes(content)
    code, _, said = db("import", "--database", f"sqlite:///{tmp_path / 'd.sqlite3'}", str(path))
    assert code == 1 and said.startswith(f"arbiter: {path}: bad-archive: ")
    assert said.count("\n") == 1 and "Traceback" not in said


def test_db_commands_say_what_is_wrong_with_a_database_url(tmp_path: Path) -> None:
    for url in ("mysql://x/y", "sqlite://", "sqlite:///:memory:", "nonsense"):
        code, _, said = db("upgrade", "--database", url)
        assert code == 1 and said.startswith("arbiter: ") and "Traceback" not in said, said
    code, _, said = db("upgrade", "--database", f"postgresql://nobody@/x?host={tmp_path}")
    assert code == 1 and said.startswith("arbiter: cannot upgrade") and "Traceback" not in said
    code, _, said = db(
        "export",
        "--database",
        f"sqlite:///{tmp_path / 'd.sqlite3'}",
        "nope",
        "-o",
        str(tmp_path / "x.zip"),
    )
    assert code == 1 and said == "arbiter: there is no event 'nope'\n"


def test_db_upgrade_creates_then_finds_the_schema_up_to_date(database: str) -> None:
    code, _, said = db("upgrade", "--database", database)
    assert code == 0 and f"upgraded from nothing to schema {head()}" in said
    code, _, said = db("upgrade", "--database", database)
    assert code == 0 and f"already at schema {head()}" in said


def test_the_default_database_is_a_file_in_the_data_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ARBITER_DATA", str(tmp_path / "data"))
    code, _, said = db("upgrade")
    assert code == 0 and str(tmp_path / "data" / "events.sqlite3") in said
    assert (tmp_path / "data" / "events.sqlite3").is_file()
    monkeypatch.delenv("ARBITER_DATA")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    assert db("upgrade")[0] == 0 and (tmp_path / "xdg" / "arbiter" / "events.sqlite3").is_file()


def test_the_migrated_schema_is_the_schema_the_code_describes(database: str) -> None:
    from alembic.autogenerate import compare_metadata
    from alembic.runtime.migration import MigrationContext

    from arbiter.service.events.migrate import open_store
    from arbiter.service.events.store import metadata

    store = open_store(database)
    with store.engine.connect() as conn:
        differences = compare_metadata(MigrationContext.configure(conn), metadata)
    assert differences == []


def test_list_shows_the_events(database: str) -> None:
    client: FlaskClient = create_app({"DATABASE": database}).test_client()
    made = body(client.post("/api/v1/events", json={"name": "<b>Open</b>", "game": "Implo"}))
    code, out, _ = db("list", "--database", database)
    assert code == 0
    assert out.startswith(f"{made['id']}\tImplo\t{made['created_at']}\topen\t<b>Open</b>")


def test_an_archive_of_an_earlier_version_still_imports_and_verifies(database: str) -> None:
    archive = Path(__file__).resolve().parent / "archive-v1.zip"
    code, _, said = db("import", "--database", database, str(archive))
    assert code == 0 and "event wsue7t5alms4m imported" in said, said
    client = create_app({"DATABASE": database}).test_client()
    log = body(client.get("/api/v1/events/wsue7t5alms4m/log"))["log"]
    assert log[-1]["hash"] == "f3079e1143c3d9b286b1fac232b2fa388a5ec9a6fbc7051e647281a020767566"
    assert body(client.get("/api/v1/events/wsue7t5alms4m/verify"))["valid"] is True
    trf = client.get("/api/v1/events/wsue7t5alms4m/standings?format=trf").data.decode()
    assert [line for line in trf.splitlines() if line.startswith("### head")] == [
        "### head: entry 12, hash f3079e1143c3d9b286b1fac232b2fa388a5ec9a6fbc7051e647281a020767566"
    ]
    assert [line for line in trf.splitlines() if line.startswith("###")][:-1] == [
        "### 2026-11-26T19:09:23.649Z correction 6 by token 1: record 1 (round 1, player-01 v "
        "player-04, body #1) excluded; reason: wrong round",
        "### 2026-11-26T19:09:23.651Z correction 7 by token 1: record 1 (round 1, player-01 v "
        "player-04, body #1) counted again; reason: right after all",
        "### 2026-11-26T19:09:23.654Z correction 8 by token 1: record 2 (round 1, player-05 v "
        "player-02, body #2) official result Blue+F (adjudicated Orange+13); reason: no show",
        "### 2026-11-26T19:09:23.656Z correction 9 by token 1: record 2 (round 1, player-05 v "
        "player-02, body #2) official result taken back: the adjudicated result counts; "
        "reason: played after all",
    ]
    # the archive's own director token (of this test event only) still opens it: the event
    # is finalised, hence 409 and not 401
    token = "arb_Cd2pAfu7Nr49C3yxaHY6IdIKIoIh8XZ83c1C_H4N-xM"
    refused = client.post("/api/v1/events/wsue7t5alms4m/finalise", headers=bearer(token))
    assert (refused.status_code, body(refused)["error"]["code"]) == (409, "event-finalised")
