"""What stands in front of the Flask application (``spec/api.md`` sections 4 to 6): a JSON
error body for every refusal whichever layer refuses, bodies over the limit refused before
they are read, connection limits and timeouts that idle or slow clients cannot exhaust, and a
shutdown that lets the requests under way finish.

Two layers refuse requests before the application sees them:

- :class:`JsonFront`, a WSGI middleware that any WSGI server runs in front of the app
  (``create_app`` puts it there): a ``Content-Length`` over the limit, or one that is not a
  number, is answered at once, before the body is read; anything the application lets
  escape becomes a JSON 500.
- waitress itself, under ``arbiter serve``, for what never reaches WSGI: malformed request
  lines and headers, headers too large, broken chunked bodies, bodies over the limit. Its
  answers are made JSON by :class:`JsonErrorTask`, and :class:`JsonChannel` answers a
  request that announced ``Expect: 100-continue`` with its error instead of ``100 Continue``.
  A request the server's :class:`Admission` refuses as soon as its headers are in (an upload
  with a token that is not the event's) is answered before its body is received.
"""

# waitress's published types describe its public API; the channel and task below subclass
# its internals (typed as Any for mypy), which those types describe otherwise.
# pyright: reportAttributeAccessIssue=false, reportOptionalMemberAccess=false
# pyright: reportIncompatibleVariableOverride=false

from __future__ import annotations

import base64
import hashlib
import http
import json
import logging
import resource
import signal
import socket
import threading
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from waitress.channel import HTTPChannel
from waitress.task import ErrorTask

from arbiter.service.core.standings_formats import HTML_STYLE
from arbiter.service.web.errors import error_body

log = logging.getLogger("arbiter.serve")

WSGIApp = Callable[[dict[str, Any], Callable[..., Any]], Iterable[bytes]]

CONNECTION_LIMIT = 1000
"""Open connections the server keeps at once, idle ones included (waitress's default, 100,
let 99 half-sent requests lock every other client out)."""
CHANNEL_TIMEOUT = 30
"""Seconds a connection may stay silent before it is closed (waitress's default is 120)."""
LINGER_SECONDS = 10.0
"""After a refusal, how long the connection may keep reading (and dropping) what the client
still sends, so that the client reads the answer rather than a reset (:class:`JsonChannel`)."""
LINGER_IDLE = 2.0
"""After a refusal, how long the client may stay silent before the connection is closed."""
LINGER_BYTES = 256 * 1024 * 1024
"""After a refusal, how many bytes are read and dropped at most."""
DRAIN_SECONDS = 30.0
"""On SIGTERM or SIGINT, how long the requests under way may take to finish."""

WAITRESS_CODES = {
    400: "bad-request",
    413: "body-too-large",
    431: "headers-too-large",
    500: "internal-error",
    501: "not-implemented",
}
"""Stable codes for the errors waitress answers before the application runs."""


def _policy() -> str:
    """The Content-Security-Policy of every answer: the pages load only their own scripts,
    styles and images, none inline and none from elsewhere; the one inline style allowed is
    that of the HTML standings (by its SHA-256), a stand-alone document that is also saved
    and opened as a file."""
    standings_style = base64.b64encode(
        hashlib.sha256(f"\n{HTML_STYLE}\n".encode()).digest()
    ).decode()
    return (
        "default-src 'self'; script-src 'self'; "
        f"style-src 'self' 'sha256-{standings_style}'; img-src 'self' data:; "
        "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
    )


SECURITY_HEADERS = (
    ("X-Content-Type-Options", "nosniff"),
    ("Content-Security-Policy", _policy()),
    ("Referrer-Policy", "same-origin"),
)
"""Sent with every answer (spec/api.md §6): no type sniffing, so that a TRF or CSV (or an
upload's bytes) is never run as a page or a script; the policy of :func:`_policy`; and no
address of a page sent to another site."""


def with_security_headers(headers: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """``headers`` with :data:`SECURITY_HEADERS` added where the answer did not set them."""
    present = {name.lower() for name, _ in headers}
    return [*headers, *((n, v) for n, v in SECURITY_HEADERS if n.lower() not in present)]


def json_response(
    start_response: Callable[..., Any], status: int, code: str, message: str, **extra: Any
) -> list[bytes]:
    """Start and return a JSON error answer of ``spec/api.md`` section 4."""
    body = json.dumps(error_body(status, code, message, **extra)).encode("utf-8")
    reason = {400: "Bad Request", 413: "Content Too Large", 500: "Internal Server Error"}
    start_response(
        f"{status} {reason.get(status, 'Error')}",
        with_security_headers(
            [("Content-Type", "application/json"), ("Content-Length", str(len(body)))]
        ),
    )
    return [body]


class JsonFront:
    """WSGI middleware: refuse a body over ``limit()`` bytes, or a ``Content-Length`` that
    is not a number, without reading it; answer any failure that escapes ``app`` with a
    JSON 500 (when no answer was started yet)."""

    def __init__(self, app: WSGIApp, limit: Callable[[], int | None]) -> None:
        self.app = app
        self.limit = limit

    def __call__(
        self, environ: dict[str, Any], start_response: Callable[..., Any]
    ) -> Iterable[bytes]:
        declared = environ.get("CONTENT_LENGTH", "")
        if declared:
            if not declared.isascii() or not declared.isdigit():
                return json_response(
                    start_response, 400, "bad-request", "the Content-Length is not a number"
                )
            limit = self.limit()
            if limit is not None and int(declared) > limit:
                return json_response(
                    start_response,
                    413,
                    "body-too-large",
                    f"the request body is larger than the limit of {limit} bytes",
                    limit=limit,
                )
        started = False

        def tracking(status: str, headers: list[tuple[str, str]], *rest: Any) -> Any:
            nonlocal started
            started = True
            return start_response(status, with_security_headers(headers), *rest)

        try:
            return self.app(environ, tracking)
        except Exception:
            log.exception("unhandled error in front of the application")
            if started:
                raise
            return json_response(
                start_response,  # not tracking: json_response adds the headers itself
                500,
                "internal-error",
                "the server failed on this request; the failure has been logged",
            )


@dataclass(frozen=True, slots=True)
class EarlyRefusal:
    """A request refused as soon as its headers are in: the JSON error of ``spec/api.md``
    §4 (``status``, ``code``, ``message``, ``extra``) and the headers of the answer."""

    status: int
    code: str
    message: str
    extra: Mapping[str, Any] = field(default_factory=dict)
    headers: tuple[tuple[str, str], ...] = ()


class Admission(Protocol):
    """What a server checks of a request once its headers are in, before its body: whether
    it checks a request at all (``wants``, asked in the event loop, so cheap), and the check
    itself (``ask``), made elsewhere, which calls ``answer`` with the refusal or None."""

    def wants(self, method: str, path: str) -> bool: ...

    def ask(
        self, path: str, authorization: str, answer: Callable[[EarlyRefusal | None], None]
    ) -> None: ...


class JsonErrorTask(ErrorTask):  # type: ignore[misc]
    """waitress's answer to a request it refuses itself, as a JSON error body."""

    def execute(self) -> None:
        error = self.request.error
        if isinstance(error, EarlyRefusal):
            self._refuse_early(error)
            return
        status = int(error.code)
        extra: dict[str, Any] = {}
        if status == 413:
            limit = self.channel.server.adj.max_request_body_size - 1
            message = f"the request body is larger than the limit of {limit} bytes"
            extra["limit"] = limit
        elif status == 431:
            message = "the request's headers are larger than the server reads"
        else:
            message = f"the request cannot be read: {error.body}"
        code = WAITRESS_CODES.get(status, "bad-request")
        body = json.dumps(error_body(status, code, message, **extra)).encode("utf-8")
        self._answer(status, error.reason, body)

    def _refuse_early(self, error: EarlyRefusal) -> None:
        body = json.dumps(error_body(error.status, error.code, error.message, **error.extra))
        self.response_headers.extend(error.headers)
        self._answer(error.status, http.HTTPStatus(error.status).phrase, body.encode("utf-8"))

    def _answer(self, status: int, reason: str, body: bytes) -> None:
        self.status = f"{status} {reason}"
        self.response_headers.append(("Content-Type", "application/json"))
        self.response_headers.extend(SECURITY_HEADERS)
        self.set_close_on_finish()
        self.channel.linger_after_flush = True  # the body may still be on its way
        self.content_length = len(body)
        self.write(body)
        log = getattr(self.channel.server, "access_log", None)
        if log is not None:  # refused before the application: logged here
            _log_refusal(log, self.channel, self.request, status, len(body))


def _log_refusal(log: Any, channel: Any, request: Any, status: int, size: int) -> None:
    """The access log's line for a request waitress refused; what the request could not say
    (a malformed request line) is ``-``."""
    path = getattr(request, "path", "") or "-"
    query = getattr(request, "query", "") or ""
    target = path + (f"?{query}" if query else "")
    version = getattr(request, "version", "") or "1.0"
    remote = channel.addr[0] if getattr(channel, "addr", None) else "-"
    command = getattr(request, "command", "") or "-"
    log.write(remote, command, target, f"HTTP/{version}", status, size, 0.0)


class JsonChannel(HTTPChannel):  # type: ignore[misc]
    """A waitress connection whose refusals are JSON, which never invites the body of a
    request it is going to refuse (``Expect: 100-continue`` with a body over the limit gets
    the 413 at once), and which closes after a refusal the way every client can read it.

    A server that closes a socket with unread bytes in it makes the kernel reset the
    connection, and a client still sending its body (Python's ``urllib``, ``requests``)
    then sees "connection reset" instead of the answer already on its way. So after a
    refusal the channel lingers (as Apache and nginx do): it stops writing (the answer is
    out, then a FIN), reads and drops what the client still sends, and closes when the
    client closes, when it has been silent :data:`LINGER_IDLE` seconds, or after
    :data:`LINGER_SECONDS` or :data:`LINGER_BYTES`, whichever comes first."""

    error_task_class = JsonErrorTask
    linger_after_flush = False  # set by a refusal: linger instead of closing at once
    linger_until = 0.0  # the deadline of the lingering close; 0 while not lingering
    linger_left = 0
    request: Any  # the request being received (waitress's parser), None between requests
    refused_early = False  # a request was refused before its body: what follows is dropped
    asked: object = None  # the request whose admission was asked
    admitted: object = None  # the request the admission let through
    streaming = False  # an event's stream (:mod:`.stream_hub`): what the client sends is dropped

    def received(self, data: bytes) -> bool:
        if self.refused_early or self.streaming:
            return True
        done = bool(super().received(data))
        self._ask_admission()
        return done

    def service(self) -> None:
        streams = getattr(self.server, "streams", None)
        if streams is not None and streams.takes(self):
            return  # an event's stream, held by the server's hub: this thread is free again
        super().service()

    def send_continue(self) -> None:
        if self.request is not None and self.request.error is not None:
            self.request.expect_continue = False
            return
        if self._ask_admission():
            return  # the client is invited to send its body once the request is admitted
        super().send_continue()

    def _ask_admission(self) -> bool:
        """Whether the request being received waits for the server's admission, asked here
        once, as soon as its headers are in (a request without a body is never asked: the
        application checks it at once)."""
        request = self.request
        admission: Admission | None = getattr(self.server, "admission", None)
        if admission is None or request is None or request.completed:
            return False
        if not request.headers_finished or request.error is not None:
            return False
        if self.asked is request:
            return self.admitted is not request
        if not admission.wants(request.command, request.path):
            return False
        self.asked = request
        trigger = self.server.trigger

        def answer(refusal: EarlyRefusal | None) -> None:  # in the admission's thread
            trigger.pull_trigger(lambda: self._admission_answered(request, refusal))

        admission.ask(request.path, request.headers.get("AUTHORIZATION", ""), answer)
        return True

    def _admission_answered(self, request: Any, refusal: EarlyRefusal | None) -> None:
        """In the event loop: refuse the request whose body is still on its way, or let it
        go on (with the ``100 Continue`` it may wait for). A request received whole in the
        meantime is the application's, which checks it again."""
        if self.request is not request or not self.connected or self.will_close:
            return
        if refusal is None:
            self.admitted = request
            if request.expect_continue and not self.requests and not self.sent_continue:
                super().send_continue()
            return
        with self.requests_lock:
            request.error = refusal
            request.completed = True
            request.expect_continue = False
            self.refused_early = True
            self.request = None
            self.requests.append(request)
            if len(self.requests) == 1:
                self.server.add_task(self)  # pyright: ignore[reportArgumentType]  (as waitress does)

    def handle_write(self) -> None:
        if self.linger_after_flush and self.close_when_flushed and not self.total_outbufs_len:
            self._start_lingering()
            return
        super().handle_write()

    def _start_lingering(self) -> None:
        self.linger_after_flush = self.close_when_flushed = False
        self.requests: list[object] = []
        self.linger_until = time.monotonic() + LINGER_SECONDS
        self.linger_left = LINGER_BYTES
        self.last_activity = time.time()
        try:
            self.socket.shutdown(socket.SHUT_WR)
        except OSError:
            self.will_close = True

    def readable(self) -> bool:
        if not self.linger_until:
            return bool(super().readable())
        now = time.monotonic()
        if now > self.linger_until or time.time() - self.last_activity > LINGER_IDLE:
            self.will_close = True  # writable() now says so, and handle_write closes
            return False
        return not self.will_close

    def handle_read(self) -> None:
        if not self.linger_until:
            super().handle_read()
            return
        try:
            data = self.socket.recv(65536)
        except OSError:
            data = b""
        self.linger_left -= len(data)
        if not data or self.linger_left <= 0:
            self.handle_close()
        else:
            self.last_activity = time.time()


def raise_open_files(wanted: int) -> None:
    """Let the process hold ``wanted`` open files, as far as its hard limit allows, so
    that the connection limit is not met first by the operating system's."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
    if soft != resource.RLIM_INFINITY and soft < target:
        resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))


def serve_until_stopped(server: Any, drain: float = DRAIN_SECONDS) -> None:
    """Run waitress's loop until SIGTERM or SIGINT, then stop accepting connections, let
    the requests under way finish and their answers go out (for at most ``drain``
    seconds), and return: the process then exits with status 0."""
    stopping = threading.Event()

    def stop(signum: int, frame: object) -> None:
        stopping.set()
        server.pull_trigger()  # wake the loop

    # The handlers stay until the process ends: a second signal during the drain must not
    # kill it halfway (the drain is bounded by ``drain`` seconds anyway).
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, stop)
    try:
        loop = server.asyncore.loop
        while not stopping.is_set():
            loop(timeout=1.0, map=server._map, use_poll=True, count=1)
        streams = getattr(server, "streams", None)
        if streams is not None:  # a stream never ends by itself: close them all
            streams.stop()
        _drain(server, drain)
    finally:
        server.close()


def _drain(server: Any, seconds: float) -> None:
    """Close the listening socket, then keep the loop running until no connection has a
    request under way or an answer unsent."""
    server.asyncore.dispatcher.close(server)  # the listener only; the trigger stays
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        busy = [
            channel
            for channel in list(server._map.values())
            if isinstance(channel, HTTPChannel)
            and (channel.requests or channel.total_outbufs_len)
            and channel.connected
        ]
        if not busy:
            break
        server.asyncore.loop(timeout=0.05, map=server._map, use_poll=True, count=1)
    server.task_dispatcher.shutdown(cancel_pending=True, timeout=5)
