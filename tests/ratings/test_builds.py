"""Both builds rate alike: ``arbiter ratings --json`` run on the checkout's pure-Python code
and on the installed wheel (its ``ratings/maths.py`` compiled by mypyc where a C compiler is
present) prints the same bytes, in both modes, on a few hundred generated records: random
legal games of every game (arbiter's own mode) and Abstract Play records of random Pletore
games (``--compat abstractplay``)."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from arbiter.adjudicator import get_rules
from arbiter.adjudicator.abstractplay import abstractplay_object
from arbiter.notation.ast import Record, Tag, Turn
from arbiter.notation.grn_writer import write_record
from tests.strategies import GAME_NAMES, small_sizes

pytestmark = pytest.mark.checkout_only  # compares the checkout with the wheel

ROOT = Path(__file__).resolve().parents[2]
NAMES = [f"player-{n:02}" for n in range(12)]


def played(rng: random.Random, game: str, size: int, date: str) -> Record:
    """A random legal game between two of :data:`NAMES`, finished or resigned."""
    rules = get_rules(game)
    komi = rng.randint(-4, 4) if rules.description.komi else None
    state, turns = rules.initial_state(size, komi=komi), []
    while len(turns) < 60 and (move := rules.random_move(state, rng.choice)):
        state = rules.play(state, move)
        turns.append(Turn(rules.written(state, move)))
    outcome = rules.outcome(state)
    colours = rules.colours
    result = outcome.result(colours) if outcome else f"{rng.choice(colours)}+R"
    players = tuple(zip(colours, rng.sample(NAMES, 2), strict=True))
    return Record(game=rules.name, size=size, komi=komi, players=players,
                  tags=(Tag("Date", date),), turns=tuple(turns), result=result)  # fmt: skip


def corpus(folder: Path) -> list[Path]:
    rng = random.Random(20261128)
    dates = [f"2025.{month:02}.{day:02}" for month in range(1, 13) for day in (3, 17)]
    own = [
        played(rng, game, rng.choice(small_sizes(game)), rng.choice(dates))
        for game in GAME_NAMES
        for _ in range(40)
    ]
    downloads = []
    for n in range(160):
        value = abstractplay_object(played(rng, "Pletore", rng.choice((5, 7)), rng.choice(dates)))
        value["header"]["site"]["gameid"] = str(rng.randrange(150))  # some seen before
        for player in value["header"]["players"]:
            player["userid"] = player["name"]
        value["header"]["date-end"] = f"2025-{1 + n % 12:02}-{1 + n % 28:02}T10:00:00.000Z"
        downloads.append(value)
    (folder / "own.grn").write_text("\n".join(map(write_record, own)), encoding="utf-8")
    (folder / "site.json").write_text(json.dumps(downloads), encoding="utf-8")
    return [folder / "own.grn", folder / "site.json"]


def ratings(args: list[str], site: Path | None, cwd: Path) -> str:
    env = dict(os.environ)
    if site is not None:
        env["PYTHONPATH"] = str(site)
    done = subprocess.run([sys.executable, "-m", "arbiter", "ratings", "--json", *args],
                          cwd=cwd, env=env, capture_output=True, text=True, timeout=300,
                          check=False)  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


@pytest.mark.parametrize("mode", [[], ["--compat", "abstractplay"]], ids=["own", "compat"])
def test_both_builds_print_the_same_ratings(
    mode: list[str], installed: Path, tmp_path: Path
) -> None:
    paths = [str(path) for path in corpus(tmp_path)]
    if mode:
        paths = paths[1:]  # Abstract Play's mode reads Pletore only: the site's records
    pure = ratings([*mode, *paths], None, ROOT)
    document = json.loads(pure)
    assert sum(pool["rated"] for pool in document["pools"]) > 100
    assert ratings([*mode, *paths], installed, tmp_path) == pure
