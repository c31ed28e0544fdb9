"""python-chess's side of the benchmark: read every game of a PGN file with
``chess.pgn.read_game`` (which plays each move, checking that it is legal) and print the
number of plies. Run as a whole process by ``bench/bench.py``."""

from __future__ import annotations

import sys

import chess.pgn  # pyright: ignore[reportMissingImports]


def main() -> None:
    plies = 0
    with open(sys.argv[1], encoding="utf-8") as stream:
        while (game := chess.pgn.read_game(stream)) is not None:
            plies += sum(1 for _ in game.mainline_moves())
    print(plies)


if __name__ == "__main__":
    main()
