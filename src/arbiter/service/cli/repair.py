"""``arbiter repair``: a corrected copy of a record, with the trail of what was written
(``spec/cli.md``).

The copy is the file as it was, byte for byte, but for the moves corrected, each followed by
a comment saying what stood there (``c4 {was: c3}``). The file itself is never replaced:
official results must come from what was written, so what was typed is kept, and the copy
goes where ``-o`` says (``-`` for standard output). Once written, the copy's record is
adjudicated and what it now gives is said on standard error.
"""

from __future__ import annotations

import os
import sys
from typing import NoReturn

import click

from arbiter.notation.repair import (
    BadCorrection,
    CorrectionError,
    notation_of,
    source_bytes,
    source_text,
)
from arbiter.notation.sources import Notation, read_records
from arbiter.service.cli.streams import say
from arbiter.service.core.batch import report_for
from arbiter.service.core.repairs import corrected_text


@click.command("repair")
@click.argument("file", type=click.Path(dir_okay=False, allow_dash=True))
@click.option(
    "--apply",
    "corrections",
    multiple=True,
    required=True,
    metavar="PLY:MOVE",
    help="Write MOVE at ply PLY (from 1); repeat for more, applied in order. For a record "
    "that cannot be read, add where the move stands: 23:c4@7:13 (line:column) or "
    "23:c4@/moves/22.",
)
@click.option(
    "-o",
    "--output",
    required=True,
    type=click.Path(dir_okay=False, allow_dash=True),
    help="Where the corrected copy goes (- for standard output); never FILE itself.",
)
@click.option(
    "--record",
    type=click.IntRange(min=1),
    help="Which record of FILE, from 1 (needed when FILE holds several).",
)
def repair(file: str, corrections: tuple[str, ...], output: str, record: int | None) -> None:
    """Write a copy of FILE with moves corrected, each noting what was written there."""
    _refuse_same_file(file, output)
    text = source_text(_read(file))
    notation = notation_of(None if file == "-" else file, text)
    index = _record_index(text, notation, record)
    try:
        corrected, applied = corrected_text(text, corrections, index=index, notation=notation)
    except BadCorrection as err:
        raise click.BadParameter(str(err), param_hint="--apply") from None
    except CorrectionError as err:
        _fail(f"{file}: record {index + 1}: {err}")
    _write(output, source_bytes(corrected))
    for correction in applied:
        say(
            f"arbiter: record {index + 1}, ply {correction.ply}: {correction.written} "
            f"corrected to {correction.move}"
        )
    _say_verdict(output, corrected, notation, index)


def _refuse_same_file(file: str, output: str) -> None:
    """What was typed is kept: the copy may not replace it."""
    if file == "-" or output == "-":
        return
    same = os.path.abspath(file) == os.path.abspath(output)
    if not same and os.path.exists(output):
        try:
            same = os.path.samefile(file, output)
        except OSError:
            same = False
    if same:
        raise click.BadParameter(
            "the corrected copy may not replace FILE, which keeps what was written: "
            "name another file",
            param_hint="--output",
        )


def _read(file: str) -> bytes:
    try:
        if file == "-":
            return sys.stdin.buffer.read()
        with open(file, "rb") as stream:
            return stream.read()
    except OSError as err:
        _fail(f"{file}: io-error: cannot read {file}: {err.strerror or err}")


def _record_index(text: str, notation: Notation, record: int | None) -> int:
    """The index (from 0) of the record to correct: ``--record`` (from 1), or the only one.

    Raises ``click.BadParameter`` when FILE holds no such record, or several and none was
    named."""
    count = sum(1 for _ in read_records(source_bytes(text), fmt=notation))
    if record is None and count == 1:
        return 0
    if record is None:
        raise click.BadParameter(
            f"FILE holds {count} records: name one with --record N (from 1)"
            if count
            else "FILE holds no record",
            param_hint="--record",
        )
    if record > count:
        raise click.BadParameter(
            f"there is no record {record}: FILE holds {count} (numbered from 1)",
            param_hint="--record",
        )
    return record - 1


def _write(output: str, data: bytes) -> None:
    try:
        if output == "-":
            sys.stdout.buffer.write(data)
            sys.stdout.buffer.flush()
            return
        with open(output, "wb") as stream:
            stream.write(data)
    except OSError as err:
        _fail(f"io-error: cannot write {output}: {err.strerror or err}")


def _say_verdict(output: str, text: str, notation: Notation, index: int) -> None:
    """Say on standard error what the corrected record now gives."""
    for number, item in enumerate(read_records(source_bytes(text), fmt=notation)):
        if number != index:
            continue
        report = report_for(item)
        name = "the copy" if output == "-" else output
        if report.valid:
            say(f"arbiter: {name}: record {index + 1} is valid: {report.result}")
            return
        error = report.errors[0]
        where = f"ply {error['ply']}: " if "ply" in error else ""
        say(
            f"arbiter: {name}: record {index + 1} is still not valid: {error['code']}: "
            f"{where}{error['message']}"
        )


def _fail(message: str) -> NoReturn:
    say(f"arbiter: {message}")
    sys.exit(1)
