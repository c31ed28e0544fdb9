"""The ``arbiter`` command line (``spec/cli.md``): adjudicate, validate, convert, games, serve.

Results go to stdout, diagnostics to stderr. Exit status: 0 when every record is valid, 1
when any record is not (or a file cannot be read, or no record was found), 2 for a usage
error. Never a traceback: see :mod:`arbiter.service.cli_io`.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator

import click

from arbiter.adjudicator.replay import Report, error_report
from arbiter.notation.games import all_games
from arbiter.notation.sources import FORMATS, Format
from arbiter.service.batch import adjudicate_source, game_rows
from arbiter.service.cli_io import (
    NO_RECORDS,
    GuardedGroup,
    Unreadable,
    convert_paths,
    expand_paths,
    io_error,
    open_input,
)

from_option = click.option(
    "--from",
    "fmt",
    type=click.Choice(FORMATS),
    default=None,
    help="Read every file as this notation (default: its name or first characters tell; "
    "in JSON, each record's shape tells Abstract Play records from the project's).",
)


@click.group(cls=GuardedGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="arbiter")
def main() -> None:
    """Read, check and adjudicate records of Pilo, Petrify, Implo, Pletore and Pilare."""


def reports_for_paths(
    paths: tuple[str, ...], jobs: int = 1, fmt: Format | None = None
) -> Iterator[Report]:
    """Reports of every record under ``paths``; an unreadable file or directory gives one
    error report (``io-error``) in its place. ``fmt`` names the notation of every file
    (else each file's name or content tells)."""
    if jobs > 1:
        from arbiter.service.parallel import parallel_reports

        yield from parallel_reports(list(expand_paths(paths)), jobs, fmt)
        return
    for name in expand_paths(paths):
        if isinstance(name, Unreadable):
            yield error_report(name.error(), file=name.path)
        else:
            yield from reports_for_file(name, fmt)


def reports_for_file(name: str, fmt: Format | None = None) -> Iterator[Report]:
    """Reports of one file (or ``-`` for standard input)."""
    count = 0
    try:
        with open_input(name) as stream:
            for report in adjudicate_source(stream, file=name, fmt=fmt):
                count += 1
                yield report
    except OSError as err:
        yield error_report(io_error(name, err, count), file=name)


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
    count = 0
    if not as_json:
        click.echo(_TABLE_HEADER)
    for report in reports_for_paths(paths, jobs, fmt):
        count += 1
        all_valid &= report.valid
        if as_json:
            click.echo(json.dumps(report.to_dict(), ensure_ascii=False))
        else:
            click.echo(_table_row(report))
    if not count:
        click.echo(NO_RECORDS, err=True)
    sys.exit(0 if all_valid and count else 1)


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
    if not count:
        click.echo(NO_RECORDS, err=True)
    sys.exit(1 if bad or not count else 0)


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
    """Convert the records of PATH (a file, a directory, or - for standard input) to
    canonical GRN or JSON (losslessly), or to Abstract Play records (Pletore)."""
    sys.exit(convert_paths((path,), to, output, fmt))


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
