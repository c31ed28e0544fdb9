"""The ``arbiter pair`` command (``spec/cli.md``, ``spec/pairings.md``).

It reads one TRF with :func:`arbiter.pairing.read_trf`, pairs the round after the last one
in it (or, with ``--check``, pairs every round again and lists those that differ), and
writes the boards as text or JSON. With ``--generate`` it reads nothing and writes a whole
random tournament as TRF (:mod:`arbiter.pairing.generate`). A file that cannot be paired
from is one located line on standard error, ``FILE:LINE: code: message``, and exit status 1.
"""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass
from typing import Any, NoReturn

import click

from arbiter.pairing import (
    SYSTEMS,
    Limits,
    Pairing,
    PairingError,
    RoundDifference,
    System,
    Tournament,
    TrfError,
    check,
    pair,
    read_trf,
)
from arbiter.pairing.generate import Settings, generate
from arbiter.pairing.tiebreaks import parse_tiebreaks, rank_differences, ranks
from arbiter.pairing.trf import DIALECTS, LINE_ENDS, MAX_TEXT, Dialect, read_ranks, write_trf
from arbiter.service.cli.streams import open_input

MAX_BYTES = MAX_TEXT * 4
"""The most bytes read from a file: a UTF-8 character takes at most four."""


@click.command("pair")
@click.argument("path", required=False)
@click.option(
    "--system",
    type=click.Choice(SYSTEMS),
    help="dutch, round-robin, double-round-robin or double-round-robin-plain (the last two "
    "rounds of the first cycle in the table's order) [default: the file's 192 record, or "
    "dutch].",
)
@click.option("--check", "checking", is_flag=True, help="Check every round of the file instead.")
@click.option("--json", "as_json", is_flag=True, help="As JSON.")
@click.option("--tiebreaks", "tiebreak_list", default=None, metavar="LIST",
              help="--check: the tie-break list the ranks follow, FIDE codes (BH/C1,BH,SB) "
              "[default: the file's 202/212, else the points alone]; --generate: the list "
              "the ranks are written by [default: the system's].")  # fmt: skip
@click.option("--max-seconds", type=click.FloatRange(min=0.1), default=None,
              help="Stop the Dutch engine after this many seconds (it then runs in a process "
              "of its own) [default: no limit].")  # fmt: skip
@click.option("--max-memory", type=click.IntRange(min=64), default=None, metavar="MB",
              help="Stop the Dutch engine past this many MiB of memory [default: no "
              "limit].")  # fmt: skip
@click.option("--generate", "generating", is_flag=True,
              help="Write a random tournament as TRF instead (no PATH).")  # fmt: skip
@click.option("--players", type=click.IntRange(2, 2000), default=None,
              help="--generate: the players.")  # fmt: skip
@click.option("--rounds", type=click.IntRange(1, 999), default=None,
              help="--generate: the rounds.")  # fmt: skip
@click.option("--seed", type=int, default=1, show_default=True, help="--generate: the seed.")
@click.option("--baku", is_flag=True, help="--generate: Baku acceleration (C.04.5.1).")
@click.option("--prohibited", type=click.IntRange(min=0), default=0, show_default=True,
              help="--generate: pairs of players who may not meet.")  # fmt: skip
@click.option("--half-byes", type=click.FloatRange(0, 100), default=0.0, metavar="PCT",
              help="--generate: percent of half-point byes asked for.")  # fmt: skip
@click.option("--zero-byes", type=click.FloatRange(0, 100), default=0.0, metavar="PCT",
              help="--generate: percent of absences (zero-point byes).")  # fmt: skip
@click.option("--forfeits", type=click.FloatRange(0, 100), default=0.0, metavar="PCT",
              help="--generate: percent of games won by forfeit.")  # fmt: skip
@click.option("--full-byes", type=click.FloatRange(0, 100), default=0.0, metavar="PCT",
              help="--generate: percent of full-point byes asked for.")  # fmt: skip
@click.option("--dialect", type=click.Choice(DIALECTS[1:]), default="trf-2026",
              show_default=True, help="--generate: TRF-2026 as gacrux reads it, or what "
              "bbpPairings reads.")  # fmt: skip
@click.option("--line-ends", type=click.Choice(tuple(LINE_ENDS)), default="cr",
              show_default=True, help="--generate: the line ends (TRF-2026: cr).")  # fmt: skip
@click.option("--lots", is_flag=True,
              help="--generate: the ranks break the ties the list leaves by drawing lots, "
              "seeded by the tournament (the same draw every time).")  # fmt: skip
def pair_command(
    path: str | None, system: System | None, checking: bool, as_json: bool,
    tiebreak_list: str | None, max_seconds: float | None, max_memory: int | None, generating: bool,
    players: int | None, rounds: int | None, seed: int, baku: bool, prohibited: int,
    half_byes: float, zero_byes: float, forfeits: float, full_byes: float, dialect: Dialect,
    line_ends: str, lots: bool,
) -> None:  # fmt: skip
    """Pair the round after the last one in the TRF file PATH (- for standard input).

    Text lists the boards by pairing number, first seat first; --json gives
    {"round", "boards": [{"board", "first", "second"}], "bye"}. With --check, every round of
    the file is paired again from the rounds before it, and each round that differs
    (colours included) is listed, then each player whose rank in the file is not the one
    the tie-break list gives; the exit status is then 1. With --generate (and
    --players, --rounds), a random tournament is written as TRF on standard output."""
    if generating:
        if path is not None or checking or players is None or rounds is None:
            raise click.UsageError("--generate takes --players and --rounds, and no PATH")
        listed = None if tiebreak_list is None else tuple(tiebreak_list.replace(",", " ").split())
        settings = Settings(
            players, rounds, seed, baku, prohibited, half_byes, zero_byes, forfeits,
            system or "dutch", full_byes, listed,
        )  # fmt: skip
        _generated(settings, dialect, LINE_ENDS[line_ends], lots)
        return
    if lots:
        raise click.UsageError("--lots goes with --generate")
    if path is None:
        raise click.UsageError("Missing argument 'PATH'.")
    text = _text(path)
    tournament = _read(path, text)
    chosen: System = system or tournament.system or "dutch"
    try:
        if checking:
            differences = check(tournament, chosen)
            standings = _standings(path, tournament, text, chosen, tiebreak_list)
            click.echo(_check_text(tournament, chosen, differences, standings, as_json), nl=False)
            sys.exit(1 if differences or standings.problems else 0)
        limits = None
        if max_seconds is not None or max_memory is not None:
            limits = Limits(
                seconds=max_seconds if max_seconds is not None else 10**9,
                memory=(max_memory if max_memory is not None else 2**20) * 2**20,
            )
        found = pair(tournament, chosen, limits=limits)
    except PairingError as err:
        _fail(path, 0, err.code, err.message)
    click.echo(json.dumps(pairing_document(found)) if as_json else pairing_text(found, chosen))


def _generated(settings: Settings, dialect: Dialect, line_end: str, lots: bool) -> None:
    """Write the tournament of ``settings`` on standard output, or say why not (a usage
    error for settings that cannot be, exit status 1 for a round with no pairing)."""
    problem = settings.problem()
    if problem is not None:
        raise click.UsageError(problem)
    try:
        made = generate(settings)
    except PairingError as err:
        _fail("--generate", 0, err.code, err.message)
    name = f"Random {settings.system} tournament (seed {settings.seed})"
    drawn = ranks(made, parse_tiebreaks(made.tiebreaks, made.system), lots=True) if lots else None
    text = write_trf(made, name=name, dialect=dialect, line_end=line_end, ranks=drawn)
    click.echo(text.encode("utf-8"), nl=False)  # bytes: the line ends as written


@dataclass(frozen=True, slots=True)
class Standings:
    """What the check of a file's ranks found: the tie-breaks used, where they came from
    (``file``, ``option`` or ``points``: none given), and each player placed otherwise."""

    tiebreaks: tuple[str, ...]
    source: str
    problems: tuple[str, ...]


def _standings(
    path: str, tournament: Tournament, text: str, system: System, given: str | None
) -> Standings:
    """The ranks of the file's ``001`` lines checked against its tie-break list (records
    202/212), or the one given with ``--tiebreaks``, or the points alone."""
    codes = tournament.tiebreaks
    source = "file" if codes else "points"
    if given is not None:
        codes, source = tuple(c for c in given.replace(",", " ").split() if c), "option"
    try:
        listed = parse_tiebreaks(codes, system)
    except ValueError as err:
        _fail(path, 0, "tiebreaks", str(err))
    problems = rank_differences(tournament, read_ranks(text), listed)
    return Standings(tuple(str(t) for t in listed), source, problems)


def _text(path: str) -> str:
    """The file's text, or a located error and exit status 1."""
    try:
        with open_input(path) as stream:
            data = stream.read(MAX_BYTES + 1)
    except OSError as err:
        _fail(path, 0, "io-error", err.strerror or str(err))
    if len(data) > MAX_BYTES:
        _fail(path, 0, "too-large", f"the file has more than {MAX_BYTES} bytes")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return data.decode("latin-1")  # TRF-16 files from older programs


def _read(path: str, text: str) -> Tournament:
    """The tournament of the file's text, or a located error and exit status 1."""
    try:
        return read_trf(text)
    except TrfError as err:
        _fail(path, err.line, err.code, err.message)


def _fail(path: str, line: int, code: str, message: str) -> NoReturn:
    where = f"{path}:{line}" if line else path
    click.echo(f"arbiter: {where}: {code}: {message}", err=True)
    sys.exit(1)


def pairing_document(found: Pairing) -> dict[str, Any]:
    """A pairing as JSON: the round, its boards, and who has the pairing-allocated bye."""
    return {
        "round": found.round,
        "boards": [{"board": b.board, "first": b.first, "second": b.second} for b in found.boards],
        "bye": found.bye,
    }


def pairing_text(found: Pairing, system: System) -> str:
    """A pairing as lines: a title, then one line a board, ``  1:   12 - 7``."""
    lines = [f"round {found.round} ({system}): {len(found.boards)} board(s)"]
    width = max((len(str(p)) for b in found.boards for p in (b.first, b.second)), default=1)
    lines += [
        f"{b.board:>4}: {b.first:>{width}} - {b.second:<{width}}".rstrip() for b in found.boards
    ]
    for bye in found.byes:
        lines.append(f"bye: {bye.player} ({bye.points:g} point(s))")
    return "\n".join(lines)


def _check_text(
    tournament: Tournament,
    system: System,
    differences: list[RoundDifference],
    standings: Standings,
    as_json: bool,
) -> str:
    if as_json:
        document = {
            "system": system,
            "rounds": tournament.rounds_paired,
            "standings": {
                "tiebreaks": list(standings.tiebreaks),
                "from": standings.source,
                "problems": list(standings.problems),
            },
            "differences": [
                {
                    "round": d.round,
                    "problems": list(d.problems),
                    "expected": None if d.expected is None else pairing_document(d.expected),
                    "played": pairing_document(d.actual),
                }
                for d in differences
            ],
        }
        return json.dumps(document, indent=2) + "\n"
    lines = [f"round {d.round}: " + "; ".join(d.problems) for d in differences]
    rounds = tournament.rounds_paired
    if differences:
        lines.append(f"{len(differences)} of {rounds} round(s) differ from {system}")
    else:
        lines.append(f"all {rounds} round(s) agree with {system}")
    lines += [f"standings: {problem}" for problem in standings.problems]
    by = "PTS," + ",".join(standings.tiebreaks) if standings.tiebreaks else "points alone"
    verdict = (
        f"{len(standings.problems)} player(s) placed otherwise" if standings.problems else "agree"
    )
    lines.append(f"standings by {by} ({standings.source}): {verdict}")
    return "\n".join(lines) + "\n"
