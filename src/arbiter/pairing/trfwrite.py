"""FIDE's Tournament Report File written (``spec/pairings.md`` §4): the one writer of every
TRF arbiter makes, the files the engines read and the ones people download (``arbiter
pair``, the standings' ``--format trf``, an event's export), so that they cannot differ.

By default a file is written that both TRF-2026 readers (gacrux) and the older TRF(x)
readers (bbpPairings, JaVaFo) take; a :data:`Dialect` asks for one reader's form where the
two differ (records 162 and 250), and ``line_end`` for the line ends TRF-2026 asks for (a
carriage return). :mod:`arbiter.pairing.trf` reads every form written here.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Literal, get_args

from arbiter.pairing.values import BYE_LETTERS, MAX_NUMBER, Player, Result, System, Tournament

__all__ = ["DIALECTS", "LINE_ENDS", "Dialect", "points_field", "write_trf"]

Dialect = Literal["shared", "trf-2026", "bbp"]
"""How a file is written where its readers differ. ``shared``: what both TRF-2026 readers
(gacrux) and TRF(x) readers (bbpPairings, JaVaFo) take, each record in both codes where
both exist. ``trf-2026``: record 162 in full (``A``, ``X`` included) and record 250 with
its match points, as TRF-2026 and gacrux write them; bbpPairings refuses both. ``bbp``:
the TRF(x) codes bbpPairings reads (``XXR``, ``XXC``, 162 with ``Z``, 250 without match
points, 192 only for the Dutch system), which gacrux also reads."""

DIALECTS: tuple[Dialect, ...] = get_args(Dialect)

LINE_ENDS = {"cr": "\r", "lf": "\n", "crlf": "\r\n"}
"""The line ends a file may be written with, by name (TRF-2026, Remark 1: a carriage
return)."""

NAME_WIDTH = 33

WRITTEN_SYSTEM: dict[System, str] = {
    "dutch": "FIDE_DUTCH",
    "round-robin": "FIDE_ROUNDROBIN",
    "double-round-robin": "FIDE_DOUBLEROUNDROBIN",
    "double-round-robin-plain": "BERGER_DOUBLEROUNDROBIN",
}


WRITTEN_RESULT: dict[Result, tuple[str, str]] = {
    "1-0": ("1", "0"),
    "0-1": ("0", "1"),
    "=": ("=", "="),
    "+-": ("+", "-"),
    "-+": ("-", "+"),
    "--": ("-", "-"),
}
"""Each result as the first seat's and the second seat's codes."""


def write_trf(
    tournament: Tournament,
    *,
    name: str,
    comments: Sequence[str] = (),
    dialect: Dialect = "shared",
    line_end: str = "\n",
    ranks: Mapping[int, int] | None = None,
) -> str:
    """The tournament as a TRF file: ``012`` the ``name``, ``062`` the players, the rounds
    planned (``142``, ``XXR``), the initial colour (``152``, ``XXC``), the points (``162``),
    the system (``192``), the tie-break list (``212``), the accelerations (``250``) and
    prohibited pairs (``260``), the ``comments`` (each starting with ``###``), then one
    ``001`` line per player in order of number, each round's game or bye in its ten
    columns, and ``0000 - Z`` for a withdrawn player in the rounds from the withdrawal to
    the next one. ``dialect`` says which readers' codes (:data:`Dialect`), ``line_end``
    what ends each line. ``ranks`` is each player's rank (columns 86-89) in the standings
    the file goes with, by pairing number; without it the rank is the tournament's own
    (:func:`_ranks`).

    Raises ``ValueError`` for a game without result (TRF has no code for a game in
    progress), a comment that does not start with ``###``, an unknown dialect or line end,
    or ``ranks`` without a rank from 1 to 9999 for every player."""
    if dialect not in DIALECTS or line_end not in LINE_ENDS.values():
        raise ValueError(f"no TRF dialect {dialect!r} with line end {line_end!r}")
    lines = [f"012 {_printable(name)}", f"062 {len(tournament.players)}"]
    lines += _header_lines(tournament, dialect)
    for comment in comments:
        if not comment.startswith("###"):
            raise ValueError(f"a TRF comment line starts with ###: {comment[:40]!r}")
        lines.append(_printable(comment))
    entries = _written_entries(tournament)
    points = _points(tournament)
    ranked = _ranks(tournament, points) if ranks is None else _given_ranks(tournament, ranks)
    for player in sorted(tournament.players, key=lambda p: p.number):
        own = entries.get(player.number, {})
        lines.append(_player_line(player, points[player.number], ranked[player.number], own))
    return line_end.join(lines) + line_end


def _header_lines(t: Tournament, dialect: Dialect) -> list[str]:
    """The records before the players, in the codes of ``dialect``."""
    lines: list[str] = []
    bbp = dialect == "bbp"
    if t.rounds_planned is not None:
        lines += ([] if bbp else [f"142 {t.rounds_planned}"]) + [f"XXR {t.rounds_planned}"]
    if t.initial_colour is not None:
        first = t.initial_colour == "first"
        lines += [] if bbp else [f"152 {'W' if first else 'B'}"]
        lines.append(f"XXC {'white1' if first else 'black1'}")
    lines += _points_lines(t, dialect)
    if t.system is not None and (not bbp or t.system == "dutch"):
        lines.append(f"192 {WRITTEN_SYSTEM[t.system]}")
    if t.tiebreaks and not bbp:
        lines.append("212 PTS," + ",".join(t.tiebreaks))
    match = dialect == "trf-2026"
    for a in t.accelerations:
        points = f"{a.points:>4.1f}"
        lines.append(
            f"250 {points if match else '':>4} {points} {a.first_round:>3} {a.last_round:>3} "
            f"{a.first_player:>4} {a.last_player:>4}"
        )
    for p in t.prohibited:
        players = " ".join(f"{n:>4}" for n in p.players)
        lines.append(f"260 {p.first_round:>3} {p.last_round:>3} {players}")
    return lines


def _points_lines(t: Tournament, dialect: Dialect) -> list[str]:
    """Record 162: in full for ``trf-2026`` (``A`` the forfeit loss and zero-point bye, ``X``
    an unknown result) and ``bbp`` (``Z`` for ``A``; bbpPairings refuses ``X``); in the
    shared form only the pairing-allocated bye's points, when not a win."""
    bye = f"{t.bye_points:>4.1f}"
    if dialect == "trf-2026":
        return [f"162  W 1.0    D 0.5    L 0.0    A 0.0    P{bye}    X 0.0"]
    if dialect == "bbp":
        return [f"162  W 1.0    D 0.5    L 0.0    Z 0.0    P{bye}"]
    return [f"162  P{bye}"] if t.bye_points != 1.0 else []


def _written_entries(tournament: Tournament) -> dict[int, dict[int, str]]:
    """Each player's round entries, ``NNNN c r``, by player and round."""
    entries: dict[int, dict[int, str]] = {}
    for game in tournament.games:
        if game.result is None:
            raise ValueError(
                f"round {game.round}: {game.first} - {game.second} has no result, and TRF "
                "has no code for a game in progress"
            )
        first, second = WRITTEN_RESULT[game.result]
        entries.setdefault(game.first, {})[game.round] = f"{game.second:>4} w {first}"
        entries.setdefault(game.second, {})[game.round] = f"{game.first:>4} b {second}"
    for bye in tournament.byes:
        entries.setdefault(bye.player, {})[bye.round] = f"0000 - {BYE_LETTERS[bye.kind]}"
    upcoming = tournament.rounds_paired + 1
    if tournament.rounds_planned is not None:
        upcoming = min(upcoming, tournament.rounds_planned)
    for player, start in tournament.withdrawn.items():
        for round_ in range(start, upcoming + 1):
            entries.setdefault(player, {}).setdefault(round_, "0000 - Z")
    return entries


def _points(tournament: Tournament) -> dict[int, float]:
    """Each player's points from every game and bye written (what
    :meth:`~arbiter.pairing.values.Tournament.points` gives, in one pass)."""
    points = {p.number: 0.0 for p in tournament.players}
    for game in tournament.games:
        first, second = game.points()
        points[game.first] += first
        points[game.second] += second
    for bye in tournament.byes:
        points[bye.player] += bye.points
    return points


def _given_ranks(tournament: Tournament, ranks: Mapping[int, int]) -> dict[int, int]:
    """The ranks given, checked: one for every player, each of TRF's four columns."""
    for player in tournament.players:
        rank = ranks.get(player.number)
        if rank is None or not 1 <= rank <= MAX_NUMBER:
            raise ValueError(f"player {player.number} has no rank from 1 to {MAX_NUMBER}")
    return {p.number: ranks[p.number] for p in tournament.players}


def _ranks(tournament: Tournament, points: Mapping[int, float]) -> dict[int, int]:
    """Each player's rank: by the tournament's tie-break list when it has one arbiter
    computes, else by points alone (ties share a rank, as TRF allows)."""
    if tournament.tiebreaks:
        from arbiter.pairing.tiebreaks import parse_tiebreak, ranks

        try:
            listed = [parse_tiebreak(code) for code in tournament.tiebreaks]
        except ValueError:
            listed = []  # a code arbiter does not compute: the points alone
        return ranks(tournament, listed)
    ranked: dict[int, int] = {}
    rank, previous = 0, -1.0
    for place, (number, mine) in enumerate(sorted(points.items(), key=lambda i: -i[1]), 1):
        if mine != previous:
            rank, previous = place, mine
        ranked[number] = rank
    return ranked


def _player_line(player: Player, points: float, rank: int, entries: dict[int, str]) -> str:
    """One ``001`` line: number (5-8), name (15-47), rating (49-52), federation (54-56),
    FIDE number (58-68), points (81-84), rank (86-89), then ten columns a round from 92."""
    name = _printable(player.name)[:NAME_WIDTH].ljust(NAME_WIDTH)
    rating = "" if player.rating is None else str(player.rating)
    federation = _printable(player.federation or "")[:3]
    fide_id = _printable(player.fide_id or "")[:11]
    head = f"001 {player.number:>4} {'':4} {name} {rating:>4} {federation:>3} {fide_id:>11}"
    head += f" {'':10} {points_field(points)} {rank:>4}"
    rounds = [entries.get(r, "        ") for r in range(1, max(entries, default=0) + 1)]
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
