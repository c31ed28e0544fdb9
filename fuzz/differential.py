"""The differential check: the same fuzz inputs through the checkout and the shipped wheel.

The wheel's hot modules are compiled by mypyc, and compiled code can differ from the Python
it is compiled from (an ``except`` variable reused with another type, a type checked at a
call: spec/build.md). So the fuzz harness's inputs are drawn once, written to a file, and
read by one process per build, which prints, for each input, everything a user could see of
it: each record's report, its conversion to GRN, JSON and Abstract Play, or its error, with
code, message and location. The two outputs must be identical, byte for byte. Usage::

    python -m fuzz.differential --inputs 30000    # make fuzz
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import pickle
import random
import subprocess
import sys
import tempfile
import time
from datetime import datetime, tzinfo
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def draw(count: int, seed_value: int) -> list[tuple[bytes, str | None]]:
    """``count`` inputs of the fuzz harness: (bytes, the notation to read them as)."""
    from fuzz.inputs import Inputs

    rng = random.Random(seed_value)
    inputs = Inputs(rng, legal=min(150, max(10, count // 50)), grammar=min(400, count // 5 + 5))
    return [(item.data, item.fmt) for item in (inputs.draw() for _ in range(count))]


def seen(data: bytes, fmt: str | None) -> str:
    """What a user sees of one input, as one line of JSON (run in the build under test)."""
    from arbiter.notation.sources import read_records
    from arbiter.service.core.batch import convert_item, report_for

    out: list[object] = []
    try:
        items = list(read_records(data, fmt=fmt))  # type: ignore[arg-type]
    except Exception as err:  # the harness reports this; here only the builds are compared
        return json.dumps(["raised", type(err).__name__, str(err)])
    for position, item in enumerate(items):
        out.append(report_for(item).to_dict())
        for to in ("grn", "json", "abstractplay"):
            done = convert_item(item, to=to, file=None, position=position)  # type: ignore[arg-type]
            out.append(done.text if done.error is None else done.error.to_dict())
    return json.dumps(out, ensure_ascii=False, sort_keys=True)


def child(inputs: Path, output: Path) -> None:
    """Read the pickled inputs and write one line per input (in a process of one build)."""
    import arbiter
    from arbiter.notation import abstractplay

    class FixedClock(datetime):
        """Abstract Play records written without a date take the time of writing: one
        clock for both runs (compiled, the module still looks ``datetime`` up among its
        globals at each use, so this holds in both builds)."""

        @classmethod
        def now(cls, tz: tzinfo | None = None) -> FixedClock:
            return cls(2026, 1, 1, tzinfo=tz)

    abstractplay.datetime = FixedClock  # type: ignore[misc]
    items = pickle.loads(inputs.read_bytes())
    with output.open("w", encoding="utf-8", errors="surrogatepass") as out:
        out.write(f"{Path(arbiter.__file__ or '').parent}\n")
        for data, fmt in items:
            out.write(seen(data, fmt) + "\n")


def run_build(inputs: Path, output: Path, site: Path | None) -> str:
    """Run :func:`child` on the checkout (``site`` None) or on the wheel installed in
    ``site``; the folder ``arbiter`` was imported from."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONSAFEPATH")}
    if site is not None:  # the wheel first; the checkout only for the fuzz package
        env["PYTHONPATH"] = os.pathsep.join([str(site), str(ROOT)])
        env["PYTHONSAFEPATH"] = "1"
    code = "import sys, pathlib, fuzz.differential as d; d.child(*map(pathlib.Path, sys.argv[1:]))"
    done = subprocess.run([sys.executable, "-c", code, str(inputs), str(output)],
                          cwd=ROOT if site is None else inputs.parent, env=env,
                          capture_output=True, text=True, check=False)  # fmt: skip
    if done.returncode != 0:
        raise RuntimeError(f"the {'shipped' if site else 'checkout'} build failed:\n{done.stderr}")
    with output.open(encoding="utf-8", errors="surrogatepass") as lines:
        return lines.readline().strip()


def compare(count: int, seed_value: int, site: Path) -> tuple[int, list[str]]:
    """Feed ``count`` inputs to both builds: (records compared, the differences found)."""
    items = draw(count, seed_value)
    with tempfile.TemporaryDirectory() as folder:
        inputs = Path(folder) / "inputs.pickle"
        inputs.write_bytes(pickle.dumps(items))
        pure, shipped = Path(folder) / "checkout.jsonl", Path(folder) / "shipped.jsonl"
        where = (run_build(inputs, pure, None), run_build(inputs, shipped, site))
        if where[0] == where[1] or not where[1].startswith(str(site)):
            raise RuntimeError(f"the two runs did not import two builds: {where}")
        differences, records = [], 0
        with (
            pure.open(encoding="utf-8", errors="surrogatepass") as one,
            shipped.open(encoding="utf-8", errors="surrogatepass") as two,
        ):
            one.readline()
            two.readline()
            for (data, fmt), a, b in zip(items, one, two, strict=True):
                records += a.count('"claimed_result"')
                if a != b:
                    differences.append(_difference(data, fmt, a, b))
    return records, differences


def _difference(data: bytes, fmt: str | None, a: str, b: str) -> str:
    """The input and both outputs around where they first differ."""
    at = next((i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), len(a))
    start = max(0, at - 150)
    digest = hashlib.sha256(data).hexdigest()[:12]
    return (
        f"input {digest} ({fmt}) {data[:200]!r}\n  checkout: ...{a[start : at + 250]}\n"
        f"  shipped:  ...{b[start : at + 250]}"
    )


def main(argv: list[str] | None = None) -> int:
    from tools import shipped

    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--inputs", type=int, default=30_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--site", type=Path, help="a folder holding an installed wheel to "
                        "compare instead of the one tools/shipped.py builds")  # fmt: skip
    options = parser.parse_args(argv)
    began = time.perf_counter()
    site = options.site.resolve() if options.site else shipped.build()
    records, differences = compare(options.inputs, options.seed, site)
    print(
        f"{options.inputs} inputs ({records} records) through the checkout and the shipped "
        f"wheel in {time.perf_counter() - began:.0f} s: {len(differences)} difference(s)"
    )
    for difference in differences[:20]:
        print(difference)
    return 1 if differences else 0


if __name__ == "__main__":
    sys.exit(main())
