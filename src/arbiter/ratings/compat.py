"""The run of ``--compat abstractplay`` over files (``spec/ratings.md`` §3): every record
read as Abstract Play's job reads it (arbiter's own records written as Abstract Play
records first), rated pool by pool, and, with the check, each Pletore record rated
adjudicated beside."""

from __future__ import annotations

from collections.abc import Iterable

from arbiter.adjudicator.abstractplay import abstractplay_object
from arbiter.adjudicator.replay import adjudicate
from arbiter.notation.abstractplay import record_from_abstractplay
from arbiter.notation.errors import RecordError
from arbiter.ratings.abstractplay import APGame, RecordProblem, game_of, plan_pools, rate_plans
from arbiter.ratings.sources import Item, items_of
from arbiter.ratings.values import Exclusion, Note, Ratings
from arbiter.ratings.workers import mapped_beside

__all__ = ["rate_files"]


def rate_files(files: Iterable[tuple[str, bytes]], *, check: bool = True, jobs: int = 1) -> Ratings:
    """The ratings of every record of ``files``, and every record left out; the check's
    replays in ``jobs`` processes (:func:`arbiter.ratings.workers.mapped_beside`)."""
    games: list[APGame] = []
    raw: dict[int, object] = {}
    unread: list[Exclusion] = []
    for name, data in files:
        for item in items_of(name, data):
            found = _game(item)
            if isinstance(found, Exclusion):
                unread.append(found)
            else:
                games.append(found)
                raw[id(found)] = item.raw
    plans = plan_pools(games)
    left_out = {(g.file, g.index) for plan in plans for g in plan.elo_left_out()}
    checked = [] if not check else [
        (game, raw[id(game)]) for game in games
        if (game.file, game.index) not in left_out and game.game.lower() == "pletore"
    ]  # fmt: skip
    # the pools are rated here while the workers, if any, start on the check
    notes, (pools, excluded) = mapped_beside(_checked, checked, jobs, lambda: rate_plans(plans))
    everything = sorted([*unread, *excluded], key=_place)
    return Ratings(tuple(pools), tuple(everything), tuple(notes))


def _place(exclusion: Exclusion) -> tuple[str, int]:
    return exclusion.file, -1 if exclusion.index is None else exclusion.index


def _game(item: Item) -> APGame | Exclusion:
    """What the raters read of ``item``: its Abstract Play value, or arbiter's record
    written as one."""
    index = item.index
    if item.problem is not None or index is None:
        return Exclusion(item.file, index, "unreadable", item.problem or "not a record")
    raw = item.raw
    if item.record is not None:
        try:
            raw = abstractplay_object(item.record)
        except RecordError as error:
            return Exclusion(item.file, index, "unreadable", f"{error.code}: {error}")
        item = Item(item.file, index, raw=raw)
    try:
        return game_of(raw, item.file, index)
    except RecordProblem as problem:
        return Exclusion(item.file, index, "unreadable", str(problem))


def _checked(item: tuple[APGame, object]) -> list[Note]:
    return _note(*item)


def _note(game: APGame, raw: object) -> list[Note]:
    """A note when arbiter's result of the Pletore record is not the record's own."""
    try:
        record = record_from_abstractplay(raw, game.index)
    except RecordError as error:
        return [Note(game.file, game.index, game.pool, "?", "none", f"{error.code}: {error}")]
    report = adjudicate(record, hints=False)
    if report.valid:
        return []
    first = report.errors[0] if report.errors else {}
    message = f"{first.get('code', 'invalid')}: {first.get('message', '')}"
    adjudicated = report.result if report.finished else "none"
    return [Note(game.file, game.index, game.pool, record.result, adjudicated, message)]
