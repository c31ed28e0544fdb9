"""The compiled build behaves exactly as the pure-Python code it is compiled from.

``pip install`` compiles the modules listed in ``setup.py`` with mypyc where a C compiler is
present, and builds the C modules ``arbiter._tuples``, ``arbiter._implo`` and
``arbiter._pilare`` (``make bench`` measures that build).
The suite runs on the pure-Python modules; this test runs the installed wheel and the
repository's code side by side on the same records (every sample, random legal games of
every game, and broken copies of them) and compares what each prints, byte for byte.
"""

from __future__ import annotations

import os
import random
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from arbiter.adjudicator import get_rules
from arbiter.notation.ast import Record, Turn
from arbiter.notation.grn_writer import write_record
from fuzz.differential import compare
from tests.strategies import GAME_NAMES, small_sizes

pytestmark = pytest.mark.checkout_only  # compares the checkout with the wheel

ROOT = Path(__file__).resolve().parents[1]
RUN = """
import sys, json, arbiter, pathlib
for path in sys.argv[1:]:
    for item in arbiter.read_records(pathlib.Path(path)):
        if isinstance(item, arbiter.RecordError):
            print(path, item.index, item.code, item.message, item.line, item.column)
            continue
        report = arbiter.adjudicate(item)
        print(json.dumps(report.to_dict(), ensure_ascii=False, sort_keys=False))
        try:
            game = arbiter.Game(item.game, item.size, komi=item.komi, setup=item.setup)
            for turn in item.turns:
                game.play(turn.move)
        except (arbiter.RecordError, ValueError) as err:
            print(type(err).__name__, err)
            continue
        print(game.to_move, str(game.position), sorted(map(str, game.legal_moves()))[:50])
"""


def compiler() -> str | None:
    return shutil.which(os.environ.get("CC", "cc")) or shutil.which("gcc")


def corpus(folder: Path) -> list[Path]:
    """Random legal games of every game and size, and copies broken in a few ways."""
    rng = random.Random(20261122)
    good, broken = [], []
    for game in GAME_NAMES:
        rules = get_rules(game)
        for size in small_sizes(game):
            komi = rng.randint(-4, 4) if rules.description.komi else None
            state, turns = rules.initial_state(size, komi=komi), []
            while len(turns) < 120 and (move := rules.random_move(state, rng.choice)):
                state = rules.play(state, move)
                turns.append(Turn(rules.written(state, move)))
            outcome = rules.outcome(state)
            record = Record(game=rules.name, size=size, komi=komi, turns=tuple(turns),
                            result=outcome.result(rules.colours) if outcome else "*")  # fmt: skip
            text = write_record(record)
            good.append(text)
            words = text.split(" ")
            cut = rng.randrange(len(words))
            broken.append(" ".join(words[:cut] + words[cut + 1 :]))  # a move left out
            broken.append(text.replace("[Result", '[Round "1"]\n[Result', 1) + "d4 {")
    (folder / "good.grn").write_text("\n".join(good), encoding="utf-8")
    (folder / "broken.grn").write_text("\n".join(broken), encoding="utf-8")
    return [folder / "good.grn", folder / "broken.grn", *sorted(ROOT.glob("samples/*/*/*.*"))]


def run(paths: list[Path], site: Path | None, cwd: Path) -> str:
    env = dict(os.environ)
    if site is not None:
        env["PYTHONPATH"] = str(site)
    done = subprocess.run([sys.executable, "-c", RUN, *map(str, paths)], cwd=cwd, env=env,
                          capture_output=True, text=True, check=False)  # fmt: skip
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_the_compiled_build_prints_what_the_pure_code_prints(
    wheel: Path, installed: Path, tmp_path: Path
) -> None:
    compiled = [name for name in zipfile.ZipFile(wheel).namelist() if name.endswith(".so")]
    if compiler() is None:
        pytest.skip("no C compiler: the wheel holds the pure-Python modules alone")
    assert compiled, "a C compiler is here, yet the wheel holds no compiled module"
    for module in ("_tuples", "_implo", "_pilare"):  # the modules written in C
        assert any(name.startswith(f"arbiter/{module}.") for name in compiled), f"no {module}"
    paths = [path for path in corpus(tmp_path) if not path.name.endswith(".expected.json")]
    pure = run(paths, None, ROOT)
    assert run(paths, installed, tmp_path) == pure
    assert pure.count("\n") > 150  # every record printed something


def test_the_compiled_build_gives_the_same_reports_with_jobs(
    wheel: Path, installed: Path, tmp_path: Path
) -> None:
    # Records cross to worker processes pickled: a compiled class must pickle as the pure one.
    if compiler() is None:
        pytest.skip("no C compiler: the wheel holds the pure-Python modules alone")
    paths = [str(path) for path in corpus(tmp_path) if not path.name.endswith(".expected.json")]
    env = {**os.environ, "PYTHONPATH": str(installed)}
    command = [sys.executable, "-m", "arbiter", "adjudicate", "--json", "--quiet", *paths]
    one = subprocess.run(command, cwd=tmp_path, env=env, capture_output=True, text=True,
                         timeout=300, check=False)  # fmt: skip
    two = subprocess.run([*command, "--jobs", "2"], cwd=tmp_path, env=env, capture_output=True,
                         text=True, timeout=300, check=False)  # fmt: skip
    assert (two.returncode, two.stderr) == (one.returncode, ""), two.stderr[-2000:]
    assert two.stdout == one.stdout and one.stdout.count("\n") > 100


VALUES = """
import pickle, arbiter
from arbiter.notation.ast import Flip, Place, Point
record = next(iter(arbiter.read_records(b'[Game "Pilo"]\\n[Size "6"]\\n\\n1. c3 d4 *\\n')))
report = arbiter.adjudicate(record)
print(pickle.loads(pickle.dumps(record)) == record, record.replace() == record)
print(pickle.loads(pickle.dumps(report)) == report, Place(Point(2, 2)) == Flip(Point(2, 2)))
print(repr(record.turns[0].move), repr(report).split(", size")[0])
for value, name in ((record, "game"), (record.turns[0].move, "at"), (Point(1, 1), "file")):
    try:
        setattr(value, name, None)
        print("changed", type(value).__name__)
    except AttributeError:
        print("refused", type(value).__name__)
"""


def test_the_compiled_value_classes_compare_pickle_and_refuse_changes(
    wheel: Path, installed: Path, tmp_path: Path
) -> None:
    # The value classes (notation/plain.py) are immutable by their Final fields: mypy
    # refuses an assignment in the code, and the compiled build refuses one at run time.
    if compiler() is None:
        pytest.skip("no C compiler: the wheel holds the pure-Python modules alone")
    env = {**os.environ, "PYTHONPATH": str(installed)}
    done = subprocess.run([sys.executable, "-c", VALUES], cwd=tmp_path, env=env,
                          capture_output=True, text=True, check=False)  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [
        "True True",
        "True False",
        "Place(at=Point.parse('c3')) Report(file=None, index=0, game='Pilo'",
        "refused Record",
        "refused Place",
        "refused Point",
    ]


def test_the_builds_agree_on_fuzz_inputs(installed: Path) -> None:
    # The same inputs of the fuzz harness (long runs and Setup shapes among them) through
    # both builds: every report, conversion and error identical (make fuzz: 30,000 inputs).
    if compiler() is None:
        pytest.skip("no C compiler: the wheel holds the pure-Python modules alone")
    records, differences = compare(1_500, 20261125, installed)
    assert records > 1_500
    assert not differences, "\n".join(differences[:5])
