"""The audit trail's actions (``events/actions.py``): each writes the details it always wrote
(so the hashes of every trail kept stay what they were), and one state machine serves the
operations and verification. ``archive-v1.zip`` is an event exported by an earlier version,
with one entry of each action: its trail is read here without a database."""

from __future__ import annotations

import json
import zipfile
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from arbiter.service.events import storage
from arbiter.service.events.actions import (
    ACTIONS,
    CORRECTIONS,
    EVENT_FACTS,
    REASONS_SHOWN,
    Confirmed,
    Effect,
    EventChanged,
    EventFacts,
    Excluded,
    Finalised,
    Paired,
    RecordFacts,
    ResultCleared,
    ResultSet,
    State,
    TokenFacts,
    TokenRevoked,
    UploadFacts,
    correction,
    parse,
    replay,
)
from arbiter.service.events.chain import GENESIS, Entry, chain_problems, make_entry
from arbiter.service.events.migrate import open_store
from tests.events.conftest import bearer, body, create
from tests.events.test_events import ROUNDS, post_files
from tests.events.test_trail import run_event

ARCHIVE = Path(__file__).resolve().parent / "archive-v1.zip"
AT = "2026-11-26T20:00:00.000Z"


def described() -> dict[str, Any]:
    """The ``event.json`` of the earlier version's archive."""
    found = json.loads(zipfile.ZipFile(ARCHIVE).read("event.json"))
    assert isinstance(found, dict)
    return found


def trail() -> list[Entry]:
    return [Entry(**item) for item in described()["log"]]


def test_the_trail_of_an_earlier_version_keeps_its_hashes() -> None:
    entries = trail()
    assert chain_problems(entries) == []
    assert entries[0].prev == GENESIS
    assert entries[-1].hash == "f3079e1143c3d9b286b1fac232b2fa388a5ec9a6fbc7051e647281a020767566"
    assert entries[7].hash == "c7f892241ed15b9fad135f066557a635162533543a4d5335475281ba745c9398"
    # one of each action of an event not paired, at least (the archive was made before
    # events were paired, and before webhooks)
    later = {"webhook-added", "webhook-removed"}
    assert {entry.action for entry in entries} == {
        name for name, kind in ACTIONS.items() if not issubclass(kind, Paired) and name not in later
    }


def test_each_action_writes_the_details_it_always_wrote() -> None:
    for entry in trail():
        action = parse(entry)
        assert action.NAME == entry.action
        assert action.details() == entry.details
        remade = make_entry(
            entry.event,
            entry.number,
            entry.at,
            entry.token,
            action.NAME,
            action.details(),
            entry.reason,
            entry.prev,
        )
        assert remade.hash == entry.hash, entry.action


def _facts(description: dict[str, Any]) -> State:
    """What the archive's tables hold, as facts."""
    event = description["event"]
    return State(
        event=EventFacts(
            *(event[name] for name in ("name", "game", "rounds", "tiebreaks")),
            confirm_uploads=event["confirm_uploads"],
            created_at=event["created_at"],
            finalised_at=event["finalised_at"],
            said=EVENT_FACTS,
        ),
        tokens={
            row["number"]: TokenFacts(
                row["hash"], row["role"], row["label"], row["created_at"], row["revoked_at"]
            )
            for row in description["tokens"]
        },
        uploads={
            row["number"]: UploadFacts(
                row["sha256"], row["file_name"], row["format"], row["size"], row["created_at"]
            )
            for row in description["uploads"]
        },
        records={
            row["number"]: RecordFacts(
                row["upload"], row["position"], row["status"], row["digest"], row["official_result"]
            )
            for row in description["records"]
        },
    )


def test_replaying_an_earlier_trail_gives_what_its_operations_kept() -> None:
    # The rows of the archive were written by the operations of an earlier version; the
    # effects of today's actions, replayed, must give the very same.
    state, problems = replay(trail())
    assert problems == []
    assert state == _facts(described())


def test_each_operation_keeps_what_its_actions_effect_says(app: Flask, client: FlaskClient) -> None:
    event, _ = run_event(client)  # every kind of change, through the API
    store = open_store(app.config["DATABASE"])
    with storage.reading(store) as tx:
        row = storage.event_row(tx, event)
        assert row is not None
        kept = State(
            event=EventFacts.of(row),
            tokens={one.number: TokenFacts.of(one) for one in storage.token_rows(tx, event)},
            uploads={
                one.number: UploadFacts(
                    one.sha256, one.file_name, one.format, one.size, one.created_at
                )
                for one in storage.upload_rows(tx, event)
            },
            records={one.number: RecordFacts.of(one) for one in storage.record_rows(tx, event)},
        )
        entries = storage.entries(tx, event)
    state, problems = replay(entries)
    assert problems == [] and state == kept
    step = State()  # and entry by entry, each effect applied to the state before it
    for entry in entries:
        step = step.after(parse(entry).effect(step, entry.at))
    assert step == kept


def test_the_operation_and_verification_run_the_same_effect(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    event, token = create(client)
    player = body(
        client.post(f"/api/v1/events/{event}/tokens", json={"label": "p"}, headers=bearer(token))
    )["token"]
    post_files(client, event, player, ROUNDS[0])  # pending

    def elsewhere(self: Confirmed, state: State, at: str) -> Effect:
        return Effect(records={self.record: replace(state.records[self.record], status="x")})

    monkeypatch.setattr(Confirmed, "effect", elsewhere)  # one function, changed once
    confirmed = client.post(f"/api/v1/events/{event}/records/1/confirm", headers=bearer(token))
    assert body(confirmed)["status"] == "x"  # what the operation kept ...
    verdict = body(client.get(f"/api/v1/events/{event}/verify"))
    assert verdict["problems"] == ["record 1: its status 'x' is none known"]  # ... replayed alike
    monkeypatch.undo()
    problems = body(client.get(f"/api/v1/events/{event}/verify"))["problems"]
    assert "record 1: its status is 'x'; the trail says 'accepted'" in problems


# --- each action's effect on plain values -------------------------------------------------


def _record(status: str = "pending", official: str | None = None) -> State:
    return State(records={3: RecordFacts(1, 2, status, "d" * 64, official)})


@pytest.mark.parametrize(
    ("action", "before", "after"),
    [
        (Confirmed(3), _record("pending"), RecordFacts(1, 2, "accepted", "d" * 64, None)),
        (
            Excluded(3, "accepted"),
            _record("accepted"),
            RecordFacts(1, 2, "excluded", "d" * 64, None),
        ),
        (
            ResultSet(3, "Blue+F", "Orange+2", True, None),
            _record("accepted"),
            RecordFacts(1, 2, "accepted", "d" * 64, "Blue+F"),
        ),
        (
            ResultCleared(3, "Blue+F"),
            _record("accepted", "Blue+F"),
            RecordFacts(1, 2, "accepted", "d" * 64, None),
        ),
    ],
)
def test_an_action_on_a_record_changes_that_record_only(
    action: Confirmed | Excluded | ResultSet | ResultCleared, before: State, after: RecordFacts
) -> None:
    effect = action.effect(before, AT)
    assert effect.records == {3: after}
    assert (effect.event, effect.tokens, effect.uploads) == (None, {}, {})
    assert before.after(effect).records[3] == after
    assert before.records[3] != after  # the state before is left as it was


def test_an_action_on_what_the_state_does_not_hold_cannot_be_applied() -> None:
    with pytest.raises(KeyError):
        Confirmed(9).effect(_record(), AT)
    with pytest.raises(KeyError):
        TokenRevoked(2).effect(State(), AT)


def test_changes_of_the_event_say_their_fields_in_order() -> None:
    created = EventFacts("Open", "Pilo", None, None, True, AT, None, said=EVENT_FACTS)
    changed = EventChanged({"rounds": 7, "name": "Open 2026"}).effect(State(created), AT).event
    assert changed is not None and (changed.name, changed.rounds) == ("Open 2026", 7)
    assert changed.said == created.said
    final = Finalised().effect(State(created), AT).event
    assert final is not None and final.finalised_at == AT
    # a trail whose creation is missing says only what its later entries set
    alone = EventChanged({"rounds": 7}).effect(State(), AT).event
    assert alone is not None and alone.said == ("rounds",)


def test_the_corrections_and_their_words() -> None:
    assert CORRECTIONS == {"excluded", "reinstated", "result-set", "result-cleared"}
    assert REASONS_SHOWN == {"excluded", "result-set"}
    words = {entry.action: found.words() for entry in trail() if (found := correction(entry))}
    assert words == {
        "excluded": "excluded",
        "reinstated": "counted again",
        "result-set": "official result Blue+F (adjudicated Orange+13)",
        "result-cleared": "official result taken back: the adjudicated result counts",
    }


def test_replay_says_which_entries_cannot_be_applied() -> None:
    entries = trail()
    broken = [
        *entries[:4],
        Entry(**{**entries[4].to_dict(), "details": {"record": 99}}),
        Entry(**{**entries[5].to_dict(), "action": "renamed"}),
        *entries[6:],
    ]
    _, problems = replay(broken)
    assert problems == [
        (5, "its details cannot be applied (99)"),
        (6, "its details cannot be applied (unknown action 'renamed')"),
    ]


def _players(*ratings: int | None, paired: bool = False) -> State:
    """A paired event's state: players 1, 2, ... (ids and numbers alike) with ``ratings``;
    with ``paired``, round 1 paired with players 1 and 2 on its board."""
    from arbiter.service.events.actions import PairingFacts, PlayerFacts

    players = {
        n: PlayerFacts(n, f"P{n}", rating, None, None, 1, None, AT)
        for n, rating in enumerate(ratings, 1)
    }
    pairings = {1: PairingFacts(((1, 2),), (), False, AT)} if paired else {}
    return State(players=players, pairings=pairings, requests={(2, 3): "half"})


def test_a_player_corrected_is_numbered_again_only_before_round_one() -> None:
    from arbiter.service.events.actions import PlayerChanged

    before = _players(2000, 1900, 1800)
    raised = PlayerChanged(3, {"rating": 2100}, {"rating": 1800}).effect(before, AT)
    assert {p: f.number for p, f in before.after(raised).players.items()} == {3: 1, 1: 2, 2: 3}
    paired = _players(2000, 1900, 1800, paired=True)
    later = PlayerChanged(3, {"rating": 2100, "name": "Pia"}, {}).effect(paired, AT)
    assert dict(later.players) == {3: replace(paired.players[3], rating=2100, name="Pia")}
    with pytest.raises(ValueError, match="colour"):
        PlayerChanged(3, {"colour": "x"}, {}).effect(paired, AT)
    action = PlayerChanged(3, {"name": "Pia"}, {"name": "P3"})
    assert PlayerChanged.from_details(action.details()) == action
    assert action.words(paired) == "player 3 P3: name 'P3' to 'Pia'"


def test_a_player_removed_takes_their_byes_and_the_numbers_close_up() -> None:
    from arbiter.service.events.actions import PlayerRemoved

    before = _players(2000, 1900, 1800, 1700, paired=True)
    gone = PlayerRemoved(3, "P3").effect(before, AT)
    after = before.after(gone)
    assert 3 not in after.players and after.requests == {}
    assert {p: f.number for p, f in after.players.items()} == {1: 1, 2: 2, 4: 3}
    with pytest.raises(ValueError, match="paired"):
        PlayerRemoved(1, "P1").effect(before, AT)
    unpaired = _players(1700, 2000, 1900)
    renumbered = unpaired.after(PlayerRemoved(2, "P2").effect(unpaired, AT))
    assert {p: f.number for p, f in renumbered.players.items()} == {3: 1, 1: 2}  # FIDE's order


def test_a_bye_and_a_withdrawal_taken_back() -> None:
    from arbiter.service.events.actions import ByeCancelled, WithdrawalCancelled

    before = _players(2000, 1900, 1800, paired=True)
    assert before.after(ByeCancelled(3, 2, "half").effect(before, AT)).requests == {}
    with pytest.raises(KeyError):
        ByeCancelled(3, 5, "half").effect(before, AT)
    gone = replace(before.players[2], withdrawn_from=2)
    withdrawn = replace(before, players={**before.players, 2: gone})
    back = withdrawn.after(WithdrawalCancelled(2, 2).effect(withdrawn, AT))
    assert back.players[2].withdrawn_from is None
    assert WithdrawalCancelled(2, 2).words(withdrawn) == (
        "P2 (number 2): the withdrawal from round 2 is taken back; paired again from round 2"
    )


def test_a_placement_says_its_seats_and_names_and_an_earlier_one_reads_without() -> None:
    from arbiter.service.events.actions import RecordPlaced

    placed = RecordPlaced(3, 1, 1, "not-paired", "reversed", ("P1", "Pee Two"))
    assert placed.details() == {"record": 3, "round": 1, "board": 1, "was": "not-paired",
                                "seats": "reversed", "names": ["P1", "Pee Two"]}  # fmt: skip
    assert RecordPlaced.from_details(placed.details()) == placed
    earlier = RecordPlaced.from_details({"record": 3, "round": 1, "board": 1, "was": None})
    assert earlier.details() == {"record": 3, "round": 1, "board": 1, "was": None}
    state = replace(_players(2000, 1900, paired=True), records={3: _record().records[3]})
    assert placed.effect(state, AT).records[3].seats == "reversed"
    assert earlier.effect(state, AT).records[3].seats is None
    assert placed.words(state).endswith("; its Pee Two as P2")
    with pytest.raises(ValueError, match="sit"):
        RecordPlaced(3, 1, 1, None, "sideways").effect(state, AT)


def test_a_draft_says_so_only_when_it_is_one_and_is_published_once() -> None:
    from arbiter.service.events.actions import RoundPaired, RoundPublished, RoundReplaced

    published = RoundPaired(2, ((1, 2),), ((3, "pairing", 1.0),))
    assert "draft" not in published.details()  # the details every round paired wrote
    drafted = RoundPaired(2, ((1, 2),), ((3, "pairing", 1.0),), draft=True)
    assert drafted.details()["draft"] is True
    assert RoundPaired.from_details(drafted.details()) == drafted
    before = _players(2000, 1900, 1800, paired=True)
    state = before.after(drafted.effect(before, AT))
    assert state.pairings[2].draft and state.rounds_paired == 2
    by_hand = RoundReplaced(2, ((2, 1),), ((3, "pairing", 1.0),), ((1, 2),), (), draft=True)
    kept = by_hand.effect(state, AT).pairings[2]
    assert kept is not None and kept.draft  # a draft changed by hand stays one
    shown = state.after(RoundPublished(2).effect(state, AT))
    assert not shown.pairings[2].draft and shown.pairings[2].boards == ((1, 2),)
    with pytest.raises(ValueError, match="published already"):
        RoundPublished(2).effect(shown, AT)
    with pytest.raises(KeyError):
        RoundPublished(3).effect(shown, AT)
    assert RoundPublished(2).words(state) == "round 2 published"


def test_a_check_in_and_its_taking_back() -> None:
    from arbiter.service.events.actions import CheckedIn, CheckInCancelled

    before = _players(2000, 1900, 1800)
    checked = before.after(CheckedIn(3, 1).effect(before, AT))
    assert checked.checkins == {(1, 3): AT}
    assert CheckedIn(3, 1).details() == {"player": 3, "round": 1}
    assert CheckedIn(3, 1).words(before) == "P3 (number 3) checked in for round 1"
    assert checked.after(CheckInCancelled(3, 1).effect(checked, AT)).checkins == {}
    with pytest.raises(KeyError):
        CheckInCancelled(2, 1).effect(checked, AT)
    with pytest.raises(KeyError):
        CheckedIn(9, 1).effect(before, AT)


def test_a_report_replaces_the_players_report_before_it() -> None:
    from arbiter.service.events.actions import ResultReported

    before = _players(2000, 1900, paired=True)
    first = before.after(ResultReported(1, 1, 1, "1-0").effect(before, AT))
    second = first.after(ResultReported(1, 1, 2, "0-1").effect(first, AT))
    assert second.reports == {(1, 1, 1): "1-0", (1, 1, 2): "0-1"}
    changed = second.after(ResultReported(1, 1, 2, "1-0").effect(second, AT))
    assert changed.reports == {(1, 1, 1): "1-0", (1, 1, 2): "1-0"}
    with pytest.raises(ValueError, match="not a board's result"):
        ResultReported(1, 1, 1, "2-0").effect(before, AT)
    assert ResultReported(1, 1, 2, "0-1").words(before) == (
        "P2 (number 2) reported 0-1 on round 1 board 1"
    )
