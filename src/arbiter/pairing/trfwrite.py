"""FIDE's Tournament Report File written (``spec/pairings.md`` §4): one writer for the files
the engines read and the ones people download, so that the two cannot differ.

By default a file is written that both TRF-2026 readers (gacrux) and the older TRF(x)
readers (bbpPairings, JaVaFo) take; a :data:`Dialect` asks for one reader's form where the
two differ (records 162 and 250), and ``line_end`` for the line ends TRF-2026 asks for (a
carriage return). :mod:`arbiter.pairing.trf` reads every form written here.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal, get_args

from arbiter.pairing.values import BYE_LETTERS, Player, Result, System, Tournament

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
) -> str:
    """The tournament as a TRF file: ``012`` the ``name``, ``062`` the players, the rounds
    planned (``142``, ``XXR``), the initial colour (``152``, ``XXC``), the points (``162``),
    the system (``192``), the tie-break list (``212``), the accelerations (``250``) and
    prohibited pairs (``260``), the ``comments`` (each starting with ``###``), then one
    ``001`` line per player in order of number, each round's game or bye in its ten
    columns, and ``0000 - Z`` for a withdrawn player in the rounds from the withdrawal to
    the next one. ``dialect`` says which readers' codes (:data:`Dialect`), ``line_end``
    what ends each line.

    Raises ``ValueError`` for a game without result (TRF has no code for a game in
    progress), a comment that does not start with ``###``, or an unknown dialect or line
    end."""
    if dialect not in DIALECTS or line_end not in LINE_ENDS.values():
        raise ValueError(f"no TRF dialect {dialect!r} with line end {line_end!r}")
    lines = [f"012 {_printable(name)}", f"062 {len(tournament.players)}"]
    lines += _header_lines(tournament, dialect)
    for comment in comments:
        if not comment.startswith("###"):
            raise ValueError(f"a TRF comment line starts with ###: {comment[:40]!r}")
        lines.append(_printable(comment))
    entries = _written_entries(tournament)
    ranks = _ranks(tournament)
    for player in sorted(tournament.players, key=lambda p: p.number):
        lines.append(_player_line(tournament, player, ranks[player.number], entries))
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
        entries[(bye.player, bye.round)] = f"0000 - {BYE_LETTERS[bye.kind]}"
    upcoming = tournament.rounds_paired + 1
    if tournament.rounds_planned is not None:
        upcoming = min(upcoming, tournament.rounds_planned)
    for player, start in tournament.withdrawn.items():
        for round_ in range(start, upcoming + 1):
            entries.setdefault((player, round_), "0000 - Z")
    return entries


def _ranks(tournament: Tournament) -> dict[int, int]:
    """Each player's rank: by the tournament's tie-break list when it has one arbiter
    computes, else by points alone (ties share a rank, as TRF allows)."""
    if tournament.tiebreaks:
        from arbiter.pairing.tiebreaks import parse_tiebreak, ranks

        try:
            listed = [parse_tiebreak(code) for code in tournament.tiebreaks]
        except ValueError:
            listed = []  # a code arbiter does not compute: the points alone
        return ranks(tournament, listed)
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
