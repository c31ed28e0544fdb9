"""A paired event as its tables hold it (``spec/pairings.md``): the players, each round's
pairing, the boards' results, the records placed and the players' reports, read in one go
(:func:`read_paired`) as the facts of the audit trail's actions; what each board's outcome
is; and the event as the pairing library (:mod:`arbiter.pairing`) reads it.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace

from arbiter.adjudicator.replay import Report
from arbiter.notation.games import find_game
from arbiter.pairing import (
    ROUND_ROBIN_SYSTEMS,
    Acceleration,
    Bye,
    Game,
    Limits,
    Pairing,
    PairingError,
    Player,
    Prohibition,
    Tournament,
    pair,
)
from arbiter.pairing.generate import baku
from arbiter.pairing.values import requested_points
from arbiter.service.events import rules, storage
from arbiter.service.events.actions import (
    REVERSED,
    Board,
    ByeGiven,
    PairingFacts,
    PlayerFacts,
    ProhibitionFacts,
    State,
)
from arbiter.service.events.common import (
    ACCEPTED,
    BAKU,
    EXCLUDED,
    EventError,
)
from arbiter.service.events.counted import official_report
from arbiter.service.events.paired import rules as paired_rules
from arbiter.service.events.paired.boards import pairing_facts, prohibition_facts, seats_of
from arbiter.service.events.rows import (
    EventRow,
    PairingRow,
    PlayerRow,
    RecordRow,
)
from arbiter.service.events.storage import Tx

# --- what the tables hold, as the trail's facts ---------------------------------------------


@dataclass(frozen=True, slots=True)
class Paired:
    """What a paired event holds of its pairings, read in one transaction: its players (by
    id), its paired rounds, the byes asked for, the director's board results, and the
    records that stand on a board."""

    event: EventRow
    players: Mapping[int, PlayerFacts]
    pairings: Mapping[int, PairingFacts]
    requests: Mapping[tuple[int, int], str]
    results: Mapping[tuple[int, int], str]
    placed: tuple[RecordRow, ...]
    checkins: Mapping[tuple[int, int], str] = field(default_factory=dict)
    reports: Mapping[tuple[int, int, int], str] = field(default_factory=dict)
    prohibitions: Mapping[int, ProhibitionFacts] = field(default_factory=dict)
    """The prohibitions by number, those taken back included: read only when asked
    (:func:`read_paired` with ``prohibitions``), by what pairs a round, writes the TRF or
    changes them; the pages need none."""
    seat_reports: Mapping[tuple[int, int], tuple[str | None, str | None]] = field(
        init=False, default_factory=dict
    )
    """The reports by round and board, the first seat's first: made once from ``reports``,
    so that reading a board's costs no pass over the players."""
    gone: Mapping[int, int] = field(init=False, default_factory=dict)
    """In a round robin, the round each withdrawn player withdrew from, by number: the
    table keeps their boards, each a forfeit they lose (:func:`outcome`). Empty in a Swiss,
    which pairs them no more."""

    def __post_init__(self) -> None:
        seated: dict[tuple[int, int], tuple[str | None, str | None]] = {}
        for (round_number, board, player), result in self.reports.items():
            facts, paired = self.players.get(player), self.pairings.get(round_number)
            if facts is None or paired is None or not 1 <= board <= len(paired.boards):
                continue
            first, second = seated.get((round_number, board), (None, None))
            if paired.boards[board - 1][0] == facts.number:
                first = result
            elif paired.boards[board - 1][1] == facts.number:
                second = result
            seated[(round_number, board)] = (first, second)
        object.__setattr__(self, "seat_reports", seated)  # derived, once
        if self.event.pairing in ROUND_ROBIN_SYSTEMS:
            gone = {
                facts.number: facts.withdrawn_from
                for facts in self.players.values()
                if facts.withdrawn_from is not None
            }
            object.__setattr__(self, "gone", gone)

    @property
    def state(self) -> State:
        return State(
            players=self.players,
            pairings=self.pairings,
            requests=self.requests,
            results=self.results,
            checkins=self.checkins,
            reports=self.reports,
            prohibitions=self.prohibitions,
        )

    @property
    def rounds_paired(self) -> int:
        """The last round paired, a draft included (0 before round 1)."""
        return max(self.pairings, default=0)

    @property
    def rounds_published(self) -> int:
        """The last round everyone sees (a draft is the director's only)."""
        return max((r for r, f in self.pairings.items() if not f.draft), default=0)

    def draft(self) -> int | None:
        """The round paired as a draft, if any (only the last round paired may be one)."""
        last = self.rounds_paired
        return last if last and self.pairings[last].draft else None

    def public(self) -> Paired:
        """What everyone may read: the event without the round paired as a draft."""
        draft = self.draft()
        if draft is None:
            return self
        return replace(self, pairings={r: f for r, f in self.pairings.items() if r != draft})

    def reports_on(self, round_number: int, board: int) -> tuple[str | None, str | None]:
        """What the board's first and second players reported of its result."""
        return self.seat_reports.get((round_number, board), (None, None))

    def by_number(self) -> dict[int, tuple[int, PlayerFacts]]:
        """Each player's id and facts, by pairing number."""
        return {facts.number: (player, facts) for player, facts in self.players.items()}

    def id_of(self, number: int) -> int:
        found = self.by_number().get(number)
        if found is None:
            raise EventError("no-such-player", f"the event has no player {number}")
        return found[0]

    def on_board(self, round_number: int, board: int) -> RecordRow | None:
        """The record that stands on a board, if any (not excluded): the one that counts,
        else the first that waits for confirmation (a record that waits never takes a board
        from one that counts)."""
        standing = [
            row
            for row in self.placed
            if (row.board_round, row.board) == (round_number, board)
            and row.placement is None
            and row.status != EXCLUDED
        ]
        return next((row for row in standing if row.status == ACCEPTED), None) or next(
            iter(standing), None
        )


def read_paired(tx: Tx, event: EventRow, *, prohibitions: bool = False) -> Paired:
    """The paired event as its tables hold it, read once per read transaction; with
    ``prohibitions``, its prohibited pairs too (a Swiss event's: what pairs a round, the
    TRF and the changes of prohibitions need)."""
    found = storage.once(tx, ("paired", event.id), lambda: _read_paired(tx, event))
    if not prohibitions or not paired_rules.prohibits(event):
        return found
    return storage.once(
        tx,
        ("paired, prohibited", event.id),
        lambda: replace(
            found,
            prohibitions={
                row.number: prohibition_facts(row) for row in storage.prohibition_rows(tx, event.id)
            },
        ),
    )


def _read_paired(tx: Tx, event: EventRow) -> Paired:
    rows = storage.pairing_rows(tx, event.id)
    return Paired(
        event=event,
        players={row.id: PlayerFacts.of(row) for row in storage.player_rows(tx, event.id)},
        pairings={row.round: pairing_facts(row) for row in rows},
        requests={(r.round, r.player): r.kind for r in storage.request_rows(tx, event.id)},
        results={(r.round, r.board): r.result for r in storage.result_rows(tx, event.id)},
        placed=tuple(storage.placed_records(tx, event.id)),
        checkins={(r.round, r.player): r.at for r in storage.checkin_rows(tx, event.id)}
        if event.check_in
        else {},
        reports={(r.round, r.board, r.player): r.result for r in storage.report_rows(tx, event.id)},
    )


def player_row(event_id: str, player: int, facts: PlayerFacts) -> PlayerRow:
    return PlayerRow(
        event_id, player, facts.number, facts.name, facts.rating, facts.federation,
        facts.fide_id, facts.entered, facts.withdrawn_from, facts.created_at,
    )  # fmt: skip


def pairing_row(event_id: str, round_number: int, facts: PairingFacts) -> PairingRow:
    return PairingRow(event_id, round_number, facts.boards_text(), facts.byes_text(),
                      facts.manual, facts.paired_at, facts.draft)  # fmt: skip


# --- board results --------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a board ended, as the pairing and the standings read it: the result (the first
    seat's side first: ``1-0``, ``0-1``, ``+-``, ``-+``, ``--``), the winner's number (None
    for a double forfeit), how the game ended, the margin, and the record it comes from."""

    result: str
    winner: int | None
    termination: str
    margin: float | None
    record: RecordRow | None
    source: str = "record"
    """Whose result it is: ``record`` (the record counted on the board), ``director``,
    ``players`` (both players reported it) or ``withdrawal`` (a round robin's board of a
    player who withdrew)."""


def _without_record(result: str, first: int, second: int, source: str) -> Outcome:
    """A board's result given without a record, by the director or by both players."""
    winner = {"1-0": first, "+-": first, "0-1": second, "-+": second}.get(result)
    how = "forfeit" if result in ("+-", "-+", "--") else "arbiter" if source == "director" else (
        "reported"
    )  # fmt: skip
    return Outcome(result, winner, how, None, None, source)


def outcome(paired: Paired, round_number: int, board: int) -> Outcome | None:
    """The result of a board: the director's, else that of the record counted on it (its
    official result if the director set one), else the one both its players reported; None
    while it waits (no record, a record not confirmed, or one that gives no finished result,
    and no two reports that agree)."""
    first, second = paired.pairings[round_number].boards[board - 1]
    given = paired.results.get((round_number, board))
    if given is not None:
        return _without_record(given, first, second, "director")
    forfeit = withdrawal_forfeit(paired, round_number, first, second)
    if forfeit is not None:
        return _without_record(forfeit, first, second, "withdrawal")
    found = _record_outcome(paired, round_number, board, first, second)
    if found is not None:
        return found
    reported = paired.reports_on(round_number, board)
    if reported[0] is not None and reported[0] == reported[1]:
        return _without_record(reported[0], first, second, "players")
    return None


def withdrawal_forfeit(paired: Paired, round_number: int, first: int, second: int) -> str | None:
    """The result a round robin's board has when a seat withdrew by its round: a forfeit
    that seat loses (``--`` when both did), as FIDE's rules mark the unplayed games of a
    player who left; None for a board of two players still in (and in a Swiss)."""
    if not paired.gone:
        return None
    first_gone = paired.gone.get(first, round_number + 1) <= round_number
    second_gone = paired.gone.get(second, round_number + 1) <= round_number
    if first_gone and second_gone:
        return "--"
    return "-+" if first_gone else "+-" if second_gone else None


def _record_outcome(
    paired: Paired, round_number: int, board: int, first: int, second: int
) -> Outcome | None:
    """The result the record counted on a board gives it, if any."""
    row = paired.on_board(round_number, board)
    if row is None or row.status != ACCEPTED or row.header is None:
        return None
    report = _report(row)
    if not report.valid or report.result == "*" or report.winner is None:
        return None
    header = json.loads(row.header)
    colours = find_game(header["game"]).colours
    started_as = report.winner
    if report.swapped:  # the result's colours are those at the end of the moves played
        started_as = colours[1] if started_as == colours[0] else colours[0]
    if started_as not in colours[:2]:
        return None
    reversed_seats = seats_of(row, header, board_names(paired, first, second)) == REVERSED
    winner = (first, second)[(started_as == colours[1]) != reversed_seats]
    forfeit = report.termination == "forfeit"
    symbol = ("+-" if forfeit else "1-0") if winner == first else ("-+" if forfeit else "0-1")
    return Outcome(symbol, winner, report.termination or "rules", _margin(report), row)


def board_names(paired: Paired, first: int, second: int) -> tuple[str, str]:
    by_number = {facts.number: facts.name for facts in paired.players.values()}
    return by_number.get(first, ""), by_number.get(second, "")


def _report(row: RecordRow) -> Report:
    report = json.loads(row.report)
    if row.official_result and row.header is not None:
        return official_report(report, json.loads(row.header), row.official_result)
    return Report(**report)


def _margin(report: Report) -> float | None:
    if report.scores is None or report.winner is None:
        return None
    loser = next((c for c in report.scores if c != report.winner), None)
    return None if loser is None else report.scores[report.winner] - report.scores[loser]


def waiting(paired: Paired, round_number: int) -> list[int]:
    """The boards of a round that wait for a result."""
    facts = paired.pairings.get(round_number)
    if facts is None:
        return []
    return [
        board
        for board in range(1, len(facts.boards) + 1)
        if outcome(paired, round_number, board) is None
    ]


# --- the tournament, as the pairing library reads it ----------------------------------------


def tournament(
    paired: Paired, *, upto: int | None = None, absent: Sequence[int] = ()
) -> Tournament:
    """The event as :mod:`arbiter.pairing` reads it: players, the games of the rounds paired
    up to ``upto`` (all by default) that have a result, their byes, the byes asked for in
    rounds to come, a zero-point bye for each round before a late entry, the withdrawals,
    the planned rounds, the bye's points, the acceleration and the prohibited pairs.
    ``absent``: the pairing numbers of the players not checked in for the next round, who
    are not paired in it (a zero-point bye)."""
    last = paired.rounds_paired if upto is None else upto
    players = tuple(
        Player(facts.number, facts.name, facts.rating, facts.federation, facts.fide_id)
        for facts in sorted(paired.players.values(), key=lambda f: f.number)
    )
    games: list[Game] = []
    byes: list[Bye] = []
    for round_number in sorted(r for r in paired.pairings if r <= last):
        facts = paired.pairings[round_number]
        for board, (first, second) in enumerate(facts.boards, 1):
            found = outcome(paired, round_number, board)
            result = found.result if found else None
            games.append(Game(round_number, first, second, result))  # type: ignore[arg-type]
        byes += [Bye(round_number, n, kind, points) for n, kind, points in facts.byes]  # type: ignore[arg-type]
    for (round_number, player), kind in paired.requests.items():
        if round_number > last:
            number = paired.players[player].number
            byes.append(Bye(round_number, number, kind, requested_points(kind)))  # type: ignore[arg-type]
    byes += [Bye(last + 1, number, "zero", 0.0) for number in absent]
    seated = {
        number: {n for board in facts.boards for n in board} | {n for n, _, _ in facts.byes}
        for number, facts in paired.pairings.items()
        if number <= last
    }
    for one in paired.players.values():  # a late entry's rounds before it, a return's absence
        for missed, present in sorted(seated.items()):
            if one.withdrawn_from is not None and missed >= one.withdrawn_from:
                break  # the withdrawal says the rest
            if one.number not in present:
                byes.append(Bye(missed, one.number, "zero", 0.0))
    withdrawn = {
        facts.number: facts.withdrawn_from
        for facts in paired.players.values()
        if facts.withdrawn_from is not None
    }
    return Tournament(
        players=players,
        rounds_planned=paired.event.rounds,
        games=tuple(games),
        byes=tuple(byes),
        withdrawn=withdrawn,
        bye_points=paired.event.bye_points,
        system=paired_rules.system_of(paired.event),
        accelerations=accelerations(paired),
        prohibited=prohibited(paired),
    )


def accelerations(paired: Paired) -> tuple[Acceleration, ...]:
    """The acceleration the event gives the Dutch engine: for ``baku``, FIDE's Baku
    acceleration (C.04.5.1) exactly as the pairing library computes it
    (:func:`arbiter.pairing.generate.baku`, what ``arbiter pair --generate --baku`` writes),
    over the players entered for round 1 in order of their numbers (a late entry is of the
    second group) and the rounds planned."""
    if paired.event.acceleration != BAKU or paired.event.rounds is None:
        return ()
    numbers = tuple(sorted(f.number for f in paired.players.values() if f.entered <= 1))
    return baku(numbers, paired.event.rounds)


def prohibited(paired: Paired) -> tuple[Prohibition, ...]:
    """The prohibitions in the players' pairing numbers, each over the rounds it holds in
    (one taken back over the rounds paired under it, if any), within the rounds planned."""
    numbers = {player: facts.number for player, facts in paired.players.items()}
    planned = paired.event.rounds
    found = []
    for facts in paired.prohibitions.values():
        players = tuple(numbers[p] for p in facts.players if p in numbers)
        last = facts.last_round if planned is None else min(facts.last_round, planned)
        if len(players) >= 2 and facts.first_round <= last:
            found.append(Prohibition(facts.first_round, last, players))
    return tuple(found)


def _setting(name: str, default: int) -> int:
    """A whole number of the environment, or ``default`` when it gives none (or not one)."""
    given = os.environ.get(name, "")
    return int(given) if given.isascii() and given.isdigit() and int(given) > 0 else default


ENGINE_LIMITS = Limits(
    seconds=float(_setting("ARBITER_PAIRING_SECONDS", 120)),
    memory=_setting("ARBITER_PAIRING_MEMORY_MB", 3072) * 2**20,
)
"""What the Dutch engine may take to pair one round on the server: 120 s and 3 GiB unless
``ARBITER_PAIRING_SECONDS`` and ``ARBITER_PAIRING_MEMORY_MB`` say otherwise (spec/pairings.md
§8). It runs in a process of its own, stopped when it goes past either."""


def engine_pairing(paired: Paired) -> Pairing:
    """The next round as the event's system pairs it, within :data:`ENGINE_LIMITS`, without
    the players absent from it (not checked in, in an event that checks its players in)."""
    made = tournament(paired, absent=absent_from(paired, paired.rounds_paired + 1))
    try:
        return pair(made, paired.event.pairing, limits=ENGINE_LIMITS)  # type: ignore[arg-type]
    except PairingError as err:
        if err.code == "complete":
            raise EventError("all-rounds-paired", f"every round is paired: {err.message}") from None
        if err.code == "engine-limit":
            raise EventError(
                "engine-limit",
                f"the round cannot be paired here: {err.message}",
            ) from None
        raise EventError("cannot-pair", f"the round cannot be paired: {err.message}") from None
    except ValueError as err:
        raise EventError("cannot-pair", f"the round cannot be paired: {err}") from None


def given_by_engine(
    made: Pairing, paired: Paired
) -> tuple[tuple[Board, ...], tuple[ByeGiven, ...]]:
    """A pairing as the trail keeps it: its boards, and its byes: the one the pairing
    allocates and those asked for in its round (the players absent, not checked in, have
    nothing in it: the round's page and the TRF say they were not checked in)."""
    boards = tuple((board.first, board.second) for board in made.boards)
    gone = set(absent_from(paired, made.round))
    byes = {
        bye.player: (bye.player, str(bye.kind), float(bye.points))
        for bye in made.byes
        if bye.player not in gone
    }
    for (round_number, player), kind in sorted(paired.requests.items()):
        number = paired.players[player].number
        if round_number == made.round and number not in byes:
            byes[number] = (number, kind, requested_points(kind))
    return boards, tuple(byes[number] for number in sorted(byes))


def absent_from(paired: Paired, round_number: int) -> list[int]:
    """In an event that checks its players in, the pairing numbers of those who may play
    round ``round_number`` but neither checked in for it nor asked for a bye in it: the
    pairing leaves them out."""
    if not paired.event.check_in:
        return []
    asked = {player for (at, player) in paired.requests if at == round_number}
    present = set(present_for(paired, round_number))
    return sorted(
        f.number
        for player, f in paired.players.items()
        if f.number in present
        and player not in asked
        and (round_number, player) not in paired.checkins
    )


def present_for(paired: Paired, round_number: int) -> list[int]:
    """The pairing numbers of the players a round pairs: entered, and not withdrawn."""
    return sorted(
        f.number
        for f in paired.players.values()
        if f.entered <= round_number
        and (f.withdrawn_from is None or f.withdrawn_from > round_number)
    )


def gained_by_round(made: Tournament) -> dict[int, dict[int, float]]:
    """What each round gave each player, by round and pairing number, as the pairing library
    scores its games and byes (:meth:`~arbiter.pairing.Game.points`): one pass over the
    tournament, where asking each player's points scans every game."""
    gained: dict[int, dict[int, float]] = {}
    for game in made.games:
        first, second = game.points()
        row = gained.setdefault(game.round, {})
        row[game.first] = row.get(game.first, 0.0) + first
        row[game.second] = row.get(game.second, 0.0) + second
    for bye in made.byes:
        row = gained.setdefault(bye.round, {})
        row[bye.player] = row.get(bye.player, 0.0) + bye.points
    return gained


def number_shown(points: float) -> int | float:
    return int(points) if float(points).is_integer() else points


def results_in(paired: Paired, round_number: int) -> int:
    """The boards of a round that have a result, or a record standing on them."""
    facts = paired.pairings.get(round_number)
    if facts is None:
        return 0
    reported = {(at, board) for (at, board, _) in paired.reports}
    return sum(
        1
        for board in range(1, len(facts.boards) + 1)
        if (round_number, board) in paired.results
        or (round_number, board) in reported
        or paired.on_board(round_number, board)
    )


def paired_event(tx: Tx, event_id: str) -> EventRow:
    return rules.found_event(storage.event_row(tx, event_id), event_id)
