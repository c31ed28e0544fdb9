"""Benchmark of the diagrams (``docs/performance.md``, "Diagrams"): drawing one position, replaying
a long record into its plies, and the viewer's answer for it.

For each game, on its largest board (19×19; Pilare 8×8), a random legal game of up to 400
plies is played by the engines (seeded, so every run draws the same games). Then, in this
process and on one core: the time to draw its last position as SVG (best of ``--repeat``
runs; Pletore also with its control marks), the time to replay it into its plies, and the
size and time of ``POST /api/v1/positions?svg=true&control=true`` for it (through the app's
test client: no network). Run: ``.venv/bin/python bench/diagrams.py``.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable
from functools import partial

from arbiter.adjudicator import get_rules
from arbiter.diagram import frames
from arbiter.diagram.svg import Options, render
from arbiter.notation.ast import Record, Turn
from arbiter.notation.games import all_games
from arbiter.notation.grn_writer import write_grn
from arbiter.service.web import create_app

MAX_PLIES = 400


def random_record(game: str, size: int, rng: random.Random) -> Record:
    """A random legal game of ``game``, to its end or :data:`MAX_PLIES`."""
    rules = get_rules(game)
    komi = 6 if rules.description.komi else None
    state = rules.initial_state(size, komi=komi)
    turns: list[Turn] = []
    while len(turns) < MAX_PLIES and (move := rules.random_move(state, rng.choice)) is not None:
        state = rules.play(state, move)
        turns.append(Turn(getattr(state, "last_move", None) or move))
    return Record(game=game, size=size, komi=komi, turns=tuple(turns))


def best(call: Callable[[], object], repeat: int) -> float:
    """The fastest of ``repeat`` runs of ``call``, in seconds."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        call()
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").partition("\n")[0])
    parser.add_argument("--repeat", type=int, default=50, help="runs per figure (best kept)")
    args = parser.parse_args()
    rng = random.Random(2026)
    client = create_app({"TESTING": True}).test_client()
    client.post("/api/v1/positions", data=b'[Game "Pilo"]\n[Size "3"]\n\n*')  # warm up
    print(
        "| game (size) | plies | pieces at the end | SVG of the last ply | with control |"
        " replay into plies | viewer's answer |"
    )
    print("|---|---|---|---|---|---|---|")
    for game in all_games():
        size = game.max_size
        record = random_record(game.name, size, rng)
        found = frames(record)
        last = found.at()
        pieces = sum(bool(cell) for row in last.position.grid for cell in row)
        plain = best(partial(render, last), args.repeat)
        control = (
            f"{best(partial(render, last, Options(control=True)), args.repeat) * 1000:.2f} ms"
            if last.control() is not None
            else "—"
        )
        replay = best(partial(frames, record), max(3, args.repeat // 10))
        body = write_grn(record).encode()
        start = time.perf_counter()
        answer = client.post(
            "/api/v1/positions?svg=true&control=true", data=body, content_type="text/plain"
        )
        served = time.perf_counter() - start
        print(
            f"| {game.name} ({size}×{size}) | {len(record.turns)} | {pieces} | "
            f"{plain * 1000:.2f} ms | {control} | {replay * 1000:.0f} ms | "
            f"{len(answer.data) / 1e6:.2f} MB in {served:.2f} s |"
        )


if __name__ == "__main__":
    main()
