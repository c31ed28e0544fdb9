"""Changes sent with an ``Idempotency-Key`` (``spec/events.md`` §5): a client that sends a
change again with the key it first sent it with (a retry after a lost answer, a button
pressed twice) is answered as the first time, and nothing is written again.

For each key the event keeps the key's SHA-256 (never the key), the SHA-256 of the request
it came with, and the answer, encrypted with AES-GCM under a key derived from the client's
key, so that the database holds no secret an answer gave (a token issued, an event's
director token): only the holder of the key can read it back. Kept a day (:data:`KEPT_FOR`).
"""

from __future__ import annotations

import hashlib
import os
from contextvars import ContextVar
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import AESGCM

from arbiter.service.events.common import EventError
from arbiter.service.events.rows import AnswerRow

__all__ = [
    "KEPT_FOR",
    "ANSWERING",
    "KEYED",
    "MAX_KEY",
    "Replayed",
    "RequestKey",
    "expired",
    "replay",
    "request_key",
]

MAX_KEY = 255
"""The longest key taken (the IETF draft's keys are UUIDs; any printable ASCII will do)."""
KEPT_FOR = timedelta(days=1)
"""How long a key's answer is kept: a retry comes within seconds, a day is generous."""


@dataclass(frozen=True, slots=True)
class RequestKey:
    """The ``Idempotency-Key`` of a change and the request it came with: the key's SHA-256
    (what is kept), the key the answer is encrypted with, and the SHA-256 of what makes the
    request what it is (method, path, token, body) without its sources (an upload's, which
    :meth:`fingerprint` adds)."""

    key_hash: str
    cipher_key: bytes
    request: str

    def fingerprint(self, sources: tuple[str, ...] | None = None) -> str:
        """The request's SHA-256, with the SHA-256 of each of an upload's sources."""
        said = self.request + "\n" + "\n".join(sources or ())
        return hashlib.sha256(said.encode()).hexdigest()

    def seal(self, scope: str, body: bytes) -> bytes:
        """``body`` encrypted for this key (a random nonce, then the ciphertext)."""
        nonce = os.urandom(12)
        return nonce + AESGCM(self.cipher_key).encrypt(nonce, body, self._bound(scope))

    def open(self, scope: str, sealed: bytes) -> bytes | None:
        """The body sealed for this key, or None when it cannot be read (changed)."""
        try:
            return AESGCM(self.cipher_key).decrypt(sealed[:12], sealed[12:], self._bound(scope))
        except (InvalidTag, ValueError):
            return None

    def _bound(self, scope: str) -> bytes:
        return f"{scope}\n{self.key_hash}".encode()


def request_key(key: str, method: str, path: str, token: str | None, body: bytes) -> RequestKey:
    """The key a client sent (1 to :data:`MAX_KEY` printable ASCII characters; else
    ``bad-field``, ``field`` naming the header) with the request it came with."""
    if not 0 < len(key) <= MAX_KEY or not (key.isascii() and key.isprintable()):
        raise EventError(
            "bad-field",
            f"an Idempotency-Key is 1 to {MAX_KEY} printable ASCII characters",
            field="Idempotency-Key",
        )
    token_hash = hashlib.sha256((token or "").encode("utf-8", "surrogatepass")).hexdigest()
    said = "\n".join((method, path, token_hash, hashlib.sha256(body).hexdigest()))
    return RequestKey(
        key_hash=hashlib.sha256(b"arbiter idempotency key\n" + key.encode()).hexdigest(),
        cipher_key=hashlib.sha256(b"arbiter idempotency answer\n" + key.encode()).digest(),
        request=said,
    )


KEYED: ContextVar[RequestKey | None] = ContextVar("arbiter_events_keyed", default=None)
"""The key the change being made was sent with, if any: set by a face before it calls an
operation, read by the change (:func:`.change.changing`)."""
ANSWERING: ContextVar[tuple[str, RequestKey] | None] = ContextVar(
    "arbiter_events_answering", default=None
)
"""The scope and key of a change made with a key, whose answer the face is to keep
(:func:`.change.keep_answer`) once it has made it."""


class Replayed(Exception):  # noqa: N818 - an answer, not an error
    """The change was sent before with this key: its answer, to send again as it was."""

    def __init__(self, status: int, body: bytes) -> None:
        super().__init__(status)
        self.status, self.body = status, body


def replay(found: AnswerRow, keyed: RequestKey, fingerprint: str) -> Replayed:
    """What a request sent again with a key kept answers: the first answer
    (:class:`Replayed`, to raise); refused when the key came with another request
    (``idempotency-key-reused``) or its first request is still being answered
    (``request-in-progress``)."""
    if found.fingerprint != fingerprint:
        raise EventError(
            "idempotency-key-reused",
            "this Idempotency-Key was sent with another request: use a new key for each change",
            field="Idempotency-Key",
        )
    if found.status is None or found.body is None:
        raise EventError(
            "request-in-progress",
            "the first request sent with this Idempotency-Key is still being answered: "
            "send it again in a moment",
        )
    body = keyed.open(found.scope, found.body)
    if body is None:  # changed behind the service's back: it is not answered from
        raise EventError(
            "idempotency-key-reused",
            "the answer kept for this Idempotency-Key cannot be read: use a new key",
            field="Idempotency-Key",
        )
    return Replayed(found.status, body)


def expired(now: str) -> str:
    """The time before which kept answers are forgotten, in the trail's form."""
    at = datetime.fromisoformat(now.replace("Z", "+00:00")) - KEPT_FOR
    return at.astimezone(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")
