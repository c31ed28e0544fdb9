"""What a pairing given by hand breaks of the rules the engines keep (``spec/pairings.md``
§2): a repeated game, a prohibited pair, a colour difference beyond two, a third colour in a
row (FIDE C.04.1's absolute criteria, and C.04.3's colour rules).

A director may pair a round by hand, and sometimes must; FIDE's checklist asks that they
are told first what the pairing breaks, so that it is done knowingly and the reason is
kept with it. Only games played over the board count: a forfeit is not a game met, and
gives no colour, as for the engines.
"""

from __future__ import annotations

from collections.abc import Sequence

from arbiter.pairing.values import Tournament

__all__ = ["pairing_warnings"]

MAX_COLOUR_DIFFERENCE = 2


def pairing_warnings(
    tournament: Tournament, round_: int, boards: Sequence[tuple[int, int]]
) -> tuple[str, ...]:
    """Each rule that ``boards`` (first seat, second seat) of ``round_`` break, in words,
    given the games of ``tournament`` before that round: two players who met already, a
    pair prohibited in that round, a player whose first seats would outnumber their second
    ones (or the other way round) by more than two, and a player in the same seat for the
    third game running."""
    played = [g for g in tournament.games if g.round < round_ and g.played]
    met = {frozenset((g.first, g.second)): g.round for g in played}
    seats: dict[int, list[bool]] = {}
    for game in sorted(played, key=lambda g: g.round):
        seats.setdefault(game.first, []).append(True)
        seats.setdefault(game.second, []).append(False)
    warnings: list[str] = []
    for first, second in boards:
        pair = f"{first} - {second}"
        if frozenset((first, second)) in met:
            warnings.append(f"{pair}: they met in round {met[frozenset((first, second))]}")
        for p in tournament.prohibited:
            if p.applies(round_, first, second):
                rounds = (
                    f"round {p.first_round}"
                    if p.first_round == p.last_round
                    else (f"rounds {p.first_round}-{p.last_round}")
                )
                warnings.append(f"{pair}: a prohibited pair in {rounds}")
        for player, seat in ((first, True), (second, False)):
            warnings += _colours(player, seats.get(player, []) + [seat])
    return tuple(warnings)


def _colours(player: int, seats: list[bool]) -> list[str]:
    name = "first" if seats[-1] else "second"
    found: list[str] = []
    difference = 2 * sum(seats) - len(seats)
    if abs(difference) > MAX_COLOUR_DIFFERENCE:
        more, fewer = ("first", "second") if difference > 0 else ("second", "first")
        found.append(
            f"{player} would have had the {more} seat {abs(difference)} times more than the {fewer}"
        )
    if len(seats) >= 3 and len(set(seats[-3:])) == 1:
        found.append(f"{player} would have the {name} seat for the third game running")
    return found
