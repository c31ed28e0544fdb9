"""arbiter's random tournaments checked by bbpPairings' checker and by arbiter's own.

The generator (``arbiter pair --generate``, :mod:`arbiter.pairing.generate`) plays whole
tournaments, every round paired by arbiter: 9 to 60 players, 5 to 9 rounds, a third with
Baku acceleration, a third with prohibited pairs, some with half-point, zero-point and
full-point byes and forfeits. Each is written in the ``bbp`` dialect and given to
bbpPairings' checker (``--dutch FILE -c``), and checked by arbiter (rounds and ranks) from
the ``trf-2026`` dialect. bbpPairings (Apache-2.0, C++) is not part of arbiter: build it and
give its binary with ``--bbp``.

Usage::

    python bench/generated_check.py --bbp /tmp/bbp/bbpPairings.exe --tournaments 60

A tournament whose rounds cannot all be paired (too many rounds for its players: C.04.3 art.
1.9.3 leaves that to the arbiter) is counted apart. Exit status 1 when either checker finds
anything.
"""

from __future__ import annotations

import argparse
import random
import subprocess
import sys
import tempfile
from pathlib import Path

from arbiter.pairing import PairingError, check, read_trf, write_trf
from arbiter.pairing.generate import Settings, generate
from arbiter.pairing.tiebreaks import parse_tiebreaks, rank_differences
from arbiter.pairing.trf import read_ranks


def settings(number: int, rng: random.Random) -> Settings:
    """The ``number``-th tournament's settings: every third accelerated, every third with
    prohibited pairs."""
    players, rounds = rng.randint(9, 60), rng.randint(5, 9)
    return Settings(
        players,
        rounds,
        seed=number,
        baku=number % 3 == 0,
        prohibited=rng.randint(1, 6) if number % 3 == 1 else 0,
        half_byes=rng.choice([0, 0, 5]),
        zero_byes=rng.choice([0, 0, 3]),
        forfeits=rng.choice([0, 0, 4]),
        full_byes=rng.choice([0, 0, 0, 2]),
    )


def problems(bbp: str, folder: Path, number: int, chosen: Settings) -> list[str] | None:
    """What either checker finds in the ``number``-th tournament (empty: nothing; None: it
    could not be generated)."""
    try:
        made = generate(chosen)
    except PairingError:
        return None
    path = folder / f"generated-{number}.trf"
    path.write_bytes(write_trf(made, name=path.stem, dialect="bbp", line_end="\r").encode())
    done = subprocess.run([bbp, "--dutch", str(path), "-c"], capture_output=True, text=True)
    found = [] if done.returncode == 0 and "Checker" not in done.stdout else ["bbpPairings"]
    text = write_trf(made, name=path.stem, dialect="trf-2026", line_end="\r")
    again = read_trf(text)
    found += [f"round {d.round}" for d in check(again, "dutch")]
    listed = parse_tiebreaks(again.tiebreaks, "dutch")
    return found + list(rank_differences(again, read_ranks(text), listed))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--bbp", required=True, help="the bbpPairings binary you built")
    parser.add_argument("--tournaments", type=int, default=60)
    parser.add_argument("--seed", type=int, default=2026)
    options = parser.parse_args(argv)
    rng = random.Random(options.seed)
    failed = unpaired = 0
    sizes: list[tuple[int, int]] = []
    with tempfile.TemporaryDirectory(prefix="generated-check-") as work:
        for number in range(1, options.tournaments + 1):
            chosen = settings(number, rng)
            found = problems(options.bbp, Path(work), number, chosen)
            if found is None:
                unpaired += 1
                continue
            sizes.append((chosen.players, chosen.rounds))
            if found:
                failed += 1
                print(f"tournament {number} ({chosen}): {'; '.join(found)}")
    players = sorted(p for p, _ in sizes)
    rounds = sorted(r for _, r in sizes)
    print(
        f"tournaments: {len(sizes)} ({players[0]}-{players[-1]} players, "
        f"{rounds[0]}-{rounds[-1]} rounds), with a finding: {failed}; not generated (a "
        f"round without a legal pairing): {unpaired}"
    )
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
