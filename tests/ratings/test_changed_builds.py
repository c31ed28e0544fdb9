"""Both builds rate alike the site's records changed at every place: ``arbiter ratings
--compat abstractplay`` (its reading of the records, ``ratings/abstractplay.py``, and the
check's, ``notation/abstractplay.py``, compiled by mypyc in the wheel) prints the same
ratings, exclusions and notes, and says the same on standard error, on the checkout and on
the installed wheel, with one process and with two."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.notation.test_abstractplay_builds import changed, samples
from tests.test_compiled import compiler

pytestmark = pytest.mark.checkout_only  # compares the checkout with the wheel

ROOT = Path(__file__).resolve().parents[2]


def records() -> list[Any]:
    """Every changed record, each with an id of its own where the change left it as it was
    (else nearly all would be left out as copies of the first), but those holding a lone
    surrogate: the command cannot print one (in either build)."""
    found = []
    for record in samples():
        original = record["header"]["site"]["gameid"]
        for n, value in enumerate(changed(record)):
            if "\\ud800" in json.dumps(value):
                continue
            header = value.get("header") if isinstance(value, dict) else None
            site = header.get("site") if isinstance(header, dict) else None
            if isinstance(site, dict) and site.get("gameid") == original:
                site["gameid"] = f"{original}-{n}"
            found.append(value)
    return found


def ratings(args: list[str], site: Path | None, cwd: Path) -> tuple[int, str, str]:
    env = dict(os.environ)
    if site is not None:
        env["PYTHONPATH"] = str(site)
    done = subprocess.run([sys.executable, "-m", "arbiter", "ratings", "--compat", "abstractplay",
                           "--json", *args], cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=600, check=False)  # fmt: skip
    return done.returncode, done.stdout, done.stderr


@pytest.mark.skipif(compiler() is None, reason="no C compiler: the wheel is the checkout")
def test_both_builds_rate_every_changed_record_alike(installed: Path, tmp_path: Path) -> None:
    path = tmp_path / "changed.json"
    path.write_text(json.dumps(records()), "utf-8")
    pure = ratings(["--jobs", "1", str(path)], None, ROOT)
    document = json.loads(pure[1])
    assert pure[0] == 1  # some records cannot be read
    assert len(document["notes"]) > 100 and len(document["excluded"]) > 1_000
    assert sum(pool["rated"] for pool in document["pools"]) > 1_000
    assert ratings(["--jobs", "1", str(path)], installed, tmp_path) == pure
    assert ratings(["--jobs", "2", str(path)], installed, tmp_path) == pure
