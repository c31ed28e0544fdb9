"""The desk forgives (spec/pairings.md §8, spec/events.md §5): a record finds its board by
names written as people write them, a record that fits no board is answered with the boards
it fits best, placing a record either gives its board the result or is refused with why, a
board can always be given its result by hand, and the same change sent twice is one change.
On SQLite and on PostgreSQL."""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient

import arbiter
from arbiter.notation.ast import Tag
from arbiter.notation.grn_writer import write_grn
from tests.events.conftest import bearer, body

PLAYERS = [("Ana Ruiz", 2000), ("Bo Chen", 1900), ("Ilić", 1800), ("P5", 1700)]


def game(
    event: str, round_number: int, blue: str, orange: str, winner: str, *, swap: bool = False
) -> str:
    """A short legal Pilo game between ``blue`` and ``orange`` (the colours at the start),
    won by ``winner`` by resignation; with ``swap``, Orange takes the pie at its first turn,
    so that the result names the winner by the colour they end with."""
    played = arbiter.Game("Pilo", 6)
    played.play(next(iter(played.legal_moves())))
    if swap:
        played.play(next(m for m in played.legal_moves() if "Swap" in type(m).__name__))
    for _ in range(3):
        played.play(next(iter(played.legal_moves())))
    ends_blue = blue if not swap else orange
    colour = "Blue" if winner == ends_blue else "Orange"
    record = played.record().replace(
        tags=(Tag("Event", event), Tag("Round", str(round_number))),
        players=(("Blue", blue), ("Orange", orange)),
        result=f"{colour}+R",
    )
    return write_grn(record)


class Desk:
    """An event run through the API, as the desk runs it."""

    def __init__(self, client: FlaskClient) -> None:
        self.client = client
        made = client.post(
            "/api/v1/events",
            json={"name": "Desk Open", "game": "Pilo", "rounds": 3, "pairing": "dutch"},
        )
        assert made.status_code == 201, made.json
        self.id, self.token = body(made)["id"], body(made)["token"]
        self.base = f"/api/v1/events/{self.id}"

    def ask(self, method: str, path: str, payload: Any = None, **headers: str) -> Any:
        return self.client.open(
            f"{self.base}{path}",
            method=method,
            json=payload,
            headers={**bearer(self.token), **headers},
        )

    def ok(self, method: str, path: str, payload: Any = None) -> dict[str, Any]:
        answer = self.ask(method, path, payload)
        assert 200 <= answer.status_code < 300, answer.json
        return body(answer)

    def upload(self, text: str) -> dict[str, Any]:
        answer = self.client.post(
            f"{self.base}/records",
            data=text.encode(),
            content_type="text/plain",
            headers=bearer(self.token),
        )
        assert answer.status_code in (200, 201), answer.json
        [kept] = body(answer)["uploads"][0]["records"]
        return kept

    def round(self, number: int) -> dict[str, Any]:
        return body(self.client.get(f"{self.base}/rounds/{number}"))

    def trail(self) -> list[dict[str, Any]]:
        return body(self.client.get(f"{self.base}/log"))["log"]

    def verified(self) -> None:
        assert body(self.client.get(f"{self.base}/verify"))["problems"] == []


@pytest.fixture
def desk(client: FlaskClient) -> Desk:
    made = Desk(client)
    made.ok("POST", "/players", {"players": [{"name": n, "rating": r} for n, r in PLAYERS]})
    made.ok("POST", "/rounds")
    return made


def boards_of(desk: Desk, number: int) -> dict[int, tuple[str, str]]:
    return {b["board"]: (b["first"], b["second"]) for b in desk.round(number)["boards"]}


def loose(name: str) -> str:
    """``name`` as a scoresheet might write it: another case, accents, order or spacing."""
    return {
        "Ana Ruiz": "Ruiz, Ana",
        "Bo Chen": "Bo  Chen ",
        "Ilić": "Ilic",
        "P5": "p5",
    }[name]


def test_records_find_their_board_by_names_written_otherwise(desk: Desk) -> None:
    for board, (first, second) in boards_of(desk, 1).items():
        kept = desk.upload(game("Desk Open", 1, loose(first), loose(second), loose(first)))
        assert (kept["board_round"], kept["board"], kept["placement"]) == (1, board, None)
        assert kept["seats"] == "as-paired" and kept["suggestions"] == []
        [warning] = [w for w in kept["warnings"] if w["code"] == "names-folded"]
        for name in (first, second):
            assert f"is {name} (" in warning["message"]
    words = " ".join(
        w["message"]
        for r in body(desk.client.get(f"{desk.base}/records"))["records"]
        for w in r["warnings"]
    )
    assert "(the order Surname, Given)" in words and "(accents)" in words and "(case)" in words
    assert "(spacing)" in words
    finished = desk.round(1)
    assert finished["waiting"] == [] and [b["result"] for b in finished["boards"]] == ["1-0"] * 2
    assert desk.ask("POST", "/rounds").status_code == 201  # the next round pairs
    desk.verified()


def test_two_players_folding_to_one_name_are_not_guessed(client: FlaskClient) -> None:
    desk = Desk(client)
    desk.ok("POST", "/players", {"players": [{"name": "Ilić"}, {"name": "Ilic", "confirm": True},
                                             {"name": "Ann"}, {"name": "Bo"}]})  # fmt: skip
    desk.ok("POST", "/rounds")
    board, (first, second) = next(
        (n, b) for n, b in boards_of(desk, 1).items() if "Ilić" in b and "Ilic" not in b
    )
    written = ["ILIC" if name == "Ilić" else name for name in (first, second)]
    kept = desk.upload(game("Desk Open", 1, written[0], written[1], written[0]))
    assert kept["placement"] == "not-paired"  # ILIC could be either player: no guess
    assert (1, board) in {(one["round"], one["board"]) for one in kept["suggestions"]}
    exact = desk.upload(game("Desk Open", 1, first, second, first))
    assert exact["placement"] is None  # exact names always find their players


def test_a_record_that_fits_no_board_is_told_the_boards_it_fits_and_placed_in_one_go(
    desk: Desk,
) -> None:
    boards = boards_of(desk, 1)
    first, second = boards[1]
    # a scoresheet with a misspelt name, the seats the other way round
    kept = desk.upload(game("Desk Open", 1, second, first[:-1] + "x", second))
    assert kept["placement"] == "not-paired" and kept["board"] is None
    best = kept["suggestions"][0]
    assert (best["round"], best["board"], best["seats"]) == (1, 1, "reversed")
    assert (best["first"], best["second"]) == (first, second) and 0.5 < best["likeness"] < 1
    listed = body(desk.client.get(f"{desk.base}/records/{kept['record']}"))
    assert listed["suggestions"][0] == best  # the same on the record's own read
    placed = desk.ok(
        "POST",
        f"/records/{kept['record']}/place",
        {"round": 1, "board": 1, "seats": best["seats"], "reason": "scoresheet misspelt"},
    )
    assert (placed["placement"], placed["board"], placed["seats"]) == (None, 1, "reversed")
    assert placed["suggestions"] == []
    [warning] = [w for w in placed["warnings"] if w["code"] == "names-taken"]
    assert "taken as" in warning["message"]
    board = desk.round(1)["boards"][0]
    assert board["result"] == "0-1" and board["state"] == "result"  # second seat won
    entry = desk.trail()[-1]
    assert entry["action"] == "record-placed" and entry["details"]["seats"] == "reversed"
    assert entry["details"]["names"] == [first[:-1] + "x", second]
    trf = desk.client.get(f"{desk.base}/standings?format=trf").data.decode()
    assert f"{first[:-1] + 'x'} as {first}" in trf  # the PLC line says which name was whose
    desk.verified()


def test_a_record_of_other_players_is_placed_on_the_board_the_director_names(desk: Desk) -> None:
    first, second = boards_of(desk, 1)[2]
    kept = desk.upload(game("Desk Open", 1, "Emil", "Zoe", "Zoe"))
    assert kept["placement"] == "not-paired"
    placed = desk.ok("POST", f"/records/{kept['record']}/place",
                     {"round": 1, "board": 2, "reason": "players' names missing"})  # fmt: skip
    assert placed["seats"] == "as-paired"  # nothing alike: its first colour in the first seat
    assert desk.round(1)["boards"][1]["result"] == "0-1"  # Zoe, its second colour, won
    desk.verified()


def test_after_a_swap_the_result_goes_to_the_player_who_won(desk: Desk) -> None:
    for board, (first, second) in boards_of(desk, 1).items():
        winner = first if board == 1 else second
        kept = desk.upload(game("Desk Open", 1, first, second, winner, swap=True))
        assert kept["report"]["swapped"] is True
        assert kept["report"]["winner_player"] == winner
    results = [b["result"] for b in desk.round(1)["boards"]]
    assert results == ["1-0", "0-1"]
    standings = {line["player"]: line["points"] for line in
                 body(desk.client.get(f"{desk.base}/standings"))["standings"]}  # fmt: skip
    boards = boards_of(desk, 1)
    assert standings[boards[1][0]] == 1 and standings[boards[2][1]] == 1


@pytest.mark.parametrize(
    ("text", "code", "said"),
    [
        ("[Game \"Pletore\"]\n[Size \"7\"]\n[Komi \"0\"]\n[Round \"1\"]\n1. d4 *\n",
         "cannot-place", "a game of Pletore"),
        ("[Game \"Pilo\"]\n[Size \"6\n", "cannot-place", "could not be read"),
    ],
)  # fmt: skip
def test_a_record_that_cannot_give_a_result_is_refused_with_why(
    desk: Desk, text: str, code: str, said: str
) -> None:
    kept = desk.upload(text)
    refused = desk.ask("POST", f"/records/{kept['record']}/place",
                       {"round": 1, "board": 1, "reason": "try"})  # fmt: skip
    assert refused.status_code == 422 and body(refused)["error"]["code"] == code
    assert said in body(refused)["error"]["message"]
    assert desk.round(1)["waiting"] == [1, 2]


def test_placing_is_refused_on_a_board_with_a_result_and_for_an_unfinished_game(
    desk: Desk,
) -> None:
    (a, b), (c, d) = boards_of(desk, 1).values()
    first = desk.upload(game("Desk Open", 1, a, b, a))
    second = desk.upload(game("Desk Open", 2, a, b, b))  # round tag wrong: stands on none
    assert second["placement"] == "wrong-round"
    taken = desk.ask("POST", f"/records/{second['record']}/place",
                     {"round": 1, "board": 1, "reason": "x"})  # fmt: skip
    assert taken.status_code == 409 and body(taken)["error"]["code"] == "board-has-a-result"
    assert f"record {first['record']}" in body(taken)["error"]["message"]
    desk.ok("PUT", "/rounds/1/boards/2/result", {"result": "+-", "reason": "no show"})
    given = desk.ask("POST", f"/records/{second['record']}/place",
                     {"round": 1, "board": 2, "reason": "x"})  # fmt: skip
    assert given.status_code == 409 and "+-" in body(given)["error"]["message"]
    unfinished = game("Desk Open", 1, c, d, c).replace("Blue+R", "*")
    open_game = desk.upload(unfinished)
    refused = desk.ask("POST", f"/records/{open_game['record']}/place",
                       {"round": 1, "board": 2, "reason": "x"})  # fmt: skip
    assert refused.status_code in (409, 422)
    desk.ok("POST", f"/records/{second['record']}/exclude", {"reason": "wrong sheet"})
    excluded = desk.ask("POST", f"/records/{second['record']}/place",
                        {"round": 1, "board": 1, "reason": "x"})  # fmt: skip
    assert excluded.status_code == 409 and body(excluded)["error"]["code"] == "already-excluded"
    desk.verified()


def test_a_board_with_a_record_takes_a_result_by_hand_and_gives_it_back(desk: Desk) -> None:
    a, b = boards_of(desk, 1)[1]
    desk.upload(game("Desk Open", 1, a, b, a))
    assert desk.round(1)["boards"][0]["result"] == "1-0"
    given = desk.ok("PUT", "/rounds/1/boards/1/result", {"result": "0-1", "reason": "appeal"})
    assert given["boards"][0]["result"] == "0-1" and given["boards"][0]["state"] == "director"
    back = desk.ok("DELETE", "/rounds/1/boards/1/result", {"reason": "appeal withdrawn"})
    assert back["boards"][0]["result"] == "1-0" and back["boards"][0]["state"] == "result"
    desk.verified()


def test_the_same_change_sent_twice_is_answered_as_the_first(desk: Desk) -> None:
    a, b = boards_of(desk, 1)[1]
    kept = desk.upload(game("Desk Open", 1, a, b + "!", a))
    assert kept["placement"] == "not-paired"
    place = {"round": 1, "board": 1, "reason": "misspelt"}
    for path, method, payload in [
        (f"/records/{kept['record']}/place", "POST", place),
        ("/rounds/1/boards/2/result", "PUT", {"result": "-+", "reason": "late"}),
        ("/rounds/1/boards/2/result", "DELETE", {"reason": "came after all"}),
        (f"/records/{kept['record']}/exclude", "POST", {"reason": "x"}),
        (f"/records/{kept['record']}/reinstate", "POST", {"reason": "y"}),
        (f"/records/{kept['record']}/result", "PUT", {"result": "Orange+F", "reason": "z"}),
        (f"/records/{kept['record']}/result", "DELETE", {"reason": "w"}),
    ]:
        first = desk.ask(method, path, payload)
        assert first.status_code == 200, (path, first.json)
        entries = len(desk.trail())
        again = desk.ask(method, path, payload)
        assert again.status_code == 200, (path, again.json)
        assert body(again)["receipt"] == body(first)["receipt"], path
        assert again.headers.get("Idempotent-Replayed") == "true"
        assert "Idempotent-Replayed" not in first.headers
        assert len(desk.trail()) == entries, path
    desk.verified()


def keyed(key: str) -> dict[str, str]:
    return {"Idempotency-Key": key}


def test_a_change_sent_again_with_its_key_is_answered_as_the_first(
    client: FlaskClient, database: str
) -> None:
    fields = {"name": "Keyed Open", "game": "Pilo", "rounds": 3, "pairing": "dutch"}
    made = client.post("/api/v1/events", json=fields, headers=keyed("create-1"))
    again = client.post("/api/v1/events", json=fields, headers=keyed("create-1"))
    assert made.status_code == again.status_code == 201
    assert again.data == made.data and again.headers["Idempotent-Replayed"] == "true"
    listed = [e for e in body(client.get("/api/v1/events"))["events"] if e["name"] == "Keyed Open"]
    assert len(listed) == 1  # one event, and its token shown again to the holder of the key
    token = body(made)["token"]
    base = f"/api/v1/events/{body(made)['id']}"
    both = {**bearer(token), **keyed("add-ana")}
    first = client.post(f"{base}/players", json={"name": "Ana"}, headers=both)
    second = client.post(f"{base}/players", json={"name": "Ana"}, headers=both)
    assert first.status_code == second.status_code == 201 and second.data == first.data
    other = client.post(f"{base}/players", json={"name": "Bo"}, headers=both)
    assert other.status_code == 422
    assert body(other)["error"]["code"] == "idempotency-key-reused"
    log = body(client.get(f"{base}/log"))["log"]
    assert [e["action"] for e in log] == ["event-created", "player-added"]
    client.post(f"{base}/players", json={"name": "Bo"}, headers=bearer(token))
    paired = client.post(f"{base}/rounds", headers={**bearer(token), **keyed("pair-1")})
    repaired = client.post(f"{base}/rounds", headers={**bearer(token), **keyed("pair-1")})
    assert paired.status_code == repaired.status_code == 201 and paired.data == repaired.data
    fresh = client.post(f"{base}/rounds", headers={**bearer(token), **keyed("pair-2")})
    assert fresh.status_code == 409  # a new key is a new request: round 1 is not finished
    board = body(paired)["boards"][0]
    text = game("Keyed Open", 1, board["first"], board["second"], board["first"])
    sent = [
        client.post(f"{base}/records", data=text.encode(), content_type="text/plain",
                    headers={**bearer(token), **keyed("upload-1")})
        for _ in range(2)
    ]  # fmt: skip
    assert [one.status_code for one in sent] == [201, 201] and sent[0].data == sent[1].data
    assert not body(sent[1])["uploads"][0]["duplicate"]  # the first answer, not "sent before"
    bad = client.post(f"{base}/players", json={"name": "Cy"},
                      headers={**bearer(token), **keyed("ключ")})  # fmt: skip
    assert bad.status_code == 400 and body(bad)["error"]["field"] == "Idempotency-Key"
    foreign = client.post(f"{base}/players", json={"name": "Ana"},
                          headers={**bearer("arb_x"), **keyed("add-ana")})  # fmt: skip
    assert foreign.status_code == 401  # the token is checked before any answer is given
    assert body(client.get(f"{base}/verify"))["problems"] == []


def test_kept_answers_hold_no_secret_and_a_key_being_answered_waits(
    client: FlaskClient, database: str
) -> None:
    from arbiter.service.events import storage
    from arbiter.service.events.idempotency import request_key
    from arbiter.service.events.migrate import open_store
    from arbiter.service.events.rows import AnswerRow

    made = client.post("/api/v1/events", json={"name": "Sealed", "game": "Pilo"},
                       headers=keyed("sealed-1"))  # fmt: skip
    token, event = body(made)["token"], body(made)["id"]
    issued = client.post(f"/api/v1/events/{event}/tokens", json={"label": "p1"},
                         headers={**bearer(token), **keyed("token-1")})  # fmt: skip
    secrets = [token, body(issued)["token"]]
    kept = open_store(database)
    with storage.reading(kept) as tx:
        rows = [storage.kept_answer(tx, scope, request_key(k, "POST", p, t, b).key_hash)
                for scope, k, p, t, b in [
                    ("", "sealed-1", "/api/v1/events", None, b""),
                    (event, "token-1", f"/api/v1/events/{event}/tokens", token, b""),
                ]]  # fmt: skip
    for row in rows:
        assert row is not None and row.body is not None
        assert all(secret.encode() not in row.body for secret in secrets)
    waiting = request_key("slow-1", "POST", f"/api/v1/events/{event}/finalise", token, b"{}")
    with storage.writing(kept) as tx:
        storage.keep_request(tx, AnswerRow(event, waiting.key_hash, waiting.fingerprint(),
                                           2, None, None, "2026-11-28T10:00:00.000Z"),
                             "2000-01-01T00:00:00.000Z")  # fmt: skip
    answer = client.post(f"/api/v1/events/{event}/finalise", json={},
                         headers={**bearer(token), **keyed("slow-1")})  # fmt: skip
    assert answer.status_code == 409 and body(answer)["error"]["code"] == "request-in-progress"


def numbers_of(desk: Desk) -> dict[str, int]:
    listed = body(desk.client.get(f"{desk.base}/players"))["players"]
    return {p["name"]: p["number"] for p in listed}


def finish_round(desk: Desk, number: int) -> None:
    """Every board of round ``number`` won by its first seat, through a record."""
    for board in desk.round(number)["boards"]:
        if board["result"] is None:
            desk.upload(game("Desk Open", number, board["first"], board["second"], board["first"]))
    assert desk.round(number)["waiting"] == []


def test_a_player_is_corrected_and_the_new_name_flows_everywhere(client: FlaskClient) -> None:
    desk = Desk(client)
    desk.ok("POST", "/players", {"players": [{"name": n, "rating": r} for n, r in PLAYERS]})
    assert numbers_of(desk)["P5"] == 4
    fixed = desk.ok("PATCH", "/players/4", {"rating": 2100, "reason": "typed 1700"})
    assert fixed["number"] == 1 and fixed["rating"] == 2100  # FIDE's order again: rated first
    assert numbers_of(desk) == {"P5": 1, "Ana Ruiz": 2, "Bo Chen": 3, "Ilić": 4}
    taken = desk.ask("PATCH", "/players/1", {"name": "Bo Chen", "reason": "x"})
    assert taken.status_code == 409 and body(taken)["error"]["code"] == "duplicate-player"
    like = desk.ask("PATCH", "/players/1", {"name": "bo chen", "reason": "x"})
    assert like.status_code == 409 and body(like)["error"]["code"] == "similar-name"
    unknown = desk.ask("PATCH", "/players/1", {"colour": "x", "reason": "x"})
    assert unknown.status_code == 400 and body(unknown)["error"]["field"] == "colour"
    no_reason = desk.ask("PATCH", "/players/1", {"federation": "ESP"})
    assert no_reason.status_code == 400 and body(no_reason)["error"]["field"] == "reason"
    desk.ok("POST", "/rounds")
    (a, b), _ = boards_of(desk, 1).values()
    desk.upload(game("Desk Open", 1, a, b, a))
    renamed = "Pia Five" if "P5" in (a, b) else "Ana María Ruiz"
    old = "P5" if "P5" in (a, b) else "Ana Ruiz"
    number = numbers_of(desk)[old]
    first = desk.ask("PATCH", f"/players/{number}", {"name": renamed, "reason": "full name"})
    assert first.status_code == 200 and body(first)["number"] == number  # numbers stay now
    again = desk.ask("PATCH", f"/players/{number}", {"name": renamed, "reason": "full name"})
    assert again.status_code == 200 and body(again)["receipt"] == body(first)["receipt"]
    board = desk.round(1)["boards"][0]
    assert renamed in (board["first"], board["second"]) and board["result"] == "1-0"
    standings = body(desk.client.get(f"{desk.base}/standings"))["standings"]
    assert renamed in {line["player"] for line in standings}
    trf = desk.client.get(f"{desk.base}/standings?format=trf").data.decode()
    assert renamed in trf and f"name {old!r} to {renamed!r}" in trf
    assert "### CHG" in trf
    desk.verified()


def test_a_player_never_paired_is_removed_and_the_numbers_close_up(client: FlaskClient) -> None:
    desk = Desk(client)
    desk.ok("POST", "/players", {"players": [{"name": n, "rating": r} for n, r in PLAYERS]})
    desk.ok("POST", "/players", {"name": "Mistake", "rating": 1850})
    assert numbers_of(desk)["Mistake"] == 3
    wrong = desk.ask("DELETE", "/players/3", {"reason": "typo", "name": "Bo Chen"})
    assert wrong.status_code == 409 and body(wrong)["error"]["code"] == "player-changed"
    left = desk.ok("DELETE", "/players/3", {"reason": "entered twice", "name": "Mistake"})
    assert [p["name"] for p in left["players"]] == ["Ana Ruiz", "Bo Chen", "Ilić", "P5"]
    assert [p["number"] for p in left["players"]] == [1, 2, 3, 4]
    desk.ok("POST", "/rounds")
    paired = desk.ask("DELETE", "/players/1", {"reason": "x"})
    assert paired.status_code == 409 and body(paired)["error"]["code"] == "player-was-paired"
    finish_round(desk, 1)
    desk.ok("POST", "/players", {"name": "Late One"})
    desk.ok("POST", "/players", {"name": "Late Two"})
    assert numbers_of(desk)["Late Two"] == 6
    gone = desk.ok("DELETE", "/players/5", {"reason": "did not come", "name": "Late One"})
    assert [p["number"] for p in gone["players"] if p["name"] == "Late Two"] == [5]
    desk.ok("POST", "/rounds")  # Late Two, number 5, is paired in round 2
    assert "Late Two" in {n for b in desk.round(2)["boards"] for n in (b["first"], b["second"])}
    trf = desk.client.get(f"{desk.base}/standings?format=trf").data.decode()
    assert "### DEL" in trf and "Late One (number 5) removed" in trf
    desk.verified()


def test_a_bye_is_cancelled_before_its_round_and_not_after(desk: Desk) -> None:
    number = numbers_of(desk)["Bo Chen"]
    desk.ok("POST", f"/players/{number}/byes", {"round": 3, "kind": "half"})
    twice = desk.ask("POST", f"/players/{number}/byes", {"round": 3, "kind": "half"})
    assert twice.status_code == 200 and twice.headers["Idempotent-Replayed"] == "true"
    first = desk.ask("DELETE", f"/players/{number}/byes/3", {"reason": "plays after all"})
    assert first.status_code == 200
    again = desk.ask("DELETE", f"/players/{number}/byes/3", {"reason": "plays after all"})
    assert again.status_code == 200 and body(again)["receipt"] == body(first)["receipt"]
    none = desk.ask("DELETE", f"/players/{number}/byes/2", {"reason": "x"})
    assert none.status_code == 404 and body(none)["error"]["code"] == "no-such-bye"
    paired = desk.ask("DELETE", f"/players/{number}/byes/1", {"reason": "x"})
    assert paired.status_code == 409 and body(paired)["error"]["code"] == "round-already-paired"
    trf = desk.client.get(f"{desk.base}/standings?format=trf").data.decode()
    assert "the half-point bye of round 3 is cancelled" in trf
    desk.verified()


def test_a_withdrawal_is_taken_back_and_the_rounds_missed_stay_absences(desk: Desk) -> None:
    from arbiter.pairing import check, read_trf

    number = numbers_of(desk)["Ilić"]
    beyond = desk.ask("POST", f"/players/{number}/withdraw", {"round": 50, "reason": "x"})
    assert beyond.status_code == 400 and body(beyond)["error"]["field"] == "round"
    first = desk.ask("POST", f"/players/{number}/withdraw", {"round": 2, "reason": "ill"})
    again = desk.ask("POST", f"/players/{number}/withdraw", {"round": 2, "reason": "ill"})
    assert again.status_code == 200 and body(again)["receipt"] == body(first)["receipt"]
    finish_round(desk, 1)
    desk.ok("POST", "/rounds")
    byes = {bye["player"]: bye["kind"] for bye in desk.round(2)["byes"]}
    assert byes["Ilić"] == "withdrawn"
    back = desk.ok("DELETE", f"/players/{number}/withdraw", {"reason": "recovered"})
    assert back["withdrawn_from"] is None
    not_now = desk.ask("DELETE", f"/players/{number}/withdraw", {"reason": "recovered"})
    assert not_now.status_code == 200  # sent twice: the first answer
    assert {bye["player"]: bye["kind"] for bye in desk.round(2)["byes"]}["Ilić"] == "absent"
    finish_round(desk, 2)
    desk.ok("POST", "/rounds")
    assert "Ilić" in {n for b in desk.round(3)["boards"] for n in (b["first"], b["second"])}
    finish_round(desk, 3)
    trf = desk.client.get(f"{desk.base}/standings?format=trf").data.decode()
    tournament = read_trf(trf)
    assert check(tournament, "dutch") == []
    line = next(one for one in trf.splitlines() if one.startswith("001") and "Ilić" in one)
    assert "0000 - Z" in line  # round 2, missed
    assert "withdrawal from round 2 is taken back; paired again from round 3" in trf
    desk.verified()


def test_a_dutch_event_needs_its_planned_rounds(client: FlaskClient) -> None:
    from arbiter.service.events.common import EventError
    from arbiter.service.events.paired import rules
    from arbiter.service.events.rows import EventRow

    made = client.post("/api/v1/events", json={"name": "No plan", "game": "Pilo",
                                               "pairing": "dutch"})  # fmt: skip
    assert made.status_code == 400 and body(made)["error"]["field"] == "rounds"
    assert "last" in body(made)["error"]["message"]
    desk = Desk(client)
    unplanned = desk.ask("PATCH", "", {"rounds": None})
    assert unplanned.status_code == 400 and body(unplanned)["error"]["field"] == "rounds"
    robin = client.post("/api/v1/events", json={"name": "RR", "game": "Pilo",
                                                "pairing": "round-robin"})  # fmt: skip
    assert robin.status_code == 201  # a round robin's table says its rounds
    earlier = EventRow("e", "Old", "Pilo", None, None, True, AT_ANY, None, 1, "dutch")
    with pytest.raises(EventError) as refused:
        rules.next_round(earlier, 0, [])
    assert refused.value.code == "no-planned-rounds"
    assert "set the planned rounds" in refused.value.message


AT_ANY = "2026-11-28T10:00:00.000Z"


# --- every state of a board, through every action --------------------------------------------


def _state(desk: Desk, name: str) -> dict[str, int]:
    """Board 1 of round 1 brought to the state ``name``; board 2 finished. Answers the
    records made: ``own`` (board 1's record), ``stray`` (a record of board 1 on no board)."""
    (a, b), (c, d) = boards_of(desk, 1).values()
    desk.upload(game("Desk Open", 1, c, d, d))
    stray = desk.upload(game("Desk Open", 1, a + " Jr", b, b))["record"]
    made = {"stray": stray}
    if name == "waiting":
        return made
    if name == "forfeit":
        desk.ok("PUT", "/rounds/1/boards/1/result", {"result": "+-", "reason": "no show"})
        return made
    if name == "placed":
        desk.ok("POST", f"/records/{stray}/place", {"round": 1, "board": 1, "reason": "sheet"})
        return {**made, "own": stray}
    own = desk.upload(game("Desk Open", 1, a, b, a))["record"]
    made["own"] = own
    if name == "excluded":
        desk.ok("POST", f"/records/{own}/exclude", {"reason": "wrong sheet"})
    elif name == "official":
        desk.ok("PUT", f"/records/{own}/result", {"result": "Orange+F", "reason": "appeal"})
    return made


STATES = ("waiting", "result", "placed", "excluded", "official", "forfeit")


def _actions(made: dict[str, int]) -> list[tuple[str, str, dict[str, Any] | None]]:
    own, stray = made.get("own", made["stray"]), made["stray"]
    return [
        ("PUT", "/rounds/1/boards/1/result", {"result": "1-0", "reason": "r"}),
        ("PUT", "/rounds/1/boards/1/result", {"result": "--", "reason": "r"}),
        ("DELETE", "/rounds/1/boards/1/result", {"reason": "r"}),
        ("POST", f"/records/{stray}/place", {"round": 1, "board": 1, "reason": "r"}),
        ("POST", f"/records/{stray}/place",
         {"round": 1, "board": 1, "seats": "reversed", "reason": "r"}),
        ("POST", f"/records/{own}/exclude", {"reason": "r"}),
        ("POST", f"/records/{own}/reinstate", {"reason": "r"}),
        ("PUT", f"/records/{own}/result", {"result": "Blue+R", "reason": "r"}),
        ("DELETE", f"/records/{own}/result", {"reason": "r"}),
        ("POST", f"/records/{own}/confirm", {}),
        ("POST", "/rounds", None),
        ("DELETE", "/rounds/1", {"reason": "r"}),
    ]  # fmt: skip


def _consistent(desk: Desk) -> None:
    """What the round says of board 1 agrees with the records, and the event verifies."""
    board = desk.round(1)["boards"][0]
    records = body(desk.client.get(f"{desk.base}/records"))["records"]
    standing = [
        r for r in records
        if (r["board_round"], r["board"], r["placement"]) == (1, 1, None)
        and r["status"] != "excluded"
    ]  # fmt: skip
    assert len(standing) <= 1, standing  # never two records on one board
    assert board["record"] == (standing[0]["record"] if standing else None)
    if board["state"] in ("result", "director"):
        assert board["result"] is not None
    else:
        assert board["result"] is None and 1 in desk.round(1)["waiting"]
    if board["state"] == "result":
        assert standing and standing[0]["status"] == "accepted"
    desk.verified()


@pytest.mark.parametrize("state", STATES)
def test_every_state_of_a_board_takes_every_action_and_the_round_can_always_finish(
    client: FlaskClient, state: str
) -> None:
    for position in range(len(_actions({"stray": 0}))):
        desk = Desk(client)
        desk.ok("POST", "/players", {"players": [{"name": n, "rating": r} for n, r in PLAYERS]})
        desk.ok("POST", "/rounds")
        made = _state(desk, state)
        _consistent(desk)
        method, path, payload = _actions(made)[position]
        answer = desk.ask(method, path, payload)
        assert answer.status_code < 500, (state, path, answer.json)
        if answer.status_code >= 400:
            assert body(answer)["error"]["message"]
        if path == "/rounds/1" and answer.status_code == 200:
            continue  # the round was taken back: nothing is left to finish
        _consistent(desk)
        if desk.round(1)["waiting"]:  # the director can always finish it by hand
            desk.ok("PUT", "/rounds/1/boards/1/result", {"result": "+-", "reason": "finish"})
        assert desk.round(1)["waiting"] == []
        if path != "/rounds" or answer.status_code != 201:
            assert desk.ask("POST", "/rounds").status_code == 201, (state, path)
        _consistent(desk)


def test_an_event_corrected_and_undone_is_exported_and_imported_whole(
    client: FlaskClient, tmp_path: Any
) -> None:
    from click.testing import CliRunner

    from arbiter.service.cli.main import main
    from arbiter.service.web import create_app

    desk = Desk(client)
    desk.ok("POST", "/players", {"players": [{"name": n, "rating": r} for n, r in PLAYERS]})
    desk.ok("POST", "/players", {"name": "Extra", "rating": 1000})
    desk.ok("DELETE", "/players/5", {"reason": "twice", "name": "Extra"})
    desk.ok("POST", "/players/4/byes", {"round": 2, "kind": "zero"})
    desk.ok("DELETE", "/players/4/byes/2", {"reason": "plays"})
    desk.ok("PATCH", "/players/4", {"name": "Pia Five", "reason": "full name"})
    desk.ok("POST", "/players/3/withdraw", {"round": 2, "reason": "ill"})
    desk.ok("POST", "/rounds")
    first, second = boards_of(desk, 1)[1]
    stray = desk.upload(game("Desk Open", 1, first + "x", second, second))
    desk.ok("POST", f"/records/{stray['record']}/place",
            {"round": 1, "board": 1, "reason": "misspelt"})  # fmt: skip
    desk.ok("PUT", "/rounds/1/boards/2/result", {"result": "+-", "reason": "no show"})
    desk.ok("POST", "/rounds")
    desk.ok("DELETE", "/players/3/withdraw", {"reason": "better"})
    database = str(client.application.config["DATABASE"])
    archive = tmp_path / "event.zip"
    runner = CliRunner()
    done = runner.invoke(
        main, ["db", "export", "--database", database, desk.id, "-o", str(archive)]
    )
    assert done.exit_code == 0, done.stderr
    target = f"sqlite:///{tmp_path / 'restored.sqlite3'}"
    done = runner.invoke(main, ["db", "import", "--database", target, str(archive)])
    assert done.exit_code == 0, done.stderr
    restored = create_app({"DATABASE": target}).test_client()
    for path in ("/players", "/rounds", "/records", "/standings?format=trf", "/log", "/verify"):
        one = client.get(f"{desk.base}{path}")
        two = restored.get(f"{desk.base}{path}")
        assert (two.status_code, two.data) == (one.status_code, one.data), path
