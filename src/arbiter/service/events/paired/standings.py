"""A paired event's standings and TRF: its players, the boards with a result, the byes,
and the records on no board listed as not counted, with why.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import replace

from arbiter.adjudicator.standings import (
    BoardResult,
    ByeRound,
    EventStandings,
    Exclusion,
    LeftOutPlayer,
    paired_standings,
)
from arbiter.pairing import (
    left_out,
    write_trf,
)
from arbiter.service.events import rules, storage
from arbiter.service.events.common import (
    EXCLUDED,
)
from arbiter.service.events.paired.state import outcome, read_paired, tournament, waiting
from arbiter.service.events.rows import (
    EventRow,
    RecordRow,
)
from arbiter.service.events.storage import Tx

# --- standings and TRF ----------------------------------------------------------------------


def paired_table(tx: Tx, event: EventRow, *, upto: int | None = None) -> EventStandings:
    """The standings of a paired event: its players, the boards with a result, the byes;
    the records that stand on no board listed as not counted, with why. With ``upto``, the
    standings after that round: the rounds after it left out (the round page shows them).
    A round paired as a draft is not shown. A player who withdrew is marked (after round
    ``upto``, if they had withdrawn by then); in a round robin, one who withdrew having
    played fewer than half their games is left out, with every game of theirs."""
    paired = read_paired(tx, event).public()
    if upto is not None:
        kept = {r: f for r, f in paired.pairings.items() if r <= upto}
        paired = replace(paired, pairings=kept)
    name = {f.number: f.name for f in paired.players.values()}
    boards = []
    for round_number, facts in sorted(paired.pairings.items()):
        for board, (first, second) in enumerate(facts.boards, 1):
            found = outcome(paired, round_number, board)
            if found is None:
                continue
            record = found.record
            boards.append(BoardResult(
                round_number, name[first], name[second],
                None if found.winner is None else name[found.winner], found.termination,
                found.margin, *(_where(record) if record else (None, 0)),
            ))  # fmt: skip
    byes = [
        ByeRound(round_number, name[n], kind, points)
        for round_number, facts in sorted(paired.pairings.items())
        for n, kind, points in facts.byes
    ]
    excluded = [
        Exclusion(
            *_where(row),
            row.placement,
            rules.placement_words(row.placement, json.loads(row.report)),
        )  # fmt: skip
        for row in storage.record_rows(tx, event.id)
        if row.placement is not None and row.status != EXCLUDED
    ]
    gone = left_out(tournament(paired), upto=upto) if paired.gone else ()
    left = [LeftOutPlayer(name[o.player], o.withdrew_from, o.played, o.games) for o in gone]
    withdrawn = {
        f.name: f.withdrawn_from
        for f in paired.players.values()
        if f.withdrawn_from is not None and (upto is None or f.withdrawn_from <= upto)
    }
    return paired_standings(event.name, event.game, [f.name for f in paired.players.values()],
                            boards, byes, tiebreaks=event.tiebreaks, excluded=excluded,
                            left_out=left, withdrawn=withdrawn)  # fmt: skip


def _where(row: RecordRow) -> tuple[str | None, int]:
    report = json.loads(row.report)
    return report.get("file"), int(report.get("index", 0))


def tournament_trf(tx: Tx, event: EventRow, comments: Sequence[str]) -> str:
    """The TRF of a paired event: the rounds whose every board has its result, their byes,
    the withdrawals, and the ``comments`` (``###`` lines). A draft is not shown."""
    paired = read_paired(tx, event, prohibitions=True).public()
    last = paired.rounds_paired
    while last and waiting(paired, last):
        last -= 1
    made = tournament(paired, upto=last)
    return write_trf(made, name=f"{event.name} ({event.game})", comments=comments)
