"""Standings as text: a table, JSON, CSV, a standalone HTML crosstable, and FIDE TRF
(``spec/standings.md``, sections 6 to 9).

Only writing happens here; the standings themselves come from
:func:`arbiter.adjudicator.standings.standings`. The CLI (``arbiter standings``) and the
API (``POST /api/v1/standings``) both call :func:`render`, so a format is the same wherever
it is asked for.
"""

from __future__ import annotations

import csv
import html
import io
import json
from collections.abc import Sequence
from typing import Literal

from arbiter.adjudicator.standings import EventStandings, Standing, standings_document
from arbiter.adjudicator.tiebreaks import EXPLANATIONS, TITLES, RoundResult, TiebreakValue, name_key
from arbiter.notation.games import find_game
from arbiter.pairing.trf import write_trf
from arbiter.pairing.values import (
    BYE_KINDS,
    MAX_NUMBER,
    MAX_ROUNDS,
    Bye,
    ByeKind,
    Game,
    Player,
    Result,
    Tournament,
)

StandingsFormat = Literal["table", "json", "csv", "html", "trf"]
STANDINGS_FORMATS: tuple[StandingsFormat, ...] = ("table", "json", "csv", "html", "trf")

MEDIA_TYPES: dict[StandingsFormat, str] = {
    "table": "text/plain; charset=utf-8",
    "json": "application/json",
    "csv": "text/csv; charset=utf-8",
    "html": "text/html; charset=utf-8",
    "trf": "text/plain; charset=utf-8",
}

LABELS = {
    "buchholz": "BH",
    "sonneborn-berger": "SB",
    "wins": "won",
    "direct": "DE",
    "margin": "margin",
}
"""Short column headings of the tie-breaks in the table, CSV and HTML."""

BYE_KIND: dict[str, ByeKind] = {kind: kind for kind in BYE_KINDS}
"""A table's bye (:attr:`RoundResult.bye`) as the pairing library's kind of bye."""


class FormatError(ValueError):
    """The standings cannot be written in the format asked for (TRF holds one tournament,
    and has fixed column widths)."""


def render(
    tables: Sequence[EventStandings],
    fmt: StandingsFormat,
    *,
    total_rounds: int | None = None,
    comments: Sequence[str] = (),
) -> str:
    """The standings in ``fmt``. ``total_rounds`` is the planned number of rounds written
    to TRF (default: one more than the rounds played, so that the next round can be paired);
    ``comments`` are TRF comment lines (``### ...``, the corrections of a kept event).

    Raises :class:`FormatError` for TRF unless exactly one table has players, or when a
    figure does not fit TRF's columns."""
    if fmt == "json":
        return json.dumps(standings_document(tables), ensure_ascii=False, indent=2) + "\n"
    if fmt == "csv":
        return csv_text(tables)
    if fmt == "html":
        return html_page(tables)
    if fmt == "trf":
        return trf_text(_one_table(tables), total_rounds=total_rounds, comments=comments)
    return table_text(tables)


def cell_text(result: RoundResult | None, rank_of: dict[str, int], letters: dict[str, str]) -> str:
    """One crosstable cell: the opponent's rank, the letter of the colour the player held
    at the start, and the result (``1``, ``0``, ``+``, ``-``): ``4b1``. ``.`` for a round
    without a counted game; a bye's TRF letter (``U`` allocated by the pairing, ``F`` full
    point, ``H`` half point, ``Z`` zero)."""
    if result is None:
        return "."
    if result.bye is not None:
        return result.symbol
    return f"{rank_of[result.opponent]}{letters[result.colour]}{result.symbol}"


def colour_letters(game: str | None) -> dict[str, str]:
    """The letter each colour of ``game`` is shown with: its initial, lower case (``b``
    and ``o`` for Blue and Orange), or ``w`` and ``b`` (first and second) when the two
    initials are the same."""
    if game is None:
        return {}
    first, second = find_game(game).colours
    a, b = first[:1].lower(), second[:1].lower()
    if a == b:
        a, b = "w", "b"
    return {first: a, second: b}


def value_text(value: TiebreakValue) -> str:
    """A tie-break value as text: ``12``, ``12.5``, ``-3``; empty for None."""
    if value is None:
        return ""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


# --- the readable table -------------------------------------------------------------------


def table_text(tables: Sequence[EventStandings]) -> str:
    """Every table, one after another, with the records that do not count under each."""
    return "\n".join(_one_table_text(table) for table in tables)


def _one_table_text(table: EventStandings) -> str:
    lines = [_title(table)]
    applied = table.tiebreak_order if table.event is not None else ()
    if applied:
        lines.append("tie-breaks: " + ", ".join(f"{TITLES[n]} ({LABELS[n]})" for n in applied))
    if table.standings:
        lines.append("")
        lines.extend(_columns(_rows(table)))
        lines.append("")
        lines.append(_legend(table))
        lines.extend(f"{LABELS[name]}: {EXPLANATIONS[name]}" for name in applied)
    for warning in table.warnings:
        lines.append(f"note: {warning}")
    if table.excluded:
        lines.append("")
        lines.append(f"not counted ({len(table.excluded)}):")
        lines.extend(
            f"  {e.file or '-'} #{e.index + 1}: {e.reason}: {e.message}" for e in table.excluded
        )
    return "\n".join(lines) + "\n"


def _title(table: EventStandings) -> str:
    if table.event is None:
        return "Records that belong to no event"
    players = len(table.standings)
    return f"{table.event} ({table.game}): {table.rounds} round(s), {players} player(s)"


def _rows(table: EventStandings) -> list[list[str]]:
    rank_of = {line.player: line.rank for line in table.standings}
    letters = colour_letters(table.game)
    head = ["rank", "player", "points", "games"]
    head += [LABELS[name] for name in table.tiebreak_order]
    head += [f"r{n}" for n in range(1, table.rounds + 1)]
    rows = [head]
    for line in table.standings:
        row = [str(line.rank), line.player, str(line.points), str(line.games)]
        row += [value_text(value) for _, value in line.tiebreaks]
        row += [cell_text(result, rank_of, letters) for result in line.results]
        rows.append(row)
    return rows


def _columns(rows: list[list[str]]) -> list[str]:
    """Rows as aligned text: the player column to the left, every other to the right."""
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    out = []
    for row in rows:
        cells = [
            cell.ljust(width) if i == 1 else cell.rjust(width)
            for i, (cell, width) in enumerate(zip(row, widths, strict=True))
        ]
        out.append("  ".join(cells).rstrip())
    return out


def _legend(table: EventStandings) -> str:
    letters = colour_letters(table.game)
    colours = ", ".join(f"{letter} {colour}" for colour, letter in letters.items())
    return (
        f"rounds: opponent's rank, colour at the start ({colours}), result (1 won, 0 lost, "
        "+ forfeit win, - forfeit loss); . no counted game"
    )


# --- CSV ----------------------------------------------------------------------------------


def csv_text(tables: Sequence[EventStandings]) -> str:
    """One row per player of every table, with the event and game in front; the tie-break
    columns are those of every table, in the order first met; the round columns hold the
    crosstable cells (:func:`cell_text`, empty for no counted game)."""
    tiebreaks: list[str] = []
    for table in tables:
        tiebreaks += [name for name in table.tiebreak_order if name not in tiebreaks]
    rounds = max((table.rounds for table in tables), default=0)
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    head = ["event", "game", "rank", "player", "points", "games", "played", "wins", "losses"]
    head += ["forfeit_wins", "forfeit_losses", *(TITLES[name] for name in tiebreaks)]
    writer.writerow(head + [f"round_{n}" for n in range(1, rounds + 1)])
    for table in tables:
        for line in table.standings:
            writer.writerow(_csv_row(table, line, tiebreaks, rounds))
    return out.getvalue()


FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
"""What a spreadsheet reads as the start of a formula (or moves past to one)."""


def spreadsheet_safe(text: str) -> str:
    """A name as a CSV cell that no spreadsheet runs: one that starts like a formula
    (``=HYPERLINK(...)``, ``+1``, ``@SUM``) gets a leading apostrophe, which spreadsheets
    show as text and do not display."""
    return "'" + text if text.startswith(FORMULA_STARTS) else text


def _csv_row(table: EventStandings, line: Standing, tiebreaks: list[str], rounds: int) -> list[str]:
    rank_of = {other.player: other.rank for other in table.standings}
    letters = colour_letters(table.game)
    values = dict(line.tiebreaks)
    cells = [cell_text(r, rank_of, letters) if r else "" for r in line.results]
    counts = [line.rank, line.points, line.games, line.played, line.wins, line.losses]
    counts += [line.forfeit_wins, line.forfeit_losses]
    return [
        spreadsheet_safe(table.event or ""),
        spreadsheet_safe(table.game or ""),
        str(counts[0]),
        spreadsheet_safe(line.player),
        *(str(count) for count in counts[1:]),
        *(value_text(values.get(name)) for name in tiebreaks),
        *cells,
        *([""] * (rounds - table.rounds)),
    ]


# --- HTML ---------------------------------------------------------------------------------

HTML_STYLE = """
body { font: 15px/1.4 system-ui, sans-serif; margin: 2rem auto; max-width: 72rem;
       padding: 0 1rem; color: #1d1d1f; }
.scroll { overflow-x: auto; max-width: 100%; }
dl.tiebreaks { font-size: 13px; color: #555; } dl.tiebreaks dt { font-weight: 600; }
dl.tiebreaks dd { margin: 0 0 .2rem 1rem; }
h1 { font-size: 1.4rem; } h2 { font-size: 1.15rem; margin-top: 2rem; }
table { border-collapse: collapse; margin: .6rem 0; }
th, td { padding: .25rem .55rem; border-bottom: 1px solid #ddd; text-align: right;
         white-space: nowrap; }
th.player, td.player { text-align: left; }
td.round { font-family: ui-monospace, monospace; text-align: center; }
td.win { background: #eef7ee; } td.loss { background: #fbeeee; } td.forfeit { font-style: italic; }
p.note, p.legend { color: #555; font-size: 13px; }
ul.excluded { font-size: 14px; }
@media print { body { margin: 0; max-width: none; } }
""".strip()


def html_page(tables: Sequence[EventStandings]) -> str:
    """A standalone page (no script, no outside resource) with each table's standings and
    crosstable, and the records that do not count."""
    events = sorted({table.event for table in tables if table.event})
    title = ", ".join(events) or "Standings"
    body = "\n".join(html_table(table) for table in tables)
    return (
        '<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{_e(title)} - standings</title>\n<style>\n{HTML_STYLE}\n</style>\n</head>\n"
        f"<body>\n<h1>{_e(title)}</h1>\n{body}\n</body>\n</html>\n"
    )


def html_table(table: EventStandings) -> str:
    parts = [f"<section>\n<h2>{_e(_title(table))}</h2>"]
    if table.standings:
        parts.append(_html_grid(table))
        parts.append(f'<p class="legend">{_e(_legend(table))}</p>')
    if table.tiebreak_order and table.event is not None:
        explained = "".join(
            f"<dt>{_e(TITLES[name])}</dt><dd>{_e(EXPLANATIONS[name])}</dd>"
            for name in table.tiebreak_order
        )
        parts.append(
            f'<p class="legend">Tie-breaks, in order:</p><dl class="tiebreaks">{explained}</dl>'
        )
    parts += [f'<p class="note">Note: {_e(warning)}</p>' for warning in table.warnings]
    if table.excluded:
        items = "".join(
            f"<li>{_e(e.file or '-')} #{e.index + 1}: <b>{_e(e.reason)}</b>: {_e(e.message)}</li>"
            for e in table.excluded
        )
        parts.append(
            f'<h3>Not counted ({len(table.excluded)})</h3>\n<ul class="excluded">{items}</ul>'
        )
    parts.append("</section>")
    return "\n".join(parts)


def _html_grid(table: EventStandings) -> str:
    rank_of = {line.player: line.rank for line in table.standings}
    letters = colour_letters(table.game)
    head = ["Rank", "Player", "Points", "Games"] + [TITLES[n] for n in table.tiebreak_order]
    head += [f"R{n}" for n in range(1, table.rounds + 1)]
    player = ' class="player"'
    cells = "".join(f'<th{player if h == "Player" else ""} scope="col">{_e(h)}</th>' for h in head)
    rows = [f"<thead><tr>{cells}</tr></thead>"]
    for line in table.standings:
        row = f'<td>{line.rank}</td><td class="player">{_e(line.player)}</td>'
        row += f"<td>{line.points}</td><td>{line.games}</td>"
        row += "".join(f"<td>{_e(value_text(v))}</td>" for _, v in line.tiebreaks)
        row += "".join(_html_cell(r, rank_of, letters) for r in line.results)
        rows.append(f"<tr>{row}</tr>")
    body = "\n".join(rows[1:])
    # a wide crosstable scrolls inside its own box, never the page (a phone is 390 px wide)
    box = '<div class="scroll" tabindex="0" role="region" aria-label="Standings and crosstable">'
    return f"{box}\n<table>\n{rows[0]}\n<tbody>\n{body}\n</tbody>\n</table>\n</div>"


BYE_WORDS = {
    "pairing": "a bye of the pairing",
    "full": "a full-point bye",
    "half": "a half-point bye",
    "zero": "a zero-point bye",
}


def _html_cell(result: RoundResult | None, rank_of: dict[str, int], letters: dict[str, str]) -> str:
    if result is None:
        return '<td class="round">.</td>'
    if result.bye is not None:
        title = f"round {result.round}: {BYE_WORDS[result.bye]} ({value_text(result.points)})"
        return f'<td class="round bye" title="{_e(title)}">{_e(result.symbol)}</td>'
    kind = ("win" if result.won else "loss") + (" forfeit" if result.forfeit else "")
    how = "won" if result.won else "lost"
    title = (
        f"round {result.round}: {how} against {result.opponent} as {result.colour}"
        f" ({result.termination})"
    )
    text = cell_text(result, rank_of, letters)
    return f'<td class="round {kind}" title="{_e(title)}">{_e(text)}</td>'


def _e(text: str) -> str:
    return html.escape(text, quote=True)


# --- TRF ----------------------------------------------------------------------------------


def trf_text(
    table: EventStandings, *, total_rounds: int | None = None, comments: Sequence[str] = ()
) -> str:
    """The table as a FIDE TRF file, written by the pairing library's one writer
    (:func:`~arbiter.pairing.trf.write_trf`, ``spec/pairings.md`` §4) from the table made
    a tournament (:func:`trf_tournament`): ``012`` the event (and game), ``062`` the number
    of players, ``142`` and ``XXR`` the planned number of rounds, ``162`` when the bye of
    the pairing is not worth a win, the ``comments`` (each a line that starts with ``###``,
    which TRF readers skip), then one ``001`` line per player, numbered in order of name,
    with the table's points and rank.

    Raises :class:`FormatError` when ``total_rounds`` is below the rounds played or above
    999, or when the table does not fit TRF (more than 9999 players; points keep their
    columns whatever the score: :func:`~arbiter.pairing.trf.points_field`)."""
    tournament, ranks = trf_tournament(table, total_rounds=total_rounds)
    name = f"{table.event} ({table.game})"
    return write_trf(tournament, name=name, comments=comments, ranks=ranks)


def trf_tournament(
    table: EventStandings, *, total_rounds: int | None = None
) -> tuple[Tournament, dict[int, int]]:
    """The table as the pairing library's values, and each player's rank by number: the
    players numbered 1, 2, ... in order of name, ``total_rounds`` planned (by default one
    more than the rounds played, at most 999), each counted game a :class:`Game` (the
    player who held the colour that moves first in the first seat), each bye a
    :class:`Bye`, and each round without a counted game a zero-point bye, which is what it
    is for the tie-breaks (``spec/standings.md`` §3). The pairing-allocated bye is worth
    what the table's are.

    Raises :class:`FormatError` as :func:`trf_text` does, and for a table whose results
    are not one tournament's (two sides of a game that disagree, byes of one kind worth
    different points)."""
    planned = min(table.rounds + 1, MAX_ROUNDS) if total_rounds is None else total_rounds
    if planned < max(table.rounds, 1):
        raise FormatError(
            f"the planned number of rounds ({planned}) is below the rounds played ({table.rounds})"
        )
    if planned > MAX_ROUNDS:
        raise FormatError(f"TRF plans at most {MAX_ROUNDS} rounds, not {planned}")
    if len(table.standings) > MAX_NUMBER:
        raise FormatError(f"TRF numbers at most {MAX_NUMBER} players")
    lines = sorted(table.standings, key=lambda s: name_key(s.player))
    number = {line.player: n for n, line in enumerate(lines, 1)}
    rounds = {line.player: line.results for line in lines}
    games: list[Game] = []
    byes: list[Bye] = []
    for line in lines:
        for round_number, result in enumerate(line.results, 1):
            own = number[line.player]
            if result is None:
                byes.append(Bye(round_number, own, "zero", 0.0))
            elif result.bye is not None:
                byes.append(Bye(round_number, own, _bye_kind(result), result.bye_points))
            elif result.first:
                other = _other_side(rounds, line.player, result)
                games.append(Game(round_number, own, number[result.opponent], _game(result, other)))
            else:
                _other_side(rounds, line.player, result)
    try:
        tournament = Tournament(
            players=tuple(Player(number[line.player], line.player) for line in lines),
            rounds_planned=planned,
            games=tuple(games),
            byes=tuple(byes),
            bye_points=_bye_points(byes),
        )
    except ValueError as err:
        raise FormatError(f"the standings are not one tournament's: {err}") from None
    return tournament, {number[line.player]: line.rank for line in lines}


def _bye_kind(result: RoundResult) -> ByeKind:
    kind = BYE_KIND.get(result.bye or "")
    if kind is None:
        raise FormatError(f"round {result.round}: {result.bye!r} is not a bye TRF knows")
    return kind


def _other_side(
    rounds: dict[str, tuple[RoundResult | None, ...]], player: str, result: RoundResult
) -> RoundResult:
    """The opponent's side of ``player``'s game, which must name ``player`` in the other
    seat."""
    theirs = rounds.get(result.opponent, ())
    other = theirs[result.round - 1] if result.round <= len(theirs) else None
    if other is None or other.bye is not None or other.opponent != player:
        raise FormatError(
            f"round {result.round}: {player} meets {result.opponent}, who has no such game"
        )
    if other.first == result.first:
        raise FormatError(f"round {result.round}: {player} and {result.opponent} hold one seat")
    return other


def _game(first: RoundResult, second: RoundResult) -> Result:
    """The result of a game from its first seat's and its second seat's sides."""
    if first.forfeit == second.forfeit and not (first.won and second.won):
        if first.forfeit:
            return "+-" if first.won else "-+" if second.won else "--"
        if first.won or second.won:
            return "1-0" if first.won else "0-1"
    raise FormatError(
        f"round {first.round}: {first.opponent} and {second.opponent} have results that "
        "are not one game's, which TRF cannot write"
    )


def _bye_points(byes: Sequence[Bye]) -> float:
    """What the table's pairing-allocated byes are worth (a win when it has none)."""
    worth = {bye.points for bye in byes if bye.kind == "pairing"}
    if len(worth) > 1:
        raise FormatError("the pairing-allocated byes are worth different points")
    return worth.pop() if worth else 1.0


def _one_table(tables: Sequence[EventStandings]) -> EventStandings:
    with_players = [table for table in tables if table.standings]
    if len(with_players) != 1:
        names = "; ".join(f"{t.event} ({t.game})" for t in with_players) or "none"
        raise FormatError(
            "a TRF file holds one tournament, but the records make "
            f"{len(with_players)} with players: {names}; give the records of one event"
        )
    return with_players[0]
