"""A random tournament generator (RTG): whole tournaments paired by arbiter, with results
drawn from the players' ratings (``spec/pairings.md`` §9).

FIDE's checklist for pairing programs (C.02, VCL4THP) asks for one, so that a checker (this
program's, bbpPairings', gacrux's) can be run on many tournaments nobody played. Everything
is drawn from one :class:`random.Random` seeded with :attr:`Settings.seed`, in a fixed
order, so that the same settings give the same tournament, and so the same bytes once
written.

The model, for each round in turn: each player present asks for a half-point bye with
probability ``half_byes`` percent, failing that is absent (a zero-point bye) with
probability ``zero_byes`` percent, failing that asks for a full-point bye with probability
``full_byes`` percent; the round is paired by :func:`arbiter.pairing.pair`; each
board's first seat then wins with the probability Elo's formula gives from the two ratings,
``1 / (1 + 10 ** ((second - first) / 400))`` (these games have no draws), and the game is
won or lost by forfeit instead of played with probability ``forfeits`` percent (the same
draw decides who wins it).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace

from arbiter.pairing.berger import cycle_length
from arbiter.pairing.engine import MAX_DUTCH_PLAYERS, initial_order, pair
from arbiter.pairing.tiebreaks import DEFAULT_TIEBREAKS, parse_tiebreaks
from arbiter.pairing.values import (
    MAX_ROUNDS,
    REQUESTED_BYE_POINTS,
    Acceleration,
    Bye,
    Colour,
    Game,
    Pairing,
    Player,
    Prohibition,
    Result,
    System,
    Tournament,
)

__all__ = ["GENERATED_SYSTEMS", "Settings", "baku", "generate"]

GENERATED_SYSTEMS: tuple[System, ...] = ("dutch", "round-robin")
"""The systems the generator pairs by."""

RATINGS = (1000, 2700)
"""The lowest and highest rating drawn, each equally likely."""


@dataclass(frozen=True, slots=True)
class Settings:
    """What a generated tournament is like: its players, rounds and seed; Baku acceleration
    or not; how many pairs are prohibited; the percentages of half-point byes, absences,
    forfeits and full-point byes (each from 0 to 100); the system; and the tie-break list
    its ranks follow."""

    players: int
    rounds: int
    seed: int = 1
    baku: bool = False
    prohibited: int = 0
    half_byes: float = 0.0
    zero_byes: float = 0.0
    forfeits: float = 0.0
    system: System = "dutch"
    full_byes: float = 0.0
    tiebreaks: tuple[str, ...] | None = None
    """The tie-break list the file's ranks follow (FIDE codes); None: the system's."""

    def problem(self) -> str | None:
        """What makes these settings impossible, in words, or None."""
        if self.system not in GENERATED_SYSTEMS:
            return f"the generator pairs by {' or '.join(GENERATED_SYSTEMS)}"
        if not 2 <= self.players <= MAX_DUTCH_PLAYERS:
            return f"a tournament has 2 to {MAX_DUTCH_PLAYERS} players"
        if not 1 <= self.rounds <= MAX_ROUNDS:
            return f"a tournament has 1 to {MAX_ROUNDS} rounds"
        byes = (self.half_byes, self.zero_byes, self.full_byes)
        if any(not 0 <= p <= 100 for p in (*byes, self.forfeits)) or sum(byes) > 100:
            return "a percentage is from 0 to 100, and the byes' together too"
        try:
            parse_tiebreaks(self.tiebreaks or (), self.system)
        except ValueError as err:
            return str(err)
        pairs = self.players * (self.players - 1) // 2
        if not 0 <= self.prohibited <= pairs:
            return f"{self.players} players make at most {pairs} pairs"
        if self.system == "round-robin":
            return _round_robin_problem(self)
        return None


def _round_robin_problem(settings: Settings) -> str | None:
    rounds = cycle_length(settings.players)
    if settings.rounds > rounds:
        return f"a round robin of {settings.players} players has {rounds} rounds"
    byes = settings.half_byes or settings.zero_byes or settings.full_byes
    if settings.baku or settings.prohibited or byes:
        return "a round robin's table is fixed: no acceleration, prohibited pairs or byes"
    return None


def baku(numbers: tuple[int, ...], rounds: int) -> tuple[Acceleration, ...]:
    """FIDE's Baku acceleration (C.04.5.1) of players in initial order ``numbers`` over
    ``rounds`` rounds: the first half of the players, rounded up to an even number, have
    one virtual point in the first half (rounded up) of the accelerated rounds and half a
    point in the rest of them; the accelerated rounds are the first half of the rounds,
    rounded up."""
    group = numbers[: 2 * ((len(numbers) + 3) // 4)]
    if not group:
        return ()
    accelerated = (rounds + 1) // 2
    full = (accelerated + 1) // 2
    found = [Acceleration(1, full, min(group), max(group), 1.0)]
    if accelerated > full:
        found.append(Acceleration(full + 1, accelerated, min(group), max(group), 0.5))
    return tuple(found)


def generate(settings: Settings) -> Tournament:
    """A whole tournament of ``settings``, every round paired and played.

    Raises ``ValueError`` for impossible settings (:meth:`Settings.problem`), and
    :class:`~arbiter.pairing.engine.PairingError` when a round has no legal pairing (too
    many rounds for the players, or too many prohibited pairs)."""
    problem = settings.problem()
    if problem is not None:
        raise ValueError(problem)
    rng = random.Random(settings.seed)
    tournament = _start(settings, rng)
    for round_ in range(1, settings.rounds + 1):
        requested = _requested(settings, tournament, round_, rng)
        tournament = replace(tournament, byes=tournament.byes + requested)
        found = pair(tournament, settings.system)
        tournament = replace(
            tournament,
            games=tournament.games + _played(tournament, found, settings.forfeits, rng),
            byes=tournament.byes + found.byes,
        )
    return tournament


def _start(settings: Settings, rng: random.Random) -> Tournament:
    """The players (drawn ratings, numbered in FIDE's order), the initial colour drawn by
    lot, the acceleration, the prohibited pairs and the system's tie-break list."""
    drawn = [Player(0, f"Player {k:04}", rng.randint(*RATINGS)) for k in range(settings.players)]
    players = initial_order(drawn)
    colour: Colour = rng.choice(("first", "second"))
    numbers = tuple(p.number for p in players)
    return Tournament(
        players=players,
        rounds_planned=settings.rounds,
        initial_colour=colour,
        system=settings.system,
        accelerations=baku(numbers, settings.rounds) if settings.baku else (),
        prohibited=_prohibited(settings, numbers, rng),
        tiebreaks=DEFAULT_TIEBREAKS[settings.system]
        if settings.tiebreaks is None
        else settings.tiebreaks,
    )


def _prohibited(
    settings: Settings, numbers: tuple[int, ...], rng: random.Random
) -> tuple[Prohibition, ...]:
    """``settings.prohibited`` different pairs, each over a run of rounds drawn too."""
    pairs: set[tuple[int, int]] = set()
    found: list[Prohibition] = []
    while len(found) < settings.prohibited:
        first, second = sorted(rng.sample(numbers, 2))
        if (first, second) in pairs:
            continue
        pairs.add((first, second))
        start = rng.randint(1, settings.rounds)
        found.append(Prohibition(start, rng.randint(start, settings.rounds), (first, second)))
    return tuple(found)


def _requested(
    settings: Settings, tournament: Tournament, round_: int, rng: random.Random
) -> tuple[Bye, ...]:
    """The half-point and full-point byes and the absences of ``round_``, leaving two
    players at least."""
    byes: list[Bye] = []
    for number in tournament.numbers:
        draw = rng.random() * 100
        if draw < settings.half_byes:
            byes.append(Bye(round_, number, "half", REQUESTED_BYE_POINTS["half"]))
        elif draw < settings.half_byes + settings.zero_byes:
            byes.append(Bye(round_, number, "zero", REQUESTED_BYE_POINTS["zero"]))
        elif draw < settings.half_byes + settings.zero_byes + settings.full_byes:
            byes.append(Bye(round_, number, "full", 1.0))
    if len(tournament.players) - len(byes) < 2:
        return ()
    return tuple(byes)


def _played(
    tournament: Tournament, found: Pairing, forfeits: float, rng: random.Random
) -> tuple[Game, ...]:
    """Each board's result: the first seat wins with Elo's expected score, and the game is
    a forfeit with probability ``forfeits`` percent."""
    rating = {p.number: p.rating or RATINGS[0] for p in tournament.players}
    games: list[Game] = []
    for board in found.boards:
        expected = 1 / (1 + 10 ** ((rating[board.second] - rating[board.first]) / 400))
        first_wins = rng.random() < expected
        forfeit = rng.random() * 100 < forfeits
        result: Result = (
            ("+-" if first_wins else "-+") if forfeit else ("1-0" if first_wins else "0-1")
        )
        games.append(Game(found.round, board.first, board.second, result))
    return tuple(games)
