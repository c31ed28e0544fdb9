"""Small records the service tests send: one of each kind of outcome."""

from __future__ import annotations

import json

MAX_BODY = 64 * 1024
"""The body limit of the test app."""

FINISHED_GRN = """\
[Game "Pletore"]
[Size "5"]
[Komi "2"]
[Event "Beginners' lesson"]
[Black "player-11"]
[White "player-05"]
[Result "White+7"]

1. e5 a2 2. c1 e3 3. b4 d5 4. c2 b3 5. d4 e5x 6. b5 c3 7. c4 c2x 8. d5x d2 9.
a4 e1 10. a1 c1x 11. e4 a1x 12. e5x pass 13. pass White+7
"""
"""A finished, valid game: White wins by 7."""

ILLEGAL_GRN = """\
[Game "Pilo"]
[Size "6"]
[Result "Blue+3"]

1. d4 d4
"""
"""Reads, but the second move is illegal (d4 is taken)."""

BROKEN_GRN = """\
[Game "Pilo"]
[Size "40"]

1. d4
"""
"""Cannot be read: no board has size 40."""

UNFINISHED_JSON = json.dumps(
    {
        "game": "Pletore",
        "size": 5,
        "komi": 2,
        "players": {"Black": "player-01"},
        "tags": [{"name": "Event", "value": "Club night"}],
        "moves": [{"type": "place", "at": "c3"}, {"type": "place", "at": "b2"}],
        "result": "*",
    }
)
"""A valid JSON record of a game that has not ended."""
