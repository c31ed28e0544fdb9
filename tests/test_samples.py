"""Golden tests over samples/: every record file is adjudicated and compared with its
``*.expected.json``; valid samples are canonical GRN and survive GRN → JSON → GRN."""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pytest

from arbiter.notation.ast import Record
from arbiter.notation.errors import RecordError
from arbiter.notation.grn_reader import read_grn
from arbiter.notation.grn_writer import write_grn
from arbiter.notation.json_reader import read_json
from arbiter.notation.json_writer import write_json
from arbiter.service.core.batch import adjudicate_source
from tests.strategies import GAME_NAMES

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = ROOT / "samples"
TOURNAMENT = SAMPLES / "tournament"
"""A whole event, valid and broken records mixed in its round files: its standings are
tested in tests/adjudicator/test_standings_sample.py, not here."""
FILES = sorted(
    p
    for p in SAMPLES.rglob("*")
    if p.suffix in (".grn", ".json")
    and not p.name.endswith(".expected.json")
    and TOURNAMENT not in p.parents
)


def expected_path(path: Path) -> Path:
    return path.with_name(path.name.rsplit(".", 1)[0] + ".expected.json")


def reports(path: Path) -> list[dict[str, Any]]:
    """The reports of one sample file, without the machine-dependent file name."""
    with path.open("rb") as stream:
        out = [r.to_dict() for r in adjudicate_source(stream, file=path.name)]
    for report in out:
        report.pop("file")
    return out


EXPECTED = re.compile(rb"Expected: ([a-z-]+)(?: at ply ([0-9]+))?")
"""How an invalid sample states the error it shows, in a comment: ``{Expected: illegal-move
at ply 17}`` (GRN) or ``"comment": "Expected: schema"`` (JSON), one per invalid record."""


def stated_errors(path: Path) -> list[tuple[str, int | None]]:
    return [
        (code.decode(), int(ply) if ply else None)
        for code, ply in EXPECTED.findall(path.read_bytes())
    ]


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(SAMPLES)))
def test_sample_shows_the_errors_it_states(path: Path) -> None:
    # Independent of the golden files: regenerating them cannot bless another failure.
    got = reports(path)
    errors = [(r["errors"][0]["code"], r["errors"][0].get("ply")) for r in got if r["errors"]]
    assert errors == stated_errors(path)
    assert all(r["valid"] == (not r["errors"]) for r in got)
    if path.parent.name == "valid":
        assert got and not errors
    else:
        assert path.parent.name == "invalid" and errors


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(SAMPLES)))
def test_sample_matches_golden(path: Path, update_golden: bool) -> None:
    got = reports(path)
    golden = expected_path(path)
    if update_golden:
        golden.write_text(json.dumps(got, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    assert golden.exists(), f"no golden file {golden.name}; run pytest --update-golden"
    assert got == json.loads(golden.read_text(encoding="utf-8"))


def all_records(items: Iterable[Record | RecordError]) -> list[Record]:
    """``items``, each of which must be a record, not an error."""
    records: list[Record] = []
    for item in items:
        assert isinstance(item, Record), item
        records.append(item)
    return records


VALID_GRN = [p for p in FILES if p.parent.name == "valid" and p.suffix == ".grn"]


@pytest.mark.parametrize("path", VALID_GRN, ids=lambda p: str(p.relative_to(SAMPLES)))
def test_valid_samples_are_canonical_and_round_trip_through_json(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    records = all_records(read_grn(text))
    assert write_grn(records) == text
    again = read_json(write_json(records))
    assert again == records
    assert write_grn(all_records(again)) == text


def test_every_game_has_valid_and_invalid_samples() -> None:
    for game in GAME_NAMES:
        folder = SAMPLES / game.lower()
        assert list((folder / "valid").glob("*.grn")), f"{game}: no valid samples"
        assert list((folder / "invalid").glob("*.grn")), f"{game}: no invalid samples"
