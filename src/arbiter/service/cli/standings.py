"""The ``arbiter standings`` command (``spec/cli.md``, ``spec/standings.md``).

It reads records exactly as ``arbiter adjudicate`` does (the same path expansion, the same
reader and adjudicator), computes the standings with the library function, and writes them
in the format asked for. It is registered on the ``arbiter`` group by :mod:`.cli`.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator

import click

from arbiter.adjudicator.replay import Report
from arbiter.adjudicator.standings import Adjudicated, EventStandings
from arbiter.adjudicator.standings import standings as compute_standings
from arbiter.adjudicator.tiebreaks import DEFAULT_ORDER, parse_order
from arbiter.service.cli.clicked import click_option
from arbiter.service.cli.options import ENCODING
from arbiter.service.core.standings_formats import (
    STANDINGS_FORMATS,
    FormatError,
    StandingsFormat,
    render,
)


def _tiebreak_option(_ctx: click.Context, _param: click.Parameter, value: str | None) -> object:
    """Check the tie-break list before any record is read (a usage error, exit 2)."""
    if value is None:
        return None
    try:
        return parse_order(value)
    except ValueError as err:
        raise click.BadParameter(str(err)) from None


@click.command()
@click.argument("paths", nargs=-1, required=True)
@click.option(
    "--tiebreak",
    metavar="LIST",
    callback=_tiebreak_option,
    help=f"Tie-breaks in order, comma-separated [default: {','.join(DEFAULT_ORDER)}].",
)
@click.option("--json", "as_json", is_flag=True, help="The same as --format json.")
@click.option(
    "--format",
    "fmt",
    type=click.Choice(STANDINGS_FORMATS),
    help="table (default), json, csv, html (a standalone page) or trf (FIDE TRF).",
)
@click.option(
    "--total-rounds",
    type=click.IntRange(1, 999),
    help="TRF: the planned number of rounds [default: one more than the rounds played].",
)
@click_option(ENCODING)
def standings(
    paths: tuple[str, ...],
    tiebreak: tuple[str, ...] | None,
    as_json: bool,
    fmt: StandingsFormat | None,
    total_rounds: int | None,
    encoding: str,
) -> None:
    """Standings, tie-breaks and crosstable of the events whose records are under PATHS.

    Records are grouped by their Event tag (and game), rounds come from the Round tag, and
    players from the player tags. Records that do not count are listed with the reason."""
    if as_json and fmt not in (None, "json"):
        raise click.UsageError("--json and --format " + str(fmt) + " ask for two formats")
    chosen: StandingsFormat = "json" if as_json else (fmt or "table")
    seen: list[Report] = []
    tables = compute_standings(_adjudicated(paths, seen, encoding), tiebreaks=tiebreak)
    try:
        text = render(tables, chosen, total_rounds=total_rounds)
    except FormatError as err:
        raise click.UsageError(str(err)) from None
    click.echo(text, nl=False)
    _summary(tables, seen, listed=chosen in ("csv", "trf"))
    if not seen:  # an empty upload is no clean event
        click.echo("arbiter: no records found", err=True)
        sys.exit(1)
    sys.exit(0 if all(report.valid for report in seen) else 1)


def _adjudicated(
    paths: tuple[str, ...], seen: list[Report], encoding: str
) -> Iterator[Adjudicated]:
    """Every record under ``paths`` (decoded from ``encoding``) with its report, keeping the
    reports in ``seen``; a file or directory that cannot be read gives one ``io-error``
    report without a record, in its place."""
    from arbiter.service.cli.streams import adjudicated_paths, expand_paths, warn_encoding

    warn_encoding(encoding)
    for record, report in adjudicated_paths(expand_paths(paths), encoding=encoding):
        seen.append(report)
        yield record, report


def _summary(tables: list[EventStandings], seen: list[Report], *, listed: bool) -> None:
    """Counts on standard error; for formats that have no room for them (CSV, TRF), the
    records that do not count, one per line."""
    excluded = [e for table in tables for e in table.excluded]
    if listed:
        for e in excluded:
            click.echo(
                f"arbiter: {e.file or '-'}: record {e.index + 1}: {e.reason}: {e.message}", err=True
            )
    events = sum(1 for table in tables if table.event is not None)
    click.echo(
        f"{len(seen)} record(s), {len(seen) - len(excluded)} counted, {len(excluded)} not "
        f"counted, {events} event table(s)",
        err=True,
    )
