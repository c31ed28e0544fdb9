"""The audit trail in words, for its page (``/events/ID/log``, ``spec/events.md`` §10): each
entry as when, who (the token's label and role, never its secret), what was done and why,
newest first. The JSON of ``GET .../log`` stays what is checked; these words are only read.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from arbiter.service.events.actions import Correction, Paired, State, parse
from arbiter.service.events.chain import Entry
from arbiter.service.events.kinds import kind_of
from arbiter.service.events.reading import entries, list_records, states_before
from arbiter.service.events.store import Store
from arbiter.service.events.views import RecordView

__all__ = ["TrailLine", "trail_lines", "what_was_done", "who_did_it"]


@dataclass(frozen=True, slots=True)
class TrailLine:
    """One entry of the trail as its page says it."""

    number: int
    at: str
    who: str
    what: str
    why: str | None
    action: str
    hash: str


FIELD_WORDS = {
    "name": "the name",
    "rounds": "the planned rounds",
    "tiebreaks": "the tie-break order",
    "confirm_uploads": "whether players' uploads wait for confirmation",
    "acceleration": "the acceleration",
}


def trail_lines(store: Store, event_id: str) -> list[TrailLine]:
    """Every entry of the event's trail in words, newest first."""
    found = entries(store, event_id)
    described = {view.record: _described(view) for view in list_records(store, event_id)}
    tokens = _tokens(found)
    lines = [
        TrailLine(
            number=entry.number,
            at=entry.at,
            who=who_did_it(entry.token, tokens),
            what=what_was_done(entry, state, described),
            why=entry.reason,
            action=entry.action,
            hash=entry.hash,
        )
        for entry, state in zip(found, states_before(found), strict=True)
    ]
    return lines[::-1]


def _tokens(found: Iterable[Entry]) -> dict[int, tuple[str, str]]:
    """Each token's label and role, as the trail issued them."""
    tokens: dict[int, tuple[str, str]] = {}
    for entry in found:
        if entry.action == "event-created":
            given = entry.details.get("token", {})
        elif entry.action == "token-issued":
            given = entry.details
        else:
            continue
        if isinstance(given.get("number"), int):
            tokens[given["number"]] = (str(given.get("label", "")), str(given.get("role", "")))
    return tokens


def who_did_it(token: int | None, tokens: Mapping[int, tuple[str, str]]) -> str:
    """``player-07 (upload token 3)``; ``the server`` for an entry made without a token."""
    if token is None:
        return "the server"
    label, role = tokens.get(token, ("?", ""))
    return f"{label} ({role + ' ' if role else ''}token {token})"


def _described(view: RecordView) -> str:
    names = " v ".join(view.players.values()) or "unreadable"
    where = f"round {view.round}, " if view.round is not None else ""
    return f"record {view.record} ({where}{names})"


def what_was_done(entry: Entry, state: State, described: Mapping[int, str]) -> str:
    """What an entry did, in words."""
    details = entry.details
    try:
        action = parse(entry)
    except (KeyError, TypeError, ValueError):
        return f"{entry.action} (its details cannot be read)"
    record = details.get("record")
    named = described.get(record, f"record {record}") if isinstance(record, int) else ""
    if isinstance(action, Paired):
        try:
            return action.words(state)
        except (KeyError, TypeError, ValueError):
            return entry.action
    if isinstance(action, Correction):
        return f"{named}: {action.words()}"
    return _plain(entry.action, details, named)


def _plain(action: str, details: Mapping[str, Any], named: str) -> str:
    """The words of the actions that are neither corrections nor a paired event's."""
    if action == "event-created":
        rounds = details.get("rounds")
        planned = f", {rounds} rounds planned" if rounds else ""
        paired = details.get("pairing")
        system = f", paired ({paired})" if kind_of(str(paired)).paired else ""
        fast = details.get("acceleration")
        accelerated = ", Baku acceleration" if fast == "baku" else ""
        return (
            f"created the event {details.get('name')} "
            f"({details.get('game')}{planned}{system}{accelerated})"
        )
    if action == "event-changed":
        changed = [f"{FIELD_WORDS.get(k, k)} to {_value(v)}" for k, v in details.items()]
        return "changed " + ", ".join(changed)
    if action == "finalised":
        return "finalised the event: its results are final"
    if action == "token-issued":
        role = {"upload": "an upload", "player": "a player's"}.get(
            str(details.get("role")), "a director's"
        )
        return f"issued {role} token (token {details.get('number')}) for {details.get('label')}"
    if action == "token-revoked":
        return f"revoked token {details.get('token')}"
    if action == "uploaded":
        return _uploaded(details)
    if action == "confirmed":
        return f"confirmed {named}: it counts"
    if action == "webhook-added":
        kinds = details.get("events")
        said = ", ".join(map(str, kinds)) if isinstance(kinds, list) else ""
        return f"added webhook {details.get('number')} ({said})"
    if action == "webhook-removed":
        return f"removed webhook {details.get('webhook')}"
    return action


def _uploaded(details: Mapping[str, Any]) -> str:
    kept = details.get("records") or []
    numbers = [one.get("record") for one in kept if isinstance(one, Mapping)]
    what = details.get("file") or "a request body"
    if not numbers:
        return f"uploaded {what}: no record"
    span = f"record {numbers[0]}" if len(numbers) == 1 else f"records {numbers[0]}-{numbers[-1]}"
    waiting = sum(1 for one in kept if isinstance(one, Mapping) and one.get("status") == "pending")
    wait = f", {waiting} waiting for confirmation" if waiting else ""
    return f"uploaded {what}: {span}{wait}"


def _value(value: object) -> str:
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)
