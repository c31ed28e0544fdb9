"""Both builds read Abstract Play records alike, broken ones too: the reader
(``notation/abstractplay.py``) and the quick walk of a JSON value's form
(``notation/json_form.py``) are compiled by mypyc in the wheel, so every sample record of
the site is changed at every place it holds (a value removed, replaced by one of another
kind, a move list cut, stretched or reordered, an end word moved) and each change is read,
adjudicated and converted by the checkout and by the installed wheel: the outputs must be
the same, byte for byte (``fuzz/differential.py`` prints what a user sees of each)."""

from __future__ import annotations

import copy
import json
import pickle
from pathlib import Path
from typing import Any

import pytest

from fuzz.differential import run_build
from fuzz.inputs import value_holders
from tests.test_compiled import compiler

pytestmark = pytest.mark.checkout_only  # compares the checkout with the wheel

ROOT = Path(__file__).resolve().parents[2]
REPLACEMENTS: list[object] = [
    None, True, 0, -1, 2.5, 1e300, 10**12, "", "x", "resign", "timeout", "pie", "draw",
    "a1", "Z9", chr(0xD800), "2025-13-01", [], ["a1"], ["a1", "b2", "c3"], {}, {"name": 1},
]  # fmt: skip


def samples() -> list[Any]:
    paths = sorted(ROOT.glob("samples/pletore/*/*abstractplay*.json"))
    return [json.loads(p.read_text(encoding="utf-8")) for p in paths
            if not p.name.endswith(".expected.json")]  # fmt: skip


def changed(record: Any) -> list[Any]:
    """``record`` changed in one place each: every value (of the header, and of the first
    and last rounds) replaced by each of :data:`REPLACEMENTS` or removed, and its move list
    cut, stretched and reordered."""
    found: list[Any] = []
    moves = record["moves"]
    short = {**record, "moves": [*moves[:3], *moves[-2:]]}  # the ends of its move list
    for number in range(len(value_holders(short))):
        for replacement in [*REPLACEMENTS, KeyError]:
            copied = copy.deepcopy(short)
            node, key = value_holders(copied)[number]
            if replacement is KeyError:
                if isinstance(node, dict):
                    del node[key]
                else:
                    del node[key : key + 1]
            else:
                node[key] = copy.deepcopy(replacement)
            found.append(copied)
    for cut in range(len(moves) + 1):
        found.append({**record, "moves": moves[:cut]})
        found.append({**record, "moves": [*moves[:cut], ["resign"], *moves[cut:]]})
        found.append({**record, "moves": [*moves[:cut], ["timeout", "a1"], *moves[cut:]]})
    found.append({**record, "moves": moves[::-1]})
    found.append({**record, "moves": [entry for rnd in moves for entry in rnd]})
    return found


@pytest.mark.skipif(compiler() is None, reason="no C compiler: the wheel is the checkout")
def test_both_builds_read_every_changed_record_alike(installed: Path, tmp_path: Path) -> None:
    items = [
        (json.dumps(value, ensure_ascii=False).encode("utf-8", "surrogatepass"), "abstractplay")
        for record in samples()
        for value in changed(record)
    ]
    assert len(items) > 4_000
    inputs = tmp_path / "inputs.pickle"
    inputs.write_bytes(pickle.dumps(items))
    pure, shipped = tmp_path / "checkout.jsonl", tmp_path / "shipped.jsonl"
    where = (run_build(inputs, pure, None), run_build(inputs, shipped, installed))
    assert where[0] != where[1] and where[1].startswith(str(installed))
    one = pure.read_text(encoding="utf-8", errors="surrogatepass").splitlines()[1:]
    two = shipped.read_text(encoding="utf-8", errors="surrogatepass").splitlines()[1:]
    assert len(one) == len(two) == len(items)
    differing = [n for n, (a, b) in enumerate(zip(one, two, strict=True)) if a != b]
    assert not differing, f"{len(differing)} differ, the first: {items[differing[0]][0][:300]!r}"
    assert sum('"code": "schema"' in line for line in one) > 100  # broken ones were read
