"""Did you mean: single-move corrections for a record refused at a move (``spec/hints.md``).

Most records are copied from paper scoresheets, and one miscopied move makes the record
refused, often many plies later than the slip when the slip is itself a legal move. For the
first error of a record refused at a move, :func:`suggest` looks for the single move that,
written in place of one move of the record, makes the game replay: at the refused ply, and
at the earlier plies whose moves touch the squares next to the refused one's. It tries what
people copying by hand actually write wrongly (:func:`slips`: a file or rank off by one,
look-alike characters, the squares of a move swapped, a direction reversed, a character
dropped, doubled or swapped with its neighbour) and ranks the corrections by what they
achieve (the whole game replays, to the claimed result) and then by how likely the slip is.

The search is bounded by a number of plies to replay (:data:`BUDGET_BASE` and
:data:`BUDGET_PER_PLY`) and runs only for records that are refused: a valid record costs
nothing. The record itself is never changed: a suggestion is a hint for whoever keeps the
scoresheet, and the official result comes from what was written.
"""

from __future__ import annotations

import gc
import re
from collections.abc import Iterable, Mapping
from functools import lru_cache
from typing import Any, Final, NamedTuple, TypeVar

from arbiter.adjudicator.base import Rules, get_rules
from arbiter.adjudicator.verdict import KEPT_STATES, settle, starting_state
from arbiter.notation.ast import FILES, STEPS, Location, Move, Point, Record
from arbiter.notation.build import move_in_game
from arbiter.notation.errors import IllegalMoveError, RecordError
from arbiter.notation.games import GameDescription, find_game, generation
from arbiter.notation.grn_reader import parse_grn_record
from arbiter.notation.grn_scan import move_of_text, word_pattern
from arbiter.notation.plain import Plain

__all__ = [
    "BUDGET_BASE",
    "BUDGET_PER_PLY",
    "LIMIT",
    "READINGS",
    "Suggestion",
    "slips",
    "suggest",
    "suggest_reading",
]

LIMIT = 3
"""Suggestions kept, best first."""
BUDGET_BASE = 1500
BUDGET_PER_PLY = 3
"""The search replays at most ``BUDGET_BASE + BUDGET_PER_PLY * plies`` plies in all (the
plies of the record): about three more replays of the record, whatever it holds, and the
cheap slips of the window's plies, whatever its length (some twenty slips at each of 60
plies, each replayed up to the refused move or until a move on the way is refused; an
Implo stone one square off changes a patch, and so what a move resolves, many plies later,
and such a slip is often found only among the last)."""
WINDOW = KEPT_STATES - 1
"""How many plies before the refused one a slip is looked for (60)."""
REFUSED_CODES = frozenset({"illegal-move", "ambiguous-move"})
"""Errors of a record that reads but whose replay refuses a move."""
UNREAD_CODES = frozenset({"syntax-error", "off-board", "wrong-move-form"})
"""Errors of a record whose reading stops at a move."""
READINGS = 40
"""A record that stops at a move is read again with at most this many corrections."""
MAX_WORD = 64
"""Longer words are not searched: the slips of a word number about its length squared, and
no move is written so long but an Implo placement with a dozen resolution steps (late in a
game on a small board, eight or nine steps make one of about 30 characters)."""
REACH = 2
"""How many steps through empty squares the search looks from the refused move's squares
(:meth:`_Search._region`)."""
MAX_SAID = 200
"""The squares a refusal names are read from this many characters of its message at most."""
MAX_SOURCE = 65_536
"""A record longer than this (in characters) is not read again: each reading costs its
length."""


def _pairs(pairs: str) -> dict[str, str]:
    """The characters each character of ``pairs`` (two-letter words) is confused with."""
    found: dict[str, str] = {}
    for pair in pairs.split():
        found[pair[0]] = found.get(pair[0], "") + pair[1]
        found[pair[1]] = found.get(pair[1], "") + pair[0]
    return found


LOOK_ALIKE: Final = _pairs("17 14 27 38 56 68 49 0o 2z 5s 6b 9g 1l ad ao bh ce gq il mn uv")
"""Characters that handwriting, or reading it, confuses most: a ``1`` and a ``7`` or a ``4``,
a ``3`` and an ``8``, a ``6`` and a ``5`` or an ``8``, an ``a`` and a ``d`` or an ``o``,
a ``b`` and an ``h``, a ``c`` and an ``e`` (cost 1.2)."""
FAINT_ALIKE: Final = _pairs("35 58 79 89 23 06 08 ae au ac hn hk nr nu ft ij rv vw mw kx xy")
"""Characters that handwriting confuses less often (cost 1.3)."""
KEYBOARD: Final = {
    "q": "wa", "w": "qes", "e": "wrd", "r": "etf", "t": "ryg", "y": "tu", "u": "yi", "i": "uo",
    "o": "ip", "p": "o", "a": "qsz", "s": "adwx", "d": "sfec", "f": "dgrv", "g": "fhtb",
    "h": "gjyn", "j": "hkum", "k": "jli", "l": "k", "z": "ax", "x": "zsc", "c": "xdv",
    "v": "cfb", "b": "vgn", "n": "bhm", "m": "nj", "1": "2", "2": "13", "3": "24", "4": "35",
    "5": "46", "6": "57", "7": "68", "8": "79", "9": "80", "0": "9",
}  # fmt: skip
"""Keys next to each other on a keyboard, for records typed in."""
OPPOSITE: Final = {"n": "s", "s": "n", "e": "w", "w": "e"}
FIT_COST: Final = 0.9
"""The cost of a sowing's path corrected to the height of the stack it lifts, at the refused
ply, when the path written is one step longer or shorter: a direction dropped or doubled is
then all but certain, and is tried before any other slip."""
COSTS: Final = (FIT_COST, 1.0, 1.2, 1.3, 1.4, 1.5, 1.6, 1.8, 2.0, 2.5)
"""Every slip's cost, likeliest first: the search tries slips a cost at a time."""
CHEAP_COST = 1.3
"""The cheap slips cost up to this (a file or rank off by one, the squares swapped, the
directions reversed or two of them swapped, a look-alike), every other more. At the plies
before the refused one only they are tried: they are nearly all the slips found there, and
the others would cost most of the search."""
SWAP_COST: Final = 1.2
"""The cost of two squares of a move of several parts exchanged that do not stand next to
each other in it (two next to each other cost 1.0, as the two squares of a capture)."""
B = TypeVar("B")
K = TypeVar("K")
V = TypeVar("V")
_MOVE_POINTER = re.compile(r"/moves/(0|[1-9][0-9]{0,8})")
_SQUARE = re.compile(r"([a-s])(1[0-9]|[1-9])")


class Slip(NamedTuple):
    """A way of writing a move wrongly: the text that may have been meant, what the slip
    was, and how unlikely it is (lower is likelier)."""

    text: str
    what: str
    cost: float


class Suggestion(Plain):
    """One correction: write ``move`` at ``ply`` in place of ``written``. ``slip`` says
    what was miscopied; ``replays`` whether the whole game then replays, ``result`` to
    which official result (None when it does not), ``claimed`` whether that is the claimed
    result; ``where`` is where the written move stands in its source."""

    _fields = ("ply", "move", "written", "slip", "replays", "result", "claimed", "where")
    __slots__ = _fields

    def __init__(
        self,
        ply: int,
        move: str,
        written: str,
        slip: str,
        replays: bool,
        result: str | None,
        claimed: bool,
        where: Location,
    ) -> None:
        self.ply: Final = ply
        self.move: Final = move
        self.written: Final = written
        self.slip: Final = slip
        self.replays: Final = replays
        self.result: Final = result
        self.claimed: Final = claimed
        self.where: Final = where

    def to_dict(self) -> dict[str, Any]:
        """The suggestion as reports give it (``spec/report.md``)."""
        out: dict[str, Any] = {
            "ply": self.ply,
            "move": self.move,
            "written": self.written,
            "slip": self.slip,
            "replays": self.replays,
            "result": self.result,
            "claimed": self.claimed,
        }
        for key, value in zip(("line", "column", "pointer"), self.where, strict=True):
            if value is not None:
                out[key] = value
        return out


def suggest(
    record: Record,
    error: dict[str, Any],
    *,
    limit: int = LIMIT,
    positions: Mapping[int, Any] | None = None,
) -> list[Suggestion]:
    """The best single-move corrections of ``record``, refused by ``error`` (a report's
    error), best first; none for an error that is not a refused move. ``positions`` are
    the positions before the plies of the window, by ply - 1, when the caller kept them
    (``replay(keep=KEPT_STATES)``); otherwise the record is replayed to find them."""
    refused = error.get("ply")
    if error.get("code") not in REFUSED_CODES or not isinstance(refused, int):
        return []
    if not 1 <= refused <= len(record.turns):
        return []
    paused = _pause_collector()
    try:
        message = error.get("message")
        said = message if isinstance(message, str) else ""
        search = _Search(record, refused, positions=positions, said=said)
        return [search.described(candidate) for candidate in search.run(limit)]
    finally:
        _resume_collector(paused)


def _pause_collector() -> bool:
    """Pause Python's cycle collector for a search, returning whether it ran: a search makes
    thousands of short-lived positions, none in a cycle (freed as soon as dropped), and the
    passes those allocations set off would walk the kept slips again and again. The pause is
    as bounded as the search."""
    running = gc.isenabled()
    gc.disable()
    return running


def _resume_collector(paused: bool) -> None:
    if paused:
        gc.enable()


class _Option:
    """A move that may have been meant where another stands, and the slip that would have
    written it wrongly (a class of its own rather than a named tuple: compiled, it is made
    without running Python code)."""

    __slots__ = ("changed", "move", "text", "what")

    def __init__(self, move: Move, text: str, what: str, changed: int = 0) -> None:
        self.move: Final = move
        self.text: Final = text
        self.what: Final = what
        self.changed: Final = changed
        """At an earlier ply, the squares it or the written move touches alone (a mask)."""


class _Candidate(NamedTuple):
    rank: tuple[int, float, int]
    ply: int
    move: Move
    slip: str
    result: str | None


class _Search:
    """Best first: the (ply, slip) pairs in the order of the slip's cost, then of the ply's
    distance from the refused one; each is played and the rest of the record replayed after
    it. A correction ranks by what it achieves (0: the game replays to the claimed result;
    1: to another; 2: past the refused ply only), then in that order, so the search ends
    with the cost at which a correction of the best kind is found, or when its budget of
    plies is spent (every ply played counts)."""

    def __init__(
        self,
        record: Record,
        refused: int,
        written: str | None = None,
        positions: Mapping[int, Any] | None = None,
        said: str = "",
    ) -> None:
        self.record = record
        self.refused = refused
        self.size = record.size
        self.moves = record.moves
        window = max(1, refused - WINDOW)
        self.written = [""] * len(self.moves)
        """What stands at each ply of the window, by ply - 1: the record's moves, and at the
        refused ply ``written`` when given (the word a reading stopped at)."""
        for ply in range(window, refused + 1):
            self.written[ply - 1] = _text(self.moves[ply - 1])
        if written is not None:
            self.written[refused - 1] = written
        self.game: GameDescription = find_game(record.game)
        self.rules: Rules[Any] = get_rules(record.game)
        self.states: dict[int, Any] = {}
        """The position before each ply of the window (not all: a long record's states
        would fill the memory)."""
        if positions is not None and all(
            ply - 1 in positions for ply in range(window, refused + 1)
        ):
            for ply in range(window, refused + 1):
                self.states[ply - 1] = positions[ply - 1]
        else:
            self._replay_window(window)
        self.budget = BUDGET_BASE + BUDGET_PER_PLY * len(self.moves)
        self.squares = [0] * len(self.moves)
        """The squares each written move of the window touches (:func:`_squares`), by
        ply - 1."""
        self.placed = [0] * len(self.moves)
        """The squares named by the placements after each ply of the window and before the
        refused one, by ply - 1: a square a correction fills could not have been named by a
        placement after it (a sowing or a capture may well go where a stack stands)."""
        placed = 0
        for ply in range(refused, window - 1, -1):
            move = self.moves[ply - 1]
            text = self.written[ply - 1] if ply < refused or written is None else _text(move)
            self.squares[ply - 1] = _squares(text, self.size)
            self.placed[ply - 1] = placed
            if move.type == "place" and ply < refused:
                placed |= self.squares[ply - 1]
        self.touched = self.squares[refused - 1] | _mask(_named(said[:MAX_SAID], self.size))
        """The squares the refused move touches, and those its refusal names (``cannot
        pass: e1 is not controlled``; a pass touches none)."""
        self.window = window
        self.taker = 0
        """The ply before the window whose move last touched a square of the refused move,
        when no ply of the window did, or 0 (:meth:`_taker`)."""
        self.generation = _read_afresh()
        self.endings: dict[Any, tuple[int, str | None]] = {}
        """How the record ends from each position after the refused move tried so far."""
        self.lifted = 0
        """The square of the stack the refused sowing lifts, when its path does not fit it
        (as a mask)."""
        self.since = 0
        """The latest ply before the refused one whose sowing lifted that stack too, or 0
        (:meth:`_last_lift`)."""
        self.fits = self._fits()
        """The sowings whose path the height of the refused move's stack calls for."""
        self.short = 0
        """How many men the refused sowing's stack lacks for its path (:meth:`_lifts`)."""
        self.refused_from = -1
        """The square the refused move sows from, in a game of sowings (:meth:`_lifts`)."""
        self.lifts = self._lifts()
        """The plies of the window, the refused one too, that sow each square's stack, by
        square, in a game of sowings; else empty (:meth:`_heights_fit`)."""
        self.wanted: dict[int, dict[int, int]] = {}
        self.around = _mask(_around(_bits(self.touched), self.size) | self._region())
        """The squares on or next to those the refused move touches, the empty squares
        joined to them and those in line with them (:meth:`_region`)."""
        self.close: frozenset[int] = frozenset()
        self.split: dict[tuple[int, float, int], tuple[_Option, ...]] = {}
        """The slips at each earlier ply, cost and level (:meth:`_level`), read."""
        self.unread: dict[tuple[int, float], tuple[tuple[str, str, int], ...]] = {}
        """The slips of level 1 at each earlier ply and cost, not read yet: their pass runs
        only when none of level 0 replays to the claimed result (about one search in ten)."""

    def _region(self) -> set[int]:
        """The empty squares at most :data:`REACH` steps from a square the refused move
        touches, through empty squares, in the position before it: a territory whose size
        or shape decides the refused move (an Implo patch) is changed by a stone put in it
        or left out of it, a few squares away. In a game whose points are decided by the
        stones they see (:attr:`Rules.sight`: who controls a point of Pletore), also the
        squares in line with one, along its rank and its file through empty squares, up to
        the first stone each way (that stone too): a stone put on such a line or taken off
        it changes what the point sees, however far."""
        grid = self.rules.position(self.states[self.refused - 1])
        size = self.size
        empty = [not grid[square // size][square % size] for square in range(size * size)]
        edge = _bits(self.touched)
        found = set(edge)
        for _ in range(REACH):
            step: list[int] = []
            for square in edge:
                file, rank = square % size, square // size
                for other, inside in (
                    (square - 1, file > 0), (square + 1, file < size - 1),
                    (square - size, rank > 0), (square + size, rank < size - 1),
                ):  # fmt: skip
                    if inside and empty[other] and other not in found:
                        found.add(other)
                        step.append(other)
            edge = step
        for square in _bits(self.touched) if self.rules.sight else []:
            for ray in _rays(square, size):
                for other in ray:
                    found.add(other)
                    if not empty[other]:
                        break
        return found

    def _taker(self) -> int:
        """The latest ply before the window whose move touches a square the refused move
        touches, when none of the window's plies does, or 0: a placement refused because its
        point is taken is explained as well by the move that took it, miscopied, however far
        back (its cheap slips are tried as a close ply's, :meth:`run`). Its written move,
        its squares, the squares named by the placements after it and the position before
        it are then kept as a ply of the window's are, the position found by playing the
        record from its start (those plies counted in the budget)."""
        touched, window = self.touched, self.window
        if not touched or window <= 1:
            return 0
        if any(self.squares[ply - 1] & touched for ply in range(window, self.refused)):
            return 0
        first = self.moves[window - 1]
        placed = self.placed[window - 1] | (
            self.squares[window - 1] if first.type == "place" else 0
        )
        for ply in range(window - 1, 0, -1):
            move = self.moves[ply - 1]
            text = _text(move)
            squares = _squares(text, self.size)
            if squares & touched:
                self.written[ply - 1] = text
                self.squares[ply - 1] = squares
                self.placed[ply - 1] = placed
                self.budget -= ply - 1
                self.states[ply - 1] = self._position_before(ply)
                return ply
            if move.type == "place":
                placed |= squares
        return 0

    def _position_before(self, ply: int) -> Any:
        """The position before ``ply``, the record played from its start."""
        state = starting_state(self.record)[1]
        for before in range(1, ply):
            state = self.rules.play(state, self.moves[before - 1])
        return state

    def _replay_window(self, window: int) -> None:
        """Find the positions before the plies of the window by replaying the record."""
        state = starting_state(self.record)[1]
        for ply in range(1, self.refused):
            if ply >= window:
                self.states[ply - 1] = state
            state = self.rules.play(state, self.moves[ply - 1])
        self.states[self.refused - 1] = state

    def run(self, limit: int, *, earlier: bool = True) -> list[_Candidate]:
        """First the likeliest corrections: at the refused ply, every slip; at the earlier
        plies (with ``earlier``) whose moves touch a square on or next to the refused
        move's, or one a slip away, the slips up to :data:`CHEAP_COST` that change what
        stands on the refused move's squares and whose new squares stay clear until then,
        and those of the move before the window that last touched a square of the refused
        move, when none of the window's did (:meth:`_taker`). Then, when none of those
        makes the game replay to its claimed result, those that
        change what stands next to them; then the other slips of the window's plies. The
        best correction comes first, then the best at another ply than it (the two ways a
        later refusal is explained: the refused move miscopied, or an earlier one), then
        the others."""
        if earlier:
            self.taker = self._taker()
        close, others = self._plies()
        if not earlier:
            close, others = close[:1], []
        found = self._search([*close, self.taker] if self.taker else close, 0)
        if earlier and not any(candidate.rank[0] == 0 for candidate in found):
            found += self._search(close[1:], 1)
        if earlier and not any(candidate.rank[0] == 0 for candidate in found):
            found += self._search(close[1:] + others, 2)
        unique: dict[tuple[int, str], _Candidate] = {}
        for candidate in sorted(found, key=lambda candidate: candidate.rank):
            unique.setdefault((candidate.ply, str(candidate.move)), candidate)
        return _interleaved(list(unique.values()))[:limit]

    def _plies(self) -> tuple[list[int], list[int]]:
        """The refused ply and the earlier plies whose moves touch a square on or next to
        one the refused move touches, or one a slip away from those (``b8`` for ``b3``, and
        ``b4`` for ``b3``'s neighbour ``c4``), or that come just before it; then the other
        earlier plies of the window, which reaches :data:`WINDOW` plies back. The ply of
        :meth:`_taker`, if any, is close too, but not among those returned."""
        near = self.around | _mask(self._slip_away(_bits(self.around)))
        earlier = range(self.refused - 1, max(0, self.refused - WINDOW - 1), -1)
        close = [self.refused]
        for ply in earlier:
            if ply >= self.refused - 2 or near & self.squares[ply - 1]:
                close.append(ply)
        self.close = frozenset([*close, self.taker] if self.taker else close)
        return close, [ply for ply in earlier if ply not in self.close]

    def _slip_away(self, squares: Iterable[int] | None = None) -> set[int]:
        """The squares that a slip up to :data:`CHEAP_COST` makes of one of ``squares``, by
        default those the refused move touches (the slips of a square are nearly
        symmetric: ``b3`` and ``b8`` are each other's look-alikes)."""
        away: set[int] = set()
        for square in _bits(self.touched) if squares is None else squares:
            away.update(_away(square, self.size))
        return away

    def _search(self, plies: list[int], level: int) -> list[_Candidate]:
        """Try the slips at ``plies``, by cost, then the close plies (:meth:`_plies`) before
        the others, each nearest the refused one first: the refused ply's slips with level
        0, and at the earlier plies those of ``level`` (:meth:`_level`). Once a correction
        replays to the claimed result, the search ends with the slips of that cost, or
        sooner once one at an earlier ply does (the refused ply's come first: the other
        corrections would only take the third place), with that ply's other cheap slips
        (:meth:`_also_at`); but for the refused ply's other slips up to
        :data:`CHEAP_COST`, until :data:`LIMIT` of them replay to the claimed result
        (:meth:`_after_claimed`), when one of its slips already does."""
        found: list[_Candidate] = []
        nearest_first = sorted(plies, key=lambda ply: (ply not in self.close, self.refused - ply))
        claimed = fitted = before = False  # before: an earlier ply's correction replays as claimed
        here = 0  # the refused ply's corrections that replay to the claimed result
        for cost in COSTS:
            only_here = claimed and not (fitted and cost <= CHEAP_COST)
            if only_here and not self._after_claimed(cost, fitted, here):
                break
            for ply in nearest_first:
                if ply < self.refused and (only_here or before or cost > CHEAP_COST):
                    continue  # at the earlier plies, the cheap slips only, until one replays
                if ply < self.refused and cost == FIT_COST:
                    continue  # no path fitted but at the refused ply
                if ply == self.refused and (level > 0 or fitted):
                    continue
                if fitted and ply < self.since:
                    continue  # the stack refused was lifted since: its height is not that slip's
                for option in self._leveled(ply, cost, level):
                    if self.budget <= 0:
                        return found
                    if fitted and ply < self.refused and not self.lifted & option.changed:
                        continue  # the other way the stack's height was miscopied
                    candidate = self._try(ply, option, cost)
                    if candidate is None or (only_here and candidate.rank[0] > 0):
                        continue  # after a claimed correction, only another is worth a place
                    found.append(candidate)
                    if candidate.rank[0] == 0:
                        fitted = fitted or (not claimed and cost == FIT_COST)
                        claimed = True
                        if ply == self.refused:
                            here += 1
                        elif fitted:
                            return found
                        elif not here:
                            return found + self._also_at(ply, option, cost, level)
                        else:
                            before = True  # the refused ply's other slips may take the third place
                            break
        return found

    def _also_at(self, ply: int, tried: _Option, cost: float, level: int) -> list[_Candidate]:
        """The other corrections of the move at the earlier ``ply`` that replay to the
        claimed result, when its slip ``tried`` (costing ``cost``) does and none of the
        refused ply's slips do: its slips after that one up to :data:`CHEAP_COST`, until
        :data:`LIMIT` corrections in all. Two ways of mending one move often both do (an
        Implo stone a file off, or its rank a look-alike), and the likelier slip is not
        always the one made; the other plies' would only be a second explanation."""
        found: list[_Candidate] = []
        for other in COSTS:
            if not cost <= other <= CHEAP_COST:
                continue
            after = other > cost
            for option in self._leveled(ply, other, level):
                if not after:
                    after = option is tried
                    continue
                if self.budget <= 0 or len(found) >= LIMIT - 1:
                    return found
                candidate = self._try(ply, option, other)
                if candidate is not None and candidate.rank[0] == 0:
                    found.append(candidate)
        return found

    @staticmethod
    def _after_claimed(cost: float, fitted: bool, here: int) -> bool:
        """Whether the refused ply's slips costing ``cost`` are still tried once a correction
        there replays to the claimed result (``here`` of them do): those up to
        :data:`CHEAP_COST`, until :data:`LIMIT` do, but after a path fitted to its stack.
        Two corrections of a move often both replay as claimed (a placement one file off
        or a look-alike's rank, in Pletore; two ways of mending one part of an Implo
        placement), and the likelier one need not be the slip: the other is kept among the
        first three."""
        return not fitted and cost <= CHEAP_COST and here < LIMIT

    def _leveled(self, ply: int, cost: float, level: int) -> tuple[_Option, ...]:
        """The slips costing ``cost`` at ``ply`` that are of ``level`` (:meth:`_level`; all
        at the refused ply), kept for the search's later passes. At a close ply, a slip
        that changes no square named on or next to the refused move's is of level 2 without
        being read (most of them: reading is the dearest part of trying a slip), but for a
        sowing, whose squares its path decides; those of level 1 are read only when their
        pass comes."""
        if ply == self.refused:
            return self._options(ply, cost)
        if ply not in self.close:
            return self._options(ply, cost) if level == 2 else ()
        key = (ply, cost, level)
        found = self.split.get(key)
        if found is None:
            found = self.split[key] = self._of_level(ply, cost, level)
        return found

    def _of_level(self, ply: int, cost: float, level: int) -> tuple[_Option, ...]:
        if level == 0:
            return self._level_zero(ply, cost)
        if level == 1:
            return self._read_all(ply, self._level_one(ply, cost))
        taken = {option.text for option in self._leveled(ply, cost, 0)}
        taken.update(text for text, _, _ in self._level_one(ply, cost))
        return tuple([option for option in self._options(ply, cost) if option.text not in taken])

    def _level_zero(self, ply: int, cost: float) -> tuple[_Option, ...]:
        """The slips costing ``cost`` at the close ``ply`` that change what stands on a square
        the refused move touches (level 0), read. None when no cheap slip of the move written
        there can: but for a sowing's path, a cheap slip of a move puts each of its squares a
        cheap slip away (:func:`_reach`) or leaves it, so a move none of whose squares is on
        or a cheap slip away from one the refused move touches has none, and its slips are
        not even made (most close plies, whose moves are close to the refused one's
        neighbours only)."""
        written = self.written[ply - 1]
        if _has_path(written):
            if not _sowing_reach(written, self.size, cost) & self.touched:
                return ()
        elif not _reach(self.squares[ply - 1], self.size) & self.touched:
            return ()
        meant = self.moves[ply - 1]
        found: list[_Option] = []
        for text, what, added, changed in _changes(written, self.size, cost):
            if self._level(ply, added, changed) == 0 and self._heights_fit(ply, text):
                move = _read(text, self.game.name, self.size)
                if move is not None and move != meant:
                    found.append(_Option(move, text, what, changed))
        return tuple(found)

    def _level_one(self, ply: int, cost: float) -> tuple[tuple[str, str, int], ...]:
        """The slips costing ``cost`` at the close ``ply`` of level 1, unread (their text, what
        they are and the squares they change), kept."""
        key = (ply, cost)
        found = self.unread.get(key)
        if found is None:
            found = self.unread[key] = tuple([
                (text, what, changed)
                for text, what, added, changed in _changes(self.written[ply - 1], self.size, cost)
                if self._level(ply, added, changed) == 1
            ])  # fmt: skip
        return found

    def _read_all(self, ply: int, unread: tuple[tuple[str, str, int], ...]) -> tuple[_Option, ...]:
        """The slips ``unread`` of the move at ``ply`` that read as another move of the game."""
        meant = self.moves[ply - 1]
        found: list[_Option] = []
        for text, what, changed in unread:
            move = _read(text, self.game.name, self.size)
            if move is not None and move != meant:
                found.append(_Option(move, text, what, changed))
        return tuple(found)

    def _options(self, ply: int, cost: float) -> tuple[_Option, ...]:
        if cost == FIT_COST:
            return self.fits if ply == self.refused else ()
        return _options(self.written[ply - 1], self.game.name, self.size, cost, self.generation)

    def _fits(self) -> tuple[_Option, ...]:
        """The refused sowing with its path one direction longer or shorter, when the path
        written is one step shorter or longer than the stack it lifts is high: the path
        corrected to its stack, a direction dropped or doubled (none for another move)."""
        written = self.written[self.refused - 1].lower()
        origin, colon, path = written.partition(":")
        if not colon or not _SQUARE.fullmatch(origin) or not path:
            return ()
        if any(letter not in OPPOSITE for letter in path):
            return ()
        point = Point.parse(origin)
        if point.file >= self.size or point.rank >= self.size:
            return ()
        stack = self.rules.position(self.states[self.refused - 1])[point.rank][point.file]
        if abs(len(stack) - len(path)) != 1:
            return ()
        self.lifted = 1 << point.index(self.size)
        self.since = self._last_lift(point.index(self.size))
        found: list[_Option] = []
        for text, what in _fitted(written, len(stack)):
            move = _read(text, self.game.name, self.size)
            if move is not None:
                found.append(_Option(move, text, what))
        return tuple(found)

    def _lifts(self) -> dict[int, list[int]]:
        """The plies of the window and the refused one that sow the stack on each square, as
        written, by square (:meth:`Point.index`), when every one of their moves is a sowing
        (none when one is not: its effect on the stacks is not known from its text), and
        :attr:`short` set."""
        lifts: dict[int, list[int]] = {}
        origin = -1
        for ply in range(self.window, self.refused + 1):
            origin = _sown_from(self.written[ply - 1], self.size)
            if origin < 0:
                return {}
            lifts.setdefault(origin, []).append(ply)
        written = self.written[self.refused - 1]
        self.refused_from = origin  # the last ply's: the refused one
        stack = self.rules.position(self.states[self.refused - 1])[origin // self.size]
        self.short = len(written) - written.rfind(":") - 1 - len(stack[origin % self.size])
        return lifts

    def _heights_fit(self, ply: int, text: str) -> bool:
        """Whether the sowing ``text``, written at the earlier ``ply`` in place of the sowing
        written there, leaves every stack sown after it and up to the refused ply as high
        as that sowing's path is long, the refused stack as high as its path, as written
        (in a game of sowings; True in another). A sowing lifts its whole stack, which its
        path is as long as, and drops one man on each square of its path, so the slip
        changes the height of a square by what the two sowings lift and drop there; where
        a stack is sown later, that change must be none, or, for the refused stack, what it
        lacks (:attr:`short`). Most slips of an earlier sowing fail so, and are neither
        read (:meth:`_level_zero`) nor replayed (:meth:`_try`)."""
        if not self.lifts or ply < self.window:
            return True
        slipped, written = _sown(text, self.size), _sown(self.written[ply - 1], self.size)
        if slipped is None or written is None:
            return True
        wanted = self._wanted(ply)
        for square, men in slipped.items():
            need = wanted.get(square)
            if need is not None and men - written.get(square, 0) != need:
                return False
        for square, men in written.items():
            need = wanted.get(square)
            if need is not None and square not in slipped and -men != need:
                return False
        refused = self.refused_from
        return refused in slipped or refused in written or not wanted.get(refused, 0)

    def _wanted(self, ply: int) -> dict[int, int]:
        """The change of height each square sown after ``ply``, up to the refused ply, may
        take (:meth:`_heights_fit`), by square; kept by ply."""
        found = self.wanted.get(ply)
        if found is None:
            found = self.wanted[ply] = {}
            for square, plies in self.lifts.items():
                later = next((sown for sown in plies if sown > ply), 0)
                if later:
                    found[square] = self.short if later == self.refused else 0
        return found

    def _last_lift(self, square: int) -> int:
        """The latest ply of the window before the refused one whose move, as written, sows
        the stack on ``square`` (:meth:`Point.index`), or 0. A sowing lifts its whole stack
        and its path is as long as the stack is high, so a slip before that ply that made
        the stack one man higher or lower there would have had that sowing refused: the
        other way the refused stack's height was miscopied is a slip at that ply or after
        it (:meth:`_search`)."""
        for ply in range(self.refused - 1, self.window - 1, -1):
            if _sown_from(self.written[ply - 1], self.size) == square:
                return ply
        return 0

    def _level(self, ply: int, added: int, changed: int) -> int:
        """How likely a correction at the earlier ``ply`` is, by the squares its slip
        changes (``changed``: those the written move or the slip's touches alone; ``added``:
        the slip's alone), among the slips up to :data:`CHEAP_COST` (none of the others are
        tried there): 0 at a close ply when it changes what stands on a square the refused
        move touches, 1 when it changes what stands next to one, and its new squares no
        placement names before the refused move (such a placement would most likely have
        been refused then); 2 otherwise."""
        if ply not in self.close or not self.around & changed or added & self.placed[ply - 1]:
            return 2
        return 0 if self.touched & changed else 1

    def _try(self, ply: int, option: _Option, cost: float) -> _Candidate | None:
        """Play ``option`` at ``ply`` and the record's moves after it up to the refused one,
        then the rest (:meth:`_ending`), within the budget: what the correction achieves,
        or None if the refused move stays refused."""
        if ply < self.refused and not self._heights_fit(ply, option.text):
            return None
        move = option.move
        self.budget -= 1
        try:
            state = self.rules.play(self.states[ply - 1], move)
        except IllegalMoveError:
            return None
        played = self._played(state, ply + 1, self.refused)
        if played is None or played[1]:
            return None  # the budget is spent, or the refused move stays refused: not the slip
        ending = self._ending(played[0])
        if ending is None:
            return None
        outcome, result = ending
        return _Candidate((outcome, cost, self.refused - ply), ply, move, option.what, result)

    def _ending(self, after: Any) -> tuple[int, str | None] | None:
        """How the record ends from ``after``, the position after its refused move: 0 and
        the result when the rest replays to the claimed result, 1 and the result when to
        another, 2 and None when a later move is refused; None when the budget runs out.
        Kept by position: corrections at two plies often lead to the same one (``c3`` then
        ``d4`` for ``d4`` then ``c3``), and the rest is then played once."""
        known = self.endings.get(after)
        if known is not None:
            return known
        played = self._played(after, self.refused + 1, len(self.moves))
        if played is None:
            return None
        state, refused = played
        if refused:
            ending: tuple[int, str | None] = (2, None)
        else:
            result, claimed = settle(self.record, self.rules, state)
            ending = (0 if claimed else 1), result
        self.endings[after] = ending
        return ending

    def _played(self, state: Any, first: int, last: int) -> tuple[Any, bool] | None:
        """The record's plies ``first`` to ``last`` played from ``state``, each counted in the
        budget: the position reached and False, or the position before a refused ply and
        True; None when the budget runs out first."""
        rules, moves = self.rules, self.moves
        for ply in range(first, last + 1):
            if self.budget <= 0:
                return None
            self.budget -= 1
            try:
                state = rules.play(state, moves[ply - 1])  # compiled: through the vtable
            except IllegalMoveError:
                return state, True
        return state, False

    def described(self, candidate: _Candidate) -> Suggestion:
        turn = self.record.turns[candidate.ply - 1]
        after = self.rules.play(self.states[candidate.ply - 1], candidate.move)
        return Suggestion(
            candidate.ply,
            str(self.rules.written(after, candidate.move)),
            self.written[candidate.ply - 1],
            candidate.slip,
            candidate.rank[0] < 2,
            candidate.result,
            candidate.rank[0] == 0,
            turn.where,
        )


def suggest_reading(error: RecordError, *, limit: int = LIMIT) -> list[Suggestion]:
    """The best corrections of the move at which reading a record stopped, best first: in
    GRN, a word that is no move, a square off the board, a form the game lacks; in JSON, a
    move object naming a square off the board or a form the game lacks. The record is read
    again once, with the first slip of the move that reads, and each slip is then tried at
    that ply as a refused move's are."""
    if error.code not in UNREAD_CODES:
        return []
    if error.source is None:
        return _corrections_of_object(error, limit)
    if error.line is None:
        return []
    text, first_line = error.source
    if len(text) > MAX_SOURCE:
        return []
    lines = text.split("\n")
    number, column = error.line - first_line, (error.column or 1) - 1
    if not 0 <= number < len(lines):
        return []
    line = lines[number]
    rest = line[column:].split(None, 1)
    word = rest[0] if rest else ""
    if not word or len(word) > MAX_WORD:
        return []
    at = Location(error.line, column + 1)
    paused = _pause_collector()
    try:
        return _corrections_of_word(lines, number, column, word, first_line, at, limit, error)
    finally:
        _resume_collector(paused)


def _corrections_of_word(
    lines: list[str], number: int, column: int, word: str, first_line: int, at: Location,
    limit: int, error: RecordError,
) -> list[Suggestion]:  # fmt: skip
    """The corrections of ``word``, at ``column`` of ``lines[number]``: the record is read
    with its slips until one reads (at most :data:`READINGS` readings), then searched. When
    the error knows the game and the board (a square off it, a form the game lacks), only
    the slips that are moves there are read with."""
    line = lines[number]
    known = error.record
    _read_afresh()
    readings = 0
    for slip in slips(word):
        if readings >= READINGS:
            break
        if known is not None and _read(slip.text, known.game, known.size) is None:
            continue
        if not _is_move_word(slip.text):
            continue
        readings += 1
        lines[number] = line[:column] + slip.text + line[column + len(word) :]
        found = _read_with(lines, first_line, at)
        if found is not None:
            record, ply = found
            try:
                search = _Search(record, ply, written=word)
            except RecordError:  # a move before the word is refused: no correction helps
                return []
            return [search.described(c) for c in search.run(limit, earlier=False)]
    return []


def _corrections_of_object(error: RecordError, limit: int) -> list[Suggestion]:
    """The corrections of the move object of a JSON record (``error.parsed``) that names a
    square off the board or a form the game lacks: the move, written as GRN, is changed by
    its slips, and the record is read again with the first that is a move of the game (the
    JSON reader is imported here, as its reading did: it brings the JSON Schema validator,
    which GRN never needs)."""
    from arbiter.notation.json_reader import move_from_json, record_from_json

    found = _MOVE_POINTER.fullmatch(error.pointer or "")
    parsed, known = error.parsed, error.record
    if found is None or known is None or not isinstance(parsed, dict):
        return []
    moves, number = parsed.get("moves"), int(found.group(1))
    if not isinstance(moves, list) or number >= len(moves) or not isinstance(moves[number], dict):
        return []
    try:
        word = str(move_from_json(moves[number]))
    except (RecordError, ValueError, KeyError, TypeError):
        return []
    paused = _pause_collector()
    try:
        _read_afresh()
        readings = 0
        for slip in slips(word):
            move = _read(slip.text, known.game, known.size)
            if move is None:
                continue
            if readings >= READINGS:
                break
            readings += 1
            fixed = [*moves[:number], _move_object(move, moves[number]), *moves[number + 1 :]]
            try:
                record = record_from_json({**parsed, "moves": fixed}, known.index)
                search = _Search(record, number + 1, written=word)
            except RecordError:  # another problem in the record, or a move before refused
                continue
            return [search.described(c) for c in search.run(limit, earlier=False)]
        return []
    finally:
        _resume_collector(paused)


def _move_object(move: Move, written: dict[str, Any]) -> dict[str, Any]:
    """``move`` as a JSON move object, with the comment of the one ``written``."""
    found: dict[str, Any] = {"type": move.type, **move.json_fields()}
    if "comment" in written:
        found["comment"] = written["comment"]
    return found


def _read_with(lines: list[str], first_line: int, at: Location) -> tuple[Record, int] | None:
    """The record ``lines`` hold and the ply of the move written at ``at``; None if it does
    not read, or reads with no move there."""
    try:
        record = parse_grn_record("\n".join(lines), first_line=first_line)
    except RecordError:
        return None
    ply = next((n for n, turn in enumerate(record.turns, 1) if turn.where == at), None)
    return None if ply is None else (record, ply)


def _interleaved(ranked: list[_Candidate]) -> list[_Candidate]:
    """``ranked`` with the best correction at another ply than the first moved up to second
    place, when it is of the same kind (both replay to the claimed result, say). When both
    replay to the claimed result, the first is the refused move's and the other's slip is
    no less likely, the other comes first: where both explain the refusal, the earlier slip
    was the right one about two times in three on the bench's corpora, which hold as many
    slips refused later as slips refused where they stand (``spec/hints.md``, "Ranking")."""
    if not ranked:
        return ranked
    first = ranked[0]
    other = next((c for c in ranked[1:] if c.ply != first.ply), None)
    if other is None or other.rank[0] != first.rank[0]:
        return ranked
    rest = [c for c in ranked[1:] if c is not other]
    refused = first.rank[2] == 0
    if refused and first.rank[0] == 0 and other.rank[1] <= first.rank[1]:
        return [other, first, *rest]
    return [first, other, *rest]


def _away_tiers(square: int, size: int) -> dict[float, tuple[int, ...]]:
    """The squares a slip up to :data:`CHEAP_COST` makes of ``square`` on a board of
    ``size`` (:meth:`Point.index` numbers), by the slip's cost, kept."""
    key = square * 32 + size
    found = _AWAY_TIERS.get(key)
    if found is None:
        found = {}
        text = str(Point(square % size, square // size))
        for cost, tier in _tiers(text, True, size).items():
            away: list[int] = []
            for slip, _ in tier:
                if _SQUARE.fullmatch(slip):
                    point = Point.parse(slip)
                    if point.file < size and point.rank < size:
                        away.append(point.index(size))
            found[cost] = tuple(away)
        _AWAY_TIERS[key] = found
    return found


_AWAY_TIERS: dict[int, dict[float, tuple[int, ...]]] = {}


def _away(square: int, size: int) -> tuple[int, ...]:
    """The squares a slip up to :data:`CHEAP_COST` makes of ``square`` on a board of
    ``size`` (:meth:`Point.index` numbers), kept."""
    key = square * 32 + size
    found = _AWAY.get(key)
    if found is None:
        found = _AWAY[key] = tuple(
            [other for tier in _away_tiers(square, size).values() for other in tier]
        )
    return found


_AWAY: dict[int, tuple[int, ...]] = {}


def _around(squares: Iterable[int], size: int) -> set[int]:
    """The squares on or next to ``squares`` (diagonals too), on a board of ``size``, as
    :meth:`Point.index` numbers them."""
    return {
        (rank + dr) * size + file + df
        for square in squares
        for file, rank in [(square % size, square // size)]
        for df in (-1, 0, 1)
        for dr in (-1, 0, 1)
        if 0 <= file + df < size and 0 <= rank + dr < size
    }


def _rays(square: int, size: int) -> tuple[tuple[int, ...], ...]:
    """The squares in line with ``square`` on a board of ``size``, each way along its rank
    and its file, nearest first (:meth:`Point.index` numbers), kept."""
    key = square * 32 + size
    found = _RAYS.get(key)
    if found is None:
        file = square % size
        found = _RAYS[key] = (
            tuple(range(square + 1, square + size - file)),
            tuple(range(square - 1, square - file - 1, -1)),
            tuple(range(square + size, size * size, size)),
            tuple(range(square - size, -1, -size)),
        )
    return found


_RAYS: dict[int, tuple[tuple[int, ...], ...]] = {}


def _squares(text: str, size: int) -> int:
    """The squares the move written ``text`` touches on a board of ``size``: those it names
    (an Implo placement's resolution steps too), and those a sowing's path goes through, as
    far as it stays on the board (the squares :meth:`Move.points` and :meth:`Move.trace`
    give), read from the text alone. As a mask, bit :meth:`Point.index` for each square;
    kept, by board and text (a plain table of numbers, which the cycle collector lets be):
    the same moves come back ply after ply and record after record."""
    table = _board_table(_SQUARES, size)
    found = table.get(text)
    if found is None:
        found = _keep(table, text, _mask(_walked(text, size)))
    return found


_SQUARES: dict[int, dict[str, int]] = {}


def _has_path(text: str) -> bool:
    """Whether the move written ``text`` ends with a sowing's path (``c3:nne``): its cheap
    slips then change the squares the path goes through, not only those it names."""
    colon = text.rfind(":")
    path = text[colon + 1 :]
    return colon >= 0 and bool(path) and all(letter in OPPOSITE for letter in path)


def _reach(squares: int, size: int) -> int:
    """``squares`` (a mask) and every square a cheap slip makes of one of them (:func:`_away`),
    on a board of ``size``: the squares a cheap slip of a move naming ``squares`` may change,
    but for a sowing's path (a file or rank off by one or a look-alike puts a square a cheap
    slip away; two squares exchanged leave the move on the same squares). Kept, by board and
    squares (plain numbers)."""
    table = _board_table(_REACH, size)
    found = table.get(squares)
    if found is None:
        found = squares
        for square in _bits(squares):
            for other in _away(square, size):
                found |= 1 << other
        _keep(table, squares, found)
    return found


_REACH: dict[int, dict[int, int]] = {}


def _sowing_reach(text: str, size: int, cost: float) -> int:
    """The squares a slip costing ``cost`` (up to :data:`CHEAP_COST`) of the sowing written
    ``text`` (``c3:nne``) changes, on a board of ``size``, as a mask: those that the sowing
    written or the slipped one goes through alone, over every such slip that moves its
    stack's square (:func:`_away_tiers`) or reverses all its directions, one of them, or
    swaps two next to each other (:func:`_path_slips`), as :func:`_changes` would find them,
    without making the slips. A move none of whose slips changes a square the refused move
    touches has no slip of level 0: at a close ply of Pilare, whose every move is a sowing,
    most moves are such. Every square, when the text names no one square before its path.
    Kept, by board and text."""
    table = _board_table(_SOWN, size)
    found = table.get(text)
    if found is None:
        found = _keep(table, text, _sowing_changes(text, size))
    return found.get(cost, 0)


_SOWN: dict[int, dict[str, dict[float, int]]] = {}


def _sowing_changes(text: str, size: int) -> dict[float, int]:
    """The masks of :func:`_sowing_reach`, by cost, worked out from the squares of the path
    written (each slip's are those moved: all of them by a square slipped, those after a
    direction reversed or two swapped, all turned about the start by the path reversed)."""
    colon = text.rfind(":")
    named = _named(text[:colon], size)
    if len(named) != 1:
        return dict.fromkeys((1.0, SWAP_COST, CHEAP_COST), (1 << (size * size)) - 1)
    origin = named[0]
    files, ranks = [origin % size], [origin // size]
    for letter in text[colon + 1 :]:
        step = STEPS[letter]
        files.append(files[-1] + step[0])
        ranks.append(ranks[-1] + step[1])
    written = _walk_of(files, ranks, 0, 0, 0, size)
    found: dict[float, int] = {}
    for cost, squares in _away_tiers(origin, size).items():
        for start in squares:
            moved = _walk_of(
                files, ranks, 0, start % size - files[0], start // size - ranks[0], size
            )
            found[cost] = found.get(cost, 0) | (moved ^ written)
    turned = _walk_of(
        [2 * files[0] - f for f in files], [2 * ranks[0] - r for r in ranks], 0, 0, 0, size
    )
    turned ^= written
    swapped = 0
    for index in range(1, len(files)):
        file_step, rank_step = files[index] - files[index - 1], ranks[index] - ranks[index - 1]
        turned |= _walk_of(files, ranks, index, -2 * file_step, -2 * rank_step, size) ^ written
        if index + 1 < len(files):
            after = files[index + 1] - files[index], ranks[index + 1] - ranks[index]
            if after != (file_step, rank_step):
                # two directions swapped: only the square between them moves
                moved_files = [*files[:index], files[index - 1] + after[0], *files[index + 1 :]]
                moved_ranks = [*ranks[:index], ranks[index - 1] + after[1], *ranks[index + 1 :]]
                swapped |= _walk_of(moved_files, moved_ranks, 0, 0, 0, size) ^ written
    found[1.0] = found.get(1.0, 0) | turned
    found[CHEAP_COST] = found.get(CHEAP_COST, 0) | swapped
    return found


def _walk_of(
    files: list[int], ranks: list[int], moved: int, file_by: int, rank_by: int, size: int
) -> int:
    """The squares of the path ``files``, ``ranks`` (its start first) as far as it stays on a
    board of ``size``, those from index ``moved`` on moved by ``file_by`` and ``rank_by``, as
    a mask."""
    found = 0
    for index in range(len(files)):
        file, rank = files[index], ranks[index]
        if index >= moved:
            file, rank = file + file_by, rank + rank_by
        if not (0 <= file < size and 0 <= rank < size):
            break
        found |= 1 << (rank * size + file)
    return found


def _sown_from(text: str, size: int) -> int:
    """The square (:meth:`Point.index`) whose stack the move written ``text`` sows, when it
    is a sowing naming one square of a board of ``size`` before its path; else -1."""
    if not _has_path(text):
        return -1
    named = _named(text[: text.rfind(":")], size)
    return named[0] if len(named) == 1 else -1


def _sown(text: str, size: int) -> dict[int, int] | None:
    """How many men each square gains (or loses) by the sowing written ``text`` on a board
    of ``size``: its whole stack lifted, as high as its path is long, and one man dropped on
    each square of its path (as far as it stays on the board), by square; None when it is
    no sowing. Kept, by board and text."""
    table = _board_table(_SOWINGS, size)
    if text in table:
        return table[text]
    origin = _sown_from(text, size)
    found: dict[int, int] | None = None
    if origin >= 0:
        found = {origin: text.rfind(":") + 1 - len(text)}  # the stack, as high as its path
        for square in _walked(text, size)[1:]:
            found[square] = found.get(square, 0) + 1
    return _keep(table, text, found)


_SOWINGS: dict[int, dict[str, dict[int, int] | None]] = {}


def _mask(squares: Iterable[int]) -> int:
    """``squares`` as a mask: bit ``n`` for square ``n``."""
    found = 0
    for square in squares:
        found |= 1 << square
    return found


def _bits(mask: int) -> list[int]:
    """The squares of ``mask``, in order."""
    found: list[int] = []
    square = 0
    while mask:
        if mask & 1:
            found.append(square)
        mask >>= 1
        square += 1
    return found


def _walked(text: str, size: int) -> list[int]:
    """The squares of :func:`_squares`, worked out."""
    found = _named(text, size)
    colon = text.rfind(":")
    path = text[colon + 1 :]
    if colon < 0 or len(found) != 1 or not path or any(c not in OPPOSITE for c in path):
        return found
    file, rank = found[0] % size, found[0] // size
    for letter in path:
        step = STEPS[letter]
        file, rank = file + step[0], rank + step[1]
        if not (0 <= file < size and 0 <= rank < size):
            break
        found.append(rank * size + file)
    return found


def _named(text: str, size: int) -> list[int]:
    """The squares ``text`` names that lie on a board of ``size``, as :meth:`Point.index`
    numbers them, in order (those :func:`_squares_in` finds, read in one pass)."""
    found: list[int] = []
    index, length = 0, len(text)
    while index < length - 1:
        file, rank = ord(text[index]) - 97, ord(text[index + 1]) - 48
        if 0 <= file < 19 and 1 <= rank <= 9:
            index += 2
            if rank == 1 and index < length and 0 <= ord(text[index]) - 48 <= 9:
                rank = 10 + ord(text[index]) - 48
                index += 1
            if file < size and rank <= size:
                found.append((rank - 1) * size + file)
        else:
            index += 1
    return found


def _read(text: str, game: str, size: int) -> Move | None:
    """The move ``text`` writes in ``game`` on a board of ``size``, or None (kept: the
    same slips of the same moves come back record after record)."""
    table = _board_table(_READ, (game, size))
    found = table.get(text)
    if found is not None or text in table:
        return found
    move = move_of_text(text)
    if move is not None:
        move = move_in_game(move, find_game(game), size)
    return _keep(table, text, move)


def _text(move: Move) -> str:
    """The text of ``move`` (its ``str``), kept by the move object itself: a record's moves
    are interned by their words (the GRN reader's), so the same few hundred come back ply
    after ply and record after record, and writing one out costs more than finding it. The
    table holds the move with its text, so no other object takes its id while it is there."""
    key = id(move)
    found = _TEXTS.get(key)
    if found is not None and found[0] is move:
        return found[1]
    text = str(move)
    if len(_TEXTS) >= MAX_READ:
        _TEXTS.clear()
    _TEXTS[key] = (move, text)
    return text


_TEXTS: dict[int, tuple[Move, str]] = {}


MAX_READ = 65_536
"""The most entries each kept table holds: a full one is emptied (:func:`_keep`)."""


def _board_table(tables: dict[B, dict[K, V]], board: B) -> dict[K, V]:
    """The kept table of ``board`` (a size, or a game and a size) in ``tables``, made empty
    the first time."""
    table = tables.get(board)
    if table is None:
        table = tables[board] = {}
    return table


def _keep(table: dict[K, V], key: K, value: V) -> V:
    """``value`` kept under ``key`` in ``table``, emptied first when it holds
    :data:`MAX_READ` entries (a plain table of numbers and texts, bounded, rather than an
    LRU cache: the cycle collector lets it be)."""
    if len(table) >= MAX_READ:
        table.clear()
    table[key] = value
    return value


_READ: dict[tuple[str, int], dict[str, Move | None]] = {}
"""The words read so far, by game and board, then by text (a plain table rather than an
LRU cache, keyed by strings: its entries are not objects the cycle collector must visit,
but for the moves). Emptied when a game or a form is registered."""
_READ_GENERATION = [-1]


def _read_afresh() -> int:
    """The registries' generation, the words read so far forgotten if it changed (a new
    form may read a word that was none)."""
    now = generation()
    if now != _READ_GENERATION[0]:
        _READ.clear()
        _READ_GENERATION[0] = now
    return now


def _is_move_word(text: str) -> bool:
    """Whether ``text`` is written as a move (checked before reading a record again)."""
    kind = word_pattern().fullmatch(text)
    return kind is not None and kind.lastgroup != "MOVE_NUMBER"


@lru_cache(maxsize=16384)
def _options(
    written: str, game: str, size: int, cost: float, generation: int
) -> tuple[_Option, ...]:
    """The moves that the slips of ``written`` costing ``cost`` write in ``game``, each once,
    none ``written``'s own move (kept: the same moves come back record after record; the
    registries' ``generation`` is part of the key, since a new form may read a word)."""
    meant = _read(written, game, size)
    board = 0 if meant is None else size
    found: list[_Option] = []
    for text, what in _tiers(written, cost <= CHEAP_COST, board).get(cost, ()):
        move = _read(text, game, size)
        if move is not None and move != meant:
            found.append(_Option(move, text, what))
    return tuple(found)


@lru_cache(maxsize=16384)
def _changes(written: str, size: int, cost: float) -> tuple[tuple[str, str, int, int], ...]:
    """The slips of ``written``, a move on a board of ``size``, costing ``cost`` (up to
    :data:`CHEAP_COST`), each with what it was, the squares the move it writes touches and
    the written one does not, and those either touches alone (masks, :func:`_squares`), read
    from the texts (kept: most moves of an archive repeat; as plain tuples, which the cycle
    collector lets be)."""
    squares = _squares(written, size)
    found: list[tuple[str, str, int, int]] = []
    for text, what in _tiers(written, True, size).get(cost, ()):
        slipped = _squares(text, size)
        found.append((text, what, slipped & ~squares, slipped ^ squares))
    return tuple(found)


@lru_cache(maxsize=4096)
def _tiers(written: str, cheap: bool, board: int = 0) -> dict[float, tuple[tuple[str, str], ...]]:
    """The slips of ``written`` by their cost, each as its text and what it was; with
    ``cheap``, those up to :data:`CHEAP_COST` only; with a ``board`` (its size), only those
    that may be moves there, ``written`` being one (:func:`_made`). Kept: most moves of an
    archive repeat; as plain tuples, which the cycle collector lets be."""
    tiers: dict[float, list[tuple[str, str]]] = {}
    for text, (cost, what) in _made(written, cheap, board).items():
        tiers.setdefault(cost, []).append((text, what))
    return {cost: tuple(found) for cost, found in sorted(tiers.items())}


def slips(written: str) -> tuple[Slip, ...]:
    """What may have been meant where ``written`` stands, by the slips people make copying
    a scoresheet, each text once, likeliest first."""
    return _slips(written, cheap=False)


def _slips(written: str, *, cheap: bool) -> tuple[Slip, ...]:
    """The slips of ``written``; with ``cheap``, only those up to :data:`CHEAP_COST`."""
    found = [Slip(slip, what, cost) for slip, (cost, what) in _made(written, cheap).items()]
    return tuple(sorted(found, key=lambda slip: slip.cost))


def _made(written: str, cheap: bool, board: int = 0) -> dict[str, tuple[float, str]]:
    """The cost and the kind of each slip of ``written``, in the order they are made; with
    ``cheap``, only those up to :data:`CHEAP_COST` (and only those are made). With a
    ``board``, ``written`` is a move on a board of that size, and only the slips that may be
    moves there are made: their squares on the board, a look-alike only in a square (a letter
    for its file, a digit for its rank; a move with another character would be no move)."""
    text = written.lower()
    made = _Made(text)
    if len(text) > MAX_WORD:
        return made.found
    _square_slips(made, text, cheap, board or len(FILES))
    _path_slips(made, text, cheap)
    if board:
        _look_alike_squares(made, text, board)
    else:
        _look_alike_slips(made, text)
    if not cheap:
        _typing_slips(made, text)
    return made.found


class _Made:
    """The slips made of one text so far: each text once, at its lowest cost."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.found: dict[str, tuple[float, str]] = {}

    def add(self, slip: str, what: str, cost: float) -> None:
        known = self.found.get(slip)
        if slip != self.text and (known is None or cost < known[0]):
            self.found[slip] = (cost, what)


def _squares_in(text: str) -> list[tuple[int, int]]:
    """Where the squares of ``text`` stand: (start, end) of each file letter and rank."""
    found: list[tuple[int, int]] = []
    index, length = 0, len(text)
    while index < length - 1:
        if "a" <= text[index] <= "s" and "1" <= text[index + 1] <= "9":
            end = index + 2
            if text[index + 1] == "1" and end < length and "0" <= text[end] <= "9":
                end += 1
            found.append((index, end))
            index = end
        else:
            index += 1
    return found


def _square_slips(made: _Made, text: str, cheap: bool, board: int) -> None:
    squares = _squares_in(text)
    for start, end in squares:
        letter, rank = text[start], int(text[start + 1 : end])
        head, tail = text[:start], text[end:]
        file = FILES.index(letter)
        for step in (1,) if cheap else (1, 2):
            cost = 1.0 if step == 1 else 2.5
            for sign in (-1, 1):
                moved = file + sign * step
                if 0 <= moved < board:
                    what = "file off by one" if step == 1 else "file off by two"
                    made.add(head + FILES[moved] + str(rank) + tail, what, cost)
                if 1 <= rank + sign * step <= board:
                    what = "rank off by one" if step == 1 else "rank off by two"
                    made.add(head + letter + str(rank + sign * step) + tail, what, cost)
    if len(squares) >= 2:
        made.add(_exchanged(text, squares[0], squares[1]), "the two squares swapped", 1.0)
    # In a move of more than two squares (an Implo placement with its steps), any two of its
    # squares may have been exchanged: a step's patch and its group, two steps written in
    # the wrong order, the stone placed and a step. Next to each other most often.
    for first in range(len(squares)):
        for second in range(max(first + 1, 2), len(squares)):
            cost = 1.0 if second == first + 1 else SWAP_COST
            made.add(_exchanged(text, squares[first], squares[second]), "two squares swapped", cost)


def _exchanged(text: str, first: tuple[int, int], second: tuple[int, int]) -> str:
    """``text`` with the square at ``first`` and the one at ``second`` (start, end; the
    first before the second) exchanged."""
    (start1, end1), (start2, end2) = first, second
    return text[:start1] + text[start2:end2] + text[end1:start2] + text[start1:end1] + text[end2:]


def _path_slips(made: _Made, text: str, cheap: bool) -> None:
    colon = text.rfind(":")
    path = text[colon + 1 :]
    if colon < 0 or not path or any(letter not in OPPOSITE for letter in path):
        return
    head = text[: colon + 1]
    made.add(head + "".join([OPPOSITE[c] for c in path]), "the directions reversed", 1.0)
    for index in range(len(path)):
        letter, before, rest = path[index], head + path[:index], path[index + 1 :]
        made.add(before + OPPOSITE[letter] + rest, "a direction reversed", 1.0)
        if rest and rest[0] != letter:
            made.add(before + rest[0] + letter + rest[1:], "two directions swapped", 1.3)
        if cheap:
            continue
        for other in "nsew":
            if other != letter and other != OPPOSITE[letter]:
                made.add(before + other + rest, "a direction miswritten", 1.6)
        if len(path) > 1:
            made.add(before + rest, "a direction dropped", 1.5)
        made.add(before + letter + letter + rest, "a direction doubled", 1.5)
    if not cheap:
        for letter in "nsew":
            made.add(text + letter, "a direction dropped", 1.8)


def _fitted(text: str, height: int) -> tuple[tuple[str, str], ...]:
    """The sowing ``text`` with a path of ``height`` steps, one direction dropped from its path
    or added to it, each text once and with what the slip was: the slips of its path that
    change its length, and a direction added anywhere."""
    colon = text.rfind(":")
    head, path = text[: colon + 1], text[colon + 1 :]
    made = _Made(text)
    if height == len(path) - 1:
        for index in range(len(path)):
            made.add(head + path[:index] + path[index + 1 :], "a direction dropped", FIT_COST)
    elif height == len(path) + 1:
        for index in range(len(path) + 1):
            before, rest = path[:index], path[index:]
            for letter in "nsew":
                doubled = before[-1:] == letter or rest[:1] == letter
                what = "a direction doubled" if doubled else "a direction dropped"
                made.add(head + before + letter + rest, what, FIT_COST)
    return tuple((slip, what) for slip, (_, what) in made.found.items())


def _look_alike_slips(made: _Made, text: str) -> None:
    for index in range(len(text)):
        head, char, rest = text[:index], text[index], text[index + 1 :]
        for other in LOOK_ALIKE.get(char, ""):
            made.add(head + other + rest, "a look-alike character", 1.2)
        for other in FAINT_ALIKE.get(char, ""):
            made.add(head + other + rest, "a look-alike character", 1.3)


def _look_alike_squares(made: _Made, text: str, board: int) -> None:
    """The look-alikes of the characters of ``text``'s squares that keep them squares of a
    board of ``board``: a letter for the file, a digit for the rank."""
    files = FILES[:board]
    for start, end in _squares_in(text):
        head, tail = text[:start], text[end:]
        letter, rank = text[start], text[start + 1 : end]
        for table, cost in ((LOOK_ALIKE, 1.2), (FAINT_ALIKE, 1.3)):
            for other in table.get(letter, ""):
                if other in files:
                    made.add(head + other + rank + tail, "a look-alike character", cost)
            for index in range(len(rank)):
                for other in table.get(rank[index], ""):
                    changed = rank[:index] + other + rank[index + 1 :]
                    if changed.isdigit() and changed[0] != "0" and int(changed) <= board:
                        made.add(head + letter + changed + tail, "a look-alike character", cost)


def _typing_slips(made: _Made, text: str) -> None:
    for index in range(len(text)):
        head, char, rest = text[:index], text[index], text[index + 1 :]
        for other in KEYBOARD.get(char, ""):
            made.add(head + other + rest, "a neighbouring key", 1.4)
        made.add(head + rest, "a character too many", 1.5)
        made.add(head + char + char + rest, "a character doubled", 2.0)
        if rest:
            made.add(head + rest[0] + char + rest[1:], "two characters swapped", 1.5)
    made.add(text + "x", "a character dropped", 1.5)
