"""Corrections applied to a source of records, as ``arbiter repair`` and the API's
``apply=`` parameter ask for them (``spec/cli.md``, ``spec/api.md`` section 3.6).

Both take corrections written ``PLY:MOVE`` and apply them in order to one record of a
source's text with :func:`arbiter.notation.repair.correct`, each on the text the one before
left. A record that cannot be read has no turns to say where its moves stand: the place is
then the one written after the move (``23:c4@7:13``), or else the place of the same
correction among the suggestions of the record's report, so that a suggestion can be applied
as it was offered.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from arbiter.notation.ast import NOWHERE, Location
from arbiter.notation.repair import (
    CannotLocate,
    Correction,
    correct,
    parse_correction,
    source_bytes,
)
from arbiter.notation.sources import Notation, read_records
from arbiter.service.core.batch import report_for


def corrected_text(
    text: str, corrections: Iterable[str], *, index: int, notation: Notation
) -> tuple[str, list[Correction]]:
    """``text`` with every correction of ``corrections`` (``PLY:MOVE``, optionally with
    ``@LINE:COLUMN`` or ``@POINTER``) applied in order to its record ``index`` (from 0), and
    the corrections as applied.

    Raises ``BadCorrection`` for a correction not written so, and ``CorrectionError`` for
    one that cannot be applied."""
    applied = []
    for written in corrections:
        ply, move, place = parse_correction(written)
        try:
            correction = correct(text, ply, move, place=place, index=index, notation=notation)
        except CannotLocate:
            found = suggested_place(_report(text, index, notation), ply, move)
            if place != NOWHERE or found == NOWHERE:
                raise
            correction = correct(text, ply, move, place=found, index=index, notation=notation)
        applied.append(correction)
        text = correction.text
    return text, applied


def suggested_place(report: Mapping[str, Any], ply: int, move: str) -> Location:
    """Where the move of ply ``ply`` stands, as the suggestion of ``report``'s first error
    that corrects it to ``move`` says (``NOWHERE`` when none does)."""
    errors = report.get("errors") or []
    suggestions = errors[0].get("suggestions") or [] if errors else []
    for suggestion in suggestions:
        same = str(suggestion.get("move", "")).lower() == move.strip().lower()
        if suggestion.get("ply") == ply and same:
            line, column = suggestion.get("line"), suggestion.get("column")
            pointer = suggestion.get("pointer")
            return Location(
                _whole(line), _whole(column), pointer if isinstance(pointer, str) else None
            )
    return NOWHERE


def _whole(value: object) -> int | None:
    return value if type(value) is int else None


def _report(text: str, index: int, notation: Notation) -> dict[str, Any]:
    """The report of record ``index`` of ``text`` (an empty one when there is no such
    record)."""
    for number, item in enumerate(read_records(source_bytes(text), fmt=notation)):
        if number == index:
            return report_for(item).to_dict()
    return {}


def correction_entries(corrections: Sequence[Correction]) -> list[dict[str, Any]]:
    """The corrections applied, as the API gives them (``corrections``)."""
    return [{"ply": c.ply, "move": c.move, "written": c.written} for c in corrections]
