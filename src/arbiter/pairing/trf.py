"""FIDE's Tournament Report File, read and written (``spec/pairings.md``, "TRF").

The reader takes TRF-16, TRF(x) (JaVaFo's ``XX`` codes) and TRF-2026, with any of the three
line ends, and gives a :class:`~arbiter.pairing.values.Tournament`, or a :class:`TrfError`
naming the line, a stable code and what is wrong. It refuses what arbiter cannot pair
rather than pair it wrongly: accelerations, prohibited pairings, abnormal points, other
point systems, team events. The writer gives a file that both TRF-2026 readers and the
older TRF(x) readers take, its lines ending with a line feed.

Everything here is plain text in, plain values out: the engines read the same text
(:mod:`arbiter.pairing.dutch`), so what the reader accepts is what the engines are given.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from arbiter.pairing.values import (
    BYE_POINT_CHOICES,
    MAX_NUMBER,
    MAX_ROUNDS,
    REQUESTED_BYE_POINTS,
    Bye,
    ByeKind,
    Colour,
    Game,
    Player,
    Result,
    System,
    Tournament,
)

__all__ = ["TrfError", "points_field", "read_trf", "write_trf"]

MAX_TEXT = 16 * 1024 * 1024
"""The longest text read (16 MiB, some 100,000 players of 150 rounds): the work is linear."""

NAME_WIDTH = 33
FIRST_ROUND_COLUMN = 91  # 0-based: round 1's opponent is in columns 92-95
ROUND_WIDTH = 10

SYSTEM_CODES: dict[str, System] = {
    "FIDE_DUTCH": "dutch",
    "FIDE_DUTCH_2025": "dutch",
    "FIDE_DUTCH_2026": "dutch",
    "FIDE_ROUNDROBIN": "round-robin",
    "BERGER_ROUNDROBIN": "round-robin",
    "FIDE_DOUBLEROUNDROBIN": "double-round-robin",
    "BERGER_DOUBLEROUNDROBIN": "double-round-robin",
}
"""Record 192's codes that arbiter pairs, and the system each names."""

WRITTEN_SYSTEM: dict[System, str] = {
    "dutch": "FIDE_DUTCH",
    "round-robin": "FIDE_ROUNDROBIN",
    "double-round-robin": "FIDE_DOUBLEROUNDROBIN",
}

REFUSED = {
    "250": "accelerated rounds are not supported",
    "XXA": "accelerated rounds are not supported",
    "260": "prohibited pairings are not supported",
    "XXP": "prohibited pairings are not supported",
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

WRITTEN_BYE = {"pairing": "U", "half": "H", "full": "F", "zero": "Z"}

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

WRITTEN_RESULT: dict[Result, tuple[str, str]] = {v: k for k, v in GAME_RESULTS.items()}


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
        if any(p.number == player.number for p in players):
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
    try:
        return Tournament(
            players=tuple(players),
            rounds_planned=reading.rounds,
            games=tuple(games),
            byes=tuple(byes),
            initial_colour=reading.colour,
            bye_points=reading.bye_points,
            system=reading.system,
        )
    except ValueError as err:  # the rounds given are fewer than those played
        raise TrfError(0, "inconsistent", str(err)) from None


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
    for player, (number, points) in stated.items():
        if points is None:
            continue
        done = tournament.points(player, before=tournament.rounds_paired + 1)
        every = tournament.points(player)
        if abs(points - done) > 0.01 and abs(points - every) > 0.01:
            raise TrfError(
                number,
                "points",
                f"columns 81-84: player {player} has {points:g} points, but the results "
                f"give {done:g}",
            )


# --- writing ------------------------------------------------------------------------------


def write_trf(tournament: Tournament, *, name: str, comments: Sequence[str] = ()) -> str:
    """The tournament as a TRF-2026 file that TRF(x) readers also take: ``012`` the
    ``name``, ``062`` the players, ``142`` and ``XXR`` the rounds planned, ``152`` and
    ``XXC`` the initial colour, ``162`` the pairing-allocated bye's points when not a win,
    ``192`` the system, the ``comments`` (each starting with ``###``), then one ``001``
    line per player in order of number, each round's game or bye in its ten columns, and
    ``0000 - Z`` for a withdrawn player in the rounds from the withdrawal to the next one.

    Raises ``ValueError`` for a game without result (TRF has no code for a game in
    progress) or a comment that does not start with ``###``."""
    lines = [f"012 {_printable(name)}", f"062 {len(tournament.players)}"]
    if tournament.rounds_planned is not None:
        lines += [f"142 {tournament.rounds_planned}", f"XXR {tournament.rounds_planned}"]
    if tournament.initial_colour is not None:
        first = tournament.initial_colour == "first"
        lines += [f"152 {'W' if first else 'B'}", f"XXC {'white1' if first else 'black1'}"]
    if tournament.bye_points != 1.0:
        lines.append(f"162  P{tournament.bye_points:>4.1f}")
    if tournament.system is not None:
        lines.append(f"192 {WRITTEN_SYSTEM[tournament.system]}")
    for comment in comments:
        if not comment.startswith("###"):
            raise ValueError(f"a TRF comment line starts with ###: {comment[:40]!r}")
        lines.append(_printable(comment))
    entries = _written_entries(tournament)
    ranks = _ranks(tournament)
    for player in sorted(tournament.players, key=lambda p: p.number):
        lines.append(_player_line(tournament, player, ranks[player.number], entries))
    return "\n".join(lines) + "\n"


def _written_entries(tournament: Tournament) -> dict[tuple[int, int], str]:
    """Each player's round entries, ``NNNN c r``, by (player, round)."""
    entries: dict[tuple[int, int], str] = {}
    for game in tournament.games:
        if game.result is None:
            raise ValueError(
                f"round {game.round}: {game.first} - {game.second} has no result, and TRF "
                "has no code for a game in progress"
            )
        first, second = WRITTEN_RESULT[game.result]
        entries[(game.first, game.round)] = f"{game.second:>4} w {first}"
        entries[(game.second, game.round)] = f"{game.first:>4} b {second}"
    for bye in tournament.byes:
        entries[(bye.player, bye.round)] = f"0000 - {WRITTEN_BYE[bye.kind]}"
    upcoming = tournament.rounds_paired + 1
    if tournament.rounds_planned is not None:
        upcoming = min(upcoming, tournament.rounds_planned)
    for player, start in tournament.withdrawn.items():
        for round_ in range(start, upcoming + 1):
            entries.setdefault((player, round_), "0000 - Z")
    return entries


def _ranks(tournament: Tournament) -> dict[int, int]:
    """Each player's rank by points (ties share a rank, as TRF allows)."""
    points = {p.number: tournament.points(p.number) for p in tournament.players}
    return {n: 1 + sum(1 for v in points.values() if v > mine) for n, mine in points.items()}


def _player_line(
    tournament: Tournament, player: Player, rank: int, entries: dict[tuple[int, int], str]
) -> str:
    """One ``001`` line: number (5-8), name (15-47), rating (49-52), federation (54-56),
    FIDE number (58-68), points (81-84), rank (86-89), then ten columns a round from 92."""
    name = _printable(player.name)[:NAME_WIDTH].ljust(NAME_WIDTH)
    rating = "" if player.rating is None else str(player.rating)
    federation = _printable(player.federation or "")[:3]
    fide_id = _printable(player.fide_id or "")[:11]
    points = tournament.points(player.number)
    head = f"001 {player.number:>4} {'':4} {name} {rating:>4} {federation:>3} {fide_id:>11}"
    head += f" {'':10} {points_field(points)} {rank:>4}"
    last = max((r for (p, r) in entries if p == player.number), default=0)
    rounds = [entries.get((player.number, r), "        ") for r in range(1, last + 1)]
    return (head + "".join(f"  {entry}" for entry in rounds)).rstrip()


def points_field(points: float) -> str:
    """Points as columns 81-84 hold them, four characters whatever the score: ``3.0``,
    ``99.5``; from 100 on, a whole number (`` 100``); a half point from 100 on has no room
    for its decimal, and is left blank (the results say it: a reader sums them)."""
    if points < 100:
        return f"{points:>4.1f}"
    if float(points).is_integer() and points < 10_000:
        return f"{int(points):>4}"
    return " " * 4


def _printable(text: str) -> str:
    """``text`` with every character that is not printable made a space, so that it cannot
    break a line."""
    return "".join(c if c.isprintable() else " " for c in text)
