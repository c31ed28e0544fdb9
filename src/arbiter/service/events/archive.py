"""One event as one file, and back (``arbiter db export`` and ``arbiter db import``;
``spec/events.md`` §7).

The archive is a ZIP file: ``event.json`` holds the event, its tokens (their hashes only),
its uploads' descriptions, its records with their reports and its audit trail; each upload's
bytes, exactly as sent, are the file ``uploads/NUMBER-SHA256``. Importing writes it all in
one transaction and verifies the event before committing, so an archive changed since its
export is refused, whatever database it goes to.
"""

from __future__ import annotations

import hashlib
import io
import json
import zipfile
import zlib
from typing import Any

from arbiter import __version__
from arbiter.service.events import storage
from arbiter.service.events.chain import Entry
from arbiter.service.events.common import MAX_BYTES, EventError, RowsRefused, now
from arbiter.service.events.reading import event_row
from arbiter.service.events.rows import columns
from arbiter.service.events.store import Store
from arbiter.service.events.verify import verify_on

__all__ = ["export_event", "import_event"]

FORMAT = "arbiter-event-archive"
VERSION = 1
MAX_DESCRIPTION = 512 * 1024 * 1024
"""The largest ``event.json`` an import reads, whatever it carries."""
CHUNK = 1024 * 1024
"""Bytes of a member unpacked at a time."""
DESCRIPTION_BASE = 64 * 1024 * 1024
"""What ``event.json`` may hold beside twice its uploads: the reports, statuses and trail of
the most records an event holds (about 1.5 KB each)."""


def export_event(store: Store, event_id: str) -> bytes:
    """The archive of ``event_id``."""
    with storage.reading(store) as tx:
        description: dict[str, Any] = {
            "format": FORMAT,
            "version": VERSION,
            "exported_at": now(),
            "arbiter": __version__,
            "event": columns(event_row(tx, event_id)),
            "tokens": [columns(row) for row in storage.token_rows(tx, event_id)],
            "uploads": [],
            "records": [columns(row) for row in storage.record_rows(tx, event_id)],
            "log": [entry.to_dict() for entry in storage.entries(tx, event_id)],
        }
        paired = {
            "players": [columns(row) for row in storage.player_rows(tx, event_id)],
            "pairings": [columns(row) for row in storage.pairing_rows(tx, event_id)],
            "requests": [columns(row) for row in storage.request_rows(tx, event_id)],
            "results": [columns(row) for row in storage.result_rows(tx, event_id)],
            "checkins": [columns(row) for row in storage.checkin_rows(tx, event_id)],
            "reports": [columns(row) for row in storage.report_rows(tx, event_id)],
            "prohibitions": [columns(row) for row in storage.prohibition_rows(tx, event_id)],
            "webhooks": [columns(row) for row in storage.webhook_rows(tx, event_id)],
            "deliveries": [columns(row) for row in storage.delivery_rows(tx, event_id, None)],
        }
        description |= {name: rows for name, rows in paired.items() if rows}
        out = io.BytesIO()
        with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
            for upload in storage.upload_rows(tx, event_id):
                row = columns(upload)
                del row["data"]
                row["path"] = f"uploads/{upload.number}-{upload.sha256}"
                archive.writestr(str(row["path"]), upload.data)
                description["uploads"].append(row)
            archive.writestr("event.json", json.dumps(description, ensure_ascii=False, indent=1))
    return out.getvalue()


def import_event(store: Store, data: bytes) -> str:
    """Restore the event of an archive; its id. Raises :class:`EventError` for a file that
    is not such an archive, one changed since its export (the event does not verify), or an
    event the database already holds."""
    description, blobs = _unpack(data)
    event = description["event"]
    event_id = event["id"]
    _one_event(description, event_id)
    try:
        with storage.restoring(store) as tx:
            if storage.event_exists(tx, event_id):
                raise EventError("event-exists", f"the database already holds event {event_id}")
            storage.restore_event(tx, event)
            for row in description["tokens"]:
                storage.restore_token(tx, row)
            for upload in description["uploads"]:
                row = {k: v for k, v in upload.items() if k != "path"}
                storage.restore_upload(tx, row, blobs[upload["path"]])
            for row in description["records"]:
                storage.restore_record(tx, row)
            for table in storage.RESTORED:
                for row in description.get(table, []):
                    storage.restore_rows(tx, table, row)
            for item in description["log"]:
                storage.append_entry(tx, Entry(**item))
            # An archive of an earlier version counted write transactions in ``version``;
            # it is the number of the trail's last entry now (revision 0002).
            storage.set_version(tx, event_id, len(description["log"]))
            verdict = verify_on(tx, event_id)
            if not verdict.valid:
                raise EventError(
                    "archive-changed",
                    "the archive does not verify: " + "; ".join(verdict.problems[:5]),
                )
    except RowsRefused as err:
        raise EventError(
            "bad-archive",
            f"the archive's description is not one arbiter wrote ({err.kind}: {err.detail[:300]})",
        ) from None
    except (TypeError, KeyError, ValueError) as err:
        raise EventError(
            "bad-archive",
            f"the archive's description is not one arbiter "
            f"wrote ({type(err).__name__}: {str(err)[:300]})",
        ) from None
    return str(event_id)


def _one_event(description: dict[str, Any], event_id: object) -> None:
    """Refuse an archive any of whose rows or entries belongs to another event than its
    own: importing it would add them to that event (a forged upload, record, trail entry
    or token) while only the archive's event is verified."""
    if not isinstance(event_id, str):
        raise EventError("bad-archive", "the archive's event has no id")
    parts = [("tokens", "event_id"), ("uploads", "event_id"), ("records", "event_id"),
             ("log", "event")]  # fmt: skip
    parts += [(table, "event_id") for table in storage.RESTORED if table in description]
    for part, key in parts:
        rows = description.get(part)
        if not isinstance(rows, list):
            raise EventError("bad-archive", f"the archive's {part} are not a list")
        for position, row in enumerate(rows, 1):
            named = row.get(key) if isinstance(row, dict) else None
            if named != event_id:
                raise EventError(
                    "bad-archive",
                    f"the archive is of event {event_id}, but its {part} number {position} "
                    f"belongs to {named!r}: an archive holds one event, and nothing of it "
                    "was imported",
                )


def _bounded(archive: zipfile.ZipFile, info: zipfile.ZipInfo, most: int, what: str) -> bytes:
    """The bytes of one member of ``archive``, read no further than ``most`` bytes whatever
    its header claims: a member that unpacks to more is refused as soon as it passes."""
    data = bytearray()
    with archive.open(info) as member:
        while chunk := member.read(CHUNK):
            data += chunk
            if len(data) > most:
                raise EventError("bad-archive", f"the archive's {what} is larger than {most} bytes")
    return bytes(data)


def _description_limit(infos: dict[str, zipfile.ZipInfo]) -> int:
    """The most ``event.json`` may hold: :data:`DESCRIPTION_BASE`, and twice the uploads the
    archive carries (its records' headers are taken from them), at most
    :data:`MAX_DESCRIPTION`. An archive whose uploads are small cannot carry a huge
    description."""
    carried = sum(info.file_size for name, info in infos.items() if name.startswith("uploads/"))
    return min(MAX_DESCRIPTION, DESCRIPTION_BASE + 2 * min(carried, MAX_BYTES))


def _unpack(data: bytes) -> tuple[dict[str, Any], dict[str, bytes]]:
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
        infos = {info.filename: info for info in archive.infolist()}
        description_info = infos.get("event.json")
        if description_info is None:
            raise EventError(
                "bad-archive",
                "the file holds no event.json: it is not an event archive of arbiter db export",
            )
        limit = _description_limit(infos)
        description = json.loads(_bounded(archive, description_info, limit, "event.json"))
        if not isinstance(description, dict) or description.get("format") != FORMAT:
            raise EventError("bad-archive", "event.json is not an arbiter event archive")
        if description.get("version") != VERSION:
            raise EventError(
                "bad-archive",
                f"archive version {description.get('version')!r}"
                f" is not one this arbiter reads ({VERSION})",
            )
        blobs: dict[str, bytes] = {}
        total = 0
        for upload in description["uploads"]:
            info = infos.get(upload["path"])
            if info is None:
                raise EventError("bad-archive", f"the archive lacks {upload['path']}")
            blob = _bounded(archive, info, MAX_BYTES - total, "uploads")
            total += len(blob)
            if hashlib.sha256(blob).hexdigest() != upload["sha256"]:
                raise EventError("archive-changed", f"{upload['path']} does not match its SHA-256")
            blobs[upload["path"]] = blob
        return description, blobs
    except (zipfile.BadZipFile, zipfile.LargeZipFile, OSError, EOFError, zlib.error,
            NotImplementedError, RuntimeError) as err:  # fmt: skip
        raise EventError("bad-archive", f"the file is not a readable ZIP archive: {err}") from None
    except (json.JSONDecodeError, UnicodeDecodeError, RecursionError) as err:
        raise EventError("bad-archive", f"event.json is not JSON: {err}") from None
    except (TypeError, KeyError, AttributeError) as err:
        raise EventError(
            "bad-archive",
            f"the archive's description is not one arbiter wrote ({type(err).__name__}: {err})",
        ) from None
