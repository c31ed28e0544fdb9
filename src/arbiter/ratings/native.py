"""arbiter's own ratings (``spec/ratings.md`` §2): every record adjudicated, its official
result rated; players by name; a pool per game and board size; Elo and TrueSkill in date
order; Glicko-2 in 60-day periods in which a player known but absent has their deviation
grow (Glickman's step for a player who did not compete)."""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime

from arbiter.adjudicator.replay import adjudicate
from arbiter.notation.ast import Record
from arbiter.ratings import maths
from arbiter.ratings.abstractplay import PERIOD_MS, RecordProblem, date_milliseconds
from arbiter.ratings.maths import Glicko, Opponent, TrueSkill, TrueSkillError
from arbiter.ratings.sources import Item
from arbiter.ratings.values import Exclusion, PlayerRating, PoolRatings

__all__ = ["Played", "played_of", "rate_played"]


@dataclass(frozen=True, slots=True)
class Played:
    """A rated game: where it came from, its pool, its two players by name, the first
    player's score (1, ½, 0) and when it ended (milliseconds since 1970, UTC)."""

    file: str
    index: int
    pool: str
    first: str
    second: str
    score: float
    milliseconds: int


def played_of(item: Item) -> Played | Exclusion:
    """The game ``item`` holds as its official result rates it, or why it is left out."""
    record = item.record
    index = item.index if item.index is not None else 0
    if record is None:
        return Exclusion(item.file, item.index, "unreadable", item.problem or "not a record")
    if len(record.players) != 2:
        return Exclusion(
            item.file, index, "not-two-players", "the record does not name two players"
        )
    report = adjudicate(record, hints=False)
    if not report.valid or not report.finished:
        why = report.errors[0]["message"] if report.errors else "the game is not finished"
        return Exclusion(item.file, index, "no-result", f"no official result: {why}")
    try:
        milliseconds = _date(record)
    except RecordProblem as problem:
        return Exclusion(item.file, index, "no-date", str(problem))
    (colour, first), (_, second) = record.players
    score = 0.5 if report.winner is None else 1.0 if report.winner == colour else 0.0
    pool = f"{record.game} {record.size}x{record.size}"
    return Played(item.file, index, pool, first, second, score, milliseconds)


def _date(record: Record) -> int:
    """When the game ended: Abstract Play's ``date-end``, else the day of ``Date``."""
    tags = {tag.name: tag.value for tag in record.tags}
    if "APDateEnd" in tags:
        return date_milliseconds(tags["APDateEnd"], "APDateEnd")
    day = tags.get("Date", "")
    try:
        moment = datetime.strptime(day, "%Y.%m.%d").replace(tzinfo=UTC)
    except ValueError:
        raise RecordProblem("Date", f"the record has no full date: {day!r}") from None
    return int(moment.timestamp()) * 1000


def rate_played(games: Iterable[Played]) -> list[PoolRatings]:
    """Every pool's ratings, pools in the order of their first game."""
    pools: dict[str, list[Played]] = {}
    for game in games:
        pools.setdefault(game.pool, []).append(game)
    return [_pool(name, members) for name, members in pools.items()]


def _pool(name: str, games: list[Played]) -> PoolRatings:
    ordered = sorted(games, key=lambda g: g.milliseconds)
    elo: dict[str, float] = {}
    skill: dict[str, TrueSkill] = {}
    counts: dict[str, list[int]] = {}
    for game in ordered:
        a = elo.get(game.first, maths.ELO_START)
        b = elo.get(game.second, maths.ELO_START)
        elo[game.first], elo[game.second] = maths.elo(a, b, game.score)
        _trueskill(skill, game)
        for player, score in ((game.first, game.score), (game.second, 1 - game.score)):
            tally = counts.setdefault(player, [0, 0, 0, 0])
            tally[0] += 1
            tally[1 if score == 1 else 2 if score == 0 else 3] += 1
    glicko = _glicko(ordered)
    players = tuple(
        PlayerRating(player, player, *_four(counts[player]), elo[player], glicko[player],
                     skill[player])
        for player in counts
    )  # fmt: skip
    return PoolRatings(name, len(games), players)


def _four(tally: list[int]) -> tuple[int, int, int, int]:
    games, wins, losses, draws = tally
    return games, wins, losses, draws


def _trueskill(skill: dict[str, TrueSkill], game: Played) -> None:
    a = skill.get(game.first, maths.TRUESKILL_START)
    b = skill.get(game.second, maths.TRUESKILL_START)
    try:
        if game.score == 0:
            b, a = maths.trueskill(b, a)
        else:
            a, b = maths.trueskill(a, b, game.score == 0.5)
    except TrueSkillError:
        pass  # an upset beyond the formulas' range leaves both ratings as they were
    skill[game.first], skill[game.second] = a, b


def _glicko(ordered: list[Played]) -> dict[str, Glicko]:
    """Glicko-2 over 60-day periods from the first game; every known player absent from a
    period has the idle step."""
    oldest = ordered[0].milliseconds
    count = max(1, math.ceil((ordered[-1].milliseconds - oldest) / PERIOD_MS))
    periods: list[list[Played]] = [[] for _ in range(count + 1)]
    for game in ordered:
        periods[(game.milliseconds - oldest) // PERIOD_MS].append(game)
    ratings: dict[str, Glicko] = {}
    for members in periods:
        ratings = _period(ratings, members)  # a period without games: everyone idle
    return ratings


def _period(known: dict[str, Glicko], games: list[Played]) -> dict[str, Glicko]:
    matches: dict[str, list[Opponent]] = {}
    start = {**known}
    for game in games:
        a = start.setdefault(game.first, maths.GLICKO_START)
        b = start.setdefault(game.second, maths.GLICKO_START)
        matches.setdefault(game.first, []).append(Opponent(b.rating, b.rd, game.score))
        matches.setdefault(game.second, []).append(Opponent(a.rating, a.rd, 1 - game.score))
    return {
        player: maths.glicko2(rating, matches[player])
        if player in matches
        else maths.glicko2_idle(rating)
        for player, rating in start.items()
    }
