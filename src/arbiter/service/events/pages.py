"""What the events' pages read beside the API's reads (``spec/events.md`` §10): each record
with what it counts for in words, a round's page, a player's page, a game's page, and one
record's text as it was uploaded.

The pages name games as people do: by round and board in a paired event, by round and
record number otherwise; and players by a number of their own: the pairing number in a
paired event, and otherwise the order in which they first appear in the records kept (by
record number, the game's first colour first), which never changes as records arrive,
since records are never taken away. Everything here is computed from the reads of
:mod:`.reading` and :mod:`.rounds`; nothing is written.
"""

from __future__ import annotations

import io
import re
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from arbiter.adjudicator.replay import Report
from arbiter.adjudicator.standings import EventStandings, standings
from arbiter.notation.games import find_game
from arbiter.notation.repair import notation_of, source_bytes, source_text
from arbiter.notation.sources import Notation, split_source
from arbiter.service.events import storage
from arbiter.service.events.actions import REASONS_SHOWN
from arbiter.service.events.common import EXCLUDED, PENDING, EventError
from arbiter.service.events.counted import counted_items, official_report
from arbiter.service.events.kinds import kind_of
from arbiter.service.events.paired.players import list_players
from arbiter.service.events.paired.rounds import round_view, rounds_view
from arbiter.service.events.reading import (
    entries,
    event_row,
    event_standings,
    event_summary,
    list_records,
    record,
)
from arbiter.service.events.rows import EventRow, RecordRow
from arbiter.service.events.rules import placement_words
from arbiter.service.events.store import Store
from arbiter.service.events.views import EventSummary, RecordView

__all__ = [
    "COUNTS",
    "OUT",
    "WAITS",
    "Counting",
    "GameLine",
    "GamePage",
    "PlayerPage",
    "PlayerRound",
    "RecordText",
    "RoundPage",
    "board_game",
    "counting",
    "error_words",
    "event_games",
    "find_players",
    "player_names",
    "player_page",
    "record_game",
    "record_text",
    "round_page",
    "round_progress",
]

COUNTS, WAITS, OUT = "counts", "waits", "out"
"""Whether a record counts, in one word (the pages' filters and badges)."""


@dataclass(frozen=True, slots=True)
class Counting:
    """Whether a record counts (``state``: :data:`COUNTS`, :data:`WAITS`, :data:`OUT`) and
    why, in words a player reads: ``counts``, ``waits for the director's confirmation``,
    ``does not count: illegal-move at ply 31: ...``."""

    state: str
    words: str


@dataclass(frozen=True, slots=True)
class GameLine:
    """One game as the pages list it: its round and board (a paired event's), the record
    it comes from (none for a board without one), its players by seat (the game's first
    colour first) with their numbers on the pages, the result that counts, whether the
    director set it, whether it counts, and the address of its own page (under the
    event's)."""

    round: int | None
    board: int | None
    record: RecordView | None
    first: str
    second: str
    first_number: int | None
    second_number: int | None
    result: str | None
    official: bool
    counting: Counting
    path: str
    winner: str | None = None
    """Who won, by name, as the result that counts says (None while it waits, for a double
    forfeit, or a record that does not count)."""
    shown: str | None = None
    """The result as its record writes it (``Orange+17``, the colours at the end of the
    moves), or as the director gave the board (``1-0``, ``+-``)."""
    given: bool = False
    """Whether the result is the one the director gave the board (a paired event's)."""
    first_points: float | None = None
    second_points: float | None = None
    first_rating: int | None = None
    second_rating: int | None = None
    """A paired board's players' points before the round, and ratings."""

    @property
    def result_words(self) -> str:
        """Who won, in words, with the result: ``Ana Ruiz won, Orange+17``, ``Bo Chen won
        by forfeit (-+)``, ``both lost by forfeit (--)``; empty while it waits."""
        said = self.shown or self.result
        if said is None or self.counting.state != COUNTS:
            return ""
        if self.result == "--":
            return "both lost by forfeit (--)"
        if self.winner is None:
            return said
        forfeit = self.result in ("+-", "-+") or said.endswith("+F")
        return f"{self.winner} won{' by forfeit' if forfeit else ''}, {said}"

    @property
    def title(self) -> str:
        """``Round 3 · Board 2 · A v B`` (``Round 3 · Record 12 · A v B`` without boards)."""
        parts = [f"Round {self.round}"] if self.round is not None else []
        if self.board is not None:
            parts.append(f"Board {self.board}")
        elif self.record is not None:
            parts.append(f"Record {self.record.record}")
        parts.append(f"{self.first} v {self.second}")
        return " · ".join(parts)

    @property
    def verdict(self) -> str:
        """The adjudicator's verdict on the record: its result and validity, or its first
        error; empty for a board without a record."""
        if self.record is None:
            return ""
        if self.record.valid:
            return f"{self.record.adjudicated_result}, valid"
        return error_words(self.record.report)

    @property
    def hints(self) -> list[Mapping[str, Any]]:
        """The repair suggestions of the record's first error, best first (at most three,
        as ``arbiter validate`` says them)."""
        from arbiter.service.core.suggestions import MOST, suggestions_of

        if self.record is None or self.record.valid or not self.record.report.get("errors"):
            return []
        return list(suggestions_of(self.record.report["errors"][0])[:MOST])


def error_words(report: Mapping[str, Any]) -> str:
    """A report's first error in one line: ``illegal-move at ply 31: ...``."""
    errors = report.get("errors") or []
    if not errors:
        return "invalid"
    error = errors[0]
    where = f" at ply {error['ply']}" if error.get("ply") else ""
    if not where and error.get("line"):
        where = f" (line {error['line']}, column {error.get('column', '?')})"
    return f"{error.get('code', 'invalid')}{where}: {error.get('message', '')}"


# --- whether each record counts --------------------------------------------------------------


def counting(
    view: RecordView, reasons: Mapping[int, str | None], left_out: Mapping[int, str]
) -> Counting:
    """Whether ``view`` counts and why: ``reasons`` are the director's reasons by record
    (an exclusion's), ``left_out`` what the standings say of the records they leave out."""
    if view.status == PENDING:
        return Counting(WAITS, "waits for the director's confirmation")
    if view.status == EXCLUDED:
        why = reasons.get(view.record)
        said = f": {why}" if why else ""
        return Counting(OUT, f"does not count: excluded by the director{said}")
    if view.board is not None:
        board_round, board, placement = view.board
        if placement is not None:
            return Counting(OUT, f"does not count: {placement_words(placement, view.report)}")
        if not view.valid and not view.official_result:
            words = error_words(view.report)
            return Counting(OUT, f"does not count: {words}; board {board} waits for its result")
        if view.result in (None, "*"):
            return Counting(WAITS, f"stands on board {board} but gives no finished result")
        return Counting(COUNTS, f"counts on board {board} of round {board_round}")
    if view.record in left_out:
        return Counting(OUT, f"does not count: {left_out[view.record]}")
    return Counting(COUNTS, "counts with the official result" if view.official_result else "counts")


_MARK = re.compile(r"@(\d+)@ record 1")


def left_out(rows: list[RecordRow], event: EventRow) -> dict[int, str]:
    """What the standings say of each record that counts but that they leave out (no
    Event tag, invalid, a second game of a player in a round...), by record number: each
    record is given to the standings under a mark of its number, so that two records of
    files of the same name are told apart."""
    items = []
    for row, (header, report) in zip(rows, counted_items(rows, event), strict=True):
        marked = Report(**{**report.to_dict(), "file": f"@{row.number}@", "index": 0})
        items.append((header, marked))
    found: dict[int, str] = {}
    for table in standings(items):
        for one in table.excluded:
            number = int((one.file or "@0@").strip("@"))
            found[number] = _MARK.sub(lambda m: f"record {m.group(1)}", one.message)
    return found


def _reasons(store: Store, event_id: str) -> dict[int, str | None]:
    """The director's reason for what was last done to each record, where the pages show
    it (an exclusion, an official result)."""
    return {
        entry.details["record"]: entry.reason
        for entry in entries(store, event_id)
        if entry.action in REASONS_SHOWN
    }


# --- players -------------------------------------------------------------------------------


def player_names(kept: Iterable[RecordView], colours: Sequence[str]) -> list[str]:
    """The players of an event without pairings, numbered from 1 in the order they first
    appear in ``kept`` (by record number, the first colour first)."""
    names: dict[str, None] = {}
    for view in sorted(kept, key=lambda one: one.record):
        for colour in colours:
            name = view.players.get(colour)
            if name:
                names.setdefault(name, None)
    return list(names)


def _folded(text: str) -> str:
    """``text`` as a search compares it: no accents, no case, runs of spaces one space."""
    plain = unicodedata.normalize("NFKD", text)
    return " ".join("".join(c for c in plain if not unicodedata.combining(c)).casefold().split())


def find_players(store: Store, event_id: str, text: str) -> list[tuple[int, str]]:
    """The players whose name holds ``text`` (whatever its case, accents or spacing), by
    number: a name given whole first."""
    wanted = _folded(text)
    if not wanted:
        return []
    found = [(n, name) for n, name in _numbered(store, event_id) if wanted in _folded(name)]
    return sorted(found, key=lambda one: (_folded(one[1]) != wanted, one[0]))


def _numbered(store: Store, event_id: str) -> list[tuple[int, str]]:
    """Every player of the event with their number."""
    summary = _summary(store, event_id)
    if summary.paired:
        return [(p.number, p.name) for p in list_players(store, event_id)]
    colours = find_game(summary.game).colours
    return list(enumerate(player_names(list_records(store, event_id), colours), 1))


def _summary(store: Store, event_id: str) -> EventSummary:
    return event_summary(store, event_id)


# --- games ---------------------------------------------------------------------------------


def record_game(
    view: RecordView,
    colours: Sequence[str],
    numbers: Mapping[str, int],
    count: Counting,
) -> GameLine:
    """A record as a game of the pages: its own page is ``records/N``."""
    named = view.players or view.report.get("players") or {}  # another game's: its report's
    first, second = (named.get(colour) or "?" for colour in colours[:2])
    if not view.players and named:  # a record of another game names its own colours
        first, second = (list(named.values()) + ["?", "?"])[:2]
    on_board = view.board is not None and view.board[2] is None and view.status != EXCLUDED
    board = view.board[1] if on_board and view.board is not None else None
    return GameLine(
        round=view.round,
        board=board,
        record=view,
        first=first,
        second=second,
        first_number=numbers.get(first),
        second_number=numbers.get(second),
        result=view.result,
        official=view.official_result is not None,
        counting=count,
        path=f"records/{view.record}",
        winner=_winner(view) if count.state == COUNTS else None,
        shown=view.result,
    )


def board_game(
    round_number: int, board: Any, view: RecordView | None, count: Counting | None
) -> GameLine:
    """A board of a paired round as a game of the pages (``board``: a
    :class:`~.rounds.BoardView`): its own page is ``rounds/R/boards/B``."""
    if (
        count is None
        or board.state in ("director", "disputed", "reported")
        or (board.state == "result" and _reported(board))
    ):
        count = _board_counting(board)
    winner = {"1-0": board.first, "+-": board.first, "0-1": board.second, "-+": board.second}
    from_record = view if board.state == "result" else None
    return GameLine(
        round=round_number,
        board=board.board,
        record=view,
        first=board.first,
        second=board.second,
        first_number=board.first_number,
        second_number=board.second_number,
        result=board.result,
        official=board.state == "director"
        or (from_record is not None and from_record.official_result is not None),
        counting=count,
        path=f"rounds/{round_number}/boards/{board.board}",
        winner=winner.get(board.result or ""),
        shown=from_record.result if from_record is not None else board.result,
        given=board.state == "director",
        first_points=board.first_points,
        second_points=board.second_points,
        first_rating=board.first_rating,
        second_rating=board.second_rating,
    )


def _reported(board: Any) -> bool:
    """Whether the board's result is the one both its players reported."""
    return board.result is not None and board.first_report == board.second_report == board.result


def _board_counting(board: Any) -> Counting:
    if board.state == "director":
        return Counting(COUNTS, "counts with the result the director gave the board")
    if board.state == "result" and _reported(board):
        return Counting(COUNTS, "counts with the result both players reported")
    if board.state == "disputed":
        return Counting(
            WAITS, "disputed: its players reported different results; the director decides"
        )
    if board.state == "reported":
        return Counting(WAITS, "one player reported its result; waits for the other's report")
    if board.result is not None:
        return Counting(COUNTS, "counts")
    return Counting(WAITS, "waits for its record")


@dataclass(frozen=True, slots=True)
class EventGames:
    """Every game of an event as its pages list them: the games of each round (a paired
    event's by board, with the records that stand on no board after them), those of no
    round, and every record with whether it counts."""

    summary: EventSummary
    colours: tuple[str, str]
    rounds: Mapping[int, tuple[GameLine, ...]]
    unplaced: tuple[GameLine, ...]
    records: tuple[GameLine, ...]
    numbers: Mapping[str, int]


def event_games(store: Store, event_id: str) -> EventGames:
    """Every game of the event, round by round, and every record with whether it counts."""
    summary = _summary(store, event_id)
    colours = find_game(summary.game).colours
    kept = list_records(store, event_id)
    reasons = _reasons(store, event_id)
    if not summary.paired:
        numbers = {name: n for n, name in enumerate(player_names(kept, colours), 1)}
        out = left_out(*_counted_rows(store, event_id))
    else:
        numbers = {p.name: p.number for p in list_players(store, event_id)}
        out = {}
    lines = [record_game(one, colours, numbers, counting(one, reasons, out)) for one in kept]
    by_number = {line.record.record: line for line in lines if line.record is not None}
    rounds: dict[int, list[GameLine]] = {}
    unplaced: list[GameLine] = []
    if not summary.paired:
        for line in lines:
            if line.round is None:
                unplaced.append(line)
            else:
                rounds.setdefault(line.round, []).append(line)
    else:
        for paired in rounds_view(store, event_id):
            rounds[paired.round] = [
                _on_board(paired.round, board, by_number) for board in paired.boards
            ]
        on_boards = {b.record.record for r in rounds.values() for b in r if b.record is not None}
        for line in lines:
            if line.record is not None and line.record.record not in on_boards:
                unplaced.append(line)
    return EventGames(
        summary,
        (colours[0], colours[1]),
        {n: tuple(rounds[n]) for n in sorted(rounds)},
        tuple(unplaced),
        tuple(lines),
        numbers,
    )


def round_progress(games: EventGames) -> str:
    """Where the event stands, for its page: ``round 2 of 5 in play`` (a round paired whose
    boards are not all in), ``round 2 of 5 finished``, ``all 5 rounds played``, ``no round
    paired yet``; for an event without pairings, the highest round of a counted game."""
    summary = games.summary
    planned = summary.rounds
    of = f" of {planned}" if planned else ""
    if not summary.paired:
        return f"round {summary.rounds_played}{of or ' of ?'}"
    if not games.rounds:
        return "no round paired yet"
    last = max(games.rounds)
    if any(line.result is None for line in games.rounds[last]):
        return f"round {last}{of} in play"
    if planned is not None and last >= planned:
        return f"all {planned} rounds played"
    return f"round {last}{of} finished"


def _on_board(round_number: int, board: Any, by_number: Mapping[int, GameLine]) -> GameLine:
    line = by_number.get(board.record) if board.record is not None else None
    view = line.record if line is not None else None
    return board_game(round_number, board, view, line.counting if line is not None else None)


def _counted_rows(store: Store, event_id: str) -> tuple[list[RecordRow], EventRow]:
    with storage.reading(store) as tx:
        row = event_row(tx, event_id)
        return storage.counted_records(tx, event_id), row


# --- a round -------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class RoundPage:
    """A round as its page shows it: its games (a paired round's boards, with their results
    as they arrive), the boards that wait, the byes, the records of the round that stand on
    no board, and the standings after the round."""

    summary: EventSummary
    round: int
    rounds: tuple[int, ...]
    games: tuple[GameLine, ...]
    byes: tuple[Any, ...]
    unplaced: tuple[GameLine, ...]
    tables: tuple[EventStandings, ...]
    paired_at: str | None
    manual: bool

    @property
    def waiting(self) -> list[int]:
        """The boards (paired) or records that wait for a result."""
        return [
            game.board if game.board is not None else game.record.record if game.record else 0
            for game in self.games
            if game.counting.state == WAITS
        ]


def round_page(store: Store, event_id: str, round_number: int) -> RoundPage:
    """Round ``round_number`` of the event: ``no-such-round`` when it has no game and is
    not paired."""
    games = event_games(store, event_id)
    found = games.rounds.get(round_number)
    byes: tuple[Any, ...] = ()
    paired_at, manual = None, False
    if games.summary.paired:
        if found is None:
            raise EventError("no-such-round", f"round {round_number} is not paired")
        paired = round_view(store, event_id, round_number)
        byes, paired_at, manual = paired.byes, paired.paired_at, paired.manual
        unplaced = tuple(line for line in games.unplaced if line.round == round_number)
    else:
        if found is None:
            raise EventError("no-such-round", f"no game of round {round_number} is kept")
        unplaced = ()
    return RoundPage(
        summary=games.summary,
        round=round_number,
        rounds=tuple(games.rounds),
        games=found,
        byes=byes,
        unplaced=unplaced,
        tables=tuple(_tables_after(store, event_id, games.summary, round_number)),
        paired_at=paired_at,
        manual=manual,
    )


def _tables_after(
    store: Store, event_id: str, summary: EventSummary, round_number: int
) -> list[EventStandings]:
    """The standings after ``round_number``: the games of the rounds after it left out."""
    with storage.reading(store) as tx:
        row = event_row(tx, event_id)
        return kind_of(row).tables(tx, row, upto=round_number)


# --- a player ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PlayerRound:
    """One round of a player: the game (or none: a bye, an absence), the seat held, the
    opponent, and what came of it in words (``won``, ``lost``, ``waits``, a bye)."""

    round: int | None
    game: GameLine | None
    seat: str
    opponent: str | None
    opponent_number: int | None
    outcome: str


@dataclass(frozen=True, slots=True)
class PlayerPage:
    """A player's page: their games round by round, their points and place, or why a round
    robin's standings leave them out (``left_out``: the table's sentence)."""

    summary: EventSummary
    number: int
    name: str
    rank: int | None
    points: float | None
    rounds: tuple[PlayerRound, ...]
    left_out: str | None = None


def player_page(store: Store, event_id: str, number: int) -> PlayerPage:
    """Player ``number`` of the event (``no-such-player`` when there is none)."""
    games = event_games(store, event_id)
    named = {n: name for name, n in games.numbers.items()}
    if number not in named:
        raise EventError("no-such-player", f"the event has no player {number}")
    name = named[number]
    summary, tables = event_standings(store, event_id)
    line = next((s for t in tables for s in t.standings if s.player == name), None)
    gone = next((one for t in tables for one in t.left_out if one.player == name), None)
    if games.summary.paired:
        played = _paired_rounds(store, event_id, games, number)
    else:
        played = [_round_of(game, name, games.colours) for game in _games_of(games.records, name)]
    return PlayerPage(
        summary=summary,
        number=number,
        name=name,
        rank=line.rank if line else None,
        points=line.points if line else None,
        rounds=tuple(played),
        left_out=gone.sentence if gone else None,
    )


def _games_of(lines: Iterable[GameLine], name: str) -> list[GameLine]:
    """The games ``name`` played, by round (those without a round last), then by record."""
    mine = [line for line in lines if name in (line.first, line.second)]
    return sorted(mine, key=lambda g: (g.round is None, g.round or 0, g.path))


def _round_of(game: GameLine, name: str, colours: Sequence[str]) -> PlayerRound:
    """What ``name`` did in ``game`` (a game of an event without pairings)."""
    first = game.first == name
    opponent = game.second if first else game.first
    number = game.second_number if first else game.first_number
    if game.counting.state != COUNTS:
        outcome = game.counting.words
    else:
        winner = _winner(game.record) if game.record is not None else None
        outcome = "won" if winner == name else "lost" if winner else "no winner"
    return PlayerRound(game.round, game, colours[0 if first else 1], opponent, number, outcome)


def _winner(view: RecordView) -> str | None:
    """The name of the player who won the record's game, as it counts."""
    report = view.report
    if view.official_result:
        header = {"game": report.get("game"), "players": view.players}
        made = official_report(report, header, view.official_result)
        return made.winner_player
    found = report.get("winner_player")
    return found if isinstance(found, str) else None


def _paired_rounds(
    store: Store, event_id: str, games: EventGames, number: int
) -> list[PlayerRound]:
    """Each paired round of player ``number``: the board and its result, or the bye."""
    out = []
    for paired in rounds_view(store, event_id):
        board = next(
            (g for g in games.rounds[paired.round] if number in (g.first_number, g.second_number)),
            None,
        )
        if board is not None:
            first = board.first_number == number
            opponent = board.second if first else board.first
            other = board.second_number if first else board.first_number
            seat = games.colours[0 if first else 1]
            out.append(
                PlayerRound(paired.round, board, seat, opponent, other, _seat_outcome(board, first))
            )
            continue
        bye = next((b for b in paired.byes if b.number == number), None)
        if bye is not None:
            out.append(PlayerRound(paired.round, None, "", None, None, _bye_words(bye)))
    return out


def _seat_outcome(board: GameLine, first: bool) -> str:
    """A board's result from one seat: ``won``, ``lost``, ``won by forfeit``..."""
    result = board.result
    if result is None:
        return "waits for its result"
    if result == "--":
        return "lost by forfeit (both absent)"
    won = result in ("1-0", "+-") if first else result in ("0-1", "-+")
    forfeit = result in ("+-", "-+")
    return ("won" if won else "lost") + (" by forfeit" if forfeit else "")


def _bye_words(bye: Any) -> str:
    points = int(bye.points) if float(bye.points).is_integer() else bye.points
    if bye.kind == "absent":
        return "absent (not paired)"
    if bye.kind == "not-checked-in":
        return "not checked in (not paired)"
    kind = "pairing-allocated bye" if bye.kind == "pairing" else "bye asked for"
    return f"{kind}, {points} point{'s' if points != 1 else ''}"


# --- a game --------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class GamePage:
    """A game's own page: the game, the event it belongs to, and the director's reason for
    its official result or exclusion, if any."""

    summary: EventSummary
    game: GameLine
    reason: str | None


def _game_page(store: Store, event_id: str, pick: Any) -> GamePage:
    games = event_games(store, event_id)
    found = pick(games)
    if found is None:
        raise EventError("no-such-record", "the event has no such game")
    view = found.record
    if found.given and found.round is not None and found.board is not None:
        reason = _board_reasons(store, event_id).get((found.round, found.board))
    else:
        reason = _reasons(store, event_id).get(view.record) if view is not None else None
    return GamePage(games.summary, found, reason)


def _board_reasons(store: Store, event_id: str) -> dict[tuple[int, int], str | None]:
    """The director's reason for the result each board has from them, by round and board."""
    found: dict[tuple[int, int], str | None] = {}
    for entry in entries(store, event_id):
        if entry.action in ("board-result-set", "board-result-cleared"):
            key = (entry.details["round"], entry.details["board"])
            if entry.action == "board-result-set":
                found[key] = entry.reason
            else:
                found.pop(key, None)
    return found


def game_of_record(store: Store, event_id: str, number: int) -> GamePage:
    """The page of record ``number`` (``no-such-record`` when there is none)."""
    record(store, event_id, number)  # no-such-record, with the API's message
    return _game_page(
        store,
        event_id,
        lambda games: (
            _on_its_board(games, number)
            or next((g for g in games.records if g.record and g.record.record == number), None)
        ),
    )


def _on_its_board(games: EventGames, number: int) -> GameLine | None:
    """The board a record counts on, as a game (a paired event's), if any."""
    for lines in games.rounds.values():
        for line in lines:
            if line.board is not None and line.record and line.record.record == number:
                return line
    return None


def game_on_board(store: Store, event_id: str, round_number: int, board: int) -> GamePage:
    """The page of a board of a paired round (``no-such-board`` when there is none)."""

    def pick(games: EventGames) -> GameLine | None:
        lines = games.rounds.get(round_number, ())
        return next((g for g in lines if g.board == board), None)

    try:
        return _game_page(store, event_id, pick)
    except EventError:
        raise EventError("no-such-board", f"round {round_number} has no board {board}") from None


# --- one record's text ---------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class RecordText:
    """One record's text cut from its upload, as uploaded: its bytes, and the notation and
    file name to read them by."""

    file_name: str | None
    format: Notation | None
    data: bytes


def record_text(store: Store, event_id: str, number: int) -> RecordText:
    """The text of record ``number`` alone, cut from its upload (the viewer fetches it in
    place of the whole upload)."""
    view = record(store, event_id, number)
    with storage.reading(store) as tx:
        row = storage.record_row(tx, event_id, number)
        source = storage.upload_source(tx, event_id, view.upload_sha256)
    assert row is not None and source is not None  # found above
    data = cut(source.data, source, row.position)
    fmt = source.format or notation_of(source.file_name, source_text(data[:64]))
    return RecordText(source.file_name, fmt, data)


def cut(data: bytes, source: Any, position: int) -> bytes:
    """The bytes of record ``position`` (from 0) of an upload's ``data``."""
    units = split_source(io.BytesIO(data), file=source.file_name, fmt=source.format)
    for at, unit in enumerate(units):
        if at == position:
            text = getattr(unit, "text", None)
            if isinstance(text, str):
                return source_bytes(text)
            found = getattr(unit, "data", b"")
            return found if isinstance(found, bytes) else b""
    return b""
