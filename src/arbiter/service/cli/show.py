"""``arbiter show`` and ``arbiter diagram``: one record at one ply, as text or SVG
(``spec/cli.md``; the pictures are described in ``spec/diagrams.md``).

Both read FILE (``-`` for standard input), pick the record ``--index K`` (from 0) and draw
the ply ``--ply N`` (turns from 0, the start, to the last; by default the last, which for an
invalid record is the refused move). The picture goes to stdout (or ``-o``); a record that
is not valid is said on stderr and gives exit status 1, after the picture is drawn, as does
a FILE or record that cannot be read. A ply or index that does not exist is a usage error
(status 2).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import NoReturn

import click

from arbiter.adjudicator.replay import Report
from arbiter.diagram import Frame, Options, render, render_text
from arbiter.notation.errors import RecordError
from arbiter.notation.sources import read_records
from arbiter.service.cli.clicked import click_option
from arbiter.service.cli.options import ENCODING
from arbiter.service.cli.streams import warn_encoding
from arbiter.service.core.diagrams import NoSuchPly, NoSuchRecord, frame_of, pick, report_of

_file = click.argument("file", type=click.Path(dir_okay=False, allow_dash=True))
_index = click.option(
    "--index",
    "-i",
    type=click.IntRange(min=0),
    default=0,
    show_default=True,
    help="Which record of FILE, from 0.",
)
_ply = click.option(
    "--ply",
    "-p",
    type=click.IntRange(min=0),
    help="Turns played, from 0 (the start); default: the last (or the refused move).",
)


@click.command("show")
@_file
@_index
@_ply
@click.option("--ascii", "ascii_only", is_flag=True, help="ASCII letters instead of Unicode.")
@click_option(ENCODING)
def show_command(file: str, index: int, ply: int | None, ascii_only: bool, encoding: str) -> None:
    """Print the board of a record at a ply, the move just played and the side to move."""
    report, frame = _load(file, index, ply, encoding)
    click.echo(render_text(frame, ascii=ascii_only), nl=False)
    _finish(file, report)


@click.command("diagram")
@_file
@_index
@_ply
@click.option(
    "-o",
    "--output",
    type=click.Path(dir_okay=False, writable=True),
    help="Write the SVG here instead of standard output.",
)
@click.option("--control", is_flag=True, help="Mark the empty points each colour controls.")
@click.option("--no-coordinates", is_flag=True, help="Leave out the file letters and ranks.")
@click.option("--no-caption", is_flag=True, help="Leave out the caption under the board.")
@click.option(
    "--width", type=click.IntRange(16, 4096), help="Width in pixels (default: 40 a square)."
)
@click_option(ENCODING)
def diagram_command(
    file: str,
    index: int,
    ply: int | None,
    output: str | None,
    control: bool,
    no_coordinates: bool,
    no_caption: bool,
    width: int | None,
    encoding: str,
) -> None:
    """Draw a record at a ply as an SVG picture (to standard output without -o)."""
    report, frame = _load(file, index, ply, encoding)
    picture = render(frame, Options(not no_coordinates, not no_caption, control, width))
    if output:
        Path(output).write_text(picture, encoding="utf-8", newline="\n")
    else:
        click.echo(picture, nl=False)
    _finish(file, report)


def _load(file: str, index: int, ply: int | None, encoding: str) -> tuple[Report, Frame]:
    """The report of the record picked (FILE decoded from ``encoding``) and its frame; exits
    with the reason when there is none."""
    warn_encoding(encoding)
    try:
        source = sys.stdin.buffer if file == "-" else Path(file)
        item = pick(read_records(source, file=file, encoding=encoding), index)
        return report_of(item, file=file), frame_of(item, ply)
    except OSError as err:
        click.echo(f"arbiter: cannot read {file}: {err.strerror or err}", err=True)
        sys.exit(1)
    except NoSuchRecord as err:
        raise click.BadParameter(str(err), param_hint="--index") from None
    except NoSuchPly as err:
        raise click.BadParameter(str(err), param_hint="--ply") from None
    except RecordError as err:
        _fail(file, index, err)


def _fail(file: str, index: int, err: RecordError) -> NoReturn:
    click.echo(f"arbiter: {file}: record {index} cannot be shown: {err}", err=True)
    sys.exit(1)


def _finish(file: str, report: Report) -> None:
    if report.valid:
        sys.exit(0)
    error = report.errors[0]
    where = f" at ply {error['ply']}" if "ply" in error else ""
    click.echo(
        f"arbiter: {file}: record {report.index + 1} is not valid: "
        f"{error['code']}{where}: {error['message']}",
        err=True,
    )
    sys.exit(1)
