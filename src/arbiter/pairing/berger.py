"""FIDE's Berger tables for round-robin tournaments (Handbook C.05, Annex 1), and the double
round robin made from them (``spec/pairings.md``, "Round robin").

The tables are computed, not stored: for ``n`` table places (the players, and a dummy place
when their number is odd) the ``m = n - 1`` rounds are written by one rule, which the
tests hold to the tables FIDE publishes for 3 to 16 players. In round ``r`` the place ``k``
with ``2k = r + 1 (mod m)`` meets place ``n`` on board 1 (``k`` has the first seat in odd
rounds, ``n`` in even ones); on board ``b`` place ``k + b - 1`` has the first seat against
place ``k - b + 1`` (both modulo ``m``, in ``1..m``).
"""

from __future__ import annotations

from dataclasses import dataclass

from arbiter.pairing.values import DOUBLE_ROUND_ROBIN_SYSTEMS, ROUND_ROBIN_SYSTEMS, Tournament

__all__ = ["LeftOut", "berger_round", "berger_rounds", "cycle_length", "left_out"]


def cycle_length(players: int) -> int:
    """The rounds of one cycle for ``players`` players: one fewer than the table places
    (an odd number of players gets a dummy place, whose opponent has the round off)."""
    return players + players % 2 - 1


def table_round(places: int, round_: int) -> tuple[tuple[int, int], ...]:
    """Round ``round_`` of the Berger table of ``places`` (even) places: each board's
    first seat and second seat, board 1 first."""
    cycle = places - 1
    if places < 2 or places % 2 or not 1 <= round_ <= cycle:
        raise ValueError(f"a table of {places} places has no round {round_}")
    k = (round_ + 1) * (cycle + 1) // 2 % cycle or cycle  # 2k = round + 1 (mod cycle)
    boards = [(k, places) if round_ % 2 else (places, k)]
    for board in range(2, places // 2 + 1):
        first = (k - 1 + board - 1) % cycle + 1
        second = (k - 1 - (board - 1)) % cycle + 1
        boards.append((first, second))
    return tuple(boards)


def berger_round(
    players: int, round_: int, *, double: bool = False, exchanged: bool = True
) -> tuple[tuple[int, int], ...]:
    """The boards of round ``round_`` for ``players`` players numbered 1 to ``players``,
    board order as in the table; a pair with the dummy place (``players + 1``, when
    ``players`` is odd) is the player who has the round off.

    In a double round robin the second cycle is the first with colours reversed, and, when
    ``exchanged`` (the default), the last two rounds of the first cycle are played in the
    other order, as C.05 Annex 1 recommends (so that nobody has the same colour three times
    running across the cycles); FIDE's checklist asks that a director may choose the
    table's order instead."""
    places = players + players % 2
    cycle = places - 1
    if not 1 <= round_ <= cycle * (2 if double else 1):
        raise ValueError(f"{players} players have no round {round_}")
    if round_ > cycle:
        return tuple((second, first) for first, second in table_round(places, round_ - cycle))
    if double and exchanged and cycle >= 2 and round_ >= cycle - 1:
        round_ = 2 * cycle - 1 - round_  # cycle - 1 <-> cycle
    return table_round(places, round_)


def berger_rounds(
    players: int, *, double: bool = False, exchanged: bool = True
) -> tuple[tuple[tuple[int, int], ...], ...]:
    """Every round of the tournament, in order (see :func:`berger_round`)."""
    rounds = cycle_length(players) * (2 if double else 1)
    return tuple(
        berger_round(players, r, double=double, exchanged=exchanged) for r in range(1, rounds + 1)
    )


@dataclass(frozen=True, slots=True)
class LeftOut:
    """A player of a round robin whom the standings leave out: withdrawn from
    ``withdrew_from`` on, having played ``played`` of the ``games`` the table gives them."""

    player: int
    withdrew_from: int
    played: int
    games: int


def left_out(tournament: Tournament, *, upto: int | None = None) -> tuple[LeftOut, ...]:
    """The players of a round robin whose results the standings do not count: those who
    withdrew having played over the board fewer than half of the games the table gives them
    (FIDE's rule for a round robin left early: the results stay in the tournament table, for
    rating, but count neither for them nor for their opponents). With ``upto``, as the
    standings after that round see it: a withdrawal counts from the round it takes effect.
    None in a Swiss, or a tournament of no known system."""
    if tournament.system not in ROUND_ROBIN_SYSTEMS:
        return ()
    last = tournament.rounds_paired if upto is None else upto
    cycles = 2 if tournament.system in DOUBLE_ROUND_ROBIN_SYSTEMS else 1
    games = (len(tournament.players) - 1) * cycles
    played: dict[int, int] = {}
    for game in tournament.games:
        if game.played and game.round <= last:
            for player in (game.first, game.second):
                played[player] = played.get(player, 0) + 1
    return tuple(
        LeftOut(player, start, played.get(player, 0), games)
        for player, start in sorted(tournament.withdrawn.items())
        if start <= last and 2 * played.get(player, 0) < games
    )
