"""Benchmark arbiter as a user runs it, side by side with python-chess, in one run.

For each game it writes one archive file of random legal games (played by the engines,
moves drawn at random from the legal ones) holding as many plies as a python-chess corpus of
random legal games (800 games, each stopped after 100 plies or at its end), then times, on
one core, interleaved, the median of several runs:

- whole process: ``arbiter adjudicate --json ARCHIVE.grn > /dev/null`` against
  ``python bench/chess_read.py CORPUS.pgn`` (``chess.pgn.read_game`` on every game, which
  checks every move's legality), both started from scratch;
- in process: reading and adjudicating the archive against ``read_game`` on the corpus;
- start-up: ``arbiter adjudicate --json`` on one small record;
- ``--jobs 2`` against ``--jobs 1`` on a large archive (``--jobs-mb``, 100 MB by default).

Run it with ``make bench``, which installs the package as a user gets it (a wheel, with the
compiled modules where a C compiler is present) in ``.venv-bench`` and writes the table into
``docs/performance.md``. Corpora are cached under ``bench/out/``.
"""

from __future__ import annotations

import argparse
import datetime
import io
import os
import platform
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import arbiter
from arbiter.adjudicator import get_rules
from arbiter.notation.ast import Record, Turn
from arbiter.notation.grn_reader import read_grn
from arbiter.notation.grn_writer import write_record

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "bench" / "out"
CORPORA = [
    ("Pilo", 8, None),
    ("Petrify", 8, None),
    ("Pletore", 9, 6),
    ("Implo", 8, None),
    ("Pilare", 8, None),
]
WHOLE_TARGET = 5.0
"""Each game's whole-process plies/s is to be at least this many times python-chess's; the
table marks a game below it."""
MAX_PLIES = 400
CHESS_GAMES = 800
CHESS_PLIES = 100
BEGIN, END = "<!-- bench:begin -->", "<!-- bench:end -->"


@dataclass(frozen=True)
class Row:
    game: str
    size: int
    records: int
    plies: int
    whole: float  # plies/s, whole process
    in_process: float  # plies/s


def main(argv: Sequence[str] | None = None) -> None:
    args = _arguments(argv)
    OUT.mkdir(parents=True, exist_ok=True)
    startup = start_up(args.repeat)  # first, while this process is small: it forks each run
    chess_path, chess_plies = chess_corpus(args.chess_games)
    corpora = {game: corpus(game, size, komi, chess_plies) for game, size, komi in CORPORA
               if game.lower() in args.games}  # fmt: skip
    print(f"{machine()}; arbiter {arbiter.__version__} ({build()}), repeat {args.repeat}")
    print(f"python-chess corpus: {args.chess_games} random games, {chess_plies:,} plies")
    whole = whole_process(chess_path, corpora, args.repeat)
    chess_whole = chess_plies / whole["chess"]
    chess_in = chess_plies / in_process_chess(chess_path, args.repeat)
    rows = []
    for game, (path, records, plies) in corpora.items():
        size = next(size for name, size, _ in CORPORA if name == game)
        rows.append(Row(game, size, records, plies, plies / whole[game],
                        plies / in_process_arbiter(path, args.repeat)))  # fmt: skip
    table = render(rows, chess_whole, chess_in, startup, chess_plies, args)
    jobs = jobs_speedup(args.jobs_mb, args.jobs) if args.jobs_mb else None
    if jobs is not None:
        table += f"\n`--jobs {args.jobs}` on a {args.jobs_mb} MB archive: {jobs:.2f}× `--jobs 1`.\n"
    print(table)
    if args.readme:
        write_readme(Path(args.readme), table)


def _arguments(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=5, help="runs per figure (median)")
    parser.add_argument("--chess-games", type=int, default=CHESS_GAMES)
    parser.add_argument("--games", default=",".join(g for g, _, _ in CORPORA))
    parser.add_argument("--jobs-mb", type=int, default=100, help="0: skip the --jobs run")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--readme", help="write the table into this file, between markers")
    args = parser.parse_args(argv)
    args.games = {name.strip().lower() for name in args.games.split(",")}
    return args


# --- corpora ------------------------------------------------------------------------------


def chess_corpus(games: int) -> tuple[Path, int]:
    """The PGN corpus of random legal chess games, and its number of plies."""
    import chess  # pyright: ignore[reportMissingImports]
    import chess.pgn  # pyright: ignore[reportMissingImports]

    path = OUT / f"chess-{games}-{CHESS_PLIES}.pgn"
    if not path.exists():
        rng = random.Random(f"chess-{games}")
        texts = []
        for _ in range(games):
            board = chess.Board()
            while board.ply() < CHESS_PLIES and not board.is_game_over():
                board.push(rng.choice(list(board.legal_moves)))
            texts.append(str(chess.pgn.Game.from_board(board)))
        path.write_text("\n\n".join(texts) + "\n", encoding="utf-8")
    return path, _chess_plies(path)


def _chess_plies(path: Path) -> int:
    import chess.pgn  # pyright: ignore[reportMissingImports]

    total = 0
    with path.open(encoding="utf-8") as stream:
        while (game := chess.pgn.read_game(stream)) is not None:
            total += sum(1 for _ in game.mainline_moves())
    return total


def corpus(game: str, size: int, komi: int | None, plies: int) -> tuple[Path, int, int]:
    """An archive of random legal games of ``game`` holding at least ``plies`` plies; its
    path, number of records and plies (generated once, then cached)."""
    path = OUT / f"{game.lower()}-{size}-{plies}.grn"
    if not path.exists():
        rng = random.Random(f"{game}-{size}-{plies}")
        texts, total = [], 0
        while total < plies:
            text, length = random_record(game, size, komi, rng, len(texts))
            texts.append(text)
            total += length
        path.write_text("\n".join(texts), encoding="utf-8")
    records = list(read_grn(path.read_bytes()))
    return path, len(records), sum(len(r.turns) for r in records if isinstance(r, Record))


def random_record(game: str, size: int, komi: int | None, rng: random.Random,
                  index: int) -> tuple[str, int]:  # fmt: skip
    """One random legal game as canonical GRN (its result claimed as the rules give it)."""
    rules = get_rules(game)
    state = rules.initial_state(size, komi=komi)
    turns: list[Turn] = []
    while len(turns) < MAX_PLIES and (move := rules.random_move(state, rng.choice)) is not None:
        state = rules.play(state, move)
        turns.append(Turn(rules.written(state, move)))
    outcome = rules.outcome(state)
    colours = rules.colours
    record = Record(
        game=game, size=size, komi=komi, turns=tuple(turns),
        players=((colours[0], f"player-{index % 50:02d}"),
                 (colours[1], f"player-{(index + 7) % 50:02d}")),
        result=outcome.result(colours) if outcome else "*",
    )  # fmt: skip
    return write_record(record), len(turns)


# --- timing -------------------------------------------------------------------------------


def whole_process(chess_path: Path, corpora: dict[str, tuple[Path, int, int]],
                  repeat: int) -> dict[str, float]:  # fmt: skip
    """Median wall time of each whole process, runs interleaved (chess, then each game)."""
    commands = {"chess": [sys.executable, str(ROOT / "bench" / "chess_read.py"), str(chess_path)]}
    for game, (path, _, _) in corpora.items():
        commands[game] = [arbiter_command(), "adjudicate", "--json", "--quiet", str(path)]
    for game, (_path, records, _) in corpora.items():
        _check(commands[game], records)
    times: dict[str, list[float]] = {name: [] for name in commands}
    for _ in range(repeat):
        for name, command in commands.items():
            times[name].append(_run(command))
    return {name: statistics.median(values) for name, values in times.items()}


def _check(command: list[str], records: int) -> None:
    """Run ``command`` once and make sure it did the work: one valid report per record."""
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    lines = done.stdout.splitlines()
    if done.returncode != 0 or len(lines) != records or '"valid": false' in done.stdout:
        raise SystemExit(f"{' '.join(command)} failed ({done.returncode}): {done.stderr[-2000:]}")


def _run(command: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run(command, stdout=subprocess.DEVNULL, check=False, preexec_fn=_one_core)
    return time.perf_counter() - start


def _one_core() -> None:
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})


def arbiter_command() -> str:
    return str(Path(sys.executable).with_name("arbiter"))


def in_process_chess(path: Path, repeat: int) -> float:
    import chess.pgn  # pyright: ignore[reportMissingImports]

    text = path.read_text(encoding="utf-8")

    def work() -> None:
        stream = io.StringIO(text)
        while (game := chess.pgn.read_game(stream)) is not None:
            for _ in game.mainline_moves():
                pass

    return _median(work, repeat)


def in_process_arbiter(path: Path, repeat: int) -> float:
    data = path.read_bytes()

    def work() -> None:
        for item in arbiter.read_records(data, file=path.name):
            if isinstance(item, Record):
                arbiter.adjudicate(item)

    return _median(work, repeat)


def _median(work: Callable[[], None], repeat: int) -> float:
    """The median time of ``work`` on one core (the process is given back all its cores
    afterwards: the ``--jobs`` run, started later, must have them)."""
    cores = os.sched_getaffinity(0) if hasattr(os, "sched_getaffinity") else None
    _one_core()
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    if cores is not None:
        os.sched_setaffinity(0, cores)
    return statistics.median(times)


def start_up(repeat: int) -> tuple[float, float]:
    """Median wall times of ``arbiter adjudicate --json`` on one small record and of
    ``python -c pass`` (Python's own start, for scale), run in turn, at least 20 each."""
    small = OUT / "one-record.grn"
    small.write_text('[Game "Pletore"]\n[Size "5"]\n[Komi "0"]\n\n1. c3 b4 2. d2 *\n',
                     encoding="utf-8")  # fmt: skip
    command = [arbiter_command(), "adjudicate", "--json", "--quiet", str(small)]
    bare = [sys.executable, "-c", "pass"]
    _run(command)  # the first run may compile bytecode
    runs = [(_run(command), _run(bare)) for _ in range(max(repeat, 20))]
    return statistics.median(a for a, _ in runs), statistics.median(b for _, b in runs)


def jobs_speedup(megabytes: int, jobs: int) -> float:
    """Wall time of ``--jobs 1`` over ``--jobs N`` on an archive of ``megabytes`` MB."""
    big = OUT / f"big-{megabytes}mb.grn"
    if not big.exists():
        piece = corpus("Pilo", 8, None, 20_000)[0].read_text(encoding="utf-8") + "\n"
        with big.open("w", encoding="utf-8") as out:
            for _ in range(megabytes * 1024 * 1024 // len(piece.encode()) + 1):
                out.write(piece)
    one = [arbiter_command(), "adjudicate", "--json", "--quiet", str(big)]
    start = time.perf_counter()
    subprocess.run(one, stdout=subprocess.DEVNULL, check=False)
    single = time.perf_counter() - start
    start = time.perf_counter()
    subprocess.run([*one, "--jobs", str(jobs)], stdout=subprocess.DEVNULL, check=False)
    return single / (time.perf_counter() - start)


# --- reporting ----------------------------------------------------------------------------


def machine() -> str:
    return (f"{datetime.date.today()}, {platform.machine()}, {os.cpu_count()} cores, "
            f"Python {platform.python_version()}")  # fmt: skip


C_MODULES = ("arbiter._tuples", "arbiter._implo", "arbiter._pilare")
"""The modules written in C (``setup.py``), each built where a C compiler is present."""


def build() -> str:
    """Whether the installed package runs compiled modules, and which C modules it has."""
    from importlib.util import find_spec

    from arbiter.adjudicator import replay

    if not replay.__file__.endswith((".so", ".pyd")):
        return "pure Python"
    built = [name for name in C_MODULES if find_spec(name) is not None]
    return "compiled with mypyc" + (f", with {', '.join(built)}" if built else "")


def render(rows: list[Row], chess_whole: float, chess_in: float, startup: tuple[float, float],
           chess_plies: int, args: argparse.Namespace) -> str:  # fmt: skip
    lines = [
        f"Measured by `make bench` on {machine()}; arbiter {arbiter.__version__} "
        f"({build()}); median of {args.repeat} runs, one core, interleaved. python-chess: "
        f"{chess_whole:,.0f} plies/s as a whole process, {chess_in:,.0f} plies/s in process, "
        f"on {args.chess_games} random legal games ({chess_plies:,} plies). Start-up of "
        f"`arbiter adjudicate --json` on one record: {startup[0] * 1000:.0f} ms (`python -c "
        f"pass`: {startup[1] * 1000:.0f} ms).",
        "",
        "| game (size) | records | plies | whole process plies/s | vs python-chess | "
        "in process plies/s | vs python-chess |",
        "|---|---|---|---|---|---|---|",
    ]
    for row in rows:
        whole, inner = row.whole / chess_whole, row.in_process / chess_in
        lines.append(
            f"| {row.game} ({row.size}) | {row.records:,} | {row.plies:,} | {row.whole:,.0f} | "
            f"{whole:.2f}×{'' if whole >= WHOLE_TARGET else f' (below {WHOLE_TARGET:g}×)'} | "
            f"{row.in_process:,.0f} | {inner:.2f}× |"
        )
    return "\n".join(lines) + "\n"


def write_readme(path: Path, table: str) -> None:
    text = path.read_text(encoding="utf-8")
    start, end = text.index(BEGIN) + len(BEGIN), text.index(END)
    path.write_text(text[:start] + "\n" + table + text[end:], encoding="utf-8")


if __name__ == "__main__":
    main()
