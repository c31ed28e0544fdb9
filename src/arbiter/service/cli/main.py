"""The ``arbiter`` command line (``spec/cli.md``): adjudicate, validate, convert, games, serve.

Results go to stdout, diagnostics to stderr. Exit status: 0 when every record is valid, 1
when any record is not (or a file cannot be read, or no record was found), 2 for a usage
error. Never a traceback: see :mod:`arbiter.service.cli.streams`.

The options of ``adjudicate``, ``validate`` and ``convert`` are made from the table of
:mod:`arbiter.service.cli.options`, which the start-up path of :mod:`arbiter.service.cli.entry`
reads too: a plain run read without click means what the click command would.
"""

from __future__ import annotations

import importlib
import json
import sys
from functools import partial
from typing import Any

import click

from arbiter import __version__
from arbiter.notation.games import all_games
from arbiter.notation.sources import NOTATIONS, Notation
from arbiter.service.cli.clicked import table_options
from arbiter.service.cli.runs import run_adjudicate, run_validate
from arbiter.service.cli.streams import convert_paths, guarded
from arbiter.service.core.batch import game_rows


class GuardedGroup(click.Group):
    """A command group that answers any failure of the program with one line on standard
    error instead of a traceback (:func:`arbiter.service.cli.streams.guarded`), and lets click's
    own usage errors and exits through."""

    def invoke(self, ctx: click.Context) -> Any:
        passing = (click.ClickException, click.exceptions.Exit, click.Abort)
        return guarded(partial(super().invoke, ctx), passing)


class Commands(GuardedGroup):
    """The command group (answering any failure of the program in one line, never a
    traceback), with the commands that live in modules of their own loaded only
    when they are asked for (or listed by ``--help``): a run of ``adjudicate`` does not pay
    for the web server, the standings or the diagrams."""

    elsewhere: dict[str, str] = {
        "serve": "arbiter.service.cli.serve:serve",
        "standings": "arbiter.service.cli.standings:standings",
        "show": "arbiter.service.cli.show:show_command",
        "diagram": "arbiter.service.cli.show:diagram_command",
        "repair": "arbiter.service.cli.repair:repair",
        "db": "arbiter.service.cli.db:db",
        "pair": "arbiter.service.cli.pair:pair_command",
        "ratings": "arbiter.service.cli.ratings:ratings",
    }

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*super().list_commands(ctx), *self.elsewhere})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        where = self.elsewhere.get(cmd_name)
        if where is None:
            return super().get_command(ctx, cmd_name)
        module, attribute = where.split(":")
        command: click.Command = getattr(importlib.import_module(module), attribute)
        return command


@click.group(cls=Commands, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(version=__version__, prog_name="arbiter")
def main() -> None:
    """Read, check and adjudicate records of Pilo, Petrify, Implo, Pletore and Pilare."""


@main.command()
@click.argument("paths", nargs=-1, required=True)
@table_options("adjudicate")
def adjudicate(
    paths: tuple[str, ...],
    as_json: bool,
    jobs: int,
    fmt: Notation | None,
    encoding: str,
    quiet: bool,
    scheduler: str | None,
) -> None:
    """Replay every record under PATHS and give its official result."""
    if scheduler and jobs > 1:
        raise click.UsageError("--jobs and --scheduler cannot be used together")
    run_adjudicate(paths, as_json, jobs, fmt, quiet, scheduler, encoding)


@main.command()
@click.argument("paths", nargs=-1, required=True)
@table_options("validate")
def validate(
    paths: tuple[str, ...], jobs: int, fmt: Notation | None, encoding: str, quiet: bool
) -> None:
    """Check every record under PATHS: syntax, schema, legality and the claimed result.

    Prints only the problems, as file:line:column: code: message."""
    run_validate(paths, fmt, quiet, jobs, encoding)


@main.command()
@click.argument("path")
@click.option("--to", "to", type=click.Choice(NOTATIONS), required=True)
@click.option(
    "-o",
    "--output",
    type=click.Path(dir_okay=False, writable=True),
    help="Write here instead of standard output.",
)
@table_options("convert")
def convert(
    path: str, to: Notation, output: str | None, fmt: Notation | None, encoding: str, jobs: int
) -> None:
    """Convert the records of PATH (a file, a directory, or - for standard input) to
    canonical GRN or JSON (losslessly), or to Abstract Play records (Pletore)."""
    sys.exit(convert_paths((path,), to, output, fmt, jobs, encoding))


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
