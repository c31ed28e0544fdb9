"""What the replay of a record and the repair search both stand on: the report, the state a
record starts from, and the official result of a record played to its end with whether
its claim holds (``spec/report.md``).

:func:`arbiter.adjudicator.replay.adjudicate` decides a record's result with :func:`decide`,
and the repair search (:mod:`arbiter.adjudicator.hints`) settles each game a correction
finishes with :func:`settle`, which decides it the same way, so the two cannot disagree.
Kept here, below both: the replay calls the search for a refused move, and the search need
not import the replay back. :mod:`arbiter.adjudicator.replay` gives the names read from it.
"""

from __future__ import annotations

from typing import Any, Final

from arbiter.adjudicator.base import Outcome, Rules, get_rules
from arbiter.notation.ast import Record, Swap, Turn
from arbiter.notation.errors import InvalidRecordError, RecordError, ResultMismatchError
from arbiter.notation.games import find_game
from arbiter.notation.plain import Plain
from arbiter.notation.position import parse_position

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
"""How many positions before an illegal move :func:`~arbiter.adjudicator.replay.adjudicate`
keeps for the repair hints, which look for a slip up to 60 plies back (``hints.WINDOW``):
the record is then not replayed again to find them."""


def starting_state(record: Record) -> tuple[Rules[Any], Any]:
    """The rules of the record's game and the state before its first move: its Setup, or
    the standard start. Raises ``InvalidRecordError`` (code ``bad-setup``) if the Setup is
    not a position of the game, and ``ValueError`` for an unknown game."""
    rules = get_rules(record.game)
    return rules, initial_state_of(rules, record)


def initial_state_of(rules: Rules[Any], record: Record) -> Any:
    """The state of ``rules`` before the first move of ``record`` (see :func:`starting_state`)."""
    grid = None
    try:
        if record.setup is not None:
            grid = parse_position(record.setup, find_game(record.game), record.size)
        return rules.initial_state(record.size, komi=record.komi, setup=grid)
    except ValueError as err:
        where = record.where.get("Setup") or record.where.get("Game")
        raise InvalidRecordError(f"bad Setup: {err}", code="bad-setup", where=where) from None


def settle(record: Record, rules: Rules[Any], state: Any) -> tuple[str, bool]:
    """The official result of ``record`` replayed to ``state`` (all its moves played), and
    whether its claimed result holds, as :func:`~arbiter.adjudicator.replay.adjudicate`
    decides them."""
    swapped = any(type(move) is Swap for move in record.moves)
    played = Replay(rules, state, len(record.turns), swapped, (), None)
    report = Report(file=None, index=record.index)
    try:
        decide(report, record, played, rules.outcome(state))
    except ResultMismatchError:
        return report.result, False
    return report.result, True


def decide(report: Report, record: Record, played: Replay, outcome: Outcome | None) -> None:
    """Set the official result of ``played`` (``outcome``: its end by the rules, if any) in
    ``report``: the result, termination, scores and winner. Raises ``ResultMismatchError``
    when the claim of ``record`` is not that result."""
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
