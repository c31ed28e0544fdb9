"""A paired event run through the API alone, on SQLite and on PostgreSQL (spec/pairings.md):
players in, each round paired by the Dutch system, records uploaded onto their boards, a
record with its seats reversed, a forfeit without a record, a requested half-point bye, a
late entry and a withdrawal; the standings count the byes, and the TRF pairs again, round
by round, exactly as the event was paired."""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient

import arbiter
from arbiter.notation.ast import Tag
from arbiter.notation.grn_writer import write_grn
from arbiter.pairing import check, read_trf
from arbiter.pairing.berger import berger_rounds
from tests.events.conftest import bearer, body

NAMES = [
    ("Ilić", 2100),
    ("Berg", 2050),
    ("Costa", 2000),
    ("Dahl", 1990),
    ("Eze", 1950),
    ("Fink", 1900),
    ("Gaal", 1850),
    ("Holm", 1800),
    ("Ito", 1750),
    ("Juhl", 1700),
    ("Kaur", 1650),
    ("Lund", None),
]


def game_text(event: str, round_number: int, first: str, second: str, winner: str) -> str:
    """A short legal Pilo game between ``first`` (Blue) and ``second`` (Orange) that ends
    with the loser's resignation."""
    game = arbiter.Game("Pilo", 6)
    for _ in range(4):
        game.play(next(iter(game.legal_moves())))
    colour = "Blue" if winner == first else "Orange"
    record = game.record().replace(
        tags=(Tag("Event", event), Tag("Round", str(round_number))),
        players=(("Blue", first), ("Orange", second)),
        result=f"{colour}+R",
    )
    return write_grn(record)


def upload(client: FlaskClient, event: str, token: str, text: str) -> dict[str, Any]:
    answer = client.post(
        f"/api/v1/events/{event}/records",
        data=text.encode(),
        content_type="text/plain",
        headers=bearer(token),
    )
    assert answer.status_code in (200, 201), answer.json
    [kept] = body(answer)["uploads"][0]["records"]
    return kept


def post(
    client: FlaskClient, path: str, token: str, payload: Any = None, method: str = "POST"
) -> Any:
    answer = client.open(path, method=method, json=payload, headers=bearer(token))
    return answer


@pytest.fixture
def event(client: FlaskClient) -> tuple[str, str]:
    made = client.post(
        "/api/v1/events",
        json={
            "name": "Club Swiss",
            "game": "Pilo",
            "rounds": 7,
            "pairing": "dutch",
        },
    )
    assert made.status_code == 201, made.json
    return body(made)["id"], body(made)["token"]


def test_players_are_numbered_in_fide_order_and_like_names_need_confirming(
    client: FlaskClient, event: tuple[str, str]
) -> None:
    event_id, token = event
    url = f"/api/v1/events/{event_id}/players"
    answer = post(client, url, token, {"players": [{"name": n, "rating": r} for n, r in NAMES]})
    assert answer.status_code == 201
    listed = body(answer)["players"]
    assert [p["name"] for p in listed][:3] == ["Ilić", "Berg", "Costa"]
    assert [p["number"] for p in listed] == list(range(1, 13)) and listed[-1]["name"] == "Lund"
    similar = post(client, url, token, {"name": "ilic ", "rating": 2200})
    assert similar.status_code == 409
    assert body(similar)["error"]["code"] == "similar-name"
    assert body(similar)["error"]["similar"] == "Ilić"
    twice = post(client, url, token, {"name": "Berg"})
    assert twice.status_code == 409 and body(twice)["error"]["code"] == "duplicate-player"
    confirmed = post(client, url, token, {"name": "Ilic", "rating": 2200, "confirm": True})
    assert confirmed.status_code == 201
    numbers = {p["name"]: p["number"] for p in body(confirmed)["players"]}
    assert numbers["Ilic"] == 1 and numbers["Ilić"] == 2 and numbers["Lund"] == 13
    assert post(client, url, "arb_nope", {"name": "X"}).status_code == 401
    flat = client.post("/api/v1/events", json={"name": "Uploads", "game": "Pilo"})
    other = body(flat)
    refused = post(client, f"/api/v1/events/{other['id']}/players", other["token"], {"name": "A"})
    assert refused.status_code == 409 and body(refused)["error"]["code"] == "not-paired-event"


def test_a_seven_round_swiss_of_thirteen_players(
    client: FlaskClient, event: tuple[str, str]
) -> None:
    event_id, token = event
    base = f"/api/v1/events/{event_id}"
    post(
        client, f"{base}/players", token, {"players": [{"name": n, "rating": r} for n, r in NAMES]}
    )
    post(client, f"{base}/players", token, {"name": "Ilic", "rating": 1600, "confirm": True})
    # a half-point bye asked for round 2 by Juhl, before round 2 is paired
    juhl = next(
        p["number"] for p in body(client.get(f"{base}/players"))["players"] if p["name"] == "Juhl"
    )
    asked = post(client, f"{base}/players/{juhl}/byes", token, {"round": 2, "kind": "half"})
    assert asked.status_code == 200, asked.json
    seen_reversed = seen_forfeit = False
    for round_number in range(1, 8):
        if round_number == 3:  # a late entry: paired from round 3 on
            late = post(client, f"{base}/players", token, {"name": "Moen", "rating": 1980})
            assert late.status_code == 201
            moen = next(p for p in body(late)["players"] if p["name"] == "Moen")
            assert (moen["number"], moen["entered"]) == (14, 3)
        if round_number == 4:  # Fink withdraws from round 4 on
            fink = next(
                p["number"]
                for p in body(client.get(f"{base}/players"))["players"]
                if p["name"] == "Fink"
            )
            gone = post(
                client, f"{base}/players/{fink}/withdraw", token, {"round": 4, "reason": "ill"}
            )
            assert gone.status_code == 200 and body(gone)["withdrawn_from"] == 4
        waiting = post(client, f"{base}/rounds", token)
        assert waiting.status_code == 201, waiting.json
        paired = body(waiting)
        assert paired["round"] == round_number
        players_here = {b["first"] for b in paired["boards"]} | {
            b["second"] for b in paired["boards"]
        }
        byes = {bye["player"]: bye for bye in paired["byes"]}
        if round_number == 2:
            assert byes["Juhl"]["kind"] == "requested" and byes["Juhl"]["points"] == 0.5
        if round_number >= 4:
            assert "Fink" not in players_here and byes["Fink"]["kind"] == "withdrawn"
        if round_number < 3:
            assert "Moen" not in players_here
        allocated = [name for name, b in byes.items() if b["kind"] == "pairing"]
        assert len(allocated) == (len(players_here) + len(allocated)) % 2  # odd: one bye
        again = post(client, f"{base}/rounds", token)
        assert again.status_code == 409 and body(again)["error"]["code"] == "round-not-finished"
        for board in paired["boards"]:
            first, second, number = board["first"], board["second"], board["board"]
            if round_number == 2 and number == 1 and not seen_forfeit:
                done = post(
                    client,
                    f"{base}/rounds/2/boards/1/result",
                    token,
                    {"result": "+-", "reason": f"{second} did not come"},
                    "PUT",
                )
                assert done.status_code == 200 and body(done)["boards"][0]["result"] == "+-"
                seen_forfeit = True
                continue
            winner = first if (round_number + number) % 3 else second
            if round_number == 3 and number == 2 and not seen_reversed:
                kept = upload(
                    client, event_id, token, game_text("Club Swiss", 3, second, first, winner)
                )
                assert kept["placement"] == "seats-reversed" and kept["board"] == 2
                placed = post(
                    client,
                    f"{base}/records/{kept['record']}/place",
                    token,
                    {"round": 3, "board": 2, "reason": "seats swapped at the board"},
                )
                assert placed.status_code == 200 and body(placed)["placement"] is None
                seen_reversed = True
                continue
            kept = upload(
                client,
                event_id,
                token,
                game_text("Odd Event Tag", round_number, first, second, winner),
            )
            assert (kept["board_round"], kept["board"], kept["placement"]) == (
                round_number,
                number,
                None,
            )
        finished = body(client.get(f"{base}/rounds/{round_number}"))
        assert finished["waiting"] == [] and all(b["result"] for b in finished["boards"])
    assert seen_reversed and seen_forfeit
    over = post(client, f"{base}/rounds", token)
    assert over.status_code == 409 and body(over)["error"]["code"] == "all-rounds-paired"

    # a record of two players not paired together, and one of a round not paired
    stray = upload(client, event_id, token, game_text("Club Swiss", 1, "Ilić", "Moen", "Moen"))
    assert stray["placement"] in ("not-paired", "wrong-round")
    assert (
        upload(client, event_id, token, game_text("Club Swiss", 9, "Ilić", "Berg", "Berg"))[
            "placement"
        ]
        == "wrong-round"
    )

    standings = body(client.get(f"{base}/standings"))
    lines = {line["player"]: line for line in standings["standings"]}
    assert len(lines) == 14
    assert lines["Fink"]["games"] <= 3
    marked = {n: line["withdrew_from"] for n, line in lines.items() if "withdrew_from" in line}
    assert marked == {"Fink": 4}  # a withdrawn player is marked (FIDE's checklist, Q170)
    total = sum(line["points"] for line in lines.values())
    paired_byes = sum(
        1
        for r in body(client.get(f"{base}/rounds"))["rounds"]
        for b in r["byes"]
        if b["kind"] == "pairing"
    )
    games = sum(len(r["boards"]) for r in body(client.get(f"{base}/rounds"))["rounds"])
    assert total == games + paired_byes + 0.5  # a point a board, the byes, Juhl's half point
    assert {e["reason"] for e in standings["excluded"]} >= {"wrong-round"}

    trf = client.get(f"{base}/standings?format=trf").data.decode()
    assert "### MPA" not in trf and "### WDR" in trf and "### BYE" in trf and "### ENT" in trf
    assert "### RES" in trf and "### PLC" in trf
    tournament = read_trf(trf)
    assert tournament.rounds_paired == 7 and len(tournament.players) == 14
    assert check(tournament, "dutch") == []  # every round as the Dutch system pairs it
    assert body(client.get(f"{base}/verify"))["problems"] == []


def test_a_round_paired_by_hand_and_taken_back(client: FlaskClient, event: tuple[str, str]) -> None:
    event_id, token = event
    base = f"/api/v1/events/{event_id}"
    post(
        client,
        f"{base}/players",
        token,
        {"players": [{"name": n, "rating": r} for n, r in NAMES[:4]]},
    )
    engine = body(post(client, f"{base}/rounds", token))
    manual = {"boards": [{"first": 1, "second": 2}, {"first": 3, "second": 4}], "reason": "seeded"}
    changed = post(client, f"{base}/rounds/1", token, manual, "PUT")
    assert changed.status_code == 200, changed.json
    assert [(b["first_number"], b["second_number"]) for b in body(changed)["boards"]] == [
        (1, 2),
        (3, 4),
    ] and body(changed)["manual"] is True
    system = body(changed)["system"]  # the director is shown the system's own pairing
    ours = [[b["first_number"], b["second_number"]] for b in engine["boards"]]
    assert [[b["first"], b["second"]] for b in system["boards"]] == ours
    assert system["differs"] is True and system["bye"] is None
    assert "1 - 2 played, not expected" in system["differences"]
    same = {"boards": [{"first": a, "second": b} for a, b in ours], "reason": "as the system"}
    kept = body(post(client, f"{base}/rounds/1", token, same, "PUT"))["system"]
    assert (kept["differs"], kept["differences"]) == (False, [])
    assert "system" not in body(client.get(f"{base}/rounds/1"))  # the answer's alone
    changed = post(client, f"{base}/rounds/1", token, manual, "PUT")
    wrong = post(
        client,
        f"{base}/rounds/1",
        token,
        {"boards": [{"first": 1, "second": 2}], "reason": "x"},
        "PUT",
    )
    assert wrong.status_code == 422 and body(wrong)["error"]["code"] == "bad-pairing"
    log = body(client.get(f"{base}/log"))["log"]
    replaced = log[-1]
    assert replaced["action"] == "round-replaced"
    assert replaced["details"]["engine"]["boards"] == [
        [b["first_number"], b["second_number"]] for b in engine["boards"]
    ]
    upload(client, event_id, token, game_text("Club Swiss", 1, "Ilić", "Berg", "Ilić"))
    refused = post(client, f"{base}/rounds/1?reason=again", token, None, "DELETE")
    assert refused.status_code == 409 and body(refused)["error"]["code"] == "round-has-results"
    assert body(client.get(f"{base}/verify"))["problems"] == []


def test_a_round_robin_meets_everyone_once_and_takes_no_late_entry(client: FlaskClient) -> None:
    made = body(client.post("/api/v1/events", json={
        "name": "Club RR", "game": "Implo", "pairing": "round-robin", "bye_points": 0,
    }))  # fmt: skip
    event_id, token = made["id"], made["token"]
    base = f"/api/v1/events/{event_id}"
    names = ["Ann", "Bo", "Cy", "Di", "Ed"]
    post(client, f"{base}/players", token, {"players": [{"name": n} for n in names]})
    met: set[frozenset[str]] = set()
    for round_number in range(1, 6):
        paired = body(post(client, f"{base}/rounds", token))
        assert paired["round"] == round_number and len(paired["boards"]) == 2
        [bye] = paired["byes"]
        assert (bye["kind"], bye["points"]) == ("pairing", 0)  # the dummy's place, worth 0
        for board in paired["boards"]:
            met.add(frozenset((board["first"], board["second"])))
            done = post(
                client,
                f"{base}/rounds/{round_number}/boards/{board['board']}/result",
                token,
                {"result": "1-0", "reason": "played"},
                "PUT",
            )
            assert done.status_code == 200
        if round_number == 1:
            late = post(client, f"{base}/players", token, {"name": "Fay"})
            assert late.status_code == 409
            assert body(late)["error"]["code"] == "round-robin-started"
    assert len(met) == 10  # every pair of five, once
    over = post(client, f"{base}/rounds", token)
    assert body(over)["error"]["code"] == "all-rounds-paired"
    tournament = read_trf(client.get(f"{base}/standings?format=trf").data.decode())
    assert check(tournament, "round-robin") == []


@pytest.mark.parametrize("system", ["double-round-robin", "double-round-robin-plain"])
def test_a_double_round_robin_event_pairs_its_table_in_the_order_chosen(
    client: FlaskClient, system: str
) -> None:
    """Four players, six rounds: the event pairs exactly the library's table for its
    system (the recommended order exchanges rounds 2 and 3, the plain one does not), and
    its TRF names the order in record 192, so that the file checks as paired."""
    made = body(client.post("/api/v1/events", json={
        "name": "Double", "game": "Pilo", "pairing": system,
    }))  # fmt: skip
    event_id, token = made["id"], made["token"]
    base = f"/api/v1/events/{event_id}"
    post(client, f"{base}/players", token, {"players": [{"name": n} for n in "ABCD"]})
    expected = berger_rounds(4, double=True, exchanged=system == "double-round-robin")
    for round_number, table in enumerate(expected, 1):
        paired = body(post(client, f"{base}/rounds", token))
        got = [(b["first_number"], b["second_number"]) for b in paired["boards"]]
        assert got == list(table), round_number
        for board in paired["boards"]:
            done = post(client, f"{base}/rounds/{round_number}/boards/{board['board']}/result",
                        token, {"result": "1-0", "reason": "played"}, "PUT")  # fmt: skip
            assert done.status_code == 200
    text = client.get(f"{base}/standings?format=trf").data.decode()
    tournament = read_trf(text)
    assert tournament.system == system
    assert check(tournament, system) == []  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("method", "path", "payload", "field"),
    [
        ("PUT", "rounds/1/boards/1/result", {"result": {"k": None}, "reason": "x"}, "result"),
        ("PUT", "rounds/1/boards/1/result", {"result": ["1-0"], "reason": "x"}, "result"),
        ("PUT", "rounds/1/boards/1/result", {"result": "1-0", "reason": ["x"]}, "reason"),
        ("POST", "players", {"players": [{"name": {"a": 1}}]}, "name"),
        ("POST", "players/1/byes", {"round": 2, "kind": {"half": 1}}, "kind"),
    ],
)
def test_fields_of_the_wrong_type_are_refused_by_name(
    client: FlaskClient,
    event: tuple[str, str],
    method: str,
    path: str,
    payload: Any,
    field: str,
) -> None:
    """A field that holds an object or a list where a word belongs is a 400 that names it,
    never a failure of the server."""
    event_id, token = event
    base = f"/api/v1/events/{event_id}"
    post(client, f"{base}/players", token, {"players": [{"name": n} for n, _ in NAMES[:4]]})
    post(client, f"{base}/rounds", token)
    answer = post(client, f"{base}/{path}", token, payload, method)
    assert answer.status_code == 400, answer.json
    assert body(answer)["error"]["field"].endswith(field)
