"""What a pairing given by hand breaks of the rules the engines keep (``spec/pairings.md``
§8): a repeated game, a prohibited pair, a pairing-allocated bye to a player who may not
have it, a colour difference beyond two, a third colour in a row (FIDE C.04.1's absolute
criteria, and C.04.3's colour rules), and a board where both players have the seat they
did not expect.

A director may pair a round by hand, and sometimes must; FIDE's checklist asks that they
are told first what the pairing breaks, so that it is done knowingly and the reason is
kept with it. Only games played over the board count: a forfeit is not a game met, and
gives no colour, as for the engines.

A round robin is another matter: its table pairs every pair once a cycle, so there any game
of the cycle counts as met, forfeits included, a second meeting in a cycle is what is warned
(a double round robin's second cycle meets every pair again), and so is a player left without
a game in more rounds of a cycle than the table gives (none with an even number of players,
one with an odd): with neither, every player meets every other exactly once a cycle.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from arbiter.pairing.berger import cycle_length
from arbiter.pairing.values import ROUND_ROBIN_SYSTEMS, Tournament

__all__ = ["pairing_warnings"]

MAX_COLOUR_DIFFERENCE = 2


def pairing_warnings(
    tournament: Tournament,
    round_: int,
    boards: Sequence[tuple[int, int]],
    bye: int | None = None,
) -> tuple[str, ...]:
    """Each rule that ``boards`` (first seat, second seat) and the pairing-allocated ``bye``
    of ``round_`` break, in words, given the rounds of ``tournament`` before it: two players
    who met already, a pair prohibited in that round, the bye to a player who has had it or
    has scored a win without playing (a forfeit win, a full-point bye), a player whose first
    seats would outnumber their second ones (or the other way round) by more than two, a
    player in the same seat for the third game running, and a board where both players have
    the seat opposite to the one they expect (the one that evens their seats, else the one
    they did not have last)."""
    robin = tournament.system in ROUND_ROBIN_SYSTEMS
    played = [g for g in tournament.games if g.round < round_ and g.played]
    met = {} if robin else {frozenset((g.first, g.second)): g.round for g in played}
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
        expected = (_expects(seats.get(first, [])), _expects(seats.get(second, [])))
        if expected == (False, True):
            warnings.append(f"{pair}: both players have the seat they did not expect")
    if robin:
        warnings += _round_robin(tournament, round_, boards)
    elif bye is not None and _had_a_free_win(tournament, round_, bye):
        warnings.append(f"bye {bye}: has had the bye, or a win without playing, already")
    return tuple(warnings)


def _round_robin(
    tournament: Tournament, round_: int, boards: Sequence[tuple[int, int]]
) -> list[str]:
    """What a round robin's pairing by hand breaks of its table (FIDE's checklist asks that
    every player still meets every other once a cycle): a pair that met already in this
    cycle, forfeits included, and a player without a game in more of the cycle's rounds
    than the table gives (a player withdrawn by then is not counted)."""
    players = len(tournament.players)
    per_cycle = cycle_length(players)
    if per_cycle < 1:
        return []
    start = (round_ - 1) // per_cycle * per_cycle + 1
    games = [(g.round, g.first, g.second) for g in tournament.games if start <= g.round < round_]
    games += [(round_, first, second) for first, second in boards]
    met: dict[frozenset[int], int] = {}
    found: list[str] = []
    for at, first, second in sorted(games):
        pair = frozenset((first, second))
        if pair in met and at == round_:
            found.append(f"{first} - {second}: they met in round {met[pair]}, in this cycle")
        met.setdefault(pair, at)
    free_allowed = per_cycle - (players - 1)
    playing = Counter(player for _, first, second in games for player in (first, second))
    for player in sorted(p.number for p in tournament.players):
        if tournament.withdrawn.get(player, round_ + 1) <= round_:
            continue  # withdrawn: out of the rounds from then on
        free = round_ - start + 1 - playing[player]
        if free > free_allowed:
            found.append(
                f"{player} would be without a game in {free} round(s) of this cycle, where "
                f"the table of {players} players gives {free_allowed}"
            )
    return found


def _expects(seats: list[bool]) -> bool | None:
    """The seat a player expects (True: the first): the one that evens their seats, else
    the one they did not have last; None before their first game."""
    difference = 2 * sum(seats) - len(seats)
    if difference:
        return difference < 0
    return None if not seats else not seats[-1]


def _had_a_free_win(tournament: Tournament, round_: int, player: int) -> bool:
    """Whether ``player`` had, before ``round_``, the pairing-allocated bye, a full-point
    bye or a forfeit win (C.04.1: such a player does not receive the bye)."""
    byes = any(
        b.player == player and b.round < round_ and b.kind in ("pairing", "full")
        for b in tournament.byes
    )
    forfeit_wins = any(
        (g.first == player and g.result == "+-") or (g.second == player and g.result == "-+")
        for g in tournament.games
        if g.round < round_
    )
    return byes or forfeit_wins


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
