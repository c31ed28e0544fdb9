"""Receipts: the server's signed word that an event's trail held a given entry, so that what
the database later holds can be checked against something kept outside it (``spec/events.md``
§6). The model is a transparency log's signed head (Certificate Transparency's signed tree
head, Rekor's checkpoint): whoever keeps a receipt can later show that the trail was cut
short, rewritten, replaced or deleted since, whatever the database says of itself.

A receipt names the event, an entry's number, the chain hash after that entry and the
entry's time, signed with the server's Ed25519 key. The key is made at the server's first
start and kept in the data folder, readable by its owner only; its public half is given
with every event (``GET /api/v1/events/ID``, the public page) so that anyone can check a
receipt's signature. Nothing here reads the database: :func:`receipt_problems` compares
receipts with the entries the caller read.
"""

from __future__ import annotations

import base64
import binascii
import json
import os
import stat
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from cryptography.hazmat.primitives.serialization import (
    Encoding,
    NoEncryption,
    PrivateFormat,
    PublicFormat,
    load_pem_private_key,
)

__all__ = [
    "KEYS_FILE",
    "KEY_FILE",
    "KeyUse",
    "Head",
    "Receipt",
    "ReceiptError",
    "ServerKey",
    "load_json",
    "load_key",
    "load_or_create_key",
    "note_key",
    "read_receipts",
    "receipt_problems",
    "used_keys",
]

KEY_FILE = "server-key.pem"
"""The server's signing key in the data folder (PKCS #8, PEM, mode 0600)."""
VERSION = 1
KEY_PREFIX = "ed25519:"
MAX_RECEIPTS = 10_000
"""Receipts one check may be given (a file, or a request's body)."""


class ReceiptError(ValueError):
    """A receipt that cannot be read, or a key that cannot be used: where, and why."""

    def __init__(self, where: str, message: str) -> None:
        super().__init__(f"{where}: {message}")
        self.where, self.message = where, message


@dataclass(frozen=True, slots=True)
class Head:
    """The state of an event's trail after one entry: its number, the chain hash after it
    (the entry's own hash, which covers every entry before it) and the entry's time."""

    event: str
    entry: int
    hash: str
    at: str

    def signed_text(self) -> bytes:
        """The bytes a receipt signs: a few labelled lines, so that a signature over them
        can never be read as a signature over anything else."""
        return (
            f"arbiter receipt v{VERSION}\nevent {self.event}\nentry {self.entry}\n"
            f"hash {self.hash}\nat {self.at}\n"
        ).encode()


@dataclass(frozen=True, slots=True)
class Receipt:
    """A signed head, as the API gives it and a director or a player keeps it."""

    head: Head
    key: str
    signature: str

    def to_dict(self) -> dict[str, Any]:
        return {
            "version": VERSION,
            "event": self.head.event,
            "entry": self.head.entry,
            "hash": self.head.hash,
            "at": self.head.at,
            "key": self.key,
            "signature": self.signature,
        }

    def signature_holds(self) -> bool:
        """Whether the signature is the key's over the head (not whether the key is one to
        trust: see :func:`receipt_problems`)."""
        try:
            public = Ed25519PublicKey.from_public_bytes(_unpadded(self.key[len(KEY_PREFIX) :]))
            public.verify(_unpadded(self.signature), self.head.signed_text())
        except (InvalidSignature, ValueError):
            return False
        return True


@dataclass(frozen=True, slots=True)
class ServerKey:
    """The server's Ed25519 key: it signs heads; its public half is :attr:`public`."""

    private: Ed25519PrivateKey

    @property
    def public(self) -> str:
        """``ed25519:`` and the 32 bytes of the public key, base64url without padding."""
        raw = self.private.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)
        return KEY_PREFIX + _text(raw)

    def sign(self, head: Head) -> Receipt:
        return Receipt(head, self.public, _text(self.private.sign(head.signed_text())))

    def sign_bytes(self, data: bytes) -> bytes:
        """The Ed25519 signature of ``data``: a webhook's body (``spec/events.md`` §12),
        JSON that begins with ``{``, so never the signed text of a receipt."""
        return self.private.sign(data)


KEYS_FILE = "server-keys.json"
"""Every key the server has signed with, in the data folder: each one's public half and the
time it was first used (``[{"key", "first_used"}...]``, oldest first)."""


@dataclass(frozen=True, slots=True)
class KeyUse:
    """A key the server has signed with: its public half, and when it was first used."""

    key: str
    first_used: str

    def to_dict(self) -> dict[str, str]:
        return {"key": self.key, "first_used": self.first_used}


def used_keys(folder: Path) -> tuple[KeyUse, ...]:
    """The keys the server of the data folder ``folder`` has signed with, oldest first (none
    for a folder without the file, or whose file cannot be read)."""
    try:
        found = json.loads((folder / KEYS_FILE).read_text("utf-8"))
    except (OSError, ValueError):
        return ()
    if not isinstance(found, list):
        return ()
    return tuple(
        KeyUse(str(one["key"]), str(one["first_used"]))
        for one in found
        if isinstance(one, dict) and isinstance(one.get("key"), str)
        and isinstance(one.get("first_used"), str)
    )  # fmt: skip


def note_key(folder: Path, key: ServerKey, at: str) -> tuple[KeyUse, ...]:
    """The keys used, ``key`` now among them (written to :data:`KEYS_FILE` when it is new,
    with ``at``): a server records every key it signs with, so that a key replaced (a lost
    key file made again) is said, and receipts signed with the one before still check."""
    used = used_keys(folder)
    if any(one.key == key.public for one in used):
        return used
    now = (*used, KeyUse(key.public, at))
    path = folder / KEYS_FILE
    partial = path.with_name(f".{path.name}.{os.getpid()}")
    partial.write_text(json.dumps([one.to_dict() for one in now], indent=1) + "\n", "utf-8")
    os.replace(partial, path)
    return now


def load_key(folder: Path) -> ServerKey | None:
    """The key kept in ``folder``, never made (None when there is none): what a check of
    receipts reads, which must not leave a key behind it."""
    if not (folder / KEY_FILE).exists():
        return None
    return load_or_create_key(folder)


def load_or_create_key(folder: Path) -> ServerKey:
    """The key kept in ``folder`` (the data folder), made there on first use, readable and
    writable by its owner only. Two processes starting at once make one key: the file is
    created exclusively, and the loser reads the winner's.

    Raises :class:`ReceiptError` for a key file others may read, or one that is not a key."""
    path = folder / KEY_FILE
    if not path.exists():
        _create(path)
    mode = path.stat().st_mode
    if mode & (stat.S_IRWXG | stat.S_IRWXO):
        raise ReceiptError(
            str(path), f"others may read the server's key (mode {stat.filemode(mode)}): chmod 600"
        )
    try:
        private = load_pem_private_key(path.read_bytes(), password=None)
    except (ValueError, TypeError) as err:
        raise ReceiptError(str(path), f"not a key: {err}") from None
    if not isinstance(private, Ed25519PrivateKey):
        raise ReceiptError(str(path), "not an Ed25519 key")
    return ServerKey(private)


def _create(path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    pem = Ed25519PrivateKey.generate().private_bytes(
        Encoding.PEM, PrivateFormat.PKCS8, NoEncryption()
    )
    partial = path.with_name(f".{path.name}.{os.getpid()}")
    descriptor = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(descriptor, "wb") as out:
        out.write(pem)
        out.flush()
        os.fsync(out.fileno())
    try:
        os.link(partial, path)  # fails if another process made the key first: theirs stays
    except FileExistsError:
        pass
    finally:
        partial.unlink()


# --- reading receipts -------------------------------------------------------------------------


def read_receipts(value: object, where: str) -> list[Receipt]:
    """Receipts from a parsed JSON value: a list of receipts as the API gave them (or one
    receipt). Raises :class:`ReceiptError` naming the receipt and field at fault."""
    items = value if isinstance(value, list) else [value]
    if len(items) > MAX_RECEIPTS:
        raise ReceiptError(where, f"more than {MAX_RECEIPTS} receipts")
    return [_receipt(item, f"{where}: receipt {n}") for n, item in enumerate(items, 1)]


def _receipt(item: object, where: str) -> Receipt:
    if not isinstance(item, Mapping):
        raise ReceiptError(where, "a receipt is a JSON object")
    if item.get("version") != VERSION:
        raise ReceiptError(where, f"'version' must be {VERSION}")
    event = _field(item, "event", where, 64)
    number = item.get("entry")
    if isinstance(number, float) and number.is_integer():
        number = int(number)  # JSON's 7.0 is 7
    if isinstance(number, bool) or not isinstance(number, int) or not 1 <= number < 2**31:
        raise ReceiptError(where, "'entry' must be a whole number from 1")
    digest = _field(item, "hash", where, 64)
    if len(digest) != 64 or any(c not in "0123456789abcdef" for c in digest):
        raise ReceiptError(where, "'hash' must be 64 hexadecimal digits")
    key = _field(item, "key", where, 100)
    if not key.startswith(KEY_PREFIX) or len(_decoded(key[len(KEY_PREFIX) :], where)) != 32:
        raise ReceiptError(where, "'key' must be ed25519: and 32 bytes in base64url")
    signature = _field(item, "signature", where, 100)
    if len(_decoded(signature, where)) != 64:
        raise ReceiptError(where, "'signature' must be 64 bytes in base64url")
    head = Head(event, number, digest, _field(item, "at", where, 40))
    return Receipt(head, key, signature)


def _field(item: Mapping[str, Any], name: str, where: str, most: int) -> str:
    value = item.get(name)
    printable = isinstance(value, str) and all(" " <= c <= "~" for c in value)
    if not isinstance(value, str) or not value or len(value) > most or not printable:
        raise ReceiptError(
            where, f"'{name}' must be a text of at most {most} printable ASCII characters"
        )
    return value


def _decoded(text: str, where: str) -> bytes:
    try:
        return _unpadded(text)
    except ValueError:
        raise ReceiptError(where, f"{text[:20]!r} is not base64url") from None


def _text(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def _unpadded(text: str) -> bytes:
    try:
        return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    except (binascii.Error, ValueError) as err:
        raise ValueError(str(err)) from None


def load_json(data: bytes, where: str) -> object:
    """A receipts file's JSON, or :class:`ReceiptError`."""
    try:
        return json.loads(data)
    except (ValueError, RecursionError) as err:
        raise ReceiptError(where, f"not JSON: {err}") from None


# --- checking receipts against a trail --------------------------------------------------------


def receipt_problems(
    receipts: Sequence[Receipt],
    trusted: set[str],
    hashes: Mapping[str, Sequence[str]],
) -> list[str]:
    """What each receipt finds wrong with the trails as the database holds them: ``hashes``
    gives, for each event the database holds, its entries' hashes in order (entry 1
    first). A receipt holds when its key is trusted, its signature is the key's, its event
    is held, and the trail still has that entry with that hash. Each problem names the
    receipt (by its event and entry) and says where the trail breaks."""
    problems = []
    for receipt in receipts:
        head = receipt.head
        name = f"receipt for entry {head.entry} of event {head.event}"
        if receipt.key not in trusted:
            problems.append(f"{name}: signed by a key this server does not trust ({receipt.key})")
        elif not receipt.signature_holds():
            problems.append(f"{name}: its signature does not hold; it is not the server's")
        elif head.event not in hashes:
            problems.append(f"{name}: the database holds no such event; it was deleted")
        else:
            trail = hashes[head.event]
            if len(trail) < head.entry:
                problems.append(
                    f"{name}: the trail ends at entry {len(trail)}; entries from "
                    f"{len(trail) + 1} on were removed"
                )
            elif trail[head.entry - 1] != head.hash:
                problems.append(
                    f"{name}: entry {head.entry}'s hash is now {trail[head.entry - 1][:16]}..., "
                    f"not {head.hash[:16]}...; the trail was rewritten at or before it"
                )
    return problems
