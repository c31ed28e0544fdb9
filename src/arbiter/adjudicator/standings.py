"""Tournament standings from adjudicated records (``spec/standings.md``).

:func:`standings` is a pure function of records and their reports: it groups them by event
and game, decides which records count (and says why the others do not), and ranks the
players by points and the tie-breaks of :mod:`arbiter.adjudicator.tiebreaks`. It reads no
file and writes no text: the CLI and the API feed it what :func:`arbiter.adjudicate` made,
and :mod:`arbiter.service.core.standings_formats` writes its tables as text, CSV, HTML or TRF.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from arbiter.adjudicator.replay import Report
from arbiter.adjudicator.tiebreaks import (
    MARGIN,
    RoundResult,
    TiebreakValue,
    bye_result,
    name_key,
    parse_order,
    points,
    rank,
)
from arbiter.notation.ast import Record
from arbiter.notation.games import find_game

Adjudicated = tuple[Record | None, Report]
"""A record and its report; the record is None when it could not be read."""

MAX_ROUND = 999
"""The highest round number a record may give (a bound on the size of every table)."""

_ROUND = re.compile(r"[0-9]+")


@dataclass(frozen=True, slots=True)
class LeftOutPlayer:
    """A player of a round robin the standings leave out (``spec/standings.md`` section 3):
    withdrawn from round ``withdrew_from`` on, having played ``played`` of their ``games``
    over the board, fewer than half."""

    player: str
    withdrew_from: int
    played: int
    games: int

    def to_dict(self) -> dict[str, Any]:
        """The JSON object of ``left_out``."""
        return {
            "player": self.player,
            "withdrew_from": self.withdrew_from,
            "played": self.played,
            "games": self.games,
        }

    @property
    def sentence(self) -> str:
        """Why the player is left out, as the table's warnings say it."""
        return (
            f"{self.player} withdrew from round {self.withdrew_from} having played "
            f"{self.played} of {self.games} games, fewer than half: no game of theirs counts "
            "in the standings, for them or for their opponents (FIDE's rule for a round robin)"
        )


@dataclass(frozen=True, slots=True)
class Exclusion:
    """A record that does not count, and why: ``reason`` is a stable code (see
    ``spec/standings.md`` section 3), ``message`` a sentence; ``error`` is the first error
    of an invalid record's report."""

    file: str | None
    index: int
    reason: str
    message: str
    error: tuple[tuple[str, object], ...] = ()

    def to_dict(self) -> dict[str, Any]:
        """The JSON object of ``excluded``."""
        out: dict[str, Any] = {
            "file": self.file,
            "index": self.index,
            "reason": self.reason,
            "message": self.message,
        }
        if self.error:
            out["error"] = dict(self.error)
        return out


@dataclass(frozen=True, slots=True)
class Standing:
    """One player's line: place, points, game counts, tie-break values (in the order they
    were applied) and the results by round (``results[0]`` is round 1; None where the player
    has no counted game); in a paired event, the round a player withdrew from (None: still
    in), which the standings mark (FIDE's checklist asks it)."""

    rank: int
    player: str
    points: float
    games: int
    played: int
    wins: int
    losses: int
    forfeit_wins: int
    forfeit_losses: int
    tiebreaks: tuple[tuple[str, TiebreakValue], ...]
    results: tuple[RoundResult | None, ...]
    withdrew_from: int | None = None

    def tiebreak(self, name: str) -> TiebreakValue:
        """The player's value of one tie-break; raises ``KeyError`` if it was not applied."""
        return dict(self.tiebreaks)[name]

    def to_dict(self) -> dict[str, Any]:
        """The JSON object of ``standings``."""
        return {
            "rank": self.rank,
            "player": self.player,
            "points": _number(self.points),
            "games": self.games,
            "played": self.played,
            "wins": self.wins,
            "losses": self.losses,
            "forfeit_wins": self.forfeit_wins,
            "forfeit_losses": self.forfeit_losses,
            "tiebreaks": {name: _number(value) for name, value in self.tiebreaks},
            **({} if self.withdrew_from is None else {"withdrew_from": self.withdrew_from}),
        }


@dataclass(frozen=True, slots=True)
class EventStandings:
    """The standings of one event in one game.

    ``event`` and ``game`` are None only for the table that holds records which belong to
    no event, when there is not exactly one event to list them with. ``rounds`` is the
    highest round with a counted game; ``tiebreak_order`` the tie-breaks applied, in order;
    ``standings`` best first; ``excluded`` the records that do not count, in input order;
    ``warnings`` sentences about things a director should look at; ``left_out`` the players
    of a round robin who withdrew having played fewer than half their games, not ranked."""

    event: str | None
    game: str | None
    rounds: int
    tiebreak_order: tuple[str, ...]
    standings: tuple[Standing, ...]
    excluded: tuple[Exclusion, ...]
    warnings: tuple[str, ...] = ()
    left_out: tuple[LeftOutPlayer, ...] = ()

    def rank_of(self, player: str) -> int:
        """The place of ``player``; raises ``KeyError`` for a name not in the table."""
        return next(s.rank for s in self.standings if s.player == player)

    def to_dict(self) -> dict[str, Any]:
        """The JSON object of ``spec/standings.md`` section 6."""
        ranks = {s.player: s.rank for s in self.standings}
        return {
            "event": self.event,
            "game": self.game,
            "rounds": self.rounds,
            "tiebreak_order": list(self.tiebreak_order),
            "standings": [s.to_dict() for s in self.standings],
            "crosstable": [_crosstable_row(s, ranks) for s in self.standings],
            "excluded": [e.to_dict() for e in self.excluded],
            "left_out": [one.to_dict() for one in self.left_out],
            "warnings": list(self.warnings),
        }


def standings(
    items: Iterable[Adjudicated], *, tiebreaks: str | Sequence[str] | None = None
) -> list[EventStandings]:
    """The standings of every event in ``items`` (records with their reports, in input
    order): one table per event and game, in the order the events first appear.

    ``tiebreaks`` is the tie-break order (``"buchholz,sb,wins,direct"`` or a sequence of
    names; None for the default of :data:`~arbiter.adjudicator.tiebreaks.DEFAULT_ORDER`).
    Every record either counts or is listed in ``excluded`` with its reason; records that
    belong to no event are listed with the only event, or in a table of their own
    (``event`` None) when there are none or several. Raises ``ValueError`` for an unknown
    tie-break name."""
    order = parse_order(tiebreaks)
    sorter = _Sorter()
    for position, (record, report) in enumerate(items):
        sorter.add(position, record, report)
    return sorter.tables(order)


@dataclass(frozen=True, slots=True)
class BoardResult:
    """A board of a paired round and how it ended (``spec/pairings.md``): the players by
    seat (``first`` moves first), the winner (None for a double forfeit), how the game
    ended (``rules``, ``resignation``, ``time``, ``forfeit``, ``arbiter``), the winner's
    margin where the game had scores, and the record it comes from, if any."""

    round: int
    first: str
    second: str
    winner: str | None
    termination: str
    margin: float | None = None
    file: str | None = None
    index: int = 0


@dataclass(frozen=True, slots=True)
class ByeRound:
    """A player's bye in a paired round: ``kind`` one of ``pairing``, ``full``, ``half``,
    ``zero``, worth ``points``."""

    round: int
    player: str
    kind: str
    points: float


def paired_standings(
    event: str,
    game: str,
    players: Iterable[str],
    boards: Iterable[BoardResult],
    byes: Iterable[ByeRound] = (),
    *,
    tiebreaks: str | Sequence[str] | None = None,
    excluded: Sequence[Exclusion] = (),
    left_out: Sequence[LeftOutPlayer] = (),
    withdrawn: Mapping[str, int] | None = None,
) -> EventStandings:
    """The standings of a paired event: its players, the boards that have a result, and
    the byes, rather than records grouped by their tags. Each player has at most one
    result a round (the event's pairing sees to it); a board's colours are the game's
    colours by seat. ``excluded`` lists the records that do not count, as the event says;
    ``left_out`` the players not ranked, whose boards and byes count for nobody;
    ``withdrawn`` the round each player who withdrew withdrew from, marked on their line.

    Raises ``ValueError`` for an unknown tie-break or bye kind, or a player given two
    results in one round."""
    order = parse_order(tiebreaks)
    colours = find_game(game).colours
    gone = {one.player for one in left_out}
    results: dict[str, dict[int, RoundResult]] = {p: {} for p in players if p not in gone}

    def put(player: str, result: RoundResult) -> None:
        own = results.setdefault(player, {})
        if result.round in own:
            raise ValueError(f"{player} has two results in round {result.round}")
        own[result.round] = result

    for board in boards:
        margin = board.margin
        seats = (board.first, board.second)
        if gone.intersection(seats):
            continue
        for side in (0, 1):
            won = board.winner == seats[side]
            put(seats[side], RoundResult(
                round=board.round,
                opponent=seats[1 - side],
                colour=colours[side],
                first=side == 0,
                won=won,
                termination=board.termination,
                margin=None if margin is None else (margin if won else -margin),
                file=board.file,
                index=board.index,
            ))  # fmt: skip
    for bye in byes:
        if bye.player not in gone:
            put(bye.player, bye_result(bye.round, bye.kind, bye.points))
    rounds = max((n for own in results.values() for n in own), default=0)
    table = _ranked(event, game, results, rounds, order, tuple(excluded))
    if withdrawn:
        marked = tuple(
            replace(line, withdrew_from=withdrawn.get(line.player)) for line in table.standings
        )
        table = replace(table, standings=marked)
    if not left_out:
        return table
    said = tuple(one.sentence for one in left_out)
    return replace(table, warnings=said + table.warnings, left_out=tuple(left_out))


def standings_document(tables: Sequence[EventStandings]) -> dict[str, Any] | list[dict[str, Any]]:
    """The JSON of ``arbiter standings --json`` and ``POST /api/v1/standings``: one object
    for one table, an array for any other number."""
    if len(tables) == 1:
        return tables[0].to_dict()
    return [table.to_dict() for table in tables]


@dataclass(frozen=True, slots=True)
class _Game:
    """A counted game: the players by their colours at the start, and the winner."""

    round: int
    colours: tuple[str, str]
    players: tuple[str, str]
    winner: str
    termination: str
    margin: float | None
    file: str | None
    index: int

    def result_for(self, side: int) -> RoundResult:
        player = self.players[side]
        won = player == self.winner
        margin = None if self.margin is None else (self.margin if won else -self.margin)
        return RoundResult(
            round=self.round,
            opponent=self.players[1 - side],
            colour=self.colours[side],
            first=side == 0,
            won=won,
            termination=self.termination,
            margin=margin,
            file=self.file,
            index=self.index,
        )

    def where(self) -> str:
        return f"{self.file or 'the request body'} record {self.index + 1}"


@dataclass
class _Group:
    """What one event and game has collected so far (mutable while records arrive)."""

    event: str | None
    game: str | None
    games: list[_Game] = field(default_factory=list)
    entrants: set[str] = field(default_factory=set)
    excluded: list[tuple[int, Exclusion]] = field(default_factory=list)
    pairings: dict[tuple[int, frozenset[str]], _Game] = field(default_factory=dict)
    busy: dict[tuple[int, str], _Game] = field(default_factory=dict)

    def count(self, position: int, game: _Game) -> None:
        """Count ``game``, unless its pairing or one of its players already has a game in
        its round: then the later record is excluded and the first one stands."""
        first = self.pairings.get((game.round, frozenset(game.players)))
        if first is not None:
            self.excluded.append((position, _duplicate(game, first)))
            return
        for player in game.players:
            other = self.busy.get((game.round, player))
            if other is not None:
                message = (
                    f"{player} already has a counted game in round {game.round} ({other.where()})"
                )
                exclusion = Exclusion(game.file, game.index, "second-game-in-round", message)
                self.excluded.append((position, exclusion))
                return
        self.pairings[(game.round, frozenset(game.players))] = game
        for player in game.players:
            self.busy[(game.round, player)] = game
        self.games.append(game)


class _Sorter:
    """Sends each record to its event's group, counted or excluded."""

    def __init__(self) -> None:
        self.groups: dict[tuple[str, str], _Group] = {}
        self.loose: list[tuple[int, Exclusion]] = []

    def add(self, position: int, record: Record | None, report: Report) -> None:
        group = self._group(record)
        if group is not None and record is not None:
            group.entrants.update(_names(record))
        problem = _problem(record, report)
        if problem is not None:
            target = group.excluded if group is not None else self.loose
            target.append((position, problem))
            return
        assert group is not None and record is not None  # _problem checked both
        group.count(position, _counted(record, report))

    def tables(self, order: tuple[str, ...]) -> list[EventStandings]:
        groups = list(self.groups.values())
        if self.loose and len(groups) == 1:
            groups[0].excluded.extend(self.loose)
        elif self.loose:
            groups.append(_Group(None, None, excluded=self.loose))
        return [_table(group, order) for group in groups]

    def _group(self, record: Record | None) -> _Group | None:
        event = _tag(record, "Event")
        if record is None or not event:
            return None
        key = (event, record.game)
        if key not in self.groups:
            self.groups[key] = _Group(event, record.game)
        return self.groups[key]


def _problem(record: Record | None, report: Report) -> Exclusion | None:
    """Why a record cannot count on its own (before it meets the others), if it cannot."""
    if record is None or not report.valid:
        return _invalid(report)

    def exclude(reason: str, message: str) -> Exclusion:
        return Exclusion(report.file, report.index, reason, message)

    if not _tag(record, "Event"):
        return exclude("no-event", "the record has no Event tag")
    colours = find_game(record.game).colours
    names = [_name(record.player(colour)) for colour in colours]
    if not all(names):
        return exclude(
            "no-players", f"the record does not name both players ({' and '.join(colours)} tags)"
        )
    if names[0] == names[1]:
        return exclude("same-player", f"{names[0]} is named for both colours")
    round_text = _tag(record, "Round")
    if not round_text:
        return exclude("no-round", "the record has no Round tag")
    if _round(round_text) is None:
        return exclude(
            "bad-round",
            f"Round {round_text!r} is not a round number (a whole number from 1 to {MAX_ROUND})",
        )
    if report.result == "*":
        return exclude("unfinished", "the game is not finished and the record gives no result (*)")
    if _name(report.winner_player) not in names:  # a report made for another record
        return exclude("invalid", "the report names no player of this record as the winner")
    return None


def _invalid(report: Report) -> Exclusion:
    error = report.errors[0] if report.errors else {}
    ply = f" at ply {error['ply']}" if "ply" in error else ""
    message = f"{error.get('code', 'invalid')}{ply}: {error.get('message', 'no reason given')}"
    return Exclusion(report.file, report.index, "invalid", message, tuple(error.items()))


def _duplicate(game: _Game, first: _Game) -> Exclusion:
    a, b = sorted(game.players, key=name_key)
    message = f"{a} and {b} already have a counted game in round {game.round} ({first.where()})"
    if first.winner != game.winner:
        message += ", which gives the other winner"
    return Exclusion(game.file, game.index, "duplicate-pairing", message)


def _counted(record: Record, report: Report) -> _Game:
    """The counted game of a record that passed :func:`_problem`."""
    colours = find_game(record.game).colours
    players = (_name(record.player(colours[0])), _name(record.player(colours[1])))
    winner = _name(report.winner_player)
    round_number = _round(_tag(record, "Round"))
    assert round_number is not None and winner in players  # _problem checked both
    return _Game(
        round=round_number,
        colours=colours,
        players=players,
        winner=winner,
        termination=report.termination or "rules",
        margin=_margin(report, colours),
        file=report.file,
        index=report.index,
    )


def _margin(report: Report, colours: tuple[str, str]) -> float | None:
    """The winner's score minus the loser's (colours as at the end), where there are scores."""
    if report.scores is None or report.winner is None:
        return None
    loser = colours[1] if report.winner == colours[0] else colours[0]
    return report.scores[report.winner] - report.scores[loser]


def _table(group: _Group, order: tuple[str, ...]) -> EventStandings:
    """Rank the counted games of one group."""
    rounds = max((game.round for game in group.games), default=0)
    results: dict[str, dict[int, RoundResult]] = {player: {} for player in group.entrants}
    for game in group.games:
        for side in (0, 1):
            results[game.players[side]][game.round] = game.result_for(side)
    excluded = tuple(exclusion for _, exclusion in sorted(group.excluded, key=lambda e: e[0]))
    return _ranked(group.event, group.game, results, rounds, order, excluded)


def _ranked(
    event: str | None,
    game: str | None,
    results: dict[str, dict[int, RoundResult]],
    rounds: int,
    order: tuple[str, ...],
    excluded: tuple[Exclusion, ...],
) -> EventStandings:
    """The table of ``results``: players ranked by points and the tie-breaks of ``order``
    that apply to the game (none for the records of no event)."""
    applied = tuple(name for name in order if name != MARGIN or _scored(game))
    if event is None:
        applied = ()  # the records of no event: nobody to rank
    ranking = rank(results, rounds, applied)
    lines: list[Standing] = []
    for place in ranking.places:
        first = len(lines) + 1  # players who share a place share its first rank: 1, 2, 2, 4
        for player in place:
            ties = tuple((name, ranking.values[player][name]) for name in applied)
            lines.append(_standing(first, player, results[player], ties, rounds))
    return EventStandings(
        event, game, rounds, applied, tuple(lines), excluded, _warnings(results, rounds)
    )


def _standing(
    place: int,
    player: str,
    own: dict[int, RoundResult],
    ties: tuple[tuple[str, TiebreakValue], ...],
    rounds: int,
) -> Standing:
    played = [r for r in own.values() if r.played]
    forfeits = [r for r in own.values() if r.forfeit]
    return Standing(
        rank=place,
        player=player,
        points=points(own),
        games=sum(1 for r in own.values() if r.bye is None),
        played=len(played),
        wins=sum(r.won for r in played),
        losses=sum(not r.won for r in played),
        forfeit_wins=sum(r.won for r in forfeits),
        forfeit_losses=sum(not r.won for r in forfeits),
        tiebreaks=ties,
        results=tuple(own.get(number) for number in range(1, rounds + 1)),
    )


def _warnings(results: dict[str, dict[int, RoundResult]], rounds: int) -> tuple[str, ...]:
    """Names that differ only in letter case or spacing, and rounds without a counted game."""
    out: list[str] = []
    by_key: dict[str, list[str]] = {}
    for player in sorted(results, key=name_key):
        by_key.setdefault(player.casefold(), []).append(player)
    for names in by_key.values():
        if len(names) > 1:
            listed = ", ".join(repr(name) for name in names)
            out.append(
                f"the names {listed} differ only in letter case; they are different players here"
            )
    played = {number for own in results.values() for number in own}
    out.extend(f"no game counts in round {n}" for n in range(1, rounds + 1) if n not in played)
    return tuple(out)


def _crosstable_row(line: Standing, ranks: dict[str, int]) -> dict[str, Any]:
    return {
        "rank": line.rank,
        "player": line.player,
        "results": [None if r is None else _cell(r, ranks) for r in line.results],
    }


def _cell(result: RoundResult, ranks: dict[str, int]) -> dict[str, Any]:
    if result.bye is not None:
        return {
            "round": result.round,
            "bye": result.bye,
            "points": _number(result.bye_points),
            "result": result.symbol,
        }
    return {
        "round": result.round,
        "opponent": result.opponent,
        "opponent_rank": ranks[result.opponent],
        "colour": result.colour,
        "first": result.first,
        "result": result.symbol,
        "termination": result.termination,
        "margin": _number(result.margin),
        "file": result.file,
        "index": result.index,
    }


def _tag(record: Record | None, name: str) -> str:
    """A tag's value with runs of white space made one space and the ends trimmed; empty
    when absent."""
    if record is None:
        return ""
    return next((_name(tag.value) for tag in record.tags if tag.name == name), "")


def _name(value: str | None) -> str:
    """A player's name as compared: runs of white space made one space, ends trimmed."""
    return " ".join((value or "").split())


def _names(record: Record) -> list[str]:
    return [name for name in (_name(value) for _, value in record.players) if name]


def _round(text: str) -> int | None:
    """The round number a Round tag gives, or None if it gives none in 1..MAX_ROUND."""
    digits = text.lstrip("0")
    if not _ROUND.fullmatch(text) or len(digits) > len(str(MAX_ROUND)):
        return None  # checked before int(): a text of thousands of digits is refused
    number = int(text)
    return number if 1 <= number <= MAX_ROUND else None


def _scored(game: str | None) -> bool:
    return game is not None and find_game(game).scored


def _number(value: TiebreakValue) -> TiebreakValue:
    """Whole numbers as integers, so that JSON shows ``4`` rather than ``4.0``."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value
