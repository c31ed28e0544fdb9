"""Replay a record under its game's rules and produce the adjudication report.

Implements ``spec/report.md`` (the report) on top of ``spec/rules/*.md`` (the rules). The CLI
and the HTTP API both call :func:`adjudicate`, so they cannot disagree.
"""

from __future__ import annotations

from typing import Any, Final

from arbiter.adjudicator.base import Outcome, Rules, get_rules
from arbiter.notation.ast import Record, Swap, Turn
from arbiter.notation.errors import (
    IllegalMoveError,
    InvalidRecordError,
    RecordError,
    ResultMismatchError,
)
from arbiter.notation.games import find_game
from arbiter.notation.plain import Plain
from arbiter.notation.position import format_position, parse_position

TERMINATIONS = {"R": "resignation", "T": "time", "F": "forfeit"}


class Report(Plain):
    """What the adjudicator says of one record (``spec/report.md``); filled in as the
    replay goes, so not immutable."""

    _fields = (
        "file", "index", "game", "size", "valid", "finished", "result", "termination",
        "winner", "winner_player", "scores", "tiebreak", "plies", "swapped", "players",
        "claimed_result", "claim_ok", "details", "final_position", "errors",
    )  # fmt: skip
    __slots__ = _fields

    def __init__(  # one parameter per field of the report, in its order
        self,
        file: str | None,
        index: int,
        game: str | None = None,
        size: int | None = None,
        valid: bool = False,
        finished: bool = False,
        result: str = "*",
        termination: str | None = None,
        winner: str | None = None,
        winner_player: str | None = None,
        scores: dict[str, float] | None = None,
        tiebreak: str | None = None,
        plies: int = 0,
        swapped: bool = False,
        players: dict[str, str] | None = None,
        claimed_result: str | None = None,
        claim_ok: bool | None = None,
        details: dict[str, Any] | None = None,
        final_position: str | None = None,
        errors: list[dict[str, object]] | None = None,
    ) -> None:
        self.file = file
        self.index = index
        self.game = game
        self.size = size
        self.valid = valid
        self.finished = finished
        self.result = result
        self.termination = termination
        self.winner = winner
        self.winner_player = winner_player
        self.scores = scores
        self.tiebreak = tiebreak
        self.plies = plies
        self.swapped = swapped
        self.players: dict[str, str] = {} if players is None else players
        self.claimed_result = claimed_result
        self.claim_ok = claim_ok
        self.details: dict[str, Any] = {} if details is None else details
        self.final_position = final_position
        self.errors: list[dict[str, object]] = [] if errors is None else errors

    def to_dict(self) -> dict[str, Any]:
        """The JSON-ready report, keys in the order of ``_fields`` (a test holds the two
        together). Written out: one is made for every record of a run, and reading each
        field by its name costs a look-up per field."""
        return {
            "file": self.file,
            "index": self.index,
            "game": self.game,
            "size": self.size,
            "valid": self.valid,
            "finished": self.finished,
            "result": self.result,
            "termination": self.termination,
            "winner": self.winner,
            "winner_player": self.winner_player,
            "scores": self.scores,
            "tiebreak": self.tiebreak,
            "plies": self.plies,
            "swapped": self.swapped,
            "players": self.players,
            "claimed_result": self.claimed_result,
            "claim_ok": self.claim_ok,
            "details": self.details,
            "final_position": self.final_position,
            "errors": self.errors,
        }


REPORT_FIELDS = Report._fields
"""The report's fields in their order, which is the order of the JSON report."""


class Replay:
    """The states a record went through, and the first illegal move if there was one."""

    __slots__ = ("rules", "state", "plies", "swapped", "canonical", "error", "kept")

    def __init__(
        self,
        rules: Rules[Any],
        state: Any,
        plies: int,
        swapped: bool,
        canonical: tuple[Turn, ...],
        error: RecordError | None,
        kept: dict[int, Any] | None = None,
    ) -> None:
        self.rules: Final = rules
        self.state: Final = state
        self.plies: Final = plies
        self.swapped: Final = swapped
        self.canonical: Final = canonical
        self.error: Final = error
        self.kept: Final = {} if kept is None else kept


KEPT_STATES = 61
"""How many positions before an illegal move :func:`adjudicate` keeps for the repair hints,
which look for a slip up to 60 plies back (``hints.WINDOW``): the record is then not
replayed again to find them."""


def replay(record: Record, *, canonical: bool = False, keep: int = 0) -> Replay:
    """Play the record's moves from its start position, stopping at the first illegal one.

    With ``canonical``, ``Replay.canonical`` holds every turn as the engine spells it in
    full (Implo's resolution steps); otherwise it is empty, which keeps adjudication cheap.
    With ``keep``, an illegal move's ``Replay.kept`` holds the positions before it and the
    ``keep - 1`` plies before, by ply - 1 (a reference a ply, taken whatever the outcome).
    Raises ``InvalidRecordError`` (code ``bad-setup``) if the Setup is not a position of the
    game; an illegal move is returned in ``Replay.error``, not raised."""
    rules = get_rules(record.game)
    state = _initial_state(rules, record)
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
        _decide(report, record, played, outcome)
    except ResultMismatchError as mismatch:  # a name of its own: spec/build.md
        report.claim_ok = False
        return _fail(report, mismatch)
    report.claim_ok = True
    report.valid = True
    return report


def settle(record: Record, rules: Rules[Any], state: Any) -> tuple[str, bool]:
    """The official result of ``record`` replayed to ``state`` (all its moves played), and
    whether its claimed result holds, as :func:`adjudicate` decides them."""
    swapped = any(type(move) is Swap for move in record.moves)
    played = Replay(rules, state, len(record.turns), swapped, (), None)
    report = Report(file=None, index=record.index)
    try:
        _decide(report, record, played, rules.outcome(state))
    except ResultMismatchError:
        return report.result, False
    return report.result, True


def _suggest(report: Report, record: Record, positions: dict[int, Any]) -> None:
    """Add to the first error the corrections the search finds, from the ``positions`` the
    replay kept (imported here: the search replays records with this module)."""
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
