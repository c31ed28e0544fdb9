"""The details of every action of the trail (``events/actions.py``): the keys its entries
hold, written here once for each action as every earlier version wrote them, so that the
entries kept read back as they did and new ones hash as they always did.

Each action of :data:`ACTIONS` has sample details below: the forms older entries hold (a
key said only when set left out) and the fullest. Each reads to an action that writes the
very same details back (the same keys, in the same order, with the same JSON values), and
reads back from them to the same action."""

from __future__ import annotations

import json
from dataclasses import MISSING, fields
from typing import Any

import pytest

from arbiter.service.events.actions import ACTIONS, Action, parse
from arbiter.service.events.chain import GENESIS, make_entry

HASH = "dc732625cfbd285b4b95d0695ac8f18745018b75cf63402ef5b0acef89a1803f"
DIGEST = "82a22321071b92a8396e6e27c88c869cc9fa46a169c76b732cb69e9b2b492af7"
TOKEN = {"number": 1, "role": "director", "label": "director", "hash": HASH}

SAMPLES: dict[str, list[dict[str, Any]]] = {
    "event-created": [
        {"name": "Club night", "game": "Pilo", "rounds": 5, "tiebreaks": None,
         "confirm_uploads": True, "token": TOKEN},
        {"name": "Open", "game": "Pilo", "rounds": None, "tiebreaks": "buchholz",
         "confirm_uploads": False, "pairing": "dutch", "bye_points": 0.5, "half_byes": False,
         "check_in": True, "acceleration": "baku", "token": TOKEN},
    ],
    "event-changed": [
        {"name": "Club night 2026", "rounds": 4},
        {"game": "Implo", "tiebreaks": None, "confirm_uploads": False, "acceleration": "baku"},
    ],
    "finalised": [{}],
    "token-issued": [
        {"number": 2, "role": "upload", "label": "player-07", "hash": HASH},
        {"number": 3, "role": "upload", "label": "board 1", "hash": HASH, "player": 7},
    ],
    "token-revoked": [{"token": 2}],
    "uploaded": [
        {"upload": 1, "sha256": HASH, "file": None, "format": "grn", "size": 1450,
         "records": [{"record": 1, "status": "accepted", "digest": DIGEST}]},
        {"upload": 2, "sha256": HASH, "file": "round-1.json", "format": None, "size": 9,
         "records": [
             {"record": 2, "status": "pending", "digest": DIGEST, "board_round": 1,
              "board": 2, "placement": None},
             {"record": 3, "status": "accepted", "digest": DIGEST, "board_round": 1,
              "board": 3, "placement": None, "seats": "reversed"},
             {"record": 4, "status": "pending", "digest": DIGEST, "board_round": None,
              "board": None, "placement": "not-paired"},
         ]},
    ],
    "confirmed": [{"record": 4}],
    "excluded": [{"record": 1, "was": "accepted"}],
    "reinstated": [{"record": 1}],
    "result-set": [
        {"record": 2, "result": "Blue+F", "adjudicated": "Orange+13", "valid": True,
         "was": None},
        {"record": 2, "result": "1-0", "adjudicated": None, "valid": False, "was": "0-1"},
    ],
    "result-cleared": [{"record": 2, "was": "Blue+F"}, {"record": 2, "was": None}],
    "player-added": [
        {"player": 1, "name": "Smith, Anna", "rating": 1850, "federation": "ENG",
         "fide_id": "12345678"},
        {"player": 2, "name": "Jones, Bo", "rating": None, "federation": None,
         "fide_id": None},
    ],
    "player-withdrawn": [{"player": 1, "round": 3}],
    "bye-requested": [{"player": 1, "round": 2, "kind": "half"}],
    "player-changed": [
        {"player": 1, "changed": {"name": "Smith, Ann", "rating": 1900},
         "was": {"name": "Smith, Anna", "rating": 1850}},
    ],
    "player-removed": [{"player": 2, "name": "Jones, Bo"}],
    "bye-cancelled": [{"player": 1, "round": 2, "was": "zero"}],
    "withdrawal-cancelled": [{"player": 1, "was": 3}],
    "round-paired": [
        {"round": 1, "boards": [[1, 3], [4, 2]], "byes": [[5, "pairing", 1.0]]},
        {"round": 2, "boards": [], "byes": [], "draft": True},
    ],
    "round-replaced": [
        {"round": 1, "boards": [[1, 2]], "byes": [[3, "half", 0.5]],
         "engine": {"boards": [[2, 1]], "byes": [[3, "half", 0.5]]}},
        {"round": 2, "boards": [[1, 2], [3, 4]], "byes": [],
         "engine": {"boards": [[1, 3], [2, 4]], "byes": []},
         "warnings": ["players 1 and 2 meet twice"], "draft": True},
    ],
    "round-unpaired": [{"round": 2}],
    "board-result-set": [
        {"round": 1, "board": 2, "result": "+-", "was": None},
        {"round": 1, "board": 2, "result": "--", "was": "1-0"},
    ],
    "board-result-cleared": [{"round": 1, "board": 2, "was": "0-1"}],
    "record-placed": [
        {"record": 3, "round": 1, "board": 1, "was": None},
        {"record": 3, "round": 1, "board": 1, "was": "not-paired", "seats": "reversed",
         "names": ["Smith, Anna", "Jones, Bo"]},
    ],
    "round-published": [{"round": 2}],
    "checked-in": [{"player": 1, "round": 2}],
    "check-in-cancelled": [{"player": 1, "round": 2}],
    "result-reported": [{"round": 1, "board": 2, "player": 3, "result": "1-0"}],
    "webhook-added": [
        {"number": 1, "url": "https://example.org/hook", "events": ["round-published"]},
        {"number": 2, "url": "https://example.org/all", "events": []},
    ],
    "webhook-removed": [{"webhook": 1}],
    "prohibited-added": [
        {"number": 1, "players": [3, 4], "first_round": 2, "last_round": 5},
        {"number": 2, "players": [1, 2, 5], "first_round": 3, "last_round": 3, "after": 2},
    ],
    "prohibited-removed": [{"prohibition": 1}],
}  # fmt: skip
"""Each action's sample details, as its entries hold them."""

KEYS: dict[str, tuple[set[str], set[str]]] = {
    "event-created": (
        {"name", "game", "rounds", "tiebreaks", "confirm_uploads", "token"},
        {"pairing", "bye_points", "half_byes", "check_in", "acceleration"},
    ),
    "event-changed": (set(), {"name", "game", "rounds", "tiebreaks", "confirm_uploads",
                              "acceleration"}),
    "finalised": (set(), set()),
    "token-issued": ({"number", "role", "label", "hash"}, {"player"}),
    "token-revoked": ({"token"}, set()),
    "uploaded": ({"upload", "sha256", "file", "format", "size", "records"}, set()),
    "confirmed": ({"record"}, set()),
    "excluded": ({"record", "was"}, set()),
    "reinstated": ({"record"}, set()),
    "result-set": ({"record", "result", "adjudicated", "valid", "was"}, set()),
    "result-cleared": ({"record", "was"}, set()),
    "player-added": ({"player", "name", "rating", "federation", "fide_id"}, set()),
    "player-withdrawn": ({"player", "round"}, set()),
    "bye-requested": ({"player", "round", "kind"}, set()),
    "player-changed": ({"player", "changed", "was"}, set()),
    "player-removed": ({"player", "name"}, set()),
    "bye-cancelled": ({"player", "round", "was"}, set()),
    "withdrawal-cancelled": ({"player", "was"}, set()),
    "round-paired": ({"round", "boards", "byes"}, {"draft"}),
    "round-replaced": ({"round", "boards", "byes", "engine"}, {"warnings", "draft"}),
    "round-unpaired": ({"round"}, set()),
    "board-result-set": ({"round", "board", "result", "was"}, set()),
    "board-result-cleared": ({"round", "board", "was"}, set()),
    "record-placed": ({"record", "round", "board", "was"}, {"seats", "names"}),
    "round-published": ({"round"}, set()),
    "checked-in": ({"player", "round"}, set()),
    "check-in-cancelled": ({"player", "round"}, set()),
    "result-reported": ({"round", "board", "player", "result"}, set()),
    "webhook-added": ({"number", "url", "events"}, set()),
    "webhook-removed": ({"webhook"}, set()),
    "prohibited-added": ({"number", "players", "first_round", "last_round"}, {"after"}),
    "prohibited-removed": ({"prohibition"}, set()),
}  # fmt: skip
"""Each action's keys: those every entry of it holds, and those said only when set (an
event changed says only the fields it changes)."""

NESTED: dict[tuple[str, str], tuple[set[str], set[str]]] = {
    ("event-created", "token"): ({"number", "role", "label", "hash"}, {"player"}),
    ("uploaded", "records"): (
        {"record", "status", "digest"},
        {"board_round", "board", "placement", "seats"},
    ),
    ("round-replaced", "engine"): ({"boards", "byes"}, set()),
}
"""The keys of the objects some details hold (each of a list of them)."""

CASES = [(name, details) for name, samples in SAMPLES.items() for details in samples]


def _holds(keys: set[str] | list[str], said: tuple[set[str], set[str]]) -> bool:
    always, when_set = said
    return always <= set(keys) <= always | when_set


def test_every_action_has_its_samples_and_keys() -> None:
    assert set(SAMPLES) == set(ACTIONS) == set(KEYS)
    for name, (always, when_set) in KEYS.items():  # every key said only when set is shown
        assert set().union(*map(set, SAMPLES[name])) == always | when_set, name


@pytest.mark.parametrize(("name", "details"), CASES, ids=[name for name, _ in CASES])
def test_an_actions_details_read_and_are_written_back_the_same(
    name: str, details: dict[str, Any]
) -> None:
    kind = ACTIONS[name]
    action = kind.from_details(details)
    assert type(action) is kind
    written = action.details()
    assert written == details
    assert list(written) == list(details)  # in the order every version wrote them
    assert _holds(list(written), KEYS[name])
    for (nested_in, key), said in NESTED.items():
        if nested_in == name:
            held = written[key]
            for one in held if isinstance(held, list) else [held]:
                assert _holds(list(one), said), (name, key, one)
    text = json.dumps(written, ensure_ascii=False, allow_nan=False)
    assert json.loads(text) == details  # JSON values only: nothing JSON would change
    assert kind.from_details(written) == action
    assert kind.from_details(json.loads(text)) == action
    entry = make_entry("e", 1, "2026-11-26T20:00:00.000Z", 1, name, written, None, GENESIS)
    assert parse(entry) == action


@pytest.mark.parametrize("name", sorted(KEYS))
def test_details_without_a_key_every_entry_holds_describe_no_action(name: str) -> None:
    always, _ = KEYS[name]
    for key in sorted(always):
        lacking = {said: value for said, value in SAMPLES[name][0].items() if said != key}
        with pytest.raises((KeyError, TypeError, ValueError)):
            ACTIONS[name].from_details(lacking)


@pytest.mark.parametrize("name", sorted(ACTIONS))
def test_an_action_read_by_its_fields_has_no_default(name: str) -> None:
    # An action writes its own details exactly when it reads its own. One that takes the
    # base's (each field under its name, as it is) has no field with a default: a field
    # added since its first entries, with a default, is a key those entries lack, and
    # its action reads them itself.
    kind = ACTIONS[name]
    own = "details" in vars(kind)
    assert ("from_details" in vars(kind)) == own
    if not own:
        assert kind.details is Action.details
        for one in fields(kind):
            assert one.default is MISSING and one.default_factory is MISSING, one.name
