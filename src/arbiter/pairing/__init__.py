"""Pairings as a library: the Dutch system and FIDE's Berger tables over plain values, and
FIDE's TRF read and written (``spec/pairings.md``).

- :class:`Player`, :class:`Game`, :class:`Bye` and :class:`Tournament` describe an event so
  far; :class:`Board` and :class:`Pairing` a round's pairing.
- :func:`pair` pairs the next round (``"dutch"``, ``"round-robin"``,
  ``"double-round-robin"``, ``"double-round-robin-plain"``); :func:`check` pairs every
  round again and gives each :class:`RoundDifference`; :func:`initial_order` numbers new
  players in FIDE's order; :func:`pairing_warnings` says what a pairing given by hand
  breaks; :func:`left_out` names the players a round robin's standings leave out (withdrawn
  having played fewer than half their games).
- :func:`read_trf` reads a TRF (raising a located :class:`TrfError`); :func:`write_trf`
  writes one.

The Dutch engine (gacrux) is loaded at the first Dutch pairing only.
"""

from __future__ import annotations

from arbiter.pairing.berger import LeftOut, left_out
from arbiter.pairing.bounded import Limits
from arbiter.pairing.engine import (
    MAX_DUTCH_PLAYERS,
    PairingError,
    RoundDifference,
    check,
    initial_order,
    pair,
)
from arbiter.pairing.manual import pairing_warnings
from arbiter.pairing.trf import TrfError, read_trf, write_trf
from arbiter.pairing.values import (
    BYE_LETTERS,
    BYE_POINT_CHOICES,
    DOUBLE_ROUND_ROBIN_SYSTEMS,
    REQUESTED_BYE_POINTS,
    ROUND_ROBIN_SYSTEMS,
    SWISS_SYSTEMS,
    SYSTEMS,
    Acceleration,
    Board,
    Bye,
    ByeKind,
    Colour,
    Game,
    Pairing,
    Player,
    Prohibition,
    Result,
    System,
    Tournament,
)

__all__ = [
    "BYE_LETTERS",
    "BYE_POINT_CHOICES",
    "MAX_DUTCH_PLAYERS",
    "REQUESTED_BYE_POINTS",
    "DOUBLE_ROUND_ROBIN_SYSTEMS",
    "ROUND_ROBIN_SYSTEMS",
    "SWISS_SYSTEMS",
    "SYSTEMS",
    "Acceleration",
    "Board",
    "Bye",
    "ByeKind",
    "Colour",
    "Game",
    "LeftOut",
    "Limits",
    "Pairing",
    "PairingError",
    "Player",
    "Prohibition",
    "Result",
    "RoundDifference",
    "System",
    "Tournament",
    "TrfError",
    "check",
    "initial_order",
    "left_out",
    "pair",
    "pairing_warnings",
    "read_trf",
    "write_trf",
]
