"""The text of one GRN record as cut from its file (``grn_reader.split_records``).

Kept apart from the reader because chunks are sent to worker processes: this module is
never compiled (``setup.py``), so a chunk pickles the same whatever the build.
"""

from __future__ import annotations

from dataclasses import dataclass

from arbiter.notation.errors import RecordError


@dataclass(frozen=True, slots=True)
class Chunk:
    """The text of one record, where it starts in its file, and a reading error if any.

    ``resumed`` is the line where the next record was started although a comment of this
    one was still open (a ``Game`` tag line always starts a record), so that the error of
    this record can say where reading resumed."""

    text: str
    first_line: int
    index: int
    error: RecordError | None = None
    resumed: int | None = None
