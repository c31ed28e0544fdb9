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
"""The largest ``event.json`` an import reads (the records' reports are most of it)."""


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
            for item in description["log"]:
                storage.append_entry(tx, Entry(**item))
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
        if description_info.file_size > MAX_DESCRIPTION:
            raise EventError("bad-archive", "the archive's event.json is too large")
        description = json.loads(archive.read(description_info))
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
            total += info.file_size
            if total > MAX_BYTES:
                raise EventError(
                    "bad-archive", "the archive's uploads are larger than an event may hold"
                )
            blob = archive.read(info)
            if hashlib.sha256(blob).hexdigest() != upload["sha256"]:
                raise EventError("archive-changed", f"{upload['path']} does not match its SHA-256")
            blobs[upload["path"]] = blob
        return description, blobs
    except (zipfile.BadZipFile, zipfile.LargeZipFile, OSError, EOFError) as err:
        raise EventError("bad-archive", f"the file is not a readable ZIP archive: {err}") from None
    except (json.JSONDecodeError, UnicodeDecodeError) as err:
        raise EventError("bad-archive", f"event.json is not JSON: {err}") from None
    except (TypeError, KeyError, AttributeError) as err:
        raise EventError(
            "bad-archive",
            f"the archive's description is not one arbiter wrote ({type(err).__name__}: {err})",
        ) from None
