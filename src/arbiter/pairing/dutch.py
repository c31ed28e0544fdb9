"""The Dutch system (FIDE Handbook C.04.3) by the gacrux engine, pinned in ``pyproject.toml``.

gacrux is FIDE's reference tool for its pairing checklist; its Python API is its own
internals, so it is driven here and nowhere else, through the one interface it keeps
stable: the TRF. arbiter writes the tournament as TRF text with its own writer
(:func:`arbiter.pairing.trf.write_trf`), with pairing numbers 1 to N, the initial colour
always stated (gacrux would draw it by lot) and every player who is not to be paired
written as absent in the round; gacrux's reader turns that text into its tournament, and
its Dutch engine pairs the round. The boards come back as (first, second) in gacrux's board
order, and the player it gives the pairing-allocated bye.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from arbiter.pairing.trf import write_trf
from arbiter.pairing.values import Tournament

__all__ = ["ENGINE", "EngineError", "NoPairing", "dutch_round"]

ENGINE = "gacrux"


class EngineError(RuntimeError):
    """gacrux refused what arbiter gave it: a fault of this module, not of the input."""


class NoPairing(ValueError):
    """No pairing of the round satisfies the absolute criteria (C.04.3 art. 1.9.3 leaves
    what to do to the arbiter)."""


@dataclass(frozen=True, slots=True)
class EngineRound:
    """gacrux's answer: the boards in its order, and who has the bye."""

    boards: tuple[tuple[int, int], ...]
    bye: int | None


def dutch_round(tournament: Tournament, round_: int) -> EngineRound:
    """Pair ``round_`` of ``tournament``, which has pairing numbers 1 to N, a known initial
    colour, nothing at or after ``round_`` but the byes of that round (every player who is
    not to be paired has one), and the number of rounds planned."""
    from gacrux.gacruxexeptions import GacruxNoLegalPairing
    from gacrux.pairingdutch import pairing_dutch

    engine_tournament = _read_by_gacrux(write_trf(tournament, name="arbiter"))
    engine_tournament["pairingSystem"] = ["dutch"]
    engine_tournament["maxMeets"] = 1
    engine_tournament["topColor"] = "w" if tournament.initial_colour == "first" else "b"
    engine_tournament["numRounds"] = tournament.rounds_planned
    params: dict[str, Any] = {"experimental": [], "verbose": 0, "top_color": ""}
    try:
        brackets = pairing_dutch(engine_tournament, round_, params).compute_pairing(False, 0)
    except GacruxNoLegalPairing as err:
        raise NoPairing(str(err)) from None
    pairs = sorted((p for b in brackets for p in b["pairs"]), key=lambda p: p["board"])
    boards = tuple((int(p["w"]), int(p["b"])) for p in pairs if p["w"] and p["b"])
    byes = [int(p["w"] or p["b"]) for p in pairs if not (p["w"] and p["b"])]
    return EngineRound(boards, byes[0] if byes else None)


def _read_by_gacrux(text: str) -> dict[str, Any]:
    """gacrux's tournament of a TRF text, read by gacrux's own reader."""
    from gacrux.trf2json import trf2json

    reader = trf2json()
    reader.parse_file(text, 0)
    status = reader.chessjson["status"]
    if status["code"] >= 400:
        raise EngineError(f"gacrux refused the tournament: {'; '.join(status['error'])}")
    tournament: dict[str, Any] = reader.get_tournament(1)
    return tournament
