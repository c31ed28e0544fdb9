"""What ``arbiter serve`` is asked for, as the command line reads it and the web face runs
it (``spec/cli.md``, ``spec/api.md`` §6): written here, between the two faces, so that
neither imports the other. :func:`arbiter.service.run_server` hands these options to the
server of :mod:`arbiter.service.web.server`."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["DEFAULT_MAX_BODY", "ServerOptions"]

DEFAULT_MAX_BODY = 16 * 1024 * 1024
"""Bytes a request body may hold unless configured otherwise (``MAX_CONTENT_LENGTH``)."""


@dataclass(frozen=True, slots=True)
class ServerOptions:
    """What ``arbiter serve`` was asked for (spec/cli.md): where to listen, how many
    threads and processes, the limits, the access log, the events' database URL, and the
    key that creating an event needs (None: none), and whether webhooks may reach private
    and loopback addresses."""

    host: str
    port: int
    threads: int
    max_body: int
    connection_limit: int
    channel_timeout: int
    access_log: str
    database: str
    workers: int = 1
    creation_key: str | None = None
    allow_private_webhooks: bool = False
