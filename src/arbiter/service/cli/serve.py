"""``arbiter serve``: the HTTP API on waitress, a production WSGI server (``spec/api.md``).

Every option may also come from the environment (``ARBITER_HOST``, ``ARBITER_PORT``,
``ARBITER_THREADS``, ``ARBITER_MAX_BODY``, ``ARBITER_CONNECTION_LIMIT``,
``ARBITER_CHANNEL_TIMEOUT``, ``ARBITER_DATABASE``, ``ARBITER_WORKERS``,
``ARBITER_CREATION_KEY``, ``ARBITER_ALLOW_PRIVATE_WEBHOOKS``); a command-line option wins.
Flask and waitress are imported only when the command runs, so that the rest of the CLI
starts fast. The server itself is :mod:`arbiter.service.web.server`, reached through
:func:`arbiter.service.run_server`; this module only reads its options.
"""

from __future__ import annotations

import sys

import click

from arbiter.service.core.serving import DEFAULT_MAX_BODY, ServerOptions


class ByteSize(click.ParamType):  # type: ignore[type-arg]  # generic only from click 8.2
    """A number of bytes: ``1048576``, or with a binary suffix ``512K``, ``16M``, ``1G``."""

    name = "bytes"
    UNITS = {"": 1, "K": 1024, "M": 1024**2, "G": 1024**3}

    def convert(
        self, value: object, param: click.Parameter | None, ctx: click.Context | None
    ) -> int:
        if isinstance(value, int):
            return value
        text = str(value).strip().upper().removesuffix("B").removesuffix("I")
        unit = text[-1:] if text[-1:] in self.UNITS else ""
        number = text[: len(text) - len(unit)]
        if not number.isdigit() or int(number) == 0:
            self.fail(
                f"{value!r} is not a positive number of bytes (such as 1048576 or 16M)", param, ctx
            )
        return int(number) * self.UNITS[unit]


@click.command()
@click.option(
    "--host",
    envvar="ARBITER_HOST",
    default="127.0.0.1",
    show_default=True,
    help="Interface to listen on (env ARBITER_HOST).",
)
@click.option(
    "--port",
    envvar="ARBITER_PORT",
    type=click.IntRange(0, 65535),
    default=8000,
    show_default=True,
    help="TCP port; 0 picks a free one (env ARBITER_PORT).",
)
@click.option(
    "--threads",
    envvar="ARBITER_THREADS",
    type=click.IntRange(1, 256),
    default=4,
    show_default=True,
    help="Worker threads (env ARBITER_THREADS).",
)
@click.option(
    "--max-body",
    envvar="ARBITER_MAX_BODY",
    type=ByteSize(),
    default=DEFAULT_MAX_BODY,
    show_default=True,
    help="Largest request body in bytes, e.g. 16M (env ARBITER_MAX_BODY).",
)
@click.option(
    "--connection-limit",
    envvar="ARBITER_CONNECTION_LIMIT",
    type=click.IntRange(10, 100_000),
    default=1000,
    show_default=True,
    help="Open connections kept at once, idle ones included (env ARBITER_CONNECTION_LIMIT).",
)
@click.option(
    "--channel-timeout",
    envvar="ARBITER_CHANNEL_TIMEOUT",
    type=click.IntRange(1, 3600),
    default=30,
    show_default=True,
    help="Seconds a silent connection is kept (env ARBITER_CHANNEL_TIMEOUT).",
)
@click.option(
    "--access-log",
    envvar="ARBITER_ACCESS_LOG",
    type=click.Choice(["common", "json", "off"]),
    default="common",
    show_default=True,
    help="One line per request on standard error: the common log format with the seconds "
    "taken, or JSON lines (env ARBITER_ACCESS_LOG).",
)
@click.option(
    "--database",
    envvar="ARBITER_DATABASE",
    metavar="URL",
    default=None,
    help="Where events are kept: sqlite:///PATH or postgresql://USER@HOST/DB "
    "(?host=/socket/dir for a Unix socket); default: the SQLite file of the data folder "
    "(env ARBITER_DATABASE, ARBITER_DATA).",
)
@click.option(
    "--workers",
    envvar="ARBITER_WORKERS",
    type=click.IntRange(1, 64),
    default=1,
    show_default=True,
    help="Server processes sharing the port, each with --threads threads (env ARBITER_WORKERS).",
)
@click.option(
    "--creation-key",
    envvar="ARBITER_CREATION_KEY",
    metavar="KEY",
    default=None,
    help="If set, creating an event needs this key as its bearer token (env "
    "ARBITER_CREATION_KEY); by default anyone who reaches the server may create one.",
)
@click.option(
    "--allow-private-webhooks",
    envvar="ARBITER_ALLOW_PRIVATE_WEBHOOKS",
    is_flag=True,
    default=False,
    help="Let webhooks reach private, loopback and link-local addresses (a venue's own "
    "network, tests); by default only public ones (env ARBITER_ALLOW_PRIVATE_WEBHOOKS).",
)
def serve(
    host: str,
    port: int,
    threads: int,
    max_body: int,
    connection_limit: int,
    channel_timeout: int,
    access_log: str,
    database: str | None,
    workers: int,
    creation_key: str | None,
    allow_private_webhooks: bool,
) -> None:
    """Run the HTTP API (see spec/api.md) and the events service (spec/events.md) until
    SIGTERM or Ctrl-C, which let the requests under way finish."""
    from arbiter.service import run_server
    from arbiter.service.events.store import default_url

    url = database or default_url()
    _upgrade(url)
    _key()
    options = ServerOptions(
        host=host,
        port=port,
        threads=threads,
        max_body=max_body,
        connection_limit=connection_limit,
        channel_timeout=channel_timeout,
        access_log=access_log,
        database=url,
        workers=workers,
        creation_key=creation_key,
        allow_private_webhooks=allow_private_webhooks,
    )
    run_server(options, say=lambda line: click.echo(f"arbiter: {line}", err=True))


def _key() -> None:
    """Make or read the server's signing key in the data folder before serving, so that a
    key that cannot be used stops the server at once rather than a change's answer."""
    from arbiter.service.events.common import now
    from arbiter.service.events.receipts import (
        KEY_FILE,
        ReceiptError,
        load_or_create_key,
        note_key,
        used_keys,
    )
    from arbiter.service.events.store import default_folder

    folder = default_folder()
    before = used_keys(folder)
    missing = not (folder / KEY_FILE).exists()
    try:
        key = load_or_create_key(folder)
        note_key(folder, key, now())
    except (ReceiptError, OSError) as err:
        click.echo(f"arbiter: the server's key cannot be used: {err}", err=True)
        sys.exit(1)
    click.echo(f"arbiter: receipts signed with {key.public}", err=True)
    if before and before[-1].key != key.public:
        why = f"{KEY_FILE} was missing and a new key was made" if missing else "it was replaced"
        click.echo(
            f"arbiter: the server's key changed ({why}): the one before, {before[-1].key} "
            f"(first used {before[-1].first_used}), signed the receipts given until now; they "
            "are still checked against it",
            err=True,
        )


def _upgrade(url: str) -> None:
    """Bring the events database's schema up to date, or stop with the reason."""
    from arbiter.service.events.common import DatabaseError, DatabaseUnavailable
    from arbiter.service.events.migrate import head, upgrade
    from arbiter.service.events.store import shown_url

    try:
        before = upgrade(url)
    except (DatabaseUnavailable, OSError) as err:
        reason = err.reason if isinstance(err, DatabaseUnavailable) else str(err)
        reason = reason.strip().splitlines()[0][:300]
        click.echo(f"arbiter: cannot open the events database {shown_url(url)}: {reason}",
                   err=True)  # fmt: skip
        sys.exit(1)
    except DatabaseError as err:
        raise click.UsageError(str(err)) from None
    now = head()
    step = "" if before == now else f" (schema {before or 'created'} -> {now})"
    click.echo(f"arbiter: events kept in {shown_url(url)}{step}", err=True)
