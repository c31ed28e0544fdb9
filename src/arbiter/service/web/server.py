"""The server ``arbiter serve`` runs (``spec/api.md`` §6): the application on waitress, a
production WSGI server, with what stands in front of it (:mod:`.front`: JSON refusals,
limits, a shutdown that lets the requests under way finish), the access log
(:mod:`.access_log`) and, with several workers, the processes that share the port
(:mod:`.workers`). The command line reads the options (:mod:`arbiter.service.cli.serve`);
this runs them.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable

from arbiter.service.core.serving import ServerOptions

LOOPBACK = ("127.0.0.1", "localhost", "::1")
"""The hosts that only this machine reaches."""


def run(options: ServerOptions, say: Callable[[str], None]) -> None:
    """Serve until SIGTERM or SIGINT; ``say`` tells a person where and how (one line each)."""
    from waitress import create_server  # pyright: ignore[reportAttributeAccessIssue]

    from arbiter.service.web import create_app
    from arbiter.service.web.access_log import AccessLog, Logged
    from arbiter.service.web.front import JsonChannel, raise_open_files, serve_until_stopped
    from arbiter.service.web.workers import listening_socket, serve_forked

    config: dict[str, object] = {
        "MAX_CONTENT_LENGTH": options.max_body,
        "DATABASE": options.database,
        "ALLOW_PRIVATE_WEBHOOKS": options.allow_private_webhooks,
    }
    if options.creation_key:
        digest = hashlib.sha256(options.creation_key.encode()).hexdigest()
        config["EVENT_CREATION_KEY_SHA256"] = digest
    app = create_app(config)
    raise_open_files(options.connection_limit + 64)
    sock = listening_socket(options.host, options.port)
    waitress_options = {
        "threads": options.threads,
        "ident": "arbiter",
        # waitress refuses a body of this size or more, before reading it: one byte over.
        "max_request_body_size": options.max_body + 1,
        "connection_limit": options.connection_limit,
        "channel_timeout": options.channel_timeout,
        "cleanup_interval": max(1, min(10, options.channel_timeout // 2)),
        "asyncore_use_poll": True,  # select() cannot watch more than 1024 connections
    }
    log = AccessLog(options.access_log)
    served = app if options.access_log == "off" else Logged(app, log)

    def serve() -> None:  # in each worker: the admission's threads are the worker's own
        from arbiter.service.web.events_api import UploadAdmission
        from arbiter.service.web.stream_hub import StreamHub
        from arbiter.service.web.webhooks_api import start_for

        server = create_server(served, sockets=[sock], **waitress_options)
        server.channel_class = JsonChannel
        server.access_log = log
        server.admission = UploadAdmission(app)
        server.streams = StreamHub(app, server)  # the pages' streams, held by one thread
        start_for(app)  # this process's deliverer of webhooks
        serve_until_stopped(server)

    bound = sock.getsockname()[1]
    host = options.host
    shown = f"[{host}]" if ":" in host else host
    threads = options.threads
    processes = (
        f"{options.workers} processes of {threads} threads" if options.workers > 1 else
        f"{threads} threads"
    )  # fmt: skip
    say(
        f"serving http://{shown}:{bound}/ with {processes} "
        f"(request bodies up to {options.max_body} bytes); Ctrl-C or SIGTERM stops"
    )
    if not options.creation_key and host not in LOOPBACK:
        say(f"anyone who reaches {shown} may create events: set --creation-key")
    if options.allow_private_webhooks:
        say("webhooks may reach private and loopback addresses (--allow-private-webhooks)")
    try:
        if options.workers == 1:
            serve()
        else:
            serve_forked(serve, options.workers)
    finally:
        sock.close()
