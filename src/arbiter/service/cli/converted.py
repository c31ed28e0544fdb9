"""What ``arbiter convert`` writes of each record, and of each file it cannot read: the text
for standard output and the lines for standard error (``spec/cli.md``).

Made where the record is converted: in the command's process
(:mod:`arbiter.service.cli.streams`) or in a worker process with ``--jobs``
(:mod:`arbiter.service.cli.parallel`), which sends the lines back; the same lines either
way. Kept here, below both, so that the workers' module need not import the streams, which
start the workers.
"""

from __future__ import annotations

from typing import NamedTuple

from arbiter.notation.errors import RecordError
from arbiter.notation.sources import Notation
from arbiter.service.core.batch import Converted


class ConvertedLines(NamedTuple):
    """What ``convert`` writes of one record, or of a file that cannot be read: the text
    (None when there is none), the lines for standard error, and whether it is a record."""

    text: str | None
    messages: tuple[str, ...]
    record: bool = True


def unreadable_lines(name: str, error: RecordError) -> ConvertedLines:
    """What ``convert`` says of a file that cannot be read (from where it stopped)."""
    return ConvertedLines(None, (_said(name, error),), record=False)


def converted_lines(name: str, item: Converted, to: Notation) -> ConvertedLines:
    """What ``convert`` writes of one record of file ``name``: its text, or the error on
    standard error; a note when it is written as found, and for Abstract Play what that
    format cannot hold of it."""
    if item.error is not None:
        return ConvertedLines(None, (_said(name, item.error, item.index),))
    messages = []
    if item.note is not None:
        messages.append(
            f"arbiter: {name}: record {item.index + 1}: written as found, not canonical: "
            f"{item.note}"
        )
    if to == "abstractplay" and item.record is not None:
        from arbiter.notation.abstractplay import abstractplay_losses  # only when converting

        lost = abstractplay_losses(item.record)
        if lost:
            messages.append(
                f"arbiter: {name}: record {item.index + 1}: Abstract Play records cannot hold "
                f"{', '.join(lost)}; left out"
            )
    return ConvertedLines(item.text, tuple(messages))


def _said(name: str, error: RecordError, index: int | None = None) -> str:
    where = f"record {index + 1}: " if index is not None else ""  # people count from 1
    return f"arbiter: {name}: {where}{error}"
