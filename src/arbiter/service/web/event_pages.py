"""The events' pages (``spec/events.md`` §10): the list of events with a form to create one
(``/events``), the public page of an event (``/events/ID``) and its pages of a round, a
player, a game and the trail, server-rendered and readable without scripts, the director's
desk (``/events/ID/desk``), which works through the API with the director's token kept in
the browser's session storage, and a player's upload page, whose token comes in the link's
fragment. Every name a user typed is escaped by the templates (Jinja's autoescape)."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator, Mapping
from typing import TYPE_CHECKING, Any

from flask import Blueprint, Response, render_template, request, url_for
from markupsafe import Markup

from arbiter.service.web.codes import error_text
from arbiter.service.web.errors import ApiError
from arbiter.service.web.events_api import LISTED, call, server_key
from arbiter.service.web.languages import gettext, language

if TYPE_CHECKING:
    from arbiter.service.events.pages import GamePage

bp = Blueprint("event_pages", __name__)


@bp.get("/events")
def events_page() -> str:
    """The events kept here, newest first, and a form to create one."""
    from arbiter.adjudicator.tiebreaks import TITLES, parse_order
    from arbiter.notation.games import all_games
    from arbiter.service.events.kinds import KINDS
    from arbiter.service.events.reading import list_events
    from arbiter.service.web.words import kind_words

    rows = call(list_events, newest_first=True, limit=LISTED)
    return render_template(
        "events.html",
        events=rows,
        games=[g.name for g in all_games()],
        tiebreaks=list(TITLES.items()),
        kinds=list(KINDS.values()),
        kind_words=kind_words,
        orders={  # the order each kind keeps when given none: the form's first choice
            kind.stored: ",".join(parse_order(kind.tiebreaks(None, 0, None, None)))
            for kind in KINDS.values()
        },
    )


@bp.get("/events/<event_id>")
def event_page(event_id: str) -> Response | str:
    """The event's name, game, rounds, standings with their tie-breaks, crosstable, the games
    of each round, what does not count and why, the corrections, and the downloads."""
    from arbiter.service.events.actions import CORRECTIONS
    from arbiter.service.events.pages import OUT, WAITS, event_games
    from arbiter.service.events.reading import entries, event_standings
    from arbiter.service.web.words import progress

    def render() -> str:
        summary, tables = call(event_standings, event_id)
        games = call(event_games, event_id)
        trail = call(entries, event_id)
        return render_template(
            "event.html",
            event=summary,
            tables=tables,
            games=games,
            waiting=[g for g in games.records if g.counting.state in (WAITS, OUT)],
            corrections=[entry for entry in trail if entry.action in CORRECTIONS],
            by_number={g.record.record: g for g in games.records if g.record is not None},
            key=server_key().public,
            earlier=_earlier_keys(),
            progress=progress(games),
            **_table_words(summary.game),
        )

    return _page(render, event_id)


def _page(render: Callable[[], Response | str], event_id: str | None = None) -> Response | str:
    """A page, or the page that says what is missing (404), or why it cannot be shown now
    (a 5xx: a database that does not answer, an event whose stored rows cannot be read),
    without a trace of the server's code. A page of an event (``event_id``) is made once
    per version of the event and kept (:func:`_kept`)."""
    try:
        return _kept(event_id, render) if event_id is not None else render()
    except ApiError as err:
        if err.status == 404:
            message = error_text(err.code, err.message)
            return Response(render_template("missing.html", message=message), status=404)
        if err.status >= 500:
            shown = render_template("unavailable.html", message=error_text(err.code, err.message))
            return Response(shown, status=err.status)
        raise


def _kept(event_id: str, render: Callable[[], Response | str]) -> Response | str:
    """An event's page as made for its current version, kept in the server's memory with
    the event's other reads (:data:`~arbiter.service.events.reading.RENDERINGS`): a page of
    a large event read by many costs one query of the event's version until it changes."""
    from arbiter.service.events.reading import RENDERINGS, Rendered, version
    from arbiter.service.web.events_api import store

    key = (store().url, event_id, "page", request.url_root, request.full_path, language())
    with _one_view():  # the version and, for a page not kept, every read of it: one view
        current = call(version, event_id)
        found = RENDERINGS.get(key, current)
        if found is not None:
            return Response(found.body, content_type=found.content_type)
        made = render()
    if isinstance(made, str):
        RENDERINGS.put(key, Rendered(current, made.encode(), "text/html; charset=utf-8"))
    return made


@contextlib.contextmanager
def _one_view() -> Iterator[None]:
    """The reads of one page in one read transaction (a database that does not answer is
    the page's 503, as any read's)."""
    from arbiter.service.events.reading import one_view
    from arbiter.service.web.events_api import refusals, store

    with refusals(), one_view(store()):
        yield


def _earlier_keys() -> list[Any]:
    """The keys this server signed with before its key of now (a key file made again)."""
    from arbiter.service.web.events_api import keys_used

    current = server_key().public
    return [one for one in keys_used() if one.key != current]


def _table_words(game: str) -> dict[str, Any]:
    """What the templates of standings need beside the words of every page: the
    crosstable's cells, with each colour's letter in the page's language."""
    from arbiter.notation.games import find_game
    from arbiter.service.core.standings_formats import cell_text
    from arbiter.service.web.words import letters

    colours = find_game(game).colours
    return {
        "cell_text": cell_text,
        "letters": letters(colours),
        "colours": colours,
        "ranks": lambda table: {line.player: line.rank for line in table.standings},
    }


@bp.get("/events/<event_id>/rounds/<int:number>")
def round_page(event_id: str, number: int) -> Response | str:
    """A round: its pairing with board numbers as soon as it is paired, the results as they
    arrive, the boards that wait, the byes, and the standings after it."""
    from arbiter.service.events.pages import round_page as read_round

    def render() -> str:
        found = call(read_round, event_id, number)
        return render_template(
            "round.html",
            event=found.summary,
            page=found,
            numbers=_numbers(event_id),
            **_table_words(found.summary.game),
        )

    return _page(render, event_id)


def _numbers(event_id: str) -> dict[str, int]:
    """Each player's number on the pages, by name (the links to their pages)."""
    from arbiter.service.events.pages import event_games

    return dict(call(event_games, event_id).numbers)


@bp.get("/events/<event_id>/players/<int:number>")
def player_page(event_id: str, number: int) -> Response | str:
    """A player: their games round by round, their points and place."""
    from arbiter.service.events.pages import player_page as read_player
    from arbiter.service.events.ratings import event_ratings

    def render() -> str:
        found = call(read_player, event_id, number)
        rating = call(event_ratings, event_id).get(found.name)
        return render_template("player.html", event=found.summary, page=found, rating=rating)

    # kept per version of this event, as every page of it is: the ratings it shows are those
    # of the list when the event last changed (spec/ratings.md §6)
    return _page(render, event_id)


PAGE_ROWS = 500
"""The players a pool's table shows on the ratings page (the CSV gives them all)."""


@bp.get("/ratings")
def ratings_page() -> Response | str:
    """The rating list of every event's counted games, a table per pool, or its CSV
    (``?format=csv``); ``?pool=NAME`` gives that pool alone (404 when there is none)."""
    from arbiter.ratings.values import write_csv
    from arbiter.service.events.ratings import rating_list

    fmt = request.args.get("format", "html")
    if fmt not in ("html", "csv"):
        raise ApiError(400, "bad-field", f"format must be html or csv, not {fmt!r}")
    wanted = request.args.get("pool")

    def render() -> Response | str:
        found = call(rating_list)
        pools = found.pools
        if wanted is not None:
            pools = tuple(pool for pool in found.pools if pool.pool == wanted)
            if not pools:
                message = gettext("There is no rating pool “%(pool)s”.", pool=wanted)
                title = gettext("No such pool")
                shown = render_template("missing.html", title=title, message=message)
                return Response(shown, status=404)
        if fmt == "csv":
            return Response(write_csv(pools), content_type="text/csv; charset=utf-8")
        return render_template("ratings.html", found=found, pools=pools, rows=PAGE_ROWS)

    return _page(render)


@bp.get("/events/<event_id>/find")
def find_player(event_id: str) -> Response | str:
    """The "find my name" box: the player's page when one name holds what was typed, else
    the names that do."""
    from arbiter.service.events.pages import find_players
    from arbiter.service.events.reading import event_summary

    typed = request.args.get("name", "")[:200]

    def render() -> Response | str:
        summary = call(event_summary, event_id)
        found = call(find_players, event_id, typed)
        if len(found) == 1 or (found and typed.strip().casefold() == found[0][1].casefold()):
            target = url_for(".player_page", event_id=event_id, number=found[0][0])
            return Response(status=303, headers={"Location": target})
        return render_template("found.html", event=summary, typed=typed, found=found)

    return _page(render)


@bp.get("/events/<event_id>/records/<int:number>")
def record_page(event_id: str, number: int) -> Response | str:
    """A game's own page, by its record's number: the viewer titled with its round and
    players, the official result and the adjudicator's verdict."""
    from arbiter.service.events.pages import game_of_record

    return _page(lambda: _game(call(game_of_record, event_id, number)), event_id)


@bp.get("/events/<event_id>/rounds/<int:number>/boards/<int:board>")
def board_page(event_id: str, number: int, board: int) -> Response | str:
    """A game's own page in a paired event, by its round and board."""
    from arbiter.service.events.pages import game_on_board

    return _page(lambda: _game(call(game_on_board, event_id, number, board)), event_id)


def _game(found: GamePage) -> str:
    from arbiter.notation.games import find_game

    colours = find_game(found.summary.game).colours
    return render_template(
        "game.html", event=found.summary, page=found, game=found.game, colours=colours
    )


@bp.get("/events/<event_id>/log")
def log_page(event_id: str) -> Response | str:
    """The audit trail in words, newest first, with the chain's head and how to check a
    receipt."""
    from arbiter.service.events.reading import event_summary
    from arbiter.service.events.trail_words import trail_lines

    def render() -> str:
        summary = call(event_summary, event_id)
        lines = call(trail_lines, event_id)
        return render_template("log.html", event=summary, lines=lines, key=server_key().public,
                               earlier=_earlier_keys())  # fmt: skip

    return _page(render, event_id)


@bp.get("/events/<event_id>/desk")
def desk_page(event_id: str) -> Response | str:
    """The director's desk: uploads, the records by round with their repair hints,
    confirmations, corrections, tokens and players' links, finalisation; the event's public
    link as a QR code to print."""
    from arbiter.adjudicator.tiebreaks import TITLES
    from arbiter.service.events.pages import event_games

    def render() -> str:
        games = call(event_games, event_id)
        link = url_for(".event_page", event_id=event_id, _external=True)
        by_round: dict[int | None, list[Any]] = {}
        for game in games.records:
            by_round.setdefault(game.round, []).append(game)
        ordered = sorted(by_round.items(), key=lambda item: -1 if item[0] is None else item[0])
        return render_template(
            "desk.html",
            event=games.summary,
            by_round=ordered[::-1],
            link=link,
            qr=Markup(qr_svg(link)),
            correction_of=correction_of,
            tiebreaks=list(TITLES.items()),
        )

    return _page(render, event_id)


def correction_of(hint: Mapping[str, Any]) -> str:
    """A repair suggestion as the correction that applies it: ``PLY:MOVE``, and where the
    move stands (``@LINE:COLUMN``, ``@POINTER``) for a record that cannot be read."""
    where = ""
    if type(hint.get("line")) is int and type(hint.get("column")) is int:
        where = f"@{hint['line']}:{hint['column']}"
    elif isinstance(hint.get("pointer"), str):
        where = f"@{hint['pointer']}"
    return f"{hint['ply']}:{hint['move']}{where}"


QUIET_ZONE = 4
"""The white margin around a QR code, in modules: what ISO/IEC 18004 asks for, and what a
phone's reader needs to find the code's corners."""


def qr_svg(text: str) -> str:
    """``text`` (the event's public link) as a QR code, an SVG drawing of its own (no
    script, no style attribute: the pages' policy allows it as it is). It has a viewBox and
    no width or height, so that it is drawn whole at whatever size the page's style gives it
    (on a screen, and 70 mm wide when the desk is printed), with its quiet zone, and edges
    kept sharp."""
    import io

    import segno

    out = io.BytesIO()
    segno.make(text, error="m").save(
        out, kind="svg", scale=1, border=QUIET_ZONE, xmldecl=False, svgns=True, nl=False,
        omitsize=True, title=gettext("QR code of the event's public page"), dark="#000",
        light="#fff",
    )  # fmt: skip
    drawn = out.getvalue().decode()
    return drawn.replace("<svg ", '<svg shape-rendering="crispEdges" role="img" ', 1)


@bp.get("/events/<event_id>/upload")
def upload_page(event_id: str) -> Response | str:
    """A player's upload page: the token comes in the link's fragment (never sent to the
    server in a URL), and the page uploads only; ``?player=N`` shows that player's board."""
    from arbiter.service.events.pages import player_page as read_player
    from arbiter.service.events.reading import event_summary

    number = request.args.get("player", "")

    def render() -> str:
        summary = call(event_summary, event_id)
        player = None
        if number.isascii() and number.isdigit() and len(number) < 7:
            try:
                player = call(read_player, event_id, int(number))
            except ApiError as err:
                if err.status != 404:
                    raise
        return render_template("upload.html", event=summary, player=player)

    return _page(render)
