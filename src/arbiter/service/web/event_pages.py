"""The events' pages (``spec/events.md`` §10): the list of events with a form to create one
(``/events``), the public page of an event (``/events/ID``), server-rendered and readable
without scripts, and the director's desk (``/events/ID/desk``), which works through the API
with the director's token kept in the browser's session storage. Every name a user typed is
escaped by the templates (Jinja's autoescape)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from flask import Blueprint, Response, render_template

from arbiter.service.web.errors import ApiError
from arbiter.service.web.events_api import LISTED, call, server_key

if TYPE_CHECKING:
    from arbiter.service.events.views import RecordView

bp = Blueprint("event_pages", __name__)


@dataclass(frozen=True, slots=True)
class Game:
    """One record as a round of the page lists it."""

    record: RecordView
    colours: tuple[str, str]

    @property
    def players(self) -> list[tuple[str, str]]:
        return [(colour, self.record.players.get(colour, "?")) for colour in self.colours]


@bp.get("/events")
def events_page() -> str:
    """The events kept here, newest first, and a form to create one."""
    from arbiter.notation.games import all_games
    from arbiter.service.events.reading import list_events

    rows = call(list_events, newest_first=True, limit=LISTED)
    return render_template("events.html", events=rows, games=[g.name for g in all_games()])


@bp.get("/events/<event_id>")
def event_page(event_id: str) -> Response | str:
    """The event's name, game, rounds, standings with their tie-breaks, crosstable, the games
    of each round, what does not count and why, the corrections, and the downloads."""
    from arbiter.adjudicator.tiebreaks import EXPLANATIONS, TITLES
    from arbiter.notation.games import find_game
    from arbiter.service.core.standings_formats import cell_text, colour_letters, value_text
    from arbiter.service.events.actions import CORRECTIONS, REASONS_SHOWN
    from arbiter.service.events.common import ACCEPTED
    from arbiter.service.events.reading import entries, event_standings, list_records

    try:
        summary, tables = call(event_standings, event_id)
    except ApiError as err:
        if err.status != 404:
            raise
        return Response(render_template("missing.html", message=err.message), status=404)
    kept = call(list_records, event_id)
    trail = call(entries, event_id)
    paired_rounds = []
    if summary.pairing != "none":
        from arbiter.service.events.rounds import rounds_view

        paired_rounds = call(rounds_view, event_id)
    colours = find_game(summary.game).colours
    by_number = {one.record: one for one in kept}
    reasons = {
        entry.details["record"]: entry.reason for entry in trail if entry.action in REASONS_SHOWN
    }
    return render_template(
        "event.html",
        event=summary,
        tables=tables,
        rounds=_rounds(kept, colours),
        colours=colours,
        waiting=[one for one in kept if one.status != ACCEPTED],
        corrections=[entry for entry in trail if entry.action in CORRECTIONS],
        by_number=by_number,
        reasons=reasons,
        titles=TITLES,
        explanations=EXPLANATIONS,
        cell_text=cell_text,
        value_text=value_text,
        letters=colour_letters(summary.game),
        ranks=lambda table: {line.player: line.rank for line in table.standings},
        key=server_key().public,
        paired_rounds=paired_rounds,
    )


def _rounds(kept: Iterable[RecordView], colours: tuple[str, str]) -> list[tuple[str, list[Game]]]:
    """The records by round, in round order (those without a round last)."""
    found: dict[int | None, list[Game]] = {}
    for one in kept:
        found.setdefault(one.round, []).append(Game(one, colours))
    numbered = sorted(number for number in found if number is not None)
    out = [(f"Round {number}", found[number]) for number in numbered]
    if None in found:
        out.append(("Without a round", found[None]))
    return out


@bp.get("/events/<event_id>/desk")
def desk_page(event_id: str) -> Response | str:
    """The director's desk: uploads, confirmations, corrections, tokens, finalisation."""
    from arbiter.service.events.reading import event_summary

    try:
        summary = call(event_summary, event_id)
    except ApiError as err:
        if err.status != 404:
            raise
        return Response(render_template("missing.html", message=err.message), status=404)
    return render_template("desk.html", event=summary)
