"""The public page of an event, at the ``url`` its creation answered (``/events/ID``):
server-rendered, readable without scripts, every name escaped (``spec/events.md`` §5)."""

from __future__ import annotations

import html
from typing import Any

from flask import Blueprint, Response

from arbiter.service.errors import ApiError
from arbiter.service.events.api import call

bp = Blueprint("event_pages", __name__)


def _e(text: object) -> str:
    return html.escape(str(text), quote=True)


@bp.get("/events/<event_id>")
def event_page(event_id: str) -> Response:
    """The event's name, game, rounds, standings, corrections and downloads."""
    from arbiter.service.events.common import CORRECTIONS
    from arbiter.service.events.reading import entries, event_standings
    from arbiter.service.standings_formats import HTML_STYLE, html_table

    try:
        summary, tables = call(event_standings, event_id)
    except ApiError as err:
        if err.status != 404:
            raise
        page = _page("No such event", f"<h1>No such event</h1><p>{_e(err.message)}</p>")
        return Response(page, status=404, content_type="text/html; charset=utf-8")
    corrections = [e for e in call(entries, event_id) if e.action in CORRECTIONS]
    api = f"/api/v1/events/{_e(event_id)}"
    planned = summary["rounds"] if summary["rounds"] is not None else "?"
    state = f"finalised {summary['finalised_at']}" if summary["finalised_at"] else "in progress"
    body = [
        f"<h1>{_e(summary['name'])}</h1>",
        f'<p class="legend">{_e(summary["game"])} · round {summary["rounds_played"]} of '
        f"{_e(planned)} · {_e(state)} · last change {_e(summary['last_change'] or '-')}</p>",
        *(html_table(table) for table in tables),
        _corrections(corrections),
        "<h2>Downloads</h2><ul>"
        + "".join(
            f'<li><a href="{api}/standings?format={fmt}">{label}</a></li>'
            for fmt, label in (("trf", "TRF"), ("csv", "CSV"), ("html", "HTML"), ("json", "JSON"))
        )
        + f'<li><a href="{api}/records">records and reports (JSON)</a></li>'
        + f'<li><a href="{api}/log">audit trail (JSON)</a></li></ul>',
    ]
    page = _page(f"{summary['name']} - standings", "\n".join(body), HTML_STYLE)
    return Response(page, content_type="text/html; charset=utf-8")


def _corrections(found: list[Any]) -> str:
    if not found:
        return ""
    items = []
    for entry in found:
        what = {
            "excluded": "excluded",
            "reinstated": "counted again",
            "result-set": f"official result {entry.details.get('result')} (the adjudicator: "
            f"{entry.details.get('adjudicated')})",
            "result-cleared": "official result taken back",
        }[entry.action]
        items.append(
            f"<li>{_e(entry.at)}: record {_e(entry.details.get('record'))} {_e(what)}; "
            f"reason: {_e(entry.reason or '-')}</li>"
        )
    return f"<h2>Corrections ({len(found)})</h2><ul>{''.join(items)}</ul>"


def _page(title: str, body: str, style: str = "") -> str:
    return (
        '<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{_e(title)}</title>\n<style>\n{style}\n</style>\n</head>\n"
        f"<body>\n{body}\n</body>\n</html>\n"
    )
