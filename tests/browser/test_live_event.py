"""A round as it happens in a hall, in chromium against a real ``arbiter serve``
(spec/pairings.md §12, spec/events.md §10.1 and §12): four players check in from their
phones and a fifth does not; the director pairs the round as a draft, which nobody else
sees, then publishes it; the players report their own boards from their phones, one board
agreed and one disputed, which the director decides from the desk; the public standings
page follows it all without a reload; and a webhook receiver checks the signature of every
change the server sends it by the event's key."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.browser.conftest import screenshot
from tests.browser.test_event_pages import DESKTOP, PHONE, WIDER, watched
from tests.events.test_server import call
from tests.events.test_webhooks import Receiver, checked, receiver
from tests.service.test_serve import running_server

__all__ = ["receiver"]  # the receiver fixture, shared

PLAYERS = [("Ana Ruiz", 2100), ("Bo Chen", 2000), ("Cy Dahl", 1900), ("Di Eze", 1800),
           ("Ed Fink", 1700)]  # fmt: skip
SEEN = 10_000
"""Milliseconds a page is given to show a change: half the poll's period (only the stream
can have brought it)."""


@pytest.fixture(scope="module")
def hall(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    folder = tmp_path_factory.mktemp("hall")
    with running_server(
        "--database", f"sqlite:///{folder / 'events.sqlite3'}", "--allow-private-webhooks"
    ) as url:
        yield url


def test_a_round_from_check_in_to_results_reported_on_phones(
    browser: Any, hall: str, receiver: Receiver, tmp_path: Path
) -> None:
    api = f"{hall}/api/v1/events"
    status, made = call(api, "POST", {"name": "Hall Open", "game": "Pilo", "rounds": 3,
                                      "pairing": "dutch", "check_in": True})  # fmt: skip
    assert status == 201, made
    event, director = made["id"], made["token"]
    base = f"{api}/{event}"
    players = [{"name": name, "rating": rating} for name, rating in PLAYERS]
    assert call(f"{base}/players", "POST", {"players": players}, director)[0] == 201
    status, hook = call(f"{base}/webhooks", "POST", {"url": receiver.url}, director)
    assert status == 201, hook
    tokens = {}
    for number in range(1, 6):
        status, issued = call(f"{base}/tokens", "POST",
                              {"role": "player", "label": f"p{number}", "player": number},
                              director)  # fmt: skip
        assert status == 201, issued
        tokens[number] = issued["token"]

    # the standings page, open all along, and the director's desk
    watchers: list[tuple[Any, list[str]]] = []
    context, public, problems = watched(browser, PHONE, hall)
    watchers.append((context, problems))
    public.goto(f"{hall}/events/{event}")
    public.evaluate("window.notReloaded = true")
    desk_context, desk, desk_problems = watched(browser, DESKTOP, hall)
    watchers.append((desk_context, desk_problems))
    desk.goto(f"{hall}/events/{event}/desk")
    desk.evaluate(f"sessionStorage.setItem('arbiter-token:{event}', '{director}')")
    desk.reload()
    desk.wait_for_selector("#who:text('Using a director')")

    # four players check in from their phones; the desk shows who is missing
    phones = {}
    for number in range(1, 5):
        phone_context, phone, phone_problems = watched(browser, PHONE, hall)
        watchers.append((phone_context, phone_problems))
        phone.goto(f"{hall}/events/{event}/upload?player={number}#token={tokens[number]}")
        phone.click("#check-in")
        phone.wait_for_selector("#here-state:text('You are checked in for round 1')")
        assert "token" not in phone.url
        phones[number] = phone
    desk.wait_for_function(
        "() => document.getElementById('missing').textContent.includes('(1): 5 Ed Fink.')",
        timeout=SEEN,
    )

    # the round paired as a draft is the director's only, until published
    desk.check("#pair-draft")
    desk.click("#pair-next")
    desk.wait_for_selector("#rounds-note:text('is paired as a draft')")
    assert call(f"{base}/rounds/1")[0] == 404
    assert phones[1].locator("#report").is_hidden()
    screenshot(desk, "live-desk-draft")
    desk.click("#publish")
    desk.wait_for_selector("#rounds-note:text('Round 1 is published')")
    status, paired = call(f"{base}/rounds/1")
    assert status == 200 and not paired["draft"]
    boards = paired["boards"]
    assert {b["first_number"] for b in boards} | {b["second_number"] for b in boards} == {
        1,
        2,
        3,
        4,
    }
    assert [bye["kind"] for bye in paired["byes"]] == ["not-checked-in"]

    # board 1 agreed from the phones; board 2 disputed
    one, two = boards
    for board in boards:  # the phones learn of the round from the stream
        for seat in ("first_number", "second_number"):
            phones[board[seat]].wait_for_selector("#report:not([hidden])", timeout=SEEN)
    phones[one["first_number"]].click("#report-won")
    phones[one["first_number"]].wait_for_selector("#report-state:text('waiting for your opponent')")
    phones[one["second_number"]].click("#report-lost")
    phones[one["second_number"]].wait_for_selector("#report-state:text('The result counts: 1-0')")
    phones[two["first_number"]].click("#report-won")
    phones[two["second_number"]].click("#report-won")
    phones[two["second_number"]].wait_for_selector("#report-state:text('the director decides')")
    screenshot(phones[two["second_number"]], "live-phone-disputed")
    assert phones[two["second_number"]].evaluate(WIDER) == []

    # the director decides the dispute at the desk
    desk.wait_for_selector("#round-shown :text('disputed')", timeout=SEEN)
    desk.fill("#board-round", "1")
    desk.fill("#board-number", "2")
    desk.select_option("#board-result", "0-1")
    desk.fill("#board-reason", "the scoresheet, signed by both, shows the second seat won")
    desk.click("#board-act button[type=submit]")
    desk.wait_for_selector("#rounds-note:text('board 2: done')")

    # the standings page followed without a reload
    public.wait_for_function(
        "(name) => document.getElementById('live').innerText.includes(name + ' won')",
        arg=two["second"],
        timeout=SEEN,
    )
    assert one["first"] + " won" in public.inner_text("#live")
    assert public.evaluate("window.notReloaded") is True
    screenshot(public, "live-standings")
    status, table = call(f"{base}/players")
    points = {p["number"]: p["points"] for p in table["players"]}
    assert points[one["first_number"]] == 1 and points[two["second_number"]] == 1
    assert points[5] == 0

    # every change sent was signed by the event's key, and the draft was never sent
    key = call(base)[1]["key"]
    sent = [json.loads(data) for _, data in receiver.received]
    deadline = 40
    while deadline and not any(b["entry"]["action"] == "board-result-set" for b in sent):
        receiver.arrived.wait(0.5)
        receiver.arrived.clear()
        sent = [json.loads(data) for _, data in receiver.received]
        deadline -= 1
    for headers, data in receiver.received:
        checked(key, headers, data)
    actions = [body["entry"]["action"] for body in sent]
    assert "round-published" in actions and actions.count("result-reported") == 4
    assert all(not b["entry"]["details"].get("draft") for b in sent)
    assert actions[-1] == "board-result-set"
    for context, found in watchers:
        context.close()
        assert found == []
