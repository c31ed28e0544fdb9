"""How the tests hold code to bounded work on any machine: work counted, or compared with the
machine's own speed at that moment, never with a clock's absolute reading.

A duration depends on everything else the machine is doing. Two measures do not:

- :func:`counted`: the number of function calls a piece of code makes, to Python functions
  and to built-in ones (``sys.setprofile``'s ``call`` and ``c_call`` events). The same code
  on the same input gives the same count, busy machine or not. It sees every loop that calls
  something once per item, which is how most quadratic paths show (a list rebuilt for every
  move). It does not see work inside one built-in call (a regular expression that rescans
  the text from every ``{``), nor inside the modules mypyc compiled, which run as native
  code: under ``pytest --shipped`` the counts are smaller, so a bound that holds in the
  checkout's run, where every call is seen, holds there too.
- :func:`relative_cost`: the processor time of some work divided by that of a reference
  work of the same size (reading and adjudicating real records of as many bytes), each the
  best of a few runs, taken in turns. Load slows both alike, and processor time (not wall
  time) leaves out the time the process waited for a core. A path that rescans the text
  shows as hundreds of times the reference at 100 KB; normal reading is around it or below.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

T = TypeVar("T")

__all__ = ["calls", "counted", "relative_cost", "relative_costs"]


def counted(work: Callable[[], T]) -> tuple[T, int]:
    """``work()`` and the number of calls it made (Python and built-in functions)."""
    count = 0

    def hook(_frame: Any, event: str, _arg: Any) -> None:
        nonlocal count
        if event == "call" or event == "c_call":
            count += 1

    previous = sys.getprofile()
    sys.setprofile(hook)
    try:
        result = work()
    finally:
        sys.setprofile(previous)
    return result, count


def calls(work: Callable[[], object]) -> int:
    """The number of calls ``work()`` made."""
    return counted(work)[1]


def processor_time(work: Callable[[], object]) -> float:
    """Seconds of this thread's processor time that ``work()`` took."""
    began = time.thread_time()
    work()
    return time.thread_time() - began


def relative_cost(
    work: Callable[[], object], reference: Callable[[], object], runs: int = 3
) -> float:
    """How many times the processor time of ``reference()`` ``work()`` takes: each the best
    of ``runs``, run in turns so that a slower moment of the machine slows both."""
    return relative_costs([work], reference, runs)[0]


def relative_costs(
    works: Sequence[Callable[[], object]], reference: Callable[[], object], runs: int = 3
) -> list[float]:
    """:func:`relative_cost` of each of ``works`` against one ``reference``, all run in turns."""
    best = [float("inf")] * len(works)
    best_reference = float("inf")
    for _ in range(runs):
        best_reference = min(best_reference, processor_time(reference))
        best = [min(old, processor_time(work)) for old, work in zip(best, works, strict=True)]
    return [one / max(best_reference, 1e-6) for one in best]
