"""Ratings anyone can re-derive from the records (``spec/ratings.md``).

- :func:`rate` rates records as arbiter adjudicates them: official results, players by
  name, a pool per game and board size, Elo, Glicko-2 and TrueSkill.
- :func:`rate_abstractplay` rates them exactly as Abstract Play's daily job does: its pools,
  its checks, its three raters, players by user id, the records' own results.

Both take the files as ``(name, bytes)`` pairs, in order, and return :class:`Ratings`.
The steps themselves are in :mod:`arbiter.ratings.maths`.
"""

from __future__ import annotations

from collections.abc import Iterable

from arbiter.ratings.maths import Glicko, TrueSkill, elo, glicko2, glicko2_idle, trueskill
from arbiter.ratings.values import Exclusion, Note, PlayerRating, PoolRatings, Ratings

__all__ = [
    "COMPAT",
    "Exclusion",
    "Glicko",
    "Note",
    "PlayerRating",
    "PoolRatings",
    "Ratings",
    "TrueSkill",
    "elo",
    "glicko2",
    "glicko2_idle",
    "rate",
    "rate_abstractplay",
    "trueskill",
]

COMPAT: tuple[str, ...] = ("abstractplay",)
"""The other servers whose ratings can be reproduced."""


def rate(files: Iterable[tuple[str, bytes]], *, jobs: int = 1) -> Ratings:
    """arbiter's own ratings of every record of ``files`` (name and content, in order).

    ``jobs`` worker processes share the replays where the system can fork (the ratings are
    the same whatever their number)."""
    from arbiter.ratings.native import Played, once, played_list, played_of, rate_played
    from arbiter.ratings.sources import items_of
    from arbiter.ratings.workers import mapped

    items = (item for name, data in files for item in items_of(name, data))
    if jobs > 1:
        found = once(mapped(played_list, list(items), jobs))
    else:
        found = once(played_of(item) for item in items)
    played = [game for game in found if isinstance(game, Played)]
    excluded = tuple(game for game in found if isinstance(game, Exclusion))
    return Ratings(tuple(rate_played(played)), excluded)


def rate_abstractplay(
    files: Iterable[tuple[str, bytes]], *, check: bool = True, jobs: int = 1
) -> Ratings:
    """Abstract Play's ratings of every record of ``files`` (name and content, in order).

    With ``check``, each Pletore record rated is also adjudicated, and a note says where
    arbiter's result is not the record's own (the ratings keep the record's). ``jobs``
    worker processes share those replays where the system can fork (the ratings and the
    notes are the same whatever their number)."""
    from arbiter.ratings.compat import rate_files

    return rate_files(files, check=check, jobs=jobs)
