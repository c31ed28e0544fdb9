"""Receipts without a database: the server's key, signed heads, and what a receipt finds
wrong with a trail (spec/events.md §6)."""

from __future__ import annotations

import multiprocessing
import os
import stat
from pathlib import Path

import pytest

from arbiter.service.events.receipts import (
    KEY_FILE,
    Head,
    Receipt,
    ReceiptError,
    ServerKey,
    load_or_create_key,
    read_receipts,
    receipt_problems,
)

HEAD = Head("abcdefghijklm", 3, "c" * 64, "2026-11-26T10:00:00.000Z")
TRAIL = ["a" * 64, "b" * 64, "c" * 64, "d" * 64]


@pytest.fixture
def key(tmp_path: Path) -> ServerKey:
    return load_or_create_key(tmp_path)


def test_the_key_is_made_once_and_readable_by_its_owner_only(tmp_path: Path) -> None:
    first = load_or_create_key(tmp_path / "data")
    mode = (tmp_path / "data" / KEY_FILE).stat().st_mode
    assert stat.S_IMODE(mode) == 0o600
    assert load_or_create_key(tmp_path / "data").public == first.public
    assert first.public.startswith("ed25519:") and len(first.public) == 8 + 43


def test_a_key_others_may_read_is_refused(tmp_path: Path) -> None:
    load_or_create_key(tmp_path)
    os.chmod(tmp_path / KEY_FILE, 0o644)
    with pytest.raises(ReceiptError, match="chmod 600"):
        load_or_create_key(tmp_path)


def test_a_file_that_is_not_a_key_is_refused(tmp_path: Path) -> None:
    path = tmp_path / KEY_FILE
    path.write_text("not a key")
    os.chmod(path, 0o600)
    with pytest.raises(ReceiptError, match="not a key"):
        load_or_create_key(tmp_path)


def _make(folder: str) -> str:
    return load_or_create_key(Path(folder)).public


def test_processes_starting_at_once_make_one_key(tmp_path: Path) -> None:
    with multiprocessing.get_context("fork").Pool(4) as pool:
        made = pool.map(_make, [str(tmp_path)] * 8)
    assert len(set(made)) == 1
    assert [p.name for p in tmp_path.iterdir()] == [KEY_FILE]


def test_a_signed_head_holds_and_reads_back(key: ServerKey) -> None:
    receipt = key.sign(HEAD)
    assert receipt.signature_holds()
    [again] = read_receipts([receipt.to_dict()], "receipts.json")
    assert again == receipt and again.signature_holds()


@pytest.mark.parametrize(
    ("field", "value"),
    [("event", "other-event"), ("entry", 4), ("hash", "d" * 64), ("at", "2027-01-01T00:00Z")],
)
def test_a_head_changed_after_signing_does_not_hold(
    key: ServerKey, field: str, value: object
) -> None:
    changed = {**key.sign(HEAD).to_dict(), field: value}
    [receipt] = read_receipts(changed, "x")
    assert not receipt.signature_holds()


def test_receipt_problems_finds_nothing_in_the_trail_it_signed(key: ServerKey) -> None:
    assert receipt_problems([key.sign(HEAD)], {key.public}, {HEAD.event: TRAIL}) == []


def test_a_shorter_trail_is_found_cut(key: ServerKey) -> None:
    [problem] = receipt_problems([key.sign(HEAD)], {key.public}, {HEAD.event: TRAIL[:2]})
    assert "the trail ends at entry 2; entries from 3 on were removed" in problem


def test_a_different_hash_is_found_rewritten(key: ServerKey) -> None:
    rewritten = [*TRAIL[:2], "e" * 64, *TRAIL[3:]]
    [problem] = receipt_problems([key.sign(HEAD)], {key.public}, {HEAD.event: rewritten})
    assert "entry 3's hash is now eeeeeeeeeeeeeeee" in problem and "rewritten" in problem


def test_a_missing_event_is_found_deleted(key: ServerKey) -> None:
    [problem] = receipt_problems([key.sign(HEAD)], {key.public}, {})
    assert "the database holds no such event; it was deleted" in problem


def test_a_receipt_of_another_key_is_not_trusted(key: ServerKey, tmp_path: Path) -> None:
    other = load_or_create_key(tmp_path / "other").sign(HEAD)
    [problem] = receipt_problems([other], {key.public}, {HEAD.event: TRAIL})
    assert "a key this server does not trust" in problem


def test_a_forged_signature_is_found(key: ServerKey) -> None:
    genuine = key.sign(HEAD)
    forged = Receipt(Head(HEAD.event, 2, TRAIL[1], HEAD.at), genuine.key, genuine.signature)
    [problem] = receipt_problems([forged], {key.public}, {HEAD.event: TRAIL})
    assert "its signature does not hold" in problem


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ("x", "a receipt is a JSON object"),
        ({"version": 2}, "'version' must be 1"),
        ({"version": 1, "event": "e", "entry": 0}, "'entry' must be a whole number from 1"),
        ({"version": 1, "event": "e", "entry": True}, "'entry' must be a whole number"),
        ({"version": 1, "event": "e", "entry": 1, "hash": "g" * 64}, "64 hexadecimal digits"),
        ({"version": 1, "event": "\ud800", "entry": 1}, "'event' must be a text"),
    ],
)
def test_a_receipt_that_cannot_be_read_is_located(value: object, message: str) -> None:
    with pytest.raises(ReceiptError) as caught:
        read_receipts([value], "kept.json")
    assert message in str(caught.value) and str(caught.value).startswith("kept.json: receipt")
