"""A record with a slip, and reports that carry repair suggestions for it, for the tests of
where people see suggestions (the command line, the API, the page) independently of the
search that makes them: :func:`with_suggestions` wraps the adjudication the service calls
so that the report of the slipped record carries :data:`SUGGESTIONS`, as the search would
give them (the fixture ``suggesting`` of ``conftest.py`` puts it in place)."""

from __future__ import annotations

import copy
from collections.abc import Callable
from pathlib import Path
from typing import Any

from arbiter.adjudicator.replay import Report

ROOT = Path(__file__).resolve().parents[2]
BLITZ = (ROOT / "samples" / "pilo" / "valid" / "02-blitz-6x6.grn").read_text(encoding="utf-8")
SLIPPED = BLITZ.replace("3. e2 c2", "3. e1 c2")
"""The blitz game with e2 typed as e1 at ply 5 (line 10, column 22): refused there, since
e1 is taken."""

SUGGESTIONS: list[dict[str, Any]] = [
    {"ply": 5, "move": "e2", "written": "e1", "slip": "rank off by one", "replays": True,
     "result": "Blue+5", "claimed": True, "line": 10, "column": 22},
    {"ply": 5, "move": "f1", "written": "e1", "slip": '<img src=x onerror="hacked=1">\x1b[2J',
     "replays": False, "result": None, "claimed": False, "line": 10, "column": 22},
    {"ply": 1, "move": "d1", "written": "e1", "slip": "file off by one", "replays": True,
     "result": "Orange+2", "claimed": False, "line": 10, "column": 4},
    {"ply": 5, "move": "e3", "written": "e1", "slip": "rank off by two", "replays": True,
     "result": None, "claimed": False, "line": 10, "column": 22},
]  # fmt: skip
"""What the search might suggest for :data:`SLIPPED`, best first: one that replays to the
claimed result, one that only makes the ply legal (with a slip text that must be escaped
wherever it is shown), one at an earlier ply that replays to another result, and a fourth,
never shown among the best three."""


def with_suggestions(adjudicate: Callable[..., Report]) -> Callable[..., Report]:
    """``adjudicate``, with :data:`SUGGESTIONS` added to the first error of a report refused
    at ply 5 on the move e1 (the slip of :data:`SLIPPED`)."""

    def suggesting(*args: Any, **kwargs: Any) -> Report:
        report = adjudicate(*args, **kwargs)
        if report.errors and report.errors[0].get("ply") == 5 and report.errors[0]["move"] == "e1":
            report.errors[0]["suggestions"] = copy.deepcopy(SUGGESTIONS)
        return report

    return suggesting
