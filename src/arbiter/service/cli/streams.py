"""What the command line does around the records (``spec/cli.md``): finding the files under
the paths given, reporting what cannot be read, converting in a stream, and keeping any
failure of the program from ending in a traceback.

Every file or directory that cannot be read is an ``io-error`` in its place, never skipped
in silence; the other paths are still read.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterable, Iterator
from typing import IO, TYPE_CHECKING, BinaryIO, TypeVar

from arbiter.adjudicator.replay import Report, error_report
from arbiter.notation.ast import Record
from arbiter.notation.errors import RecordError
from arbiter.notation.sources import Notation
from arbiter.service.cli.converted import ConvertedLines, converted_lines, unreadable_lines
from arbiter.service.cli.progress import CountingReader, Tally
from arbiter.service.cli.unreadable import Unreadable as Unreadable  # read from here too
from arbiter.service.core.batch import adjudicated_source, convert_source, output_parts

if TYPE_CHECKING:
    from pathlib import Path

RECORD_SUFFIXES = (".grn", ".json")
NO_RECORDS = "arbiter: no records found"

T = TypeVar("T")


def guarded(run: Callable[[], T], passing: tuple[type[BaseException], ...] = ()) -> T:
    """What ``run`` returns, with any failure of the program answered in one line on
    standard error instead of a traceback (records are guarded one by one in
    :mod:`arbiter.service.core.batch`; this is the last guard, for everything else): an
    interruption exits with status 130, a closed standard output (``| head``) quietly with 1,
    any other exception with ``arbiter: internal error: ...`` and 1. The exceptions of
    ``passing`` (click's usage errors, for the command group) go through untouched, and so
    does ``SystemExit``.

    Used by the click group and by the start-up path that runs without click
    (:mod:`arbiter.service.cli.entry`), so that neither ever shows a traceback."""
    try:
        return run()
    except passing:
        raise
    except KeyboardInterrupt:
        say("arbiter: interrupted")
        sys.exit(130)
    except BrokenPipeError:
        _quiet_stdout()
        sys.exit(1)
    except Exception as err:  # a bug: say so in one line, never with a traceback
        say(f"arbiter: internal error: {type(err).__name__}: {err}")
        sys.exit(1)


def say(text: str) -> None:
    """Write ``text`` as one line on standard error, flushed at once (it may be the last
    thing a run says before it exits). Python's standard error escapes what its encoding
    cannot hold (``errors="backslashreplace"``, whatever the locale), so a file name with
    bytes that are not UTF-8 is shown as ``\\udcff``, never a failure."""
    stream = sys.stderr
    if stream is None:  # no standard error at all (pythonw)
        return
    stream.write(text + "\n")
    stream.flush()


def _quiet_stdout() -> None:
    """Standard output was closed by the reader (``| head``): send what is left nowhere, so
    that Python's own flush at exit does not complain."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass


def expand_paths(
    paths: tuple[str, ...], skipped: list[str] | None = None
) -> Iterator[str | Unreadable]:
    """Files named, and every ``*.grn`` / ``*.json`` under directories named (any case;
    except the samples' ``*.expected.json``), in sorted order; a directory that cannot be
    listed, at any depth, is given as :class:`Unreadable` in its place. Every other file of
    a directory is said on standard error, with why it was skipped, and added to
    ``skipped`` (hidden files, whose names start with a dot, are passed over in silence)."""
    for name in paths:
        if name == "-" or not os.path.isdir(name):
            yield name
            continue
        from pathlib import Path  # only for folders: start-up matters

        problems: list[OSError] = []
        found: list[str | Unreadable] = []
        passed: list[str] = []
        for top, _dirs, files in os.walk(name, onerror=problems.append):
            for file in files:
                path = str(Path(top, file))  # as pathlib writes it: no "./" before a name
                if (
                    not os.path.isfile(path)
                    or file.startswith(".")
                    or (file.endswith(".expected.json"))
                ):
                    continue
                (found if Path(file).suffix.lower() in RECORD_SUFFIXES else passed).append(path)
        found += (Unreadable(str(Path(p.filename or name)), p.strerror or str(p)) for p in problems)
        for path in sorted(passed, key=Path):
            say(f"arbiter: {path}: skipped: not a .grn or .json file (give it by its name "
                "to read it)")  # fmt: skip
        if skipped is not None:
            skipped.extend(passed)
        yield from sorted(found, key=_sort_key)


def _sort_key(item: str | Unreadable) -> Path:
    from pathlib import Path

    return Path(item.path if isinstance(item, Unreadable) else item)


def open_input(name: str) -> BinaryIO:
    """A path's bytes, or standard input for ``-`` (left open when the caller closes it)."""
    if name == "-":
        return _NoClose(sys.stdin.buffer)  # type: ignore[return-value]
    return open(name, "rb")  # noqa: SIM115


class _NoClose:
    """Standard input, wrapped so that leaving a ``with`` block does not close it."""

    def __init__(self, stream: BinaryIO) -> None:
        self._stream = stream

    def __enter__(self) -> BinaryIO:
        return self._stream

    def __exit__(self, *exc: object) -> None:
        return None


def warn_encoding(encoding: str) -> None:
    """Say on standard error, before any file is read, that the files are decoded from
    ``encoding`` (``--encoding``): records are UTF-8 text, and what another encoding makes
    of their bytes is a guess the person running the command has made."""
    if encoding != "utf-8":
        say(f"arbiter: warning: the files are decoded from {encoding}, not UTF-8 (--encoding)")


def io_error(name: str, err: OSError, index: int = 0) -> RecordError:
    """The ``io-error`` of a path that cannot be read (``index``: the record it stopped at)."""
    return RecordError(
        f"cannot read {name}: {err.strerror or err}", code="io-error", index=index, file=name
    )


def adjudicated_paths(
    names: Iterable[str | Unreadable],
    fmt: Notation | None = None,
    tally: Tally | None = None,
    encoding: str = "utf-8",
) -> Iterator[tuple[Record | None, Report]]:
    """Each record of the files ``names`` (``-``: standard input; their bytes decoded from
    ``encoding``) with its report, in order, the record None when it could not be read;
    ``tally`` counts the bytes read when it knows the bytes the files hold (a progress bar's
    share done; otherwise no call is spent per line read). A path that
    could not be listed, or a file that cannot be read or stops being readable, gives an
    ``io-error`` report in place of the records not read."""
    for name in names:
        if isinstance(name, Unreadable):
            yield None, error_report(name.error(), file=name.path)
            continue
        count = 0
        try:
            with open_input(name) as stream:
                source: BinaryIO | CountingReader = stream
                if tally is not None and tally.total_bytes is not None:  # for a bar
                    source = CountingReader(stream, tally)
                pairs = adjudicated_source(source, file=name, fmt=fmt, encoding=encoding)  # type: ignore[arg-type]
                for pair in pairs:
                    count += 1
                    yield pair
        except OSError as err:
            yield None, error_report(io_error(name, err, count), file=name)


def convert_paths(
    paths: tuple[str, ...],
    to: Notation,
    output: str | None,
    fmt: Notation | None = None,
    jobs: int = 1,
    encoding: str = "utf-8",
) -> int:
    """``arbiter convert``: write every record under ``paths`` in canonical ``to``, to
    ``output`` or standard output, one record at a time (memory stays bounded whatever the
    input's length), reading every file as ``fmt`` if given and decoding its bytes from
    ``encoding``, converting in ``jobs`` worker processes when above 1 (the output is the
    same); report what cannot be converted
    (and, for Abstract Play, what its records cannot hold) on standard error. Returns the exit
    status: 0 when every record was converted, 1 otherwise (or when there was none)."""
    tally = _Tally()
    warn_encoding(encoding)
    try:
        out: IO[str] = (
            open(output, "w", encoding="utf-8", newline="\n")  # noqa: SIM115
            if output
            else sys.stdout
        )
    except OSError as err:
        say(f"arbiter: io-error: cannot write {output}: {err.strerror or err}")
        return 1
    try:
        for part in output_parts(_converted_texts(paths, to, tally, fmt, jobs, encoding), to):
            out.write(part)
        out.flush()
    except OSError as err:
        if output is None:
            raise
        say(f"arbiter: io-error: cannot write {output}: {err.strerror or err}")
        return 1
    finally:
        if output:
            out.close()
    if tally.records == 0:
        if not tally.failed:
            say(NO_RECORDS)
        return 1
    return 1 if tally.failed else 0


class _Tally:
    """What a conversion has written so far, and whether anything failed."""

    __slots__ = ("records", "failed")

    def __init__(self) -> None:
        self.records = 0
        self.failed = False


def _converted_texts(
    paths: tuple[str, ...],
    to: Notation,
    tally: _Tally,
    fmt: Notation | None,
    jobs: int = 1,
    encoding: str = "utf-8",
) -> Iterator[str]:
    """The text of every record converted, in order; each problem goes to standard error
    as it is met."""
    if jobs > 1:  # only then: a plain run does not load the worker pool's modules
        from arbiter.service.cli.parallel import parallel_converted

        outputs = parallel_converted(list(expand_paths(paths)), jobs, fmt, to, encoding)
    else:
        outputs = _converted_lines(paths, to, fmt, encoding)
    for text, messages, record in outputs:
        tally.records += record
        tally.failed = tally.failed or text is None
        for message in messages:
            say(message)
        if text is not None:
            yield text


def _converted_lines(
    paths: tuple[str, ...], to: Notation, fmt: Notation | None, encoding: str = "utf-8"
) -> Iterator[ConvertedLines]:
    for name in expand_paths(paths):
        if isinstance(name, Unreadable):
            yield unreadable_lines(name.path, name.error())
            continue
        seen = 0
        try:
            with open_input(name) as stream:
                items = convert_source(stream, to=to, file=name, fmt=fmt, encoding=encoding)
                for item in items:
                    seen += 1
                    yield converted_lines(name, item, to)
        except OSError as err:
            yield unreadable_lines(name, io_error(name, err, seen))
