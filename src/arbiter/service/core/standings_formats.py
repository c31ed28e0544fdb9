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
from arbiter.pairing.trf import points_field

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

TRF_NAME_WIDTH = 33
TRF_MAX_PLAYERS = 9999


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
    """The table as a FIDE TRF-16 file with the ``XXR`` line of TRF(x): ``012`` the event
    (and game), ``062`` the number of players, ``XXR`` the planned number of rounds, the
    ``comments`` (each a line that starts with ``###``, which TRF readers skip), then one
    ``001`` line per player, numbered in order of name.

    Raises :class:`FormatError` when ``total_rounds`` is below the rounds played, or when a
    number does not fit its TRF columns (more than 9999 players; points keep their columns
    whatever the score: :func:`~arbiter.pairing.trf.points_field`)."""
    total = table.rounds + 1 if total_rounds is None else total_rounds
    if total < max(table.rounds, 1):
        raise FormatError(
            f"the planned number of rounds ({total}) is below the rounds played ({table.rounds})"
        )
    if len(table.standings) > TRF_MAX_PLAYERS:
        raise FormatError(f"TRF numbers at most {TRF_MAX_PLAYERS} players")
    lines = [
        f"012 {_printable(f'{table.event} ({table.game})')}",
        f"062 {len(table.standings)}",
        f"XXR {total}",
    ]
    for comment in comments:
        if not comment.startswith("###"):
            raise ValueError(f"a TRF comment line starts with ###: {comment[:40]!r}")
        lines.append(_printable(comment))
    number = {
        line.player: n
        for n, line in enumerate(sorted(table.standings, key=lambda s: name_key(s.player)), 1)
    }
    for line in sorted(table.standings, key=lambda s: number[s.player]):
        lines.append(_trf_player(line, number))
    return "\n".join(lines) + "\n"


def _trf_player(line: Standing, number: dict[str, int]) -> str:
    """One ``001`` line: columns 5-8 the player's number, 15-47 the name, 81-84 the points,
    86-89 the rank, then from column 92 ten columns per round: the opponent's number, the
    colour (``w`` the colour that moves first, ``b`` the other), the result."""
    name = _printable(line.player)[:TRF_NAME_WIDTH].ljust(TRF_NAME_WIDTH)
    head = f"001 {number[line.player]:>4} {'':4} {name} {'':4} {'':3} {'':11} {'':10}"
    head += f" {points_field(line.points)} {line.rank:>4}"
    return head + "".join(_trf_round(result, number) for result in line.results)


def _trf_round(result: RoundResult | None, number: dict[str, int]) -> str:
    if result is None:
        return "  0000 - Z"  # no counted game: a zero-point bye, worth nothing
    if result.bye is not None:
        return f"  0000 - {result.symbol}"
    colour = "w" if result.first else "b"
    return f"  {number[result.opponent]:>4} {colour} {result.symbol}"


def _printable(text: str) -> str:
    """``text`` with any character that is not printable (a line break in a JSON tag value)
    made a space, so that it cannot break a TRF line."""
    return "".join(c if c.isprintable() else " " for c in text)


def _one_table(tables: Sequence[EventStandings]) -> EventStandings:
    with_players = [table for table in tables if table.standings]
    if len(with_players) != 1:
        names = "; ".join(f"{t.event} ({t.game})" for t in with_players) or "none"
        raise FormatError(
            "a TRF file holds one tournament, but the records make "
            f"{len(with_players)} with players: {names}; give the records of one event"
        )
    return with_players[0]
