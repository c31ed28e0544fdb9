"""One entry point for reading records whatever their notation (``spec/grn.md``, "Files").

GRN and JSON are told apart by the file name where there is one, else by the first
characters: JSON starts with ``{`` or with ``[`` followed by ``{`` or ``]``.
"""

from __future__ import annotations

import io
from collections.abc import Iterator
from typing import BinaryIO, Literal

from notation.ast import Record
from notation.errors import RecordError
from notation.grn import read_grn
from notation.jsonio import read_json

Format = Literal["grn", "json"]

MAX_JSON_BYTES = 64 * 1024 * 1024
"""JSON is read whole; a larger JSON file is refused (GRN is streamed and has no such cap)."""


def sniff_format(head: bytes) -> Format:
    """Guess the notation from the first bytes of a source."""
    text = head.lstrip(b"\xef\xbb\xbf \t\r\n")
    if text.startswith(b"{"):
        return "json"
    if text.startswith(b"["):
        rest = text[1:].lstrip()
        if not rest or rest[:1] in (b"{", b"]"):
            return "json"
    return "grn"


def format_for_name(name: str | None) -> Format | None:
    """The notation a file name announces (``.grn``, ``.json``), or None."""
    if name is None:
        return None
    lowered = name.lower()
    if lowered.endswith(".json"):
        return "json"
    if lowered.endswith(".grn"):
        return "grn"
    return None


def read_records(source: bytes | str | BinaryIO, *, file: str | None = None,
                 fmt: Format | None = None) -> Iterator[Record | RecordError]:
    """Yield the records of one source in order, each a Record or the RecordError that
    stopped it. Never raises ``RecordError``."""
    stream = _as_stream(source)
    fmt = fmt or format_for_name(file) or sniff_format(stream.peek(4096)[:4096])
    if fmt == "grn":
        yield from read_grn(stream, file=file)
        return
    data = stream.read(MAX_JSON_BYTES + 1)
    if len(data) > MAX_JSON_BYTES:
        yield RecordError(f"JSON input is larger than {MAX_JSON_BYTES} bytes",
                          code="too-large", index=0, file=file)
        return
    yield from read_json(data, file=file)


def _as_stream(source: bytes | str | BinaryIO) -> io.BufferedReader:
    if isinstance(source, str):
        source = source.encode("utf-8", "surrogatepass")
    if isinstance(source, bytes):
        return io.BufferedReader(io.BytesIO(source))
    if isinstance(source, io.BufferedReader):
        return source
    return io.BufferedReader(source)  # type: ignore[arg-type]
