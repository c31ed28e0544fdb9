"""The ``arbiter`` command line (``spec/cli.md``): adjudicate, validate, convert, games, serve.

Results go to stdout, diagnostics to stderr. Exit status: 0 when every record is valid, 1
when any record is not (or a file cannot be read), 2 for a usage error.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import BinaryIO

import click

from arbiter.adjudicator.replay import Report, error_report
from arbiter.notation.abstractplay import abstractplay_losses
from arbiter.notation.ast import Record
from arbiter.notation.errors import RecordError
from arbiter.notation.games import all_games
from arbiter.notation.sources import FORMATS, Format
from arbiter.service.batch import adjudicate_source, convert_source, game_rows, render

RECORD_SUFFIXES = (".grn", ".json")

from_option = click.option(
    "--from",
    "fmt",
    type=click.Choice(FORMATS),
    default=None,
    help="Read every file as this notation (default: its name or first characters tell; "
    "in JSON, each record's shape tells Abstract Play records from the project's).",
)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="arbiter")
def main() -> None:
    """Read, check and adjudicate records of Pilo, Petrify, Implo, Pletore and Pilare."""


def expand_paths(paths: tuple[str, ...]) -> Iterator[str]:
    """Files named, and every *.grn / *.json under directories named, in sorted order."""
    for name in paths:
        path = Path(name)
        if name != "-" and path.is_dir():
            found = sorted(
                p
                for p in path.rglob("*")
                if p.suffix.lower() in RECORD_SUFFIXES
                and p.is_file()
                and not p.name.endswith(".expected.json")
            )
            yield from (str(p) for p in found)
        else:
            yield name


def reports_for_paths(
    paths: tuple[str, ...], jobs: int = 1, fmt: Format | None = None
) -> Iterator[Report]:
    """Reports of every record under ``paths``; an unreadable file gives one error report.
    ``fmt`` names the notation of every file (else each file's name or content tells)."""
    if jobs > 1:
        from arbiter.service.parallel import parallel_reports

        yield from parallel_reports(list(expand_paths(paths)), jobs, fmt)
        return
    for name in expand_paths(paths):
        yield from reports_for_file(name, fmt)


def reports_for_file(name: str, fmt: Format | None = None) -> Iterator[Report]:
    """Reports of one file (or ``-`` for standard input)."""
    try:
        with _open(name) as stream:
            yield from adjudicate_source(stream, file=name, fmt=fmt)
    except OSError as err:
        yield error_report(
            RecordError(
                f"cannot read {name}: {err.strerror or err}", code="io-error", index=0, file=name
            ),
            file=name,
        )


def _open(name: str) -> BinaryIO:
    if name == "-":
        return _NoClose(sys.stdin.buffer)  # type: ignore[return-value]
    return open(name, "rb")


class _NoClose:
    """Standard input, wrapped so that leaving a ``with`` block does not close it."""

    def __init__(self, stream: BinaryIO) -> None:
        self._stream = stream

    def __enter__(self) -> BinaryIO:
        return self._stream

    def __exit__(self, *exc: object) -> None:
        return None


@main.command()
@click.argument("paths", nargs=-1, required=True)
@click.option("--json", "as_json", is_flag=True, help="JSON Lines: one report per record.")
@click.option(
    "--jobs",
    "-j",
    type=click.IntRange(1, 64),
    default=1,
    show_default=True,
    help="Worker processes; output keeps the input order.",
)
@from_option
def adjudicate(paths: tuple[str, ...], as_json: bool, jobs: int, fmt: Format | None) -> None:
    """Replay every record under PATHS and give its official result."""
    all_valid = True
    if not as_json:
        click.echo(_TABLE_HEADER)
    for report in reports_for_paths(paths, jobs, fmt):
        all_valid &= report.valid
        if as_json:
            click.echo(json.dumps(report.to_dict(), ensure_ascii=False))
        else:
            click.echo(_table_row(report))
    sys.exit(0 if all_valid else 1)


_TABLE_HEADER = (
    f"{'file':<48} {'#':>3} {'game':<8} {'size':>4} {'plies':>5} "
    f"{'result':<10} {'winner':<22} status"
)


def _table_row(report: Report) -> str:
    name = report.file or "-"
    if len(name) > 48:
        name = "…" + name[-47:]
    winner = report.winner or ""
    if report.winner_player:
        winner = f"{winner} ({report.winner_player})"
    status = "ok" if report.valid else _first_error(report)
    return (
        f"{name:<48} {report.index:>3} {report.game or '?':<8} {report.size or '':>4} "
        f"{report.plies:>5} {report.result:<10} {winner[:22]:<22} {status}"
    )


def _first_error(report: Report) -> str:
    error = report.errors[0]
    where = f"ply {error['ply']}: " if "ply" in error else ""
    return f"{error['code']}: {where}{error['message']}"


@main.command()
@click.argument("paths", nargs=-1, required=True)
@from_option
def validate(paths: tuple[str, ...], fmt: Format | None) -> None:
    """Check every record under PATHS: syntax, schema, legality and the claimed result.

    Prints only the problems, as file:line:column: code: message."""
    count = bad = 0
    for report in reports_for_paths(paths, fmt=fmt):
        count += 1
        if report.valid:
            continue
        bad += 1
        for error in report.errors:
            click.echo(_problem_line(report, error))
    click.echo(f"{count} record(s), {bad} invalid", err=True)
    sys.exit(1 if bad else 0)


def _problem_line(report: Report, error: dict[str, object]) -> str:
    if "line" in error:
        where = f"{error['line']}:{error['column']}"
    elif "pointer" in error:
        where = f"record {report.index}{error['pointer'] or ''}"
    else:
        where = f"record {report.index}"
    ply = f" (ply {error['ply']}, {error['move']!s})" if "ply" in error else ""
    return f"{report.file or '-'}:{where}: {error['code']}: {error['message']}{ply}"


@main.command()
@click.argument("path")
@click.option("--to", "to", type=click.Choice(FORMATS), required=True)
@click.option(
    "-o",
    "--output",
    type=click.Path(dir_okay=False, writable=True),
    help="Write here instead of standard output.",
)
@from_option
def convert(path: str, to: Format, output: str | None, fmt: Format | None) -> None:
    """Convert the records of PATH to canonical GRN or JSON (losslessly), or to Abstract
    Play records (Pletore)."""
    records: list[Record] = []
    failed = False
    with _open(path) as stream:
        for item in convert_source(stream, file=path, fmt=fmt, to=to):
            if item.error is not None or item.record is None:
                failed = True
                click.echo(f"arbiter: {path}: record {item.index}: {item.error}", err=True)
                continue
            if item.note is not None:
                click.echo(
                    f"arbiter: {path}: record {item.index}: written as found, not "
                    f"canonical: {item.note}",
                    err=True,
                )
            if to == "abstractplay":
                _warn_losses(path, item.index, item.record)
            records.append(item.record)
    text = render(records, to)
    if output:
        Path(output).write_text(text, encoding="utf-8", newline="\n")
    else:
        click.echo(text, nl=False)
    sys.exit(1 if failed else 0)


def _warn_losses(path: str, index: int, record: Record) -> None:
    """Say on standard error what an Abstract Play record cannot hold of ``record``."""
    lost = abstractplay_losses(record)
    if lost:
        click.echo(
            f"arbiter: {path}: record {index}: Abstract Play records cannot hold "
            f"{', '.join(lost)}; left out",
            err=True,
        )


@main.command()
@click.option("--json", "as_json", is_flag=True, help="As JSON.")
def games(as_json: bool) -> None:
    """List the games, their sizes, colours and move forms."""
    if as_json:
        click.echo(json.dumps(game_rows(), indent=2))
        return
    for game in all_games():
        click.echo(
            f"{game.name:<8} sizes {game.sizes_text:<8} colours "
            f"{' / '.join(game.colours):<15} moves {', '.join(game.moves)}"
        )


@main.command()
def schema() -> None:
    """Print the JSON Schema of JSON records (spec/record.schema.json) for the games known."""
    from arbiter.notation.json_schema import schema_text

    click.echo(schema_text(), nl=False)


def _add_serve() -> None:
    from arbiter.service.serve import serve

    main.add_command(serve)


_add_serve()


def _add_standings() -> None:
    from arbiter.service.standings_cli import standings

    main.add_command(standings)


_add_standings()


def _add_diagrams() -> None:
    from arbiter.service.show import diagram_command, show_command

    main.add_command(show_command)
    main.add_command(diagram_command)


_add_diagrams()
