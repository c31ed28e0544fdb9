"""The kinds of event (``spec/events.md`` §11): each registered once by the name an event's
``pairing`` stores, looked up once and asked what differs; a new kind is a subclass and one
registration, and the operations, reads and pages serve it without knowing its name."""

from __future__ import annotations

from dataclasses import replace

import pytest
from flask.testing import FlaskClient

from arbiter.pairing import SYSTEMS
from arbiter.service.events import kinds
from arbiter.service.events.common import UNPAIRED, EventError
from arbiter.service.events.kind import OPEN, EventKind
from arbiter.service.events.migrate import open_store
from arbiter.service.events.operations import Upload, create_event, upload
from arbiter.service.events.paired.kind import PairedKind
from arbiter.service.events.reading import event_standings, event_summary
from arbiter.service.events.rules import NewEvent
from tests.events.test_paired import game_text


def test_each_kind_is_registered_once_by_the_name_it_stores() -> None:
    assert list(kinds.KINDS) == [UNPAIRED, *SYSTEMS]
    assert kinds.kind_of(UNPAIRED) is OPEN and not OPEN.paired
    for system in SYSTEMS:
        found = kinds.kind_of(system)
        assert isinstance(found, PairedKind) and found.paired and found.system == system
    assert kinds.kind_named("round-robin") is kinds.kind_of("round-robin")
    # a kind a newer version stored is read as records uploaded; a request naming one is refused
    assert kinds.kind_of("arena") is OPEN
    with pytest.raises(EventError) as refused:
        kinds.kind_named("arena")
    assert refused.value.code == "bad-field" and refused.value.extra == {"field": "pairing"}
    assert (
        "none, dutch, round-robin, double-round-robin, double-round-robin-plain"
        in refused.value.message
    )


class Ladder(EventKind):
    """A kind made up for the test: records uploaded, ranked by wins first."""

    stored = "ladder"
    words = "a ladder"

    def created(self, made: NewEvent) -> NewEvent:
        return super().created(replace(made, tiebreaks="wins"))


def test_a_new_kind_is_one_subclass_and_one_registration(
    client: FlaskClient, database: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(kinds.KINDS, Ladder.stored, Ladder())
    store = open_store(database)
    made = create_event(store, {"name": "Ladder", "game": "Pilo", "pairing": "ladder"})
    event, token = made.event.id, made.token
    summary = event_summary(store, event)
    assert summary.pairing == "ladder" and summary.tiebreaks == ("wins",)
    text = game_text("Ladder", 1, "Ann", "Bob", "Ann").encode()
    kept = upload(store, event, token, [Upload("ladder.grn", text)])
    assert [one.status for one in kept.uploads[0].records] == ["accepted"]
    _, tables = event_standings(store, event)
    assert [line.player for line in tables[0].standings][:1] == ["Ann"]
    page = client.get(f"/events/{event}")
    assert page.status_code == 200 and "Ann" in page.get_data(as_text=True)


def test_every_kind_name_fits_the_store() -> None:
    """The store's column holds KIND_LENGTH characters; PostgreSQL refuses a longer name
    (SQLite would keep it), so a kind whose name does not fit could not be created there."""
    from arbiter.service.events.common import KIND_LENGTH
    from arbiter.service.events.store import events

    assert events.c.pairing.type.length == KIND_LENGTH  # type: ignore[attr-defined]
    assert max(len(name) for name in kinds.KINDS) <= KIND_LENGTH
