"""FIDE's Tournament Report File, read (``spec/pairings.md`` §3); the writer is
:mod:`arbiter.pairing.trfwrite`, whose names are also found here.

The reader takes TRF-16, TRF(x) (JaVaFo's ``XX`` codes) and TRF-2026, with any of the three
line ends, and gives a :class:`~arbiter.pairing.values.Tournament`, or a :class:`TrfError`
naming the line, a stable code and what is wrong. It refuses what arbiter cannot pair
rather than pair it wrongly: abnormal points, other point systems, team events.

Everything here is plain text in, plain values out: the engines read the same text
(:mod:`arbiter.pairing.dutch`), so what the reader accepts is what the engines are given.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field

from arbiter.pairing.trfwrite import (
    DIALECTS,
    LINE_ENDS,
    Dialect,
    points_field,
    write_trf,
)
from arbiter.pairing.values import (
    BYE_POINT_CHOICES,
    MAX_NUMBER,
    MAX_ROUNDS,
    REQUESTED_BYE_POINTS,
    Acceleration,
    Bye,
    ByeKind,
    Colour,
    Game,
    Player,
    Prohibition,
    Result,
    System,
    Tournament,
)

__all__ = [
    "DIALECTS",
    "LINE_ENDS",
    "Dialect",
    "TrfError",
    "points_field",
    "read_ranks",
    "read_trf",
    "write_trf",
]

MAX_TEXT = 16 * 1024 * 1024
"""The longest text read (16 MiB, some 100,000 players of 150 rounds): the work is linear."""

FIRST_ROUND_COLUMN = 91  # 0-based: round 1's opponent is in columns 92-95
ROUND_WIDTH = 10

SYSTEM_CODES: dict[str, System] = {
    "FIDE_DUTCH": "dutch",
    "FIDE_DUTCH_2025": "dutch",
    "FIDE_DUTCH_2026": "dutch",
    "FIDE_ROUNDROBIN": "round-robin",
    "BERGER_ROUNDROBIN": "round-robin",
    "FIDE_DOUBLEROUNDROBIN": "double-round-robin",
    "BERGER_DOUBLEROUNDROBIN": "double-round-robin-plain",
}
"""Record 192's codes that arbiter pairs, and the system each names: ``FIDE_`` double round
robins exchange the last two rounds of the first cycle as C.05 Annex 1 recommends,
``BERGER_`` ones keep the table's order (as gacrux reads them)."""

REFUSED = {
    "299": "abnormal assignment points are not supported",
    "013": "team tournaments are not supported",
    "310": "team tournaments are not supported",
    "320": "team tournaments are not supported",
    "330": "team tournaments are not supported",
    "300": "team tournaments are not supported",
}
"""Records whose meaning arbiter does not implement: pairing without them would be wrong."""

DEFAULT_POINTS = {"W": 1.0, "D": 0.5, "L": 0.0, "A": 0.0, "Z": 0.0}
"""Record 162's result codes and the only points arbiter takes for them (``Z`` is how
bbpPairings writes ``A``); ``P``, the pairing-allocated bye, is the one setting."""

BBP_POINTS = {"BBW": "W", "BBD": "D", "BBL": "L", "BBZ": "Z", "BBF": "A"}

BYE_CODES: dict[str, ByeKind] = {"U": "pairing", "+": "pairing", "H": "half", "F": "full"}
BYE_CODES |= {"Z": "zero", "-": "zero"}
"""A round entry without opponent: its result code and the bye it is (``+`` and ``-``
without opponent are older files' pairing-allocated bye and absence)."""

GAME_CODES = {"1": "1", "0": "0", "=": "=", "+": "+", "-": "-", "W": "1", "L": "0", "D": "="}
"""A round entry with an opponent: its result code as a game's side (W, L and D, games that
lasted less than a move, are games as far as pairing goes)."""

GAME_RESULTS: dict[tuple[str, str], Result] = {
    ("1", "0"): "1-0",
    ("0", "1"): "0-1",
    ("=", "="): "=",
    ("+", "-"): "+-",
    ("-", "+"): "-+",
    ("-", "-"): "--",
}
"""The first seat's and the second seat's codes, and the game's result."""


class TrfError(ValueError):
    """A TRF that cannot be read: ``line`` (1 for the first; 0 for the file as a whole),
    a stable ``code`` and a ``message`` for people."""

    def __init__(self, line: int, code: str, message: str) -> None:
        super().__init__(f"{line}: {code}: {message}")
        self.line = line
        self.code = code
        self.message = message


# --- reading ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Entry:
    """One round of a ``001`` line, as written."""

    line: int
    column: int
    opponent: int | None
    colour: str
    code: str


@dataclass
class _Reading:
    """What the records said so far (the header records come in any order)."""

    rounds: int | None = None
    colour: Colour | None = None
    bye_points: float = 1.0
    system: System | None = None
    accelerations: list[Acceleration] = field(default_factory=list)
    accelerated_by: set[str] = field(default_factory=set)
    xxa_players: set[int] = field(default_factory=set)
    prohibited: list[tuple[int, int | None, int | None, tuple[int, ...]]] = field(
        default_factory=list
    )
    tiebreaks: tuple[str, ...] = ()


def read_trf(text: str) -> Tournament:
    """The tournament of a TRF text. Raises :class:`TrfError` for anything that is not a
    TRF arbiter can pair from, at the line where it is."""
    if len(text) > MAX_TEXT:
        raise TrfError(0, "too-large", f"the file has more than {MAX_TEXT} characters")
    reading = _Reading()
    player_lines: list[tuple[int, str]] = []
    bye_lines: list[tuple[int, str]] = []
    for number, line in enumerate(re.split(r"\r\n|\r|\n", text.removeprefix("\ufeff")), 1):
        code = line[:3]
        if code == "001":
            player_lines.append((number, line))
        elif code == "240":
            bye_lines.append((number, line))
        elif len(line) >= 3:
            _header(reading, number, line)
    if not player_lines:
        raise TrfError(0, "no-players", "the file has no player (001) line")
    return _tournament(reading, player_lines, bye_lines)


def read_ranks(text: str) -> dict[int, int]:
    """The rank each ``001`` line states (columns 86-89), by pairing number; a line whose
    rank is blank or not a number states none. The text is one :func:`read_trf` read."""
    found: dict[int, int] = {}
    for line in re.split(r"\r\n|\r|\n", text.removeprefix("\ufeff")):
        if line.startswith("001"):
            number, rank = line[4:8].strip(), line[85:89].strip()
            if number.isdigit() and rank.isdigit():
                found[int(number)] = int(rank)
    return found


def _header(reading: _Reading, number: int, line: str) -> None:
    """Read one record that is not a player's or a bye's; unknown records are skipped."""
    code, value = line[:3], line[4:].strip()
    if code in REFUSED:
        raise TrfError(number, "unsupported", f"record {code}: {REFUSED[code]}")
    if code in ("142", "XXR"):
        reading.rounds = _whole(number, value, 1, MAX_ROUNDS, "the number of rounds")
    elif code == "152":
        reading.colour = _colour_152(number, value)
    elif code == "XXC":
        _colour_xxc(reading, number, value)
    elif code == "162":
        _points_162(reading, number, line)
    elif code in BBP_POINTS:
        _check_points(number, BBP_POINTS[code], _decimal(number, value))
    elif code == "BBU":
        reading.bye_points = _bye_points(number, _decimal(number, value))
    elif code == "192":
        if value.upper() not in SYSTEM_CODES:
            raise TrfError(number, "unsupported", f"record 192: {value!r} is not paired here")
        reading.system = SYSTEM_CODES[value.upper()]
    elif code in ("250", "XXA"):
        _acceleration(reading, number, line)
    elif code == "260":
        reading.prohibited.append(_prohibited_260(number, line))
    elif code == "XXP":
        players = tuple(_whole(number, w, 1, MAX_NUMBER, "a player") for w in value.split())
        reading.prohibited.append((number, None, None, players))
    elif code in ("202", "212"):
        reading.tiebreaks = _tiebreak_list(code, value)


def _acceleration(reading: _Reading, number: int, line: str) -> None:
    """Record 250 or ``XXA``; a file gives its accelerations one way only, since
    bbpPairings adds an ``XXA`` line's rounds after a 250 line's."""
    code = line[:3]
    reading.accelerated_by.add(code)
    if len(reading.accelerated_by) > 1:
        raise TrfError(number, "mismatch", "accelerations are given by 250 or by XXA, not both")
    if code == "250":
        reading.accelerations.append(_acceleration_250(number, line))
        return
    player = _whole(number, line[4:8].strip(), 1, MAX_NUMBER, "columns 5-8: the player")
    if player in reading.xxa_players:
        raise TrfError(number, "mismatch", f"XXA: player {player} is given twice")
    reading.xxa_players.add(player)
    reading.accelerations += _runs(number, player, line[9:])


def _acceleration_250(number: int, line: str) -> Acceleration:
    """``250 MMMM GGGG RRR RRR PPPP PPPP``: match points (for teams; passed over), game
    points (the virtual points), first and last round, first and last player (a blank last
    one is the first)."""
    text = line.ljust(31)
    if text[4:8].strip():
        _decimal(number, text[4:8])
    points = _decimal(number, text[9:13])
    first_round = _whole(number, text[14:17].strip(), 1, MAX_ROUNDS, "columns 15-17: a round")
    last_text = text[18:21].strip()
    last_round = (
        _whole(number, last_text, 1, MAX_ROUNDS, "columns 19-21: a round")
        if last_text
        else first_round
    )
    first = _whole(number, text[22:26].strip(), 1, MAX_NUMBER, "columns 23-26: a player")
    last_text = text[27:31].strip()
    last = _whole(number, last_text, 1, MAX_NUMBER, "columns 28-31") if last_text else first
    return _made_acceleration(number, Acceleration(first_round, last_round, first, last, points))


def _runs(number: int, player: int, rest: str) -> list[Acceleration]:
    """An ``XXA`` line's points a round, from round 1, as runs of equal points."""
    values = [rest[i : i + 4] for i in range(0, len(rest.rstrip()), 5)]
    points = [_decimal(number, v) if v.strip() else 0.0 for v in values]
    runs: list[Acceleration] = []
    start = 0
    for index in range(1, len(points) + 1):
        if index == len(points) or points[index] != points[start]:
            if points[start]:
                made = Acceleration(start + 1, index, player, player, points[start])
                runs.append(_made_acceleration(number, made))
            start = index
    return runs


def _made_acceleration(number: int, acceleration: Acceleration) -> Acceleration:
    a = acceleration
    if a.first_round > a.last_round or a.first_player > a.last_player:
        raise TrfError(number, "bad-value", "an acceleration's rounds or players are reversed")
    if not 0 < a.points <= MAX_ROUNDS or (2 * a.points) % 1:
        raise TrfError(number, "bad-value", f"an acceleration adds half points, not {a.points}")
    return a


def _prohibited_260(number: int, line: str) -> tuple[int, int | None, int | None, tuple[int, ...]]:
    """``260 RRR RRR PPPP PPPP ...``: the first and last round, then the players."""
    text = line.rstrip()
    first = _whole(number, text[4:7].strip(), 1, MAX_ROUNDS, "columns 5-7: the first round")
    last = _whole(number, text[8:11].strip(), 1, MAX_ROUNDS, "columns 9-11: the last round")
    players = tuple(
        _whole(number, text[start : start + 4].strip(), 1, MAX_NUMBER, "a player")
        for start in range(12, len(text), 5)
    )
    return number, first, last, players


def _tiebreak_list(code: str, value: str) -> tuple[str, ...]:
    """Records 202 (the tie-breaks after the points) and 212 (the ranking list, points
    first): the codes, as written (``BH:C1``, ``SB``), without the points."""
    words = tuple(w for w in value.replace(",", " ").split() if w)
    if code == "212" and words and words[0].upper() in ("PTS", "MPTS", "GPTS"):
        words = words[1:]
    return words


def _whole(number: int, value: str, low: int, high: int, what: str) -> int:
    if not value.isdigit() or not low <= int(value) <= high:
        raise TrfError(number, "bad-value", f"{what} is a whole number from {low} to {high}")
    return int(value)


def _decimal(number: int, value: str) -> float:
    try:
        return float(value)
    except ValueError:
        raise TrfError(number, "bad-value", f"{value!r} is not a number of points") from None


def _colour_152(number: int, value: str) -> Colour:
    if value.upper() not in ("W", "B"):
        raise TrfError(number, "bad-value", "record 152 gives the initial colour as W or B")
    return "first" if value.upper() == "W" else "second"


def _colour_xxc(reading: _Reading, number: int, value: str) -> None:
    for word in value.split():
        if word == "rank":
            raise TrfError(number, "unsupported", "XXC rank: pairing by rank is not supported")
        if word in ("white1", "black1"):
            reading.colour = "first" if word == "white1" else "second"


def _points_162(reading: _Reading, number: int, line: str) -> None:
    """Record 162: each result code at column 6, 15, 24, ... with its points after it."""
    for start in range(5, len(line.rstrip()), 9):
        symbol = line[start].upper()
        points = _decimal(number, line[start + 1 : start + 5])
        if symbol == "P":
            reading.bye_points = _bye_points(number, points)
        elif symbol == "X":
            continue  # an unknown result: arbiter writes none
        elif symbol in DEFAULT_POINTS:
            _check_points(number, symbol, points)
        else:
            raise TrfError(number, "bad-value", f"record 162: {symbol!r} is not a result code")


def _check_points(number: int, symbol: str, points: float) -> None:
    if points != DEFAULT_POINTS[symbol]:
        raise TrfError(
            number,
            "unsupported",
            f"{symbol} is worth {DEFAULT_POINTS[symbol]} here (win 1, draw 0.5, loss 0), "
            f"not {points}",
        )


def _bye_points(number: int, points: float) -> float:
    if points not in BYE_POINT_CHOICES:
        raise TrfError(number, "unsupported", "the pairing-allocated bye is worth 0, 0.5 or 1")
    return points


def _tournament(
    reading: _Reading, player_lines: list[tuple[int, str]], bye_lines: list[tuple[int, str]]
) -> Tournament:
    players: list[Player] = []
    entries: dict[tuple[int, int], _Entry] = {}
    points: dict[int, tuple[int, float | None]] = {}
    for number, line in player_lines:
        player, stated = _player(number, line)
        if player.number in points:
            raise TrfError(number, "duplicate-player", f"player {player.number} is given twice")
        players.append(player)
        points[player.number] = (number, stated)
        for entry_round, entry in _entries(number, line):
            entries[(player.number, entry_round)] = entry
    games, byes = _results(entries, {p.number for p in players}, reading.bye_points)
    byes = _merge_byes(byes, _byes_240(bye_lines, {p.number for p in players}), games)
    tournament = _made(reading, players, games, byes)
    _check_stated_points(tournament, points)
    return tournament


def _made(
    reading: _Reading, players: list[Player], games: list[Game], byes: list[Bye]
) -> Tournament:
    known = {p.number for p in players}
    prohibited = tuple(_prohibition(reading, known, *p) for p in reading.prohibited)
    try:
        return Tournament(
            players=tuple(players),
            rounds_planned=reading.rounds,
            games=tuple(games),
            byes=tuple(byes),
            initial_colour=reading.colour,
            bye_points=reading.bye_points,
            system=reading.system,
            accelerations=tuple(reading.accelerations),
            prohibited=prohibited,
            tiebreaks=reading.tiebreaks,
        )
    except ValueError as err:  # the rounds given are fewer than those played
        raise TrfError(0, "inconsistent", str(err)) from None


def _prohibition(
    reading: _Reading,
    known: set[int],
    number: int,
    first: int | None,
    last: int | None,
    players: tuple[int, ...],
) -> Prohibition:
    """A 260 or ``XXP`` line's prohibition (``XXP``: every round), checked where it is."""
    planned = reading.rounds or MAX_ROUNDS
    code = "XXP" if first is None else "260"
    first, last = first or 1, last or planned
    unknown = [n for n in players if n not in known]
    if unknown:
        raise TrfError(number, "unknown-player", f"record {code}: no player {unknown[0]}")
    if len(players) < 2 or len(set(players)) != len(players):
        raise TrfError(number, "bad-value", f"record {code} names two players or more, each once")
    if not first <= last <= planned:
        raise TrfError(number, "bad-value", f"record {code}: rounds {first}-{last} are not planned")
    return Prohibition(first, last, players)


def _player(number: int, line: str) -> tuple[Player, float | None]:
    """A ``001`` line's player and the points it states (None when blank)."""
    text = line.ljust(FIRST_ROUND_COLUMN)
    pairing_number = _whole(number, text[4:8].strip(), 1, MAX_NUMBER, "columns 5-8: the number")
    rating_text = text[48:52].strip()
    if rating_text and not rating_text.isdigit():
        raise TrfError(number, "bad-value", "columns 49-52: the rating is a whole number")
    stated_text = text[80:84].strip()
    stated = _decimal(number, stated_text) if stated_text else None
    player = Player(
        number=pairing_number,
        name=text[14:47].strip(),
        rating=int(rating_text) if rating_text else None,
        federation=text[53:56].strip() or None,
        fide_id=text[57:68].strip() or None,
    )
    return player, stated


def _entries(number: int, line: str) -> Iterable[tuple[int, _Entry]]:
    """Each round entry of a ``001`` line that says something (a blank one says nothing:
    TRF-2026 reads it as an absence, which is what no entry means here too)."""
    rest = line[FIRST_ROUND_COLUMN:].rstrip()
    if len(rest) > MAX_ROUNDS * ROUND_WIDTH:
        raise TrfError(number, "too-large", f"a player has more than {MAX_ROUNDS} rounds")
    for index in range(0, len(rest), ROUND_WIDTH):
        column = FIRST_ROUND_COLUMN + index + 1
        field = rest[index : index + 8].ljust(8)
        if not field.strip():
            continue
        yield index // ROUND_WIDTH + 1, _entry(number, column, field)


def _entry(number: int, column: int, field: str) -> _Entry:
    where = f"column {column}"
    opponent_text, colour, code = field[:4].strip(), field[5], field[7].upper()
    if opponent_text and not opponent_text.isdigit():
        raise TrfError(number, "bad-entry", f"{where}: {field[:4]!r} is not a player's number")
    opponent = int(opponent_text) if opponent_text and int(opponent_text) else None
    if colour not in "wb- " or field[4] != " " or field[6] != " ":
        raise TrfError(number, "bad-entry", f"{where}: {field!r} is not a round (NNNN c r)")
    if opponent is None:
        if code not in BYE_CODES and code != " ":
            raise TrfError(number, "bad-entry", f"{where}: {code!r} is not a bye (U, H, F, Z)")
        if colour in "wb":
            raise TrfError(number, "bad-entry", f"{where}: a bye has no colour")
    elif code not in GAME_CODES:
        raise TrfError(number, "bad-entry", f"{where}: {code!r} is not a game's result")
    elif colour not in "wb":
        raise TrfError(number, "bad-entry", f"{where}: a game against {opponent} needs w or b")
    return _Entry(number, column, opponent, colour, code)


def _results(
    entries: dict[tuple[int, int], _Entry], known: set[int], bye_points: float
) -> tuple[list[Game], list[Bye]]:
    """The games (each from its two entries, which must agree) and byes of the entries."""
    games: list[Game] = []
    byes: list[Bye] = []
    for (player, round_), entry in sorted(entries.items(), key=lambda item: item[0][::-1]):
        if entry.opponent is None:
            if entry.code != " ":
                kind = BYE_CODES[entry.code]
                worth = bye_points if kind == "pairing" else REQUESTED_BYE_POINTS[kind]
                byes.append(Bye(round_, player, kind, worth))
            continue
        other = _other(entries, known, player, round_, entry)
        if entry.colour == "w":
            result = GAME_RESULTS.get((GAME_CODES[entry.code], GAME_CODES[other.code]))
            if result is None:
                raise TrfError(
                    entry.line,
                    "mismatch",
                    f"round {round_}: {player} has {entry.code!r} and {entry.opponent} has "
                    f"{other.code!r}, which are not one game's result",
                )
            games.append(Game(round_, player, entry.opponent, result))
    return games, byes


def _other(
    entries: dict[tuple[int, int], _Entry], known: set[int], player: int, round_: int, entry: _Entry
) -> _Entry:
    """The opponent's entry of the same round, which must name ``player`` with the other
    colour."""
    assert entry.opponent is not None
    if entry.opponent not in known or entry.opponent == player:
        raise TrfError(
            entry.line, "unknown-opponent", f"round {round_}: no player {entry.opponent} to meet"
        )
    other = entries.get((entry.opponent, round_))
    if other is None or other.opponent != player or other.colour == entry.colour:
        raise TrfError(
            entry.line,
            "mismatch",
            f"round {round_}: {player} meets {entry.opponent} as {entry.colour}, but "
            f"{entry.opponent}'s line does not say {player} with the other colour",
        )
    return other


def _byes_240(lines: list[tuple[int, str]], known: set[int]) -> list[tuple[int, Bye]]:
    """Record 240's byes: the kind in column 5, the round in 7-9, then players in 11-14,
    16-19, and so on."""
    found: list[tuple[int, Bye]] = []
    for number, line in lines:
        kind = {"H": "half", "F": "full", "Z": "zero"}.get(line[4:5].upper())
        if kind is None or len(line) < 11:
            raise TrfError(number, "bad-value", "record 240 is: 240 T RRR NNNN NNNN ...")
        round_ = _whole(number, line[6:9].strip(), 1, MAX_ROUNDS, "columns 7-9: the round")
        for start in range(10, len(line.rstrip()), 5):
            player = _whole(number, line[start : start + 4].strip(), 1, MAX_NUMBER, "a player")
            if player not in known:
                raise TrfError(number, "unknown-player", f"record 240: no player {player}")
            bye_kind: ByeKind = "half" if kind == "half" else "full" if kind == "full" else "zero"
            found.append((number, Bye(round_, player, bye_kind, REQUESTED_BYE_POINTS[bye_kind])))
    return found


def _merge_byes(byes: list[Bye], listed: list[tuple[int, Bye]], games: list[Game]) -> list[Bye]:
    """The ``001`` lines' byes and record 240's: the same bye may be in both, but a 240 bye
    may not contradict a round entry."""
    taken = {(b.player, b.round): b for b in byes}
    taken_games = {(p, g.round) for g in games for p in (g.first, g.second)}
    merged = list(byes)
    for number, bye in listed:
        same = taken.get((bye.player, bye.round))
        if same == bye:
            continue
        if same is not None or (bye.player, bye.round) in taken_games:
            raise TrfError(
                number,
                "mismatch",
                f"record 240: {bye.player} has something else in round {bye.round}",
            )
        taken[(bye.player, bye.round)] = bye
        merged.append(bye)
    return merged


def _check_stated_points(
    tournament: Tournament, stated: dict[int, tuple[int, float | None]]
) -> None:
    """A ``001`` line's points are the sum of its results, through the rounds paired or
    through every round written (a requested bye of the next round counted or not)."""
    paired = tournament.rounds_paired
    done: dict[int, float] = dict.fromkeys(stated, 0.0)
    later: dict[int, float] = dict.fromkeys(stated, 0.0)  # byes after the last round paired
    for game in tournament.games:
        first, second = game.points()
        done[game.first] += first
        done[game.second] += second
    for bye in tournament.byes:
        if bye.round <= paired:
            done[bye.player] += bye.points
        else:
            later[bye.player] += bye.points
    for player, (number, points) in stated.items():
        if points is None:
            continue
        every = done[player] + later[player]
        if abs(points - done[player]) > 0.01 and abs(points - every) > 0.01:
            raise TrfError(
                number,
                "points",
                f"columns 81-84: player {player} has {points:g} points, but the results "
                f"give {done[player]:g}",
            )
