"""The values a rating run gives (``spec/ratings.md`` §5): plain, typed and immutable, with
the JSON form the command line prints."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from arbiter.ratings.maths import Glicko, TrueSkill

__all__ = [
    "CSV_COLUMNS",
    "Exclusion",
    "Note",
    "PlayerRating",
    "PoolRatings",
    "Ratings",
    "RATERS",
    "write_csv",
]

RATERS: tuple[str, ...] = ("elo", "glicko", "trueskill")
"""The raters, in the order they are named."""


@dataclass(frozen=True, slots=True)
class PlayerRating:
    """One player's ratings in one pool. ``games``, ``wins``, ``losses`` and ``draws``
    count the games Elo rated; a rater that rated none of the player's games gives None."""

    player: str
    name: str | None
    games: int
    wins: int
    losses: int
    draws: int
    elo: float | None
    glicko: Glicko | None
    trueskill: TrueSkill | None

    def to_dict(self) -> dict[str, Any]:
        glicko = self.glicko
        trueskill = self.trueskill
        return {
            "player": self.player,
            "name": self.name,
            "games": self.games,
            "wins": self.wins,
            "losses": self.losses,
            "draws": self.draws,
            "elo": self.elo,
            "glicko": None
            if glicko is None
            else {"rating": glicko.rating, "rd": glicko.rd, "volatility": glicko.volatility},
            "trueskill": None
            if trueskill is None
            else {"mu": trueskill.mu, "sigma": trueskill.sigma},
        }


@dataclass(frozen=True, slots=True)
class PoolRatings:
    """The ratings of one pool: its name, how many games were rated (by Elo) and its
    players, in the order they first played a rated game."""

    pool: str
    rated: int
    players: tuple[PlayerRating, ...]

    def to_dict(self) -> dict[str, Any]:
        return {
            "pool": self.pool,
            "rated": self.rated,
            "players": [player.to_dict() for player in self.players],
        }


@dataclass(frozen=True, slots=True)
class Exclusion:
    """A record some rater left out: where it is (``index`` counts the records of the
    file from 0; None when the file itself could not be read), why (a code of
    ``spec/ratings.md`` §4), in words, and which raters left it out."""

    file: str
    index: int | None
    reason: str
    message: str
    raters: tuple[str, ...] = RATERS

    def to_dict(self) -> dict[str, Any]:
        return {
            "file": self.file,
            "index": self.index,
            "reason": self.reason,
            "message": self.message,
            "raters": list(self.raters),
        }


@dataclass(frozen=True, slots=True)
class Note:
    """A rated record whose result as arbiter adjudicates it is not the record's own: the
    ratings keep the record's result, and this says so."""

    file: str
    index: int
    pool: str
    recorded: str
    adjudicated: str
    message: str

    def to_dict(self) -> dict[str, Any]:
        return {
            "file": self.file,
            "index": self.index,
            "pool": self.pool,
            "recorded": self.recorded,
            "adjudicated": self.adjudicated,
            "message": self.message,
        }


@dataclass(frozen=True, slots=True)
class Ratings:
    """What a rating run gives: the pools in the order their first record came, every
    record left out, and the notes on results."""

    pools: tuple[PoolRatings, ...]
    excluded: tuple[Exclusion, ...]
    notes: tuple[Note, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {
            "pools": [pool.to_dict() for pool in self.pools],
            "excluded": [exclusion.to_dict() for exclusion in self.excluded],
            "notes": [note.to_dict() for note in self.notes],
        }


CSV_COLUMNS: tuple[str, ...] = (
    "pool", "player", "name", "games", "wins", "losses", "draws", "elo",
    "glicko_rating", "glicko_rd", "glicko_volatility", "trueskill_mu", "trueskill_sigma",
)  # fmt: skip
"""The columns of :func:`write_csv` (``spec/ratings.md`` §5)."""


def write_csv(pools: Iterator[PoolRatings] | tuple[PoolRatings, ...]) -> str:
    """The CSV of ``pools``: a header, then one row per player and pool (a rater that did
    not rate the player leaves its cells empty). The command line's ``--csv`` and the
    server's ``/ratings?format=csv`` both write it."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    writer.writerows(_rows(pools))
    return out.getvalue()


def _rows(pools: Iterator[PoolRatings] | tuple[PoolRatings, ...]) -> Iterator[list[object]]:
    for pool in pools:
        for p in pool.players:
            g, t = p.glicko, p.trueskill
            yield [
                pool.pool, p.player, p.name or "", p.games, p.wins, p.losses, p.draws,
                "" if p.elo is None else p.elo,
                *(("", "", "") if g is None else (g.rating, g.rd, g.volatility)),
                *(("", "") if t is None else (t.mu, t.sigma)),
            ]  # fmt: skip
