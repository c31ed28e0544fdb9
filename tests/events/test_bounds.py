"""Bounded work under the lock (spec/events.md §1, spec/pairings.md §8), on SQLite and on
PostgreSQL: adding players costs the same statements whatever the event holds; a pairing is
computed outside the write transaction, on a snapshot, and written only if the event did
not change meanwhile; the engine is stopped at its limits with a clear error; a manual
pairing is checked in linear time; a token made for a player claims that player's boards
only, and a record that waits never takes a board from one that counts. Counted and
ordered, never timed."""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient

from arbiter.service.events.migrate import open_store
from arbiter.service.events.paired import rounds as paired_rounds
from arbiter.service.events.paired import state as rounds
from tests.events.conftest import bearer, body
from tests.events.test_desk import PLAYERS, Desk, boards_of, game
from tests.events.test_round_trips import statements

__all__ = ["statements"]  # the statements sent to the database, counted


def test_adding_players_costs_the_same_statements_whatever_the_event_holds(
    client: FlaskClient, statements: list[str]
) -> None:
    desk = Desk(client)
    counts = []
    for part in range(3):
        players = [{"name": f"P {part:02d}{n:03d}", "rating": 1000 + (n * 37) % 1500}
                   for n in range(400)]  # fmt: skip
        statements.clear()
        answer = desk.ask("POST", "/players", {"players": players})
        assert answer.status_code == 201 and len(body(answer)["players"]) == 400 * (part + 1)
        counts.append(len(statements))
    # the first finds nobody to number again; then the same, not one more per player held
    assert counts[0] <= counts[1] == counts[2], counts
    assert counts[0] < 40
    numbers = [p["number"] for p in body(client.get(f"{desk.base}/players"))["players"]]
    assert numbers == list(range(1, 1201))
    desk.verified()


def test_a_pairing_is_computed_outside_the_lock_and_made_again_if_the_event_changed(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    desk = Desk(client)
    other = Desk(client)
    desk.ok("POST", "/players", {"players": [{"name": n, "rating": r} for n, r in PLAYERS]})
    engine = rounds.engine_pairing
    calls: list[int] = []

    def pairing_meanwhile(paired: Any) -> Any:
        calls.append(paired.event.version)
        # while the engine works, another event's director and this event's both write: no
        # lock of the pairing is held, so neither waits (on SQLite, one writer at a time)
        assert other.ask("POST", "/players", {"name": f"Other {len(calls)}"}).status_code == 201
        if len(calls) == 1:
            assert desk.ask("PATCH", "", {"name": "Desk Open 2026"}).status_code == 200
        return engine(paired)

    monkeypatch.setattr(paired_rounds, "engine_pairing", pairing_meanwhile)
    paired = desk.ok("POST", "/rounds")
    assert paired["round"] == 1 and len(calls) == 2  # the first pairing was of an older event
    assert calls[1] > calls[0]
    actions = [entry["action"] for entry in desk.trail()]
    assert actions[-2:] == ["event-changed", "round-paired"]

    def always_changing(paired: Any) -> Any:
        desk.ok("PATCH", "", {"name": f"Desk Open {paired.event.version}"})
        return engine(paired)

    monkeypatch.setattr(paired_rounds, "engine_pairing", always_changing)
    for board in desk.round(1)["boards"]:
        desk.upload(game("Desk Open", 1, board["first"], board["second"], board["first"]))
    refused = desk.ask("POST", "/rounds")
    assert refused.status_code == 409 and body(refused)["error"]["code"] == "event-changed"
    desk.verified()


def test_the_engine_is_stopped_at_its_limits_with_a_clear_error(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    desk = Desk(client)
    desk.ok("POST", "/players", {"players": [{"name": n, "rating": r} for n, r in PLAYERS]})
    monkeypatch.setattr(rounds, "ENGINE_LIMITS", rounds.Limits(seconds=0.01, memory=2**31))
    refused = desk.ask("POST", "/rounds")
    assert refused.status_code == 422 and body(refused)["error"]["code"] == "engine-limit"
    assert "took more than 0.01 s" in body(refused)["error"]["message"]
    assert desk.ok("GET", "/rounds")["rounds"] == []  # nothing written


def test_a_manual_pairing_of_many_boards_is_checked_in_linear_time(client: FlaskClient) -> None:
    from arbiter.service.events.common import EventError
    from arbiter.service.events.paired import rules

    present = list(range(1, 2001))
    boards = [{"first": n, "second": n + 1} for n in range(1, 2000, 2)]
    made = rules.manual_pairing({"boards": boards}, present, {}, 1.0)
    assert len(made[0]) == 1000
    twice = [*boards[:-1], {"first": 1, "second": 2000}]
    with pytest.raises(EventError) as refused:
        rules.manual_pairing({"boards": twice}, present, {}, 1.0)
    assert refused.value.extra["extra"] == [1] and refused.value.extra["missing"] == [1999]
    many = [{"first": 1, "second": 2}] * 1001
    with pytest.raises(EventError, match="at most 1000 boards"):
        rules.manual_pairing({"boards": many}, present, {}, 1.0)


def test_a_token_made_for_a_player_claims_that_players_boards_only(
    client: FlaskClient,
) -> None:
    desk = Desk(client)
    desk.ok("PATCH", "", {"confirm_uploads": False})  # a player's records count at once
    desk.ok("POST", "/players", {"players": [{"name": n, "rating": r} for n, r in PLAYERS]})
    desk.ok("POST", "/rounds")
    (a, b), (c, d) = boards_of(desk, 1).values()
    number = {p["name"]: p["number"] for p in desk.ok("GET", "/players")["players"]}
    made = desk.ok("POST", "/tokens", {"label": a, "player": number[a]})
    assert made["player"] == number[a]
    own = client.post(f"{desk.base}/records", data=game("Desk Open", 1, c, d, c).encode(),
                      content_type="text/plain", headers=bearer(made["token"]))  # fmt: skip
    [fake] = body(own)["uploads"][0]["records"]
    assert fake["placement"] == "not-your-board" and desk.round(1)["boards"][1]["result"] is None
    mine = client.post(f"{desk.base}/records", data=game("Desk Open", 1, a, b, a).encode(),
                       content_type="text/plain", headers=bearer(made["token"]))  # fmt: skip
    [kept] = body(mine)["uploads"][0]["records"]
    assert kept["placement"] is None and desk.round(1)["boards"][0]["result"] == "1-0"
    tokens = desk.ok("GET", "/tokens")["tokens"]
    assert tokens[-1]["player"] == number[a] and tokens[0]["player"] is None
    wrong = desk.ask("POST", "/tokens", {"label": "x", "player": 99})
    assert wrong.status_code == 404 and body(wrong)["error"]["code"] == "no-such-player"
    director = desk.ask("POST", "/tokens", {"label": "x", "role": "director", "player": 1})
    assert director.status_code == 400 and body(director)["error"]["field"] == "player"
    desk.verified()


def test_a_record_that_waits_never_takes_a_board_from_one_that_counts(
    client: FlaskClient,
) -> None:
    desk = Desk(client)
    desk.ok("POST", "/players", {"players": [{"name": n, "rating": r} for n, r in PLAYERS]})
    desk.ok("POST", "/rounds")
    (a, b), _ = boards_of(desk, 1).values()
    token = desk.ok("POST", "/tokens", {"label": "deputy"})["token"]
    sent = client.post(f"{desk.base}/records", data=game("Desk Open", 1, a, b, b).encode(),
                       content_type="text/plain", headers=bearer(token))  # fmt: skip
    [waiting] = body(sent)["uploads"][0]["records"]
    assert waiting["status"] == "pending" and waiting["placement"] is None
    assert desk.round(1)["boards"][0]["state"] == "waits-for-confirmation"
    counted = desk.upload(game("Desk Open", 1, a, b, a))  # the director's: it counts
    assert counted["placement"] is None and counted["board"] == 1
    board = desk.round(1)["boards"][0]
    assert (board["record"], board["result"]) == (counted["record"], "1-0")
    late = desk.ask("POST", f"/records/{waiting['record']}/confirm", {})
    assert late.status_code == 409 and body(late)["error"]["code"] == "board-has-a-result"
    desk.verified()


def test_an_unreadable_row_is_a_problem_of_its_event_only(
    client: FlaskClient, database: str
) -> None:
    from click.testing import CliRunner
    from sqlalchemy import text

    from arbiter.service.cli.main import main

    desk = Desk(client)
    desk.ok("POST", "/players", {"players": [{"name": n, "rating": r} for n, r in PLAYERS]})
    desk.ok("POST", "/rounds")
    other = Desk(client)
    engine = open_store(database).engine
    with engine.begin() as connection:
        connection.execute(
            text("UPDATE pairings SET boards = 'not json' WHERE event_id = :e"), {"e": desk.id}
        )
    verdict = body(client.get(f"{desk.base}/verify"))
    assert verdict["valid"] is False
    assert verdict["problems"] == [
        "round 1: its boards or byes are not a pairing's (JSONDecodeError: Expecting value: "
        "line 1 column 1 (char 0))"
    ]
    page = client.get(f"/events/{desk.id}/rounds/1")
    assert page.status_code == 500 and b"cannot be read" in page.data
    assert b"Traceback" not in page.data and page.content_type.startswith("text/html")
    api = client.get(f"{desk.base}/rounds/1")
    assert api.status_code == 500 and body(api)["error"]["code"] == "event-damaged"
    assert client.get(f"/events/{other.id}").status_code == 200  # the other event answers
    with engine.begin() as connection:  # an entry appended behind the service's back
        connection.execute(
            text(
                "INSERT INTO log (event_id, number, at, token, action, details, reason, prev,"
                " hash) VALUES (:e, 99, 'x', 1, 'confirmed', '{not json', NULL, 'p', 'h')"
            ),
            {"e": other.id},
        )
    done = CliRunner().invoke(main, ["db", "verify", "--database", database])
    assert done.exit_code == 1
    lines = done.stdout.splitlines()
    assert f"{desk.id}: 1 problem(s)" in done.stdout or any(desk.id in one for one in lines)
    said = "\n".join(lines)
    assert "the log table, entry 99: its details are not JSON" in said
    assert "round 1: its boards or byes are not a pairing's" in said
    assert "Traceback" not in said and "internal error" not in done.stdout + done.stderr
    third = Desk(client)  # a record whose report is not JSON
    third.upload(game("Desk Open", 1, "Ana", "Bo", "Ana"))
    with engine.begin() as connection:
        connection.execute(text("UPDATE records SET report = '{' WHERE event_id = :e"),
                           {"e": third.id})  # fmt: skip
    problems = body(client.get(f"{third.base}/verify"))["problems"]
    assert "record 1: its header or report is not JSON" in problems
    shown = client.get(f"/events/{third.id}")
    assert shown.status_code == 500 and b"cannot be read" in shown.data


def test_verification_names_fields_and_finds_orphans_in_every_table(
    client: FlaskClient, database: str
) -> None:
    from click.testing import CliRunner
    from sqlalchemy import text

    from arbiter.service.cli.main import main

    desk = Desk(client)
    desk.ok("POST", "/players", {"players": [{"name": n, "rating": r} for n, r in PLAYERS]})
    engine = open_store(database).engine
    with engine.begin() as connection:
        connection.execute(
            text("UPDATE players SET name = 'Ana Rwiz' WHERE event_id = :e AND id = 1"),
            {"e": desk.id},
        )
    # a player left of an event deleted behind the service's back (no trail, token, upload
    # or record of it left: only its player says it was there)
    ghost = ("ghost", 1, 1, "Left Behind", None, None, None, 1, None, "2026-11-28T10:00:00Z")
    insert = "INSERT INTO players VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
    if database.startswith("sqlite"):  # its own connection: foreign keys are not checked
        import sqlite3

        raw = sqlite3.connect(database.removeprefix("sqlite:///"))
        raw.execute(insert, ghost)
        raw.commit()
        raw.close()
    else:
        with engine.begin() as connection:  # a superuser's session, its checks put aside
            connection.exec_driver_sql("SET session_replication_role = replica")
            connection.exec_driver_sql(insert.replace("?", "%s"), ghost)
    assert body(client.get(f"{desk.base}/verify"))["problems"] == [
        "player 1: its name is 'Ana Rwiz'; the trail says 'Ana Ruiz'"
    ]
    done = CliRunner().invoke(main, ["db", "verify", "--database", database])
    assert "ghost: its trail or rows remain, but the event itself was deleted" in done.stdout
    assert "PlayerFacts(" not in done.stdout


def test_a_large_events_verdict_is_kept_a_while_per_version(
    client: FlaskClient, database: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    from sqlalchemy import text

    from arbiter.service.events import verify

    monkeypatch.setattr(verify, "KEPT_ENTRIES", 3)
    desk = Desk(client)
    desk.ok("POST", "/players", {"players": [{"name": n, "rating": r} for n, r in PLAYERS]})
    assert body(client.get(f"{desk.base}/verify"))["valid"] is True
    with open_store(database).engine.begin() as connection:  # behind the service's back
        connection.execute(text("UPDATE players SET rating = 1 WHERE event_id = :e"),
                           {"e": desk.id})  # fmt: skip
    assert body(client.get(f"{desk.base}/verify"))["valid"] is True  # the verdict kept
    monkeypatch.setattr(verify, "KEPT_SECONDS", 0.0)  # the time kept is over
    assert body(client.get(f"{desk.base}/verify"))["valid"] is False
    # a change of the event is a new version: verified at once
    monkeypatch.setattr(verify, "KEPT_SECONDS", 3600.0)
    desk.ok("PATCH", "", {"name": "Desk Open again"})
    assert body(client.get(f"{desk.base}/verify"))["valid"] is False
    refused = client.post(f"{desk.base}/verify", json={"receipts": []})
    assert body(refused)["ok"] is False  # the receipts' check verifies afresh


def test_an_events_pages_are_made_once_per_version(client: FlaskClient, database: str) -> None:
    from sqlalchemy import text

    desk = Desk(client)
    desk.ok("POST", "/players", {"players": [{"name": n, "rating": r} for n, r in PLAYERS]})
    desk.ok("POST", "/rounds")
    pages = ("", "/rounds/1", "/players/1", "/rounds/1/boards/1", "/desk", "/log")
    first = {path: client.get(f"/events/{desk.id}{path}").data for path in pages}
    with open_store(database).engine.begin() as connection:  # the version left as it was
        connection.execute(text("UPDATE players SET name = 'Zed' WHERE event_id = :e AND id = 1"),
                           {"e": desk.id})  # fmt: skip
    for path in pages:  # the same version: the page as made, not made again
        assert client.get(f"/events/{desk.id}{path}").data == first[path], path
    desk.ok("PATCH", "", {"name": "Desk Open 2"})  # a change: every page made anew
    for path in pages:
        made = client.get(f"/events/{desk.id}{path}").data
        assert b"Desk Open 2" in made, path
        assert b"Zed" in made or path in ("/desk", "/log"), path  # these name no player


def test_the_servers_keys_are_recorded_and_a_new_one_is_said(
    tmp_path: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    import json

    from click.testing import CliRunner

    from arbiter.service.cli.main import main
    from arbiter.service.events.receipts import KEY_FILE, KEYS_FILE
    from arbiter.service.web import create_app

    folder = tmp_path / "data"
    monkeypatch.setenv("ARBITER_DATA", str(folder))
    database = f"sqlite:///{tmp_path / 'events.sqlite3'}"
    # a check of receipts never makes a key where there is none
    done = CliRunner().invoke(main, ["db", "verify", "--database", database])
    assert done.exit_code == 0 and not (folder / KEY_FILE).exists()
    app = create_app({"DATABASE": database, "DATA_FOLDER": str(folder)})
    client = app.test_client()
    made = body(client.post("/api/v1/events", json={"name": "Keys", "game": "Pilo"}))
    base = f"/api/v1/events/{made['id']}"
    change = client.patch(base, json={"name": "Keys 2"}, headers=bearer(made["token"]))
    old = body(change)["receipt"]
    assert [one["key"] for one in json.loads((folder / KEYS_FILE).read_text())] == [old["key"]]
    (folder / KEY_FILE).unlink()  # lost: the next server makes another, and says so
    app = create_app({"DATABASE": database, "DATA_FOLDER": str(folder)})
    client = app.test_client()
    change = client.patch(base, json={"name": "Keys 3"}, headers=bearer(made["token"]))
    new = body(change)["receipt"]
    assert new["key"] != old["key"]
    used = [one["key"] for one in json.loads((folder / KEYS_FILE).read_text())]
    assert used == [old["key"], new["key"]]
    checked = body(client.post(f"{base}/verify", json={"receipts": [old, new]}))
    assert checked["receipts"]["problems"] == []  # the receipts of the key before still check
    page = client.get(f"/events/{made['id']}").data.decode()
    assert "The server's key changed" in page and old["key"] in page


def test_the_server_says_at_its_start_when_its_key_changed(
    tmp_path: Any, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from arbiter.service.cli.serve import _key
    from arbiter.service.events.receipts import KEY_FILE

    monkeypatch.setenv("ARBITER_DATA", str(tmp_path))
    _key()
    first = capsys.readouterr().err
    assert "receipts signed with ed25519:" in first and "changed" not in first
    _key()
    assert "changed" not in capsys.readouterr().err  # the same key: nothing to say
    (tmp_path / KEY_FILE).unlink()
    _key()
    said = capsys.readouterr().err
    assert f"the server's key changed ({KEY_FILE} was missing and a new key was made)" in said
    assert first.split("receipts signed with ")[1].split()[0] in said


@pytest.mark.parametrize(
    ("name", "what"),
    [("\x1b[2J", "U+001B"), ("Ana\u202eziuR", "U+202E"), ("Bo\x85Chen", "U+0085"),
     ("Ali\u2066ce", "U+2066"), ("Del\x7f", "U+007F")],
)  # fmt: skip
def test_a_name_that_would_show_as_another_is_refused(
    client: FlaskClient, name: str, what: str
) -> None:
    desk = Desk(client)
    refused = desk.ask("POST", "/players", {"name": name})
    assert refused.status_code == 400 and body(refused)["error"]["code"] == "bad-name"
    assert what in body(refused)["error"]["message"]
    event = client.post("/api/v1/events", json={"name": name, "game": "Pilo"})
    assert event.status_code == 400 and body(event)["error"]["code"] == "bad-name"
    desk.ok("POST", "/players", {"name": "Ana"})
    renamed = desk.ask("PATCH", "/players/1", {"name": name, "reason": "x"})
    assert renamed.status_code == 400 and body(renamed)["error"]["code"] == "bad-name"


def test_invisible_characters_are_taken_out_and_like_names_flagged(client: FlaskClient) -> None:
    desk = Desk(client)
    kept = desk.ok("POST", "/players", {"name": "Zero\u200bWidth\u2060"})["players"]
    assert [p["name"] for p in kept] == ["ZeroWidth"]
    again = desk.ask("POST", "/players", {"name": "\ufeffZeroWidth"})
    assert again.status_code == 409 and body(again)["error"]["code"] == "duplicate-player"
    like = desk.ask("POST", "/players", {"name": "zerowidth"})
    assert like.status_code == 409 and body(like)["error"]["code"] == "similar-name"
    persian = desk.ok(
        "POST", "/players", {"name": "\u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645"}
    )
    assert "\u200c" in persian["players"][-1]["name"]  # a joiner its script writes with, kept
    csv = client.get(f"{desk.base}/standings?format=csv").data
    assert b"\x1b" not in csv and "\u200b".encode() not in csv
