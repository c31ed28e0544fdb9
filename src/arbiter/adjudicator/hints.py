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
from bisect import bisect_right
from collections.abc import Iterable, Mapping
from functools import lru_cache
from typing import Any, Final, NamedTuple

from arbiter.adjudicator.base import Rules, get_rules
from arbiter.adjudicator.replay import KEPT_STATES, settle, starting_state
from arbiter.notation.ast import FILES, Location, Move, Point, Record
from arbiter.notation.build import check_move
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
BUDGET_BASE = 100
BUDGET_PER_PLY = 3
"""The search replays at most ``BUDGET_BASE + BUDGET_PER_PLY * plies`` plies in all (the
plies of the record): about three more replays of the record, whatever it holds."""
WINDOW = KEPT_STATES - 1
"""How many plies before the refused one a slip is looked for (60)."""
REFUSED_CODES = frozenset({"illegal-move", "ambiguous-move"})
"""Errors of a record that reads but whose replay refuses a move."""
UNREAD_CODES = frozenset({"syntax-error", "off-board", "wrong-move-form"})
"""Errors of a record whose reading stops at a move."""
READINGS = 40
"""A record that stops at a move is read again with at most this many corrections."""
MAX_WORD = 24
"""Longer words are not searched: no move of any game is written so long, and the slips of a
word number about its length squared."""
MAX_SOURCE = 65_536
"""A record longer than this (in characters) is not read again: each reading costs its
length."""

LOOK_ALIKE: Final = {
    "1": "7l", "7": "1", "3": "8", "8": "3b", "5": "6s", "6": "5b", "4": "9", "9": "4g",
    "0": "o", "2": "z", "a": "o", "o": "a", "b": "h6", "h": "b", "c": "e", "e": "c",
    "g": "9q", "q": "g", "l": "1i", "i": "l", "m": "n", "n": "m", "u": "v", "v": "u",
}  # fmt: skip
"""Characters that handwriting, or reading it, confuses."""
KEYBOARD: Final = {
    "q": "wa", "w": "qes", "e": "wrd", "r": "etf", "t": "ryg", "y": "tu", "u": "yi", "i": "uo",
    "o": "ip", "p": "o", "a": "qsz", "s": "adwx", "d": "sfec", "f": "dgrv", "g": "fhtb",
    "h": "gjyn", "j": "hkum", "k": "jli", "l": "k", "z": "ax", "x": "zsc", "c": "xdv",
    "v": "cfb", "b": "vgn", "n": "bhm", "m": "nj", "1": "2", "2": "13", "3": "24", "4": "35",
    "5": "46", "6": "57", "7": "68", "8": "79", "9": "80", "0": "9",
}  # fmt: skip
"""Keys next to each other on a keyboard, for records typed in."""
OPPOSITE: Final = {"n": "s", "s": "n", "e": "w", "w": "e"}
COSTS: Final = (1.0, 1.2, 1.4, 1.5, 1.6, 1.8, 2.0, 2.5)
"""Every slip's cost, likeliest first: the search tries slips a cost at a time."""
CHEAP_COST = 1.2
"""The cheap slips cost up to this (a file or rank off by one, the squares swapped, the
directions reversed, a look-alike), every other more. At the plies before the refused
one only they are tried: they are nearly all the slips found there, and the others would
cost most of the search."""
_MOVE_POINTER = re.compile(r"/moves/(0|[1-9][0-9]{0,8})")
_SQUARE = re.compile(r"([a-s])(1[0-9]|[1-9])")
_PATH = re.compile(r":([nsew]+)$")


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
        search = _Search(record, refused, positions=positions)
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

    __slots__ = ("move", "text", "what")

    def __init__(self, move: Move, text: str, what: str) -> None:
        self.move: Final = move
        self.text: Final = text
        self.what: Final = what


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
            self.written[ply - 1] = str(self.moves[ply - 1])
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
        nothing: frozenset[int] = frozenset()
        self.squares = [nothing] * len(self.moves)
        """The squares each written move of the window touches (:meth:`Point.index`), by
        ply - 1."""
        self.uses: dict[int, list[int]] = {}
        """The plies of the window whose moves touch each square, in order."""
        for ply in range(window, refused + 1):
            squares = self.squares[ply - 1] = frozenset(_indexes(self.moves[ply - 1], self.size))
            for square in squares:
                self.uses.setdefault(square, []).append(ply)
        self.touched = self.squares[refused - 1]
        self.generation = _read_afresh()
        self.endings: dict[Any, tuple[int, str | None]] = {}
        """How the record ends from each position after the refused move tried so far."""
        self.close: frozenset[int] = frozenset()
        self.likely: dict[tuple[int, str], bool] = {}
        """Whether each slip at an earlier ply is a likely correction, by (ply, text)."""

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
        stands on the refused move's squares and whose new squares stay clear until then.
        The other slips of the window's plies only when none of those makes the game replay
        to its claimed result. The best correction comes first, then the best at another
        ply than it (the two ways a later refusal is explained: the refused move miscopied,
        or an earlier one), then the others."""
        close, others = self._plies()
        if not earlier:
            close, others = close[:1], []
        found = self._search(close, likely=True)
        if earlier and not any(candidate.rank[0] == 0 for candidate in found):
            found += self._search(close[1:] + others, likely=False)
        unique: dict[tuple[int, str], _Candidate] = {}
        for candidate in sorted(found, key=lambda candidate: candidate.rank):
            unique.setdefault((candidate.ply, str(candidate.move)), candidate)
        return _interleaved(list(unique.values()))[:limit]

    def _plies(self) -> tuple[list[int], list[int]]:
        """The refused ply and the earlier plies whose moves touch a square on or next to
        one the refused move touches, or one a slip away from those (``b8`` for ``b3``), or
        that come just before it; then the other earlier plies of the window."""
        near = _around(self.touched, self.size) | self._slip_away()
        earlier = range(self.refused - 1, max(0, self.refused - WINDOW), -1)
        close = [self.refused]
        for ply in earlier:
            if ply >= self.refused - 2 or near.intersection(self.squares[ply - 1]):
                close.append(ply)
        self.close = frozenset(close)
        return close, [ply for ply in earlier if ply not in self.close]

    def _slip_away(self) -> set[int]:
        """The squares that a slip up to :data:`CHEAP_COST` makes of one the refused move
        names (the slips of a square are nearly symmetric: ``b3`` and ``b8`` are each
        other's look-alikes; the squares a sowing goes through are not written)."""
        away: set[int] = set()
        for named in self.moves[self.refused - 1].points():
            for found in _tiers(str(named), True).values():
                for text, _ in found:
                    if _SQUARE.fullmatch(text):
                        point = Point.parse(text)
                        if point.file < self.size and point.rank < self.size:
                            away.add(point.index(self.size))
        return away

    def _search(self, plies: list[int], likely: bool) -> list[_Candidate]:
        """Try the slips at ``plies``, by cost, then the close plies (:meth:`_plies`) before
        the others, each nearest the refused one first. With ``likely``, the refused ply's
        slips and the likely ones at the earlier plies (:meth:`_likely`); without, only the
        others. Once a correction replays to the claimed result, the search ends with the
        slips of that cost (the others of the same cost are wanted for the second and third
        places: the best at another ply, say)."""
        found: list[_Candidate] = []
        nearest_first = sorted(plies, key=lambda ply: (ply not in self.close, self.refused - ply))
        for cost in COSTS:
            if any(candidate.rank[0] == 0 for candidate in found):
                break
            for ply in nearest_first:
                if ply < self.refused and cost > CHEAP_COST:
                    continue  # at the earlier plies, the cheap slips only
                for option in self._options(ply, cost):
                    if self.budget <= 0:
                        return found
                    if ply < self.refused and self._likely(ply, option) != likely:
                        continue
                    candidate = self._try(ply, option, cost)
                    if candidate is not None:
                        found.append(candidate)
        return found

    def _options(self, ply: int, cost: float) -> tuple[_Option, ...]:
        return _options(self.written[ply - 1], self.game.name, self.size, cost, self.generation)

    def _likely(self, ply: int, option: _Option) -> bool:
        """Whether ``option`` at the earlier ``ply`` is among the likely corrections: a slip
        up to :data:`CHEAP_COST` at a close ply that changes what stands on a square the
        refused move touches, and whose new squares no move touches before the refused one
        (such a move would most likely have been refused then)."""
        if ply not in self.close:
            return False
        key = (ply, option.text)
        likely = self.likely.get(key)
        if likely is None:
            squares = frozenset(_indexes(option.move, self.size))
            likely = self.likely[key] = self._touches(ply, squares) and self._clear(ply, squares)
        return likely

    def _clear(self, ply: int, squares: frozenset[int]) -> bool:
        """Whether no move of the record between ``ply`` and the refused one touches a
        square of ``squares`` that the written move does not."""
        for square in squares - self.squares[ply - 1]:
            uses = self.uses.get(square, ())
            at = bisect_right(uses, ply)
            if at < len(uses) and uses[at] < self.refused:
                return False
        return True

    def _touches(self, ply: int, squares: frozenset[int]) -> bool:
        """Whether a move touching ``squares``, written at ``ply`` instead of the record's
        move, changes which of the refused move's squares it touches."""
        changed = self.squares[ply - 1].symmetric_difference(squares)
        return bool(self.touched.intersection(changed))

    def _try(self, ply: int, option: _Option, cost: float) -> _Candidate | None:
        """Play ``option`` at ``ply`` and the record's moves after it up to the refused one,
        then the rest (:meth:`_ending`), within the budget: what the correction achieves,
        or None if the refused move stays refused."""
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
        play = self.rules.play
        for ply in range(first, last + 1):
            if self.budget <= 0:
                return None
            self.budget -= 1
            try:
                state = play(state, self.moves[ply - 1])
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
    place, when it is of the same kind (both replay to the claimed result, say)."""
    if not ranked:
        return ranked
    first = ranked[0]
    other = next((c for c in ranked[1:] if c.ply != first.ply), None)
    if other is None or other.rank[0] != first.rank[0]:
        return ranked
    return [first, other, *(c for c in ranked[1:] if c is not other)]


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


def _indexes(move: Move, size: int) -> tuple[int, ...]:
    """The squares ``move`` touches on a board of ``size``, as :meth:`Point.index` numbers:
    those it goes through and those it names (an Implo placement's resolution steps)."""
    named = (point for point in move.points() if point.file < size and point.rank < size)
    found = {point.index(size) for point in move.trace(size).squares}
    found.update(point.index(size) for point in named)
    return tuple(found)


def _read(text: str, game: str, size: int) -> Move | None:
    """The move ``text`` writes in ``game`` on a board of ``size``, or None (kept: the
    same slips of the same moves come back record after record)."""
    key = (text, game, size)
    try:
        return _READ[key]
    except KeyError:
        pass
    move = move_of_text(text)
    if move is not None:
        try:
            move = check_move(move, find_game(game), size)
        except RecordError:
            move = None
    if len(_READ) >= MAX_READ:
        _READ.clear()
    _READ[key] = move
    return move


MAX_READ = 65_536
_READ: dict[tuple[str, str, int], Move | None] = {}
"""The words read so far (a plain table rather than an LRU cache: its entries are not
objects the cycle collector must visit). Emptied when a game or a form is registered."""
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
    found: list[_Option] = []
    for text, what in _tiers(written, cost <= CHEAP_COST).get(cost, ()):
        move = _read(text, game, size)
        if move is not None and move != meant:
            found.append(_Option(move, text, what))
    return tuple(found)


@lru_cache(maxsize=4096)
def _tiers(written: str, cheap: bool) -> dict[float, tuple[tuple[str, str], ...]]:
    """The slips of ``written`` by their cost, each as its text and what it was; with
    ``cheap``, those up to :data:`CHEAP_COST` only (kept: most moves of an archive repeat;
    as plain tuples, which the cycle collector lets be)."""
    tiers: dict[float, list[tuple[str, str]]] = {}
    for text, (cost, what) in _made(written, cheap).items():
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


def _made(written: str, cheap: bool) -> dict[str, tuple[float, str]]:
    """The cost and the kind of each slip of ``written``, in the order they are made; with
    ``cheap``, only those up to :data:`CHEAP_COST` (and only those are made)."""
    text = written.lower()
    made = _Made(text)
    if len(text) > MAX_WORD:
        return made.found
    _square_slips(made, text, cheap)
    _path_slips(made, text, cheap)
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
            if text[index + 1] == "1" and end < length and text[end].isdigit():
                end += 1
            found.append((index, end))
            index = end
        else:
            index += 1
    return found


def _square_slips(made: _Made, text: str, cheap: bool) -> None:
    squares = _squares_in(text)
    for start, end in squares:
        letter, rank = text[start], int(text[start + 1 : end])
        head, tail = text[:start], text[end:]
        file = FILES.index(letter)
        for step in (1,) if cheap else (1, 2):
            cost = 1.0 if step == 1 else 2.5
            for sign in (-1, 1):
                moved = file + sign * step
                if 0 <= moved < len(FILES):
                    what = "file off by one" if step == 1 else "file off by two"
                    made.add(head + FILES[moved] + str(rank) + tail, what, cost)
                if 1 <= rank + sign * step <= len(FILES):
                    what = "rank off by one" if step == 1 else "rank off by two"
                    made.add(head + letter + str(rank + sign * step) + tail, what, cost)
    if len(squares) >= 2:
        (start1, end1), (start2, end2) = squares[0], squares[1]
        swapped = (
            text[:start1] + text[start2:end2] + text[end1:start2] + text[start1:end1]
            + text[end2:]
        )  # fmt: skip
        made.add(swapped, "the two squares swapped", 1.0)


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


def _look_alike_slips(made: _Made, text: str) -> None:
    for index in range(len(text)):
        for other in LOOK_ALIKE.get(text[index], ""):
            made.add(text[:index] + other + text[index + 1 :], "a look-alike character", 1.2)


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
