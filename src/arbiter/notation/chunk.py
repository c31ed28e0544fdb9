"""The text of one GRN record as cut from its file (``grn_reader.split_records``).

Kept apart from the reader because chunks are sent to worker processes: this module is
never compiled (``setup.py``), so a chunk pickles the same whatever the build.
"""

from __future__ import annotations

from typing import Final

from arbiter.notation.errors import RecordError
from arbiter.notation.plain import Plain


class Chunk(Plain):
    """The text of one record, where it starts in its file, and a reading error if any.

    ``resumed`` is the line where the next record was started although a comment of this
    one was still open (a ``Game`` tag line always starts a record), so that the error of
    this record can say where reading resumed."""

    _fields = ("text", "first_line", "index", "error", "resumed")
    __slots__ = _fields

    def __init__(
        self,
        text: str,
        first_line: int,
        index: int,
        error: RecordError | None = None,
        resumed: int | None = None,
    ) -> None:
        self.text: Final = text
        self.first_line: Final = first_line
        self.index: Final = index
        self.error: Final = error
        self.resumed: Final = resumed
