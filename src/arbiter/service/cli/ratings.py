"""``arbiter ratings`` (``spec/ratings.md``, ``spec/cli.md``): every record under the paths
rated, as arbiter adjudicates it or as Abstract Play's job rates it; the ratings on
standard output (a table, ``--json`` or ``--csv``), every record left out on standard
error. Exit status 1 when a file or a record could not be read."""

from __future__ import annotations

import gc
import json
import re
import sys
from collections.abc import Iterator

import click

from arbiter.ratings import COMPAT, Ratings, rate, rate_abstractplay
from arbiter.ratings.values import write_csv
from arbiter.ratings.workers import available_cores
from arbiter.service.cli.streams import Unreadable, expand_paths, open_input

__all__ = ["escape_lone_surrogates", "ratings"]


@click.command("ratings")
@click.argument("paths", nargs=-1, required=True)
@click.option("--compat", type=click.Choice(COMPAT), help="Rate as this server rates.")
@click.option("--json", "as_json", is_flag=True, help="One JSON document.")
@click.option("--csv", "as_csv", is_flag=True, help="CSV, one row per player and pool.")
@click.option(
    "--no-check", "no_check", is_flag=True,
    help="With --compat abstractplay: do not adjudicate the Pletore records rated.",
)  # fmt: skip
@click.option(
    "--jobs", "-j", type=click.IntRange(1, 64), default=None,
    help="Processes sharing the replays (default: one per core); the output is the same.",
)  # fmt: skip
def ratings(
    paths: tuple[str, ...],
    compat: str | None,
    as_json: bool,
    as_csv: bool,
    no_check: bool,
    jobs: int | None,
) -> None:
    """Rate every record under PATHS: Elo, Glicko-2 and TrueSkill, pool by pool."""
    if as_json and as_csv:
        raise click.UsageError("--json and --csv cannot be used together")
    files, failed = _files(paths)
    workers = available_cores() if jobs is None else jobs
    enabled = gc.isenabled()
    gc.disable()  # one short run over many small values, none of them garbage
    try:
        found = (
            rate_abstractplay(files, check=not no_check, jobs=workers)
            if compat
            else rate(files, jobs=workers)
        )
    finally:  # a program that calls the command (a test, a script) keeps its collector
        if enabled:
            gc.enable()
    text = _json(found) if as_json else _csv(found) if as_csv else _table(found)
    sys.stdout.write(escape_lone_surrogates(text))
    for exclusion in found.excluded:
        where = (
            exclusion.file
            if exclusion.index is None
            else f"{exclusion.file}:record {exclusion.index}"
        )
        raters = "" if len(exclusion.raters) == 3 else f" ({', '.join(exclusion.raters)})"
        line = f"arbiter: {where}: {exclusion.reason}{raters}: {exclusion.message}"
        click.echo(escape_lone_surrogates(line), err=True)
    unreadable = any(e.reason == "unreadable" for e in found.excluded)
    sys.exit(1 if failed or unreadable else 0)


def _files(paths: tuple[str, ...]) -> tuple[Iterator[tuple[str, bytes]], list[str]]:
    failed: list[str] = []

    def read() -> Iterator[tuple[str, bytes]]:
        for path in expand_paths(paths):
            if isinstance(path, Unreadable):
                failed.append(path.path)
                click.echo(f"arbiter: {path.path}: cannot read: {path.reason}", err=True)
                continue
            try:
                with open_input(path) as stream:
                    data = stream.read()
            except OSError as error:
                failed.append(path)
                click.echo(f"arbiter: {path}: cannot read: {error.strerror or error}", err=True)
                continue
            yield ("<stdin>" if path == "-" else path), data

    return read(), failed


_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def escape_lone_surrogates(text: str) -> str:
    """The text with each lone surrogate written ``\\udXXX``, as JSON escapes it.

    Abstract Play's own reader keeps a name or user id holding half a surrogate pair
    (JavaScript strings may), so ``--compat abstractplay`` rates such a player; UTF-8
    has no bytes for it, so it is written as the escape a JSON document would hold
    (``JSON.stringify`` writes the same), in the table and the CSV too."""
    if text.isascii():
        return text
    return _LONE_SURROGATE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def _json(found: Ratings) -> str:
    return json.dumps(found.to_dict(), ensure_ascii=False) + "\n"


def _csv(found: Ratings) -> str:
    return write_csv(found.pools)


def _table(found: Ratings) -> str:
    lines = []
    for pool in found.pools:
        lines.append(f"{pool.pool}: {pool.rated} games rated")
        for p in sorted(pool.players, key=lambda p: -(p.elo or 0)):
            g, t = p.glicko, p.trueskill
            glicko = "" if g is None else f"{g.rating:7.1f} ±{g.rd:5.1f}"
            skill = "" if t is None else f"{t.mu:6.2f} ±{t.sigma:5.2f}"
            lines.append(
                f"  {p.name or p.player:<24} {p.games:>4} games  "
                f"+{p.wins} ={p.draws} -{p.losses}  Elo {p.elo or 0:7.1f}  "
                f"Glicko {glicko}  TrueSkill {skill}"
            )
    for note in found.notes:
        lines.append(
            f"note: {note.file}:record {note.index}: rated as {note.recorded}, "
            f"arbiter: {note.adjudicated} ({note.message})"
        )
    return "\n".join(lines) + ("\n" if lines else "")
