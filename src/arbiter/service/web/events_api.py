"""``/api/v1/events``: events kept on the server (``spec/events.md``, ``spec/openapi.yaml``).

Views are thin: they read the request, call :mod:`arbiter.service.events.operations`
(the functions ``arbiter db`` calls too) and answer JSON. Every call goes through
:func:`call`, which keeps the operation's types and answers its refusals with the status
their code has in :data:`STATUS`. The database is opened on the
first request that needs it, in the process that serves it (so that ``serve --workers``
forks before any connection exists), and only the event routes import the storage layer.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import json
import logging
import re
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import TYPE_CHECKING, Any, Concatenate, NoReturn, ParamSpec, TypeVar

from flask import Blueprint, Flask, Response, current_app, jsonify, request, url_for

from arbiter.service.events.idempotency import Replayed
from arbiter.service.web.errors import ApiError
from arbiter.service.web.inputs import request_sources

if TYPE_CHECKING:
    from arbiter.service.events.common import Code, EventError
    from arbiter.service.events.reading import Rendered
    from arbiter.service.events.receipts import KeyUse, ServerKey
    from arbiter.service.events.store import Store
    from arbiter.service.web.front import EarlyRefusal

P = ParamSpec("P")
R = TypeVar("R")

bp = Blueprint("events", __name__, url_prefix="/api/v1/events")

STORE = "arbiter.events.store"
KEY = "arbiter.events.key"
WRITES = ("POST", "PUT", "PATCH", "DELETE")
"""The methods of the routes that change an event: a 2xx answer to one carries a receipt."""

STATUS: dict[Code, int] = {
    "bad-field": 400,
    "missing-token": 401,
    "bad-token": 401,
    "revoked-token": 401,
    "wrong-event": 403,
    "not-allowed": 403,
    "no-such-event": 404,
    "no-such-record": 404,
    "no-such-upload": 404,
    "no-such-token": 404,
    "event-finalised": 409,
    "event-exists": 409,
    "already-revoked": 409,
    "last-director-token": 409,
    "rounds-below-played": 409,
    "not-pending": 409,
    "already-excluded": 409,
    "not-excluded": 409,
    "no-official-result": 409,
    "event-full": 422,
    "not-text": 422,
    "too-many-tokens": 422,
    "cannot-correct": 422,
    "bad-result": 422,
    "bad-archive": 422,
    "archive-changed": 422,
    "not-paired-event": 409,
    "no-such-player": 404,
    "no-such-round": 404,
    "no-such-board": 404,
    "duplicate-player": 409,
    "similar-name": 409,
    "round-robin-started": 409,
    "round-already-paired": 409,
    "round-not-finished": 409,
    "all-rounds-paired": 409,
    "cannot-pair": 422,
    "round-has-results": 409,
    "not-last-round": 409,
    "bad-pairing": 422,
    "board-has-a-result": 409,
    "no-board-result": 409,
    "already-withdrawn": 409,
    "player-withdrawn": 409,
    "too-many-players": 422,
    "cannot-place": 422,
    "player-was-paired": 409,
    "no-such-bye": 404,
    "not-withdrawn": 409,
    "player-changed": 409,
    "idempotency-key-reused": 422,
    "request-in-progress": 409,
    "bad-name": 400,
    "no-planned-rounds": 409,
    "event-changed": 409,
    "engine-limit": 422,
    "not-your-board": 403,
    "not-your-player": 403,
    "no-check-in": 409,
    "not-checked-in": 404,
    "round-is-draft": 409,
    "not-a-draft": 409,
    "draft-pending": 409,
    "too-many-webhooks": 422,
    "webhook-address-refused": 422,
    "no-such-webhook": 404,
    "pairing-warnings": 409,
    "no-such-pool": 422,
    "acceleration-fixed": 409,
    "round-robin-table": 409,
    "no-such-prohibition": 404,
    "too-many-prohibitions": 422,
    "player-prohibited": 409,
}
"""The HTTP status of each refusal of the events layer (``spec/events.md`` §8): the one place
where a domain error becomes HTTP."""


def store() -> Store:
    """The app's store, opened (and its schema brought up to date) on first use."""
    from arbiter.service.events.migrate import open_store
    from arbiter.service.events.store import default_url

    found: Store | None = current_app.extensions.get(STORE)
    if found is None:
        url = current_app.config.get("DATABASE") or default_url()
        found = open_store(url)
        current_app.extensions[STORE] = found
    return found


def server_key() -> ServerKey:
    """The server's signing key, from the data folder (``DATA_FOLDER``, else the default
    one), made there on first use; a key that cannot be used is 503 ``key-unavailable``."""
    from arbiter.service.events.common import now
    from arbiter.service.events.receipts import ReceiptError, load_or_create_key, note_key
    from arbiter.service.events.store import default_folder

    found: ServerKey | None = current_app.extensions.get(KEY)
    if found is None:
        folder = Path(current_app.config.get("DATA_FOLDER") or default_folder())
        try:
            found = load_or_create_key(folder)
            note_key(folder, found, now())
        except (ReceiptError, OSError) as err:
            current_app.logger.error("the server's key cannot be used: %s", err)
            raise ApiError(
                503, "key-unavailable", "the server cannot sign receipts; its operator is told"
            ) from None
        current_app.extensions[KEY] = found
    return found


def keys_used() -> tuple[KeyUse, ...]:
    """The keys this server has signed with, oldest first (its key among them)."""
    from arbiter.service.events.receipts import used_keys
    from arbiter.service.events.store import default_folder

    server_key()
    return used_keys(Path(current_app.config.get("DATA_FOLDER") or default_folder()))


@bp.before_request
def _nothing_written_yet() -> None:
    """A request starts with nothing written, and with the ``Idempotency-Key`` it was sent
    with, if any (a change sent again with its key is answered as the first time)."""
    from arbiter.service.events.change import REPEATED, WRITTEN
    from arbiter.service.events.idempotency import ANSWERING, KEYED, request_key

    WRITTEN.set(None)
    REPEATED.set(False)
    ANSWERING.set(None)
    KEYED.set(None)
    key = request.headers.get(IDEMPOTENCY_KEY)
    if key is None or request.method not in WRITES:
        return
    uploading = UPLOAD_PATH.fullmatch(request.path) is not None  # its sources are hashed later
    data = b"" if uploading else request.get_data(cache=True)
    with refusals():
        KEYED.set(request_key(key, request.method, request.path, bearer(), data))


IDEMPOTENCY_KEY = "Idempotency-Key"
REPLAYED = "Idempotent-Replayed"
"""The header a change's answer carries when it is the answer of the same change made before
(sent again with its key, or found made already)."""


@bp.errorhandler(Replayed)
def _replayed(done: Replayed) -> Response:
    """The answer kept for a change sent again with its key: as it was, receipt and all."""
    response = Response(done.body, status=done.status, content_type="application/json")
    response.headers[REPLAYED] = "true"
    return response


@bp.after_request
def _with_receipt(response: Response) -> Response:
    """Sign the head of the event a write changed (the entry it appended; for a write that
    appended none, such as the same bytes sent again, the event's head) and put the
    receipt in the JSON answer (``spec/events.md`` §6)."""
    from arbiter.service.events.change import REPEATED, WRITTEN
    from arbiter.service.events.reading import chain_head
    from arbiter.service.events.receipts import Head

    if request.method not in WRITES or not 200 <= response.status_code < 300:
        return response
    if response.headers.get(REPLAYED):  # the first answer, receipt and all
        return response
    if REPEATED.get():
        response.headers[REPLAYED] = "true"
    answer = response.get_json(silent=True) if response.is_json else None
    if not isinstance(answer, dict) or request.endpoint == "events.verify_receipts":
        return response
    written = WRITTEN.get()
    if written is not None:
        head = Head(written.event, written.number, written.hash, written.at)
    else:
        event_id = (request.view_args or {}).get("event_id")
        if not isinstance(event_id, str):
            return response
        head = call(chain_head, event_id)
    answer["receipt"] = server_key().sign(head).to_dict()
    response.set_data(current_app.json.dumps(answer))
    _keep_answer(response)
    return response


def _keep_answer(response: Response) -> None:
    """Keep the answer to a change made with an ``Idempotency-Key``, for the same request
    sent again. The change is made whatever happens here: a database that fails now leaves
    the key waiting (``request-in-progress``), never the change undone or made twice."""
    from arbiter.service.events.change import keep_answer
    from arbiter.service.events.common import DatabaseError
    from arbiter.service.events.idempotency import ANSWERING

    answering = ANSWERING.get()
    if answering is None:
        return
    ANSWERING.set(None)
    scope, key = answering
    try:
        keep_answer(store(), scope, key, response.status_code, response.get_data())
    except DatabaseError as err:
        current_app.logger.error("the answer to a keyed change was not kept: %s", err)


def _refuse(err: EventError) -> NoReturn:
    raise ApiError(STATUS[err.code], err.code, err.message, **err.extra) from None


@contextlib.contextmanager
def refusals() -> Iterator[None]:
    """The events layer's refusals as API errors; a database that cannot be used (or does
    not answer) as 503 ``database-unavailable``."""
    from arbiter.service.events.common import (
        DamagedRow,
        DatabaseError,
        DatabaseUnavailable,
        EventError,
    )

    try:
        yield
    except EventError as err:
        _refuse(err)
    except DamagedRow as err:
        current_app.logger.error("event %s cannot be read: %s", err.event, err.words)
        raise ApiError(
            500,
            "event-damaged",
            f"this event's stored data cannot be read ({err.words}); the server's operator "
            "is told: `arbiter db verify` names what is damaged",
        ) from None
    except json.JSONDecodeError as err:  # a stored record's header or report, damaged
        current_app.logger.error("a stored value is not JSON: %s", err.msg)
        raise ApiError(
            500,
            "event-damaged",
            "this event's stored data cannot be read (a value kept as JSON is not JSON); the "
            "server's operator is told: `arbiter db verify` names what is damaged",
        ) from None
    except DatabaseUnavailable as err:
        current_app.logger.error("database unavailable: %s", err.kind)
        raise ApiError(
            503, "database-unavailable", "the database does not answer; try again shortly"
        ) from None
    except DatabaseError as err:
        raise ApiError(503, "database-unavailable", str(err)) from None


def call(operation: Callable[Concatenate[Store, P], R], /, *args: P.args, **kwargs: P.kwargs) -> R:
    """``operation(store, *args, **kwargs)`` on the app's store, its refusals as API errors:
    typed as the operation is, so that the type checker sees what each route passes and
    gets."""
    with refusals():
        return operation(store(), *args, **kwargs)


def bearer() -> str | None:
    """The token of ``Authorization: Bearer TOKEN``, if the request has one."""
    return token_of(request.headers.get("Authorization", ""))


def token_of(authorization: str) -> str | None:
    """The token of an ``Authorization`` header's value ``Bearer TOKEN``, if it is one."""
    scheme, _, token = authorization.partition(" ")
    return token.strip() or None if scheme.lower() == "bearer" else None


def body() -> dict[str, Any]:
    """The request's JSON object (an empty object for no body). JSON that Python cannot
    read, nested too deep included, is ``bad-json`` like any other."""
    data = request.get_data(cache=True)
    if not data:
        return {}
    try:
        found = json.loads(data)
    except (ValueError, RecursionError):
        found = None
    if not isinstance(found, dict):
        raise ApiError(400, "bad-json", "the body must be a JSON object")
    return found


def page_url(event_id: str) -> str:
    return url_for("event_pages.event_page", event_id=event_id, _external=True)


def _with_urls(summary: dict[str, Any]) -> dict[str, Any]:
    return {
        **summary,
        "url": page_url(summary["id"]),
        "api": url_for("events.event", event_id=summary["id"], _external=True),
    }


@bp.post("")
def create() -> tuple[Response, int]:
    """A new event; the answer holds the director's token, shown this once."""
    _check_creation_key()
    from arbiter.service.events.operations import create_event

    created = call(create_event, body())
    answer = jsonify({**_with_urls(created.event.to_dict()), "token": created.token})
    answer.headers["Location"] = answer.json["api"] if answer.json else ""
    answer.headers["Cache-Control"] = "no-store"
    return answer, 201


def _check_creation_key() -> None:
    wanted = current_app.config.get("EVENT_CREATION_KEY_SHA256")
    if not wanted:
        return
    given = bearer()
    if given is None:
        raise ApiError(
            401,
            "missing-token",
            "this server creates events only for the holder "
            "of its creation key (Authorization: Bearer KEY)",
        )
    digest = hashlib.sha256(given.encode("utf-8", "surrogatepass")).hexdigest()
    if not hmac.compare_digest(digest, wanted):
        raise ApiError(403, "bad-creation-key", "the key is not this server's creation key")


LISTED = 500
"""The most events the list gives (and the page of events shows), newest first."""


@bp.get("")
def list_events() -> Response:
    """The events, newest first (at most 500)."""
    from arbiter.service.events.reading import list_events as listed

    rows = call(listed, newest_first=True, limit=LISTED)
    found = [
        {
            "id": r.id,
            "name": r.name,
            "game": r.game,
            "created_at": r.created_at,
            "finalised_at": r.finalised_at,
            "url": page_url(r.id),
        }
        for r in rows
    ]
    return jsonify(events=found)


@bp.get("/<event_id>")
def event(event_id: str) -> Response:
    """The event: name, game, planned and played rounds, counts, last change."""
    from arbiter.service.events.reading import event_summary

    return _fresh(
        event_id,
        lambda: jsonify(
            {**_with_urls(call(event_summary, event_id).to_dict()), "key": server_key().public}
        ),
    )


def _fresh(event_id: str, answer: Callable[[], Response]) -> Response:
    """``answer()``, with the event's version as its ETag; 304 when the client has it."""
    from arbiter.service.events.reading import version

    current = f"{event_id}-{call(version, event_id)}"
    tag = f'"{current}"'
    if request.if_none_match.contains(current):
        not_modified = Response(status=304)
        not_modified.headers["ETag"] = tag
        return not_modified
    response: Response = answer()
    response.headers["ETag"] = tag
    response.headers["Cache-Control"] = "no-cache"
    _with_head(response, event_id)
    return response


def _with_head(response: Response, event_id: str) -> None:
    """The event's head as of this answer (``Arbiter-Head: ENTRY HASH``), on every read and
    export of an event, to compare with a receipt kept."""
    from arbiter.service.events.reading import chain_head

    head = call(chain_head, event_id)
    response.headers["Arbiter-Head"] = f"{head.entry} {head.hash}"


@bp.patch("/<event_id>")
def change(event_id: str) -> Response:
    """Change the name, planned rounds, tie-breaks or confirmation of players' uploads."""
    from arbiter.service.events.operations import change_event

    return jsonify(_with_urls(call(change_event, event_id, bearer(), body()).to_dict()))


@bp.post("/<event_id>/finalise")
def finalise(event_id: str) -> Response:
    """Finalise the event: read-only from now on."""
    from arbiter.service.events.operations import finalise as finalise_event

    summary = call(finalise_event, event_id, bearer(), body().get("reason"))
    return jsonify(_with_urls(summary.to_dict()))


@bp.post("/<event_id>/records")
def upload(event_id: str) -> tuple[Response, int]:
    """Records in: the bodies ``/adjudicate`` takes, each kept as sent with its reports."""
    from arbiter.service.events.operations import Upload
    from arbiter.service.events.operations import upload as keep

    def sources() -> list[Upload]:  # read once the token, the event and its role are checked
        return [
            Upload(s.name, s.data if isinstance(s.data, bytes) else s.data.read(), s.fmt)
            for s in request_sources(request)
        ]

    answer = call(keep, event_id, bearer(), sources)
    return jsonify(
        count=answer.count, invalid=answer.invalid, **answer.to_dict(), url=page_url(event_id)
    ), 201 if answer.created else 200


@bp.get("/<event_id>/records")
def records(event_id: str) -> Response:
    """Every record kept, with its report, round, players, status and upload (``?round=N``:
    one round's); ``?format=grn``: all of them as canonical GRN."""
    from arbiter.service.events.reading import records_grn, records_output

    if request.args.get("format", "json") not in ("json", "grn"):
        raise ApiError(400, "bad-parameter", "'format' must be json or grn", parameter="format")
    if request.args.get("format") == "grn":
        response = _rendered(event_id, call(records_grn, event_id))
        response.headers["Content-Disposition"] = f'attachment; filename="{event_id}.grn"'
        _with_head(response, event_id)
        return response
    round_text = request.args.get("round")
    number = None
    if round_text is not None:
        if not (round_text.isascii() and round_text.isdigit() and len(round_text) <= 3):
            raise ApiError(
                400, "bad-parameter", "'round' must be a round number", parameter="round"
            )
        number = int(round_text)
    return _rendered(event_id, call(records_output, event_id, number))


def _rendered(event_id: str, made: Rendered) -> Response:
    """A read made for one version of the event, with that version as its ETag; 304 when
    the client has it; the event's head as of the read (``Arbiter-Head``)."""
    current = f"{event_id}-{made.version}"
    if request.if_none_match.contains(current):
        response = Response(status=304)
    else:
        response = Response(made.body, content_type=made.content_type)
    response.headers["ETag"] = f'"{current}"'
    response.headers["Cache-Control"] = "no-cache"
    if made.head is not None:
        response.headers["Arbiter-Head"] = f"{made.head.entry} {made.head.hash}"
    else:
        _with_head(response, event_id)
    return response


@bp.get("/<event_id>/records/<int:number>")
def one_record(event_id: str, number: int) -> Response:
    from arbiter.service.events.reading import record

    return jsonify(call(record, event_id, number).to_dict())


@bp.post("/<event_id>/records/<int:number>/confirm")
def confirm(event_id: str, number: int) -> Response:
    """Confirm a record a player uploaded: it counts from now on."""
    from arbiter.service.events.operations import confirm as confirm_record

    return jsonify(call(confirm_record, event_id, bearer(), number, _reason_given()).to_dict())


@bp.post("/<event_id>/records/<int:number>/exclude")
def exclude(event_id: str, number: int) -> Response:
    """Exclude a record from the event, with a reason."""
    from arbiter.service.events.operations import exclude as exclude_record

    return jsonify(call(exclude_record, event_id, bearer(), number, _reason_given()).to_dict())


@bp.post("/<event_id>/records/<int:number>/reinstate")
def reinstate(event_id: str, number: int) -> Response:
    """Count an excluded record again, with a reason."""
    from arbiter.service.events.operations import reinstate as reinstate_record

    return jsonify(call(reinstate_record, event_id, bearer(), number, _reason_given()).to_dict())


def _reason_given() -> object:
    given = body()
    return given.get("reason", request.args.get("reason"))


@bp.put("/<event_id>/records/<int:number>/result")
def set_result(event_id: str, number: int) -> Response:
    """Set the record's official result (``{"result": "Blue+F", "reason": "..."}``)."""
    from arbiter.service.events.operations import set_result as set_official

    given = body()
    made = call(set_official, event_id, bearer(), number, given.get("result"), given.get("reason"))
    return jsonify(made.to_dict())


@bp.delete("/<event_id>/records/<int:number>/result")
def clear_result(event_id: str, number: int) -> Response:
    """Take the official result back (a reason in the body or ``?reason=``)."""
    from arbiter.service.events.operations import clear_result as clear_official

    return jsonify(call(clear_official, event_id, bearer(), number, _reason_given()).to_dict())


@bp.get("/<event_id>/uploads")
def uploads(event_id: str) -> Response:
    from arbiter.service.events.reading import list_uploads

    return jsonify(uploads=[one.to_dict() for one in call(list_uploads, event_id)])


@bp.get("/<event_id>/uploads/<sha256>")
def upload_bytes(event_id: str, sha256: str) -> Response:
    """An upload's bytes, exactly as sent."""
    from arbiter.service.events.reading import upload_bytes as kept

    source = call(kept, event_id, sha256)
    name, fmt, data = source.file_name, source.format, source.data
    kind = "application/json" if fmt in ("json", "abstractplay") else "application/octet-stream"
    if fmt == "grn":
        kind = "text/plain; charset=utf-8"
    response = Response(data, content_type=kind)
    shown = (name or f"upload-{sha256[:12]}").replace('"', "").replace("\\", "")
    response.headers["Content-Disposition"] = f'attachment; filename="{_ascii(shown)}"'
    response.headers["X-Content-Type-Options"] = "nosniff"
    return response


def _ascii(name: str) -> str:
    return "".join(c if c.isascii() and c.isprintable() else "_" for c in name)[:200]


@bp.get("/<event_id>/standings")
def standings(event_id: str) -> Response:
    """The standings of the records that count, as ``arbiter standings`` writes them
    (``?format=json|table|csv|html|trf``; the TRF with the planned rounds and the
    corrections, its lines ending as ``?line_ends=lf|cr|crlf`` says, a line feed by
    default), made once per version of the event."""
    from arbiter.pairing.trfwrite import LINE_ENDS
    from arbiter.service.core.standings_formats import FormatError
    from arbiter.service.events.reading import standings_output
    from arbiter.service.web.api import standings_format

    fmt = standings_format()
    ends = request.args.get("line_ends", "lf")
    if ends not in LINE_ENDS:
        raise ApiError(
            400,
            "bad-parameter",
            f"the query parameter 'line_ends' must be one of {', '.join(LINE_ENDS)}",
            parameter="line_ends",
        )
    try:
        made = call(standings_output, event_id, fmt, line_end=LINE_ENDS[ends])
    except FormatError as err:
        raise ApiError(422, "cannot-format", str(err), parameter="format") from None
    return _rendered(event_id, made)


@bp.get("/<event_id>/log")
def trail(event_id: str) -> Response:
    """The audit trail: every change, who (which token), when, what, why, chained."""
    from arbiter.service.events.reading import entries

    return _fresh(
        event_id, lambda: jsonify(log=[entry.to_dict() for entry in call(entries, event_id)])
    )


@bp.get("/<event_id>/verify")
def verify(event_id: str) -> Response:
    """Whether the event is what its audit trail says, and where not."""
    from arbiter.service.events.verify import verify_event

    return jsonify(call(verify_event, event_id, kept=True).to_dict())


@bp.post("/<event_id>/verify")
def verify_receipts(event_id: str) -> Response:
    """The event verified, and the receipts of ``{"receipts": [...]}`` checked against it:
    each must be signed by this server's key, and the trail must still hold its entry with
    its hash. ``ok`` is false, with where it breaks, when either fails. An event that is
    gone is no 404 here: a receipt of it says it was deleted."""
    from arbiter.service.events.receipts import ReceiptError, read_receipts
    from arbiter.service.events.verify import receipts_held, verify_event

    given = body().get("receipts", [])
    try:
        receipts = read_receipts(given, "receipts")
    except ReceiptError as err:
        raise ApiError(400, "bad-receipt", str(err), field="receipts") from None
    mine = [one for one in receipts if one.head.event == event_id]
    if len(mine) != len(receipts):
        raise ApiError(
            422, "receipt-of-another-event",
            f"every receipt sent here must be of event {event_id}", field="receipts",
        )  # fmt: skip
    problems = call(receipts_held, mine, {server_key().public, *(u.key for u in keys_used())})
    try:
        verdict = call(verify_event, event_id).to_dict()
    except ApiError as err:
        if err.code != "no-such-event" or not mine:
            raise
        verdict = {"event": event_id, "valid": False, "entries": 0,
                   "problems": ["the database holds no such event"]}  # fmt: skip
    return jsonify(
        ok=verdict["valid"] and not problems,
        **verdict,
        receipts={"checked": len(mine), "problems": problems},
    )


@bp.get("/<event_id>/tokens")
def token_list(event_id: str) -> Response:
    """The event's tokens (never their secrets), for its director."""
    from arbiter.service.events.operations import list_tokens

    return jsonify(tokens=[one.to_dict() for one in call(list_tokens, event_id, bearer())])


@bp.post("/<event_id>/tokens")
def issue(event_id: str) -> tuple[Response, int]:
    """A new token (``{"role": "upload", "label": "player-07"}``), its secret shown once."""
    from arbiter.service.events.operations import issue_token

    given = body()
    issued = call(
        issue_token, event_id, bearer(), given.get("role", "upload"), given.get("label"),
        given.get("player"),
    )  # fmt: skip
    answer = jsonify(issued.to_dict())
    answer.headers["Cache-Control"] = "no-store"
    return answer, 201


@bp.delete("/<event_id>/tokens/<int:number>")
def revoke(event_id: str, number: int) -> Response:
    from arbiter.service.events.operations import revoke_token

    return jsonify(call(revoke_token, event_id, bearer(), number, _reason_given()).to_dict())


# --- a paired event: players, rounds, boards ---------------------------------------------------


@bp.get("/<event_id>/players")
def players(event_id: str) -> Response:
    """The players, by pairing number, with their points so far."""
    from arbiter.service.events.paired.players import list_players

    return _fresh(
        event_id, lambda: jsonify(players=[one.to_dict() for one in call(list_players, event_id)])
    )


@bp.post("/<event_id>/players")
def add_players(event_id: str) -> tuple[Response, int]:
    """Players in: one (``{"name", "rating"?, "federation"?, "id"?, "confirm"?}``) or several
    (``{"players": [...]}``), with ``"ratings_from": POOL`` for the ratings of those given
    none from the server's rating list; the answer lists every player with their pairing
    number."""
    from arbiter.service.events.paired.players import add_players as add
    from arbiter.service.events.ratings import ratings_from

    made = call(add, event_id, bearer(), call(ratings_from, body()))
    return jsonify(players=[one.to_dict() for one in made]), 201


def _fields_with_reason() -> dict[str, Any]:
    """A body's fields, with ``?reason=`` when the body gives none (a DELETE's)."""
    given = body()
    if "reason" not in given and "reason" in request.args:
        given["reason"] = request.args["reason"]
    return given


@bp.patch("/<event_id>/players/<int:number>")
def change_player(event_id: str, number: int) -> Response:
    """Correct a player's name, rating, federation or id, with a reason."""
    from arbiter.service.events.paired.players import change_player as change

    return jsonify(call(change, event_id, bearer(), number, body()).to_dict())


@bp.delete("/<event_id>/players/<int:number>")
def remove_player(event_id: str, number: int) -> Response:
    """Take out a player entered by mistake, never paired (``{"reason", "name"?}``)."""
    from arbiter.service.events.paired.players import remove_player as remove

    left = call(remove, event_id, bearer(), number, _fields_with_reason())
    return jsonify(players=[one.to_dict() for one in left])


@bp.delete("/<event_id>/players/<int:number>/byes/<int:round>")
def cancel_bye(event_id: str, number: int, round: int) -> Response:  # noqa: A002 - the path's name
    """Take back a bye a player asked for, before its round is paired, with a reason."""
    from arbiter.service.events.paired.players import cancel_bye as cancel

    made = call(cancel, event_id, bearer(), number, round, _fields_with_reason())
    return jsonify(made.to_dict())


@bp.delete("/<event_id>/players/<int:number>/withdraw")
def cancel_withdrawal(event_id: str, number: int) -> Response:
    """Take back a player's withdrawal: paired again from the next round, with a reason."""
    from arbiter.service.events.paired.players import cancel_withdrawal as cancel

    return jsonify(call(cancel, event_id, bearer(), number, _fields_with_reason()).to_dict())


@bp.post("/<event_id>/players/<int:number>/withdraw")
def withdraw(event_id: str, number: int) -> Response:
    """Withdraw a player from a round not yet paired on (``{"round"?, "reason"?}``)."""
    from arbiter.service.events.paired.players import withdraw_player

    return jsonify(call(withdraw_player, event_id, bearer(), number, body()).to_dict())


@bp.post("/<event_id>/players/<int:number>/byes")
def bye(event_id: str, number: int) -> Response:
    """A bye a player asks for: ``{"kind": "half"|"zero", "round"?, "reason"?}``."""
    from arbiter.service.events.paired.players import request_bye

    return jsonify(call(request_bye, event_id, bearer(), number, body()).to_dict())


def _for_the_director(event_id: str) -> bool:
    """Whether the request carries the event's director token (then a draft is shown, and
    the answer is the director's alone: not kept for others)."""
    from arbiter.service.events.operations import directs

    return call(directs, event_id, bearer())


def _private(response: Response) -> Response:
    response.headers["Cache-Control"] = "private, no-store"
    return response


@bp.get("/<event_id>/rounds")
def rounds(event_id: str) -> Response:
    """Every round published, with its boards and byes (with the director's token, the
    round paired as a draft too)."""
    from arbiter.service.events.paired.rounds import rounds_view

    if _for_the_director(event_id):
        made = call(rounds_view, event_id, drafts=True)
        return _private(jsonify(rounds=[one.to_dict() for one in made]))
    return _fresh(
        event_id, lambda: jsonify(rounds=[one.to_dict() for one in call(rounds_view, event_id)])
    )


@bp.post("/<event_id>/rounds")
def pair_next(event_id: str) -> tuple[Response, int]:
    """Pair the next round by the event's system and publish it (``{"draft": true}``: for
    the director only, until ``POST .../rounds/N/publish``)."""
    from arbiter.service.events.paired.rounds import pair_round

    return jsonify(call(pair_round, event_id, bearer(), body()).to_dict()), 201


@bp.post("/<event_id>/rounds/<int:number>/publish")
def publish(event_id: str, number: int) -> Response:
    """Publish a round paired as a draft: everyone sees it from now on."""
    from arbiter.service.events.paired.rounds import publish_round

    return jsonify(call(publish_round, event_id, bearer(), number, body()).to_dict())


@bp.get("/<event_id>/rounds/<int:number>")
def one_round(event_id: str, number: int) -> Response:
    """A round: its boards with their results as they arrive, the boards that wait, byes (a
    draft only with the director's token: 404 otherwise)."""
    from arbiter.service.events.paired.rounds import round_view

    if _for_the_director(event_id):
        return _private(jsonify(call(round_view, event_id, number, drafts=True).to_dict()))
    return _fresh(event_id, lambda: jsonify(call(round_view, event_id, number).to_dict()))


@bp.post("/<event_id>/rounds/<int:number>/boards/<int:board>/report")
def report(event_id: str, number: int, board: int) -> Response:
    """A player reports their board's result with their own token (``{"result"}``)."""
    from arbiter.service.events.paired.live import report_result

    return jsonify(call(report_result, event_id, bearer(), number, board, body()).to_dict())


@bp.post("/<event_id>/players/<int:number>/check-in")
def check_in(event_id: str, number: int) -> Response:
    """Check a player in for the next round (``{"round"?}``), by the director or the
    player's own token."""
    from arbiter.service.events.paired.live import check_in as checking_in

    return jsonify(call(checking_in, event_id, bearer(), number, body()).to_dict())


@bp.delete("/<event_id>/players/<int:number>/check-in")
def cancel_check_in(event_id: str, number: int) -> Response:
    """Take back a player's check-in before the round is published (``{"round"?,
    "reason"?}``)."""
    from arbiter.service.events.paired.live import cancel_check_in as cancelling

    return jsonify(call(cancelling, event_id, bearer(), number, _fields_with_reason()).to_dict())


@bp.get("/<event_id>/prohibited")
def prohibited(event_id: str) -> Response:
    """The event's prohibited pairs, those taken back included, for its director."""
    from arbiter.service.events.paired.prohibitions import list_prohibitions

    found = call(list_prohibitions, event_id, bearer())
    return _private(jsonify(prohibited=[one.to_dict() for one in found]))


@bp.post("/<event_id>/prohibited")
def add_prohibited(event_id: str) -> tuple[Response, int]:
    """Prohibit pairing together any two of some players (``{"players": [n1, n2, ...],
    "from_round"?, "to_round"?, "reason"?, "confirm"?}``); 201 with it, 200 when the same
    prohibition holds already."""
    from arbiter.service.events.paired.prohibitions import add_prohibition

    made, created = call(add_prohibition, event_id, bearer(), body())
    return jsonify(made.to_dict()), 201 if created else 200


@bp.delete("/<event_id>/prohibited/<int:number>")
def remove_prohibited(event_id: str, number: int) -> Response:
    """Take a prohibition back (``{"reason"?}``, needed once a round is paired)."""
    from arbiter.service.events.paired.prohibitions import remove_prohibition

    made = call(remove_prohibition, event_id, bearer(), number, _fields_with_reason())
    return jsonify(made.to_dict())


@bp.put("/<event_id>/rounds/<int:number>")
def replace_round(event_id: str, number: int) -> Response:
    """Pair the last round by hand, before any result of it is in (``{"boards": [{"first",
    "second"}...], "bye"?, "reason"}``)."""
    from arbiter.service.events.paired.rounds import replace_round as replace

    return jsonify(call(replace, event_id, bearer(), number, body()).to_dict())


@bp.delete("/<event_id>/rounds/<int:number>")
def unpair(event_id: str, number: int) -> Response:
    """Take back the last round's pairing before any result of it is in, with a reason."""
    from arbiter.service.events.paired.rounds import unpair_round

    left = call(unpair_round, event_id, bearer(), number, _reason_given())
    return jsonify(rounds=[one.to_dict() for one in left])


@bp.put("/<event_id>/rounds/<int:number>/boards/<int:board>/result")
def board_result(event_id: str, number: int, board: int) -> Response:
    """Give a board its result without a record (``{"result": "+-"|"-+"|"--"|"1-0"|"0-1",
    "reason"}``): a forfeit, a double forfeit, a game decided without a record."""
    from arbiter.service.events.paired.rounds import set_board_result

    return jsonify(call(set_board_result, event_id, bearer(), number, board, body()).to_dict())


@bp.delete("/<event_id>/rounds/<int:number>/boards/<int:board>/result")
def clear_board(event_id: str, number: int, board: int) -> Response:
    """Take back the result the director gave a board, with a reason."""
    from arbiter.service.events.paired.rounds import clear_board_result

    made = call(clear_board_result, event_id, bearer(), number, board, _reason_given())
    return jsonify(made.to_dict())


@bp.post("/<event_id>/records/<int:number>/place")
def place(event_id: str, number: int) -> Response:
    """The director counts a record on a board (``{"round", "board", "reason"}``)."""
    from arbiter.service.events.paired.rounds import place_record
    from arbiter.service.events.reading import record

    call(place_record, event_id, bearer(), number, body())
    return jsonify(call(record, event_id, number).to_dict())


# --- one record's text, and a record repaired -------------------------------------------------


@bp.get("/<event_id>/records/<int:number>/text")
def record_text(event_id: str, number: int) -> Response:
    """Record N's text alone, cut from its upload as sent (the viewer of a game's page reads
    it in place of the whole upload): GRN as text, JSON as JSON, Abstract Play as bytes."""
    from arbiter.service.events.pages import record_text as cut_text

    found = call(cut_text, event_id, number)
    kinds = {"grn": "text/plain; charset=utf-8", "json": "application/json"}
    response = Response(found.data, content_type=kinds.get(found.format or "", "text/plain"))
    if found.format not in kinds:  # told apart by its first characters, as an upload is
        response.content_type = "application/octet-stream"
    response.headers["X-Content-Type-Options"] = "nosniff"
    response.headers["Content-Disposition"] = "inline"
    return response


@bp.post("/<event_id>/records/<int:number>/repair")
def repair(event_id: str, number: int) -> tuple[Response, int]:
    """Repair a record (``{"apply": ["PLY:MOVE"...], "reason"}``): its corrected copy is
    added as an upload of its own and counts; the original is excluded, and kept."""
    from arbiter.service.events.operations import repair as repaired

    given = body()
    made = call(repaired, event_id, bearer(), number, given.get("apply"), given.get("reason"))
    return jsonify(original=made.original.to_dict(), copy=made.copy.to_dict()), 201


# --- uploads refused before their body ----------------------------------------------------

UPLOAD_PATH = re.compile("/api/v1/events/([^/]+)/records")


class UploadAdmission:
    """The checks of an upload that need no body (its token, its event, the event open),
    made under ``arbiter serve`` as soon as a request's headers are in
    (:class:`~arbiter.service.web.front.Admission`): an upload refused anyway is answered
    before its body is received, however large. The checks run in a thread of their own,
    never in the server's event loop; a request that arrives whole in the meantime is
    checked by the route, as always."""

    def __init__(self, app: Flask) -> None:
        self.app = app
        self.pool = ThreadPoolExecutor(2, thread_name_prefix="arbiter-admission")

    def wants(self, method: str, path: str) -> bool:
        return method == "POST" and UPLOAD_PATH.fullmatch(path) is not None

    def ask(
        self, path: str, authorization: str, answer: Callable[[EarlyRefusal | None], None]
    ) -> None:
        self.pool.submit(self._answer, path, authorization, answer)

    def _answer(
        self, path: str, authorization: str, answer: Callable[[EarlyRefusal | None], None]
    ) -> None:
        try:
            refusal = self.refusal(path, authorization)
        except Exception:  # a bug here must not hold the request: the route decides
            logging.getLogger("arbiter.serve").exception("the admission of an upload failed")
            refusal = None
        answer(refusal)

    def refusal(self, path: str, authorization: str) -> EarlyRefusal | None:
        """The refusal of an upload to ``path`` (a WSGI path, its bytes as Latin-1) with
        this ``Authorization``, or None. A database that does not answer refuses nothing
        here: the route answers that once the body is in."""
        from arbiter.service.events.change import admit
        from arbiter.service.events.common import UPLOAD
        from arbiter.service.web.front import EarlyRefusal

        found = UPLOAD_PATH.fullmatch(path)
        if found is None:
            return None
        event_id = found.group(1).encode("latin-1").decode("utf-8", "replace")
        with self.app.app_context():
            try:
                call(admit, event_id, token_of(authorization), UPLOAD)
            except ApiError as err:
                if err.status >= 500:
                    return None
                challenge = (("WWW-Authenticate", 'Bearer realm="arbiter"'),)
                headers = challenge if err.status == 401 else ()
                return EarlyRefusal(err.status, err.code, err.message, err.extra, headers)
        return None
