"""The ``arbiter`` command line (``spec/cli.md``): adjudicate, validate, convert, games, serve.

Results go to stdout, diagnostics to stderr. Exit status: 0 when every record is valid, 1
when any record is not (or a file cannot be read, or no record was found), 2 for a usage
error. Never a traceback: see :mod:`arbiter.service.cli_io`.
"""

from __future__ import annotations

import importlib
import json
import sys
from collections.abc import Callable, Iterator, Sequence

import click

from arbiter import __version__
from arbiter.adjudicator.replay import Report
from arbiter.notation.games import all_games
from arbiter.notation.sources import FORMATS, Format
from arbiter.service.batch import game_rows
from arbiter.service.cli_io import (
    GuardedGroup,
    Unreadable,
    adjudicated_paths,
    convert_paths,
    expand_paths,
)
from arbiter.service.progress import Tally, file_sizes, watched

from_option = click.option(
    "--from",
    "fmt",
    type=click.Choice(FORMATS),
    default=None,
    help="Read every file as this notation (default: its name or first characters tell; "
    "in JSON, each record's shape tells Abstract Play records from the project's).",
)


class Commands(GuardedGroup):
    """The command group (answering any failure of the program in one line, never a
    traceback), with the commands that live in modules of their own loaded only
    when they are asked for (or listed by ``--help``): a run of ``adjudicate`` does not pay
    for the web server, the standings or the diagrams."""

    elsewhere: dict[str, str] = {
        "serve": "arbiter.service.serve:serve",
        "standings": "arbiter.service.standings_cli:standings",
        "show": "arbiter.service.show:show_command",
        "diagram": "arbiter.service.show:diagram_command",
    }

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*super().list_commands(ctx), *self.elsewhere})

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        where = self.elsewhere.get(name)
        if where is None:
            return super().get_command(ctx, name)
        module, attribute = where.split(":")
        command: click.Command = getattr(importlib.import_module(module), attribute)
        return command


@click.group(cls=Commands, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(version=__version__, prog_name="arbiter")
def main() -> None:
    """Read, check and adjudicate records of Pilo, Petrify, Implo, Pletore and Pilare."""


def rendered(
    names: Sequence[str | Unreadable],
    render: Callable[[Report], str],
    *,
    jobs: int = 1,
    fmt: Format | None = None,
    tally: Tally | None = None,
    scheduler: str | None = None,
) -> Iterator[tuple[bool, str]]:
    """Whether each record of the files ``names`` is valid, and its report as ``render``
    writes it, in input order (a path that could not be listed gives its ``io-error`` in
    its place). With ``jobs`` above 1 the records are adjudicated and rendered by worker
    processes, with ``scheduler`` by the workers of that Dask cluster; either sends back
    only the text. ``tally`` counts the bytes read, for the progress bar.

    Raises ``ClusterError`` if the cluster cannot be used."""
    if scheduler:
        from arbiter.service.cluster import cluster_rendered

        yield from cluster_rendered(names, scheduler, fmt, render, tally)
        return
    if jobs > 1:
        from arbiter.service.parallel import parallel_rendered

        yield from parallel_rendered(names, jobs, fmt, render, tally)
        return
    for _record, report in adjudicated_paths(names, fmt, tally):
        yield report.valid, render(report)


quiet_option = click.option(
    "--quiet", "-q", is_flag=True, help="No progress bar and no summary line on standard error."
)


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
@quiet_option
@click.option(
    "--scheduler",
    envvar="ARBITER_SCHEDULER",
    metavar="ADDRESS",
    help="Adjudicate on the workers of this Dask scheduler (tcp://host:8786; env "
    "ARBITER_SCHEDULER); needs the 'cluster' extra.",
)
def adjudicate(
    paths: tuple[str, ...],
    as_json: bool,
    jobs: int,
    fmt: Format | None,
    quiet: bool,
    scheduler: str | None,
) -> None:
    """Replay every record under PATHS and give its official result."""
    if scheduler and jobs > 1:
        raise click.UsageError("--jobs and --scheduler cannot be used together")
    names = list(expand_paths(paths))
    tally = Tally(file_sizes(names))
    write = sys.stdout.write
    if not as_json:
        write(_TABLE_HEADER + "\n")
    render = json_line if as_json else _table_row
    items = rendered(names, render, jobs=jobs, fmt=fmt, tally=tally, scheduler=scheduler)
    try:
        for _valid, text in watched(items, tally, quiet=quiet, valid=_first):
            write(text + "\n")
    except _cluster_errors(scheduler) as err:
        click.echo(f"arbiter: {err}", err=True)
        sys.exit(2)
    finish(tally, quiet)


def _cluster_errors(scheduler: str | None) -> tuple[type[Exception], ...]:
    """What a run on a cluster may fail with (nothing without one: the cluster's module is
    then not even loaded)."""
    if not scheduler:
        return ()
    from arbiter.service.cluster import ClusterError

    return (ClusterError,)


def json_line(report: Report) -> str:
    """A report as one line of JSON Lines (what ``adjudicate --json`` prints)."""
    return json.dumps(report.to_dict(), ensure_ascii=False)


def _first(item: tuple[bool, str]) -> bool:
    return item[0]


def finish(tally: Tally, quiet: bool) -> None:
    """End a run: the summary line on standard error, and the exit status (0 when there
    were records and all were valid; 1 when any was invalid, or when there was none, so
    that an empty upload is not taken for a clean one)."""
    sys.stdout.flush()
    if not quiet or not tally.records:
        click.echo(f"arbiter: {tally.summary()}", err=True)
    sys.exit(0 if tally.records and not tally.invalid else 1)


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
@quiet_option
def validate(paths: tuple[str, ...], fmt: Format | None, quiet: bool) -> None:
    """Check every record under PATHS: syntax, schema, legality and the claimed result.

    Prints only the problems, as file:line:column: code: message."""
    names = list(expand_paths(paths))
    tally = Tally(file_sizes(names))
    write = sys.stdout.write
    for valid, text in watched(rendered(names, _problems, fmt=fmt, tally=tally), tally,
                               quiet=quiet, valid=_first):  # fmt: skip
        if not valid:
            write(text + "\n")
    finish(tally, quiet)


def _problems(report: Report) -> str:
    return "\n".join(_problem_line(report, error) for error in report.errors)


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
