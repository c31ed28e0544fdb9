"""Abstract Play's three raters, as its daily summary job runs them (``spec/ratings.md`` §3).

The job reads every record, groups them into pools by game and variants, and gives each
pool to three raters: Elo and TrueSkill over the pool sorted by ``date-end``, Glicko-2 in
60-day periods. Each rater leaves a record out by the same checks in the same order (no
game id, a game id seen before, not two players, unrated, fewer than 3 rounds, a player
without a user id), and a game id counts as seen from the moment it is read, whatever
comes after: so which copy of a duplicate is rated depends on the order the rater reads
the records in, and this module keeps each rater's own order.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Iterator, Sequence
from datetime import UTC, datetime
from typing import Any, Final

from arbiter.notation.plain import Plain
from arbiter.ratings import maths
from arbiter.ratings.maths import Opponent, TrueSkillError
from arbiter.ratings.values import RATERS, Exclusion, PlayerRating, PoolRatings

__all__ = [
    "APGame",
    "PoolPlan",
    "RecordProblem",
    "date_milliseconds",
    "game_of",
    "plan_pools",
    "rate_plans",
    "rate_pools",
]

PERIOD_MS: Final = 60 * 24 * 60 * 60 * 1000
"""A Glicko-2 rating period: 60 days, in milliseconds."""
MIN_ROUNDS: Final = 3

_COLLATION: Final = str.maketrans({c: chr(0x41 + i) for i, c in enumerate("-:.+0123456789TZ")})
"""``date-end`` texts are ordered as the job orders them, by JavaScript's
``localeCompare``: the root collation puts ``- : . +`` before the digits and those before
the letters (``10:00:00Z`` before ``10:00+01:00``), which the code point order does not."""

_DATE: Final = re.compile(
    r"(?P<year>[+-]\d{6}|\d{4})(?:-(?P<month>\d\d)(?:-(?P<day>\d\d))?)?"
    r"(?:T(?P<hour>\d\d):(?P<minute>\d\d)(?::(?P<second>\d\d)(?:\.(?P<fraction>\d+))?)?"
    r"(?P<zone>Z|[+-]\d\d:\d\d)?)?"
)


class RecordProblem(ValueError):
    """A record whose fields the raters need are missing or of the wrong type."""

    def __init__(self, pointer: str, message: str) -> None:
        super().__init__(f"{pointer}: {message}" if pointer else message)
        self.pointer = pointer


class APGame(Plain):
    """What the raters read of one Abstract Play record, and where it came from.
    ``score`` is the first player's: 1 when its ``result`` is the higher, 0 the lower, ½."""

    _fields = (
        "file", "index", "game", "pool", "site", "game_id", "players", "ids", "names",
        "score", "unrated", "rounds", "date_end", "milliseconds",
    )  # fmt: skip
    __slots__ = _fields

    def __init__(
        self,
        file: str,
        index: int,
        game: str,
        pool: str,
        site: str,
        game_id: str | None,
        players: int,
        ids: tuple[str | None, str | None],
        names: tuple[str | None, str | None],
        score: float,
        unrated: bool,
        rounds: int,
        date_end: str,
        milliseconds: int,
    ) -> None:
        self.file: Final = file
        self.index: Final = index
        self.game: Final = game
        self.pool: Final = pool
        self.site: Final = site
        self.game_id: Final = game_id
        self.players: Final = players
        self.ids: Final = ids
        self.names: Final = names
        self.score: Final = score
        self.unrated: Final = unrated
        self.rounds: Final = rounds
        self.date_end: Final = date_end
        self.milliseconds: Final = milliseconds

    def collation(self) -> str:
        return self.date_end.translate(_COLLATION)


# --- reading ---------------------------------------------------------------------------


def game_of(obj: object, file: str, index: int) -> APGame:
    """The fields of the Abstract Play record ``obj`` that the raters read.

    Raises :class:`RecordProblem` at the first field that is missing where the raters need
    it or holds a value of the wrong type."""
    root = _object(obj, "")
    header = _object(root.get("header"), "/header")
    game = _object(header.get("game"), "/header/game")
    site = _object(header.get("site"), "/header/site")
    players = _array(header.get("players"), "/header/players")
    date_end = _string(header.get("date-end"), "/header/date-end")
    name = _string(game.get("name"), "/header/game/name")
    two = [_object(p, f"/header/players/{i}") for i, p in enumerate(players[:2])]
    unrated = header.get("unrated", False)
    if not isinstance(unrated, bool):
        raise RecordProblem("/header/unrated", f"not a boolean: {unrated!r}")
    return APGame(
        file=file,
        index=index,
        game=name,
        pool=_pool(name, _variants(game)),
        site=_string(site.get("name"), "/header/site/name"),
        game_id=_game_id(site.get("gameid")),
        players=len(players),
        ids=_pair([_user_id(p, i) for i, p in enumerate(two)]),
        names=_pair([_name(p) for p in two]),
        score=_score(two) if len(two) == 2 else 0.5,
        unrated=unrated,
        rounds=len(_array(root.get("moves"), "/moves")),
        date_end=date_end,
        milliseconds=date_milliseconds(date_end, "/header/date-end"),
    )


def _pair(values: list[str | None]) -> tuple[str | None, str | None]:
    values = values + [None] * (2 - len(values))
    return values[0], values[1]


def _pool(game: str, variants: tuple[str, ...]) -> str:
    if not variants:
        return f"{game} (no variants)"
    # JavaScript sorts strings by UTF-16 code units, not by code points
    ordered = sorted(variants, key=lambda v: v.encode("utf-16-be", "surrogatepass"))
    return f"{game} ({'|'.join(ordered)})"


def _variants(game: dict[str, Any]) -> tuple[str, ...]:
    value = game.get("variants")
    if value is None:
        return ()
    items = _array(value, "/header/game/variants")
    return tuple(_string(v, f"/header/game/variants/{i}") for i, v in enumerate(items))


def _game_id(value: object) -> str | None:
    """The game id as JavaScript writes it into the record's key ``site|gameid``."""
    if value is None:
        return None
    if isinstance(value, str):
        return value
    if isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value):
        return _js_number(value)
    raise RecordProblem("/header/site/gameid", f"not a string or a number: {value!r}")


def _js_number(value: int | float) -> str:  # not float: compiled, an int would be made one
    if float(value).is_integer() and abs(value) < 1e21:
        return str(int(value))
    return repr(float(value))


def _user_id(player: dict[str, Any], seat: int) -> str | None:
    value = player.get("userid")
    if value is None or isinstance(value, str):
        return value or None
    raise RecordProblem(f"/header/players/{seat}/userid", f"not a string: {value!r}")


def _name(player: dict[str, Any]) -> str | None:
    value = player.get("name")
    return value if isinstance(value, str) else None


def _score(players: list[dict[str, Any]]) -> float:
    first, second = (_number(p.get("result"), f"/header/players/{i}/result")
                     for i, p in enumerate(players))  # fmt: skip
    return 1.0 if first > second else 0.0 if first < second else 0.5


def _number(value: object, pointer: str) -> float:
    if isinstance(value, int | float) and not isinstance(value, bool):
        return float(value)
    raise RecordProblem(pointer, f"not a number: {value!r}")


def _object(value: object, pointer: str) -> dict[str, Any]:
    if isinstance(value, dict):
        return value
    raise RecordProblem(pointer, "missing" if value is None else f"not an object: {value!r}")


def _array(value: object, pointer: str) -> list[Any]:
    if isinstance(value, list):
        return value
    raise RecordProblem(pointer, "missing" if value is None else f"not an array: {value!r}")


def _string(value: object, pointer: str) -> str:
    if isinstance(value, str):
        return value
    raise RecordProblem(pointer, "missing" if value is None else f"not a string: {value!r}")


def date_milliseconds(text: str, pointer: str = "") -> int:
    """Milliseconds since 1970 (UTC) of a date in the ECMAScript date-time format, the
    form JavaScript's ``Date`` reads for certain; a time without an offset is taken as
    UTC, as on the servers that run the job.

    Raises :class:`RecordProblem` for any other text."""
    found = _DATE.fullmatch(text)
    if found is None:
        raise RecordProblem(pointer, f"not an ISO 8601 date and time: {text!r}")
    part = found.groupdict()
    try:
        moment = datetime(
            int(part["year"]), int(part["month"] or 1), int(part["day"] or 1),
            int(part["hour"] or 0), int(part["minute"] or 0), int(part["second"] or 0),
            tzinfo=UTC,
        )  # fmt: skip
    except ValueError as error:
        raise RecordProblem(pointer, f"not a date: {text!r} ({error})") from None
    milliseconds = int((part["fraction"] or "0").ljust(3, "0")[:3])
    zone = part["zone"] or "Z"
    offset = 0 if zone == "Z" else (int(zone[1:3]) * 60 + int(zone[4:6])) * 60_000
    offset = -offset if zone.startswith("-") else offset
    delta = moment - datetime(1970, 1, 1, tzinfo=UTC)
    return (delta.days * 86_400 + delta.seconds) * 1000 + milliseconds - offset


# --- the checks ------------------------------------------------------------------------


def skips(games: Sequence[APGame]) -> list[tuple[str, str] | None]:
    """Why each game, read in this order, is left out (a code and words), or None for a
    game rated: the raters' checks, in their order."""
    seen: set[str] = set()
    found: list[tuple[str, str] | None] = []
    for game in games:
        found.append(_skip(game, seen))
    return found


def _skip(game: APGame, seen: set[str]) -> tuple[str, str] | None:
    if game.game_id is None:
        return "no-game-id", "the record has no site game id"
    key = f"{game.site}|{game.game_id}"
    if key in seen:
        return "duplicate", f"a record with the id {key!r} came before"
    seen.add(key)
    if game.players != 2:
        return "not-two-players", f"the record has {game.players} players, not 2"
    if game.unrated:
        return "unrated", "the record is marked unrated"
    if game.rounds < MIN_ROUNDS:
        return "too-short", f"the record has {game.rounds} rounds of moves, fewer than 3"
    if game.ids[0] is None or game.ids[1] is None:
        return "no-user-id", "a player has no user id"
    return None


# --- the raters ------------------------------------------------------------------------


class _Tally:
    """A player's running figures while one rater reads a pool (mutable, local)."""

    __slots__ = ("value", "games", "wins", "losses", "draws")

    def __init__(
        self, value: Any, games: int = 0, wins: int = 0, losses: int = 0, draws: int = 0
    ) -> None:
        self.value = value
        self.games = games
        self.wins = wins
        self.losses = losses
        self.draws = draws

    def count(self, score: float) -> None:
        self.games += 1
        if score == 1:
            self.wins += 1
        elif score == 0:
            self.losses += 1
        else:
            self.draws += 1


def _ids(game: APGame) -> tuple[str, str]:
    first, second = game.ids
    assert first is not None and second is not None
    return f"{game.site}|{first}", f"{game.site}|{second}"


def _copied(tally: _Tally) -> _Tally:
    """A copy of ``tally`` (compiled, a tally made in a loop and read for its own copy's
    arguments could be released before the copy is made: a parameter is held throughout)."""
    return _Tally(tally.value, tally.games, tally.wins, tally.losses, tally.draws)


def _tally(table: dict[str, _Tally], key: str, start: Any) -> _Tally:
    """The player's tally, or a new one that is not yet in the table: a game of a player
    against themself then counts as the raters count it."""
    found = table.get(key)
    return _Tally(start) if found is None else found


def run_elo(games: Sequence[APGame]) -> dict[str, _Tally]:
    """Elo over ``games`` (already in ``date-end`` order, checks passed)."""
    table: dict[str, _Tally] = {}
    for game in games:
        one, two = _ids(game)
        first, second = _tally(table, one, maths.ELO_START), _tally(table, two, maths.ELO_START)
        first.value, second.value = maths.elo(first.value, second.value, game.score)
        first.count(game.score)
        second.count(1 - game.score)
        table[one], table[two] = first, second
    return table


def run_trueskill(games: Sequence[APGame]) -> tuple[dict[str, _Tally], list[APGame]]:
    """TrueSkill over ``games`` (already in ``date-end`` order, checks passed), and the
    games whose update left its range (Abstract Play's rater stops at the first)."""
    table: dict[str, _Tally] = {}
    failed: list[APGame] = []
    for game in games:
        one, two = _ids(game)
        start = maths.TRUESKILL_START
        first, second = _tally(table, one, start), _tally(table, two, start)
        try:
            if game.score == 0:
                new_second, new_first = maths.trueskill(second.value, first.value)
            else:
                new_first, new_second = maths.trueskill(
                    first.value, second.value, game.score == 0.5
                )
        except TrueSkillError:
            failed.append(game)
            continue
        first.count(game.score)
        second.count(1 - game.score)
        first.value, second.value = new_first, new_second
        table[one], table[two] = first, second
    return table, failed


def run_glicko_period(
    games: Sequence[APGame], known: dict[str, _Tally]
) -> tuple[dict[str, _Tally], list[tuple[str, str] | None]]:
    """One Glicko-2 period: the ratings after ``games`` (in file order) from the ratings
    ``known`` at its start, and why each game was left out (None: rated)."""
    table = {key: _copied(tally) for key, tally in known.items()}
    reasons = skips(games)
    matches: dict[str, list[Opponent]] = {}
    for game, reason in zip(games, reasons, strict=True):
        if reason is not None:
            continue
        one, two = _ids(game)
        start = maths.GLICKO_START
        first, second = _tally(table, one, start), _tally(table, two, start)
        first.count(game.score)
        second.count(1 - game.score)
        matches.setdefault(one, []).append(
            Opponent(second.value.rating, second.value.rd, game.score)
        )
        matches.setdefault(two, []).append(
            Opponent(first.value.rating, first.value.rd, 1 - game.score)
        )
        table[one], table[two] = _copied(first), _copied(second)
    for key, played in matches.items():
        table[key].value = maths.glicko2(table[key].value, played)
    return table, reasons


# --- a pool, and every pool ------------------------------------------------------------


def rate_pools(games: Iterable[APGame]) -> tuple[list[PoolRatings], list[Exclusion]]:
    """Every pool's ratings, pools in the order of their first record (as the job
    meets its games, then their variants), and every game some rater left out."""
    return rate_plans(plan_pools(games))


def plan_pools(games: Iterable[APGame]) -> list[PoolPlan]:
    """Each pool's games and what the raters will read of them (:func:`plan_pool`), pools
    in the order of their first record (as the job meets its games, then their variants)."""
    by_game: dict[str, dict[str, list[APGame]]] = {}
    for game in games:
        by_game.setdefault(game.game, {}).setdefault(game.pool, []).append(game)
    return [
        plan_pool(pool, members) for variants in by_game.values()
        for pool, members in variants.items()
    ]  # fmt: skip


def rate_plans(plans: Iterable[PoolPlan]) -> tuple[list[PoolRatings], list[Exclusion]]:
    """The ratings of the pools planned, and every game some rater left out."""
    pools: list[PoolRatings] = []
    excluded: list[Exclusion] = []
    for plan in plans:
        rated, left_out = rate_plan(plan)
        pools.append(rated)
        excluded += left_out
    excluded.sort(key=lambda e: (e.file, -1 if e.index is None else e.index))
    return pools, excluded


def rate_pool(pool: str, games: list[APGame]) -> tuple[PoolRatings, list[Exclusion]]:
    """One pool's ratings by the three raters, and the games each left out."""
    return rate_plan(plan_pool(pool, games))


class PoolPlan(Plain):
    """A pool before its ratings: its games (in file order), each Glicko-2 period's, the
    games Elo and TrueSkill rate (in ``date-end`` order, the checks passed), and why each
    game is left out so far, by rater (keyed by the game's ``id``)."""

    _fields = ("pool", "games", "periods", "rated", "reasons")
    __slots__ = _fields

    def __init__(
        self,
        pool: str,
        games: list[APGame],
        periods: list[list[APGame]],
        rated: list[APGame],
        reasons: dict[int, dict[str, tuple[str, str]]],
    ) -> None:
        self.pool: Final = pool
        self.games: Final = games
        self.periods: Final = periods
        self.rated: Final = rated
        self.reasons: Final = reasons

    def elo_left_out(self) -> list[APGame]:
        """The games Elo leaves out (and TrueSkill with it)."""
        return [game for game in self.games if "elo" in self.reasons[id(game)]]


def plan_pool(pool: str, games: list[APGame]) -> PoolPlan:
    """What the raters read of the pool ``pool`` of ``games``: the periods, the order, the
    checks (:class:`PoolPlan`)."""
    periods, outside = _periods(games)
    inside = [game for game in games if id(game) not in outside]
    ordered = sorted(inside, key=APGame.collation)  # a stable sort, as the job's
    reasons: dict[int, dict[str, tuple[str, str]]] = {id(g): {} for g in games}
    for game in games:
        if id(game) in outside:
            for rater in RATERS:
                reasons[id(game)][rater] = outside[id(game)]
    rated = []
    for game, reason in zip(ordered, skips(ordered), strict=True):
        if reason is None:
            rated.append(game)
        else:
            reasons[id(game)]["elo"] = reasons[id(game)]["trueskill"] = reason
    return PoolPlan(pool, games, periods, rated, reasons)


def rate_plan(plan: PoolPlan) -> tuple[PoolRatings, list[Exclusion]]:
    """One pool's ratings by the three raters, and the games each left out."""
    games, rated, reasons = plan.games, plan.rated, plan.reasons
    elo = run_elo(rated)
    trueskill, failed = run_trueskill(rated)
    for game in failed:
        reasons[id(game)]["trueskill"] = ("trueskill-range", "TrueSkill's update left its range")
    glicko: dict[str, _Tally] = {}
    for members in plan.periods:
        glicko, found = run_glicko_period(members, glicko)
        for game, reason in zip(members, found, strict=True):
            if reason is not None:
                reasons[id(game)]["glicko"] = reason
    names = _names(games)
    players = tuple(_player(key, elo, glicko, trueskill, names) for key in elo)
    return PoolRatings(plan.pool, len(rated), players), _exclusions(games, reasons)


def _periods(games: list[APGame]) -> tuple[list[list[APGame]], dict[int, tuple[str, str]]]:
    """The games of each 60-day period, in file order, counted from the oldest
    ``date-end`` (in the job's text order), and the games no period holds (only where
    ``date-end`` texts with different offsets put the text order against the time)."""
    oldest = min(games, key=APGame.collation).milliseconds
    newest = max(games, key=APGame.collation).milliseconds
    count = math.ceil((newest - oldest) / PERIOD_MS) or 1
    periods: list[list[APGame]] = [[] for _ in range(max(count, 0))]
    outside: dict[int, tuple[str, str]] = {}
    for game in games:
        number = (game.milliseconds - oldest) // PERIOD_MS
        if 0 <= number < count:
            periods[number].append(game)
        else:
            outside[id(game)] = (
                "outside-periods",
                "its date-end falls in none of the pool's Glicko-2 periods "
                "(Abstract Play's job stops on such a pool)",
            )
    return periods, outside


def _player(
    key: str,
    elo: dict[str, _Tally],
    glicko: dict[str, _Tally],
    trueskill: dict[str, _Tally],
    names: dict[str, str],
) -> PlayerRating:
    tally = elo[key]
    found_glicko = glicko.get(key)
    found_trueskill = trueskill.get(key)
    return PlayerRating(
        player=key.split("|")[1] if key.count("|") else key,
        name=names.get(key),
        games=tally.games,
        wins=tally.wins,
        losses=tally.losses,
        draws=tally.draws,
        elo=tally.value,
        glicko=None if found_glicko is None else found_glicko.value,
        trueskill=None if found_trueskill is None else found_trueskill.value,
    )


def _names(games: list[APGame]) -> dict[str, str]:
    """Each player's name as the last of the pool's records to name them gives it."""
    names: dict[str, str] = {}
    for game in games:
        for user, name in zip(game.ids, game.names, strict=True):
            if user is not None and name:
                names[f"{game.site}|{user}"] = name
    return names


def _exclusions(
    games: list[APGame], reasons: dict[int, dict[str, tuple[str, str]]]
) -> list[Exclusion]:
    found: list[Exclusion] = []
    for game in games:
        by_reason: dict[tuple[str, str], list[str]] = {}
        for rater in RATERS:
            reason = reasons[id(game)].get(rater)
            if reason is not None:
                by_reason.setdefault(reason, []).append(rater)
        for (code, message), raters in by_reason.items():
            found.append(Exclusion(game.file, game.index, code, message, tuple(raters)))
    return found


def iter_games(items: Iterable[tuple[str, int, object]]) -> Iterator[APGame | Exclusion]:
    """Each Abstract Play record read, or its exclusion when it cannot be."""
    for file, index, obj in items:
        try:
            yield game_of(obj, file, index)
        except RecordProblem as problem:
            yield Exclusion(file, index, "unreadable", str(problem))
