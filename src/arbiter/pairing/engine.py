"""Pairing a round, and checking the rounds of a tournament (``spec/pairings.md``).

:func:`pair` pairs the round after the last one paired, by the Dutch system (through
:mod:`arbiter.pairing.dutch`) or FIDE's Berger tables (:mod:`arbiter.pairing.berger`).
:func:`check` pairs every round again from the rounds before it and lists those that
differ from what was played. Both take a :class:`~arbiter.pairing.values.Tournament` and
give plain values; what they cannot do is a :class:`PairingError` with a stable code.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace

from arbiter.pairing.berger import berger_round, cycle_length
from arbiter.pairing.bounded import Limits
from arbiter.pairing.values import (
    DOUBLE_ROUND_ROBIN_SYSTEMS,
    Acceleration,
    Board,
    Bye,
    Colour,
    Game,
    Pairing,
    Player,
    Prohibition,
    System,
    Tournament,
)

__all__ = [
    "MAX_DUTCH_PLAYERS",
    "PairingError",
    "RoundDifference",
    "check",
    "initial_order",
    "pair",
]

MAX_DUTCH_PLAYERS = 2000
"""The most players the Dutch engine is given: its work and memory grow with the square of
the players (1,000 players take some 6 s and 360 MB), so the bound keeps a round within
about half a minute and 1.5 GB."""


class PairingError(ValueError):
    """A round that cannot be paired: a stable ``code`` (``complete``, ``no-rounds``,
    ``unfinished``, ``no-players``, ``too-many-players``, ``no-pairing``, ``engine-limit``)
    and a message."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message


@dataclass(frozen=True, slots=True)
class RoundDifference:
    """A round whose pairing is not what ``system`` gives: the pairing the system gives
    (None when it gives none, with the reason in ``problems``), the one in the tournament,
    and each difference in words, colours included."""

    round: int
    expected: Pairing | None
    actual: Pairing
    problems: tuple[str, ...]


def initial_order(players: Iterable[Player]) -> tuple[Player, ...]:
    """The players numbered 1, 2, ... in FIDE's initial order: rating from the highest,
    unrated players after the rated ones, then name (ignoring case first). A TRF's own
    numbers are kept as they are; this is for a tournament that has none yet."""
    ordered = sorted(
        players,
        key=lambda p: (p.rating is None, -(p.rating or 0), p.name.casefold(), p.name),
    )
    return tuple(replace(player, number=n) for n, player in enumerate(ordered, 1))


def pair(tournament: Tournament, system: System, *, limits: Limits | None = None) -> Pairing:
    """The pairing of the round after the last one paired (``tournament.rounds_paired``).

    Players who withdrew before or at that round, and those with a bye of that round
    (requested half-point, full-point or zero-point), are not paired. Dutch: boards in
    FIDE's order; round robin: the Berger table's boards, the player paired with the dummy
    place getting the round off as the pairing-allocated bye. With ``limits``, the Dutch
    engine runs in a process of its own within them (:mod:`arbiter.pairing.bounded`;
    ``engine-limit`` when it goes past one)."""
    round_ = tournament.rounds_paired + 1
    absent = {p for p, start in tournament.withdrawn.items() if start <= round_}
    return _pair_round(tournament, system, round_, absent, limits=limits)


def check(tournament: Tournament, system: System) -> list[RoundDifference]:
    """Every paired round whose pairing differs from the one ``system`` gives from the
    rounds before it (a player with nothing in a round was absent from it)."""
    differences: list[RoundDifference] = []
    for round_ in range(1, tournament.rounds_paired + 1):
        actual = played_pairing(tournament, round_)
        present = {p for b in actual.boards for p in (b.first, b.second)}
        present |= {b.player for b in tournament.byes if b.round == round_}
        absent = set(tournament.numbers) - present
        try:
            expected = _pair_round(tournament, system, round_, absent, checking=True)
        except PairingError as err:
            differences.append(RoundDifference(round_, None, actual, (err.message,)))
            continue
        problems = compare(expected, actual)
        if problems:
            differences.append(RoundDifference(round_, expected, actual, problems))
    return differences


def played_pairing(tournament: Tournament, round_: int) -> Pairing:
    """The pairing of ``round_`` as the tournament has it: its games in order, and its
    pairing-allocated bye."""
    games = [g for g in tournament.games if g.round == round_]
    boards = tuple(Board(n, g.first, g.second) for n, g in enumerate(games, 1))
    byes = tuple(b for b in tournament.byes if b.round == round_ and b.kind == "pairing")
    return Pairing(round_, boards, byes)


def compare(expected: Pairing, actual: Pairing) -> tuple[str, ...]:
    """The differences between two pairings of a round, board order aside: pairs missing
    from either side, pairs with the colours the other way round, another bye."""
    wanted = {(b.first, b.second) for b in expected.boards}
    found = {(b.first, b.second) for b in actual.boards}
    problems: list[str] = []
    for first, second in sorted(wanted - found):
        if (second, first) in found:
            problems.append(f"colours: {first} - {second} expected, {second} - {first} played")
        else:
            problems.append(f"{first} - {second} expected, not played")
    for first, second in sorted(found - wanted):
        if (second, first) not in wanted:
            problems.append(f"{first} - {second} played, not expected")
    if expected.bye != actual.bye:
        problems.append(f"bye: {_who(expected.bye)} expected, {_who(actual.bye)} had it")
    return tuple(problems)


def _who(player: int | None) -> str:
    return "nobody" if player is None else str(player)


def _pair_round(
    tournament: Tournament,
    system: System,
    round_: int,
    absent: set[int],
    *,
    checking: bool = False,
    limits: Limits | None = None,
) -> Pairing:
    if len(tournament.players) < 2:
        raise PairingError("no-players", "a tournament needs two players to pair")
    if system == "dutch":
        return _dutch(tournament, round_, absent, checking=checking, limits=limits)
    return _round_robin(tournament, round_, system, absent)


def _round_robin(tournament: Tournament, round_: int, system: System, absent: set[int]) -> Pairing:
    """Round ``round_`` of the Berger table, places 1 to N being the players in order of
    pairing number. The table pairs every player, present or not; the player it gives the
    round off has the pairing-allocated bye unless absent (withdrawn) or given another bye
    of that round (an absence, a bye asked for)."""
    numbers = tournament.numbers
    double = system in DOUBLE_ROUND_ROBIN_SYSTEMS
    exchanged = system == "double-round-robin"
    rounds = cycle_length(len(numbers)) * (2 if double else 1)
    if round_ > rounds:
        raise PairingError("complete", f"all {rounds} rounds of the round robin are paired")
    boards: list[Board] = []
    byes: list[Bye] = []
    off = absent | {b.player for b in tournament.byes if b.round == round_ and b.kind != "pairing"}
    for first, second in berger_round(len(numbers), round_, double=double, exchanged=exchanged):
        if max(first, second) > len(numbers):
            player = numbers[min(first, second) - 1]
            if player not in off:
                byes.append(Bye(round_, player, "pairing", tournament.bye_points))
        else:
            boards.append(Board(len(boards) + 1, numbers[first - 1], numbers[second - 1]))
    return Pairing(round_, tuple(boards), tuple(byes))


def _dutch(
    tournament: Tournament, round_: int, absent: set[int], *, checking: bool,
    limits: Limits | None = None,
) -> Pairing:  # fmt: skip
    """Round ``round_`` by the Dutch engine, given the rounds before it."""
    from arbiter.pairing.dutch import NoPairing, dutch_round

    planned = tournament.rounds_planned
    if planned is None and not checking:
        raise PairingError(
            "no-rounds",
            "the number of rounds is not given (TRF 142 or XXR), and the Dutch "
            "system pairs the last round by its own rules",
        )
    planned = tournament.rounds_paired if planned is None else planned
    if round_ > planned:
        raise PairingError("complete", f"all {planned} rounds are paired")
    pending = [g for g in tournament.games if g.round < round_ and g.result is None]
    if pending:
        game = pending[0]
        raise PairingError(
            "unfinished", f"round {game.round}: {game.first} - {game.second} has no result yet"
        )
    engine, numbers = _engine_tournament(tournament, round_, absent, planned)
    playing = len(numbers) - len([b for b in engine.byes if b.round == round_])
    if playing == 0:
        raise PairingError("no-players", f"nobody is to be paired in round {round_}")
    if len(numbers) > MAX_DUTCH_PLAYERS:
        raise PairingError(
            "too-many-players", f"the Dutch engine pairs at most {MAX_DUTCH_PLAYERS} players"
        )
    try:
        if limits is None:
            found = dutch_round(engine, round_)
        else:
            from arbiter.pairing.bounded import EngineLimit, bounded_dutch_round

            try:
                found = bounded_dutch_round(engine, round_, limits)
            except EngineLimit as err:
                raise PairingError("engine-limit", err.message) from None
    except NoPairing as err:
        raise PairingError("no-pairing", f"round {round_} has no legal pairing: {err}") from None
    boards = tuple(
        Board(n, numbers[first - 1], numbers[second - 1])
        for n, (first, second) in enumerate(found.boards, 1)
    )
    byes = (
        ()
        if found.bye is None
        else (Bye(round_, numbers[found.bye - 1], "pairing", engine.bye_points),)
    )
    return Pairing(round_, boards, byes)


def _engine_tournament(
    tournament: Tournament, round_: int, absent: set[int], planned: int
) -> tuple[Tournament, tuple[int, ...]]:
    """What the engine is given for ``round_``: players numbered 1 to N in order of their
    numbers (with their ratings, nothing else of them), the games and byes before the round,
    the requested byes of the round, a zero-point bye for each absent player without one,
    the initial colour, and the accelerations and prohibited pairs in the engine's numbers."""
    numbers = tournament.numbers
    index = {number: n for n, number in enumerate(numbers, 1)}
    # only what pairs: a name, federation or FIDE number is nothing to the engine, and its
    # reader need not be trusted with them
    players = tuple(
        Player(index[p.number], f"Player {index[p.number]}", p.rating) for p in tournament.players
    )
    games = tuple(
        Game(g.round, index[g.first], index[g.second], g.result)
        for g in tournament.games
        if g.round < round_
    )
    byes = [
        Bye(b.round, index[b.player], b.kind, b.points)
        for b in tournament.byes
        if b.round < round_ or (b.round == round_ and b.kind != "pairing")
    ]
    resting = {b.player for b in byes if b.round == round_}
    byes += [Bye(round_, index[p], "zero", 0.0) for p in sorted(absent) if index[p] not in resting]
    engine = Tournament(
        players=players,
        rounds_planned=planned,
        games=games,
        byes=tuple(byes),
        initial_colour=initial_colour(tournament),
        bye_points=tournament.bye_points,
        accelerations=_renumbered_accelerations(tournament, index, planned),
        prohibited=tuple(
            Prohibition(
                p.first_round, min(p.last_round, planned), tuple(index[n] for n in p.players)
            )
            for p in tournament.prohibited
            if p.first_round <= planned
        ),
    )
    return engine, numbers


def _renumbered_accelerations(
    tournament: Tournament, index: dict[int, int], planned: int
) -> tuple[Acceleration, ...]:
    """Each acceleration over the engine's numbers: the players numbered ``first_player`` to
    ``last_player`` are a run of the engine's 1 to N, which keeps their order."""
    found: list[Acceleration] = []
    for a in tournament.accelerations:
        inside = [index[n] for n in index if a.first_player <= n <= a.last_player]
        if inside and a.first_round <= planned:
            last_round = min(a.last_round, planned)
            found.append(
                Acceleration(a.first_round, last_round, min(inside), max(inside), a.points)
            )
    return tuple(found)


def initial_colour(tournament: Tournament) -> Colour:
    """The colour of the top-ranked player in round 1: as given, or read from the first
    round with games as FIDE's TRF-2026 (record 152) and bbpPairings read it (the colour
    of the lowest-numbered player paired in that round, the other colour for each player
    above them who was paired without a game), or ``first`` before any round."""
    if tournament.initial_colour is not None:
        return tournament.initial_colour
    if not tournament.games:
        return "first"
    first_round = min(g.round for g in tournament.games)
    games = {p: g for g in tournament.games if g.round == first_round for p in (g.first, g.second)}
    paired = set(games) | {
        b.player for b in tournament.byes if b.round == first_round and b.kind == "pairing"
    }
    for position, player in enumerate(sorted(paired)):
        game = games.get(player)
        if game is not None:
            seat_first = (game.first == player) == (position % 2 == 0)
            return "first" if seat_first else "second"
    return "first"
