"""``--jobs``: the replays of a rating run shared among forked processes give what one
process gives, byte for byte, in both modes, on real records (random legal games, as
Abstract Play records and as arbiter's own, with records the checks leave out and claims
the check refutes); a failure in a worker is raised in the process of the command."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from arbiter.adjudicator import get_rules
from arbiter.adjudicator.abstractplay import abstractplay_object
from arbiter.notation.ast import Record, Tag, Turn
from arbiter.notation.grn_writer import write_record
from arbiter.ratings import rate, rate_abstractplay, workers
from tests.strategies import GAME_NAMES, small_sizes

ROOT = Path(__file__).resolve().parents[2]
NAMES = [f"p{n:02}" for n in range(16)]
FORKS = "fork" in __import__("multiprocessing").get_all_start_methods()


def played(rng: random.Random, game: str, size: int, date: str) -> Record:
    """A random legal game between two of :data:`NAMES`: finished, resigned, or cut short
    (no result: left out by arbiter's own mode)."""
    rules = get_rules(game)
    komi = rng.randint(-4, 4) if rules.description.komi else None
    state, turns = rules.initial_state(size, komi=komi), []
    while len(turns) < 50 and (move := rules.random_move(state, rng.choice)):
        state = rules.play(state, move)
        turns.append(Turn(rules.written(state, move)))
    outcome = rules.outcome(state)
    colours = rules.colours
    result = outcome.result(colours) if outcome else rng.choice([f"{colours[0]}+R", "*"])
    players = tuple(zip(colours, rng.sample(NAMES, 2), strict=True))
    return Record(game=rules.name, size=size, komi=komi, players=players,
                  tags=(Tag("Date", date),), turns=tuple(turns), result=result)  # fmt: skip


def site_records(rng: random.Random, count: int) -> list[dict[str, Any]]:
    """Abstract Play records of Pletore: some ids seen before, some unrated, some short,
    some whose loser claims the win (the check's notes)."""
    games = []
    while len(games) < 40:
        record = played(rng, "Pletore", rng.choice((5, 7)), "2025.01.01")
        if record.result.startswith(("Black", "White")):
            games.append(abstractplay_object(record))
    made = []
    for n in range(count):
        value = json.loads(json.dumps(rng.choice(games)))
        header = value["header"]
        seen = rng.random() < 0.05  # an id seen before
        header["site"]["gameid"] = f"g{rng.randrange(n + 1) if seen else n}"
        for player, user in zip(header["players"], rng.sample(NAMES, 2), strict=True):
            player["name"] = player["userid"] = user
        header["date-end"] = f"2025-{1 + n % 12:02}-{1 + n % 28:02}T{n % 24:02}:00:00.000Z"
        draw = rng.random()
        if draw < 0.05:
            header["unrated"] = True
        elif draw < 0.1:
            value["moves"] = value["moves"][:2]
        elif draw < 0.2:
            for player in header["players"]:
                player["result"] = 1 - player["result"]
        made.append(value)
    return made


def own_records(rng: random.Random, count: int) -> list[Record]:
    dates = [f"2025.{month:02}.{day:02}" for month in range(1, 13) for day in (3, 17)]
    return [
        played(rng, game, rng.choice(small_sizes(game)), rng.choice(dates))
        for game in GAME_NAMES
        for _ in range(count // len(GAME_NAMES))
    ]


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    folder = tmp_path_factory.mktemp("jobs")
    rng = random.Random(20261129)
    site = folder / "site.json"
    site.write_text(json.dumps(site_records(rng, 600)), encoding="utf-8")
    own = folder / "own.grn"
    own.write_text("\n".join(map(write_record, own_records(rng, 600))), encoding="utf-8")
    return site, own


@pytest.mark.skipif(not FORKS, reason="this system cannot fork: one process does it all")
@pytest.mark.parametrize("jobs", [2, 3])
def test_shared_replays_give_what_one_process_gives(
    corpus: tuple[Path, Path], jobs: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(workers, "SHARED_FROM", 1)
    monkeypatch.setattr(workers, "PARTS_PER_PROCESS", 40)  # many small ranges
    site, own = corpus
    files = [(str(site), site.read_bytes())]
    alone = rate_abstractplay(files, jobs=1)
    assert alone.notes and alone.excluded  # the check and the raters had work to do
    assert rate_abstractplay(files, jobs=jobs) == alone
    files = [(str(own), own.read_bytes())]
    alone = rate(files, jobs=1)
    assert any(e.reason == "no-result" for e in alone.excluded)
    assert rate(files, jobs=jobs) == alone


def command(*args: str) -> tuple[int, str, str]:
    done = subprocess.run([sys.executable, "-m", "arbiter", "ratings", *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=300, check=False)  # fmt: skip
    return done.returncode, done.stdout, done.stderr


@pytest.mark.parametrize("mode", [["--compat", "abstractplay"], []], ids=["compat", "own"])
def test_the_command_prints_the_same_bytes_whatever_its_jobs(
    corpus: tuple[Path, Path], mode: list[str]
) -> None:
    path = str(corpus[0] if mode else corpus[1])
    alone = command(*mode, "--json", "--jobs", "1", path)
    document = json.loads(alone[1])
    replayed = sum(pool["rated"] for pool in document["pools"]) + len(document["excluded"])
    if mode:  # the check replays the records Elo rates
        replayed = sum(pool["rated"] for pool in document["pools"])
    assert replayed >= workers.SHARED_FROM  # enough to be shared
    assert command(*mode, "--json", "--jobs", "2", path) == alone
    assert command(*mode, "--json", path) == alone  # by default: one process per core
    assert (
        command(*mode, "--csv", "-j", "2", path)[1] == command(*mode, "--csv", "-j", "1", path)[1]
    )


def _fails_in_a_worker(parent: int, item: int) -> list[int]:
    if os.getpid() != parent:
        raise ValueError(f"item {item} refused")
    return [item]


def _dies_in_a_worker(parent: int, item: int) -> list[int]:
    if os.getpid() != parent:
        os.kill(os.getpid(), signal.SIGKILL)
    return [item]


def _until_the_worker_takes_a_range() -> None:
    """Keep the process of the command away from the items until the worker took some
    (a deadline only a hang reaches)."""
    counter = workers._WORK[-1][3]
    deadline = time.monotonic() + 60
    while counter.value < 1 and time.monotonic() < deadline:
        time.sleep(0.01)


@pytest.mark.skipif(not FORKS, reason="this system cannot fork: one process does it all")
def test_a_failure_in_a_worker_is_raised_in_the_command() -> None:
    parent = os.getpid()
    items = list(range(workers.SHARED_FROM))
    with pytest.raises(ValueError, match="refused"):
        workers.mapped_beside(lambda item: _fails_in_a_worker(parent, item), items, 2,
                              _until_the_worker_takes_a_range)  # fmt: skip
    with pytest.raises(workers.WorkerLost):
        workers.mapped_beside(lambda item: _dies_in_a_worker(parent, item), items, 2,
                              _until_the_worker_takes_a_range)  # fmt: skip
    assert not workers._WORK  # nothing left for a later run
    assert workers.mapped(lambda item: [item, item], items, 2) == [i for i in items for _ in "ab"]
