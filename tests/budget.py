"""How much work the randomised tests do: a short budget in ``make test``, ten times more
with ``pytest --long`` (which ``make fuzz`` runs).

Hypothesis draws ``examples(n)`` cases where a test asks for ``n``; the tests that walk
every ply of every sample walk every :func:`stride`-th one. The long form finds what the
short one is too brief to draw; the short one keeps ``make test`` within minutes.
"""

from __future__ import annotations

import os

__all__ = ["LONG", "examples", "stride"]

LONG = os.environ.get("ARBITER_LONG_TESTS", "") not in ("", "0")
"""Whether this run is the long one (set by ``pytest --long``, tests/conftest.py)."""


def examples(n: int) -> int:
    """The number of examples a property test asking for ``n`` draws in this run."""
    return n * 10 if LONG else n


def stride(n: int) -> int:
    """Every how many plies a walk over plies takes one: ``n`` in the short run, 1 (every
    ply) in the long one."""
    return 1 if LONG else n
