"""Where ``arbiter adjudicate --json`` spends its time, per game (``make bench-phases``).

On the archives of ``make bench`` (``bench/out/``, written by ``bench/bench.py``), on one
core, the median of several runs of each phase alone, in process:

- read: cutting the file into records and reading each (``arbiter.read_records``), each
  record dropped once read, as the command does;
- replay: playing every record's moves (``replay``), the records already read;
- judge: the rest of ``adjudicate`` (the final position, the outcome, the claim), that is
  ``adjudicate`` less the replay;
- write: the JSON line of every report (what ``--json`` prints), the reports already made.

The records and reports the later phases start from are kept aside from the collector
(``gc.freeze``), whose passes over them no run of the command makes.
The whole-process time is also taken (``arbiter adjudicate --json --quiet``), so that what
the phases leave out (start-up, the output's encoding and writing) shows as the rest.
"""

from __future__ import annotations

import argparse
import gc
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path

import arbiter
from arbiter.adjudicator.replay import replay
from arbiter.notation.ast import Record
from arbiter.service.cli.runs import json_line

sys.path[0] = str(Path(__file__).resolve().parents[1])  # bench.bench, not this folder

from bench.bench import CORPORA, OUT, _one_core, arbiter_command, build, corpus  # noqa: E402


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Where adjudicate --json spends its time.")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--plies", type=int, default=78_892, help="plies per archive")
    args = parser.parse_args(argv)
    OUT.mkdir(parents=True, exist_ok=True)
    _one_core()
    print(f"arbiter {arbiter.__version__} ({build()}), median of {args.repeat} runs, one core")
    print("| game | plies | read | replay | judge | write | phases | whole process | rest |")
    print("|---|---|---|---|---|---|---|---|---|")
    for game, size, komi in CORPORA:
        path, _records, plies = corpus(game, size, komi, args.plies)
        print(row(game, path, plies, args.repeat), flush=True)


def row(game: str, path: Path, plies: int, repeat: int) -> str:
    data = path.read_bytes()
    records = [r for r in arbiter.read_records(data, file=path.name) if isinstance(r, Record)]
    reports = [arbiter.adjudicate(r) for r in records]
    gc.collect()
    gc.freeze()  # the records and reports kept here are not the collector's work in a run
    read = _median(lambda: _drain(arbiter.read_records(data, file=path.name)), repeat)
    replayed = _median(lambda: [replay(r, keep=61) for r in records], repeat)
    judged = _median(lambda: [arbiter.adjudicate(r) for r in records], repeat) - replayed
    written = _median(lambda: [json_line(r) for r in reports], repeat)
    command = [arbiter_command(), "adjudicate", "--json", "--quiet", str(path)]
    whole = _median(lambda: subprocess.run(command, stdout=subprocess.DEVNULL, check=False),
                    repeat)  # fmt: skip
    phases = read + replayed + judged + written
    cells = [_ms(t) for t in (read, replayed, judged, written, phases, whole, whole - phases)]
    return f"| {game} | {plies:,} | " + " | ".join(cells) + " |"


def _drain(items: Iterable[object]) -> None:
    """Go through ``items`` dropping each, as the command does with the records it reads."""
    for _item in items:
        pass


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:.0f} ms"


def _median(work: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


if __name__ == "__main__":
    main()
