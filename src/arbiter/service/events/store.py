"""Where events are kept: the database, its tables, and its migrations (``spec/events.md`` §2).

SQLAlchemy Core over SQLite (the default, a file in the data folder) or PostgreSQL (psycopg
3). The tables are described once here; the Alembic migrations under ``migrations/`` create
them, and a test holds the two together. Every change to an event is made in one write
transaction that first bumps the event's ``version``: on PostgreSQL that locks the event's
row, on SQLite the write transaction (``BEGIN IMMEDIATE``) locks the file, so the changes to
one event are made one at a time, in the order of its audit trail.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from sqlalchemy import (
    Boolean,
    Column,
    Connection,
    Engine,
    Float,
    ForeignKeyConstraint,
    Index,
    Integer,
    LargeBinary,
    MetaData,
    PrimaryKeyConstraint,
    String,
    Table,
    Text,
    UniqueConstraint,
    create_engine,
    event,
    false,
    true,
)
from sqlalchemy.engine import URL, make_url
from sqlalchemy.exc import DisconnectionError, SQLAlchemyError

from arbiter.service.events.common import KIND_LENGTH, UNPAIRED, DatabaseError, DatabaseUnavailable

__all__ = [
    "APPEND_ONLY",
    "DATABASE_FILE",
    "SQLITE_BUSY_SECONDS",
    "TURN_SECONDS",
    "DatabaseError",
    "Store",
    "WriterTurn",
    "default_folder",
    "default_url",
    "engine_url",
    "checkins",
    "deliveries",
    "events",
    "idempotency",
    "log",
    "metadata",
    "reports",
    "pairings",
    "players",
    "prohibitions",
    "records",
    "requests",
    "results",
    "shown_url",
    "tokens",
    "unavailable",
    "uploads",
    "webhooks",
]

DATABASE_FILE = "events.sqlite3"
"""The file name of the default SQLite database, in the data folder."""

metadata = MetaData()

events = Table(
    "events",
    metadata,
    Column("id", String(16), primary_key=True),
    Column("name", String(200), nullable=False),
    Column("game", String(20), nullable=False),
    Column("rounds", Integer, nullable=True),
    Column("tiebreaks", String(200), nullable=True),
    Column("confirm_uploads", Boolean, nullable=False),
    Column("created_at", String(32), nullable=False),
    Column("finalised_at", String(32), nullable=True),
    Column("version", Integer, nullable=False),
    Column("pairing", String(KIND_LENGTH), nullable=False, server_default=UNPAIRED),
    Column("bye_points", Float, nullable=False, server_default="1"),
    Column("half_byes", Boolean, nullable=False, server_default=true()),
    Column("check_in", Boolean, nullable=False, server_default=false()),
    Column("acceleration", String(10), nullable=False, server_default="none"),
)
"""One row per event; ``version`` is the number of its trail's last entry (and is set, so
the row is locked, by every change). ``pairing`` is the system that pairs its rounds
(``none``: records are uploaded, no round is paired); ``bye_points`` what the bye the
pairing allocates is worth; ``half_byes`` whether players may ask for half-point byes;
``acceleration`` the acceleration the Dutch engine is given (``none`` or ``baku``)."""

tokens = Table(
    "tokens",
    metadata,
    Column("event_id", String(16), nullable=False),
    Column("number", Integer, nullable=False),
    Column("hash", String(64), nullable=False, unique=True),
    Column("role", String(10), nullable=False),
    Column("label", String(100), nullable=False),
    Column("created_at", String(32), nullable=False),
    Column("revoked_at", String(32), nullable=True),
    Column("player", Integer, nullable=True),
    PrimaryKeyConstraint("event_id", "number"),
    ForeignKeyConstraint(["event_id"], ["events.id"]),
)
"""The secrets that may change an event, by their SHA-256 (never the secret itself); an
upload token made for a player of a paired event names them (``player``, by id)."""

uploads = Table(
    "uploads",
    metadata,
    Column("event_id", String(16), nullable=False),
    Column("number", Integer, nullable=False),
    Column("sha256", String(64), nullable=False),
    Column("file_name", String(255), nullable=True),
    Column("format", String(20), nullable=True),
    Column("size", Integer, nullable=False),
    Column("data", LargeBinary, nullable=False),
    Column("token", Integer, nullable=False),
    Column("created_at", String(32), nullable=False),
    PrimaryKeyConstraint("event_id", "number"),
    UniqueConstraint("event_id", "sha256", name="uploads_event_sha256"),
    ForeignKeyConstraint(["event_id"], ["events.id"]),
)
"""Every upload as it was sent; the database refuses to change or delete one."""

records = Table(
    "records",
    metadata,
    Column("event_id", String(16), nullable=False),
    Column("number", Integer, nullable=False),
    Column("upload", Integer, nullable=False),
    Column("position", Integer, nullable=False),
    Column("status", String(10), nullable=False),
    Column("official_result", String(40), nullable=True),
    Column("round", Integer, nullable=True),
    Column("header", Text, nullable=True),
    Column("report", Text, nullable=False),
    Column("digest", String(64), nullable=False),
    Column("board_round", Integer, nullable=True),
    Column("board", Integer, nullable=True),
    Column("placement", String(30), nullable=True),
    Column("seats", String(10), nullable=True),
    PrimaryKeyConstraint("event_id", "number"),
    ForeignKeyConstraint(["event_id", "upload"], ["uploads.event_id", "uploads.number"]),
)
"""Each record of each upload: what standings need of it (``header``), its report, whether
it counts (``status``) and the director's official result if one was set; in a paired event,
the board it stands on (``board_round``, ``board``) or why it stands on none
(``placement``), and how its players sit there (``seats``: ``as-paired``, its first colour
in the board's first seat, or ``reversed``; null in a record placed before seats were
kept, whose seats follow from its players' names)."""

log = Table(
    "log",
    metadata,
    Column("event_id", String(16), nullable=False),
    Column("number", Integer, nullable=False),
    Column("at", String(32), nullable=False),
    Column("token", Integer, nullable=True),
    Column("action", String(30), nullable=False),
    Column("details", Text, nullable=False),
    Column("reason", Text, nullable=True),
    Column("prev", String(64), nullable=False),
    Column("hash", String(64), nullable=False),
    PrimaryKeyConstraint("event_id", "number"),
    ForeignKeyConstraint(["event_id"], ["events.id"]),
)
"""The audit trail: one entry per change, chained by hash; the database refuses to change
or delete one."""

players = Table(
    "players",
    metadata,
    Column("event_id", String(16), nullable=False),
    Column("id", Integer, nullable=False),
    Column("number", Integer, nullable=False),
    Column("name", String(200), nullable=False),
    Column("rating", Integer, nullable=True),
    Column("federation", String(3), nullable=True),
    Column("fide_id", String(20), nullable=True),
    Column("entered", Integer, nullable=False),
    Column("withdrawn_from", Integer, nullable=True),
    Column("created_at", String(32), nullable=False),
    PrimaryKeyConstraint("event_id", "id"),
    ForeignKeyConstraint(["event_id"], ["events.id"]),
)
"""The players of a paired event: ``id`` in order of entry (what the trail names them by),
``number`` the pairing number (FIDE's order until round 1 is paired, then fixed; a late
entry takes the next one), the first round they may be paired in (``entered``), and the
round from which they are withdrawn."""

pairings = Table(
    "pairings",
    metadata,
    Column("event_id", String(16), nullable=False),
    Column("round", Integer, nullable=False),
    Column("boards", Text, nullable=False),
    Column("byes", Text, nullable=False),
    Column("manual", Boolean, nullable=False),
    Column("paired_at", String(32), nullable=False),
    Column("draft", Boolean, nullable=False, server_default=false()),
    PrimaryKeyConstraint("event_id", "round"),
    ForeignKeyConstraint(["event_id"], ["events.id"]),
)
"""Each round paired: its boards (a JSON list of ``[first, second]`` pairing numbers, board 1
first) and byes (``[number, kind, points]``), whether the director set it by hand, and
whether it is a draft (shown to the director only, until published)."""

requests = Table(
    "requests",
    metadata,
    Column("event_id", String(16), nullable=False),
    Column("round", Integer, nullable=False),
    Column("player", Integer, nullable=False),
    Column("kind", String(10), nullable=False),
    PrimaryKeyConstraint("event_id", "round", "player"),
    ForeignKeyConstraint(["event_id"], ["events.id"]),
)
"""The byes players asked for, by round and player id, before the round is paired."""

results = Table(
    "results",
    metadata,
    Column("event_id", String(16), nullable=False),
    Column("round", Integer, nullable=False),
    Column("board", Integer, nullable=False),
    Column("result", String(4), nullable=False),
    PrimaryKeyConstraint("event_id", "round", "board"),
    ForeignKeyConstraint(["event_id"], ["events.id"]),
)
"""The results the director gave boards without a record (a forfeit, a double forfeit)."""

checkins = Table(
    "checkins",
    metadata,
    Column("event_id", String(16), nullable=False),
    Column("round", Integer, nullable=False),
    Column("player", Integer, nullable=False),
    Column("at", String(32), nullable=False),
    PrimaryKeyConstraint("event_id", "round", "player"),
    ForeignKeyConstraint(["event_id"], ["events.id"]),
)
"""Who checked in for which round, by player id, in an event that pairs only those present."""

reports = Table(
    "reports",
    metadata,
    Column("event_id", String(16), nullable=False),
    Column("round", Integer, nullable=False),
    Column("board", Integer, nullable=False),
    Column("player", Integer, nullable=False),
    Column("result", String(4), nullable=False),
    PrimaryKeyConstraint("event_id", "round", "board", "player"),
    ForeignKeyConstraint(["event_id"], ["events.id"]),
)
"""The results players reported for their own boards (the first seat's side first), by
round, board and player id."""

prohibitions = Table(
    "prohibitions",
    metadata,
    Column("event_id", String(16), nullable=False),
    Column("number", Integer, nullable=False),
    Column("players", Text, nullable=False),
    Column("first_round", Integer, nullable=False),
    Column("last_round", Integer, nullable=False),
    Column("created_at", String(32), nullable=False),
    Column("removed_at", String(32), nullable=True),
    PrimaryKeyConstraint("event_id", "number"),
    ForeignKeyConstraint(["event_id"], ["events.id"]),
)
"""The prohibited pairs of a paired event (TRF-2026 record 260), by number: players (a JSON
list of player ids) no two of whom are paired together in rounds ``first_round`` to
``last_round``; one taken back keeps its row, with the time it was taken back."""

webhooks = Table(
    "webhooks",
    metadata,
    Column("event_id", String(16), nullable=False),
    Column("number", Integer, nullable=False),
    Column("url", String(2000), nullable=False),
    Column("events", String(200), nullable=False),
    Column("created_at", String(32), nullable=False),
    Column("removed_at", String(32), nullable=True),
    Column("seen", Integer, nullable=False),
    Column("event_url", Text, nullable=False),
    PrimaryKeyConstraint("event_id", "number"),
    ForeignKeyConstraint(["event_id"], ["events.id"]),
)
"""The URLs an event's changes are sent to (``spec/events.md`` §12): what the trail says
(``url``, ``events`` comma-separated, ``created_at``, ``removed_at``) and, beside it, the
last entry of the trail the deliverer has considered for the webhook (``seen``) and the
event's public page, which each delivery names (``event_url``)."""

deliveries = Table(
    "deliveries",
    metadata,
    Column("event_id", String(16), nullable=False),
    Column("webhook", Integer, nullable=False),
    Column("entry", Integer, nullable=False),
    Column("status", String(10), nullable=False),
    Column("attempts", Integer, nullable=False),
    Column("next_at", String(32), nullable=False),
    Column("created_at", String(32), nullable=False),
    Column("attempted_at", String(32), nullable=True),
    Column("delivered_at", String(32), nullable=True),
    Column("http_status", Integer, nullable=True),
    Column("error", String(300), nullable=True),
    PrimaryKeyConstraint("event_id", "webhook", "entry"),
    ForeignKeyConstraint(["event_id", "webhook"], ["webhooks.event_id", "webhooks.number"]),
    Index("deliveries_due", "status", "next_at"),
)
"""Each entry of the trail claimed for a webhook, by (event, webhook, entry): only one
process inserts it. Its status, the attempts made, when the next may be, and what the last
one got. Not part of the trail: the deliverer's own record."""

idempotency = Table(
    "idempotency",
    metadata,
    Column("event_id", String(16), nullable=False),
    Column("key_hash", String(64), nullable=False),
    Column("fingerprint", String(64), nullable=False),
    Column("entry", Integer, nullable=True),
    Column("status", Integer, nullable=True),
    Column("body", LargeBinary, nullable=True),
    Column("created_at", String(32), nullable=False),
    PrimaryKeyConstraint("event_id", "key_hash"),
)
"""The answers to changes sent with an ``Idempotency-Key``, by event (the empty id for an
event's creation) and the key's SHA-256: the SHA-256 of the request it came with
(``fingerprint``), the last entry of the trail once the change was made, and the answer
(``status``, ``body``: encrypted with a key derived from the client's key, so that the
table holds no secret a client was given; both null until the answer is made). Not part of
the trail: a cache of answers, kept a day."""

APPEND_ONLY = ("log", "uploads")
"""The tables whose rows the database itself refuses to change or delete (triggers)."""


def default_folder() -> Path:
    """The data folder: ``ARBITER_DATA``, else ``$XDG_DATA_HOME/arbiter``, else
    ``~/.local/share/arbiter``."""
    given = os.environ.get("ARBITER_DATA")
    if given:
        return Path(given)
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "arbiter"


def default_url() -> str:
    """The embedded default: a SQLite file in the data folder."""
    return f"sqlite:///{default_folder() / DATABASE_FILE}"


def engine_url(text: str) -> URL:
    """The SQLAlchemy URL of a database URL as users write it: ``sqlite:///PATH`` or the
    libpq form ``postgresql://USER@HOST/DB`` (``?host=/socket/dir`` for a Unix socket).

    Raises :class:`DatabaseError` for any other."""
    try:
        scheme = urlsplit(text).scheme.lower()
        url = make_url(text)
    except ValueError as err:
        raise DatabaseError(f"{_shown(text)} is not a database URL: {err}") from None
    if scheme == "sqlite":
        if not url.database or url.database == ":memory:":
            raise DatabaseError("a SQLite database must be a file: sqlite:///PATH")
        return url.set(drivername="sqlite+pysqlite")
    if scheme in ("postgresql", "postgres"):
        return url.set(drivername="postgresql+psycopg")
    raise DatabaseError(
        f"{_shown(text)} is not a database URL arbiter can use: give sqlite:///PATH or "
        "postgresql://USER@HOST/DB (a Unix socket as ?host=/socket/dir)"
    )


def _shown(text: str) -> str:
    """A URL as it may be shown: without its password."""
    parts = urlsplit(text)
    if parts.password:
        text = text.replace(f":{parts.password}@", ":***@", 1)
    return repr(text[:200])


def shown_url(text: str) -> str:
    """The database URL for messages and logs, its password hidden."""
    return _shown(text).strip("'\"")


SQLITE_BUSY_SECONDS = 30.0
"""How long a SQLite connection waits for a lock held by a writer outside the turn (a
migration, or a program of its own on the file) before it gives up."""
TURN_SECONDS = 30.0
"""How long a change to a SQLite database waits for its turn to write before it is answered
as the database not answering (503): only a writer that hangs makes it wait so long."""


class WriterTurn:
    """One writer at a time on a SQLite file, across the threads of a process and across
    processes (``spec/events.md`` §1). SQLite's own wait for its write lock polls, sleeping
    longer the longer it has waited, so under a steady load a writer that has waited long
    loses the lock, again and again, to those that came after it: seconds, at worst the
    whole busy timeout. Here the threads of a process queue on a lock, and the one whose
    turn it is takes a lock file (``flock``) that the kernel hands on, waking its waiters,
    as soon as it is let go: at most one writer per process waits on it, and SQLite's lock
    is free whenever a writer has its turn."""

    def __init__(self, path: Path, seconds: float) -> None:
        self.path = path
        self.seconds = seconds
        self._queue = threading.Lock()

    @contextlib.contextmanager
    def held(self) -> Iterator[None]:
        """The turn to write, for the block. Raises :class:`DatabaseUnavailable` when it
        does not come within ``seconds`` (its holder hangs)."""
        if not self._queue.acquire(timeout=self.seconds):
            raise DatabaseUnavailable(
                f"no turn to write within {self.seconds:g} s", "WriterTurnTimeout"
            )
        try:
            lock_file = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
            try:  # closed, the file lets the lock go, whatever happens in the block
                fcntl.flock(lock_file, fcntl.LOCK_EX)
                yield
            finally:
                os.close(lock_file)
        finally:
            self._queue.release()


class Store:
    """One database: its engine, and transactions to read or to write in."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.dialect = "sqlite" if urlsplit(url).scheme.lower() == "sqlite" else "postgresql"
        found = engine_url(url)
        self.engine: Engine = _engine(found)
        self.turn: WriterTurn | None = None  # PostgreSQL: a change locks its event's row
        if self.dialect == "sqlite":
            database = Path(found.database or "")
            self.turn = WriterTurn(database.with_name(database.name + "-writer"), TURN_SECONDS)
        self.pid = os.getpid()  # a forked process opens its own (pooled connections are not shared)

    @contextlib.contextmanager
    def read(self) -> Iterator[Connection]:
        """A connection in a read transaction (a consistent view of the database)."""
        with self.engine.connect() as conn:
            if self.dialect == "postgresql":  # one snapshot for every query of the read
                conn = conn.execution_options(isolation_level="REPEATABLE READ")
            with conn.begin():
                yield conn

    @contextlib.contextmanager
    def glance(self) -> Iterator[Connection]:
        """A connection for one statement, which is a consistent view by itself: on
        PostgreSQL outside any transaction (no ``BEGIN`` and ``COMMIT`` to wait for), on
        SQLite in a read transaction as :meth:`read`."""
        if self.dialect != "postgresql":
            with self.read() as conn:
                yield conn
            return
        with self.engine.connect() as conn:
            yield conn.execution_options(isolation_level="AUTOCOMMIT")

    @contextlib.contextmanager
    def write(self) -> Iterator[Connection]:
        """A connection in a write transaction, committed at the end of the block (rolled
        back on an exception). On SQLite it waits for its turn (:class:`WriterTurn`), then
        takes the write lock at once."""
        with contextlib.ExitStack() as stack:
            if self.turn is not None:
                stack.enter_context(self.turn.held())
            conn = stack.enter_context(self.engine.connect())
            conn = conn.execution_options(arbiter_write=True)
            with conn.begin():
                yield conn

    def close(self) -> None:
        self.engine.dispose()


def _engine(url: URL) -> Engine:
    if url.get_backend_name() == "sqlite":
        return _sqlite_engine(url)
    try:
        engine = create_engine(url, pool_size=8, max_overflow=8, hide_parameters=True)
    except ModuleNotFoundError:
        raise DatabaseError(
            "PostgreSQL needs psycopg: pip install 'arbiter-grn[postgresql]'"
        ) from None

    @event.listens_for(engine, "checkin")
    def _checked_in(_dbapi: Any, record: Any) -> None:
        record.info[_IDLE_SINCE] = time.monotonic()

    @event.listens_for(engine, "checkout")
    def _checked_out(dbapi: Any, record: Any, _proxy: Any) -> None:
        since = record.info.get(_IDLE_SINCE)
        if since is None or time.monotonic() - since < PING_AFTER_SECONDS:
            return
        try:
            engine.dialect.do_ping(dbapi)
        except Exception as err:  # the pool drops it and takes (or opens) another
            raise DisconnectionError(str(err)) from err

    return engine


PING_AFTER_SECONDS = 5.0
"""A pooled PostgreSQL connection that sat unused this long is tried (one empty statement)
before it is used: the server may have been restarted or closed it meanwhile. One in use
all along is not: under load, a change or a read waits for no ping."""
_IDLE_SINCE = "arbiter_idle_since"


def _sqlite_engine(url: URL) -> Engine:
    """SQLite in WAL mode (readers never wait for the writer), with foreign keys, a wait of
    up to ``SQLITE_BUSY_SECONDS`` for a lock held outside the writers' turn, and ``BEGIN
    IMMEDIATE`` for write transactions (a transaction that read first and wrote later could
    fail at once, without waiting). The values of a statement that fails are never in its
    error (nor in a log): they are what a client sent."""
    path = Path(url.database or "")
    path.parent.mkdir(parents=True, exist_ok=True)
    engine = create_engine(
        url,
        connect_args={"timeout": SQLITE_BUSY_SECONDS, "isolation_level": None},
        hide_parameters=True,
    )

    @event.listens_for(engine, "connect")
    def _connected(dbapi: Any, _record: Any) -> None:
        cursor = dbapi.cursor()
        for pragma in ("journal_mode=WAL", "foreign_keys=ON", "synchronous=FULL"):
            cursor.execute(f"PRAGMA {pragma}")
        cursor.close()

    @event.listens_for(engine, "begin")
    def _begin(conn: Connection) -> None:
        writing = conn.get_execution_options().get("arbiter_write", False)
        conn.exec_driver_sql("BEGIN IMMEDIATE" if writing else "BEGIN")

    return engine


def unavailable(err: SQLAlchemyError) -> DatabaseUnavailable:
    """The domain's error for a failure of the database: the first line of what the driver
    said (a person reads it after "cannot open the database"), and the error's name."""
    said = str(getattr(err, "orig", None) or err).strip().splitlines()
    return DatabaseUnavailable(said[0][:300] if said else type(err).__name__, type(err).__name__)
