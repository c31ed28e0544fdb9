"""arbiter's Dutch pairings against bbpPairings, a second engine, on random tournaments.

bbpPairings (Apache-2.0, C++) is not part of arbiter: build it yourself and give its
binary with ``--bbp``. Its random generator (``--dutch -g CONFIG -o FILE -s SEED``) plays
whole tournaments, pairing each round with its own Dutch engine; this script then

1. reads each file with :func:`arbiter.pairing.read_trf` and pairs every round again from
   the rounds before it (:func:`arbiter.pairing.check`), counting the rounds where arbiter
   gives the same pairs, colours and bye as bbpPairings did;
2. writes each tournament back with :func:`arbiter.pairing.write_trf` and runs bbpPairings'
   checker on that file (``--dutch FILE -c``), counting the files it finds no discrepancy
   in;
3. for the first ``--order`` rounds, asks bbpPairings to pair the round (``-p``) from the
   TRF arbiter writes of the rounds before it, and compares the boards in order.

Usage::

    python bench/pairings_compare.py --bbp /tmp/bbp/bbpPairings.exe --tournaments 40

Tournaments have 7 to 60 players and 5 to 11 rounds; a share have forfeits, withdrawals,
requested half-point byes, and draws (which these games do not have, but imported files
do). The seed makes a run repeatable. Exit status 1 when anything differs.
"""

from __future__ import annotations

import argparse
import random
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field, replace
from pathlib import Path

from arbiter.pairing import Bye, Tournament, check, pair, read_trf, write_trf
from arbiter.pairing.engine import played_pairing


@dataclass
class Counts:
    """What a run found."""

    tournaments: int = 0
    rounds: int = 0
    agreeing: int = 0
    differing: list[str] = field(default_factory=list)
    files_checked: int = 0
    files_accepted: int = 0
    rejected: list[str] = field(default_factory=list)
    ordered: int = 0
    same_order: int = 0
    other_order: list[str] = field(default_factory=list)


def configuration(rng: random.Random) -> tuple[int, str]:
    """A random generator configuration: its players and rounds, and the text."""
    players = rng.randint(7, 60)
    rounds = rng.randint(5, min(11, players - 2))
    lines = [f"PlayersNumber={players}", f"RoundsNumber={rounds}"]
    lines.append(f"DrawPercentage={rng.choice([0, 0, 0, 25])}")
    if rng.random() < 0.5:
        lines.append(f"ForfeitRate={rng.randint(10, 40)}")
    if rng.random() < 0.4:
        lines.append(f"RetiredRate={rng.randint(20, 80)}")
    if rng.random() < 0.5:
        lines.append(f"HalfPointByeRate={rng.randint(8, 30)}")
    return rounds, "\n".join(lines) + "\n"


def generate(bbp: str, folder: Path, number: int, rng: random.Random) -> Path | None:
    """One random tournament from bbpPairings' generator (None when it gave up)."""
    _, text = configuration(rng)
    config = folder / f"config-{number}.txt"
    config.write_text(text)
    out = folder / f"tournament-{number}.trf"
    seed = str(rng.randrange(1, 2**31))
    done = subprocess.run(
        [bbp, "--dutch", "-g", str(config), "-o", str(out), "-s", seed],
        capture_output=True,
        text=True,
        timeout=600,
    )
    return out if done.returncode == 0 and out.exists() else None


def compare_rounds(tournament: Tournament, name: str, counts: Counts) -> None:
    """Step 1: every round paired again by arbiter, against what bbpPairings paired."""
    differences = check(tournament, "dutch")
    counts.rounds += tournament.rounds_paired
    counts.agreeing += tournament.rounds_paired - len(differences)
    for difference in differences:
        counts.differing.append(
            f"{name} round {difference.round}: {'; '.join(difference.problems)}"
        )


def bbp_accepts(bbp: str, tournament: Tournament, path: Path, counts: Counts) -> None:
    """Step 2: bbpPairings' checker on the TRF arbiter writes."""
    path.write_text(write_trf(tournament, name=path.stem, comments=("### written by arbiter",)))
    done = subprocess.run([bbp, "--dutch", str(path), "-c"], capture_output=True, text=True)
    counts.files_checked += 1
    said = done.stdout + done.stderr
    if done.returncode == 0 and "Checker pairings" not in said:
        counts.files_accepted += 1
    else:
        counts.rejected.append(f"{path.name}: exit {done.returncode}: {said.strip()[:300]}")


def board_order(bbp: str, tournament: Tournament, folder: Path, name: str, counts: Counts) -> None:
    """Step 3: one round paired by both engines from the TRF arbiter writes, boards in
    order (the round picked at random among those after round 1)."""
    if tournament.rounds_paired < 2:
        return
    round_ = random.Random(name).randint(2, tournament.rounds_paired)
    before = truncated(tournament, round_)
    ours = pair(before, "dutch")
    path = folder / f"{name}-before-{round_}.trf"
    path.write_text(write_trf(before, name=name))
    out = folder / f"{name}-pairs-{round_}.txt"
    subprocess.run([bbp, "--dutch", str(path), "-p", str(out)], capture_output=True, timeout=600)
    theirs = bbp_pairs(out)
    mine = [(b.first, b.second) for b in ours.boards] + ([(ours.bye, 0)] if ours.bye else [])
    counts.ordered += 1
    if mine == theirs:
        counts.same_order += 1
    else:
        counts.other_order.append(f"{name} round {round_}: arbiter {mine} bbpPairings {theirs}")


def truncated(tournament: Tournament, round_: int) -> Tournament:
    """The tournament before ``round_`` was paired: the games and pairing-allocated byes of
    the rounds before, and the byes and absences of that round (a player with nothing in
    it was absent)."""
    played = played_pairing(tournament, round_)
    present = {p for b in played.boards for p in (b.first, b.second)} | {
        b.player for b in tournament.byes if b.round == round_
    }
    byes = [b for b in tournament.byes if b.round < round_]
    byes += [b for b in tournament.byes if b.round == round_ and b.kind != "pairing"]
    byes += [Bye(round_, p, "zero", 0.0) for p in tournament.numbers if p not in present]
    return replace(
        tournament,
        games=tuple(g for g in tournament.games if g.round < round_),
        byes=tuple(byes),
        rounds_planned=tournament.rounds_planned or tournament.rounds_paired,
    )


def bbp_pairs(path: Path) -> list[tuple[int, int]]:
    """bbpPairings' ``-p`` output: a count, then one ``white black`` line a board (black 0
    for the bye)."""
    if not path.exists():
        return []
    lines = path.read_text().split()
    numbers = [int(word) for word in lines[1:]]
    return list(zip(numbers[::2], numbers[1::2], strict=True))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--bbp", required=True, help="the bbpPairings binary you built")
    parser.add_argument("--tournaments", type=int, default=40)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--order", type=int, default=40, help="rounds compared board by board")
    parser.add_argument("--shown", type=int, default=5, help="differences shown of each kind")
    options = parser.parse_args(argv)
    rng = random.Random(options.seed)
    counts = Counts()
    with tempfile.TemporaryDirectory(prefix="pairings-compare-") as work:
        folder = Path(work)
        for number in range(1, options.tournaments + 1):
            path = generate(options.bbp, folder, number, rng)
            if path is None:
                continue
            tournament = read_trf(path.read_bytes().decode("utf-8"))
            counts.tournaments += 1
            compare_rounds(tournament, path.stem, counts)
            bbp_accepts(options.bbp, tournament, folder / f"written-{number}.trf", counts)
            if counts.ordered < options.order:
                board_order(options.bbp, tournament, folder, path.stem, counts)
    report(counts, options.shown)
    failed = counts.differing or counts.rejected or counts.other_order
    return 1 if failed else 0


def report(counts: Counts, shown: int) -> None:
    print(f"tournaments: {counts.tournaments}")
    print(
        f"rounds compared: {counts.rounds}, agreeing: {counts.agreeing}, "
        f"differing: {len(counts.differing)}"
    )
    for line in counts.differing[:shown]:
        print(f"  {line}")
    print(
        f"files written by arbiter and checked by bbpPairings: {counts.files_checked}, "
        f"accepted without discrepancy: {counts.files_accepted}"
    )
    for line in counts.rejected[:shown]:
        print(f"  {line}")
    print(
        f"rounds paired by both from arbiter's TRF, boards in order: {counts.ordered}, "
        f"same order: {counts.same_order}"
    )
    for line in counts.other_order[:shown]:
        print(f"  {line}")


if __name__ == "__main__":
    sys.exit(main())
