"""The record sources an HTTP request carries (``spec/api.md``, section "Request bodies").

A request sends records either as its whole body, whose Content-Type names the notation, or
as a ``multipart/form-data`` upload of files, each named by its file name. Anything else is
refused with an :class:`~service.errors.ApiError` before any record is read.
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from typing import IO

from flask import Request

from arbiter.notation.sources import JoinedStream, Notation
from arbiter.service.web.errors import ApiError

BODY_FORMATS: dict[str, Notation | None] = {
    "text/plain": "grn",
    "application/x-grn": "grn",
    "application/json": "json",
    "application/octet-stream": None,  # told apart by its first characters
    "": None,  # no Content-Type at all: the same
}
"""The Content-Types a body may have, and the notation each one means (None: sniff)."""

MULTIPART = "multipart/form-data"


class RecordRequest(Request):
    """Flask's request, keeping uploaded files in memory.

    Each file is read whole anyway, and the body is bounded by MAX_CONTENT_LENGTH, so
    spooling to temporary files would gain nothing; and a temporary file that Werkzeug
    opened for a body it then refused (too many parts) would stay open until collected."""

    def _get_file_stream(
        self,
        total_content_length: int | None,
        content_type: str | None,
        filename: str | None = None,
        content_length: int | None = None,
    ) -> IO[bytes]:
        return io.BytesIO()


@dataclass(frozen=True, slots=True)
class RequestSource:
    """One source of records (its bytes, or the body as a stream), its file name if it had
    one, and its notation if the request named it (else the file name's extension or the
    content decide)."""

    name: str | None
    data: bytes | IO[bytes]
    fmt: Notation | None = None


def request_sources(request: Request) -> list[RequestSource]:
    """Every source of records in ``request``, in the order sent.

    Raises ``ApiError`` 415 for a Content-Type the API does not read, 400 for an empty body
    or a multipart body without a file, and lets Werkzeug's 413 through for a body over the
    size limit."""
    if request.mimetype == MULTIPART:
        return _uploaded_files(request)
    if request.mimetype not in BODY_FORMATS:
        raise ApiError(
            415,
            "unsupported-media-type",
            f"cannot read a body of type {request.mimetype!r}; send text/plain or "
            "application/x-grn (GRN), application/json (JSON), or "
            "multipart/form-data (files)",
            accepted=sorted(filter(None, BODY_FORMATS)),
        )
    # The body is read as a stream, a record at a time, never whole: a record over the
    # limits is refused after reading at most its limit, however large the body.
    stream = request.stream
    head = stream.read(HEAD)
    if not head:
        raise ApiError(400, "empty-body", "the request has no body: send one or more records")
    body = io.BufferedReader(JoinedStream(head, stream), HEAD)
    return [RequestSource(None, body, BODY_FORMATS[request.mimetype])]


HEAD = 64 * 1024
"""Bytes read from a body at a time."""


def file_name(sent: str | None) -> str | None:
    """The name of an uploaded file as it is kept and shown: its last part only (a client
    may send a path, ``../../x.grn`` or ``C:\\round\\x.grn``), without control characters
    (NUL included), at most :data:`MAX_FILE_NAME` characters (the end kept, with its
    extension); None when nothing is left."""
    if not sent:
        return None
    last = sent.replace("\\", "/").rsplit("/", 1)[-1]
    shown = "".join(c for c in last if c.isprintable() or c == " ").strip()
    if shown in ("", ".", ".."):
        return None
    return shown[-MAX_FILE_NAME:]


MAX_FILE_NAME = 255
"""The most characters of a file name that are kept (the events' database holds 255)."""


def _uploaded_files(request: Request) -> list[RequestSource]:
    if not request.mimetype_params.get("boundary"):
        raise ApiError(400, "bad-multipart", "the multipart/form-data body has no boundary")
    sources = []
    for _field, storage in request.files.items(multi=True):
        data = storage.read()
        if storage.filename or data:  # an empty file input of a form sends neither
            sources.append(RequestSource(file_name(storage.filename), data))
    if not sources:
        raise ApiError(
            400,
            "bad-multipart",
            "the multipart/form-data body holds no file: send each source of "
            "records as a file part (field name 'file')",
        )
    return sources
