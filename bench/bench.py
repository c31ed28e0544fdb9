"""Benchmark: parse and adjudicate large corpora of random legal games, on one core and with
worker processes, side by side with python-chess reading PGN (``--compare-chess``).

Run with ``make bench`` or ``.venv/bin/python bench/bench.py --help``. Corpora are generated
with the engines themselves (moves drawn from the legal moves) and cached under bench/out/.
"""

from __future__ import annotations

import argparse
import io
import os
import random
import resource
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

from arbiter.adjudicator import get_rules
from arbiter.adjudicator.replay import adjudicate
from arbiter.notation.ast import Record, Turn
from arbiter.notation.games import find_game
from arbiter.notation.grn_reader import read_grn
from arbiter.notation.grn_writer import write_record
from arbiter.service.parallel import parallel_reports

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "bench" / "out"
CORPORA = [
    ("Pilo", 8, None),
    ("Petrify", 8, None),
    ("Pletore", 9, 6),
    ("Implo", 8, None),
    ("Pilare", 8, None),
]
TARGETS = {"Pilo": 2.0, "Petrify": 2.0, "Pletore": 2.0, "Implo": 1.0, "Pilare": 1.0}
MAX_PLIES = 400


def random_record(game: str, size: int, komi: int | None, rng: random.Random, index: int) -> str:
    """One random legal game as canonical GRN, its result claimed as the adjudicator sees it."""
    rules = get_rules(game)
    state = rules.initial_state(size, komi=komi)
    turns: list[Turn] = []
    while len(turns) < MAX_PLIES and (move := rules.random_move(state, rng.choice)) is not None:
        state = rules.play(state, move)
        turns.append(Turn(getattr(state, "last_move", None) or move))
    outcome = rules.outcome(state)
    colours = find_game(game).colours
    record = Record(
        game=game,
        size=size,
        komi=komi,
        turns=tuple(turns),
        players=(
            (colours[0], f"player-{index % 50:02d}"),
            (colours[1], f"player-{(index + 7) % 50:02d}"),
        ),
        result=outcome.result(colours) if outcome else "*",
    )
    return write_record(record)


def corpus(game: str, size: int, komi: int | None, count: int) -> Path:
    """The cached corpus file of ``count`` random games (generated on first use)."""
    OUT.mkdir(parents=True, exist_ok=True)
    path = OUT / f"{game.lower()}-{size}-{count}.grn"
    if not path.exists():
        rng = random.Random(f"{game}-{size}-{count}")
        text = "\n".join(random_record(game, size, komi, rng, i) for i in range(count))
        path.write_text(text, encoding="utf-8")
    return path


REPEAT = 3


def timed(work: Callable[[], int]) -> tuple[float, int]:
    """The best time of REPEAT runs of ``work`` (the least disturbed by the rest of the
    machine), and what the work counted."""
    best = float("inf")
    for _ in range(REPEAT):
        start = time.perf_counter()
        count = work()
        best = min(best, time.perf_counter() - start)
    return best, count


def measure(path: Path, jobs: int) -> dict[str, float]:
    data = path.read_bytes()
    plies = sum(r.plies for r in (adjudicate(x) for x in read_grn(data)))
    records = sum(1 for _ in read_grn(data))
    parse_s, _ = timed(lambda: sum(1 for _ in read_grn(data)))
    full_s, _ = timed(lambda: sum(1 for x in read_grn(data) if adjudicate(x).valid))
    jobs_s, _ = timed(lambda: sum(1 for _ in parallel_reports([str(path)], jobs)))
    return {
        "records": records,
        "plies": plies,
        "parse_s": parse_s,
        "full_s": full_s,
        "jobs_s": jobs_s,
    }


def chess_rate(count: int, plies: int = 100) -> float:
    """python-chess ``read_game`` plies/s on ``count`` random games of about ``plies`` plies."""
    import chess
    import chess.pgn

    path = OUT / f"chess-{count}.pgn"
    OUT.mkdir(parents=True, exist_ok=True)
    if not path.exists():
        rng = random.Random(count)
        games = []
        for _ in range(count):
            board = chess.Board()
            while board.ply() < plies and not board.is_game_over():
                board.push(rng.choice(list(board.legal_moves)))
            games.append(str(chess.pgn.Game.from_board(board)))
        path.write_text("\n\n".join(games) + "\n", encoding="utf-8")
    text = path.read_text(encoding="utf-8")

    def read_all() -> int:
        stream, total = io.StringIO(text), 0
        while (game := chess.pgn.read_game(stream)) is not None:
            total += sum(1 for _ in game.mainline_moves())
        return total

    seconds, total = timed(read_all)
    return total / seconds


def memory_check(megabytes: int) -> tuple[float, float]:
    """Max resident memory (MiB) of ``arbiter adjudicate --json`` on a file of that size."""
    big = OUT / f"big-{megabytes}mb.grn"
    if not big.exists():
        piece = corpus("Pilo", 8, None, 200).read_text(encoding="utf-8") + "\n"
        with big.open("w", encoding="utf-8") as out:
            for _ in range(megabytes * 1024 * 1024 // len(piece.encode()) + 1):
                out.write(piece)
    arbiter = Path(sys.executable).with_name("arbiter")
    start = time.perf_counter()
    subprocess.run(
        [str(arbiter), "adjudicate", "--json", str(big)], stdout=subprocess.DEVNULL, check=False
    )
    seconds = time.perf_counter() - start
    rss_kib = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    return rss_kib / 1024, seconds


def main() -> None:
    global REPEAT
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--records", type=int, default=2000)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--games", default=",".join(g for g, _, _ in CORPORA))
    parser.add_argument("--compare-chess", action="store_true")
    parser.add_argument(
        "--repeat", type=int, default=REPEAT, help="runs per measurement; the best is kept"
    )
    parser.add_argument(
        "--memory-mb",
        type=int,
        default=0,
        help="also adjudicate a generated file of this many MB and report RSS",
    )
    args = parser.parse_args()
    wanted = {g.strip().lower() for g in args.games.split(",")}
    REPEAT = args.repeat
    chess = chess_rate(args.records) if args.compare_chess else None
    print(f"machine: {os.cpu_count()} cores, Python {sys.version.split()[0]}")
    if chess:
        print(f"python-chess read_game: {chess:,.0f} plies/s")
    header = (
        f"{'game':<8} {'size':>4} {'records':>7} {'plies':>8} {'parse rec/s':>11} "
        f"{'parse ply/s':>11} {'full rec/s':>10} {'full ply/s':>10} "
        f"{'jobs x':>6} {'adj/parse':>9}"
    )
    print(header + (f" {'vs chess':>8} {'target':>6}" if chess else ""))
    for game, size, komi in CORPORA:
        if game.lower() not in wanted:
            continue
        path = corpus(game, size, komi, args.records)
        m = measure(path, args.jobs)
        full_rate = m["plies"] / m["full_s"]
        adjudication_s = m["full_s"] - m["parse_s"]
        row = (
            f"{game:<8} {size:>4} {m['records']:>7.0f} {m['plies']:>8.0f} "
            f"{m['records'] / m['parse_s']:>11,.0f} {m['plies'] / m['parse_s']:>11,.0f} "
            f"{m['records'] / m['full_s']:>10,.0f} {full_rate:>10,.0f} "
            f"{m['full_s'] / m['jobs_s']:>6.2f} {adjudication_s / m['parse_s']:>9.2f}"
        )
        if chess:
            ratio = full_rate / chess
            verdict = "ok" if ratio >= TARGETS[game] else "MISS"
            row += f" {ratio:>7.2f}x {TARGETS[game]:>4.1f}x {verdict}"
        print(row, flush=True)
    if args.memory_mb:
        rss, seconds = memory_check(args.memory_mb)
        print(f"adjudicate --json on {args.memory_mb} MB: max RSS {rss:.0f} MiB, {seconds:.1f} s")


if __name__ == "__main__":
    main()
