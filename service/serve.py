"""``arbiter serve``: the HTTP API on waitress, a production WSGI server (``spec/api.md``).

Every option may also come from the environment (``ARBITER_HOST``, ``ARBITER_PORT``,
``ARBITER_THREADS``, ``ARBITER_MAX_BODY``, ``ARBITER_CONNECTION_LIMIT``,
``ARBITER_CHANNEL_TIMEOUT``); a command-line option wins. Flask and waitress are imported only
when the command runs, so that the rest of the CLI starts fast. What stands in front of the
application (JSON refusals, limits, shutdown) is :mod:`arbiter.service.front`.
"""

from __future__ import annotations

import click

from arbiter.service import DEFAULT_MAX_BODY


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
def serve(
    host: str,
    port: int,
    threads: int,
    max_body: int,
    connection_limit: int,
    channel_timeout: int,
) -> None:
    """Run the HTTP API (see spec/api.md) until SIGTERM or Ctrl-C, which let the requests
    under way finish."""
    from waitress import create_server

    from arbiter.service import create_app
    from arbiter.service.front import JsonChannel, raise_open_files, serve_until_stopped

    app = create_app({"MAX_CONTENT_LENGTH": max_body})
    raise_open_files(connection_limit + 64)
    server = create_server(
        app,
        host=host,
        port=port,
        threads=threads,
        ident="arbiter",
        # waitress refuses a body of this size or more, before reading it: one byte over.
        max_request_body_size=max_body + 1,
        connection_limit=connection_limit,
        channel_timeout=channel_timeout,
        cleanup_interval=max(1, min(10, channel_timeout // 2)),
        asyncore_use_poll=True,  # select() cannot watch more than 1024 connections
    )
    server.channel_class = JsonChannel
    bound = getattr(server, "effective_port", port)
    shown = f"[{host}]" if ":" in host else host
    click.echo(
        f"arbiter: serving http://{shown}:{bound}/ with {threads} threads "
        f"(request bodies up to {max_body} bytes); Ctrl-C or SIGTERM stops",
        err=True,
    )
    serve_until_stopped(server)
