"""A path that a run cannot read (a directory that cannot be listed), standing in its place
among the files of the run, so that its ``io-error`` is said where it stands.

:func:`arbiter.service.cli.streams.expand_paths` lists one, and every way of running reads
it: in the command's process (:mod:`arbiter.service.cli.streams`), in worker processes
(:mod:`arbiter.service.cli.parallel`), on a cluster. Kept apart, below them, so that the
worker side need not import the streams, which start the workers.
"""

from __future__ import annotations

from typing import Final

from arbiter.notation.errors import RecordError
from arbiter.notation.plain import Plain


class Unreadable(Plain):
    """A path that could not be read (a directory that cannot be listed), and why."""

    _fields = ("path", "reason")
    __slots__ = _fields

    def __init__(self, path: str, reason: str) -> None:
        self.path: Final = path
        self.reason: Final = reason

    def error(self, index: int = 0) -> RecordError:
        return RecordError(
            f"cannot read {self.path}: {self.reason}", code="io-error", index=index, file=self.path
        )
