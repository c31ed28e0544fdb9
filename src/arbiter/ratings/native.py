"""arbiter's own ratings (``spec/ratings.md`` §2): every record adjudicated, its official
result rated; players by name; a pool per game and board size; Elo and TrueSkill in date
order; Glicko-2 in 60-day periods in which a player known but absent has their deviation
grow (Glickman's step for a player who did not compete)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime

from arbiter.adjudicator.replay import Report, adjudicate
from arbiter.notation.abstractplay import record_from_abstractplay
from arbiter.notation.ast import Record
from arbiter.notation.errors import RecordError
from arbiter.ratings import maths
from arbiter.ratings.abstractplay import PERIOD_MS, RecordProblem, date_milliseconds
from arbiter.ratings.maths import Glicko, Opponent, TrueSkill, TrueSkillError
from arbiter.ratings.sources import Item
from arbiter.ratings.values import Exclusion, PlayerRating, PoolRatings

__all__ = ["EloStep", "Played", "once", "played_from", "played_list", "played_of", "rate_played"]


@dataclass(frozen=True, slots=True)
class Played:
    """A rated game: where it came from, its pool, its two players by name, the first
    player's score (1, ½, 0), when it ended (milliseconds since 1970, UTC) and, for a game
    of an event, its event, round and players (sorted), which no other game may have."""

    file: str
    index: int
    pool: str
    first: str
    second: str
    score: float
    milliseconds: int
    pairing: tuple[str, str, str, str] | None = None


def played_of(item: Item) -> Played | Exclusion:
    """The game ``item`` holds as its official result rates it, or why it is left out."""
    record, index = item.record, item.index if item.index is not None else 0
    if record is None and item.raw is not None:  # an Abstract Play record, read as arbiter's
        try:
            record = record_from_abstractplay(item.raw, index)
        except RecordError as error:
            return Exclusion(item.file, index, "unreadable", f"{error.code}: {error}")
    if record is None:
        return Exclusion(item.file, item.index, "unreadable", item.problem or "not a record")
    if len(record.players) != 2:  # before the replay: a record of one player is not a game
        return Exclusion(
            item.file, index, "not-two-players", "the record does not name two players"
        )
    return played_from(item.file, index, record, adjudicate(record, hints=False))


def played_list(item: Item) -> list[Played | Exclusion]:
    """:func:`played_of` ``item``, as a list (what a worker process gives back)."""
    return [played_of(item)]


def played_from(
    file: str, index: int, record: Record, report: Report, *, received: int | None = None
) -> Played | Exclusion:
    """The game ``record`` holds as ``report`` gives its official result (the adjudicator's,
    or the one a director set), or why it is left out. ``received`` (milliseconds since
    1970) dates a record that has no date of its own."""
    names = [_name(name) for _, name in record.players]
    if len(names) != 2 or not all(names) or names[0] == names[1]:
        return Exclusion(file, index, "not-two-players", "the record does not name two players")
    winner = _name(report.winner_player)
    if not report.valid or report.result == "*" or winner not in names:
        why = report.errors[0]["message"] if report.errors else "the game is not finished"
        return Exclusion(file, index, "no-result", f"no official result: {why}")
    if report.termination == "forfeit":
        return Exclusion(file, index, "forfeit", f"{report.result}: a forfeit is no game played")
    try:
        milliseconds = _date(record, received)
    except RecordProblem as problem:
        return Exclusion(file, index, "no-date", str(problem))
    score = 1.0 if winner == names[0] else 0.0
    pool = f"{record.game} {record.size}x{record.size}"
    return Played(file, index, pool, names[0], names[1], score, milliseconds, _pairing(record))


def _pairing(record: Record) -> tuple[str, str, str, str] | None:
    tags = {tag.name: _name(tag.value) for tag in record.tags}
    event, round_text = tags.get("Event", ""), tags.get("Round", "")
    if not event or not round_text:
        return None
    first, second = sorted(_name(name) for _, name in record.players)
    return event, round_text, first, second


def once(games: Iterable[Played | Exclusion]) -> list[Played | Exclusion]:
    """``games`` with each second record of a pairing of an event's round made a
    ``duplicate`` exclusion, as standings count the first one only."""
    seen: dict[tuple[str, str, str, str], Played] = {}
    found: list[Played | Exclusion] = []
    for game in games:
        if isinstance(game, Played) and game.pairing is not None:
            first = seen.setdefault(game.pairing, game)
            if first is not game:
                event, round_text, a, b = game.pairing
                where = f"{first.file} record {first.index}"
                message = (
                    f"{a} and {b} already have a rated game in {event} round {round_text} ({where})"
                )
                game = Exclusion(game.file, game.index, "duplicate", message)
        found.append(game)
    return found


def _name(value: str | None) -> str:
    """A player's name as compared (as standings compare them): runs of white space made
    one space, the ends trimmed."""
    return " ".join((value or "").split())


def _date(record: Record, received: int | None = None) -> int:
    """When the game ended: Abstract Play's ``date-end``, else the day of ``Date``, else
    ``received``."""
    tags = {tag.name: tag.value for tag in record.tags}
    if "APDateEnd" in tags:
        return date_milliseconds(tags["APDateEnd"], "APDateEnd")
    if "Date" not in tags and received is not None:
        return received
    day = tags.get("Date", "")
    try:
        moment = datetime.strptime(day, "%Y.%m.%d").replace(tzinfo=UTC)
    except ValueError:
        raise RecordProblem("Date", f"the record has no full date: {day!r}") from None
    return int(moment.timestamp()) * 1000


@dataclass(frozen=True, slots=True)
class EloStep:
    """One game as Elo rated it: the game, and each player's Elo before and after it."""

    game: Played
    before: tuple[float, float]
    after: tuple[float, float]


def rate_played(games: Iterable[Played], steps: list[EloStep] | None = None) -> list[PoolRatings]:
    """Every pool's ratings, pools in the order of their first game; each game's Elo step
    appended to ``steps`` when given, in the order rated."""
    pools: dict[str, list[Played]] = {}
    for game in games:
        pools.setdefault(game.pool, []).append(game)
    return [_pool(name, members, steps) for name, members in pools.items()]


def _pool(name: str, games: list[Played], steps: list[EloStep] | None) -> PoolRatings:
    ordered = sorted(games, key=lambda g: g.milliseconds)
    elo: dict[str, float] = {}
    skill: dict[str, TrueSkill] = {}
    counts: dict[str, list[int]] = {}
    for game in ordered:
        a = elo.get(game.first, maths.ELO_START)
        b = elo.get(game.second, maths.ELO_START)
        elo[game.first], elo[game.second] = maths.elo(a, b, game.score)
        if steps is not None:
            steps.append(EloStep(game, (a, b), (elo[game.first], elo[game.second])))
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
    """Glicko-2 over 60-day periods from the first game to the one of the last; every known
    player absent from a period has the idle step."""
    oldest = ordered[0].milliseconds
    count = (ordered[-1].milliseconds - oldest) // PERIOD_MS + 1  # up to the last game's
    periods: list[list[Played]] = [[] for _ in range(count)]
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
