"""The server's rating list (``spec/ratings.md`` §6): arbiter's own ratings of every game
that counts in the server's events, a player's figures in one event, and the ratings a new
paired event takes from the list (``spec/pairings.md`` §8).

Every event's records that count are rated as ``arbiter ratings`` rates records (players by
name, a pool per game and board size), each with the result that counts (the director's
official result where set). The list is made in one read transaction, once per change of
the events (its key is every event's id and version), and is bounded: the
:data:`MAX_EVENTS` newest events are read.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, replace
from typing import Any

from arbiter.ratings.abstractplay import RecordProblem, date_milliseconds
from arbiter.ratings.native import EloStep, Played, once, played_from, rate_played
from arbiter.ratings.values import Exclusion, PoolRatings
from arbiter.service.events import storage
from arbiter.service.events.common import EventError
from arbiter.service.events.counted import counted_items
from arbiter.service.events.rows import EventRow
from arbiter.service.events.store import Store

__all__ = [
    "MAX_EVENTS",
    "EventRating",
    "RatingList",
    "event_ratings",
    "rating_list",
    "ratings_from",
]

MAX_EVENTS = 2_000
"""The newest events the list reads; an older one is left out of it (and said: ``events``)."""


@dataclass(frozen=True, slots=True)
class EventRating:
    """A player's Elo in one event's pool: before their first game of the event and after
    their last, the games Elo rated there, the points scored, and the performance rating
    (the opponents' average Elo, each as it stood before the game, plus 400 times wins
    less losses over the games)."""

    pool: str
    before: float
    after: float
    games: int
    points: float
    performance: float


@dataclass(frozen=True, slots=True)
class RatingList:
    """The list: each pool's ratings, the games left out, how many events were read (and
    whether older ones were left out), and each event's players' figures."""

    pools: tuple[PoolRatings, ...]
    excluded: tuple[Exclusion, ...]
    events: int
    truncated: bool
    by_event: Mapping[str, Mapping[str, EventRating]]

    def pool(self, name: str) -> PoolRatings:
        """The pool named ``name``. Raises ``EventError`` (``no-such-pool``) listing the
        pools when there is none."""
        found = next((pool for pool in self.pools if pool.pool == name), None)
        if found is None:
            known = ", ".join(repr(pool.pool) for pool in self.pools) or "none yet"
            raise EventError("no-such-pool", f"no rating pool {name!r}; the pools: {known}")
        return found

    def to_dict(self) -> dict[str, Any]:
        return {
            "pools": [pool.to_dict() for pool in self.pools],
            "excluded": [exclusion.to_dict() for exclusion in self.excluded],
            "events": self.events,
            "truncated": self.truncated,
        }


_LISTS: dict[str, tuple[tuple[tuple[str, int], ...], RatingList]] = {}
"""The list made last, by database, with the key of the events it was made from."""
_LOCK = threading.Lock()


def rating_list(store: Store) -> RatingList:
    """The rating list of every event's games that count, made anew only when an event
    changed (or was added) since it was last made."""
    with storage.reading(store) as tx:
        rows = storage.list_events(tx, newest_first=True, limit=MAX_EVENTS + 1)
        key = tuple((row.id, row.version) for row in rows)
        with _LOCK:
            cached = _LISTS.get(store.url)
        if cached is not None and cached[0] == key:
            return cached[1]
        kept = rows[:MAX_EVENTS][::-1]  # oldest first: the games' order within a day
        games = once(game for row in kept for game in _games(tx, row))
    played = [game for game in games if isinstance(game, Played)]
    steps: list[EloStep] = []
    pools = rate_played(played, steps)
    made = RatingList(
        tuple(pools),
        tuple(game for game in games if isinstance(game, Exclusion)),
        len(kept),
        len(rows) > MAX_EVENTS,
        _by_event(steps),
    )
    with _LOCK:
        _LISTS[store.url] = (key, made)
    return made


def _games(tx: storage.Tx, row: EventRow) -> Iterator[Played | Exclusion]:
    """Each game that counts in the event ``row``, as the list rates it: ``file`` is the
    event's id, ``index`` the record's number."""
    rows = storage.counted_records(tx, row.id)
    created = _created(row)
    for kept, (record, report) in zip(rows, counted_items(rows, row), strict=True):
        if record is None:  # a record of another game never counts
            continue
        game = played_from(row.id, kept.number, record, report, received=created)
        if isinstance(game, Played) and game.pairing is not None:
            # two events may have one name: a pairing is the event's by its id
            _, round_text, first, second = game.pairing
            game = replace(game, pairing=(row.id, round_text, first, second))
        yield game


def _created(row: EventRow) -> int | None:
    """When the event was created (the date of its records that have none)."""
    try:
        return date_milliseconds(row.created_at, "created_at")
    except RecordProblem:
        return None


def _by_event(steps: list[EloStep]) -> dict[str, dict[str, EventRating]]:
    """Each event's players' figures, from the Elo steps in the order rated."""
    tallies: dict[tuple[str, str], _Tally] = {}
    for step in steps:
        game = step.game
        for side, player in enumerate((game.first, game.second)):
            key = (game.file, player)
            tally = tallies.setdefault(key, _Tally(game.pool, step.before[side]))
            tally.add(game.score if side == 0 else 1 - game.score, step, side)
    found: dict[str, dict[str, EventRating]] = {}
    for (event, player), tally in tallies.items():
        found.setdefault(event, {})[player] = tally.rating()
    return found


class _Tally:
    """One player's games in one event, as Elo rated them."""

    def __init__(self, pool: str, before: float) -> None:
        self.pool, self.before, self.after = pool, before, before
        self.games, self.points, self.opponents, self.balance = 0, 0.0, 0.0, 0

    def add(self, score: float, step: EloStep, side: int) -> None:
        self.games += 1
        self.points += score
        self.opponents += step.before[1 - side]
        self.balance += 1 if score == 1 else -1 if score == 0 else 0
        self.after = step.after[side]

    def rating(self) -> EventRating:
        performance = (self.opponents + 400 * self.balance) / self.games
        return EventRating(self.pool, self.before, self.after, self.games, self.points, performance)


def event_ratings(store: Store, event_id: str) -> Mapping[str, EventRating]:
    """The figures of each player of the event, by name (none for a player without a
    rated game there)."""
    return rating_list(store).by_event.get(event_id, {})


def ratings_from(store: Store, fields: Mapping[str, object]) -> dict[str, object]:
    """``fields`` of ``POST .../players`` with ``ratings_from`` taken out and applied: each
    player given without a ``rating`` and found by name in that pool takes their Elo there,
    rounded to a whole number. Raises ``EventError`` (``bad-field``, ``no-such-pool``)."""
    if "ratings_from" not in fields:
        return dict(fields)
    rest = {name: value for name, value in fields.items() if name != "ratings_from"}
    pool_name = fields["ratings_from"]
    if not isinstance(pool_name, str) or not pool_name:
        raise EventError(
            "bad-field", "'ratings_from' must name a rating pool", field="ratings_from"
        )
    if "players" not in rest:
        raise EventError("bad-field", "give 'ratings_from' with 'players'", field="ratings_from")
    pool = rating_list(store).pool(pool_name)
    elo = {player.player: player.elo for player in pool.players if player.elo is not None}
    given = rest["players"]
    if not isinstance(given, list):
        return rest  # add_players says what is wrong with it
    return {**rest, "players": [_rated(one, elo) for one in given]}


def _rated(player: object, elo: Mapping[str, float]) -> Any:
    """One player's fields, with the rating from ``elo`` when none is given."""
    if not isinstance(player, dict) or player.get("rating") is not None:
        return player
    name = player.get("name")
    found = elo.get(" ".join(name.split())) if isinstance(name, str) else None
    return player if found is None else {**player, "rating": round(found)}
