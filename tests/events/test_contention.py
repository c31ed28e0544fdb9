"""Writers on one SQLite file take turns (spec/events.md §1): many threads of several
processes changing events at once each have their turn, none waits on SQLite's lock until it
gives up, and nothing is lost or counted twice. Counted, never timed."""

from __future__ import annotations

import hashlib
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from arbiter.service.events import storage
from arbiter.service.events import store as stores
from arbiter.service.events.migrate import open_store
from arbiter.service.events.operations import create_event
from arbiter.service.events.reading import version
from arbiter.service.events.store import Store
from tests.events.test_server import Server, call, game, new_event, upload

CHANGES = 400


def test_writers_take_turns_on_one_sqlite_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two stores on one file, as two processes have them, and sixteen threads: with SQLite's
    own wait cut to 50 ms, a writer that had to wait on SQLite's lock would give up; in
    turns, none does."""
    url = f"sqlite:///{tmp_path / 'events.sqlite3'}"
    event = create_event(open_store(url), {"name": "Rapid", "game": "Pilo"}).event.id
    monkeypatch.setattr(stores, "SQLITE_BUSY_SECONDS", 0.05)
    both = (Store(url), Store(url))

    def change(number: int) -> None:
        with storage.writing(both[number % 2]) as tx:
            storage.lock_event(tx, event)  # the first statement of every change
            time.sleep(0.002)  # a change takes a while, the lock held

    with ThreadPoolExecutor(16) as pool:
        list(pool.map(change, range(CHANGES)))
    assert version(both[0], event) == 1 + CHANGES  # every change made, once
    for one in both:
        one.close()


def test_the_turn_is_given_back_whatever_the_change_does(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'events.sqlite3'}"
    store = open_store(url)
    with pytest.raises(RuntimeError), storage.writing(store):
        raise RuntimeError("the change fails")
    assert store.turn is not None
    with store.turn.held():  # free again, in this thread and for the lock file
        pass
    assert Path(f"{tmp_path / 'events.sqlite3'}-writer").exists()


def test_two_servers_on_one_sqlite_file_answer_every_upload(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'events.sqlite3'}"
    one, two = Server(url, "--threads", "8"), Server(url, "--threads", "8")
    try:
        event, token = new_event(one.url)
        sent = [game(number) for number in range(1, 321)]

        def client(number: int) -> int:
            return upload((one, two)[number % 2].url, event, token, sent[number])[0]

        with ThreadPoolExecutor(32) as pool:
            statuses = list(pool.map(client, range(len(sent))))
        assert statuses == [201] * len(sent)  # no 503
        _, uploads = call(f"{one.url}/api/v1/events/{event}/uploads")
        assert sorted(u["sha256"] for u in uploads["uploads"]) == sorted(
            hashlib.sha256(data).hexdigest() for data in sent
        )
        _, log = call(f"{two.url}/api/v1/events/{event}/log")
        assert [entry["number"] for entry in log["log"]] == list(range(1, len(sent) + 2))
        _, verdict = call(f"{two.url}/api/v1/events/{event}/verify")
        assert verdict["valid"] is True
    finally:
        assert one.stop() == 0 and two.stop() == 0
