"""The events' rules (``spec/events.md``), each a function of plain values that returns what
it allows or raises :class:`~arbiter.service.events.common.EventError` with its code: who may
change an event, what a change may do to it as it stands, the event's limits, and the fields
a request gives. The operations (:mod:`.operations`) read what a rule needs through the
storage contract, ask the rule, and write; the rules know no database and no face, so each
is tested on plain values (``tests/events/test_rules.py``).
"""

from __future__ import annotations

import codecs
import json
import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from arbiter.adjudicator.tiebreaks import parse_order
from arbiter.notation.build import normalise_result
from arbiter.notation.games import all_games, find_game, game_named
from arbiter.service.events import common
from arbiter.service.events.common import (
    ACCEPTED,
    DIRECTOR,
    EXCLUDED,
    MAX_EVENT_ID,
    MAX_FILE_NAME,
    MAX_LABEL,
    MAX_NAME,
    MAX_NUMBER,
    MAX_REASON,
    MAX_ROUNDS,
    PENDING,
    PLAYER,
    ROLES,
    UPLOAD,
    EventError,
)
from arbiter.service.events.names import UnsafeName, name_key, plain_name, shown_name
from arbiter.service.events.rows import EventRow, RecordRow, TokenRow
from arbiter.service.events.views import RecordWarning

__all__ = [
    "CREATED",
    "EDITABLE",
    "SIGNATURES",
    "SNIFFED",
    "Actor",
    "EventChanges",
    "NewEvent",
    "actor",
    "change_token",
    "clearable",
    "confirmable",
    "correctable",
    "file_name",
    "event_changes",
    "event_id",
    "event_tag_warnings",
    "excludable",
    "flag",
    "found_event",
    "found_record",
    "found_token",
    "game",
    "label",
    "name",
    "names_a_row",
    "names_an_event",
    "no_such_event",
    "new_event",
    "official_result",
    "open_event",
    "planned_rounds",
    "read_token",
    "reason",
    "reinstatable",
    "revocable",
    "role",
    "room_for_token",
    "room_for_upload",
    "round_of_tags",
    "rounds",
    "storable",
    "text",
    "text_source",
    "tiebreaks",
    "upload_status",
]


# --- who may change an event --------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Actor:
    """Who makes a change: the event, the number of the token used, and its role."""

    event: str
    token: int
    role: str


def change_token(secret: str | None) -> str:
    """The token a change was asked with; ``missing-token`` without one, before anything
    else is read."""
    if not secret:
        raise EventError(
            "missing-token",
            "this change needs the event's token (Authorization: Bearer TOKEN)",
        )
    return secret


def read_token(secret: str | None) -> str:
    """The token a read for the director only (the token list) was asked with."""
    if not secret:
        raise EventError("missing-token", "this needs the event's director token")
    return secret


def actor(token: TokenRow | None, event_id: str, role: str) -> Actor:
    """Who holds ``token`` (the one whose hash the request's secret has, if any), when it
    may act on ``event_id`` with ``role``: a token this server issued, not revoked, of this
    event, and the director's where the director is needed."""
    if token is None:
        raise EventError("bad-token", "the token is not one this server issued")
    if token.revoked_at is not None:
        raise EventError("revoked-token", f"the token was revoked at {token.revoked_at}")
    if token.event_id != event_id:
        raise EventError("wrong-event", "the token is another event's")
    if role == DIRECTOR and token.role != DIRECTOR:
        can = "an upload token can only upload records" if token.role == UPLOAD else (
            "a player's token can only upload records of the player's boards, check the "
            "player in and report their boards' results"
        )  # fmt: skip
        raise EventError("not-allowed", f"{can}; this change needs the director's token")
    return Actor(event_id, token.number, token.role)


def found_event(row: EventRow | None, event_id: str) -> EventRow:
    if row is None:
        raise no_such_event(event_id)
    return row


def names_an_event(event_id: str) -> bool:
    """Whether an id of a path may name an event: 1 to ``MAX_EVENT_ID`` printable characters.
    Any other (a NUL, a lone surrogate, a thousand characters) could not have been stored,
    and is not looked up: a database may refuse it as a value."""
    return 0 < len(event_id) <= MAX_EVENT_ID and event_id.isprintable()


def event_id(value: str) -> str:
    """An id of a path that may name an event, to look up; ``no-such-event`` for one that
    cannot (:func:`names_an_event`)."""
    if not names_an_event(value):
        raise no_such_event(value)
    return value


def no_such_event(event_id: str) -> EventError:
    """The refusal of an id that names no event (shown cut to 40 characters)."""
    shown = event_id if len(event_id) <= 40 else event_id[:40] + "..."
    return EventError("no-such-event", f"there is no event {shown!r}")


def open_event(event: EventRow) -> None:
    """A finalised event is read-only."""
    if event.finalised_at is not None:
        raise EventError(
            "event-finalised",
            f"the event was finalised at {event.finalised_at}; it is read-only",
        )


# --- records and tokens by number ---------------------------------------------------------


def names_a_row(number: int) -> bool:
    """Whether a number of a path may name a record or a token: a larger one names none
    (and would not fit the database's integers)."""
    return 0 <= number <= MAX_NUMBER


def found_record(row: RecordRow | None, number: int) -> RecordRow:
    if row is None:
        raise EventError("no-such-record", f"the event has no record {number}")
    return row


def found_token(row: TokenRow | None, number: int) -> TokenRow:
    if row is None:
        raise EventError("no-such-token", f"the event has no token {number}")
    return row


# --- what a change may do to a record -----------------------------------------------------


def confirmable(row: RecordRow) -> None:
    """Only a pending record is confirmed."""
    if row.status != PENDING:
        raise EventError("not-pending", f"record {row.number} is {row.status}, not pending")


def excludable(row: RecordRow) -> None:
    """A record excluded already is not excluded again."""
    if row.status == EXCLUDED:
        raise EventError("already-excluded", f"record {row.number} is already excluded")


def reinstatable(row: RecordRow) -> None:
    """Only an excluded record counts again."""
    if row.status != EXCLUDED:
        raise EventError("not-excluded", f"record {row.number} is {row.status}, not excluded")


def correctable(row: RecordRow) -> str:
    """The game of a record that may be given an official result: one that could be read
    (a record that could not names no game nor players)."""
    if row.header is None:
        raise EventError(
            "cannot-correct",
            f"record {row.number} could not be read: it "
            "names no game or players to give a result to",
        )
    header: dict[str, Any] = json.loads(row.header)
    return str(header["game"])


def official_result(value: object, game: str) -> str:
    """An official result in the game's canonical spelling: a finished result of ``game``
    (``blue+f`` is ``Blue+F``; ``*`` is none)."""
    spec = find_game(game)
    given = value.strip() if isinstance(value, str) and len(value) <= 40 else None
    canonical = normalise_result(given, spec) if given else None
    if canonical is None or canonical == "*":
        first, second = spec.colours
        raise EventError(  # well-formed, but no result of this record's game
            "bad-result",
            f"'result' must be a finished result of {game}: {first} or {second}, with +R, +T "
            f"or +F (resignation, time, forfeit){', or a margin' if spec.scored else ''}",
            field="result",
        )
    return canonical


def clearable(row: RecordRow) -> str:
    """The official result a record has, to take back."""
    if row.official_result is None:
        raise EventError(
            "no-official-result", f"record {row.number} has no official result to take back"
        )
    return row.official_result


def upload_status(actor: Actor, event: EventRow) -> str:
    """The status of records uploaded by ``actor``: those of an upload token wait for the
    director when the event says so; the director's count at once."""
    return PENDING if actor.role != DIRECTOR and event.confirm_uploads else ACCEPTED


# --- tokens, and the event's limits -------------------------------------------------------


def revocable(token: TokenRow, directors: int) -> None:
    """A token is revoked once; the event's last active director token (of ``directors``)
    cannot be."""
    if token.revoked_at is not None:
        raise EventError(
            "already-revoked", f"token {token.number} was revoked at {token.revoked_at}"
        )
    if token.role == DIRECTOR and directors <= 1:
        raise EventError(
            "last-director-token",
            "this is the event's only director token: issue another before revoking it",
        )


def room_for_token(issued: int) -> int:
    """The number of the next token, for an event that has issued ``issued`` (revoked ones
    included); at most ``MAX_TOKENS``."""
    if issued >= common.MAX_TOKENS:
        raise EventError("too-many-tokens", f"an event has at most {common.MAX_TOKENS} tokens")
    return issued + 1


def room_for_upload(records: int, size: int) -> None:
    """An event holds at most ``MAX_RECORDS`` records and ``MAX_BYTES`` of uploads:
    ``records`` and ``size`` are what it would hold with the upload."""
    if records > common.MAX_RECORDS or size > common.MAX_BYTES:
        raise EventError(
            "event-full",
            f"an event holds at most {common.MAX_RECORDS} "
            f"records and {common.MAX_BYTES // 2**20} MiB of uploads",
        )


def planned_rounds(planned: object, played: int) -> None:
    """The planned rounds are not fewer than those played."""
    if isinstance(planned, int) and planned < played:
        raise EventError(
            "rounds-below-played",
            f"{played} rounds have been played; the planned rounds cannot be fewer",
        )


# --- the fields of a request --------------------------------------------------------------


_SPACES = re.compile("[\t\n\v\f\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]+")
"""White space as JSON Schema (ECMA-262's ``\\s``) counts it, which the API description
uses: a text of nothing else is empty."""
_EDGES = re.compile(f"^{_SPACES.pattern}|{_SPACES.pattern}$")


def text(value: object, field: str, most: int, *, required: bool = True) -> str | None:
    """A text field of at most ``most`` characters that is not only white space (a name or
    a label with its runs of white space made one space; a reason as given, trimmed); None
    when absent and not required."""
    if value is None and not required:
        return None
    if not isinstance(value, str) or not _SPACES.sub("", value):
        raise EventError("bad-field", f"'{field}' must be a non-empty text", field=field)
    if not storable(value):
        raise EventError(
            "bad-field",
            f"'{field}' holds a NUL or a lone surrogate, which no text holds",
            field=field,
        )
    if len(value) > most:
        raise EventError("bad-field", f"'{field}' is longer than {most} characters", field=field)
    if field == "reason":
        return _EDGES.sub("", value)  # a reason keeps its lines
    return _SPACES.sub(" ", value).strip(" ")


_UNSTORABLE = re.compile("[\x00\ud800-\udfff]")


def storable(value: str) -> bool:
    """Whether ``value`` can be kept as text in every database: no NUL (PostgreSQL's text
    holds none) and no lone surrogate (UTF-8 encodes none; JSON's ``"\\ud800"`` gives one)."""
    return _UNSTORABLE.search(value) is None


def reason(value: object, *, required: bool = True) -> str | None:
    """Why a change is made: 1 to ``MAX_REASON`` characters, its lines kept."""
    return text(value, "reason", MAX_REASON, required=required)


def name(value: object) -> str:
    """An event's name: 1 to ``MAX_NAME`` characters, its runs of white space one space,
    nothing in it that would show it as another (:func:`person_name`)."""
    return person_name(value, "name")


def person_name(value: object, field: str) -> str:
    """A name people read (a player's, an event's): 1 to ``MAX_NAME`` characters, its runs
    of white space one space, without the characters that show nothing; a control character
    or a direction override is refused (``bad-name``): it would show the name as another,
    or reach a terminal, a table or a CSV file as an order."""
    found = text(value, field, MAX_NAME)
    assert found is not None  # required
    try:
        shown = plain_name(shown_name(found))
    except UnsafeName as err:
        raise EventError(
            "bad-name", f"'{field}' holds {err.what}, which no name may hold", field=field
        ) from None
    if not shown:
        raise EventError("bad-field", f"'{field}' must be a non-empty text", field=field)
    return shown


def label(value: object) -> str:
    """A token's label: 1 to ``MAX_LABEL`` characters."""
    found = text(value, "label", MAX_LABEL)
    assert found is not None  # required
    return found


def file_name(value: str | None) -> str | None:
    """An upload's file name as it is kept: none, or 1 to ``MAX_FILE_NAME`` characters that
    can be kept as text. A longer one is refused, never cut by the database (the web face
    keeps the last 255 characters of the name a client sends)."""
    if value is None:
        return None
    if not value or len(value) > MAX_FILE_NAME or not storable(value):
        raise EventError(
            "bad-field",
            f"a file name is 1 to {MAX_FILE_NAME} characters, without a NUL or a lone surrogate",
            field="file",
        )
    return value


def game(value: object) -> str:
    """A game's name, in any case; its own spelling."""
    found = game_named(value) if isinstance(value, str) else None
    if found is None:
        names = ", ".join(one.name for one in all_games())
        raise EventError("bad-field", f"'game' must be one of {names}", field="game")
    return found.name


def rounds(value: object) -> int | None:
    """The planned rounds: 1 to ``MAX_ROUNDS`` (``7.0`` is JSON's 7), or none."""
    if value is None:
        return None
    if isinstance(value, float) and value.is_integer():  # 7.0 is JSON's 7
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_ROUNDS:
        raise EventError(
            "bad-field",
            f"'rounds' must be a whole number from 1 to {MAX_ROUNDS}",
            field="rounds",
        )
    return value


def tiebreaks(value: object) -> str | None:
    """The tie-break order, given as a list of names (``["buchholz", "sb"]``); kept as the
    comma-separated text ``arbiter standings --tiebreak`` takes."""
    if value is None:
        return None
    if not isinstance(value, list) or not all(isinstance(one, str) for one in value):
        raise EventError(
            "bad-field",
            "'tiebreaks' must be a list of tie-break names, "
            'such as ["buchholz", "sonneborn-berger"]',
            field="tiebreaks",
        )
    try:
        return ",".join(parse_order(value))
    except ValueError as err:
        raise EventError("bad-field", str(err), field="tiebreaks") from None


def flag(value: object, field: str) -> bool:
    if not isinstance(value, bool):
        raise EventError("bad-field", f"'{field}' must be true or false", field=field)
    return value


def role(value: object) -> str:
    """A token's role: ``upload``, ``player`` or ``director``."""
    if value not in ROLES:
        raise EventError(
            "bad-field", "'role' must be 'upload', 'player' or 'director'", field="role"
        )
    return str(value)


@dataclass(frozen=True, slots=True)
class NewEvent:
    """The fields of a new event, checked."""

    name: str
    game: str
    rounds: int | None
    tiebreaks: str | None
    confirm_uploads: bool
    pairing: str = "none"
    bye_points: float = 1.0
    half_byes: bool = True
    check_in: bool = False


CREATED = (
    "name", "game", "rounds", "tiebreaks", "confirm_uploads", "pairing", "bye_points",
    "half_byes", "check_in",
)  # fmt: skip
"""The fields a new event is given (``name`` and ``game`` needed)."""


def new_event(fields: Mapping[str, object]) -> NewEvent:
    """A new event's fields, each checked in turn; any other field is refused."""
    unknown = sorted(set(fields) - set(CREATED))
    if unknown:
        raise EventError("bad-field", f"unknown field {unknown[0]!r}", field=unknown[0])
    made = NewEvent(
        name=name(fields.get("name")),
        game=game(fields.get("game")),
        rounds=rounds(fields.get("rounds")),
        tiebreaks=tiebreaks(fields.get("tiebreaks")),
        confirm_uploads=flag(fields.get("confirm_uploads", True), "confirm_uploads"),
        pairing=pairing_system(fields.get("pairing", "none")),
        bye_points=bye_points(fields.get("bye_points", 1)),
        half_byes=flag(fields.get("half_byes", True), "half_byes"),
        check_in=flag(fields.get("check_in", False), "check_in"),
    )
    dutch_rounds(made.pairing, made.rounds)
    if made.check_in and made.pairing == "none":
        raise EventError("bad-field", "only a paired event checks its players in", field="check_in")
    return replace(made, tiebreaks=round_robin_tiebreaks(made.pairing, made.tiebreaks))


ROUND_ROBIN = ("round-robin", "double-round-robin")
ROUND_ROBIN_TIEBREAKS = "direct,sonneborn-berger,wins,margin"
"""A round robin's tie-breaks when it is given none: the default order without Buchholz."""
BUCHHOLZ_TYPE = ("buchholz",)
"""The tie-breaks of the Buchholz kind (FIDE C.07's 4xx), which a round robin may not use."""


def round_robin_tiebreaks(pairing: str, order: str | None) -> str | None:
    """The tie-break order an event keeps: in a round robin, every player meets every
    other, so a Buchholz tie-break separates nobody and FIDE's regulations (C.07) do not
    allow it (``bad-field``), and no order given is :data:`ROUND_ROBIN_TIEBREAKS`."""
    if pairing not in ROUND_ROBIN:
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


DUTCH_NEEDS_ROUNDS = (
    "a Dutch event needs its planned rounds: the Dutch system pairs the last rounds by rules "
    "of their own, so it must know which round is the last"
)


def dutch_rounds(pairing: str, planned: int | None) -> None:
    """A Dutch event says how many rounds it plans (``bad-field`` for ``rounds``)."""
    if pairing == "dutch" and planned is None:
        raise EventError("bad-field", DUTCH_NEEDS_ROUNDS, field="rounds")


EDITABLE = ("name", "rounds", "tiebreaks", "confirm_uploads")
"""The fields of an event a change may set."""


@dataclass(frozen=True, slots=True)
class EventChanges:
    """The fields a change sets (in the order given, each checked), and why."""

    values: Mapping[str, str | int | bool | None]
    reason: str | None


def event_changes(fields: Mapping[str, object]) -> EventChanges:
    """What a change to the event asks: one field at least of :data:`EDITABLE`, each
    checked in the order given, and an optional reason; any other field is refused."""
    unknown = sorted(set(fields) - {*EDITABLE, "reason"})
    if unknown:
        raise EventError("bad-field", f"unknown or fixed field {unknown[0]!r}", field=unknown[0])
    values: dict[str, str | int | bool | None] = {}
    for field, value in fields.items():
        if field == "name":
            values[field] = name(value)
        elif field == "rounds":
            values[field] = rounds(value)
        elif field == "tiebreaks":
            values[field] = tiebreaks(value)
        elif field == "confirm_uploads":
            values[field] = flag(value, field)
    if not values:
        raise EventError("bad-field", f"give one of {', '.join(EDITABLE)}")
    return EventChanges(values, reason(fields.get("reason"), required=False))


def round_of_tags(tags: Sequence[tuple[str, str]]) -> int | None:
    """The round a record's tags give (its ``Round`` tag: 1 to ``MAX_ROUNDS``), or None:
    what an upload keeps in a record's ``round``, and what verification expects there."""
    text = next((value.strip() for name, value in tags if name == "Round"), "")
    if text.isascii() and text.isdigit() and len(text.lstrip("0")) <= 3:
        number = int(text)
        return number if 1 <= number <= MAX_ROUNDS else None
    return None


# --- paired events ------------------------------------------------------------------------

PAIRING_SYSTEMS = ("none", "dutch", "round-robin", "double-round-robin")
"""How an event's rounds are paired (``none``: not paired; records are uploaded)."""
MAX_PLAYERS = 2_000
"""Players one paired event may have (the most the Dutch engine is given)."""
MAX_BOARDS = MAX_PLAYERS // 2
"""Boards a pairing given by hand may have."""
MAX_RATING = 4_000


def pairing_system(value: object) -> str:
    if value not in PAIRING_SYSTEMS:
        raise EventError(
            "bad-field", f"'pairing' must be one of {', '.join(PAIRING_SYSTEMS)}", field="pairing"
        )
    return str(value)


def bye_points(value: object) -> float:
    """What the bye the pairing allocates is worth: 1 (a win, the default), 0.5 or 0."""
    if isinstance(value, bool) or not isinstance(value, int | float) or value not in (0, 0.5, 1):
        raise EventError("bad-field", "'bye_points' must be 1, 0.5 or 0", field="bye_points")
    return float(value)


def paired(event: EventRow) -> EventRow:
    """The event, if it is paired; ``not-paired-event`` for an event whose records are only
    uploaded."""
    if event.pairing == "none":
        raise EventError(
            "not-paired-event",
            "the event is not paired (its pairing is 'none'): records are uploaded to it",
        )
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


def token_player(value: object, role: str) -> int | None:
    """The pairing number of the player an upload or a player's token is made for (a whole
    number), or None; a player's token is always made for a player, a director's never."""
    if value is None:
        if role == PLAYER:
            raise EventError(
                "bad-field", "a player's token is made for a player: give 'player'", field="player"
            )
        return None
    if isinstance(value, float) and value.is_integer():  # 7.0 is JSON's 7
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_NUMBER:
        raise EventError("bad-field", "'player' must be a pairing number", field="player")
    if role == DIRECTOR:
        raise EventError(
            "bad-field", "an upload or a player's token is made for a player", field="player"
        )
    return value


def found_player(player: int | None, number: int) -> int:
    """A player's id, found by their pairing number ``number``."""
    if player is None:
        raise EventError("no-such-player", f"the event has no player {number}")
    return player


def room_for_player(players: int, event: EventRow, rounds_paired: int) -> None:
    """A player may enter while the event has room, and a round robin only before its
    first round is paired (its table is made for the players it starts with)."""
    if players >= MAX_PLAYERS:
        raise EventError("too-many-players", f"an event has at most {MAX_PLAYERS} players")
    if rounds_paired and event.pairing != "dutch":
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
    if event.pairing == "dutch" and event.rounds is None:  # an event made before they were needed
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
    byes = [
        (number, kind, 0.5 if kind == "half" else 0.0) for number, kind in sorted(requested.items())
    ]
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


def free_to_report(found: Any, round_number: int, board: int) -> None:
    """A board takes players' reports until it has a result (``found``: its outcome): the
    director's, a record's, or the one both players reported."""
    if found is not None:
        whose = {"director": "the director's", "players": "both players'"}.get(
            found.source, "its record's"
        )
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
    if value not in ("as-paired", "reversed"):
        raise EventError("bad-field", "'seats' must be as-paired or reversed", field="seats")
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


PLACEMENT_WORDS = {
    "not-paired": "its players were not paired together in its round",
    "seats-reversed": "its players were paired the other way round (first seat, second seat)",
    "wrong-round": "its players were not paired in the round its tags give",
    "board-has-a-result": "its board has a result or a record already",
    "unreadable": "it could not be read, so it names no players",
    "not-your-board": "it was sent with an upload token made for a player not on its board",
}
"""Why a record of a paired event stands on no board, in the words every page, the
standings and the TRF use."""


def placement_words(placement: str, report: Mapping[str, Any] | None = None) -> str:
    """Why a record stands on no board, in words; for a record of another game, its
    report's first error says which (the one wording of such a record everywhere)."""
    if placement == "wrong-game":
        errors = (report or {}).get("errors") or [{}]
        return str(errors[0].get("message") or "the record is a game of another game")
    return PLACEMENT_WORDS.get(placement, placement)


# --- what an upload holds -----------------------------------------------------------------

SNIFFED = 1024
"""The first bytes of a source that tell text from a photo or a document."""
_ODD_SHARE = 0.1
"""The share of those bytes that may be neither UTF-8 nor printable or white space: a
record saved in another encoding has a few (its accented letters), a photo has half."""

SIGNATURES: tuple[tuple[bytes, str], ...] = (
    (b"\x89PNG\r\n\x1a\n", "a PNG image"),
    (b"\xff\xd8\xff", "a JPEG image"),
    (b"GIF87a", "a GIF image"),
    (b"GIF89a", "a GIF image"),
    (b"II*\x00", "a TIFF image"),
    (b"MM\x00*", "a TIFF image"),
    (b"RIFF", "a RIFF file (a WebP image, a sound or a video)"),
    (b"%PDF-", "a PDF document"),
    (b"PK\x03\x04", "a ZIP archive (or an office document)"),
    (b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1", "an office document"),
    (b"\x1f\x8b", "a gzip file"),
    (b"7z\xbc\xaf\x27\x1c", "a 7-Zip archive"),
    (b"Rar!\x1a\x07", "a RAR archive"),
    (b"\x7fELF", "a program"),
    (b"\xff\xfe", "UTF-16 text: save it as UTF-8"),
    (b"\xfe\xff", "UTF-16 text: save it as UTF-8"),
)
"""The first bytes of the files most often sent by mistake, and what each file is."""


def text_source(data: bytes, file: str | None) -> None:
    """Refuse (``not-text``) a source that is not text, judged by its first ``SNIFFED``
    bytes: the signature of a known binary format (an image, a PDF, an archive), a NUL byte
    (no GRN or JSON text holds one), or more than a tenth of bytes that are neither UTF-8
    nor printable or white space. Cut into records, such a file would only make junk."""
    what = _not_text(data[:SNIFFED], whole=len(data) <= SNIFFED)
    if what is not None:
        where = "the body" if file is None else f"the file {file!r}"
        raise EventError(
            "not-text",
            f"{where} is not text ({what}): records are sent as UTF-8 text, GRN or JSON; "
            "nothing of this request was kept",
            file=file,
        )


def _not_text(head: bytes, *, whole: bool) -> str | None:
    """What ``head``, the first bytes of a source, shows it is when it is not text."""
    for signature, what in SIGNATURES:
        if head.startswith(signature):
            return what
    if head[4:8] == b"ftyp":
        return "a photo or a video (ISO media: HEIC, MP4)"
    if b"\x00" in head:
        return "it holds NUL bytes"
    decoded = codecs.getincrementaldecoder("utf-8")("surrogateescape").decode(head, final=whole)
    odd = len(_ODD.findall(decoded))
    if odd > _ODD_SHARE * len(head):
        return f"{odd} of its first {len(head)} bytes are not UTF-8 text"
    return None


_ODD = re.compile("[\udc80-\udcff\x00-\x08\x0e-\x1f]")
"""A byte that is not UTF-8 (decoded as a surrogate escape), or a control character that is
not white space (tab, line feed, vertical tab, form feed, carriage return)."""


def event_tag_warnings(tags: Sequence[Sequence[str]], event: str) -> tuple[RecordWarning, ...]:
    """What a director is told of a record's ``Event`` tag (``tags``: a header's ``[name,
    value]`` pairs) in the event named ``event``: a record counts for the event it was
    uploaded to whatever its tag says, so a tag missing or naming another event is only a
    warning shown with the record (a slip of the pen, or a file of another event)."""
    found = next((value for name, value in tags if name == "Event"), "")
    named = " ".join(found.split())
    if not named:
        return (
            RecordWarning(
                "no-event-tag",
                f"the record has no Event tag; it counts for {event}, the event it was uploaded to",
            ),
        )
    if named != event:
        shown = named if len(named) <= 100 else named[:100] + "..."
        return (
            RecordWarning(
                "event-tag-differs",
                f"the record's Event tag names {shown!r}; it counts for {event}, the event "
                "it was uploaded to",
            ),
        )
    return ()
