"""What ``arbiter adjudicate`` and ``arbiter validate`` do (``spec/cli.md``), without click:
the click commands of :mod:`arbiter.service.cli.main` call these functions once they have read
their options, and so does the start-up path of :mod:`arbiter.service.cli.entry`, which runs a
plain command line without loading click at all.

Reports go to standard output; the summary line and the failures of a run to standard error.
Each run ends the process with its exit status (``finish``).
"""

from __future__ import annotations

import gc
import json
import sys
from collections.abc import Callable, Iterator, Sequence
from functools import partial

from arbiter.adjudicator.replay import Report
from arbiter.notation.sources import Notation
from arbiter.service.cli.progress import (
    Tally,
    bar_wanted,
    file_sizes,
    terminal_columns,
    watched,
)
from arbiter.service.cli.streams import (
    Unreadable,
    adjudicated_paths,
    expand_paths,
    say,
    warn_encoding,
)
from arbiter.service.core.suggestions import first_hint, suggestion_lines


def run_adjudicate(
    paths: tuple[str, ...],
    as_json: bool,
    jobs: int,
    fmt: Notation | None,
    quiet: bool,
    scheduler: str | None,
    encoding: str = "utf-8",
) -> None:
    """``arbiter adjudicate``: the table (or with ``as_json`` one JSON line) of every record
    under ``paths``, in input order, then the summary; exits with the run's status, or 2
    when the cluster of ``scheduler`` cannot be used. The options are those of the command,
    already checked (``jobs`` and ``scheduler`` are not both given; ``encoding`` is the
    canonical name of the files' encoding)."""
    skipped: list[str] = []
    names = list(expand_paths(paths, skipped))
    warn_encoding(encoding)
    tally = Tally(file_sizes(names) if bar_wanted(quiet) else None, skipped=len(skipped))
    write = sys.stdout.write
    columns = terminal_columns(sys.stdout)
    if not as_json:
        write(table_header(columns) + "\n")
    render = json_line if as_json else partial(table_row, columns=columns)
    items = rendered(names, render, jobs=jobs, fmt=fmt, tally=tally, scheduler=scheduler,
                     encoding=encoding)  # fmt: skip
    try:
        for _valid, text in watched(items, tally, quiet=quiet, valid=_first):
            write(text + "\n")
    except _cluster_errors(scheduler) as err:
        say(f"arbiter: {err}")
        sys.exit(2)
    finish(tally, quiet)


def run_validate(
    paths: tuple[str, ...],
    fmt: Notation | None,
    quiet: bool,
    jobs: int = 1,
    encoding: str = "utf-8",
) -> None:
    """``arbiter validate``: the problems of every invalid record under ``paths``, one line
    each, then the summary; exits with the run's status. ``jobs`` and ``encoding`` as for
    adjudicate."""
    skipped: list[str] = []
    names = list(expand_paths(paths, skipped))
    warn_encoding(encoding)
    tally = Tally(file_sizes(names) if bar_wanted(quiet) else None, skipped=len(skipped))
    write = sys.stdout.write
    found = rendered(names, _problems, jobs=jobs, fmt=fmt, tally=tally, encoding=encoding)
    for valid, text in watched(found, tally, quiet=quiet, valid=_first):
        if not valid:
            write(text + "\n")
    finish(tally, quiet)


COLLECTOR_THRESHOLD = 20_000
"""Container objects allocated (less those freed) between two passes of the youngest
generation of the cycle collector during a run, against Python's 700."""


def batch_collector() -> None:
    """Set the cycle collector for a run of many records. Reading and replaying make and
    drop several small objects per ply, all freed by their reference counts (records hold
    no cycles), so the collector's frequent passes find nothing: they come less often, and
    the objects the imports made are moved out of its sight (``gc.freeze``). Worker
    processes of ``--jobs`` inherit the setting. Only for the process of the command: a
    program that calls the library keeps its own settings.

    After each invalid record, what it left is moved out of sight too (:func:`rendered`):
    the repair search of a record refused at a move keeps, from record to record, the slips
    of the moves it saw and the moves they read as (tens of thousands of objects over a few
    hundred such records, none in a cycle), which each pass of the collector would walk
    again; moving them is a constant-time step."""
    gc.freeze()
    gc.set_threshold(COLLECTOR_THRESHOLD, 10, 10)
    BATCH[0] = True


BATCH = [False]
"""Whether :func:`batch_collector` set the collector for this process."""


def rendered(
    names: Sequence[str | Unreadable],
    render: Callable[[Report], str],
    *,
    jobs: int = 1,
    fmt: Notation | None = None,
    tally: Tally | None = None,
    scheduler: str | None = None,
    encoding: str = "utf-8",
) -> Iterator[tuple[bool, str]]:
    """Whether each record of the files ``names`` is valid, and its report as ``render``
    writes it, in input order (a path that could not be listed gives its ``io-error`` in
    its place). With ``jobs`` above 1 the records are adjudicated and rendered by worker
    processes, with ``scheduler`` by the workers of that Dask cluster; either sends back
    only the text. ``tally`` counts the bytes read, for the progress bar; the files are
    decoded from ``encoding``.

    Raises ``ClusterError`` if the cluster cannot be used."""
    if scheduler:
        from arbiter.service.cli.cluster import cluster_rendered

        yield from cluster_rendered(names, scheduler, fmt, render, tally, encoding)
        return
    if jobs > 1:
        from arbiter.service.cli.parallel import parallel_rendered

        yield from parallel_rendered(names, jobs, fmt, render, tally, encoding)
        return
    batch = BATCH[0]
    for _record, report in adjudicated_paths(names, fmt, tally, encoding):
        if batch and not report.valid:
            gc.freeze()  # what the record's repair search kept, out of the collector's sight
        yield report.valid, render(report)


def _cluster_errors(scheduler: str | None) -> tuple[type[Exception], ...]:
    """What a run on a cluster may fail with (nothing without one: the cluster's module is
    then not even loaded)."""
    if not scheduler:
        return ()
    from arbiter.service.cli.cluster import ClusterError

    return (ClusterError,)


def json_line(report: Report) -> str:
    """A report as one line of JSON Lines (what ``adjudicate --json`` prints): what
    ``json.dumps(report.to_dict(), ensure_ascii=False)`` writes, by one encoder made once
    (``dumps`` with an option makes an encoder at every call)."""
    return _ENCODER.encode(report.to_dict())


_ENCODER = json.JSONEncoder(ensure_ascii=False, check_circular=False)  # a report is a tree


def _first(item: tuple[bool, str]) -> bool:
    return item[0]


def finish(tally: Tally, quiet: bool) -> None:
    """End a run: the summary line on standard error, and the exit status (0 when there
    were records and all were valid; 1 when any was invalid, or when there was none, so
    that an empty upload is not taken for a clean one)."""
    sys.stdout.flush()
    if not quiet or not tally.records:
        say(f"arbiter: {tally.summary()}")
    sys.exit(0 if tally.records and not tally.invalid else 1)


FILE_WIDTH = 48
"""The file column's width on a terminal wide enough (narrower ones narrow it)."""
WINNER_WIDTH = 22
FIXED = 59
"""The width of every column but the file's and the status', with their spaces."""


def table_widths(columns: int | None) -> tuple[int, int | None]:
    """The file column's width and the line's most characters, for a terminal of
    ``columns`` (None: not a terminal, where nothing is cut and names are given whole)."""
    if columns is None:
        return FILE_WIDTH, None
    return max(12, min(FILE_WIDTH, columns - FIXED - 20)), columns - 1


def table_header(columns: int | None = None) -> str:
    file_width, most = table_widths(columns)
    line = (
        f"{'file':<{file_width}} {'#':>3} {'game':<8} {'size':>4} {'plies':>5} "
        f"{'result':<10} {'winner':<{WINNER_WIDTH}} status"
    )
    return _fit(line, most)


def table_row(report: Report, columns: int | None = None) -> str:
    """One row of the table. On a terminal of ``columns`` the file name keeps its end and
    the row is cut to the terminal's width; elsewhere (a pipe, a file) nothing is cut."""
    file_width, most = table_widths(columns)
    name = report.file or "-"
    if most is not None and len(name) > file_width:
        name = "…" + name[-(file_width - 1) :]
    winner = report.winner or ""
    if report.winner_player:
        winner = f"{winner} ({report.winner_player})"
    if most is not None:
        winner = winner[:WINNER_WIDTH]
    status = "ok" if report.valid else _first_error(report)
    line = (
        f"{name:<{file_width}} {report.index + 1:>3} {report.game or '?':<8} "
        f"{report.size or '':>4} {report.plies:>5} {report.result:<10} "
        f"{winner:<{WINNER_WIDTH}} {status}"
    )
    return _fit(line, most)


def _fit(line: str, most: int | None) -> str:
    return line if most is None or len(line) <= most else line[: most - 1] + "…"


def _first_error(report: Report) -> str:
    """The table's status of an invalid record: its first error, and the best suggestion
    to repair it when there is one."""
    error = report.errors[0]
    where = f"ply {error['ply']}: " if "ply" in error else ""
    hint = first_hint(error)
    return f"{error['code']}: {where}{error['message']}" + (f"; {hint}" if hint else "")


def _problems(report: Report) -> str:
    """What ``validate`` prints of an invalid record: a line per error, and under an error
    with suggestions the best of them, indented (so a program reading the problems can
    tell them from the problems and skip them)."""
    lines = []
    for error in report.errors:
        lines.append(_problem_line(report, error))
        lines.extend(f"  {line}" for line in suggestion_lines(error, report.claimed_result))
    return "\n".join(lines)


def _problem_line(report: Report, error: dict[str, object]) -> str:
    if "line" in error:
        where = f"{error['line']}:{error['column']}"
    elif "pointer" in error:
        where = f"record {report.index + 1}{error['pointer'] or ''}"
    else:
        where = f"record {report.index + 1}"
    ply = f" (ply {error['ply']}, {error['move']!s})" if "ply" in error else ""
    return f"{report.file or '-'}:{where}: {error['code']}: {error['message']}{ply}"
