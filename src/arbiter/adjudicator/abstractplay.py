"""Abstract Play records written with what only a replay knows: the winner and the scores.

Implements the writing half of ``spec/abstractplay.md``. The format itself is
:mod:`arbiter.notation.abstractplay`, which knows no rules; an Abstract Play record gives
every player a result and a score, so this module replays the record first and hands the
writer the winner of a finished game and the scores as they stand after the last move (the
site's own scores: stones, controlled points, komi, button).
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from arbiter.adjudicator.replay import replay
from arbiter.notation.abstractplay import GAME, record_to_abstractplay
from arbiter.notation.ast import Record
from arbiter.notation.errors import RecordError


def abstractplay_object(record: Record) -> dict[str, Any]:
    """The Abstract Play record of ``record``, as a JSON-ready object.

    The winner is the record's own claim where it names one, else the rules' winner of a
    finished game; the scores are those of the position after the last move, and are left
    out when the moves cannot be replayed. Raises ``RecordError`` (``cannot-convert``) for
    a record the format cannot hold (see :func:`record_to_abstractplay`)."""
    winner, scores = _standing(record)
    return record_to_abstractplay(record, winner=winner, scores=scores)


def write_abstractplay(records: Record | Iterable[Record]) -> str:
    """Abstract Play JSON text ending in LF, compact as the site writes it: the object of
    one record when given a :class:`Record`, an array when given an iterable of records.

    Raises ``RecordError`` for the first record the format cannot hold."""
    value: object
    if isinstance(records, Record):
        value = abstractplay_object(records)
    else:
        value = [abstractplay_object(record) for record in records]
    return json.dumps(value, ensure_ascii=False, separators=(",", ":")) + "\n"


def _standing(record: Record) -> tuple[str | None, dict[str, float] | None]:
    """The rules' winner (None unless the game is over) and the scores after the last move
    (None when the record is not Pletore or its moves cannot be replayed)."""
    if record.game != GAME:
        return None, None
    try:
        played = replay(record)
    except RecordError:
        return None, None
    if played.error is not None:
        return None, None
    outcome = played.rules.outcome(played.state)
    if outcome is not None and outcome.scores is not None:
        return outcome.winner, dict(outcome.scores)
    details = played.rules.details(played.state)
    return None, {colour: figures["total"] for colour, figures in details.items()}
