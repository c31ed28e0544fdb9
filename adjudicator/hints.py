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

import re
from bisect import bisect_right
from collections.abc import Iterable, Iterator
from functools import lru_cache
from typing import Any, Final, NamedTuple

from arbiter.adjudicator.base import Rules
from arbiter.adjudicator.replay import adjudicate, settle, starting_state
from arbiter.notation.ast import FILES, Location, Move, Point, Record
from arbiter.notation.build import check_move
from arbiter.notation.errors import IllegalMoveError, RecordError
from arbiter.notation.games import GameDescription, find_game
from arbiter.notation.grn_reader import parse_grn_record, parse_move
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
BUDGET_PER_PLY = 4
"""The search replays at most ``BUDGET_BASE + BUDGET_PER_PLY * plies`` plies in all (the
plies of the record): about four more replays of the record, whatever it holds."""
WINDOW = 60
"""How many plies before the refused one a slip is looked for."""
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


def suggest(record: Record, error: dict[str, Any], *, limit: int = LIMIT) -> list[Suggestion]:
    """The best single-move corrections of ``record``, refused by ``error`` (a report's
    error), best first; none for an error that is not a refused move."""
    refused = error.get("ply")
    if error.get("code") not in REFUSED_CODES or not isinstance(refused, int):
        return []
    if not 1 <= refused <= len(record.turns):
        return []
    search = _Search(record, refused)
    return [search.described(candidate) for candidate in search.run(limit)]


class _Candidate(NamedTuple):
    rank: tuple[int, float, int]
    ply: int
    move: Move
    slip: str
    result: str | None


class _Search:
    """Best first: every (ply, slip) pair in the order of the slip's cost, then of the
    ply's distance from the refused one; each is played and the rest of the record
    replayed after it. A correction ranks by what it achieves (0: the game replays to the
    claimed result; 1: to another; 2: past the refused ply only), then in that order, so the
    search stops once :data:`LIMIT` corrections of the best kind are found, or when its
    budget of plies is spent (every ply played counts)."""

    def __init__(self, record: Record, refused: int) -> None:
        self.record = record
        self.refused = refused
        self.game: GameDescription = find_game(record.game)
        self.rules: Rules[Any]
        self.rules, first = starting_state(record)
        self.moves = record.moves
        self.states: dict[int, Any] = {}
        """The position before each ply of the window (not all: a long record's states
        would fill the memory)."""
        state, window = first, max(1, refused - WINDOW)
        for ply in range(1, refused):
            if ply >= window:
                self.states[ply - 1] = state
            state = self.rules.play(state, self.moves[ply - 1])
        self.states[refused - 1] = state
        self.budget = BUDGET_BASE + BUDGET_PER_PLY * len(self.moves)
        self.squares = [frozenset(move.trace(record.size).squares) for move in self.moves]
        """The squares each written move touches, by ply - 1."""
        self.touched = self.squares[refused - 1]
        self.uses: dict[Point, list[int]] = {}
        for ply, squares in enumerate(self.squares, 1):
            for square in squares:
                self.uses.setdefault(square, []).append(ply)

    def run(self, limit: int) -> list[_Candidate]:
        """Two searches: at the refused ply, and at the earlier plies whose slips would
        change what stands on the refused move's squares; the rest only when neither makes
        the game replay. The best correction comes first, then the best at another ply than
        it (the two ways a later refusal is explained: the refused move miscopied, or an
        earlier one), then the others."""
        close, others = self._plies()
        found = self._search(close[:1], limit, touching=None, clear=None)
        found += self._search(close[1:], limit, touching=True, clear=True)
        if not any(candidate.rank[0] == 0 for candidate in found):
            found += self._search(close[1:], limit, touching=True, clear=False)
            found += self._search(close[1:], limit, touching=False, clear=None)
            found += self._search(others, limit, touching=None, clear=None)
        return _interleaved(sorted(found, key=lambda candidate: candidate.rank))[:limit]

    def _plies(self) -> tuple[list[int], list[int]]:
        """The refused ply and the earlier plies whose moves touch a square on or next to
        one the refused move touches (or that come just before it); then the other earlier
        plies of the window."""
        near = _around(self.touched, self.record.size)
        earlier = range(self.refused - 1, max(0, self.refused - WINDOW), -1)
        close = [self.refused]
        for ply in earlier:
            if ply >= self.refused - 2 or near.intersection(self.squares[ply - 1]):
                close.append(ply)
        return close, [ply for ply in earlier if ply not in close]

    def _search(
        self, plies: list[int], limit: int, touching: bool | None, clear: bool | None
    ) -> list[_Candidate]:
        """Try the slips at ``plies``, likeliest first (by cost, then nearest the refused
        ply). With ``touching`` True, only those at earlier plies that change what stands on
        a square the refused move touches (the likely ones, tried first); with False, only
        the others; with None, all. With ``clear`` True, only the slips whose new squares no
        move of the record touches before the refused one (such a move would most likely be
        refused then); with False, only the others."""
        found: list[_Candidate] = []
        best = 0
        for cost in COSTS:
            for ply in sorted(plies, key=lambda ply: self.refused - ply):
                for slip in _tiers(str(self.moves[ply - 1])).get(cost, ()):
                    if best >= limit or self.budget <= 0:
                        return found
                    candidate = self._consider(ply, slip, touching, clear)
                    if candidate is not None:
                        found.append(candidate)
                        best += candidate.rank[0] == 0
        return found

    def _consider(
        self, ply: int, slip: Slip, touching: bool | None, clear: bool | None
    ) -> _Candidate | None:
        move = self._read(slip.text)
        if move is None or move == self.moves[ply - 1]:
            return None
        if touching is not None and ply < self.refused and self._touches(ply, move) != touching:
            return None
        if clear is not None and self._clear(ply, move) != clear:
            return None
        return self._try(ply, move, slip)

    def _clear(self, ply: int, move: Move) -> bool:
        """Whether no move of the record between ``ply`` and the refused one touches a
        square ``move`` touches and the written move does not."""
        for square in frozenset(move.trace(self.record.size).squares) - self.squares[ply - 1]:
            uses = self.uses.get(square, ())
            at = bisect_right(uses, ply)
            if at < len(uses) and uses[at] < self.refused:
                return False
        return True

    def _touches(self, ply: int, move: Move) -> bool:
        """Whether ``move``, written at ``ply`` instead of the record's, changes which of the
        refused move's squares it touches."""
        changed = self.squares[ply - 1].symmetric_difference(move.trace(self.record.size).squares)
        return bool(self.touched.intersection(changed))

    def _try(self, ply: int, move: Move, slip: Slip) -> _Candidate | None:
        self.budget -= 1
        try:
            state = self.rules.play(self.states[ply - 1], move)
        except IllegalMoveError:
            return None
        play = self.rules.play
        for later in range(ply + 1, len(self.moves) + 1):
            if self.budget <= 0:
                return None
            self.budget -= 1
            try:
                state = play(state, self.moves[later - 1])
            except IllegalMoveError:
                if later <= self.refused:
                    return None  # the refused move stays refused: not the slip
                return _Candidate((2, slip.cost, self.refused - ply), ply, move, slip.what, None)
        result, claimed = settle(self.record, self.rules, state)
        outcome = 0 if claimed else 1
        return _Candidate((outcome, slip.cost, self.refused - ply), ply, move, slip.what, result)

    def _read(self, text: str) -> Move | None:
        return _read(text, self.game.name, self.record.size)

    def described(self, candidate: _Candidate) -> Suggestion:
        turn = self.record.turns[candidate.ply - 1]
        after = self.rules.play(self.states[candidate.ply - 1], candidate.move)
        return Suggestion(
            candidate.ply,
            str(self.rules.written(after, candidate.move)),
            str(turn.move),
            candidate.slip,
            candidate.rank[0] < 2,
            candidate.result,
            candidate.rank[0] == 0,
            turn.where,
        )


def suggest_reading(error: RecordError, *, limit: int = LIMIT) -> list[Suggestion]:
    """The best corrections of the word at which reading a GRN record stopped (a word that
    is no move, a square off the board, a form the game lacks), best first: each is tried
    by reading the record again with it and replaying it."""
    if error.code not in UNREAD_CODES or error.source is None or error.line is None:
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
    found: list[tuple[tuple[int, float, int], Suggestion]] = []
    tries = 0
    for slip in slips(word):
        if tries >= READINGS:
            break
        try:
            parse_move(slip.text)
        except RecordError:
            continue
        tries += 1
        lines[number] = line[:column] + slip.text + line[column + len(word) :]
        candidate = _read_again("\n".join(lines), first_line, error.line, error.column or 1, word)
        lines[number] = line
        if candidate is not None:
            outcome, suggestion = candidate
            found.append(((outcome, slip.cost, 0), suggestion.replace(slip=slip.what)))
    found.sort(key=lambda pair: pair[0])
    unique: dict[tuple[int, str], Suggestion] = {}
    for _, suggestion in found:
        unique.setdefault((suggestion.ply, suggestion.move), suggestion)
    return list(unique.values())[:limit]


def _read_again(
    text: str, first_line: int, line: int, column: int, written: str
) -> tuple[int, Suggestion] | None:
    """The record read with a correction at (``line``, ``column``), replayed: how far it
    goes (0: to the end; 2: past the corrected move) and the suggestion; None if the
    corrected move is still not read or not legal."""
    try:
        record = parse_grn_record(text, first_line=first_line)
    except RecordError:
        return None
    at = Location(line, column)
    ply = next((n for n, turn in enumerate(record.turns, 1) if turn.where == at), None)
    if ply is None:
        return None
    report = adjudicate(record, hints=False)
    refused = report.errors[0].get("ply") if report.errors else None
    if isinstance(refused, int) and refused <= ply:
        return None
    replays = not report.errors or report.errors[0]["code"] == "result-mismatch"
    suggestion = Suggestion(
        ply,
        str(record.turns[ply - 1].move),
        written,
        "",
        replays,
        report.result if replays else None,
        report.valid,
        at,
    )
    return (0 if replays else 2), suggestion


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


def _around(points: Iterable[Point], size: int) -> set[Point]:
    """The squares on or next to ``points`` (diagonals too), on a board of ``size``."""
    return {
        Point(point.file + df, point.rank + dr)
        for point in points
        for df in (-1, 0, 1)
        for dr in (-1, 0, 1)
        if 0 <= point.file + df < size and 0 <= point.rank + dr < size
    }


@lru_cache(maxsize=65536)
def _read(text: str, game: str, size: int) -> Move | None:
    """The move ``text`` writes in ``game`` on a board of ``size``, or None (kept: the
    same slips of the same moves come back record after record)."""
    try:
        return check_move(parse_move(text), find_game(game), size)
    except RecordError:
        return None


@lru_cache(maxsize=4096)
def _tiers(written: str) -> dict[float, tuple[Slip, ...]]:
    """The slips of ``written`` by their cost."""
    tiers: dict[float, list[Slip]] = {}
    for slip in slips(written):
        tiers.setdefault(slip.cost, []).append(slip)
    return {cost: tuple(found) for cost, found in tiers.items()}


@lru_cache(maxsize=4096)
def slips(written: str) -> tuple[Slip, ...]:
    """What may have been meant where ``written`` stands, by the slips people make copying
    a scoresheet, each text once, likeliest first (kept: most moves of an archive repeat)."""
    found: dict[str, Slip] = {}
    text = written.lower()
    if len(text) > MAX_WORD:
        return ()
    for slip in (*_square_slips(text), *_path_slips(text), *_character_slips(text)):
        if slip.text != text and (slip.text not in found or slip.cost < found[slip.text].cost):
            found[slip.text] = slip
    return tuple(sorted(found.values(), key=lambda slip: slip.cost))


def _square_slips(text: str) -> Iterator[Slip]:
    squares = list(_SQUARE.finditer(text))
    for match in squares:
        file, rank = FILES.index(match.group(1)), int(match.group(2))
        for step, cost in ((1, 1.0), (2, 2.5)):
            for sign in (-1, 1):
                if 0 <= file + sign * step < len(FILES):
                    moved = f"{FILES[file + sign * step]}{rank}"
                    yield Slip(_put(text, match, moved), "file off by one" if step == 1
                               else "file off by two", cost)  # fmt: skip
                if 1 <= rank + sign * step <= len(FILES):
                    moved = f"{match.group(1)}{rank + sign * step}"
                    yield Slip(_put(text, match, moved), "rank off by one" if step == 1
                               else "rank off by two", cost)  # fmt: skip
    if len(squares) >= 2:
        first, second = squares[0], squares[1]
        swapped = (
            text[: first.start()] + second.group() + text[first.end() : second.start()]
            + first.group() + text[second.end() :]
        )  # fmt: skip
        yield Slip(swapped, "the two squares swapped", 1.0)


def _put(text: str, match: re.Match[str], square: str) -> str:
    return text[: match.start()] + square + text[match.end() :]


def _path_slips(text: str) -> Iterator[Slip]:
    found = _PATH.search(text)
    if found is None:
        return
    start, path = found.start(1), found.group(1)
    head = text[:start]
    yield Slip(head + "".join(OPPOSITE[c] for c in path), "the directions reversed", 1.0)
    for index, letter in enumerate(path):
        rest = path[index + 1 :]
        yield Slip(head + path[:index] + OPPOSITE[letter] + rest, "a direction reversed", 1.0)
        for other in "nsew":
            if other not in (letter, OPPOSITE[letter]):
                yield Slip(head + path[:index] + other + rest, "a direction miswritten", 1.6)
        if len(path) > 1:
            yield Slip(head + path[:index] + rest, "a direction dropped", 1.5)
        yield Slip(head + path[: index + 1] + letter + rest, "a direction doubled", 1.5)
    for letter in "nsew":
        yield Slip(head + path + letter, "a direction dropped", 1.8)


def _character_slips(text: str) -> Iterator[Slip]:
    for index in range(len(text)):
        for other in LOOK_ALIKE.get(text[index], ""):
            yield Slip(text[:index] + other + text[index + 1 :], "a look-alike character", 1.2)
        for other in KEYBOARD.get(text[index], ""):
            yield Slip(text[:index] + other + text[index + 1 :], "a neighbouring key", 1.4)
        yield Slip(text[:index] + text[index + 1 :], "a character too many", 1.5)
        yield Slip(text[: index + 1] + text[index] + text[index + 1 :], "a character doubled", 2.0)
        if index + 1 < len(text):
            swapped = text[:index] + text[index + 1] + text[index] + text[index + 2 :]
            yield Slip(swapped, "two characters swapped", 1.5)
    yield Slip(text + "x", "a character dropped", 1.5)
