"""Bounded work under the lock (spec/events.md §1, spec/pairings.md §8), on SQLite and on
PostgreSQL: adding players costs the same statements whatever the event holds; a pairing is
computed outside the write transaction, on a snapshot, and written only if the event did
not change meanwhile; the engine is stopped at its limits with a clear error; a manual
pairing is checked in linear time; a token made for a player claims that player's boards
only, and a record that waits never takes a board from one that counts. Counted and
ordered, never timed."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from flask.testing import FlaskClient
from sqlalchemy import event

from arbiter.service.events import rounds
from arbiter.service.events.store import open_store
from tests.events.conftest import bearer, body
from tests.events.test_desk import PLAYERS, Desk, boards_of, game


@pytest.fixture
def statements(client: FlaskClient, database: str) -> Iterator[list[str]]:
    """The statements the app's database is sent from now on."""
    client.get("/api/v1/events")
    engine = open_store(database).engine
    sent: list[str] = []

    def sending(*args: Any) -> None:
        sent.append(args[2].split(None, 1)[0].upper())

    event.listen(engine, "before_cursor_execute", sending)
    yield sent
    event.remove(engine, "before_cursor_execute", sending)


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
    engine = rounds._engine_pairing
    calls: list[int] = []

    def pairing_meanwhile(paired: Any) -> Any:
        calls.append(paired.event.version)
        # while the engine works, another event's director and this event's both write: no
        # lock of the pairing is held, so neither waits (on SQLite, one writer at a time)
        assert other.ask("POST", "/players", {"name": f"Other {len(calls)}"}).status_code == 201
        if len(calls) == 1:
            assert desk.ask("PATCH", "", {"name": "Desk Open 2026"}).status_code == 200
        return engine(paired)

    monkeypatch.setattr(rounds, "_engine_pairing", pairing_meanwhile)
    paired = desk.ok("POST", "/rounds")
    assert paired["round"] == 1 and len(calls) == 2  # the first pairing was of an older event
    assert calls[1] > calls[0]
    actions = [entry["action"] for entry in desk.trail()]
    assert actions[-2:] == ["event-changed", "round-paired"]

    def always_changing(paired: Any) -> Any:
        desk.ok("PATCH", "", {"name": f"Desk Open {paired.event.version}"})
        return engine(paired)

    monkeypatch.setattr(rounds, "_engine_pairing", always_changing)
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
    monkeypatch.setattr(rounds, "ENGINE_LIMITS", rounds.Limits(seconds=60, memory=8 * 2**20))
    refused = desk.ask("POST", "/rounds")
    assert refused.status_code == 422 and body(refused)["error"]["code"] == "engine-limit"
    assert "8 MiB" in body(refused)["error"]["message"]
    assert desk.ok("GET", "/rounds")["rounds"] == []  # nothing written


def test_a_manual_pairing_of_many_boards_is_checked_in_linear_time(client: FlaskClient) -> None:
    from arbiter.service.events import rules
    from arbiter.service.events.common import EventError

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
