"""Records with their reports, built by hand for the standings tests, and a hypothesis
strategy for whole tournaments.

The standings are a pure function of (record, report) pairs, so these tests give it pairs
whose reports say exactly what :func:`arbiter.adjudicate` says of such a game: the winner's
colour as it stands at the end (after a swap, the other one), the winner's name, the
termination, and the scores of a game finished by the rules. The sample tournament and the
CLI and API tests run real records through the adjudicator.
"""

from __future__ import annotations

from dataclasses import dataclass

from hypothesis import strategies as st

from arbiter.adjudicator.replay import Report
from arbiter.adjudicator.standings import Adjudicated
from arbiter.notation.ast import Record, Tag

ENDINGS = {"rules": "", "resignation": "R", "time": "T", "forfeit": "F"}


def entry(
    round_: int | str | None,
    first: str | None,
    second: str | None,
    winner: str | None,
    *,
    how: str = "rules",
    margin: float | None = None,
    swapped: bool = False,
    event: str | None = "Club Cup",
    game: str = "Pilo",
    file: str = "cup.grn",
    index: int = 0,
) -> Adjudicated:
    """A record of ``first`` (the first colour at the start) against ``second`` in round
    ``round_`` of ``event``, won by the player ``winner`` (None: unfinished, ``*``).

    ``how`` is the termination; ``margin`` the winner's points margin of a scored game
    finished by the rules (the scores are then 20 + margin against 20)."""
    colours = ("Blue", "Orange") if game in ("Pilo", "Petrify") else ("Black", "White")
    players = tuple((c, n) for c, n in zip(colours, (first, second), strict=True) if n is not None)
    tags = [Tag("Event", event)] if event is not None else []
    if round_ is not None:
        tags.append(Tag("Round", str(round_)))
    record = Record(game=game, size=6, players=players, tags=tuple(tags), index=index)
    report = Report(file=file, index=index, game=game, size=6, valid=True, swapped=swapped)
    report.players = dict(players)
    if winner is None:
        return record, report
    started = colours[0] if winner == first else colours[1]
    colour = started if not swapped else (colours[1] if started == colours[0] else colours[0])
    loser = colours[1] if colour == colours[0] else colours[0]
    report.winner, report.winner_player, report.termination = colour, winner, how
    report.finished = how == "rules"
    if how == "rules" and margin is not None:
        report.scores = {colour: 20 + margin, loser: 20}
        report.result = f"{colour}+{margin:g}"
    else:
        report.result = colour + ("+" + ENDINGS[how] if ENDINGS[how] else "")
    return record, report


def invalid(index: int = 0, *, event: str | None = "Club Cup") -> Adjudicated:
    """A record that reads but whose moves are illegal."""
    record, report = entry(1, "player-a", "player-b", None, event=event, index=index)
    report.valid = False
    report.errors = [{"code": "illegal-move", "message": "d4 is occupied", "ply": 3}]
    return record, report


@dataclass(frozen=True)
class Pairing:
    """One game of a generated tournament: players by index, and its outcome."""

    round: int
    first: int
    second: int
    first_wins: bool
    how: str
    margin: int


PLAYERS = [f"player-{n:02d}" for n in range(1, 9)]


@st.composite
def schedules(draw: st.DrawFn, *, clean: bool = True) -> list[Pairing]:
    """A tournament of 2 to 8 players over 1 to 5 rounds. With ``clean``, each round pairs
    disjoint players (some sit out); otherwise pairings are drawn freely, so that the same
    pairing or the same player may come twice in a round."""
    count = draw(st.integers(2, len(PLAYERS)))
    rounds = draw(st.integers(1, 5))
    games: list[Pairing] = []
    for number in range(1, rounds + 1):
        if clean:
            order = draw(st.permutations(range(count)))
            pairs = [(order[i], order[i + 1]) for i in range(0, count - 1, 2)]
            pairs = [pair for pair in pairs if draw(st.booleans()) or not games]
        else:
            pair = st.tuples(st.integers(0, count - 1), st.integers(1, count - 1))
            drawn = draw(st.lists(pair, min_size=1, max_size=count))
            pairs = [(first, (first + step) % count) for first, step in drawn]
        for first, second in pairs:
            how = draw(st.sampled_from(["rules", "rules", "resignation", "time", "forfeit"]))
            margin = draw(st.integers(0, 9))
            games.append(Pairing(number, first, second, draw(st.booleans()), how, margin))
    return games


def entries(games: list[Pairing]) -> list[Adjudicated]:
    """The records of a generated tournament, one per game, in order."""
    out = []
    for index, g in enumerate(games):
        first, second = PLAYERS[g.first], PLAYERS[g.second]
        winner = first if g.first_wins else second
        margin = g.margin if g.how == "rules" else None
        out.append(entry(g.round, first, second, winner, how=g.how, margin=margin, index=index))
    return out
