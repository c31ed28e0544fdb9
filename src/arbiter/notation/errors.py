"""The error family of records: every problem has a stable ``code`` and a location.

See ``spec/grn.md`` section "Error codes". Errors subclass :class:`ValueError` so that callers
who only want "bad input" may catch that.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from arbiter.notation.ast import Location

if TYPE_CHECKING:
    from arbiter.notation.ast import Record


UTF8_ADVICE = "save the file as UTF-8 (in most editors: Save As, Encoding: UTF-8)"
"""What the message of an ``encoding`` error advises: records are UTF-8 text, and a file
saved in another encoding is most often fixed where it was written."""


class RecordError(ValueError):
    """A problem with a record, located in its source text (line/column) or JSON (pointer).

    ``record`` is the record as far as it could be read when the problem does not stop its
    replay (an unreadable Result, a wrong move number, a move the game does not have, which
    ends the turns read); ``more`` holds the further problems of that kind the reader found
    in the same record. A report then gives everything the replay can say besides."""

    code: ClassVar[str] = "record-error"
    record: Record | None = None
    more: tuple[RecordError, ...] = ()
    source: tuple[str, int] | None = None
    """The GRN text of the record and the line it starts on, when the error stopped a record
    read from GRN: the repair hints try corrections in it (``spec/hints.md``)."""
    parsed: object = None
    """The parsed JSON record, when the error stopped a record read from JSON at one of its
    moves: the repair hints try corrections in it."""

    def __init__(
        self,
        message: str,
        *,
        code: str | None = None,
        line: int | None = None,
        column: int | None = None,
        pointer: str | None = None,
        ply: int | None = None,
        move: str | None = None,
        index: int | None = None,
        file: str | None = None,
        where: Location | None = None,
    ) -> None:
        super().__init__(message)
        if where is not None:
            line, column, pointer = where
        if code is not None:
            self.code = code  # type: ignore[misc]
        self.message = message
        self.line = line
        self.column = column
        self.pointer = pointer
        self.ply = ply
        self.move = move
        self.index = index
        self.file = file

    def located(
        self,
        *,
        ply: int | None = None,
        move: str | None = None,
        index: int | None = None,
        file: str | None = None,
        where: Location | None = None,
    ) -> RecordError:
        """Return this error with location fields filled where they are still unknown."""
        line, column, pointer = where if where is not None else (None, None, None)
        found = {
            "ply": ply,
            "move": move,
            "index": index,
            "file": file,
            "line": line,
            "column": column,
            "pointer": pointer,
        }
        for key, value in found.items():
            if value is not None and getattr(self, key) is None:
                setattr(self, key, value)
        return self

    def to_dict(self) -> dict[str, object]:
        """The JSON form used in reports, the CLI and the HTTP API (only known fields)."""
        out: dict[str, object] = {"code": self.code, "message": self.message}
        for key in ("ply", "move", "line", "column", "pointer"):
            value = getattr(self, key)
            if value is not None:
                out[key] = value
        return out

    def __str__(self) -> str:
        where = []
        if self.line is not None:
            where.append(f"line {self.line}, column {self.column}")
        if self.pointer is not None:
            where.append(f"at {self.pointer or '/'}")
        if self.ply is not None:
            where.append(f"ply {self.ply}")
        prefix = f"{', '.join(where)}: " if where else ""
        return f"{prefix}{self.code}: {self.message}"


class NotationSyntaxError(RecordError):
    """The text does not follow the GRN grammar (or the JSON is not JSON)."""

    code = "syntax-error"


class InvalidRecordError(RecordError):
    """Well-formed text whose values mean nothing for this game (size 40, a flip in Pilo)."""

    code = "invalid-record"


class SchemaError(RecordError):
    """A JSON record that breaks ``spec/record.schema.json``; ``pointer`` names the field."""

    code = "schema"


class IllegalMoveError(RecordError):
    """A well-formed move that breaks a rule in the position where it is played."""

    code = "illegal-move"


class AmbiguousMoveError(IllegalMoveError):
    """An Implo move that leaves open a choice the rules give the mover."""

    code = "ambiguous-move"


class LimitError(RecordError):
    """A record over one of the limits of :mod:`arbiter.notation.limits` (too large, too
    many moves, a number of too many digits, ...); ``code`` names the limit."""

    code = "too-large"


class ResultMismatchError(RecordError):
    """The claimed result contradicts the result the moves produce."""

    code = "result-mismatch"


def internal_error(
    err: BaseException, *, index: int | None = None, file: str | None = None
) -> RecordError:
    """The error of a record on which the program itself failed (a bug, not the record's
    fault): code ``internal-error``, with the exception's name and message, so that the
    record is reported and the batch goes on."""
    text = str(err)
    shown = text if len(text) <= 200 else text[:197] + "..."
    return RecordError(
        f"the program failed on this record ({type(err).__name__}: {shown}); "
        "please report it with the record",
        code="internal-error",
        index=index,
        file=file,
    )
