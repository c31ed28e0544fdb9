"""The Dutch engine run within bounds (``spec/pairings.md`` §5): in a process of its own,
given the round as TRF text, with a limit on its memory (its address space) and on its time
(the wall clock, and its processor time as a second guard). An engine that goes past either
is stopped and the round is refused with a clear error, where it would otherwise hold a
server's memory and time for as long as it likes: the engine's work grows faster than the
square of the players, and gacrux has no bound of its own.

``python -m arbiter.pairing.bounded ROUND MEMORY SECONDS`` is the process: it sets its own
limits before it reads the TRF from its standard input, pairs, and writes the engine's
answer as one line of JSON (``{"boards", "bye"}``, or ``{"error", "message"}``).
"""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import dataclass
from typing import Any

from arbiter.pairing.dutch import EngineRound, NoPairing
from arbiter.pairing.trf import write_trf
from arbiter.pairing.values import Tournament

__all__ = ["EngineLimit", "Limits", "bounded_dutch_round", "main"]


@dataclass(frozen=True, slots=True)
class Limits:
    """What one round of the engine may take: ``seconds`` of the wall clock and ``memory``
    bytes of address space."""

    seconds: float
    memory: int


class EngineLimit(RuntimeError):
    """The engine went past a limit (``what``: ``time`` or ``memory``) and was stopped."""

    def __init__(self, what: str, message: str) -> None:
        super().__init__(message)
        self.what = what
        self.message = message


def bounded_dutch_round(tournament: Tournament, round_: int, limits: Limits) -> EngineRound:
    """:func:`~arbiter.pairing.dutch.dutch_round` of ``tournament`` in a process of its own
    within ``limits``; raises :class:`EngineLimit` when it goes past one, and
    :class:`~arbiter.pairing.dutch.NoPairing` as the engine does."""
    text = write_trf(tournament, name="arbiter")
    seconds = max(1, int(limits.seconds + 0.999))
    command = [sys.executable, "-m", "arbiter.pairing.bounded", str(round_), str(limits.memory),
               str(seconds)]  # fmt: skip
    try:
        done = subprocess.run(
            command, input=text, capture_output=True, text=True, timeout=limits.seconds
        )
    except subprocess.TimeoutExpired:
        raise _over_time(round_, limits) from None
    said = _answer(done.stdout)
    if "boards" in said:
        boards = tuple((int(a), int(b)) for a, b in said["boards"])
        bye = said.get("bye")
        return EngineRound(boards, None if bye is None else int(bye))
    error = said.get("error")
    if error == "no-pairing":
        raise NoPairing(str(said.get("message", "")))
    if error == "memory" or any(sign in done.stderr for sign in OUT_OF_MEMORY):
        raise EngineLimit(
            "memory",
            f"the Dutch engine needed more than {limits.memory // 2**20} MiB of memory to pair "
            f"round {round_}, and was stopped",
        )
    if done.returncode < 0 or "time" in str(error):  # a signal: its processor time was up
        raise _over_time(round_, limits)
    last = (done.stderr.strip().splitlines() or ["no answer"])[-1]
    raise RuntimeError(f"the Dutch engine's process failed (exit {done.returncode}): {last}")


OUT_OF_MEMORY = ("MemoryError", "SystemError", "Cannot allocate memory", "failed to map")
"""What a process out of memory says when it fails before it can answer: the allocation
refused, as Python raises it, as the interpreter gives up on it, or as the system says it."""


def _over_time(round_: int, limits: Limits) -> EngineLimit:
    return EngineLimit(
        "time",
        f"the Dutch engine took more than {limits.seconds:g} s to pair round {round_}, and "
        "was stopped",
    )


def _answer(out: str) -> dict[str, Any]:
    lines = out.strip().splitlines()
    try:
        found = json.loads(lines[-1]) if lines else {}
    except ValueError:
        return {}
    return found if isinstance(found, dict) else {}


def _address_space() -> int:
    """The bytes of address space this process holds (0 where the system does not say)."""
    import os

    try:
        with open("/proc/self/statm", encoding="ascii") as statm:
            return int(statm.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return 0


def main(argv: list[str]) -> int:
    """The engine's process: ``ROUND MEMORY SECONDS``, the TRF on standard input."""
    import resource

    import gacrux.gacruxexeptions  # noqa: F401 - loaded before the limits: the work is bounded
    import gacrux.pairingdutch  # noqa: F401
    import gacrux.trf2json  # noqa: F401

    from arbiter.pairing.dutch import dutch_round
    from arbiter.pairing.trf import read_trf

    round_, memory, seconds = (int(one) for one in argv)
    text = sys.stdin.read()
    if _address_space() >= memory:  # already past it: the limit would only stop what
        # does not fit in the memory the interpreter freed, which depends on what ran before
        print(json.dumps({"error": "memory"}))
        return 3
    resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
    resource.setrlimit(resource.RLIMIT_CPU, (seconds, seconds + 5))
    try:
        found = dutch_round(read_trf(text), round_)
    except (MemoryError, ImportError, SystemError):  # an allocation refused (a module's
        # mapping, or the interpreter's own, which it says as a SystemError)
        print(json.dumps({"error": "memory"}))
        return 3
    except NoPairing as err:
        print(json.dumps({"error": "no-pairing", "message": str(err)}))
        return 2
    print(json.dumps({"boards": [list(board) for board in found.boards], "bye": found.bye}))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
