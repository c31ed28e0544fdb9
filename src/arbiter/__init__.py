"""arbiter: game records and their official adjudication for Pilo, Petrify, Implo, Pletore
and Pilare.

The front door for programmers (``docs/library.md``)::

    >>> import arbiter
    >>> record = arbiter.parse_record('[Game "Pilo"]\\n[Size "4"]\\n\\n1. b2 swap 2. c3 *')
    >>> arbiter.adjudicate(record).valid
    True

- :func:`read_records` reads every record of a path, text, bytes or stream (GRN or JSON,
  Abstract Play records too); :func:`parse_record` reads exactly one; :func:`parse_move`
  reads one move of a game.
- :func:`adjudicate` replays a record under its game's rules and returns a :class:`Report`.
- :func:`standings` turns records with their reports into each event's standings
  (:class:`EventStandings`: tie-breaks, crosstable, and the records that do not count).
- :func:`write_grn` and :func:`write_json` write one record or many in canonical form;
  :func:`write_abstractplay` writes Pletore records as Abstract Play records.
- :class:`Game` plays a game move by move; :func:`get_rules` gives a game's rules engine.
- :func:`games` lists the games (their descriptions).
- :func:`svg` draws a record at a ply, a game or a position as an SVG picture, :func:`text`
  as text; :func:`frames` replays a record into its positions, one per ply
  (``spec/diagrams.md``).

The subpackages are the layers: :mod:`arbiter.notation` (text to records),
:mod:`arbiter.adjudicator` (records to reports), :mod:`arbiter.diagram` (positions to
pictures) and :mod:`arbiter.service` (command line and HTTP API).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from arbiter.notation.errors import (
    AmbiguousMoveError,
    IllegalMoveError,
    InvalidRecordError,
    NotationSyntaxError,
    RecordError,
    ResultMismatchError,
)
from arbiter.notation.exports import lazy_exports
from arbiter.notation.games import GameDescription, all_games, find_game

if TYPE_CHECKING:
    from arbiter.adjudicator.abstractplay import write_abstractplay
    from arbiter.adjudicator.base import Outcome, Rules, get_rules
    from arbiter.adjudicator.game import Game, Position
    from arbiter.adjudicator.replay import Report
    from arbiter.adjudicator.standings import EventStandings, Exclusion, Standing
    from arbiter.diagram import Frame, Frames, frames, svg, text
    from arbiter.notation.ast import Move, Point, Record, Tag, Turn
    from arbiter.notation.grn_writer import write_grn
    from arbiter.notation.json_writer import write_json
    from arbiter.notation.sources import parse_record, read_records

_LAZY = {
    "arbiter.adjudicator.base": ("Outcome", "Rules", "get_rules"),
    "arbiter.adjudicator.abstractplay": ("write_abstractplay",),
    "arbiter.adjudicator.game": ("Game", "Position"),
    "arbiter.adjudicator.replay": ("Report",),
    "arbiter.adjudicator.standings": ("EventStandings", "Exclusion", "Standing"),
    "arbiter.diagram": ("Frame", "Frames", "frames", "svg", "text"),
    "arbiter.notation.ast": ("Move", "Point", "Record", "Tag", "Turn"),
    "arbiter.notation.grn_writer": ("write_grn",),
    "arbiter.notation.json_writer": ("write_json",),
    "arbiter.notation.sources": ("parse_record", "read_records"),
}  # fmt: skip
"""Public names loaded on first use, by the module that defines them: a command that needs
neither diagrams nor JSON nor standings starts without importing them, and importing the
notation alone loads no rules engine (the notation loads the games it knows at their first
lookup, ``arbiter.notation.games``)."""


__getattr__, __dir__ = lazy_exports(globals(), _LAZY)

__version__ = "0.2.0"

__all__ = [
    "AmbiguousMoveError",
    "EventStandings",
    "Exclusion",
    "Frame",
    "Frames",
    "Game",
    "GameDescription",
    "IllegalMoveError",
    "InvalidRecordError",
    "Move",
    "NotationSyntaxError",
    "Outcome",
    "Point",
    "Position",
    "Record",
    "RecordError",
    "Report",
    "ResultMismatchError",
    "Rules",
    "Standing",
    "Tag",
    "Turn",
    "adjudicate",
    "frames",
    "games",
    "get_rules",
    "parse_move",
    "parse_record",
    "read_records",
    "standings",
    "write_abstractplay",
    "svg",
    "text",
    "write_grn",
    "write_json",
]


def parse_move(game: str, text: str) -> Move:
    """One move of ``game`` written as GRN (``"d4"``, ``"c3xc5"``, ``"d4/e5/a1:b2"``,
    ``"pass"``; any case), as a move object.

    Raises ``NotationSyntaxError`` if the text is no move, ``InvalidRecordError`` for a form
    the game does not have (``wrong-move-form``) or a square no board has (``off-board``),
    ``KeyError`` for an unknown game. Legality is a matter of a position: see :class:`Game`."""
    from arbiter.notation.build import check_move
    from arbiter.notation.grn_reader import parse_move as parse_word

    if not isinstance(game, str) or not isinstance(text, str):
        raise TypeError("parse_move takes a game's name and a move's text, both str")
    return check_move(parse_word(text.strip()), find_game(game))


def adjudicate(record: Record, *, file: str | None = None) -> Report:
    """Replay ``record`` under its game's rules and check its claimed result: the
    :class:`Report` of ``spec/report.md``. Never raises ``RecordError``; a ``record`` that is
    not a :class:`Record` is a ``TypeError``."""
    from arbiter.adjudicator.replay import adjudicate as replay_record
    from arbiter.notation.ast import Record

    if not isinstance(record, Record):
        raise TypeError(f"adjudicate takes a Record, not {type(record).__name__}")
    return replay_record(record, file=file)


def games() -> list[GameDescription]:
    """The registered games' descriptions, in the order they were registered."""
    return list(all_games())


def standings(
    items: Iterable[tuple[Record | None, Report]], *, tiebreaks: str | Sequence[str] | None = None
) -> list[EventStandings]:
    """The standings of the events in ``items``: records with their reports (the record
    None where it could not be read), in input order, as :func:`read_records` and
    :func:`adjudicate` give them.

    Records are grouped by their ``Event`` tag and game, one :class:`EventStandings` per
    group; rounds come from ``Round``, players from the player tags (the colour held at the
    start), and the winner is the player the report names. Each record counts or is listed
    in ``excluded`` with its reason. ``tiebreaks`` gives the tie-break order
    (``"buchholz,sb,wins,direct"``; the default is
    buchholz, sonneborn-berger, wins, direct, margin). See ``spec/standings.md``.

    Raises ``ValueError`` for an unknown or repeated tie-break name."""
    from arbiter.adjudicator.standings import standings as compute

    return compute(items, tiebreaks=tiebreaks)
