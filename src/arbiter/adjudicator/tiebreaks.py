"""Points and tie-breaks of one tournament table (``spec/standings.md``, sections 4 and 5).

The tie-breaks follow the FIDE Handbook's tie-break regulations (C.07) where they apply:
Buchholz and Sonneborn-Berger with the management of unplayed rounds of Swiss events
(adjusted scores for opponents, a dummy opponent for a player's own unplayed rounds), direct
encounter among the players still tied, and the number of games won over the board. The
sum of margins is this project's own, for games that give scores. These games have no
draws, so every game is worth 1 point to its winner and 0 to its loser.

Everything here is a pure function of the counted results; :mod:`.standings` decides which
records count.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass

from arbiter.pairing.values import BYE_KINDS as PAIRING_BYE_KINDS
from arbiter.pairing.values import BYE_LETTERS

BUCHHOLZ = "buchholz"
SONNEBORN_BERGER = "sonneborn-berger"
WINS = "wins"
DIRECT = "direct"
MARGIN = "margin"

TIEBREAKS = (BUCHHOLZ, SONNEBORN_BERGER, WINS, DIRECT, MARGIN)
"""Every tie-break, by the name the JSON and ``--tiebreak`` use."""

DEFAULT_ORDER = (BUCHHOLZ, SONNEBORN_BERGER, WINS, DIRECT, MARGIN)
"""The order used unless another is asked for (``margin`` only applies to scored games)."""

TITLES = {
    BUCHHOLZ: "Buchholz",
    SONNEBORN_BERGER: "Sonneborn-Berger",
    WINS: "Games won",
    DIRECT: "Direct encounter",
    MARGIN: "Margin",
}
"""Each tie-break as people name it: the headings of the tables a person reads."""

EXPLANATIONS = {
    BUCHHOLZ: "the sum of the scores of the opponents met (unplayed rounds as FIDE's "
    "regulations count them)",
    SONNEBORN_BERGER: "the sum of the scores of the opponents beaten",
    WINS: "the number of games won over the board (forfeits not counted)",
    DIRECT: "the place among the players still tied, by their games against each other; "
    "blank for a player who was not tied when it was reached",
    MARGIN: "the sum of the player's winning and losing margins in scored games",
}
"""Each tie-break in one line, for the legends under the tables."""

ALIASES = {
    "bh": BUCHHOLZ,
    "sb": SONNEBORN_BERGER,
    "sonneborn": SONNEBORN_BERGER,
    "won": WINS,
    "win": WINS,
    "de": DIRECT,
    "direct-encounter": DIRECT,
    "margins": MARGIN,
}
"""Other spellings accepted in a tie-break list (any case)."""

TiebreakValue = float | int | None
"""A tie-break value: a number, or None where it does not apply (``direct`` for a player
who was not tied when it was applied)."""


BYE_KINDS: tuple[str, ...] = PAIRING_BYE_KINDS
"""The byes of a paired event (``spec/pairings.md``): allocated by the pairing, and the full,
half and zero-point byes a player asks for (or is given for an absence)."""
BYE_SYMBOLS: dict[str, str] = {kind: letter for kind, letter in BYE_LETTERS.items()}
"""Each bye as TRF writes it in a round's result column."""


@dataclass(frozen=True, slots=True)
class RoundResult:
    """One player's counted game in one round, from that player's side; or, in a paired
    event, the player's bye in that round.

    ``colour`` is the colour the player held at the start of the game (the one the player
    tags name); ``first`` says whether it is the colour that moves first. ``margin`` is the
    player's score minus the opponent's for a game that ended by the rules with scores,
    else None. A forfeit (``termination == "forfeit"``) is a win or a loss not played. A
    bye (``bye`` one of :data:`BYE_KINDS`) has no opponent (``opponent`` and ``colour``
    are empty) and is worth ``bye_points``; it is a round the player did not play."""

    round: int
    opponent: str
    colour: str
    first: bool
    won: bool
    termination: str
    margin: float | None
    file: str | None
    index: int
    bye: str | None = None
    bye_points: float = 0.0

    @property
    def forfeit(self) -> bool:
        """The game was not played: a win or a loss by forfeit."""
        return self.bye is None and self.termination == "forfeit"

    @property
    def played(self) -> bool:
        """The game was played over the board (whatever way it ended)."""
        return self.bye is None and not self.forfeit

    @property
    def points(self) -> float:
        """1 for a win (played or not), 0 for a loss; a bye's points."""
        if self.bye is not None:
            return self.bye_points
        return 1 if self.won else 0

    @property
    def voluntary(self) -> bool:
        """A round the player chose not to play: a half-point or zero-point bye (FIDE
        C.07 16.2's "voluntary unplayed round"; a round with no result at all is one too)."""
        return self.bye in ("half", "zero")

    @property
    def symbol(self) -> str:
        """``1`` or ``0`` for a played game, ``+`` or ``-`` for a forfeit (as in TRF); a
        bye's TRF letter (``U``, ``F``, ``H``, ``Z``)."""
        if self.bye is not None:
            return BYE_SYMBOLS[self.bye]
        if self.forfeit:
            return "+" if self.won else "-"
        return "1" if self.won else "0"


def bye_result(round_number: int, kind: str, points: float) -> RoundResult:
    """A bye of ``kind`` in ``round_number`` worth ``points``, as a round result.

    Raises ``ValueError`` for a kind that is no bye."""
    if kind not in BYE_KINDS:
        raise ValueError(f"{kind!r} is not a bye: give one of {', '.join(BYE_KINDS)}")
    return RoundResult(
        round=round_number,
        opponent="",
        colour="",
        first=False,
        won=kind in ("pairing", "full"),
        termination="bye",
        margin=None,
        file=None,
        index=0,
        bye=kind,
        bye_points=points,
    )


Results = Mapping[str, Mapping[int, RoundResult]]
"""Every player's counted results, by round number."""


@dataclass(frozen=True, slots=True)
class Field:
    """What the tie-breaks of one table look at: every player's results, the number of
    rounds, each player's points and adjusted score (:func:`adjusted_score`)."""

    results: Results
    rounds: int
    score: Mapping[str, float]
    adjusted: Mapping[str, float]

    @classmethod
    def of(cls, results: Results, rounds: int) -> Field:
        """The field of ``results`` over ``rounds`` rounds."""
        score = {player: points(own) for player, own in results.items()}
        adjusted = {player: adjusted_score(own, rounds) for player, own in results.items()}
        return cls(results, rounds, score, adjusted)


@dataclass(frozen=True, slots=True)
class Ranking:
    """The order of the players: ``places`` from first to last, each a tuple of players the
    points and the tie-breaks in ``order`` cannot separate (sorted by name); ``values`` gives
    each player's value of each tie-break in ``order``."""

    order: tuple[str, ...]
    places: tuple[tuple[str, ...], ...]
    values: Mapping[str, Mapping[str, TiebreakValue]]


def parse_order(spec: str | Sequence[str] | None) -> tuple[str, ...]:
    """The tie-break order a user asked for: a comma-separated text or a sequence of names
    (aliases such as ``bh``, ``sb``, ``de`` and any case allowed); None gives
    :data:`DEFAULT_ORDER`, an empty text none at all.

    Raises ``ValueError`` naming an unknown or repeated tie-break."""
    if spec is None:
        return DEFAULT_ORDER
    names = spec.split(",") if isinstance(spec, str) else list(spec)
    order: list[str] = []
    for raw in names:
        word = raw.strip().lower()
        if not word and isinstance(spec, str):
            continue  # "buchholz," or an empty text: nothing to add
        name = ALIASES.get(word, word)
        if name not in TIEBREAKS:
            known = ", ".join(TIEBREAKS)
            raise ValueError(f"unknown tie-break {raw.strip()!r}; known: {known}")
        if name in order:
            raise ValueError(f"tie-break {name!r} is given twice")
        order.append(name)
    return tuple(order)


def name_key(player: str) -> tuple[str, str]:
    """How players who share a place are listed: by name, ignoring case first."""
    return (player.casefold(), player)


def points(own: Mapping[int, RoundResult]) -> float:
    """A player's points: one per win, played or by forfeit, and each bye's points (a
    whole number where every round gave one)."""
    total = sum(result.points for result in own.values())
    return int(total) if float(total).is_integer() else total


def adjusted_score(own: Mapping[int, RoundResult], rounds: int) -> float:
    """The player's score as their opponents' tie-breaks see it (FIDE C.07 16.3).

    Rounds without a counted game are zero-point byes. Those followed only by rounds the
    player did not play either (absences, half-point and zero-point byes, and forfeit
    losses: the "voluntarily unplayed" rounds), or in the last round, count as half a
    point, whatever a bye there gave; every other round counts what it gave."""
    last_available = max(
        (n for n, r in own.items() if (r.played or r.won) and not r.voluntary), default=0
    )
    late = 0.0
    for number in range(last_available + 1, rounds + 1):
        result = own.get(number)
        if result is None or result.voluntary:
            late += 0.5 - (0 if result is None else result.points)
    return points(own) + late


def rank(results: Results, rounds: int, order: Sequence[str]) -> Ranking:
    """Rank the players of ``results`` by points, then by each tie-break of ``order``.

    Each tie-break only separates players who are still tied; players it cannot separate
    share a place. ``rounds`` is the number of rounds of the table (the highest round with
    a counted game)."""
    players = sorted(results, key=name_key)
    field = Field.of(results, rounds)
    values: dict[str, dict[str, TiebreakValue]] = {player: {} for player in players}
    places = _split([players], field.score)
    for name in order:
        if name == DIRECT:
            places = [part for tied in places for part in _direct(tied, results, values)]
            continue
        figure = _FIGURES[name]
        value = {player: figure(player, field) for player in players}
        for player in players:
            values[player][name] = value[player]
        places = _split(places, value)
    return Ranking(tuple(order), tuple(tuple(place) for place in places), values)


def buchholz(player: str, field: Field) -> float:
    """Sum of the adjusted scores of the opponents met, with a dummy opponent for each
    round the player did not play (FIDE C.07 8.1, 16.4)."""
    return sum(opponent for opponent, _ in _opponents(player, field))


def sonneborn_berger(player: str, field: Field) -> float:
    """Sum of the adjusted scores of the opponents beaten; a forfeit win counts its dummy
    opponent, and a bye its dummy times the bye's points (FIDE C.07 9.1, 16.4)."""
    return sum(opponent * got for opponent, got in _opponents(player, field) if got)


def wins(player: str, field: Field) -> int:
    """Games won over the board (FIDE C.07 7.2, "WON"). Forfeit wins are left out: with no
    draws, all wins together are the points, which could never break a tie."""
    return sum(1 for result in field.results[player].values() if result.won and result.played)


def margin(player: str, field: Field) -> float:
    """Sum of the player's margins (own score minus the opponent's) over the games that
    ended by the rules with scores; games stopped early and forfeits add nothing."""
    own = field.results[player].values()
    return sum(r.margin for r in own if r.played and r.margin is not None)


_FIGURES: dict[str, Callable[[str, Field], float]] = {
    BUCHHOLZ: buchholz,
    SONNEBORN_BERGER: sonneborn_berger,
    WINS: wins,
    MARGIN: margin,
}


def _opponents(player: str, field: Field) -> Iterable[tuple[float, float]]:
    """For each round: the score of the opponent as the player's tie-breaks count it, and
    the points the player got. A played game gives the opponent's adjusted score. An
    unplayed round (a forfeit, a bye, or no counted game) is a game against a dummy who has
    the player's own score, but no more than the scheduled opponent's adjusted score for a
    forfeit, and no more than half a point per round where there was no opponent (FIDE
    C.07 16.4)."""
    own = field.results[player]
    score = field.score[player]
    for number in range(1, field.rounds + 1):
        result = own.get(number)
        if result is not None and result.played:
            yield field.adjusted[result.opponent], result.points
        elif result is not None and result.bye is None:
            yield min(score, field.adjusted[result.opponent]), result.points
        else:
            yield min(score, 0.5 * field.rounds), 0 if result is None else result.points


def _split(places: Iterable[Sequence[str]], value: Mapping[str, float | int]) -> list[list[str]]:
    """Each place split by ``value``, highest first; players with equal values stay
    together, sorted by name."""
    out: list[list[str]] = []
    for tied in places:
        ordered = sorted(tied, key=lambda p: (-value[p], name_key(p)))
        out.extend(list(group) for _, group in itertools.groupby(ordered, key=lambda p: value[p]))
    return out


def _direct(
    tied: Sequence[str], results: Results, values: dict[str, dict[str, TiebreakValue]]
) -> list[list[str]]:
    """Split one place by direct encounter and record each player's place within it (1 is
    best; None for a player who was not tied)."""
    if len(tied) == 1:
        values[tied[0]][DIRECT] = None
        return [list(tied)]
    parts = _direct_parts(tied, results)
    before = 0
    for part in parts:
        for player in part:
            values[player][DIRECT] = before + 1
        before += len(part)
    return parts


def _direct_parts(tied: Sequence[str], results: Results) -> list[list[str]]:
    """Direct encounter among ``tied``, applied again within every smaller tie it leaves
    (FIDE C.07 6)."""
    parts = _direct_once(tied, results)
    if len(parts) == 1:
        return parts
    return [sub for part in parts for sub in _direct_parts(part, results)]


def _direct_once(tied: Sequence[str], results: Results) -> list[list[str]]:
    """One application of direct encounter: only games played over the board between the
    tied players count, a pairing met more than once counting its average. If every tied
    player met every other, their scores order them. If not, a player is placed above the
    rest only when no other could reach their score even by winning every encounter not
    played; this is repeated down the list until it fails."""
    score, unmet = _encounters(tied, results)
    if not any(unmet.values()):
        return _split([tied], score)
    ordered = sorted(tied, key=lambda p: (-score[p], name_key(p)))
    parts: list[list[str]] = []
    while len(ordered) > 1 and all(score[ordered[0]] > score[q] + unmet[q] for q in ordered[1:]):
        parts.append([ordered[0]])
        ordered = ordered[1:]
    parts.append(ordered)
    return parts


def _encounters(tied: Sequence[str], results: Results) -> tuple[dict[str, float], dict[str, int]]:
    """Each tied player's points against the other tied players (averaged per opponent),
    and how many of them the player has not met over the board."""
    members = set(tied)
    score: dict[str, float] = {}
    unmet: dict[str, int] = {}
    for player in tied:
        met: dict[str, list[float]] = {}
        for result in results[player].values():
            if result.played and result.opponent in members:
                met.setdefault(result.opponent, []).append(result.points)
        score[player] = sum(sum(got) / len(got) for got in met.values())
        unmet[player] = len(members) - 1 - len(met)
    return score, unmet
