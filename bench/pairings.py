"""``make bench-pairings``: the whole-process time of ``arbiter pair FILE.trf`` as users run
it, on events of 200 and 1,000 players (``docs/performance.md``, "Pairing").

Each event is made first, in this process: players rated from the top down, four rounds
paired by arbiter's Dutch engine with results drawn from a seeded random source, a few
requested half-point byes and absences in the round to pair. Its TRF is written once; then
``arbiter pair FILE.trf`` is run from scratch (a new process each time, the installed
``arbiter`` next to this Python) and its wall time taken: the median of the runs, and the
fastest. The target for 200 players is under 2 s.
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import arbiter
from arbiter.pairing import Bye, Game, Player, Tournament, pair, write_trf

ROUNDS_BEFORE = 4
TARGET_200 = 2.0


def event(players: int, seed: int) -> Tournament:
    """An event of ``players`` players after four rounds, with byes asked for round 5."""
    rng = random.Random(seed)
    people = tuple(Player(n, f"Player {n:04}", rating=2800 - n) for n in range(1, players + 1))
    t = Tournament(players=people, rounds_planned=9, initial_colour="first")
    for _ in range(ROUNDS_BEFORE):
        found = pair(t, "dutch")
        games = tuple(
            Game(found.round, b.first, b.second, "1-0" if rng.random() < 0.55 else "0-1")
            for b in found.boards
        )
        t = Tournament(
            players=people,
            rounds_planned=9,
            games=t.games + games,
            byes=t.byes + found.byes,
            initial_colour="first",
        )
    resting = rng.sample(range(1, players + 1), max(2, players // 50))
    byes = tuple(
        Bye(ROUNDS_BEFORE + 1, n, "half" if k % 2 else "zero", 0.5 if k % 2 else 0.0)
        for k, n in enumerate(resting)
    )
    return Tournament(
        players=people,
        rounds_planned=9,
        games=t.games,
        byes=t.byes + byes,
        initial_colour="first",
    )


def timed(command: list[str], runs: int) -> list[float]:
    """Wall times of ``command`` run ``runs`` times, each checked to succeed."""
    times = []
    for _ in range(runs):
        began = time.perf_counter()
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
        times.append(time.perf_counter() - began)
    return times


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[200, 1000])
    parser.add_argument("--runs", type=int, default=5, help="runs per size (1,000: at most 3)")
    options = parser.parse_args(argv)
    command = str(Path(sys.executable).with_name("arbiter"))
    print(
        f"{time.strftime('%Y-%m-%d')}, {platform.machine()}, Python {platform.python_version()}; "
        f"arbiter {arbiter.__version__}; round {ROUNDS_BEFORE + 1} of 9, whole process"
    )
    failed = False
    with tempfile.TemporaryDirectory(prefix="bench-pairings-") as work:
        for size in options.sizes:
            path = Path(work) / f"event-{size}.trf"
            path.write_text(write_trf(event(size, seed=size), name=f"Bench {size}"))
            runs = options.runs if size <= 200 else min(options.runs, 3)
            times = timed([command, "pair", str(path)], runs)
            median, best = statistics.median(times), min(times)
            print(f"{size:>5} players: median {median:.2f} s, fastest {best:.2f} s ({runs} runs)")
            if size == 200 and median >= TARGET_200:
                print(f"  over the target of {TARGET_200:.0f} s")
                failed = True
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
