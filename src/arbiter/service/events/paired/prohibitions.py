"""A Swiss event's prohibited pairs (``spec/pairings.md`` §13, TRF-2026 record 260): sets of
players no two of whom the engine pairs together in the rounds given. The director sets
them before round 1, or later for rounds not yet paired, warned and with a reason; one
taken back binds the rounds to come no more. Each is an entry of the trail, a ``### PRO``
line of the TRF, and a ``260`` record there while it holds in a round.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from arbiter.service.events import rules, storage
from arbiter.service.events.actions import ProhibitionAdded, ProhibitionFacts, ProhibitionRemoved
from arbiter.service.events.change import changing, secret_hash
from arbiter.service.events.common import DIRECTOR
from arbiter.service.events.paired import rules as paired_rules
from arbiter.service.events.paired.state import Paired, paired_event, read_paired
from arbiter.service.events.rows import ProhibitionRow
from arbiter.service.events.store import Store

__all__ = ["ProhibitionView", "add_prohibition", "list_prohibitions", "remove_prohibition"]


@dataclass(frozen=True, slots=True)
class ProhibitionView:
    """A prohibition as ``GET .../prohibited`` gives it: its number, its players (pairing
    number and name; a player taken out of the event since is ``None``), the rounds it
    holds in (one taken back: those paired under it, none when ``to_round`` is below
    ``from_round``), when it was added and taken back."""

    number: int
    players: tuple[tuple[int | None, str | None], ...]
    first_round: int
    last_round: int
    added_at: str
    removed_at: str | None

    @classmethod
    def of(cls, number: int, facts: ProhibitionFacts, paired: Paired) -> ProhibitionView:
        players = tuple(
            (one.number, one.name) if one is not None else (None, None)
            for one in (paired.players.get(player) for player in facts.players)
        )
        return cls(number, players, facts.first_round, facts.last_round, facts.created_at,
                   facts.removed_at)  # fmt: skip

    def to_dict(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "players": [{"number": number, "name": name} for number, name in self.players],
            "from_round": self.first_round,
            "to_round": self.last_round,
            "active": self.removed_at is None,
            "added_at": self.added_at,
            "removed_at": self.removed_at,
        }


def list_prohibitions(store: Store, event_id: str, secret: str | None) -> list[ProhibitionView]:
    """The event's prohibitions, those taken back included, by number, for its director
    (the TRF's 260 records and the trail's entries say them to everyone: what a checker of
    the pairings needs)."""
    secret = rules.read_token(secret)
    with storage.reading(store) as tx:
        event = paired_rules.paired(paired_event(tx, rules.event_id(event_id)))
        rules.actor(storage.find_token(tx, secret_hash(secret)), event_id, DIRECTOR)
        paired = read_paired(tx, event, prohibitions=True)
    return [
        ProhibitionView.of(number, facts, paired)
        for number, facts in sorted(paired.prohibitions.items())
    ]


def add_prohibition(
    store: Store, event_id: str, secret: str | None, fields: Mapping[str, object]
) -> tuple[ProhibitionView, bool]:
    """Prohibit pairing together any two of ``{"players": [n1, n2, ...]}`` (pairing numbers)
    in rounds ``from_round`` (the next round to pair by default) to ``to_round`` (the last
    planned by default); ``reason``, ``confirm``. Before round 1 is paired it is set as
    asked; after, only for rounds not yet paired, warned (``pairing-warnings`` until
    ``"confirm": true``) and with a reason. The same prohibition asked again while it holds
    is that prohibition (False: not created now)."""
    asked = paired_rules.prohibition_asked(fields)
    with changing(store, event_id, secret, DIRECTOR) as change:
        paired_rules.swiss_for_prohibitions(change.event)
        paired = read_paired(change.tx, change.event, prohibitions=True)
        played = paired.rounds_paired
        ids = tuple(paired.id_of(number) for number in asked.players)
        first, last = paired_rules.prohibited_rounds(asked, change.event.rounds, played)
        wanted = (set(ids), first, last)
        for number, held in sorted(paired.prohibitions.items()):
            said = (set(held.players), held.first_round, held.last_round)
            if held.removed_at is None and said == wanted:
                change.repeat(change.made_by((ProhibitionAdded.NAME,), number=number))
                return ProhibitionView.of(number, held, paired), False
        paired_rules.prohibited_after_start(played, first, last, asked.reason, asked.confirm)
        number = paired_rules.room_for_prohibition(len(paired.prohibitions))
        action = ProhibitionAdded(number, ids, first, last, played)
        facts = change.effect(action, paired.state).prohibitions[number]
        storage.insert_prohibition(change.tx, _row(event_id, number, facts))
        change.log(action, asked.reason)
        return ProhibitionView.of(number, facts, paired), True


def remove_prohibition(
    store: Store, event_id: str, secret: str | None, number: int, fields: Mapping[str, object]
) -> ProhibitionView:
    """Take prohibition ``number`` back (``{"reason"?}``; needed once a round is paired): the
    rounds paired from now on are not bound by it, those paired already stay as they were.
    One taken back already is answered as it stands."""
    why = rules.reason(fields.get("reason"), required=False)
    with changing(store, event_id, secret, DIRECTOR) as change:
        paired = read_paired(change.tx, paired_rules.paired(change.event), prohibitions=True)
        facts = paired.prohibitions.get(number) if rules.names_a_row(number) else None
        paired_rules.found_prohibition(facts, number)
        assert facts is not None  # found
        if facts.removed_at is not None:
            change.repeat(change.made_by((ProhibitionRemoved.NAME,), prohibition=number))
            return ProhibitionView.of(number, facts, paired)
        paired_rules.prohibition_removal_reason(paired.rounds_paired, why)
        action = ProhibitionRemoved(number)
        after = change.effect(action, paired.state).prohibitions[number]
        storage.remove_prohibition(change.tx, _row(event_id, number, after))
        change.log(action, why)
        return ProhibitionView.of(number, after, paired)


def _row(event_id: str, number: int, facts: ProhibitionFacts) -> ProhibitionRow:
    return ProhibitionRow(event_id, number, json.dumps(list(facts.players)), facts.first_round,
                          facts.last_round, facts.created_at, facts.removed_at)  # fmt: skip
