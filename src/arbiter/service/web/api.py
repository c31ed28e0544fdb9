"""The ``/api/v1`` blueprint (``spec/api.md``, described formally in ``spec/openapi.yaml``).

Views stay thin: read the sources of the request (:mod:`service.inputs`), hand them to the
functions the CLI uses too (:mod:`service.batch`), and return JSON. Whether a record is valid
is said in the body (``"valid": false``), never by the status code: a 4xx answer means the
request itself could not be used.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, cast

from flask import Blueprint, Response, current_app, jsonify, render_template, request

from arbiter import __version__
from arbiter.adjudicator.replay import Report
from arbiter.adjudicator.standings import standings as compute_standings
from arbiter.adjudicator.standings import standings_document
from arbiter.adjudicator.tiebreaks import parse_order
from arbiter.notation.ast import Record
from arbiter.notation.json_schema import record_schema
from arbiter.notation.sources import Notation
from arbiter.service.core.batch import (
    adjudicate_source,
    adjudicated_source,
    convert_source,
    game_rows,
    output_parts,
)
from arbiter.service.core.standings_formats import (
    MEDIA_TYPES,
    STANDINGS_FORMATS,
    FormatError,
    StandingsFormat,
)
from arbiter.service.core.standings_formats import render as render_standings
from arbiter.service.web import openapi, viewer
from arbiter.service.web.errors import ApiError
from arbiter.service.web.inputs import RequestSource, request_sources

bp = Blueprint("api", __name__, url_prefix="/api/v1")

CONVERT_TYPES = {
    "grn": "text/plain; charset=utf-8",
    "json": "application/json",
    "abstractplay": "application/json",
}


@bp.post("/adjudicate")
def adjudicate() -> Response:
    """One report per record sent (the CLI's ``adjudicate --json``), under ``reports``."""
    reports = [report.to_dict() for report in _reports(request_sources(request))]
    invalid = sum(not report["valid"] for report in reports)
    # No record is no clean batch: an empty upload must not pass for a valid one.
    valid = invalid == 0 and bool(reports)
    return jsonify(valid=valid, count=len(reports), invalid=invalid, reports=reports)


@bp.post("/validate")
def validate() -> Response:
    """Only the problems of the records sent (the CLI's ``validate``), under ``problems``."""
    count = invalid = 0
    problems: list[dict[str, Any]] = []
    for report in _reports(request_sources(request)):
        count += 1
        invalid += not report.valid
        problems.extend(
            {"file": report.file, "index": report.index, **error} for error in report.errors
        )
    valid = invalid == 0 and count > 0  # no record is no clean batch
    return jsonify(valid=valid, count=count, invalid=invalid, problems=problems)


@bp.post("/convert")
def convert() -> Response:
    """The records sent, in canonical GRN or JSON, or as Abstract Play records (``?to=``);
    422 if any cannot be read (or cannot be written in that notation)."""
    to = request.args.get("to")
    if to not in CONVERT_TYPES:
        given = "is missing" if to is None else f"is {to[:40]!r}"
        raise ApiError(
            400,
            "bad-parameter",
            f"the query parameter 'to' must be 'grn', 'json' or 'abstractplay'; it {given}",
            parameter="to",
        )
    target = cast(Notation, to)
    texts: list[str] = []
    problems: list[dict[str, Any]] = []
    for source in request_sources(request):
        for item in convert_source(source.data, to=target, file=source.name, fmt=source.fmt):
            if item.error is not None:
                problems.append({"file": source.name, "index": item.index, **item.error.to_dict()})
            elif item.text is not None:
                texts.append(item.text)
    text = "".join(output_parts(texts, target))
    if problems:
        raise ApiError(
            422,
            "unreadable-records",
            f"{len(problems)} of {len(texts) + len(problems)} record(s) could "
            "not be converted; 'output' holds the others",
            problems=problems,
            output=text if texts else None,
        )
    return Response(text, content_type=CONVERT_TYPES[to])


@bp.post("/standings")
def standings() -> Response:
    """The standings of the records sent (the CLI's ``standings``): the JSON of
    ``--json`` by default, or the text of ``?format=table|csv|html|trf``; ``?tiebreak=``
    and ``?total_rounds=`` as the CLI's options. 422 when the standings cannot be written
    in that format (TRF of several events)."""
    order = _standings_order()
    fmt = standings_format()
    total = _total_rounds()
    tables = compute_standings(
        (pair for source in request_sources(request) for pair in _adjudicated(source)),
        tiebreaks=order,
    )
    if fmt == "json":
        return jsonify(standings_document(tables))
    try:
        text = render_standings(tables, fmt, total_rounds=total)
    except FormatError as err:
        raise ApiError(422, "cannot-format", str(err), parameter="format") from None
    return Response(text, content_type=MEDIA_TYPES[fmt])


def standings_format() -> StandingsFormat:
    """The request's ``?format=`` of standings (``json`` by default); 400 for another."""
    fmt = request.args.get("format", "json")
    if fmt not in STANDINGS_FORMATS:
        raise ApiError(
            400,
            "bad-parameter",
            f"the query parameter 'format' must be one of {', '.join(STANDINGS_FORMATS)}, "
            f"not {fmt!r}",
            parameter="format",
        )
    return fmt


def _standings_order() -> tuple[str, ...] | None:
    text = request.args.get("tiebreak")
    try:
        return None if text is None else parse_order(text)
    except ValueError as err:
        raise ApiError(400, "bad-parameter", str(err), parameter="tiebreak") from None


def _total_rounds() -> int | None:
    text = request.args.get("total_rounds")
    if text is None:
        return None
    if not (text.isascii() and text.isdigit() and len(text) <= 3 and 1 <= int(text) <= 999):
        raise ApiError(
            400,
            "bad-parameter",
            f"the query parameter 'total_rounds' must be a whole number from 1 to 999, "
            f"not {text!r}",
            parameter="total_rounds",
        )
    return int(text)


def _adjudicated(source: RequestSource) -> Iterator[tuple[Record | None, Report]]:
    return adjudicated_source(source.data, file=source.name, fmt=source.fmt)


@bp.get("/games")
def games() -> Response:
    """The games, their sizes, colours and move forms (the CLI's ``games --json``)."""
    return jsonify(games=game_rows())


@bp.get("/schema")
def schema() -> Response:
    """The JSON Schema of JSON records."""
    return Response(current_app.json.dumps(record_schema()), content_type="application/schema+json")


@bp.get("/health")
def health() -> Response:
    """Liveness: the service answers, and which version it is."""
    return jsonify(status="ok", version=__version__)


@bp.get("/openapi.yaml")
def openapi_yaml() -> Response:
    """This API's description (OpenAPI 3.1), with the games this server knows."""
    return Response(openapi.openapi_yaml(), content_type="application/yaml; charset=utf-8")


@bp.get("/openapi.json")
def openapi_json() -> Response:
    """The same description as JSON."""
    return jsonify(openapi.openapi_document())


@bp.post("/diagram")
def diagram() -> Response:
    """One record sent, drawn at a ply as SVG (``?record=``, ``?ply=``, drawing options)."""
    return viewer.diagram(request)


@bp.post("/positions")
def positions() -> Response:
    """Every ply of the records sent, for a viewer: reports, moves and positions (with
    ``?svg=true`` the picture of each ply)."""
    return viewer.positions(request)


def index() -> str:
    """The page at ``/``: paste or upload records and see the reports (no external assets)."""
    return render_template("index.html")


def _reports(sources: list[RequestSource]) -> Iterator[Report]:
    for source in sources:
        yield from adjudicate_source(source.data, file=source.name, fmt=source.fmt)
