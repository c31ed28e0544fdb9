"""The views behind the page's record viewer (``spec/api.md`` section 3.6), and the page's
own files (``spec/api.md`` section 1).

``POST /api/v1/diagram`` draws one record sent at one ply as SVG; ``POST /api/v1/positions``
gives every ply of the records sent at once, so that the page steps through a game without
asking the server again. Both pick records and plies through :mod:`arbiter.service.core.diagrams`,
as ``arbiter diagram`` and ``arbiter show`` do. The :data:`assets` blueprint serves the
page's script, style sheet and icon from ``static/``.
"""

from __future__ import annotations

import io
from collections.abc import Iterable, Iterator, Mapping, Sequence
from functools import cache
from importlib import resources

from flask import Blueprint, Request, Response, jsonify
from werkzeug.datastructures import MultiDict

from arbiter.diagram import Options, render
from arbiter.notation.ast import Record
from arbiter.notation.errors import RecordError
from arbiter.notation.repair import (
    BadCorrection,
    Correction,
    CorrectionError,
    notation_of,
    parse_correction,
    source_bytes,
    source_text,
)
from arbiter.notation.sources import read_records, split_source
from arbiter.service.core.diagrams import (
    Budget,
    NoSuchPly,
    NoSuchRecord,
    TooManyPlies,
    frame_of,
    pick,
    positions_entry,
)
from arbiter.service.core.repairs import corrected_text, correction_entries
from arbiter.service.web.errors import ApiError
from arbiter.service.web.inputs import RequestSource, request_sources

MAX_WIDTH = 4096
ASSETS: Mapping[str, str] = {
    "dom.js": "text/javascript; charset=utf-8",
    "index.js": "text/javascript; charset=utf-8",
    "viewer.js": "text/javascript; charset=utf-8",
    "standings.js": "text/javascript; charset=utf-8",
    "viewer.css": "text/css; charset=utf-8",
    "index.css": "text/css; charset=utf-8",
    "site.css": "text/css; charset=utf-8",
    "event.js": "text/javascript; charset=utf-8",
    "live.js": "text/javascript; charset=utf-8",
    "desk.js": "text/javascript; charset=utf-8",
    "rounds.js": "text/javascript; charset=utf-8",
    "times.js": "text/javascript; charset=utf-8",
    "game.js": "text/javascript; charset=utf-8",
    "upload.js": "text/javascript; charset=utf-8",
    "favicon.svg": "image/svg+xml",
}
"""The page's files under ``static/``, and their types; nothing else is served from there."""

assets = Blueprint("assets", __name__)


def diagram(request: Request) -> Response:
    """The SVG of record ``?record=`` (from 0, among all records sent) at ``?ply=``, with
    the corrections of ``?apply=`` applied to it first.

    Raises ``ApiError``: 400 for a parameter that is not of its type, 422 for a record or
    ply that does not exist among those sent, a correction that cannot be applied, or a
    record that cannot be replayed."""
    args = request.args
    options = Options(
        coordinates=_flag(args, "coordinates", True),
        caption=_flag(args, "caption", True),
        control=_flag(args, "control", False),
        width=_number(args, "width", 16, MAX_WIDTH),
    )
    index = _number(args, "record", 0) or 0
    ply = _number(args, "ply", 0)
    corrections = _corrections(args)
    item, name, _applied = _chosen(request, index, corrections)
    try:
        frame = frame_of(item, ply)
    except NoSuchPly as err:
        raise ApiError(422, "no-such-ply", str(err), parameter="ply") from None
    except RecordError as err:
        problem = {"file": name, "index": err.index if err.index is not None else index}
        raise ApiError(
            422,
            "unreadable-record",
            f"record {index} cannot be drawn: {err.message}",
            problems=[{**problem, **err.to_dict()}],
        ) from None
    return Response(render(frame, options), content_type="image/svg+xml; charset=utf-8")


def positions(request: Request) -> Response:
    """Every record sent (or only ``?record=``) with its report, its moves and every ply;
    with ``?svg=true`` the parts each ply's picture is put together from, and with
    ``?control=true`` who controls each point. With ``?apply=PLY:MOVE`` (repeated, applied
    in order) only record ``?record=`` (by default 0) is given, replayed as a corrected copy
    (``spec/api.md`` section 3.6): what was sent is not changed, the entry says the
    ``corrections`` applied.

    Raises ``ApiError``: 400 for a parameter that is not of its type, 422 for a record
    number past the last record sent, a correction that cannot be applied, or for more
    plies than one answer holds."""
    args = request.args
    svg, control = _flag(args, "svg", False), _flag(args, "control", False)
    index = _number(args, "record", 0)
    corrections = _corrections(args)
    applied = None
    if corrections:
        item, name, applied = _chosen(request, index or 0, corrections)
        chosen: Iterable[tuple[Record | RecordError, str | None]] = [(item, name)]
    else:
        chosen = [_pick(request, index)] if index is not None else _records(request)
    budget = Budget()
    try:
        entries = [
            positions_entry(item, file=name, svg=svg, control=control, budget=budget)
            for item, name in chosen
        ]
    except TooManyPlies as err:
        raise ApiError(422, "too-many-plies", str(err), limit=budget.limit) from None
    if applied is not None:
        entries[0]["corrections"] = correction_entries(applied)
    return jsonify(count=len(entries), records=entries)


def _corrections(args: MultiDict[str, str]) -> list[str]:
    """The corrections of the query (``apply=PLY:MOVE``, repeated), each checked for its
    shape. Raises ``ApiError`` 400 for one of another shape."""
    found = args.getlist("apply")
    for text in found:
        try:
            parse_correction(text)
        except BadCorrection as err:
            raise ApiError(400, "bad-parameter", str(err), parameter="apply") from None
    return found


def _chosen(
    request: Request, index: int, corrections: Sequence[str]
) -> tuple[Record | RecordError, str | None, list[Correction]]:
    """Record ``index`` of those sent, with ``corrections`` applied to its text (none: as
    sent), the name of its file, and the corrections as applied.

    Raises ``ApiError``: 422 for a record that is not there (``no-such-record``) or a
    correction that cannot be applied to it (``cannot-correct``)."""
    if not corrections:
        return (*_pick(request, index), [])
    try:
        source, data, local = pick(_units(request), index)
    except NoSuchRecord as err:
        raise ApiError(422, "no-such-record", str(err), parameter="record") from None
    text = source_text(data)
    notation = source.fmt or notation_of(source.name, text)
    try:
        corrected, applied = corrected_text(text, corrections, index=local, notation=notation)
    except CorrectionError as err:
        message = f"record {index} cannot be corrected so: {err}"
        raise ApiError(422, "cannot-correct", message, parameter="apply") from None
    found = read_records(source_bytes(corrected), file=source.name, fmt=source.fmt)
    try:
        return pick(found, local), source.name, applied
    except NoSuchRecord:  # a place given inside the tags can merge records
        message = f"record {index} is no record once corrected so"
        raise ApiError(422, "cannot-correct", message, parameter="apply") from None


def _units(request: Request) -> Iterator[tuple[RequestSource, bytes, int]]:
    """Every record sent, as its source, the source's bytes and its place in the source
    (cut from the source, not read: only the one corrected is read)."""
    for source in request_sources(request):
        data = source.data if isinstance(source.data, bytes) else source.data.read()
        units = split_source(io.BytesIO(data), file=source.name, fmt=source.fmt)
        for local, _unit in enumerate(units):
            yield source, data, local


def _records(request: Request) -> Iterator[tuple[Record | RecordError, str | None]]:
    """Every record sent, with the name of the file it came in (None for a body)."""
    for source in request_sources(request):
        for item in read_records(source.data, file=source.name, fmt=source.fmt):
            yield item, source.name


def _pick(request: Request, index: int) -> tuple[Record | RecordError, str | None]:
    try:
        return pick(_records(request), index)
    except NoSuchRecord as err:
        raise ApiError(422, "no-such-record", str(err), parameter="record") from None


def _number(args: Mapping[str, str], name: str, low: int, high: int | None = None) -> int | None:
    """The whole number ``name`` of the query (None when absent). Raises ``ApiError`` 400
    when it is not a whole number between ``low`` and ``high``."""
    text = args.get(name)
    if text is None:
        return None
    if not text.isascii() or not text.isdigit() or int(text) < low or (high and int(text) > high):
        bounds = f"from {low} to {high}" if high else f"from {low} up"
        raise ApiError(
            400,
            "bad-parameter",
            f"the query parameter {name!r} must be a whole number {bounds}, not {text!r}",
            parameter=name,
        )
    return int(text)


def _flag(args: Mapping[str, str], name: str, default: bool) -> bool:
    """The yes-or-no parameter ``name``: ``true`` or ``false`` (``1``, ``0``). Raises
    ``ApiError`` 400 for anything else."""
    text = args.get(name)
    if text is None:
        return default
    if text.lower() in ("true", "1"):
        return True
    if text.lower() in ("false", "0"):
        return False
    raise ApiError(
        400,
        "bad-parameter",
        f"the query parameter {name!r} must be true or false, not {text!r}",
        parameter=name,
    )


@assets.get("/static/<name>")
def asset(name: str) -> Response:
    """One of the page's files (404 for any other name)."""
    if name not in ASSETS:
        raise ApiError(404, "not-found", f"the page has no file {name!r}")
    return Response(_asset(name), content_type=ASSETS[name])


@assets.get("/favicon.ico")
def favicon() -> Response:
    """The page's icon, where browsers look for it without being told (an SVG picture)."""
    return Response(_asset("favicon.svg"), content_type=ASSETS["favicon.svg"])


@cache
def _asset(name: str) -> bytes:
    return resources.files("arbiter.service.web.static").joinpath(name).read_bytes()
