"""Replay a record under its game's rules and produce the adjudication report.

Implements ``spec/report.md`` (the report) on top of ``spec/rules/*.md`` (the rules). The CLI
and the HTTP API both call :func:`adjudicate`, so they cannot disagree.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields, replace
from typing import Any

from arbiter.adjudicator.base import Outcome, Rules, get_rules
from arbiter.notation.ast import Record, Swap, Turn
from arbiter.notation.errors import (
    IllegalMoveError,
    InvalidRecordError,
    RecordError,
    ResultMismatchError,
)
from arbiter.notation.games import find_game
from arbiter.notation.position import format_position, parse_position

TERMINATIONS = {"R": "resignation", "T": "time", "F": "forfeit"}


@dataclass(slots=True)
class Report:
    """What the adjudicator says of one record (``spec/report.md``)."""

    file: str | None
    index: int
    game: str | None = None
    size: int | None = None
    valid: bool = False
    finished: bool = False
    result: str = "*"
    termination: str | None = None
    winner: str | None = None
    winner_player: str | None = None
    scores: dict[str, float] | None = None
    tiebreak: str | None = None
    plies: int = 0
    swapped: bool = False
    players: dict[str, str] = field(default_factory=dict)
    claimed_result: str | None = None
    claim_ok: bool | None = None
    details: dict[str, Any] = field(default_factory=dict)
    final_position: str | None = None
    errors: list[dict[str, object]] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        """The JSON-ready report, keys in a fixed order."""
        return {name: getattr(self, name) for name in REPORT_FIELDS}


REPORT_FIELDS = tuple(item.name for item in fields(Report))
"""The report's fields in their order, which is the order of the JSON report."""


@dataclass(frozen=True, slots=True)
class Replay:
    """The states a record went through, and the first illegal move if there was one."""

    rules: Rules[Any]
    state: Any
    plies: int
    swapped: bool
    canonical: tuple[Turn, ...]
    error: RecordError | None


def replay(record: Record, *, canonical: bool = False) -> Replay:
    """Play the record's moves from its start position, stopping at the first illegal one.

    With ``canonical``, ``Replay.canonical`` holds every turn as the engine spells it in
    full (Implo's resolution steps); otherwise it is empty, which keeps adjudication cheap.
    Raises ``InvalidRecordError`` (code ``bad-setup``) if the Setup is not a position of the
    game; an illegal move is returned in ``Replay.error``, not raised."""
    rules = get_rules(record.game)
    state = _initial_state(rules, record)
    play = rules.play
    swapped = False
    spelled: list[Turn] = []
    for ply, turn in enumerate(record.turns, 1):
        try:
            state = play(state, turn.move)
        except IllegalMoveError as err:
            err.located(ply=ply, move=str(turn.move), where=turn.where)
            return Replay(rules, state, ply - 1, swapped, tuple(spelled), err)
        if type(turn.move) is Swap:
            swapped = True
        if canonical:
            spelled.append(_canonical_turn(rules, turn, state))
    return Replay(rules, state, len(record.turns), swapped, tuple(spelled), None)


def starting_state(record: Record) -> tuple[Rules[Any], Any]:
    """The rules of the record's game and the state before its first move: its Setup, or
    the standard start. Raises ``InvalidRecordError`` (code ``bad-setup``) if the Setup is
    not a position of the game, and ``ValueError`` for an unknown game."""
    rules = get_rules(record.game)
    return rules, _initial_state(rules, record)


def _initial_state(rules: Rules[Any], record: Record) -> Any:
    grid = None
    try:
        if record.setup is not None:
            grid = parse_position(record.setup, find_game(record.game), record.size)
        return rules.initial_state(record.size, komi=record.komi, setup=grid)
    except ValueError as err:
        where = record.where.get("Setup") or record.where.get("Game")
        raise InvalidRecordError(f"bad Setup: {err}", code="bad-setup", where=where) from None


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
    return replace(record, turns=played.canonical)


def adjudicate(record: Record, *, file: str | None = None) -> Report:
    """Replay ``record`` and check its claimed result; never raises ``RecordError``."""
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
        played = replay(record)
    except RecordError as err:
        return _fail(report, err)
    report.swapped = played.swapped
    report.final_position = format_position(played.rules.position(played.state))
    if played.error is not None:
        return _fail(report, played.error)
    outcome = played.rules.outcome(played.state)
    report.details = dict(outcome.details if outcome else played.rules.details(played.state))
    try:
        _decide(report, record, played, outcome)
    except ResultMismatchError as err:
        report.claim_ok = False
        return _fail(report, err)
    report.claim_ok = True
    report.valid = True
    return report


def _decide(report: Report, record: Record, played: Replay, outcome: Outcome | None) -> None:
    colours = played.rules.colours
    claim = record.result
    where = record.where.get("Result")
    if outcome is not None:
        report.finished = True
        report.result = outcome.result(colours)
        report.termination = "rules"
        report.scores = dict(outcome.scores) if outcome.scores is not None else None
        report.tiebreak = outcome.tiebreak
        _set_winner(report, record, outcome.winner, played.swapped)
        if claim not in ("*", report.result, report.winner):  # the winner alone may be claimed
            raise ResultMismatchError(
                f"the record claims {claim!r} but the moves give {report.result!r}", where=where
            )
        return
    colour, _, how = claim.partition("+")
    if claim == "*":
        return
    if how in TERMINATIONS:
        report.result = claim
        report.termination = TERMINATIONS[how]
        _set_winner(report, record, colour, played.swapped)
        return
    raise ResultMismatchError(
        f"the record claims {claim!r} but the game is not over after {played.plies} plies; "
        "an unfinished game can only be '*' or end by +R, +T or +F",
        where=where,
    )


def _set_winner(report: Report, record: Record, colour: str, swapped: bool) -> None:
    report.winner = colour
    colours = find_game(record.game).colours
    started_as = colour
    if swapped:
        started_as = colours[1] if colour == colours[0] else colours[0]
    report.winner_player = record.player(started_as)


def _fail(report: Report, err: RecordError) -> Report:
    report.valid = False
    report.errors.append(err.to_dict())
    return report


def error_report(err: RecordError, *, file: str | None = None) -> Report:
    """The report of a record that could not be read, or only in part.

    When the error carries the record as far as it was read (see :class:`RecordError`),
    that record is replayed and the report says all the replay finds besides: the official
    result, scores, plies and winner; the record stays invalid, with the reading errors
    first. The claim is checked only when it could be read and no move was left out."""
    if err.record is None:
        report = Report(file=file if file is not None else err.file, index=err.index or 0)
        return _fail(report, err)
    problems = (err, *err.more)
    unclaimed = any(p.code in CLAIM_PROBLEMS or p.ply is not None for p in problems)
    record = err.record
    report = adjudicate(replace(record, result="*") if unclaimed else record, file=file)
    report.index = err.index if err.index is not None else record.index
    if unclaimed:
        report.claim_ok = None
        readable = not any(p.code in CLAIM_PROBLEMS for p in problems)
        report.claimed_result = record.result if readable else None
    report.valid = False
    report.errors[:0] = [p.to_dict() for p in problems]
    return report


CLAIM_PROBLEMS = frozenset({"bad-result", "result-conflict", "too-many-digits"})
"""Codes of reading problems that leave the claimed result unknown."""
