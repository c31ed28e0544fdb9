"""``arbiter db``: the events database from the command line (``spec/cli.md``,
``spec/events.md`` §7): bring its schema up to date, list its events, verify them against
their audit trails, export one event to an archive and import it into any database.

The same functions as the API's; the command line reaches the database directly, so it
needs no token (whoever can open the database file or log in to the server is its owner).
"""

from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING, NoReturn

import click

if TYPE_CHECKING:
    from arbiter.service.events.receipts import Receipt
    from arbiter.service.events.store import Store

database_option = click.option(
    "--database",
    envvar="ARBITER_DATABASE",
    metavar="URL",
    default=None,
    help="sqlite:///PATH or postgresql://USER@HOST/DB (?host=/socket/dir); default: the "
    "SQLite file of the data folder (env ARBITER_DATABASE).",
)


def _url(database: str | None) -> str:
    from arbiter.service.events.store import default_url

    return database or default_url()


def _fail(message: str) -> NoReturn:
    click.echo(f"arbiter: {message}", err=True)
    sys.exit(1)


def _store(database: str | None) -> Store:
    from arbiter.service.events.common import DatabaseError, DatabaseUnavailable
    from arbiter.service.events.migrate import open_store
    from arbiter.service.events.store import shown_url

    url = _url(database)
    try:
        return open_store(url)
    except DatabaseUnavailable as err:
        _fail(f"cannot open the database {shown_url(url)}: {err.reason}")
    except DatabaseError as err:
        _fail(str(err))


@click.group()
def db() -> None:
    """The events database: upgrade, list, verify, export, import."""


@db.command()
@database_option
def upgrade(database: str | None) -> None:
    """Bring the database's schema up to date (arbiter serve does this at every start)."""
    from arbiter.service.events.common import DatabaseError, DatabaseUnavailable
    from arbiter.service.events.migrate import head
    from arbiter.service.events.migrate import upgrade as run_upgrade
    from arbiter.service.events.store import shown_url

    url = _url(database)
    try:
        before = run_upgrade(url)
    except DatabaseUnavailable as err:
        _fail(f"cannot upgrade {shown_url(url)}: {err.reason}")
    except DatabaseError as err:
        _fail(str(err))
    now = head()
    said = "already at" if before == now else f"upgraded from {before or 'nothing'} to"
    click.echo(f"arbiter: {shown_url(url)}: {said} schema {now}", err=True)


@db.command(name="list")
@database_option
def list_events(database: str | None) -> None:
    """The events of the database: id, game, created, state, name."""
    from arbiter.service.events.reading import list_events as listed

    for row in listed(_store(database), newest_first=False):
        state = "finalised" if row.finalised_at else "open"
        click.echo(f"{row.id}\t{row.game}\t{row.created_at}\t{state}\t{row.name}")


@db.command()
@database_option
@click.argument("event_ids", nargs=-1)
@click.option("--receipts", "receipt_files", multiple=True, type=click.Path(dir_okay=False),
              help="A JSON file of receipts as the API gave them (a list, or one); "
              "repeat for several. Each must still hold.")  # fmt: skip
@click.option("--key", "keys", multiple=True, metavar="KEY",
              help="Trust receipts signed by this public key (ed25519:...) too, beside the "
              "key in the data folder; repeat for several.")  # fmt: skip
def verify(
    database: str | None,
    event_ids: tuple[str, ...],
    receipt_files: tuple[str, ...],
    keys: tuple[str, ...],
) -> None:
    """Check events (all by default) against their audit trails, and the receipts given
    against the events; exit 1 at any problem."""
    from arbiter.service.events.common import EventError
    from arbiter.service.events.verify import receipts_held, verify_all, verify_event

    receipts = _receipts(receipt_files)
    store = _store(database)
    verdicts = []
    named = set(event_ids)
    for event_id in event_ids:
        try:
            verdicts.append(verify_event(store, event_id))
        except EventError as err:
            if not any(one.head.event == event_id for one in receipts):
                _fail(err.message)
    if not event_ids:
        verdicts = verify_all(store)
    for verdict in verdicts:
        if verdict.valid:
            click.echo(f"{verdict.event}: ok ({verdict.entries} entries)")
        for problem in verdict.problems:
            click.echo(f"{verdict.event}: {problem}")
    checked = [one for one in receipts if not named or one.head.event in named]
    problems = receipts_held(store, checked, {*_data_keys(), *keys}) if checked else []
    for problem in problems:
        click.echo(problem)
    bad = sum(not verdict.valid for verdict in verdicts)
    said = f"arbiter: {len(verdicts)} event(s) verified, {bad} with problems"
    if receipt_files:
        said += f"; {len(checked)} receipt(s) checked, {len(problems)} that do not hold"
    click.echo(said, err=True)
    sys.exit(1 if bad or problems else 0)


def _receipts(files: tuple[str, ...]) -> list[Receipt]:
    """The receipts of ``files``, each file a JSON list of receipts (or one receipt)."""
    from arbiter.service.events.receipts import ReceiptError, load_json, read_receipts

    found = []
    for name in files:
        try:
            with open(name, "rb") as stream:
                data = stream.read(MAX_RECEIPTS_FILE + 1)
        except OSError as err:
            _fail(f"io-error: cannot read {name}: {err.strerror or err}")
        try:
            if len(data) > MAX_RECEIPTS_FILE:
                raise ReceiptError(name, "larger than a file of receipts can be")
            found += read_receipts(load_json(data, name), name)
        except ReceiptError as err:
            _fail(f"bad-receipt: {err}")
    return found


MAX_RECEIPTS_FILE = 16 * 1024 * 1024
"""The largest file of receipts read (10,000 receipts are about 4 MiB)."""


def _data_keys() -> set[str]:
    """The public halves of the keys the server of the data folder signs and has signed
    with (its key, and those it recorded before): never made here, where there is none."""
    from arbiter.service.events.receipts import ReceiptError, load_key, used_keys
    from arbiter.service.events.store import default_folder

    folder = default_folder()
    try:
        key = load_key(folder)
    except (ReceiptError, OSError) as err:
        _fail(f"key-unavailable: {err}")
    return {one.key for one in used_keys(folder)} | ({key.public} if key else set())


@db.command(name="export")
@database_option
@click.argument("event_id")
@click.option("-o", "--output", type=click.Path(dir_okay=False), required=True,
              help="The archive to write (a ZIP file).")  # fmt: skip
def export_command(database: str | None, event_id: str, output: str) -> None:
    """Write one event to an archive: its uploads as sent, records, corrections and trail."""
    from arbiter.service.events.archive import export_event
    from arbiter.service.events.common import EventError

    try:
        data = export_event(_store(database), event_id)
    except EventError as err:
        _fail(err.message)
    try:
        with open(output, "wb") as out:
            out.write(data)
    except OSError as err:
        _fail(f"io-error: cannot write {output}: {err.strerror or err}")
    click.echo(f"arbiter: event {event_id} written to {output} ({len(data)} bytes)", err=True)


@db.command(name="import")
@database_option
@click.argument("archive", type=click.Path(dir_okay=False))
def import_command(database: str | None, archive: str) -> None:
    """Restore an event from an archive of arbiter db export (verified before it is kept)."""
    from arbiter.service.events.archive import import_event
    from arbiter.service.events.common import MAX_BYTES, EventError

    try:
        with open(archive, "rb") as stream:
            if os.fstat(stream.fileno()).st_size > MAX_BYTES * 2:
                _fail(f"{archive} is larger than an event archive can be")
            data = stream.read()  # the file's size, checked: no buffer of the bound's size
    except OSError as err:
        _fail(f"io-error: cannot read {archive}: {err.strerror or err}")
    try:
        event_id = import_event(_store(database), data)
    except EventError as err:
        _fail(f"{archive}: {err.code}: {err.message}")
    click.echo(f"arbiter: event {event_id} imported from {archive}; it verifies", err=True)
