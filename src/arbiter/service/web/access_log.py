"""The server's access log (``arbiter serve --access-log``; ``spec/api.md`` §6): one line per
request on standard error, in the common log format with the time taken, or as JSON lines.

A line holds who asked (the client's address), when, the method, path and query, the
status, the bytes answered and the seconds taken: never a body (a record's text), never a
header (a token), and never a secret sent in the address: the values of query parameters
named like one (``token``, ``key``...) and anything shaped like a token are ``[hidden]``.
Requests the server refuses before the application sees them (a malformed request, a body
over the limit) are logged too, by :mod:`.front`.
"""

from __future__ import annotations

import json
import re
import sys
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from datetime import UTC, datetime
from typing import IO, Any
from urllib.parse import unquote_plus

STYLES = ("common", "json", "off")

SECRET_NAMES = re.compile(r"token|key|secret|password|passwd|auth", re.IGNORECASE)
"""Query parameters whose values are never written, whatever they hold."""
SECRET_VALUES = re.compile(r"arb_[A-Za-z0-9_\-%]+")
"""An arbiter token anywhere in a path or a query (``arb_`` and its random part)."""
HIDDEN = "[hidden]"


def redacted(target: str) -> str:
    """``target`` (a path and its query) as it may be logged: the values of parameters named
    like a secret, and every part of the path or the query that holds an arbiter token,
    written plainly or percent-encoded (``arb%5F...``, ``%61rb_...``), replaced by
    ``[hidden]``. Tokens belong in the Authorization header, which is never logged; a
    client that puts one in the address has it kept out of the log all the same."""
    path, mark, query = target.partition("?")
    if query:
        parts = []
        for part in query.split("&"):
            name, equals, value = part.partition("=")
            secret = equals and SECRET_NAMES.search(unquote_plus(name))
            parts.append(f"{name}={HIDDEN}" if secret else part)
        query = "&".join(parts)
    return SEPARATED.sub(_hidden_if_secret, path + mark + query)


SEPARATED = re.compile(r"[^/?&=;]+")
"""A part of an address between its separators: what a token may be written in."""


def _hidden_if_secret(part: re.Match[str]) -> str:
    text = part.group(0)
    decoded = unquote_plus(text)
    for _ in range(2):  # a part encoded twice over is decoded twice
        if SECRET_VALUES.search(decoded):
            return HIDDEN
        decoded = unquote_plus(decoded)
    return text


WSGIApp = Callable[[dict[str, Any], Callable[..., Any]], Iterable[bytes]]


class AccessLog:
    """Writes one line per request to ``stream`` (default: standard error), thread-safe."""

    def __init__(self, style: str, stream: IO[str] | None = None) -> None:
        self.style = style
        self.stream = stream
        self.lock = threading.Lock()

    def write(self, remote: str, method: str, target: str, protocol: str, status: int,
              size: int, seconds: float) -> None:  # fmt: skip
        if self.style == "off":
            return
        target = redacted(target)
        now = datetime.now(UTC)
        if self.style == "json":
            path, _, query = target.partition("?")
            line = json.dumps(
                {
                    "time": now.isoformat(timespec="milliseconds").replace("+00:00", "Z"),
                    "remote": remote,
                    "method": method,
                    "path": path,
                    "query": query,
                    "protocol": protocol,
                    "status": status,
                    "bytes": size,
                    "seconds": round(seconds, 6),
                },
                ensure_ascii=False,
            )
        else:
            stamp = now.strftime("%d/%b/%Y:%H:%M:%S +0000")
            request = f"{method} {target} {protocol}".replace('"', "%22")
            line = f'{remote} - - [{stamp}] "{request}" {status} {size} {seconds:.6f}'
        stream = self.stream or sys.stderr
        with self.lock:
            stream.write(line + "\n")
            stream.flush()


def _target(environ: dict[str, Any]) -> str:
    """The request's path and query as the client sent them (printable, no line breaks)."""
    path = environ.get("PATH_INFO", "")
    try:  # PEP 3333 gives the path as latin-1 text of the bytes sent
        path = path.encode("latin-1").decode("utf-8", "backslashreplace")
    except UnicodeEncodeError:
        pass
    query = environ.get("QUERY_STRING", "")
    text = path + (f"?{query}" if query else "")
    return "".join(c if c.isprintable() else f"\\x{ord(c):02x}" for c in text)[:2000]


class Logged:
    """WSGI middleware: after each answer is sent, one line in the access log."""

    def __init__(self, app: WSGIApp, log: AccessLog) -> None:
        self.app, self.log = app, log

    def __call__(
        self, environ: dict[str, Any], start_response: Callable[..., Any]
    ) -> Iterable[bytes]:
        began = time.perf_counter()
        status = [500]

        def starting(code: str, headers: list[tuple[str, str]], *rest: Any) -> Any:
            status[0] = int(code.split(" ", 1)[0])
            return start_response(code, headers, *rest)

        body = self.app(environ, starting)
        return _Counted(body, lambda size: self.log.write(
            environ.get("REMOTE_ADDR", "-"), environ.get("REQUEST_METHOD", "-"),
            _target(environ), environ.get("SERVER_PROTOCOL", "-"), status[0], size,
            time.perf_counter() - began,
        ))  # fmt: skip


class _Counted:
    """An answer's body, counted as it is sent; the log line is written when it is closed."""

    def __init__(self, body: Iterable[bytes], done: Callable[[int], None]) -> None:
        self.body, self.done, self.size = body, done, 0

    def __iter__(self) -> Iterator[bytes]:
        for chunk in self.body:
            self.size += len(chunk)
            yield chunk

    def close(self) -> None:
        try:
            close = getattr(self.body, "close", None)
            if close is not None:
                close()
        finally:
            self.done(self.size)
