"""The values of the pairing layer: players, games, byes, a tournament, and a pairing.

They are plain frozen dataclasses so that the events service, the command line and the
tests can build them, compare them and keep them without knowing how a round is paired.
A :class:`Tournament` checks itself when it is made (``ValueError`` with the reason), so
that everything that receives one (the TRF writer, the engines) can trust it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Literal, get_args

Result = Literal["1-0", "0-1", "=", "+-", "-+", "--"]
"""A game's result, first seat's side first: ``1-0`` and ``0-1`` played, ``=`` a draw (only in
imported files: these games have no draws), ``+-`` and ``-+`` forfeits, ``--`` a double
forfeit."""

ByeKind = Literal["pairing", "half", "full", "zero"]
"""``pairing``: the pairing-allocated bye (TRF ``U``); ``half``, ``full``: a requested
half-point or full-point bye (``H``, ``F``); ``zero``: a known absence (``Z``)."""

Colour = Literal["first", "second"]
"""A seat: ``first`` moves first (Blue, Black or Red, before any pie swap); the engines call
it white."""

System = Literal["dutch", "round-robin", "double-round-robin", "double-round-robin-plain"]

RESULTS: tuple[Result, ...] = get_args(Result)
BYE_KINDS: tuple[ByeKind, ...] = get_args(ByeKind)
SYSTEMS: tuple[System, ...] = get_args(System)
SWISS_SYSTEMS: tuple[System, ...] = ("dutch",)
"""The systems that pair each round by the scores so far: they must know the last round
(the Dutch system pairs the last rounds by rules of their own), and players may join late."""
ROUND_ROBIN_SYSTEMS: tuple[System, ...] = (
    "round-robin",
    "double-round-robin",
    "double-round-robin-plain",
)
"""The systems that pair every round from the start by FIDE's Berger tables: every player
meets every other, so a Buchholz tie-break separates nobody."""
DOUBLE_ROUND_ROBIN_SYSTEMS: tuple[System, ...] = ("double-round-robin", "double-round-robin-plain")
"""The round robins played twice, the second cycle with the seats reversed:
``double-round-robin`` plays the last two rounds of the first cycle in the other order, as
C.05 Annex 1 recommends (TRF ``FIDE_DOUBLEROUNDROBIN``), ``double-round-robin-plain`` in
the table's order (``BERGER_DOUBLEROUNDROBIN``)."""

RESULT_POINTS: dict[Result, tuple[float, float]] = {
    "1-0": (1.0, 0.0),
    "0-1": (0.0, 1.0),
    "=": (0.5, 0.5),
    "+-": (1.0, 0.0),
    "-+": (0.0, 1.0),
    "--": (0.0, 0.0),
}
"""The points each seat takes from a result (TRF's default point system)."""

REQUESTED_BYE_POINTS: dict[ByeKind, float] = {"half": 0.5, "full": 1.0, "zero": 0.0}
"""The points of the byes a player asks for; the pairing-allocated bye's are a setting of
the tournament (:attr:`Tournament.bye_points`)."""


def requested_points(kind: str) -> float:
    """What a bye a player asks for (``half``, ``full``, ``zero``: an absence too) is worth,
    by its kind's name (:data:`REQUESTED_BYE_POINTS`); ``ValueError`` for another."""
    for known, points in REQUESTED_BYE_POINTS.items():
        if known == kind:
            return points
    raise ValueError(f"{kind!r} is not a bye a player asks for")


BYE_POINT_CHOICES = (0.0, 0.5, 1.0)
"""What the pairing-allocated bye may be worth: a loss, a draw or a win."""

BYE_LETTERS: dict[ByeKind, str] = {"pairing": "U", "full": "F", "half": "H", "zero": "Z"}
"""Each bye's letter, as TRF writes it in a round's column (``0000 - U``) and as the
crosstables and the audit trail show it."""

MAX_NUMBER = 9999
"""TRF writes a pairing number in four columns."""
MAX_ROUNDS = 999
"""TRF writes a round number in three columns (record 240)."""


@dataclass(frozen=True, slots=True)
class Player:
    """A player and their pairing number (TRF columns 5-8), which never changes."""

    number: int
    name: str
    rating: int | None = None
    federation: str | None = None
    fide_id: str | None = None


@dataclass(frozen=True, slots=True)
class Game:
    """A game of a round: ``first`` is the player in the first-moving seat, the engines'
    white. ``result`` is None while the game is being played."""

    round: int
    first: int
    second: int
    result: Result | None = None

    def points(self) -> tuple[float, float]:
        """The points of the first and the second seat (none while unfinished)."""
        return (0.0, 0.0) if self.result is None else RESULT_POINTS[self.result]

    @property
    def played(self) -> bool:
        """Whether the game was played over the board (a forfeit was not)."""
        return self.result in ("1-0", "0-1", "=")


@dataclass(frozen=True, slots=True)
class Bye:
    """A round in which a player has no opponent, of one of the :data:`ByeKind` kinds, and
    the points it gives."""

    round: int
    player: int
    kind: ByeKind
    points: float


@dataclass(frozen=True, slots=True)
class Board:
    """One board of a pairing: the player in the first seat and the one in the second."""

    board: int
    first: int
    second: int


@dataclass(frozen=True, slots=True)
class Pairing:
    """A round's pairing: its boards in order, and the pairing-allocated bye if there is
    one (a tuple of none or one :class:`Bye`)."""

    round: int
    boards: tuple[Board, ...]
    byes: tuple[Bye, ...] = ()

    @property
    def bye(self) -> int | None:
        """The player who has the pairing-allocated bye, if any."""
        return next((b.player for b in self.byes if b.kind == "pairing"), None)


@dataclass(frozen=True, slots=True)
class Acceleration:
    """Virtual points added to the pairing score of the players numbered ``first_player``
    to ``last_player`` in rounds ``first_round`` to ``last_round`` (TRF-2026 record 250;
    FIDE's Baku acceleration, C.04.5.1, is two of them). They change who meets whom, never
    the standings."""

    first_round: int
    last_round: int
    first_player: int
    last_player: int
    points: float


@dataclass(frozen=True, slots=True)
class Prohibition:
    """Players of whom no two may be paired together in rounds ``first_round`` to
    ``last_round`` (TRF-2026 record 260: players of one family or club, say)."""

    first_round: int
    last_round: int
    players: tuple[int, ...]

    def applies(self, round_: int, first: int, second: int) -> bool:
        """Whether this forbids ``first`` to meet ``second`` in ``round_``."""
        return (
            self.first_round <= round_ <= self.last_round
            and first in self.players
            and second in self.players
        )


@dataclass(frozen=True, slots=True)
class Tournament:
    """A tournament as far as it has gone: its players, the rounds planned (None when not
    known), the games and byes of the rounds so far (byes of a later round are requested
    ones), the players who withdrew and from which round, the colour of the top-ranked
    player in round 1 (None: not known; the engine infers it from round 1, or takes
    ``first`` before it), what the pairing-allocated bye is worth, the accelerations and
    prohibited pairs the Dutch engine is given, and the tie-break list of the standings
    (FIDE C.07 codes, as TRF-2026 records 202/212 give them; empty: not given).

    Sequences are kept as tuples and ``withdrawn`` as a read-only mapping. Raises
    ``ValueError`` when the parts do not fit together (an unknown player, a player twice in
    a round, a bye worth other than its kind's points, two pairing-allocated byes in a
    round, a round outside the plan, a game of a withdrawn player after the withdrawal but
    a forfeit they lose)."""

    players: tuple[Player, ...]
    rounds_planned: int | None = None
    games: tuple[Game, ...] = ()
    byes: tuple[Bye, ...] = ()
    withdrawn: Mapping[int, int] = field(default_factory=lambda: MappingProxyType({}))
    initial_colour: Colour | None = None
    bye_points: float = 1.0
    system: System | None = None
    accelerations: tuple[Acceleration, ...] = ()
    prohibited: tuple[Prohibition, ...] = ()
    tiebreaks: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        _freeze(self, "players", self.players)
        _freeze(self, "games", self.games)
        _freeze(self, "byes", self.byes)
        _freeze(self, "accelerations", self.accelerations)
        _freeze(self, "prohibited", self.prohibited)
        _freeze(self, "tiebreaks", self.tiebreaks)
        object.__setattr__(self, "withdrawn", MappingProxyType(dict(self.withdrawn)))
        _check(self)

    @property
    def numbers(self) -> tuple[int, ...]:
        """The pairing numbers, in increasing order."""
        return tuple(sorted(p.number for p in self.players))

    @property
    def rounds_paired(self) -> int:
        """The last round with a game or a pairing-allocated bye (0 before round 1)."""
        rounds = [g.round for g in self.games]
        rounds += [b.round for b in self.byes if b.kind == "pairing"]
        return max(rounds, default=0)

    def points(self, player: int, *, before: int | None = None) -> float:
        """The points of ``player`` from the games and byes of the rounds before ``before``
        (all rounds when None)."""
        last = MAX_ROUNDS + 1 if before is None else before
        total = 0.0
        for game in self.games:
            if game.round < last and player in (game.first, game.second):
                first, second = game.points()
                total += first if game.first == player else second
        total += sum(b.points for b in self.byes if b.player == player and b.round < last)
        return total


def _freeze(tournament: Tournament, name: str, value: Iterable[object]) -> None:
    object.__setattr__(tournament, name, tuple(value))


def _check(t: Tournament) -> None:
    """Raise ``ValueError`` with the first thing about ``t`` that cannot be so."""
    numbers = [p.number for p in t.players]
    known = set(numbers)
    if len(known) != len(numbers):
        raise ValueError("two players have the same pairing number")
    if any(not 1 <= n <= MAX_NUMBER for n in numbers):
        raise ValueError(f"a pairing number is from 1 to {MAX_NUMBER}")
    if any(p.rating is not None and not 0 <= p.rating <= 9999 for p in t.players):
        raise ValueError("a rating is a whole number from 0 to 9999")
    planned = MAX_ROUNDS if t.rounds_planned is None else t.rounds_planned
    if not 1 <= planned <= MAX_ROUNDS:
        raise ValueError(f"the rounds planned are from 1 to {MAX_ROUNDS}")
    if t.bye_points not in BYE_POINT_CHOICES:
        raise ValueError("the pairing-allocated bye is worth 0, 0.5 or 1 point")
    if t.initial_colour not in (None, "first", "second"):
        raise ValueError(f"the initial colour is first or second, not {t.initial_colour!r}")
    seen: set[tuple[int, int]] = set()
    for game in t.games:
        _check_game(game, known, planned, seen)
    pairing_byes: set[int] = set()
    for bye in t.byes:
        _check_bye(t, bye, known, planned, seen, pairing_byes)
    for player, start in t.withdrawn.items():
        if player not in known or not 1 <= start <= MAX_ROUNDS + 1:
            raise ValueError(f"withdrawal of {player} from round {start}: no such player or round")
        if any(
            g.round >= start and player in (g.first, g.second) and not lost_by_forfeit(g, player)
            for g in t.games
        ):
            raise ValueError(f"player {player} withdrew from round {start} but plays after it")
    for acceleration in t.accelerations:
        _check_acceleration(acceleration, planned)
    for prohibition in t.prohibited:
        _check_prohibition(prohibition, known, planned)


def lost_by_forfeit(game: Game, player: int) -> bool:
    """Whether ``player`` lost ``game`` by forfeit (a double forfeit too): the only game a
    withdrawn player has after the withdrawal, where a round robin's table keeps their
    boards (``spec/pairings.md`` §6)."""
    return game.result == "--" or (game.result, player) in (
        ("+-", game.second),
        ("-+", game.first),
    )


def _check_acceleration(a: Acceleration, planned: int) -> None:
    if not 1 <= a.first_round <= a.last_round <= planned:
        raise ValueError(f"an acceleration's rounds {a.first_round}-{a.last_round} are not planned")
    if not 1 <= a.first_player <= a.last_player <= MAX_NUMBER:
        raise ValueError(
            f"an acceleration's players {a.first_player}-{a.last_player} are not a range"
        )
    if not 0 < a.points <= MAX_ROUNDS or (2 * a.points) % 1:
        raise ValueError(f"an acceleration adds half points above 0, not {a.points}")


def _check_prohibition(p: Prohibition, known: set[int], planned: int) -> None:
    if not 1 <= p.first_round <= p.last_round <= planned:
        raise ValueError(f"a prohibition's rounds {p.first_round}-{p.last_round} are not planned")
    if len(set(p.players)) != len(p.players) or len(p.players) < 2:
        raise ValueError("a prohibition names two players or more, each once")
    unknown = [n for n in p.players if n not in known]
    if unknown:
        raise ValueError(f"a prohibition names player {unknown[0]}, who is not in the event")


def _check_game(game: Game, known: set[int], planned: int, seen: set[tuple[int, int]]) -> None:
    if game.first == game.second or not {game.first, game.second} <= known:
        raise ValueError(f"round {game.round}: {game.first} - {game.second} is not a game")
    if not 1 <= game.round <= planned:
        raise ValueError(f"game {game.first} - {game.second}: round {game.round} is not planned")
    if game.result is not None and game.result not in RESULTS:
        raise ValueError(f"round {game.round}: {game.result!r} is not a result")
    for player in (game.first, game.second):
        _once(player, game.round, seen)


def _check_bye(
    t: Tournament,
    bye: Bye,
    known: set[int],
    planned: int,
    seen: set[tuple[int, int]],
    pairing_byes: set[int],
) -> None:
    if bye.player not in known or not 1 <= bye.round <= planned or bye.kind not in BYE_KINDS:
        raise ValueError(f"bye of {bye.player} in round {bye.round}: no such player or round")
    worth = t.bye_points if bye.kind == "pairing" else REQUESTED_BYE_POINTS[bye.kind]
    if bye.points != worth:
        raise ValueError(
            f"round {bye.round}: the {bye.kind} bye of {bye.player} is worth {worth}, "
            f"not {bye.points}"
        )
    if bye.kind == "pairing":
        if bye.round in pairing_byes:
            raise ValueError(f"round {bye.round} has two pairing-allocated byes")
        pairing_byes.add(bye.round)
    _once(bye.player, bye.round, seen)


def _once(player: int, round_: int, seen: set[tuple[int, int]]) -> None:
    if (player, round_) in seen:
        raise ValueError(f"player {player} has two games or byes in round {round_}")
    seen.add((player, round_))
