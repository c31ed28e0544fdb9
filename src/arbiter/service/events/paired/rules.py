"""The rules of a paired event (``spec/pairings.md``), each a function of plain values
that returns what it allows or raises :class:`~arbiter.service.events.common.EventError`
with its code, as :mod:`arbiter.service.events.rules` holds those of every event: the
systems and their tie-breaks, players, byes and withdrawals, the rounds paired by the
engine or by hand, the boards' results, check-in, drafts and players' reports, and where a
record stands.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from arbiter.pairing import MAX_DUTCH_PLAYERS, ROUND_ROBIN_SYSTEMS, SWISS_SYSTEMS, SYSTEMS, System
from arbiter.pairing.values import requested_points
from arbiter.service.events.actions import SEATS
from arbiter.service.events.common import (
    DIRECTOR,
    EXCLUDED,
    MAX_NUMBER,
    MAX_PROHIBITIONS,
    MAX_ROUNDS,
    NO_ACCELERATION,
    PLAYER,
    EventError,
)
from arbiter.service.events.names import name_key, plain_name
from arbiter.service.events.rows import EventRow, RecordRow
from arbiter.service.events.rules import flag, person_name, placement_words, reason

ROUND_ROBIN_TIEBREAKS = "direct,sonneborn-berger,wins,margin"
"""A round robin's tie-breaks when it is given none: the default order without Buchholz."""
BUCHHOLZ_TYPE = ("buchholz",)
"""The tie-breaks of the Buchholz kind (FIDE C.07's 4xx), which a round robin may not use."""


def round_robin_tiebreaks(pairing: str, order: str | None) -> str | None:
    """The tie-break order an event keeps: in a round robin, every player meets every
    other, so a Buchholz tie-break separates nobody and FIDE's regulations (C.07) do not
    allow it (``bad-field``), and no order given is :data:`ROUND_ROBIN_TIEBREAKS`."""
    if pairing not in ROUND_ROBIN_SYSTEMS:
        return order
    if order is None:
        return ROUND_ROBIN_TIEBREAKS
    if any(name in BUCHHOLZ_TYPE for name in order.split(",")):
        raise EventError(
            "bad-field",
            "a round robin cannot break ties by Buchholz: every player meets every other "
            "(FIDE C.07)",
            field="tiebreaks",
        )
    return order


def tiebreaks_after_start(
    played: int, before: str | None, after: str | None, why: str | None
) -> None:
    """Changing the tie-breaks of a paired event once a round is paired needs a reason:
    FIDE's checklist asks that the change be warned of and kept, with the list it replaces
    (``bad-field`` for ``reason``)."""
    if played >= 1 and before != after and why is None:
        raise EventError(
            "bad-field",
            f"the tie-breaks would change after round {played}: give a reason (the trail and "
            "the TRF keep it, with the list it replaces)",
            field="reason",
        )


# --- acceleration ---------------------------------------------------------------------------


def accelerated(pairing: str, asked: str) -> None:
    """Only a Swiss (Dutch) event is accelerated: a round robin's pairings are FIDE's Berger
    tables, which nothing changes (``bad-field`` for ``acceleration``)."""
    if asked != NO_ACCELERATION and pairing not in SWISS_SYSTEMS:
        raise EventError(
            "bad-field",
            "only a Swiss (Dutch) event is accelerated: a round robin is paired by FIDE's "
            "Berger tables, which no acceleration changes",
            field="acceleration",
        )


def acceleration_fixed(played: int, before: str, after: str) -> None:
    """The acceleration is set at the event's creation or by a change before round 1 is
    paired; after, it stays (``acceleration-fixed``: FIDE's checklist asks that it cannot
    change once round 1 is paired)."""
    if played >= 1 and before != after:
        raise EventError(
            "acceleration-fixed",
            f"round {played} is paired: the acceleration ({before}) is fixed once round 1 is "
            "paired, and cannot change",
            field="acceleration",
        )


def accelerated_rounds_fixed(
    played: int, before: Sequence[object], after: Sequence[object], planned: int | None
) -> None:
    """Once round 1 is paired, the planned rounds of an accelerated event change only if the
    acceleration stays as it was (``before``, ``after``: it over the rounds planned before
    and asked), since its rounds follow from them (``acceleration-fixed``)."""
    if played >= 1 and tuple(before) != tuple(after):
        raise EventError(
            "acceleration-fixed",
            f"round {played} is paired: {planned} planned rounds would change the rounds of the "
            "Baku acceleration, which are fixed once round 1 is paired",
            field="rounds",
        )


DUTCH_NEEDS_ROUNDS = (
    "a Dutch event needs its planned rounds: the Dutch system pairs the last rounds by rules "
    "of their own, so it must know which round is the last"
)


def dutch_rounds(pairing: str, planned: int | None) -> None:
    """A Dutch event says how many rounds it plans (``bad-field`` for ``rounds``)."""
    if pairing in SWISS_SYSTEMS and planned is None:
        raise EventError("bad-field", DUTCH_NEEDS_ROUNDS, field="rounds")


# --- paired events ------------------------------------------------------------------------

MAX_PLAYERS = MAX_DUTCH_PLAYERS
"""Players one paired event may have (the most the Dutch engine is given)."""
MAX_BOARDS = MAX_PLAYERS // 2
"""Boards a pairing given by hand may have."""
MAX_RATING = 4_000


def system_of(event: EventRow) -> System:
    """The system that pairs the event; ``not-paired-event`` for an event of another kind
    (one whose records are only uploaded)."""
    for system in SYSTEMS:
        if event.pairing == system:
            return system
    raise EventError(
        "not-paired-event",
        f"the event is not paired (its pairing is {event.pairing!r}): records are uploaded to it",
    )


def paired(event: EventRow) -> EventRow:
    """The event, if it is paired (:func:`system_of`)."""
    system_of(event)
    return event


@dataclass(frozen=True, slots=True)
class NewPlayer:
    """A player's fields, checked: the name, and optionally a rating, a federation (three
    letters) and an id (FIDE's or a national one); ``confirm`` accepts a name like another's."""

    name: str
    rating: int | None
    federation: str | None
    fide_id: str | None
    confirm: bool


PLAYER_FIELDS = ("name", "rating", "federation", "id", "confirm")


def new_player(fields: object) -> NewPlayer:
    """One player as a request gives it: ``{"name", "rating"?, "federation"?, "id"?,
    "confirm"?}``; any other field is refused."""
    if not isinstance(fields, Mapping):
        raise EventError("bad-field", "a player is a JSON object with a 'name'", field="players")
    unknown = sorted(set(fields) - set(PLAYER_FIELDS))
    if unknown:
        raise EventError("bad-field", f"unknown field {unknown[0]!r}", field=str(unknown[0]))
    given = person_name(fields.get("name"), "name")
    return NewPlayer(
        name=given,
        rating=_rating(fields.get("rating")),
        federation=_federation(fields.get("federation")),
        fide_id=_player_id(fields.get("id")),
        confirm=flag(fields.get("confirm", False), "confirm"),
    )


def _rating(value: object) -> int | None:
    if value is None:
        return None
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_RATING:
        raise EventError(
            "bad-field", f"'rating' must be a whole number from 0 to {MAX_RATING}", field="rating"
        )
    return value


def _federation(value: object) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str) or not (len(value) == 3 and value.isascii() and value.isalpha()):
        raise EventError(
            "bad-field", "'federation' must be three letters, such as NOR", field="federation"
        )
    return value.upper()


def _player_id(value: object) -> str | None:
    if value is None:
        return None
    if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
        value = str(value)
    if not isinstance(value, str) or not (value.isascii() and value.isdigit()) or len(value) > 20:
        raise EventError("bad-field", "'id' must be up to 20 digits", field="id")
    return value


class Names:
    """The players' names of an event, to admit new ones against: each name as kept, and
    each name's folded key (:func:`.names.name_key`), so that a name is checked in constant
    time however many players there are."""

    def __init__(self, names: Iterable[str]) -> None:
        self.exact: set[str] = set()
        self.keys: dict[str, str] = {}
        for name in names:
            self.add(name)

    def add(self, name: str) -> None:
        self.exact.add(name)
        self.keys.setdefault(name_key(name), name)

    def admit(self, given: NewPlayer) -> str:
        """The new player's name (then counted as a player's), unless a player has it
        already (``duplicate-player``), or one has a name that differs from it only by case,
        accents, spacing or order and the request did not confirm it (``similar-name``,
        naming that player)."""
        if given.name in self.exact:
            raise EventError(
                "duplicate-player",
                f"{given.name!r} is a player of the event already",
                field="name",
            )
        known = self.keys.get(name_key(given.name))
        if known is not None and not given.confirm:
            raise EventError(
                "similar-name",
                f"{given.name!r} differs from the player {known!r} only by case, accents, "
                'spacing or order: send it again with "confirm": true if it is another player',
                field="name",
                similar=known,
            )
        self.add(given.name)
        return given.name


def player_name(given: NewPlayer, names: Iterable[str]) -> str:
    """The new player's name among ``names`` (:meth:`Names.admit`)."""
    return Names(names).admit(given)


@dataclass(frozen=True, slots=True)
class PlayerChanges:
    """What a correction of a player asks: the fields given (by their name in the API,
    each checked), whether a name like another player's is meant, and why."""

    values: Mapping[str, object]
    confirm: bool
    reason: str | None


CHANGEABLE = ("name", "rating", "federation", "id")


def player_changes(fields: Mapping[str, object]) -> PlayerChanges:
    """A correction of a player: one field at least of :data:`CHANGEABLE` (a rating,
    federation or id may be null: taken away), ``confirm``, and a ``reason``."""
    unknown = sorted(set(fields) - {*CHANGEABLE, "confirm", "reason"})
    if unknown:
        raise EventError("bad-field", f"unknown field {unknown[0]!r}", field=unknown[0])
    values: dict[str, object] = {}
    for field in CHANGEABLE:
        if field not in fields:
            continue
        value = fields[field]
        if field == "name":
            values[field] = person_name(value, "name")
        elif field == "rating":
            values[field] = _rating(value)
        elif field == "federation":
            values[field] = _federation(value)
        else:
            values[field] = _player_id(value)
    if not values:
        raise EventError("bad-field", f"give one of {', '.join(CHANGEABLE)}")
    return PlayerChanges(
        values, flag(fields.get("confirm", False), "confirm"), reason(fields.get("reason"))
    )


def changed_player(
    asked: PlayerChanges, facts: Any, others: Iterable[str]
) -> tuple[dict[str, object], dict[str, object]]:
    """What a correction changes of the player ``facts`` holds (by field, and what each
    was): a name another player has is refused (``duplicate-player``), one like another's
    needs ``confirm`` (``similar-name``)."""
    now = {"name": facts.name, "rating": facts.rating, "federation": facts.federation,
           "id": facts.fide_id}  # fmt: skip
    changed = {name: value for name, value in asked.values.items() if now[name] != value}
    if "name" in changed:
        given = NewPlayer(str(changed["name"]), None, None, None, asked.confirm)
        player_name(given, others)
    return changed, {name: now[name] for name in changed}


def same_player(named: object, name: str, number: int) -> None:
    """The player a request names by number is the one it names by ``named`` (when given):
    a request sent twice never acts on the player who took the number since."""
    if named is None:
        return
    if not isinstance(named, str) or " ".join(named.split()) != name:
        raise EventError(
            "player-changed",
            f"player {number} is {name!r}, not {named!r}: read the players again",
            field="name",
        )


def removable(facts: Any, state: Any) -> None:
    """A player may be taken out only if no round paired holds them (nor, once a round is
    paired, a number after theirs: the numbers stay 1 to N)."""
    held: set[int] = set()
    for pairing in state.pairings.values():
        held |= {n for board in pairing.boards for n in board}
        held |= {n for n, _, _ in pairing.byes}
    if facts.number in held:
        raise EventError(
            "player-was-paired",
            f"{facts.name} (number {facts.number}) was paired: withdraw them instead",
        )
    if any(n > facts.number for n in held):
        raise EventError(
            "player-was-paired",
            f"players entered after {facts.name} (number {facts.number}) were paired with the "
            "numbers after theirs: withdraw them instead",
        )


def cancellable_bye(kind: str | None, round_number: int, rounds_paired: int, number: int) -> None:
    """A bye asked for is taken back before its round is paired."""
    if round_number <= rounds_paired:
        raise EventError(
            "round-already-paired",
            f"round {round_number} is paired: its byes are part of its pairing",
            field="round",
        )
    if kind is None:
        raise EventError("no-such-bye", f"player {number} asked for no bye in round {round_number}")


def open_rounds(event: EventRow, rounds_paired: int) -> None:
    """A player comes back only to a round not yet paired."""
    if event.rounds is not None and rounds_paired >= event.rounds:
        raise EventError(
            "all-rounds-paired",
            f"the event's {event.rounds} planned rounds are all paired: no round to come back to",
        )


def room_for_player(players: int, event: EventRow, rounds_paired: int) -> None:
    """A player may enter while the event has room, and a round robin only before its
    first round is paired (its table is made for the players it starts with)."""
    if players >= MAX_PLAYERS:
        raise EventError("too-many-players", f"an event has at most {MAX_PLAYERS} players")
    if rounds_paired and event.pairing not in SWISS_SYSTEMS:
        raise EventError(
            "round-robin-started",
            "a round robin's players are those of its first round; none may enter later",
        )


def withdrawal(
    round_number: object, rounds_paired: int, withdrawn_from: int | None,
    planned: int | None = None,
) -> int:  # fmt: skip
    """The round a withdrawal starts from: a round not yet paired (a player is not taken
    out of a pairing made: the director gives that board its result), and planned."""
    number = _round_field(round_number, rounds_paired + 1)
    if planned is not None and number > planned:
        raise EventError(
            "bad-field", f"the event plans {planned} rounds: no round {number}", field="round"
        )
    if withdrawn_from is not None:
        raise EventError(
            "already-withdrawn", f"the player is withdrawn from round {withdrawn_from}"
        )
    if number <= rounds_paired:
        raise EventError(
            "round-already-paired",
            f"round {number} is paired; a withdrawal starts from round {rounds_paired + 1} on",
            field="round",
        )
    return number


def _round_field(value: object, default: int) -> int:
    if value is None:
        return default
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_ROUNDS:
        raise EventError(
            "bad-field", f"'round' must be a whole number from 1 to {MAX_ROUNDS}", field="round"
        )
    return value


BYES_ASKED = ("half", "zero")


def bye_request(
    round_number: object, kind: object, event: EventRow, rounds_paired: int,
    withdrawn_from: int | None,
) -> tuple[int, str]:  # fmt: skip
    """A bye a player asks for: a half-point bye (where the event allows them) or a
    zero-point one, in a round not yet paired, and before the player's withdrawal."""
    number = _round_field(round_number, rounds_paired + 1)
    if kind not in BYES_ASKED:
        raise EventError("bad-field", "'kind' must be half or zero", field="kind")
    if kind == "half" and not event.half_byes:
        raise EventError("bad-field", "the event gives no half-point byes", field="kind")
    if number <= rounds_paired:
        raise EventError(
            "round-already-paired",
            f"round {number} is paired; a bye is asked for before its round is paired",
            field="round",
        )
    if event.rounds is not None and number > event.rounds:
        raise EventError("bad-field", f"the event plans {event.rounds} rounds", field="round")
    if withdrawn_from is not None and number >= withdrawn_from:
        raise EventError(
            "already-withdrawn", f"the player is withdrawn from round {withdrawn_from}"
        )
    return number, str(kind)


def next_round(event: EventRow, rounds_paired: int, waiting: Sequence[int]) -> int:
    """The round a pairing makes: the one after the last paired, once every board of that
    one has its result (``waiting``: the boards that have none), and within the plan."""
    if (
        event.pairing in SWISS_SYSTEMS and event.rounds is None
    ):  # an event made before they were needed
        raise EventError(
            "no-planned-rounds",
            f"{DUTCH_NEEDS_ROUNDS}: set the planned rounds (the desk's “The event”) first",
        )
    if waiting:
        listed = ", ".join(str(board) for board in waiting)
        raise EventError(
            "round-not-finished",
            f"round {rounds_paired} is not finished: board(s) {listed} wait for a result",
            boards=list(waiting),
        )
    if event.rounds is not None and rounds_paired >= event.rounds:
        raise EventError(
            "all-rounds-paired", f"the event's {event.rounds} planned rounds are all paired"
        )
    return rounds_paired + 1


def changeable_round(round_number: int, rounds_paired: int, with_results: int) -> None:
    """A round's pairing may be replaced or taken back while it is the last one paired and
    no result of it is in (``with_results``: its boards that have one, or a record)."""
    if not 1 <= round_number <= rounds_paired:
        raise EventError("no-such-round", f"round {round_number} is not paired")
    if round_number != rounds_paired:
        raise EventError(
            "not-last-round", f"only the last round paired, {rounds_paired}, may be changed"
        )
    if with_results:
        raise EventError(
            "round-has-results",
            f"{with_results} board(s) of round {round_number} have a result or a record: "
            "exclude the records and take the results back first",
        )


def warnings_confirmed(warnings: Sequence[str], confirm: object) -> None:
    """A pairing by hand that breaks the system's rules is applied only when the director,
    told which, confirms it (``pairing-warnings`` otherwise, listing them)."""
    if warnings and confirm is not True:
        raise EventError(
            "pairing-warnings",
            "the pairing breaks rules the system keeps: "
            + "; ".join(warnings)
            + '; send it again with "confirm": true to apply it all the same',
            warnings=list(warnings),
        )


def manual_pairing(
    given: object, present: Sequence[int], requested: Mapping[int, str],
    bye_points: float,
) -> tuple[tuple[tuple[int, int], ...], tuple[tuple[int, str, float], ...]]:  # fmt: skip
    """A pairing the director gives by hand: ``{"boards": [{"first", "second"}...],
    "bye": number|null}``. Every player present (not withdrawn, entered) is on one board,
    has the bye, or has the bye they asked for (``requested``: number to kind), and no one
    twice; the byes are those asked for, and the pairing's bye if one is named."""
    if not isinstance(given, Mapping) or not isinstance(given.get("boards"), list):
        raise EventError("bad-field", "'boards' must be a list of boards", field="boards")
    if len(given["boards"]) > MAX_BOARDS:
        raise EventError(
            "bad-field",
            f"a round has at most {MAX_BOARDS} boards (an event has at most {MAX_PLAYERS} players)",
            field="boards",
        )
    boards = []
    for board in given["boards"]:
        if not isinstance(board, Mapping):
            raise EventError("bad-field", 'a board is {"first", "second"}', field="boards")
        first, second = board.get("first"), board.get("second")
        if not all(isinstance(n, int) and not isinstance(n, bool) for n in (first, second)):
            raise EventError(
                "bad-field", "a board's 'first' and 'second' are pairing numbers", field="boards"
            )
        boards.append((int(first), int(second)))  # type: ignore[arg-type]
    pairing_bye = given.get("bye")
    if pairing_bye is not None and (
        not isinstance(pairing_bye, int) or isinstance(pairing_bye, bool)
    ):
        raise EventError("bad-field", "'bye' must be a pairing number or null", field="bye")
    byes = [(number, kind, requested_points(kind)) for number, kind in sorted(requested.items())]
    if pairing_bye is not None:
        byes.append((pairing_bye, "pairing", bye_points))
    seen = [n for board in boards for n in board] + [n for n, _, _ in byes]
    if sorted(seen) != sorted(present):  # linear checks: a count each, a set of those present
        counted = Counter(seen)
        wanted = set(present)
        missing = sorted(wanted - counted.keys())
        extra = sorted(n for n, times in counted.items() if times > 1 or n not in wanted)
        raise EventError(
            "bad-pairing",
            "every player present must be paired once"
            + (f"; not paired: {missing}" if missing else "")
            + (f"; paired twice or not present: {extra}" if extra else ""),
            missing=missing,
            extra=extra,
        )
    return tuple(boards), tuple(byes)


BOARD_RESULT_WORDS = ("1-0", "0-1", "+-", "-+", "--")


def board_result(value: object) -> str:
    """A result the director gives a board: ``1-0`` or ``0-1`` (the first seat's side
    first), ``+-`` or ``-+`` (a forfeit), ``--`` (a double forfeit)."""
    if not isinstance(value, str) or value not in BOARD_RESULT_WORDS:
        raise EventError(
            "bad-field", "'result' must be 1-0, 0-1, +- or -+ (a forfeit), or -- (double forfeit)",
            field="result",
        )  # fmt: skip
    return str(value)


# --- the event as it happens: check-in, drafts, players' reports ---------------------------


def check_in_round(value: object, event: EventRow, published: int) -> int:
    """The round a check-in is for: a round not yet published (the first by default: the
    next to pair, or the draft the director may pair again), within the plan, in an event
    that checks its players in (``no-check-in`` otherwise)."""
    if not event.check_in:
        raise EventError(
            "no-check-in",
            "the event pairs every player entered: it was not created with check-in",
        )
    number = _round_field(value, published + 1)
    if number <= published:
        raise EventError(
            "round-already-paired",
            f"round {number} is published; a check-in is for round {published + 1} on",
            field="round",
        )
    if event.rounds is not None and number > event.rounds:
        raise EventError("bad-field", f"the event plans {event.rounds} rounds", field="round")
    return number


def present_in(entered: int, withdrawn_from: int | None, round_number: int, number: int) -> None:
    """A player checks in for a round they may be paired in: entered by then, and not
    withdrawn from it."""
    if entered > round_number:
        raise EventError(
            "bad-field",
            f"player {number} enters in round {entered}: no check-in for round {round_number}",
            field="round",
        )
    if withdrawn_from is not None and withdrawn_from <= round_number:
        raise EventError(
            "already-withdrawn", f"the player is withdrawn from round {withdrawn_from}"
        )


def for_player(role: str, token_player: int | None, player: int, number: int) -> None:
    """A change about one player is the director's, or that player's own token's
    (``not-your-player`` for a player's token made for another; ``not-allowed`` for an
    upload token)."""
    if role == DIRECTOR:
        return
    if role != PLAYER:
        raise EventError(
            "not-allowed", "an upload token can only upload records; this needs a player's token"
        )
    if token_player != player:
        raise EventError(
            "not-your-player", f"this token is another player's: it cannot act for player {number}"
        )


def reporter(role: str, token_player: int | None, seats: tuple[int, int] | None) -> int:
    """Who reports a board's result: a player's token made for one of its two players
    (``seats``: their ids); the director gives a board its result instead."""
    if role == DIRECTOR:
        raise EventError(
            "not-allowed",
            "a board's result is reported by its players; the director gives it "
            "(PUT .../rounds/R/boards/B/result)",
        )
    if role != PLAYER or token_player is None:
        raise EventError("not-allowed", "only a player's token reports a board's result")
    if seats is None or token_player not in seats:
        raise EventError("not-your-board", "this token's player does not play on this board")
    return token_player


def draft_field(fields: Mapping[str, object]) -> bool:
    """Whether a pairing asked for is a draft (``{"draft": true}``); nothing else is asked."""
    unknown = sorted(set(fields) - {"draft"})
    if unknown:
        raise EventError("bad-field", f"unknown field {unknown[0]!r}", field=unknown[0])
    return flag(fields.get("draft", False), "draft")


def withdrawn_seat(forfeit: str | None, result: str | None, round_number: int, board: int) -> None:
    """A round robin's board of a player withdrawn by its round (``forfeit``: the forfeit
    that player loses, None for a board of two players still in) takes that forfeit or a
    double forfeit (``--``: the other player did not come either), no other result and no
    record (``result`` None: a record placed there)."""
    if forfeit is None or result in (forfeit, "--"):
        return
    raise EventError(
        "player-withdrawn",
        f"round {round_number} board {board}: a player of it had withdrawn, so the board is a "
        f"forfeit ({forfeit}) or a double forfeit (--); take the withdrawal back to give it "
        "another result",
    )


def free_to_report(found: Any, round_number: int, board: int) -> None:
    """A board takes players' reports until it has a result (``found``: its outcome): the
    director's, a record's, or the one both players reported."""
    if found is not None:
        whose = {
            "director": "the director's",
            "players": "both players'",
            "withdrawal": "a withdrawal's",
        }.get(found.source, "its record's")
        raise EventError(
            "board-has-a-result",
            f"round {round_number} board {board} has {whose} result {found.result}: the "
            "director may change it",
        )


def publishable(draft: bool | None, round_number: int) -> None:
    """A round is published once, after it was paired as a draft."""
    if draft is None:
        raise EventError("no-such-round", f"round {round_number} is not paired")
    if not draft:
        raise EventError("not-a-draft", f"round {round_number} is published already")


def not_a_draft(draft: bool, round_number: int) -> None:
    """A draft's boards take no result, record or report until it is published."""
    if draft:
        raise EventError(
            "round-is-draft",
            f"round {round_number} is a draft: publish it (POST .../rounds/{round_number}/"
            "publish) before its boards are given results",
        )


@dataclass(frozen=True, slots=True)
class Seating:
    """What placing a record needs of a paired event: each player's pairing number by name
    (``numbers``, names as kept) and by the name's folded key (``folded``: a key two players
    share names neither), each paired round's boards, and the boards that already have a
    result or a record."""

    numbers: Mapping[str, int]
    boards: Mapping[int, tuple[tuple[int, int], ...]]
    taken: frozenset[tuple[int, int]]
    folded: Mapping[str, int]

    @classmethod
    def of(
        cls, names: Mapping[int, str], boards: Mapping[int, tuple[tuple[int, int], ...]],
        taken: Iterable[tuple[int, int]],
    ) -> Seating:  # fmt: skip
        """The seating of players named ``names`` (by pairing number)."""
        keys: dict[str, int | None] = {}
        for number, name in names.items():
            key = name_key(name)
            keys[key] = None if key in keys else number
        return cls(
            numbers={plain_name(name): number for number, name in names.items()},
            boards=boards,
            taken=frozenset(taken),
            folded={key: number for key, number in keys.items() if number is not None},
        )

    def number(self, name: str | None) -> int | None:
        """The pairing number of the player ``name`` (a record's) names: written as the
        player's name is, else after folding case, spacing, accents and the order of its
        parts (:func:`.names.name_key`), when that finds one player only."""
        if not name:
            return None
        exact = self.numbers.get(plain_name(name))
        return exact if exact is not None else self.folded.get(name_key(name))


def placement(
    round_number: int | None, first: str | None, second: str | None, seating: Seating
) -> tuple[int | None, int | None, str | None]:
    """Where a record of ``round_number`` between ``first`` (the player in the first seat)
    and ``second`` counts: (round, board, None) on the board of those players in that
    order (their names as the players' are written, or the same after folding: see
    :meth:`Seating.number`); else (round, board or None, why not): ``wrong-round`` (no
    such round paired, or the two played another round), ``not-paired`` (they were not
    paired together, or one is not a player), ``seats-reversed`` (their board has them the
    other way round), ``board-has-a-result``."""
    a, b = seating.number(first), seating.number(second)
    if round_number is None or round_number not in seating.boards:
        return round_number, None, "wrong-round"
    if a is None or b is None:
        return round_number, None, "not-paired"
    for number, board in enumerate(seating.boards[round_number], 1):
        if set(board) == {a, b}:
            if board != (a, b):
                return round_number, number, "seats-reversed"
            if (round_number, number) in seating.taken:
                return round_number, number, "board-has-a-result"
            return round_number, number, None
    for boards in seating.boards.values():
        if any(set(board) == {a, b} for board in boards):
            return round_number, None, "wrong-round"
    return round_number, None, "not-paired"


def board_of_fields(fields: Mapping[str, object]) -> tuple[int, int]:
    """The round and board a request names (``{"round", "board"}``; ``7.0`` is JSON's 7)."""
    found = []
    for name in ("round", "board"):
        value = fields.get(name)
        if isinstance(value, float) and value.is_integer():
            value = int(value)
        if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_NUMBER:
            raise EventError("bad-field", f"'{name}' must be a whole number from 1", field=name)
        found.append(value)
    return found[0], found[1]


def seats_field(value: object) -> str | None:
    """How a record placed on a board sits there: ``as-paired`` (its first colour in the
    board's first seat) or ``reversed``; None: as its names say."""
    if value is None:
        return None
    if value not in SEATS:
        raise EventError("bad-field", f"'seats' must be {' or '.join(SEATS)}", field="seats")
    return str(value)


def placeable(row: RecordRow, report: Mapping[str, Any]) -> dict[str, Any]:
    """The header of a record the director may place on a board: one of the event's game
    that could be read, not excluded, and that gives a finished result (its official
    result, or the adjudicator's), so that the board has its result once it stands there."""
    if row.header is None:
        why = placement_words(row.placement or "unreadable", report)
        raise EventError("cannot-place", f"record {row.number} cannot stand on a board: {why}")
    if row.status == EXCLUDED:
        raise EventError(
            "already-excluded",
            f"record {row.number} is excluded: count it again before placing it",
        )
    finished = report.get("valid") and report.get("result") not in (None, "*")
    if row.official_result is None and not finished:
        errors = report.get("errors") or []
        said = f" ({errors[0].get('code')}: {errors[0].get('message')})" if errors else ""
        raise EventError(
            "cannot-place",
            f"record {row.number} gives no finished result{said}: set its official result "
            "first, or give the board its result by hand",
        )
    header: dict[str, Any] = json.loads(row.header)
    return header


def free_board(
    round_number: int, board: int, result: str | None, standing: RecordRow | None, number: int
) -> None:
    """A board a record is placed on has no result yet: none given by the director
    (``result``) and no other record standing there (``standing``)."""
    if result is not None:
        raise EventError(
            "board-has-a-result",
            f"round {round_number} board {board} has the result {result}, given by the "
            "director: take it back first",
        )
    if standing is not None and standing.number != number:
        raise EventError(
            "board-has-a-result",
            f"record {standing.number} stands on round {round_number} board {board}: "
            "exclude it first",
            record=standing.number,
        )


# --- prohibited pairs ------------------------------------------------------------------------


def prohibits(event: EventRow) -> bool:
    """Whether the event's pairings honour prohibited pairs: a Swiss's do; a round robin's
    are FIDE's Berger tables, fixed from the start."""
    return event.pairing in SWISS_SYSTEMS


def swiss_for_prohibitions(event: EventRow) -> None:
    """A prohibited pair is set in a Swiss (Dutch) event (``round-robin-table`` otherwise)."""
    system_of(event)
    if not prohibits(event):
        raise EventError(
            "round-robin-table",
            "a round robin is paired by FIDE's Berger tables, which honour no prohibited pair: "
            "every player meets every other",
        )


@dataclass(frozen=True, slots=True)
class ProhibitionAsked:
    """A prohibition as a request asks it: the players (pairing numbers), the first and last
    round (None: from the next round to pair, to the last planned), why, and whether the
    director confirms it once the event has started."""

    players: tuple[int, ...]
    first_round: int | None
    last_round: int | None
    reason: str | None
    confirm: bool


PROHIBITION_FIELDS = ("players", "from_round", "to_round", "reason", "confirm")


def prohibition_asked(fields: Mapping[str, object]) -> ProhibitionAsked:
    """``{"players": [n1, n2, ...], "from_round"?, "to_round"?, "reason"?, "confirm"?}``:
    two players or more, each once, by pairing number; any other field is refused."""
    unknown = sorted(set(fields) - set(PROHIBITION_FIELDS))
    if unknown:
        raise EventError("bad-field", f"unknown field {unknown[0]!r}", field=unknown[0])
    given = fields.get("players")
    listed = given if isinstance(given, list) else []
    numbers = [  # 7.0 is JSON's 7
        int(n) if isinstance(n, float) and n.is_integer() else n for n in listed
    ]
    players = tuple(n for n in numbers if type(n) is int and 1 <= n <= MAX_NUMBER)
    if given is not listed or len(players) != len(listed) or not 2 <= len(players) <= MAX_PLAYERS:
        raise EventError(
            "bad-field",
            f"'players' must list 2 to {MAX_PLAYERS} players by their pairing numbers",
            field="players",
        )
    if len(set(players)) != len(players):
        raise EventError("bad-field", "'players' names a player twice", field="players")
    return ProhibitionAsked(
        players,
        _optional_round(fields.get("from_round"), "from_round"),
        _optional_round(fields.get("to_round"), "to_round"),
        reason(fields.get("reason"), required=False),
        flag(fields.get("confirm", False), "confirm"),
    )


def _optional_round(value: object, field: str) -> int | None:
    if value is None:
        return None
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_ROUNDS:
        raise EventError(
            "bad-field", f"'{field}' must be a whole number from 1 to {MAX_ROUNDS}", field=field
        )
    return value


def prohibited_rounds(asked: ProhibitionAsked, planned: int | None, paired: int) -> tuple[int, int]:
    """The rounds a prohibition holds in: from ``from_round`` (by default the next round to
    pair) to ``to_round`` (by default the last planned), within the plan, and none of them
    paired already (``round-already-paired``: the rounds paired stay as they were)."""
    if planned is None:
        raise EventError(
            "no-planned-rounds",
            f"{DUTCH_NEEDS_ROUNDS}: set the planned rounds (the desk's “The event”) first",
        )
    first = paired + 1 if asked.first_round is None else asked.first_round
    last = planned if asked.last_round is None else asked.last_round
    if last > planned:
        raise EventError(
            "bad-field", f"the event plans {planned} rounds: no round {last}", field="to_round"
        )
    if first > last:
        raise EventError(
            "bad-field", f"rounds {first} to {last} are no rounds: the first comes after the last",
            field="from_round",
        )  # fmt: skip
    if first <= paired:
        raise EventError(
            "round-already-paired",
            f"round {first} is paired already: a prohibition holds in rounds not yet paired, "
            f"from round {paired + 1} on",
            field="from_round",
        )
    return first, last


def prohibited_after_start(
    paired: int, first: int, last: int, why: str | None, confirm: bool
) -> None:
    """A prohibition added once a round is paired changes the pairings the rules alone give
    from then on (FIDE's checklist: the event then leaves FIDE's mode): it is warned of
    (``pairing-warnings`` until the director confirms it) and needs a reason (``bad-field``
    for ``reason``)."""
    if paired < 1:
        return
    rounds = f"round {first}" if first == last else f"rounds {first}-{last}"
    warned = (
        f"round {paired} is paired: a prohibited pair added now makes the pairings of {rounds} "
        "differ from what FIDE's rules alone give (FIDE's checklist: the event leaves FIDE's "
        "mode)"
    )
    if not confirm:
        raise EventError(
            "pairing-warnings",
            warned + '; send it again with "confirm": true and a reason to set it all the same',
            warnings=[warned],
        )
    if why is None:
        raise EventError(
            "bad-field",
            f"round {paired} is paired: a prohibition added now needs a reason (the trail and "
            "the TRF keep it)",
            field="reason",
        )


def room_for_prohibition(held: int) -> int:
    """The number of the next prohibition, for an event that holds ``held`` (those taken
    back included); at most :data:`~.common.MAX_PROHIBITIONS`."""
    if held >= MAX_PROHIBITIONS:
        raise EventError(
            "too-many-prohibitions", f"an event has at most {MAX_PROHIBITIONS} prohibitions"
        )
    return held + 1


def found_prohibition(facts: object | None, number: int) -> None:
    """A prohibition named by number exists (``no-such-prohibition``)."""
    if facts is None:
        raise EventError("no-such-prohibition", f"the event has no prohibition {number}")


def prohibition_removal_reason(paired: int, why: str | None) -> None:
    """Taking a prohibition back once a round is paired needs a reason (the rounds to come
    are paired otherwise than they would have been)."""
    if paired >= 1 and why is None:
        raise EventError(
            "bad-field",
            f"round {paired} is paired: taking a prohibition back now needs a reason (the "
            "trail and the TRF keep it)",
            field="reason",
        )


def not_prohibited(player: int, number: int, held: Mapping[int, Any]) -> None:
    """A player taken out is named in no prohibition the director has not taken back
    (``player-prohibited``, naming it: take it back first)."""
    for one, facts in sorted(held.items()):
        if player in facts.players and facts.removed_at is None:
            raise EventError(
                "player-prohibited",
                f"player {number} is named in prohibition {one}: take it back first "
                f"(DELETE .../prohibited/{one})",
                prohibition=one,
            )
