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
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from arbiter.adjudicator.tiebreaks import parse_order
from arbiter.notation.build import normalise_result
from arbiter.notation.games import all_games, find_game, game_named
from arbiter.pairing.values import BYE_POINT_CHOICES
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
    UNPAIRED,
    UPLOAD,
    EventError,
)
from arbiter.service.events.names import UnsafeName, plain_name, shown_name
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
    pairing: str = UNPAIRED
    bye_points: float = 1.0
    half_byes: bool = True
    check_in: bool = False


CREATED = (
    "name", "game", "rounds", "tiebreaks", "confirm_uploads", "pairing", "bye_points",
    "half_byes", "check_in",
)  # fmt: skip
"""The fields a new event is given (``name`` and ``game`` needed)."""


def new_event(fields: Mapping[str, object]) -> NewEvent:
    """A new event's fields, each checked in turn; any other field is refused. Its
    ``pairing`` names its kind, which checks what its kind asks
    (:meth:`~arbiter.service.events.kind.EventKind.created`)."""
    unknown = sorted(set(fields) - set(CREATED))
    if unknown:
        raise EventError("bad-field", f"unknown field {unknown[0]!r}", field=unknown[0])
    pairing = fields.get("pairing", UNPAIRED)
    if not isinstance(pairing, str):
        raise EventError("bad-field", "'pairing' must be a string", field="pairing")
    return NewEvent(
        name=name(fields.get("name")),
        game=game(fields.get("game")),
        rounds=rounds(fields.get("rounds")),
        tiebreaks=tiebreaks(fields.get("tiebreaks")),
        confirm_uploads=flag(fields.get("confirm_uploads", True), "confirm_uploads"),
        pairing=pairing,
        bye_points=bye_points(fields.get("bye_points", 1)),
        half_byes=flag(fields.get("half_byes", True), "half_byes"),
        check_in=flag(fields.get("check_in", False), "check_in"),
    )


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


def bye_points(value: object) -> float:
    """What the bye the pairing allocates is worth: 1 (a win, the default), 0.5 or 0
    (:data:`arbiter.pairing.BYE_POINT_CHOICES`)."""
    if (
        isinstance(value, bool)
        or not isinstance(value, int | float)
        or value not in BYE_POINT_CHOICES
    ):
        raise EventError("bad-field", "'bye_points' must be 1, 0.5 or 0", field="bye_points")
    return float(value)


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


# --- players' tokens --------------------------------------------------------------------


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
