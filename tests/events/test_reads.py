"""An event's public reads are made once per version of the event (spec/events.md §4, §7):
reading the records, all of them as GRN, or the standings again before anything changed
costs no query for the records, and what is kept is bounded. Counted, never timed."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest
from flask.testing import FlaskClient

from arbiter.service.events import storage
from arbiter.service.events.reading import Rendered, Renderings
from tests.events.conftest import bearer, body, create
from tests.events.test_events import ROUNDS, post_files


@pytest.fixture
def queries(monkeypatch: pytest.MonkeyPatch) -> Counter[str]:
    """How many times each statement that reads an event's records or uploads is run."""
    counted: Counter[str] = Counter()
    for name in ("kept_records", "upload_sources", "counted_records"):
        monkeypatch.setattr(storage, name, _counting(getattr(storage, name), name, counted))
    return counted


def _counting(statement: Callable[..., Any], name: str, counted: Counter[str]) -> Any:
    def counting(*args: Any, **kwargs: Any) -> Any:
        counted[name] += 1
        return statement(*args, **kwargs)

    return counting


def test_a_read_at_the_same_version_makes_no_query_for_the_records(
    client: FlaskClient, queries: Counter[str]
) -> None:
    event, token = create(client)
    post_files(client, event, token, *ROUNDS)
    api = f"/api/v1/events/{event}"
    queries.clear()
    first = client.get(f"{api}/records")
    assert client.get(f"{api}/records").data == first.data
    grn = client.get(f"{api}/records?format=grn")
    assert client.get(f"{api}/records?format=grn").data == grn.data
    for fmt in ("json", "trf", "json", "trf"):
        assert client.get(f"{api}/standings?format={fmt}").status_code == 200
    assert queries == Counter(kept_records=1, upload_sources=1, counted_records=1)

    client.get(f"{api}/records?round=2")  # another read: made once too
    client.get(f"{api}/records?round=2")
    assert queries["kept_records"] == 2
    tag = {"If-None-Match": grn.headers["ETag"]}
    entries = len(body(client.get(f"{api}/log"))["log"])  # the version: the trail's last entry
    assert grn.headers["ETag"] == first.headers["ETag"] == f'"{event}-{entries}"'
    assert entries == 1 + len(ROUNDS)  # made, then one entry for each file of the upload
    assert client.get(f"{api}/records?format=grn", headers=tag).status_code == 304

    excluded = client.post(
        f"{api}/records/1/exclude", json={"reason": "wrong round"}, headers=bearer(token)
    )
    assert excluded.status_code == 200
    queries.clear()
    after = client.get(f"{api}/records")
    assert body(after)["records"][0]["status"] == "excluded" and after.data != first.data
    assert client.get(f"{api}/records?format=grn", headers=tag).status_code == 200
    assert queries == Counter(kept_records=1, upload_sources=1)


def made(version: int, size: int) -> Rendered:
    return Rendered(version, b"x" * size, "text/plain")


def test_the_reads_kept_are_bounded_the_least_used_dropped_first() -> None:
    kept = Renderings(100)
    for name in ("a", "b", "c"):
        kept.put((name,), made(1, 30))
    assert kept.get(("a",), 1) is not None  # a is used: b is now the least recently used
    kept.put(("d",), made(1, 30))
    assert kept.get(("b",), 1) is None and kept.size == 90
    assert [kept.get((name,), 1) is not None for name in "acd"] == [True, True, True]
    assert kept.get(("a",), 2) is None  # another version of the event
    kept.put(("a",), made(2, 40))
    assert kept.get(("a",), 2) is not None and kept.size <= 100
    big = made(3, 51)  # over half the budget: answered, not kept
    assert kept.put(("e",), big) is big and kept.get(("e",), 3) is None
    assert kept.size <= kept.budget
