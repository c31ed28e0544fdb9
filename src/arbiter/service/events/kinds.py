"""The kinds of event arbiter keeps (``spec/events.md`` §2), by the name an event's
``pairing`` stores: the one registration of each kind. The modules that serve every kind
(:mod:`.operations`, :mod:`.reading`, :mod:`.pages`) look an event's kind up here once and
then ask it."""

from __future__ import annotations

from arbiter.service.events.common import EventError
from arbiter.service.events.kind import OPEN, EventKind
from arbiter.service.events.paired.kind import PAIRED
from arbiter.service.events.rows import EventRow

__all__ = ["KINDS", "kind_named", "kind_of"]

KINDS: dict[str, EventKind] = {kind.stored: kind for kind in (OPEN, *PAIRED)}
"""Every kind, by its stored name, in the order a form offers them."""


def kind_of(event: EventRow | str) -> EventKind:
    """The kind of ``event`` (or of the stored name); an event of a kind this version does
    not know (a database written by a newer one) is read as records uploaded."""
    stored = event if isinstance(event, str) else event.pairing
    return KINDS.get(stored, OPEN)


def kind_named(value: object) -> EventKind:
    """The kind a request names in its ``pairing`` field (``bad-field`` for none)."""
    found = KINDS.get(value) if isinstance(value, str) else None
    if found is None:
        raise EventError(
            "bad-field", f"'pairing' must be one of {', '.join(KINDS)}", field="pairing"
        )
    return found
