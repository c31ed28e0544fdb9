"""One entry point for reading records whatever their notation (``spec/grn.md``, "Files").

GRN and JSON are told apart by the file name where there is one, else by the first
character that is not white space: JSON starts with ``{``, or with ``[`` followed by ``{`` or
``]``. White space before it may be of any length: it is skipped while sniffing and given
back to the reader as the line breaks it held, so that line numbers stay right.

Reading is done in two steps that :mod:`arbiter.service.cli.parallel` runs in different
processes: :func:`split_source` cuts a source into the text of each record (cheap, in
bounded memory), :func:`read_unit` reads one. Whatever fails in a record, even a bug,
becomes that record's error: the records after it are still read.

Within a JSON document each record is told apart by its shape: an Abstract Play record
(``spec/abstractplay.md``) or the project's own (``spec/json.md``).
"""

from __future__ import annotations

import codecs
import io
import os
from collections.abc import Iterator
from typing import IO, TYPE_CHECKING, Literal, Union

from arbiter.notation.ast import Record
from arbiter.notation.chunk import Chunk
from arbiter.notation.errors import RecordError, internal_error
from arbiter.notation.grn_reader import iter_lines, read_chunk, split_records
from arbiter.notation.limits import BLANK_BYTES, BOM, MAX_RECORD_BYTES

if TYPE_CHECKING:
    from arbiter.notation.json_split import JsonItem

Notation = Literal["grn", "json", "abstractplay"]
NOTATIONS: tuple[Notation, ...] = ("grn", "json", "abstractplay")
"""The notations a reader may be told to use; ``json`` reads both kinds of JSON record."""
RecordInput = str | bytes | bytearray | os.PathLike[str] | IO[bytes] | IO[str]
"""What :func:`read_records` reads: a path, bytes, text, or a binary or text stream."""

Unit = Union[Chunk, "JsonItem"]
"""The text of one record as cut from its source, ready for :func:`read_unit`."""

_CHUNK = 64 * 1024


def read_records(
    source: RecordInput,
    *,
    file: str | None = None,
    fmt: Notation | None = None,
    encoding: str = "utf-8",
) -> Iterator[Record | RecordError]:
    """Yield the records of one source in order, each a :class:`Record` or the
    :class:`RecordError` that stopped it (with its ``index`` and ``file``).

    ``source`` is a path (``pathlib.Path`` or another ``os.PathLike``), text (a ``str``),
    bytes, or a binary or text stream. The notation is ``fmt`` if given, else the one the
    file name announces (``.grn``, ``.json``), else the one the first characters show. In
    JSON, each record is read as an Abstract Play record when it has that shape (or when
    ``fmt`` is ``abstractplay``), else as the project's own JSON record. A stream is read
    lazily (GRN never whole) and left open; a file named by a path is opened at once (so a
    missing file raises ``OSError`` here) and closed when the records are exhausted. Text
    that holds no record, white space or nothing, yields nothing. Never raises
    :class:`RecordError`.

    Records are UTF-8 text. ``encoding`` names another encoding (``cp1252``, ``latin-1``)
    that bytes, a binary stream or a file are decoded from instead, for files saved by
    programs that write no UTF-8 (text, a ``str`` or a text stream, is already decoded);
    a byte that encoding cannot decode is an ``encoding`` error in its place. Raises
    ``LookupError`` for a name that is no text encoding Python knows.

    Deprecated, kept for programs written for earlier versions: a ``str`` of one line that
    names an existing file, or that ends in ``.grn`` or ``.json``, is read as that path,
    with a ``DeprecationWarning``; pass ``pathlib.Path(name)`` instead."""
    if isinstance(source, str) and _looks_like_a_path(source):
        import warnings
        from pathlib import Path  # only here: start-up matters

        warnings.warn(
            "read_records() read a str as a path; pass pathlib.Path(...) for a file (a str is "
            "read as the records' text in a later version)",
            DeprecationWarning,
            stacklevel=2,
        )
        source = Path(source)
    encoding = text_encoding(encoding)
    if isinstance(source, os.PathLike):
        name = os.fspath(source)
        stream = open(name, "rb")  # noqa: SIM115  (closed by _closing)
        return _closing(_read(stream, file or str(name), fmt, encoding), stream)
    if isinstance(source, str) or _is_text(source):
        encoding = "utf-8"  # text is decoded already, and given to the reader as UTF-8
    return _read(_binary(source), file, fmt, encoding)


def text_encoding(name: str) -> str:
    """The canonical name of the text encoding ``name`` (``CP-1252`` is ``cp1252``,
    ``UTF8`` is ``utf-8``). Raises ``LookupError`` for a name that is none (``base64`` is
    a codec, but not of text), ``TypeError`` for a name that is no ``str``."""
    if not isinstance(name, str):
        raise TypeError(f"an encoding is named by a str, not {type(name).__name__}")
    try:
        found = codecs.lookup(name)
    except (LookupError, ValueError):
        found = None
    # Not the codecs of bytes to bytes or of text to text (base64, rot13), which Python marks.
    if found is None or not getattr(found, "_is_text_encoding", True):
        raise LookupError(f"{name!r} is not a text encoding")
    return found.name


def _is_text(source: object) -> bool:
    """Whether ``source`` is a stream of text (already decoded)."""
    if isinstance(source, io.TextIOBase):
        return True
    read = getattr(source, "read", None)
    return not isinstance(source, bytes | bytearray) and callable(read) and _reads_str(read)


def _reads_str(read: object) -> bool:
    try:
        return isinstance(read(0), str)  # type: ignore[operator]
    except Exception:  # not a stream after all: _binary says so
        return False


def _looks_like_a_path(text: str) -> bool:
    """A str taken for a path by earlier versions, that text read as records could not
    mean: one line naming a file that exists, or ending in a record file's extension."""
    if not text or "\n" in text or "\r" in text or text.lstrip()[:1] in ("[", "{"):
        return False
    return text.lower().endswith((".grn", ".json")) or os.path.isfile(text)


def parse_record(text: str | bytes) -> Record:
    """The one record that ``text`` holds, GRN or JSON (told apart by its first characters).

    Raises :class:`RecordError`: the error that stopped the record, or code ``no-record``
    when the text holds none and ``several-records`` when it holds more than one."""
    records = _read(_binary(text), None, None)
    first = next(records, None)
    if first is None:
        raise RecordError("the text holds no record", code="no-record")
    if isinstance(first, RecordError):
        raise first
    if next(records, None) is not None:
        raise RecordError(
            "the text holds more than one record; use read_records", code="several-records", index=1
        )
    return first


def _closing(
    records: Iterator[Record | RecordError], stream: IO[bytes]
) -> Iterator[Record | RecordError]:
    with stream:
        yield from records


def _read(
    stream: IO[bytes], file: str | None, fmt: Notation | None, encoding: str = "utf-8"
) -> Iterator[Record | RecordError]:
    for unit in split_source(stream, file=file, fmt=fmt, encoding=encoding):
        yield read_unit(unit, file=file, fmt=fmt)


def split_source(
    stream: IO[bytes],
    *,
    file: str | None = None,
    fmt: Notation | None = None,
    encoding: str = "utf-8",
) -> Iterator[Unit]:
    """The text of each record of a binary stream, in order, in the notation ``fmt``, or
    the one ``file``'s name announces, or the one the first characters show; its bytes are
    decoded from ``encoding`` (a canonical name, :func:`text_encoding`) when it is not
    UTF-8.

    Raises ``OSError`` if the stream cannot be read; a failure of the program itself ends
    the source with an ``internal-error`` unit (no boundary is known after it)."""
    if encoding != "utf-8":
        stream = recoded(stream, encoding)
    head, first = _skip_blank(stream)
    fmt = fmt or format_for_name(file) or sniff_format(first)
    body = io.BufferedReader(JoinedStream(head + first, stream), _CHUNK)
    count = 0
    try:
        if fmt == "grn":
            units: Iterator[Unit] = split_records(iter_lines(body))
        else:
            from arbiter.notation.json_split import split_json  # only for JSON: start-up matters

            units = split_json(body)
        for unit in units:
            count += 1
            yield unit
    except OSError:
        raise
    except Exception as err:  # a bug: say so in place of the records that follow
        yield Chunk("", 1, count, internal_error(err, index=count, file=file))


def read_unit(
    unit: Unit, *, file: str | None = None, fmt: Notation | None = None
) -> Record | RecordError:
    """The record of one unit of :func:`split_source`, or the error that stopped it; an
    unexpected failure is the record's ``internal-error``. A JSON record is read as an
    Abstract Play record when it has that shape or when ``fmt`` is ``abstractplay``. Never
    raises."""
    try:
        if not isinstance(unit, Chunk):  # a JsonItem
            # The JSON readers (and jsonschema) are loaded only when JSON is read: start-up
            # matters.
            from arbiter.notation.abstractplay import record_from_abstractplay
            from arbiter.notation.json_reader import read_item

            read = record_from_abstractplay if fmt == "abstractplay" else record_from_any_json
            item = read_item(unit, file=file, read=read)
        else:
            item = read_chunk(unit, file=file)
    except Exception as err:  # a bug: this record is reported, the others are still read
        return internal_error(err, index=unit.index, file=file)
    if isinstance(item, RecordError):
        # The error is a value from here on: its traceback would keep the reader's frames,
        # and the record's text in them, alive as long as the error is kept.
        item.__traceback__ = None
    return item


def record_from_any_json(obj: object, index: int = 0) -> Record:
    """The record a parsed JSON value describes, read as an Abstract Play record when it has
    that shape (:func:`~arbiter.notation.abstractplay.is_abstractplay`), else as the
    project's JSON record. Raises :class:`RecordError` as those readers do."""
    from arbiter.notation.abstractplay import is_abstractplay, record_from_abstractplay
    from arbiter.notation.json_reader import record_from_json

    if is_abstractplay(obj):
        return record_from_abstractplay(obj, index)
    return record_from_json(obj, index)


def _skip_blank(stream: IO[bytes]) -> tuple[bytes, bytes]:
    """Read past the byte-order mark and the white space that lead ``stream``.

    Returns what stands for them (their line breaks, then the white space of the last line,
    whose length decides the column of what follows; at most a record's worth of it) and the
    chunk read after them, which starts with the first other byte (empty at the end)."""
    breaks = 0
    line = b""
    chunk = stream.read(_CHUNK) or b""
    if chunk.startswith(BOM):
        chunk = chunk[len(BOM) :]
    while chunk:
        rest = chunk.lstrip(BLANK_BYTES)
        blank = chunk[: len(chunk) - len(rest)]
        if b"\n" in blank:
            breaks += blank.count(b"\n")
            line = blank[blank.rfind(b"\n") + 1 :]
        else:
            line = (line + blank)[: MAX_RECORD_BYTES + 1]
        if rest:
            return b"\n" * breaks + line, rest
        chunk = stream.read(_CHUNK) or b""
    return b"\n" * breaks + line, b""


def sniff_format(head: bytes) -> Notation:
    """Guess the notation from the first bytes that are not white space."""
    text = head.lstrip(BLANK_BYTES)
    if text.startswith(b"{"):
        return "json"
    if text.startswith(b"["):
        rest = text[1:].lstrip(BLANK_BYTES)
        if not rest or rest[:1] in (b"{", b"]"):
            return "json"
    return "grn"


def format_for_name(name: str | None) -> Notation | None:
    """The notation a file name announces (``.grn``, ``.json``), or None."""
    if name is None:
        return None
    lowered = name.lower()
    if lowered.endswith(".json"):
        return "json"
    if lowered.endswith(".grn"):
        return "grn"
    return None


def _binary(source: str | bytes | bytearray | IO[bytes] | IO[str]) -> IO[bytes]:
    """``source`` as a binary stream."""
    if isinstance(source, str):
        return io.BytesIO(source.encode("utf-8", "surrogatepass"))
    if isinstance(source, bytes | bytearray):
        return io.BytesIO(bytes(source))
    if not callable(getattr(source, "read", None)):
        raise TypeError(
            f"records are read from a path, text, bytes or a stream, not {type(source).__name__}"
        )
    if isinstance(source, io.TextIOBase) or isinstance(source.read(0), str):
        return io.BufferedReader(_EncodedText(source))  # type: ignore[arg-type]
    return source  # type: ignore[return-value]


def recoded(stream: IO[bytes], encoding: str) -> IO[bytes]:
    """``stream``, whose bytes are text in ``encoding``, as the UTF-8 bytes of that text. A
    byte the encoding cannot decode is given back as it was (``surrogateescape``), so that
    the reader reports it in its place as a byte that is not UTF-8."""
    decoder = codecs.getincrementaldecoder(encoding)(errors="surrogateescape")
    return io.BufferedReader(_EncodedText(_Decoded(stream, decoder), "surrogateescape"))


class _Decoded:
    """The text of a binary stream, read by an incremental decoder (a text stream of the
    least kind: ``read`` only, and no line ends changed)."""

    def __init__(self, stream: IO[bytes], decoder: codecs.IncrementalDecoder) -> None:
        self._stream = stream
        self._decoder = decoder
        self._done = False

    def read(self, size: int) -> str:
        text = ""
        while not text and not self._done:
            data = self._stream.read(size)
            self._done = not data
            text = self._decoder.decode(data or b"", final=self._done)
        return text


class _EncodedText(io.RawIOBase):
    """A text stream read as the UTF-8 bytes of its text (lone surrogates kept by
    ``errors``, so that the reader reports them as bytes that are not UTF-8)."""

    def __init__(self, text: IO[str] | _Decoded, errors: str = "surrogatepass") -> None:
        self._text = text
        self._errors = errors
        self._pending = b""

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: bytearray | memoryview) -> int:  # type: ignore[override]
        while not self._pending:
            chunk = self._text.read(_CHUNK)
            if not chunk:
                return 0
            self._pending = chunk.encode("utf-8", self._errors)
        count = min(len(buffer), len(self._pending))
        buffer[:count] = self._pending[:count]
        self._pending = self._pending[count:]
        return count


class JoinedStream(io.RawIOBase):
    """``head``, then the rest of ``stream``: a stream from which a few bytes were read (to
    sniff its format, or to see whether it is empty), whole again."""

    def __init__(self, head: bytes, stream: IO[bytes]) -> None:
        self._head = head
        self._stream = stream

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: bytearray | memoryview) -> int:  # type: ignore[override]
        if self._head:
            count = min(len(buffer), len(self._head))
            buffer[:count] = self._head[:count]
            self._head = self._head[count:]
            return count
        data = self._stream.read(len(buffer))
        if not data:
            return 0
        buffer[: len(data)] = data
        return len(data)
