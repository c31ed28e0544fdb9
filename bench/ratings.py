"""``make bench-ratings``: ``arbiter ratings --compat abstractplay --json FILE`` beside
Abstract Play's own raters run by node on the same file, whole processes, in one run
(``docs/performance.md``).

The file is made first, in this process, from a seeded random source, so that it is the same
bytes every time (its SHA-256 is printed): 30,000 Abstract Play records of real Pletore
games. The games are played by arbiter's engine (``arbiter.Game``, a random legal move at
each turn until the rules end the game, some cut short by a resignation) on the site's 11x11
and 13x13 boards and on 9x9; each of ``--distinct`` games is the moves of several records,
which differ in their players (300), dates (two years), ids and the site's flags. A few
records are left out by the raters' checks (unrated, a player without a user id, an id seen
before, fewer than three rounds) and a few claim the loser won, so the check has notes to
write.

Then, interleaved, ``--runs`` times each: ``arbiter ratings --compat abstractplay --json``
(the installed ``arbiter`` next to this Python; by default its check's replays shared among
one process per core), the same with ``--jobs 1`` (one process does it all), the same with
``--no-check`` (the Pletore records rated are then not adjudicated), and, given the build of
``AbstractPlay/recranks``
(``--recranks DIR`` or ``ARBITER_RECRANKS``), ``node bench/abstractplay_rate.cjs DIR FILE`` running
that build's raters over the same pools and periods as the site's daily job (one process,
one thread). Without it the node side is skipped, and said. Each command's wall time is
given as the median and the range of the runs, with the processor time it used (user and
system, its workers included); the load average is said before and after, since other work
on the machine slows every side. The outputs with and without ``--jobs 1`` must be the same
bytes; arbiter's and node's are then compared: the same pools, games, players, wins, losses
and draws, and every rating within ``1e-9`` (relative) of node's.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import platform
import random
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import arbiter
from arbiter.adjudicator.abstractplay import abstractplay_object

HERE = Path(__file__).resolve().parent
DRIVER = HERE / "abstractplay_rate.cjs"
TOLERANCE = 1e-9
SIZES = (11, 11, 13, 9)
PLAYERS = 300
START = datetime(2024, 1, 1, tzinfo=UTC)
SPAN_SECONDS = 730 * 86400


def played(rng: random.Random, size: int) -> dict[str, Any]:
    """One real game as an Abstract Play record: random legal moves until the rules end
    it, or, one time in ten, until the player to move resigns after at least ten turns."""
    game = arbiter.Game("Pletore", size=size, komi=rng.randrange(-3, 8))
    resign_at = rng.randrange(10, size * size) if rng.random() < 0.1 else None
    while not game.is_over() and game.ply != resign_at:
        game.play(rng.choice(list(game.legal_moves())))
    result = None
    if not game.is_over():
        winner = "White" if game.to_move == "Black" else "Black"
        result = f"{winner}+R"
    record = game.record(players={"Black": "?", "White": "?"}, result=result)
    return abstractplay_object(record)


def records(count: int, distinct: int, seed: int) -> list[dict[str, Any]]:
    """``count`` records made from ``distinct`` games, the same for the same arguments."""
    rng = random.Random(seed)
    games = [played(rng, rng.choice(SIZES)) for _ in range(distinct)]
    users = [f"u{n:04d}" for n in range(PLAYERS)]
    made = []
    for n in range(count):
        value = json.loads(json.dumps(rng.choice(games)))
        header = value["header"]
        end = START + timedelta(seconds=rng.randrange(SPAN_SECONDS))
        started = end - timedelta(seconds=rng.randrange(86400))
        header["date-start"] = started.strftime("%Y-%m-%dT%H:%M:%S.000Z")
        header["date-end"] = end.strftime("%Y-%m-%dT%H:%M:%S.000Z")
        header["date-generated"] = "2026-11-01T00:00:00.000Z"
        header["site"] = {"name": "Abstract Play", "gameid": f"g{n}"}
        for player, user in zip(header["players"], rng.sample(users, 2), strict=True):
            player["name"] = player["userid"] = user
        _oddity(rng, value, n)
        made.append(value)
    return made


def _oddity(rng: random.Random, value: dict[str, Any], n: int) -> None:
    """One record in twenty gets what the checks or the adjudication answer."""
    header, draw = value["header"], rng.random()
    if draw < 0.01:
        header["unrated"] = True
    elif draw < 0.02:
        del header["players"][1]["userid"]
    elif draw < 0.03:
        header["site"]["gameid"] = f"g{rng.randrange(n + 1)}"
    elif draw < 0.04:
        value["moves"] = value["moves"][:2]
    elif draw < 0.05:  # the loser claimed the win: arbiter's check has a note to write
        for player in header["players"]:
            player["result"] = 1 - player["result"]


def timed(command: list[str], out: Path) -> tuple[float, float]:
    """The wall time of ``command`` and the processor time it used (user and system, the
    processes it waited for included), its standard output in ``out``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    began = time.perf_counter()
    with out.open("wb") as stream:
        done = subprocess.run(command, stdout=stream, stderr=subprocess.DEVNULL)
    elapsed = time.perf_counter() - began
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode not in (0, 1):  # 1: some records left out, which is expected here
        raise SystemExit(f"{command[0]} failed with status {done.returncode}")
    used = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    return elapsed, used


def worst_differences(ours: dict[str, Any], theirs: dict[str, Any]) -> dict[str, float]:
    """The largest relative difference of each figure; raises SystemExit where the two
    differ in anything else (pools, games, players, counts)."""
    pools = [p["pool"] for p in ours["pools"]]
    if pools != [p["pool"] for p in theirs["pools"]]:
        raise SystemExit(f"the pools differ: {pools} against node's")
    worst: dict[str, float] = {}
    for a, b in zip(ours["pools"], theirs["pools"], strict=True):
        if a["rated"] != b["rated"] or len(a["players"]) != len(b["players"]):
            raise SystemExit(f"{a['pool']}: the games or the players rated differ")
        for x, y in zip(a["players"], b["players"], strict=True):
            for key in ("player", "games", "wins", "losses", "draws"):
                if x[key] != y[key]:
                    raise SystemExit(f"{a['pool']}: {key} {x[key]!r} against node's {y[key]!r}")
            for key, mine, node in _figures(x, y):
                difference = abs(mine - node) / max(1.0, abs(node))
                worst[key] = max(worst.get(key, 0.0), difference)
    return worst


def _figures(x: dict[str, Any], y: dict[str, Any]) -> list[tuple[str, float, float]]:
    found = [("elo", x["elo"], y["elo"])]
    found += [
        (f"glicko.{k}", x["glicko"][k], y["glicko"][k]) for k in ("rating", "rd", "volatility")
    ]
    found += [(f"trueskill.{k}", x["trueskill"][k], y["trueskill"][k]) for k in ("mu", "sigma")]
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--records", type=int, default=30_000)
    parser.add_argument("--distinct", type=int, default=1_500, help="distinct games played")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument(
        "--recranks",
        default=os.environ.get("ARBITER_RECRANKS"),
        help="a build of AbstractPlay/recranks (npm ci && npm run build-ts in a clone)",
    )
    options = parser.parse_args(argv)
    installed = Path(sys.executable).with_name("arbiter")
    ours = [str(installed)] if installed.exists() else [sys.executable, "-m", "arbiter"]
    node = shutil.which("node")
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(
        f"{time.strftime('%Y-%m-%d')}, {platform.machine()}, {os.cpu_count()} cores, load "
        f"{load:.1f}; Python {platform.python_version()}, arbiter {arbiter.__version__}"
    )
    with tempfile.TemporaryDirectory(prefix="bench-ratings-") as work:
        path = Path(work) / "records.json"
        began = time.perf_counter()
        made = records(options.records, options.distinct, options.seed)
        data = json.dumps(made, separators=(",", ":")).encode()
        path.write_bytes(data)
        print(
            f"{len(made):,} records ({options.distinct:,} distinct games), "
            f"{len(data) / 1e6:.1f} MB, "
            f"sha256 {hashlib.sha256(data).hexdigest()[:16]}, made in "
            f"{time.perf_counter() - began:.0f} s"
        )
        rate = [*ours, "ratings", "--compat", "abstractplay", "--json"]
        commands = {
            "arbiter (check)": [*rate, str(path)],
            "arbiter --jobs 1": [*rate, "--jobs", "1", str(path)],
            "arbiter --no-check": [*rate, "--no-check", str(path)],
        }
        recranks: str | None = options.recranks
        compare = recranks is not None and node is not None
        if recranks is not None and node is not None:
            build = str(Path(recranks).resolve())
            commands["node (recranks)"] = [node, str(DRIVER), build, str(path)]
        else:
            why = "no node" if node is None else "no --recranks DIR nor ARBITER_RECRANKS"
            print(f"node's side skipped: {why}")
        times: dict[str, list[float]] = {name: [] for name in commands}
        used: dict[str, list[float]] = {name: [] for name in commands}
        outputs = {name: Path(work) / f"out-{n}.json" for n, name in enumerate(commands)}
        for _ in range(options.runs):
            for name, command in commands.items():
                wall, processor = timed(command, outputs[name])
                times[name].append(wall)
                used[name].append(processor)
        load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
        for name, found in times.items():
            print(f"{name:>20}: median {statistics.median(found):.2f} s, "
                  f"{min(found):.2f} to {max(found):.2f} s ({options.runs} runs); processor "
                  f"time {statistics.median(used[name]):.2f} s")  # fmt: skip
        print(f"load {load:.1f} at the end")
        if outputs["arbiter --jobs 1"].read_bytes() != outputs["arbiter (check)"].read_bytes():
            raise SystemExit("--jobs 1 changed the output")
        checked = json.loads(outputs["arbiter (check)"].read_bytes())
        unchecked = json.loads(outputs["arbiter --no-check"].read_bytes())
        if checked["pools"] != unchecked["pools"]:
            raise SystemExit("the check changed the ratings")
        print(f"notes written by the check: {len(checked['notes'])}; records left out: "
              f"{len(checked['excluded'])}")  # fmt: skip
        if not compare:
            return 0
        worst = worst_differences(checked, json.loads(outputs["node (recranks)"].read_bytes()))
        players = sum(len(p["players"]) for p in checked["pools"])
        largest = max(worst.values(), default=0.0)
        print(f"{len(checked['pools'])} pools, {players} players: the same games, wins, losses "
              f"and draws; largest relative difference {largest:.1e}")  # fmt: skip
        for key, value in worst.items():
            print(f"  {key:>18}: {value:.1e}")
        if largest > TOLERANCE:
            print(f"over the tolerance of {TOLERANCE:.0e}")
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
