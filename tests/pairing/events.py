"""Helpers of the pairing tests: TRF lines written column by column, and small events."""

from __future__ import annotations

import random
from collections.abc import Sequence

from arbiter.pairing import Bye, Game, Player, System, Tournament, pair


def player_line(
    number: int,
    name: str,
    points: float | None,
    rounds: Sequence[str] = (),
    *,
    rating: int | None = None,
) -> str:
    """A ``001`` line: number in 5-8, name in 15-47, rating in 49-52, points in 81-84, each
    round ``NNNN c r`` in ten columns from 92 (``""`` for a blank round)."""
    head = f"001 {number:>4}      {name:<33} {'' if rating is None else rating:>4}"
    head = head.ljust(80) + ("    " if points is None else f"{points:>4.1f}") + "    1"
    return (head + "".join(f"  {entry:<8}" for entry in rounds)).rstrip()


def players(n: int) -> tuple[Player, ...]:
    return tuple(Player(k, f"Player {k:02}", rating=max(2400 - 10 * k, 0)) for k in range(1, n + 1))


def played(
    n: int,
    rounds: int,
    *,
    seed: int = 1,
    planned: int | None = None,
    system: System = "dutch",
    bye_points: float = 1.0,
) -> Tournament:
    """An event of ``n`` players whose ``rounds`` rounds arbiter paired, one after another,
    with results drawn from ``seed`` (the first seat wins a little more often)."""
    rng = random.Random(seed)
    tournament = Tournament(
        players=players(n),
        rounds_planned=planned or rounds,
        initial_colour="first",
        bye_points=bye_points,
    )
    for _ in range(rounds):
        found = pair(tournament, system)
        games = tuple(
            Game(found.round, b.first, b.second, "1-0" if rng.random() < 0.55 else "0-1")
            for b in found.boards
        )
        tournament = with_round(tournament, games, found.byes)
    return tournament


def with_round(tournament: Tournament, games: Sequence[Game], byes: Sequence[Bye]) -> Tournament:
    return Tournament(
        players=tournament.players,
        rounds_planned=tournament.rounds_planned,
        games=tournament.games + tuple(games),
        byes=tournament.byes + tuple(byes),
        withdrawn=tournament.withdrawn,
        initial_colour=tournament.initial_colour,
        bye_points=tournament.bye_points,
        system=tournament.system,
    )
