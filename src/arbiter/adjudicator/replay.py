"""Replay a record under its game's rules and produce the adjudication report.

Implements ``spec/report.md`` (the report) on top of ``spec/rules/*.md`` (the rules). The CLI
and the HTTP API both call :func:`adjudicate`, so they cannot disagree.
"""

from __future__ import annotations

from typing import Any

from arbiter.adjudicator.base import Rules, get_rules
from arbiter.adjudicator.verdict import KEPT_STATES, Replay, decide, initial_state_of
from arbiter.adjudicator.verdict import REPORT_FIELDS as REPORT_FIELDS  # read from here too
from arbiter.adjudicator.verdict import TERMINATIONS as TERMINATIONS
from arbiter.adjudicator.verdict import Report as Report
from arbiter.adjudicator.verdict import settle as settle
from arbiter.adjudicator.verdict import starting_state as starting_state
from arbiter.notation.ast import Record, Swap, Turn
from arbiter.notation.errors import IllegalMoveError, RecordError, ResultMismatchError
from arbiter.notation.position import format_position


def replay(record: Record, *, canonical: bool = False, keep: int = 0) -> Replay:
    """Play the record's moves from its start position, stopping at the first illegal one.

    With ``canonical``, ``Replay.canonical`` holds every turn as the engine spells it in
    full (Implo's resolution steps); otherwise it is empty, which keeps adjudication cheap.
    With ``keep``, an illegal move's ``Replay.kept`` holds the positions before it and the
    ``keep - 1`` plies before, by ply - 1 (a reference a ply, taken whatever the outcome).
    Raises ``InvalidRecordError`` (code ``bad-setup``) if the Setup is not a position of the
    game; an illegal move is returned in ``Replay.error``, not raised."""
    rules = get_rules(record.game)
    state = initial_state_of(rules, record)
    swapped = False
    spelled: list[Turn] = []
    ring: list[Any] = [None] * keep
    for ply, turn in enumerate(record.turns, 1):
        if keep:
            ring[ply % keep] = state
        try:
            state = rules.play(state, turn.move)  # compiled: a call through the vtable
        except IllegalMoveError as err:
            err.located(ply=ply, move=str(turn.move), where=turn.where)
            kept = {p - 1: ring[p % keep] for p in range(max(1, ply - keep + 1), ply + 1)}
            return Replay(rules, state, ply - 1, swapped, tuple(spelled), err, kept)
        if type(turn.move) is Swap:
            swapped = True
        if canonical:
            spelled.append(_canonical_turn(rules, turn, state))
    return Replay(rules, state, len(record.turns), swapped, tuple(spelled), None)


def _canonical_turn(rules: Rules[Any], turn: Turn, state: Any) -> Turn:
    written = rules.written(state, turn.move)
    return turn if written is turn.move else turn._replace(move=written)


def canonical_record(record: Record) -> Record:
    """The record with every move written in full (Implo's resolution steps filled in).

    Raises ``RecordError`` if the record is not legal, since only a legal turn has one
    canonical spelling."""
    played = replay(record, canonical=True)
    if played.error is not None:
        raise played.error
    return record.replace(turns=played.canonical)


def adjudicate(record: Record, *, file: str | None = None, hints: bool = True) -> Report:
    """Replay ``record`` and check its claimed result; never raises ``RecordError``. With
    ``hints``, a move refused carries the corrections that would make the game replay
    (``suggestions``, ``spec/hints.md``)."""
    report = Report(
        file=file,
        index=record.index,
        game=record.game,
        size=record.size,
        plies=len(record.turns),
        claimed_result=record.result,
        players=dict(record.players),
    )
    try:
        played = replay(record, keep=KEPT_STATES if hints else 0)
    except RecordError as err:
        return _fail(report, err)
    report.swapped = played.swapped
    report.final_position = format_position(played.rules.position(played.state))
    if played.error is not None:
        _fail(report, played.error)
        if hints:
            _suggest(report, record, played.kept)
        return report
    outcome = played.rules.outcome(played.state)
    report.details = dict(outcome.details if outcome else played.rules.details(played.state))
    try:
        decide(report, record, played, outcome)
    except ResultMismatchError as mismatch:  # a name of its own: spec/build.md
        report.claim_ok = False
        return _fail(report, mismatch)
    report.claim_ok = True
    report.valid = True
    return report


def _suggest(report: Report, record: Record, positions: dict[int, Any]) -> None:
    """Add to the first error the corrections the search finds, from the ``positions`` the
    replay kept (imported here, when a move is refused: a valid record does not load the
    search)."""
    from arbiter.adjudicator.hints import suggest

    found = suggest(record, report.errors[0], positions=positions)
    if found:
        report.errors[0]["suggestions"] = [suggestion.to_dict() for suggestion in found]


def _suggest_reading(report: Report, err: RecordError) -> None:
    """Add to the first error the corrections of the word at which reading stopped."""
    from arbiter.adjudicator.hints import suggest_reading

    found = suggest_reading(err)
    if found:
        report.errors[0]["suggestions"] = [suggestion.to_dict() for suggestion in found]


def _fail(report: Report, err: RecordError) -> Report:
    report.valid = False
    report.errors.append(err.to_dict())
    return report


def error_report(err: RecordError, *, file: str | None = None, hints: bool = True) -> Report:
    """The report of a record that could not be read, or only in part.

    When the error carries the record as far as it was read (see :class:`RecordError`),
    that record is replayed and the report says all the replay finds besides: the official
    result, scores, plies and winner; the record stays invalid, with the reading errors
    first. The claim is checked only when it could be read and no move was left out."""
    if err.record is None:
        report = Report(file=file if file is not None else err.file, index=err.index or 0)
        _fail(report, err)
        if hints:
            _suggest_reading(report, err)
        return report
    problems = (err, *err.more)
    unclaimed = any(p.code in CLAIM_PROBLEMS or p.ply is not None for p in problems)
    record = err.record
    report = adjudicate(record.replace(result="*") if unclaimed else record, file=file)
    report.index = err.index if err.index is not None else record.index
    if unclaimed:
        report.claim_ok = None
        readable = not any(p.code in CLAIM_PROBLEMS for p in problems)
        report.claimed_result = record.result if readable else None
    report.valid = False
    report.errors[:0] = [p.to_dict() for p in problems]
    if hints:
        _suggest_reading(report, err)
    return report


CLAIM_PROBLEMS = frozenset({"bad-result", "result-conflict", "too-many-digits"})
"""Codes of reading problems that leave the claimed result unknown."""
