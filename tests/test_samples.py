"""Golden tests over samples/: every record file is adjudicated and compared with its
``*.expected.json``; valid samples are canonical GRN and survive GRN → JSON → GRN."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from adjudicator import RULES
from notation.grn import read_grn
from notation.jsonio import read_json, write_json
from notation.writer import write_records
from service.batch import adjudicate_source

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = ROOT / "samples"
FILES = sorted(p for p in SAMPLES.rglob("*") if p.suffix in (".grn", ".json")
               and not p.name.endswith(".expected.json"))


def expected_path(path: Path) -> Path:
    return path.with_name(path.name.rsplit(".", 1)[0] + ".expected.json")


def reports(path: Path) -> list[dict[str, object]]:
    """The reports of one sample file, without the machine-dependent file name."""
    with path.open("rb") as stream:
        out = [r.to_dict() for r in adjudicate_source(stream, file=path.name)]
    for report in out:
        report.pop("file")
    return out


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(SAMPLES)))
def test_sample_matches_golden(path: Path, update_golden: bool) -> None:
    got = reports(path)
    golden = expected_path(path)
    if update_golden:
        golden.write_text(json.dumps(got, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    assert golden.exists(), f"no golden file {golden.name}; run pytest --update-golden"
    assert got == json.loads(golden.read_text(encoding="utf-8"))
    kind = path.parent.name
    if kind == "valid":
        assert all(r["valid"] for r in got)
    else:
        assert kind == "invalid" and not all(r["valid"] for r in got)


VALID_GRN = [p for p in FILES if p.parent.name == "valid" and p.suffix == ".grn"]


@pytest.mark.parametrize("path", VALID_GRN, ids=lambda p: str(p.relative_to(SAMPLES)))
def test_valid_samples_are_canonical_and_round_trip_through_json(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    records = list(read_grn(text))
    assert write_records(records) == text
    again = read_json(write_json(records))
    assert again == records
    assert write_records(again) == text


def test_every_game_has_valid_and_invalid_samples() -> None:
    for game in {cls.name for cls in RULES.values()}:
        folder = SAMPLES / game.lower()
        assert list((folder / "valid").glob("*.grn")), f"{game}: no valid samples"
        assert list((folder / "invalid").glob("*.grn")), f"{game}: no invalid samples"
