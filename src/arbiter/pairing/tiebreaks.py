"""FIDE's tie-breaks by their codes (Handbook C.07, as amended for 2026), over a
:class:`~arbiter.pairing.values.Tournament`, and the standings they give
(``spec/pairings.md`` §10).

These are the tie-breaks a TRF names in records 202/212 and an event may choose; they work
on the pairing layer's values, draws included (imported files have them), so that the
checker can check a file's ranks and the generator write them. The events' own standings
(:mod:`arbiter.adjudicator.tiebreaks`) keep their names; this module knows nothing of
them.

Unplayed rounds are managed as C.07 art. 16 says, as read here: a round a player did not
play is "voluntarily unplayed" (VUR) unless it was a pairing-allocated bye, a full-point bye
or a forfeit win; for the opponents' Buchholz and Sonneborn-Berger a player's rounds with
no opponent after their last round that was not a VUR count as draws (none in a round
robin); a player's own unplayed round counts, in a Swiss, a dummy opponent with the player's
own points, but no more than the forfeiting opponent's adjusted score, and no more than
half a point a round without an opponent; a cut removes a VUR first.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction

from arbiter.pairing.performance import average_rating, perfect_performance, performance_rating
from arbiter.pairing.values import ROUND_ROBIN_SYSTEMS, Bye, Game, Player, System, Tournament

__all__ = [
    "BUCHHOLZ_TYPE",
    "CODES",
    "DEFAULT_TIEBREAKS",
    "Tiebreak",
    "drawing_of_lots",
    "parse_tiebreak",
    "parse_tiebreaks",
    "places",
    "rank_differences",
    "ranks",
    "tiebreak_values",
]

CODES: dict[str, str] = {
    "DE": "direct encounter among the players still tied",
    "WIN": "rounds with a win's points, played or not",
    "WON": "games won over the board",
    "BPG": "games played over the board with the second seat (black)",
    "BWG": "games won over the board with the second seat (black)",
    "REP": "rounds the player elected to play (played, or won without playing)",
    "STD": "standard points: 1 a round above a draw's points, 0.5 a draw's",
    "TPN": "the pairing number, the lower first",
    "RTNG": "the rating, the higher first (none: nobody is separated)",
    "BH": "Buchholz: the opponents' adjusted scores",
    "FB": "Fore Buchholz: Buchholz with the last round taken as drawn",
    "AOB": "the average of the Buchholz of the opponents met over the board",
    "SB": "Sonneborn-Berger: each opponent's adjusted score times the points taken from them",
    "PS": "progressive scores: the sum of the scores after each round",
    "KS": "Koya: the points taken from opponents with half the possible points or more",
    "ARO": "the average rating of the opponents met over the board",
    "TPR": "tournament performance rating: ARO plus FIDE's dp of the percentage scored",
    "PTP": "perfect tournament performance: the lowest rating expected to score as much",
    "APRO": "the average of the tournament performance ratings of the opponents",
    "APPO": "the average of the perfect tournament performances of the opponents",
}
"""Every tie-break by its FIDE code, in words."""

ALIASES = {"GE": "REP", "SNO": "TPN"}
"""Older codes for the same tie-breaks (C.07 before 2026)."""

MODIFIERS: dict[str, str] = {
    "BH": "CM",
    "FB": "CM",
    "AOB": "CM",
    "SB": "C",
    "PS": "C",
    "ARO": "CMU",
    "TPR": "CMU",
    "PTP": "CMU",
    "APRO": "U",
    "APPO": "U",
    "KS": "L",
    "RTNG": "RU",
    "TPN": "R",
}
"""The modifiers each code takes: ``Cn`` cuts the n lowest values, ``Mn`` the n lowest and
n highest, ``Ln`` (``L+n``, ``L-n``) moves Koya's limit by n half points, ``R`` reverses,
``Un`` rates an unrated player ``n`` (C.07 10: a rating tie-break needs every player
rated, or a rating the regulations give the unrated)."""

BUCHHOLZ_TYPE = frozenset({"BH", "FB", "AOB"})
"""The Buchholz tie-breaks (C.07's 4xx), which a round robin may not use: there every player
meets every other."""

ROUND_ROBIN_ONLY = frozenset({"KS"})

DEFAULT_TIEBREAKS: dict[System, tuple[str, ...]] = {
    "dutch": ("BH/C1", "BH", "SB", "DE", "WON"),
    "round-robin": ("DE", "SB", "WIN", "KS"),
    "double-round-robin": ("DE", "SB", "WIN", "KS"),
    "double-round-robin-plain": ("DE", "SB", "WIN", "KS"),
}
"""arbiter's list for each system when an event gives none."""

DRAW = 0.5


@dataclass(frozen=True, slots=True)
class Tiebreak:
    """One tie-break of a list: its FIDE ``code`` and modifiers (``cut_low`` and
    ``cut_high`` values removed, Koya's ``limit`` moved by half points, ``reverse``)."""

    code: str
    cut_low: int = 0
    cut_high: int = 0
    limit: int = 0
    reverse: bool = False
    unrated: int | None = None

    def __str__(self) -> str:
        if self.cut_low and self.cut_low == self.cut_high:
            text = f"{self.code}/M{self.cut_low}"
        else:
            text = self.code + (f"/C{self.cut_low}" if self.cut_low else "")
        text += f"/L{self.limit:+d}" if self.limit else ""
        text += "/R" if self.reverse else ""
        return text + (f"/U{self.unrated}" if self.unrated is not None else "")


def parse_tiebreak(text: str) -> Tiebreak:
    """The tie-break written ``text`` (``BH/C1``, ``sb``, ``KS/L-1``, ``TPN/R``).

    Raises ``ValueError`` naming an unknown code or a modifier it does not take."""
    code, *modifiers = text.strip().upper().split("/")
    code = ALIASES.get(code, code)
    if code not in CODES:
        raise ValueError(f"unknown tie-break {text.strip()!r}; known: {', '.join(CODES)}")
    made = Tiebreak(code)
    for modifier in modifiers:
        made = _modified(made, modifier, text)
    return made


def _modified(made: Tiebreak, modifier: str, text: str) -> Tiebreak:
    kind, number = modifier[:1], modifier[1:]
    if not kind or kind not in MODIFIERS.get(made.code, ""):
        raise ValueError(f"tie-break {text.strip()!r}: {made.code} takes no /{modifier}")
    if kind == "R" and not number:
        return replace(made, reverse=True)
    digits = number.lstrip("+-")
    if not digits.isdigit() or (kind != "L" and number != digits):
        raise ValueError(f"tie-break {text.strip()!r}: /{modifier} needs a number")
    if len(digits) > 4:
        raise ValueError(f"tie-break {text.strip()!r}: /{modifier}: at most four digits")
    n = int(number)
    if kind == "C":
        return replace(made, cut_low=n)
    if kind == "M":
        return replace(made, cut_low=n, cut_high=n)
    if kind == "U":
        return replace(made, unrated=n)
    return replace(made, limit=n)


def parse_tiebreaks(codes: Iterable[str], system: System | None) -> tuple[Tiebreak, ...]:
    """A list of tie-breaks for ``system``. Raises ``ValueError`` for an unknown one, one
    given twice, a Buchholz tie-break in a round robin, or Koya in a Swiss."""
    found: list[Tiebreak] = []
    for text in codes:
        made = parse_tiebreak(text)
        if made in found:
            raise ValueError(f"tie-break {text!r} is given twice")
        if system in ROUND_ROBIN_SYSTEMS and made.code in BUCHHOLZ_TYPE:
            raise ValueError(f"{made.code} is a Buchholz tie-break: a round robin cannot use it")
        if system == "dutch" and made.code in ROUND_ROBIN_ONLY:
            raise ValueError(f"{made.code} is a round-robin tie-break")
        found.append(made)
    return tuple(found)


# --- what each player did in each round --------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Round:
    points: float
    opponent: int | None
    played: bool
    second: bool
    vur: bool


@dataclass(frozen=True, slots=True)
class _Field:
    """Each player's rounds, points and adjusted score, and the round robin or not."""

    rounds: int
    robin: bool
    fore: bool
    table: Mapping[int, Mapping[int, _Round]]
    score: Mapping[int, float]
    adjusted: Mapping[int, float]
    own: Mapping[int, float]
    rating: Mapping[int, int | None]


def _field(t: Tournament, *, fore: bool = False) -> _Field:
    rounds = t.rounds_paired
    table: dict[int, dict[int, _Round]] = {n: {} for n in t.numbers}
    for g in t.games:
        first, second = g.points()
        table[g.first][g.round] = _Round(first, g.second, g.played, False, _vur(g.played, first))
        table[g.second][g.round] = _Round(second, g.first, g.played, True, _vur(g.played, second))
    for b in t.byes:
        if b.round <= rounds:
            table[b.player][b.round] = _Round(
                b.points, None, False, False, b.kind in ("half", "zero")
            )
    for own in table.values():
        for r in range(1, rounds + 1):
            own.setdefault(r, _Round(0.0, None, False, False, True))
    robin = t.system in ROUND_ROBIN_SYSTEMS
    score = {n: sum(r.points for r in own.values()) for n, own in table.items()}
    adjusted = {n: _adjusted(own, rounds, robin, fore) for n, own in table.items()}
    own_score = dict(score)
    if fore:  # Fore Buchholz: a last round with an opponent counts as drawn
        for n, own in table.items():
            if rounds and own[rounds].opponent is not None:
                own_score[n] += DRAW - own[rounds].points
    rating = {p.number: p.rating for p in t.players}
    return _Field(rounds, robin, fore, table, score, adjusted, own_score, rating)


def _vur(played: bool, points: float) -> bool:
    return not played and points < 1.0


def _adjusted(own: Mapping[int, _Round], rounds: int, robin: bool, fore: bool) -> float:
    """The score a player's opponents' Buchholz sees (C.07 16.3): rounds without an opponent
    after the last one that was not voluntarily unplayed count as draws (nothing in a round
    robin); for Fore Buchholz, a last round with an opponent counts as a draw."""
    last = max((r for r, x in own.items() if not x.vur), default=0)
    if fore and own[rounds].opponent is not None:
        last = rounds
    total = 0.0
    for r in range(1, rounds + 1):
        x = own[r]
        if fore and r == rounds and x.opponent is not None:
            total += DRAW
        elif r <= last or x.opponent is not None:
            total += x.points
        else:
            total += 0.0 if robin else DRAW
    return total


# --- the values -----------------------------------------------------------------------------


Value = float | None


def tiebreak_values(t: Tournament, tiebreak: Tiebreak) -> dict[int, Value]:
    """Each player's value of ``tiebreak`` after the rounds of ``t`` (None where it does not
    apply: a rating tie-break with an unrated player). Direct encounter has no value of its
    own: see :func:`places`."""
    field = _field(t, fore=tiebreak.code == "FB")
    if tiebreak.code == "AOB":
        bh = _VALUES["BH"](field, Tiebreak("BH", tiebreak.cut_low, tiebreak.cut_high))
        return {n: _average_of(field, n, bh) for n in field.table}
    return _VALUES[tiebreak.code](field, tiebreak)


def _count(test: Callable[[_Round], bool]) -> Callable[[_Field, Tiebreak], dict[int, Value]]:
    def values(field: _Field, _: Tiebreak) -> dict[int, Value]:
        return {n: float(sum(1 for x in own.values() if test(x))) for n, own in field.table.items()}

    return values


def _std(field: _Field, _: Tiebreak) -> dict[int, Value]:
    def one(x: _Round) -> float:
        return 1.0 if x.points > DRAW else DRAW if x.points == DRAW else 0.0

    return {n: sum(one(x) for x in own.values()) for n, own in field.table.items()}


def _tpn(field: _Field, _: Tiebreak) -> dict[int, Value]:
    return {n: -float(n) for n in field.table}  # the lower number first


def _ratings(field: _Field, tb: Tiebreak) -> dict[int, int] | None:
    """Every player's rating, the unrated given ``/U``'s; None when a player has none."""
    found: dict[int, int] = {}
    for n, r in field.rating.items():
        rating = tb.unrated if r is None else r
        if rating is None:
            return None
        found[n] = rating
    return found


def _rtng(field: _Field, tb: Tiebreak) -> dict[int, Value]:
    rating = _ratings(field, tb)
    if rating is None:
        return dict.fromkeys(field.table)
    return {n: float(r) for n, r in rating.items()}


def _buchholz(field: _Field, tb: Tiebreak, *, sonneborn: bool = False) -> dict[int, Value]:
    found: dict[int, Value] = {}
    for n, own in field.table.items():
        parts = [p for r in range(1, field.rounds + 1) if (p := _part(field, n, own, r, sonneborn))]
        found[n] = sum(p[1] for p in _cut(parts, tb.cut_low, tb.cut_high))
    return found


def _part(
    field: _Field, n: int, own: Mapping[int, _Round], r: int, sonneborn: bool
) -> tuple[float, float, bool] | None:
    """One round's part of a Buchholz or Sonneborn-Berger: the opponent's score as counted,
    the value (times the points taken, for Sonneborn-Berger), and whether it was a VUR."""
    x = own[r]
    counts = x.played or (field.robin or (field.fore and r == field.rounds))
    if counts and x.opponent is not None:
        score, vur = field.adjusted[x.opponent], False
    elif field.robin:
        return None
    else:
        cap = DRAW * field.rounds if x.opponent is None else field.adjusted[x.opponent]
        score, vur = min(field.own[n], cap), x.vur
    return score, score * x.points if sonneborn else score, vur


def _cut(
    parts: list[tuple[float, float, bool]], low: int, high: int
) -> list[tuple[float, float, bool]]:
    """``parts`` without the ``low`` lowest and ``high`` highest (C.07 14): of the lowest, a
    voluntarily unplayed round goes first unless the lowest opponent's part is worth more."""
    rest = list(parts)
    for _ in range(min(low, len(rest))):
        lowest = min(rest, key=lambda p: (p[0], p[1]))
        vurs = [p for p in rest if p[2]]
        worst_vur = min(vurs, key=lambda p: (p[1], p[0])) if vurs else None
        rest.remove(lowest if worst_vur is None or lowest[1] > worst_vur[1] else worst_vur)
    for _ in range(min(high, len(rest))):
        rest.remove(max(rest, key=lambda p: (p[0], p[1])))
    return rest


def _bh(field: _Field, tb: Tiebreak) -> dict[int, Value]:
    return _buchholz(field, tb)


def _sb(field: _Field, tb: Tiebreak) -> dict[int, Value]:
    return _buchholz(field, tb, sonneborn=True)


def _average_of(field: _Field, n: int, values: Mapping[int, Value]) -> Value:
    met = [values[x.opponent] for x in field.table[n].values() if x.played and x.opponent]
    numbers = [v for v in met if v is not None]
    if not numbers:
        return 0.0
    places = "0.01" if field.rounds < 9 else "0.001" if field.rounds < 27 else "0.0001"
    mean = Decimal(str(sum(numbers))) / len(numbers)
    return float(mean.quantize(Decimal(places), rounding=ROUND_HALF_UP))


def _ps(field: _Field, tb: Tiebreak) -> dict[int, Value]:
    found: dict[int, Value] = {}
    for n, own in field.table.items():
        running, total = 0.0, 0.0
        for r in range(1, field.rounds + 1):
            running += own[r].points
            total += running if r > tb.cut_low else 0.0
        found[n] = total
    return found


def _ks(field: _Field, tb: Tiebreak) -> dict[int, Value]:
    games = field.rounds
    players = len(field.table)
    if field.robin and players and field.rounds % players == 0:
        games -= field.rounds // players  # an odd number of players: a round off each cycle
    limit = 0.5 * games + DRAW * tb.limit
    return {
        n: sum(x.points for x in own.values() if x.opponent and field.score[x.opponent] >= limit)
        for n, own in field.table.items()
    }


def _met(field: _Field, tb: Tiebreak) -> dict[int, list[tuple[int, float]]] | None:
    """Each player's games over the board as (the opponent's rating, the points taken),
    without the ``/C`` lowest-rated and ``/M`` highest-rated opponents (C.07 10.1: only
    games played count); None when a player has no rating."""
    rating = _ratings(field, tb)
    if rating is None:
        return None
    found: dict[int, list[tuple[int, float]]] = {}
    for n, own in field.table.items():
        met = sorted(
            (rating[x.opponent], x.points) for x in own.values() if x.played and x.opponent
        )
        met = met[min(tb.cut_low, len(met)) :]
        found[n] = met[: len(met) - min(tb.cut_high, len(met))]
    return found


def _rated(
    compute: Callable[[Fraction, list[int]], int | None],
) -> Callable[[_Field, Tiebreak], dict[int, Value]]:
    """A tie-break computed from each player's points and opponents' ratings."""

    def values(field: _Field, tb: Tiebreak) -> dict[int, Value]:
        met = _met(field, tb)
        if met is None:
            return dict.fromkeys(field.table)
        found: dict[int, Value] = {}
        for n, games in met.items():
            points = Fraction(sum(Fraction(p) for _, p in games))
            value = compute(points, [r for r, _ in games])
            found[n] = None if value is None else float(value)
        return found

    return values


def _opponents_average(code: str) -> Callable[[_Field, Tiebreak], dict[int, Value]]:
    """APRO and APPO (C.07 10.4, 10.5): the average, rounded half up, of the opponents'
    ``code`` over the games played over the board (an opponent without one not counted)."""

    def values(field: _Field, tb: Tiebreak) -> dict[int, Value]:
        theirs = _VALUES[code](field, Tiebreak(code, unrated=tb.unrated))
        found: dict[int, Value] = {}
        for n, own in field.table.items():
            met = [theirs[x.opponent] for x in own.values() if x.played and x.opponent]
            numbers = [int(v) for v in met if v is not None]
            average = average_rating(numbers)
            found[n] = None if average is None else float(average)
        return found

    return values


_VALUES: dict[str, Callable[[_Field, Tiebreak], dict[int, Value]]] = {
    "WIN": _count(lambda x: x.points >= 1.0),
    "WON": _count(lambda x: x.played and x.points >= 1.0),
    "BPG": _count(lambda x: x.played and x.second),
    "BWG": _count(lambda x: x.played and x.second and x.points >= 1.0),
    "REP": _count(lambda x: x.played or x.points >= 1.0),
    "STD": _std,
    "TPN": _tpn,
    "RTNG": _rtng,
    "BH": _bh,
    "FB": _bh,
    "SB": _sb,
    "PS": _ps,
    "KS": _ks,
    "ARO": _rated(lambda _, ratings: average_rating(ratings)),
    "TPR": _rated(performance_rating),
    "PTP": _rated(perfect_performance),
    "APRO": _opponents_average("TPR"),
    "APPO": _opponents_average("PTP"),
}


# --- the standings --------------------------------------------------------------------------


def places(t: Tournament, tiebreaks: Sequence[Tiebreak], *, lots: bool = False) -> list[list[int]]:
    """The players in order: points first, then each tie-break in turn splitting only the
    players still tied; each place is the players nothing separates (by pairing number).
    With ``lots``, the ties the list leaves are broken by :func:`drawing_of_lots`."""
    field = _field(t)
    order: list[list[int]] = _split([sorted(field.table)], {n: field.score[n] for n in field.table})
    for tb in tiebreaks:
        if tb.code == "DE":
            order = [part for tied in order for part in _direct(field, tied)]
            continue
        values = tiebreak_values(t, tb)
        if tb.reverse:
            values = {n: None if v is None else -v for n, v in values.items()}
        order = _split(order, values)
    if lots:
        drawn = drawing_of_lots(t)
        order = [[n] for tied in order for n in sorted(tied, key=drawn.__getitem__)]
    return order


def ranks(t: Tournament, tiebreaks: Sequence[Tiebreak], *, lots: bool = False) -> dict[int, int]:
    """Each player's rank (1 the first; players nothing separates share one, unless
    ``lots`` draws lots between them)."""
    found: dict[int, int] = {}
    before = 0
    for place in places(t, tiebreaks, lots=lots):
        for n in place:
            found[n] = before + 1
        before += len(place)
    return found


def drawing_of_lots(t: Tournament) -> dict[int, str]:
    """Each player's lot, the lower drawn first (C.07: a tie the list leaves may be broken
    by drawing lots). The draw is seeded by the tournament itself, its players and every
    game and bye, so that drawing again gives the same order (FIDE's checklist asks it) and
    nobody can choose a seed: the lot is the SHA-256 of the tournament's description and the
    player's pairing number."""
    lines = [f"player {p.number} {p.name} {p.rating}" for p in sorted(t.players, key=_number)]
    lines += [f"game {g.round} {g.first} {g.second} {g.result}" for g in sorted(t.games, key=_at)]
    lines += [f"bye {b.round} {b.player} {b.kind} {b.points}" for b in sorted(t.byes, key=_at)]
    seed = hashlib.sha256("\n".join(lines).encode("utf-8", "surrogatepass")).hexdigest()
    return {p.number: hashlib.sha256(f"{seed} {p.number}".encode()).hexdigest() for p in t.players}


def _number(player: Player) -> int:
    return player.number


def _at(item: Game | Bye) -> tuple[int, int]:
    return (item.round, item.first if isinstance(item, Game) else item.player)


def _split(order: list[list[int]], values: Mapping[int, Value]) -> list[list[int]]:
    """Each place split by ``values``, the highest first. A player without a value (no
    game over the board to average, every one cut) comes below those with one, as gacrux
    ranks them; where nobody has one (a rating tie-break with an unrated player), the
    tie-break separates nobody."""
    out: list[list[int]] = []
    for tied in order:
        ranked = sorted(tied, key=lambda n: (values[n] is None, -(values[n] or 0.0), n))
        for n in ranked:
            if out and out[-1][0] in tied and values[out[-1][0]] == values[n]:
                out[-1].append(n)
            else:
                out.append([n])
    return out


def _direct(field: _Field, tied: list[int]) -> list[list[int]]:
    """Direct encounter (C.07 6) among ``tied``, again within every smaller tie it leaves:
    the points each scored against the others (forfeits count in a round robin, where the
    pairing was fixed). In a Swiss where some of them did not meet, a player goes above the
    rest only when none of the rest could reach their points by winning every game not
    played; a round robin's table pairs them all, so their points order them even before
    its last round."""
    if len(tied) < 2:
        return [tied]
    members = set(tied)
    score: dict[int, float] = {}
    unmet: dict[int, int] = {}
    for n in tied:
        met: dict[int, list[float]] = {}
        for x in field.table[n].values():
            counts = x.played or (field.robin and x.opponent is not None)
            if counts and x.opponent in members:
                met.setdefault(x.opponent, []).append(x.points)
        score[n] = sum(sum(v) / len(v) for v in met.values())
        unmet[n] = len(members) - 1 - len(met)
    if field.robin or not any(unmet.values()):
        parts = _split([sorted(tied)], {n: score[n] for n in tied})
    else:
        ranked = sorted(tied, key=lambda n: (-score[n], n))
        parts = []
        while len(ranked) > 1 and all(score[ranked[0]] > score[q] + unmet[q] for q in ranked[1:]):
            parts.append([ranked.pop(0)])
        parts.append(sorted(ranked))
    if len(parts) == 1:
        return parts
    return [sub for part in parts for sub in _direct(field, part)]


def rank_differences(
    t: Tournament, stated: Mapping[int, int], tiebreaks: Sequence[Tiebreak]
) -> tuple[str, ...]:
    """Each player whose ``stated`` rank is not the one the points and ``tiebreaks`` give, in
    words. Players nothing separates may be given any of the ranks they share (a file may
    have drawn lots between them), or all the first of them."""
    problems: list[str] = []
    before = 0
    for place in places(t, tiebreaks):
        first, last = before + 1, before + len(place)
        for n in place:
            rank = stated.get(n)
            if rank is not None and not first <= rank <= last:
                should = str(first) if first == last else f"{first}-{last}"
                problems.append(f"player {n}: rank {rank} in the file, {should} by the standings")
        before = last
    return tuple(problems)
