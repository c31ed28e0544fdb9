"""The reads behind the event's pages (``service/events/pages.py``, ``trail_words.py``) and a
record repaired from the desk (``POST .../records/N/repair``), on SQLite and PostgreSQL: each
record says whether it counts and why, rounds and players have pages of their own, a record's
text is cut from its upload alone, and a repair keeps the original beside its corrected copy,
both in the trail with the corrections and the reason."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from flask.testing import FlaskClient

from arbiter.notation.sources import read_records
from arbiter.service.events import pages
from arbiter.service.events.migrate import open_store
from arbiter.service.events.trail_words import trail_lines
from arbiter.service.events.views import RecordView
from tests.events.conftest import bearer, body, create
from tests.events.test_events import ROUNDS, post_files
from tests.events.test_paired import NAMES, game_text, post, upload

SLIPPED = next(path for path in ROUNDS if path.name == "uploads-after-round-4.grn")


def tournament(client: FlaskClient) -> tuple[str, str]:
    """An event without pairings holding the sample tournament's five files."""
    event, token = create(client, rounds=5)
    for path in ROUNDS:
        assert post_files(client, event, token, path).status_code == 201
    return event, token


def hinted(client: FlaskClient, event: str) -> dict[str, Any]:
    """The record whose first error carries a repair suggestion (ply 31: c4 for c3)."""
    records = body(client.get(f"/api/v1/events/{event}/records"))["records"]
    return next(
        one for one in records if not one["valid"] and one["report"]["errors"][0].get("suggestions")
    )


def test_each_record_says_whether_it_counts_and_why(client: FlaskClient, database: str) -> None:
    event, token = tournament(client)
    store = open_store(database)
    games = pages.event_games(store, event)
    words = {line.record.record: line.counting for line in games.records if line.record}
    assert len(words) == 16
    assert {c.state for c in words.values()} == {pages.COUNTS, pages.OUT}
    refused = hinted(client, event)["record"]
    assert words[refused].words.startswith("does not count: illegal-move at ply 31")
    # what the standings say of a record they leave out is its words: this one, without a
    # Round tag (nor an Event tag, of which it is warned: that alone would not keep it out)
    [untagged] = [
        line for line in games.records
        if line.record and any(w.code == "no-event-tag" for w in line.record.warnings)
    ]  # fmt: skip
    assert untagged.counting.words == "does not count: the record has no Round tag"
    # two files of the same name are told apart: each record is named by its number
    assert all("@" not in c.words for c in words.values())
    # the players are numbered as they first appear, and stay so as records arrive
    kept = pages.list_records(store, event)
    first = pages.player_names(kept, ("Blue", "Orange"))
    assert first[:2] == [kept[0].players["Blue"], kept[0].players["Orange"]]
    assert len(first) == len(set(first)) == 7  # a seventh appears in a record that cannot count
    assert dict(games.numbers)[first[0]] == 1
    number = first.index("player-02") + 1
    assert pages.find_players(store, event, "PLAYER-02") == [(number, "player-02")]
    assert sorted(n for n, _ in pages.find_players(store, event, "player-0")) == list(range(1, 8))
    client.post(f"/api/v1/events/{event}/records/{refused}/exclude",
                json={"reason": "a slip"}, headers=bearer(token))  # fmt: skip
    after = pages.event_games(store, event)
    excluded = next(g for g in after.records if g.record and g.record.record == refused)
    assert excluded.counting.words == "does not count: excluded by the director: a slip"


def test_a_round_a_player_and_a_game_have_pages(client: FlaskClient, database: str) -> None:
    event, _ = tournament(client)
    store = open_store(database)
    one = pages.round_page(store, event, 1)
    assert one.rounds == (1, 2, 3, 4) and len(one.games) == 3
    assert one.games[0].title.startswith("Round 1 · Record 1 · ")
    [after_one] = one.tables
    assert after_one.rounds == 1 and len(after_one.standings) == 6
    player = pages.player_page(store, event, 2)
    assert player.name == one.games[0].second and player.rank is not None
    assert [r.round for r in player.rounds][:4] == [1, 2, 3, 4]
    assert {r.outcome for r in player.rounds} <= {"won", "lost"} | {
        r.outcome for r in player.rounds if r.outcome.startswith("does not count")
    }
    for path, status in [
        (f"/events/{event}/rounds/1", 200),
        (f"/events/{event}/rounds/4", 200),
        (f"/events/{event}/rounds/9", 404),
        (f"/events/{event}/players/2", 200),
        (f"/events/{event}/players/99", 404),
        (f"/events/{event}/records/3", 200),
        (f"/events/{event}/records/999", 404),
        (f"/events/{event}/log", 200),
        (f"/events/{event}/upload", 200),
        (f"/events/{event}/find?name=player-0", 200),
    ]:
        assert client.get(path).status_code == status, path
    found = client.get(f"/events/{event}/find?name={player.name.upper()}")
    assert found.status_code == 303 and found.headers["Location"].endswith("/players/2")
    text = client.get(f"/api/v1/events/{event}/records/3/text")
    assert text.status_code == 200 and text.content_type.startswith("text/plain")
    assert len(list(read_records(text.data))) == 1 and b"player-03" in text.data
    json_text = client.get(f"/api/v1/events/{event}/records/7/text")  # round-3.json
    assert json_text.content_type == "application/json"
    assert len(list(read_records(json_text.data, fmt="json"))) == 1
    assert client.get(f"/api/v1/events/{event}/records/999/text").status_code == 404


def test_a_paired_round_shows_its_boards_before_any_result(
    client: FlaskClient, database: str
) -> None:
    made = client.post("/api/v1/events", json={"name": "Club Swiss", "game": "Pilo",
                                                "rounds": 3, "pairing": "dutch"})  # fmt: skip
    event, token = body(made)["id"], body(made)["token"]
    base = f"/api/v1/events/{event}"
    players = [{"name": n, "rating": r} for n, r in NAMES[:7]]
    assert post(client, f"{base}/players", token, {"players": players}).status_code == 201
    paired = body(post(client, f"{base}/rounds", token))
    store = open_store(database)
    waiting = pages.round_page(store, event, 1)
    assert [g.board for g in waiting.games] == [1, 2, 3] and waiting.waiting == [1, 2, 3]
    assert (
        waiting.games[0].title
        == f"Round 1 · Board 1 · {paired['boards'][0]['first']} v "
        + (paired["boards"][0]["second"])
    )
    assert [bye.kind for bye in waiting.byes] == ["pairing"]
    board = paired["boards"][0]
    kept = upload(client, event, token, game_text("Club Swiss", 1, board["first"],
                                                  board["second"], board["first"]))  # fmt: skip
    after = pages.round_page(store, event, 1)
    assert after.waiting == [2, 3] and after.games[0].result == "1-0"
    assert after.games[0].record is not None and after.games[0].record.record == kept["record"]
    standing = {s.player: s.points for s in after.tables[0].standings}
    assert standing[board["first"]] == 1
    number = board["first_number"]
    player = pages.player_page(store, event, number)
    assert player.rounds[0].outcome == "won" and player.rounds[0].opponent == board["second"]
    game = pages.game_of_record(store, event, kept["record"])
    assert game.game.path == "rounds/1/boards/1"
    assert client.get(f"/events/{event}/rounds/1/boards/1").status_code == 200
    assert client.get(f"/events/{event}/rounds/1/boards/9").status_code == 404
    assert client.get(f"/events/{event}/rounds/2").status_code == 404


def test_a_record_is_repaired_beside_its_original(client: FlaskClient, database: str) -> None:
    event, token = tournament(client)
    refused = hinted(client, event)
    # the scoresheet has c4 at ply 31 (the refused move): that hint is applied, whichever
    # place it takes among those that make the record replay to its claimed result
    suggestions = refused["report"]["errors"][0]["suggestions"]
    hint = next(one for one in suggestions[:3] if one["ply"] == 31 and one["move"] == "c4")
    fix = f"{hint['ply']}:{hint['move']}@{hint['line']}:{hint['column']}"
    path = f"/api/v1/events/{event}/records/{refused['record']}/repair"
    asked = {"apply": [fix], "reason": "copied from the scoresheet"}
    upload_token = body(client.post(f"/api/v1/events/{event}/tokens", json={"label": "p"},
                                    headers=bearer(token)))["token"]  # fmt: skip
    assert client.post(path, json=asked, headers=bearer(upload_token)).status_code == 403
    for wrong in ({"apply": "31:c4", "reason": "x"}, {"apply": ["no"], "reason": "x"},
                  {"apply": [fix]}):  # fmt: skip
        assert client.post(path, json=wrong, headers=bearer(token)).status_code == 400, wrong
    no_good = {"apply": ["31:f9"], "reason": "x"}
    refusal = client.post(path, json=no_good, headers=bearer(token))
    assert refusal.status_code == 422 and body(refusal)["error"]["code"] == "cannot-correct"

    done = client.post(path, json=asked, headers=bearer(token))
    assert done.status_code == 201, done.json
    answer = body(done)
    assert answer["original"]["status"] == "excluded" and "receipt" in answer
    [copy] = answer["copy"]["records"]
    assert copy["valid"] and copy["status"] == "accepted" and copy["result"] == hint["result"]
    assert (
        answer["copy"]["file"] == f"uploads-after-round-4-record-{refused['record']}-corrected.grn"
    )
    text = client.get(f"/api/v1/events/{event}/records/{copy['record']}/text").data
    assert len(list(read_records(text))) == 1 and b" c4 " in text
    log = body(client.get(f"/api/v1/events/{event}/log"))["log"]
    excluded, uploaded = log[-2], log[-1]
    assert excluded["action"] == "excluded" and excluded["details"]["record"] == refused["record"]
    assert f"corrected copy, record {copy['record']} (ply 31 c4 for c3)" in excluded["reason"]
    assert excluded["reason"].endswith("copied from the scoresheet")
    assert uploaded["action"] == "uploaded"
    assert uploaded["reason"].startswith(f"corrected copy of record {refused['record']}")
    assert body(client.get(f"/api/v1/events/{event}/verify"))["valid"] is True
    again = client.post(path, json=asked, headers=bearer(token))
    assert again.status_code == 409 and body(again)["error"]["code"] == "already-excluded"
    # the trail in words says who did it, what and why
    lines = trail_lines(open_store(database), event)
    assert lines[0].number == len(log) and lines[0].who == "director (director token 1)"
    assert lines[0].what.startswith("uploaded uploads-after-round-4-record-")
    assert lines[1].what.startswith(f"record {refused['record']} (round 4,")
    assert lines[1].what.endswith(": excluded") and "copied from the scoresheet" in (
        lines[1].why or ""
    )
    assert lines[-1].what == "created the event Autumn Open (Pilo, 5 rounds planned)"
    page = client.get(f"/events/{event}/log").data.decode()
    assert "copied from the scoresheet" in page and "issued an upload token" in page


def test_counting_words_of_a_paired_record() -> None:
    players = {"Blue": "A", "Orange": "B"}
    view = RecordView(1, 1, "0" * 64, "a.grn", 0, 2, players, "accepted", None, "Blue+R",
                      "Blue+R", True, {"errors": []}, (2, None, "seats-reversed"))  # fmt: skip
    found = pages.counting(view, {}, {})
    assert found.state == pages.OUT and "the other way round" in found.words
    on_board = replace(view, board=(2, 3, None))
    assert pages.counting(on_board, {}, {}).words == "counts on board 3 of round 2"
