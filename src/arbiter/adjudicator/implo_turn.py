"""An Implo turn: the resolution steps a record writes, the ones it may leave out, and every
way a turn can be finished.

Implements "Turns" and "Writing a turn" of ``spec/rules/implo.md``: steps are applied in the
order written, a step left out is filled in only when it is forced, and a choice left open
is an :class:`AmbiguousMoveError` whose message gives whole moves that settle it (each one
legal as written). The board mechanics are :mod:`arbiter.adjudicator.implo_board`.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from itertools import islice

from arbiter.adjudicator.board import geometry
from arbiter.adjudicator.implo_board import (
    PATCH_MAX,
    Patch,
    Pieces,
    contains,
    patch_options,
    resolve,
    tables,
)
from arbiter.notation.ast import ImploPlace, Point, Resolve
from arbiter.notation.errors import AmbiguousMoveError, IllegalMoveError

SEQUENCE_CAP = 128
"""``legal_moves`` lists every choice sequence of a placement up to this many (see
:func:`choice_sequences` for what it does past it)."""
SEARCH_BUDGET = 4096
"""Resolution steps tried, past the cap, to sample distinct outcomes of one placement."""
HINTS = 3
"""Whole moves an ambiguity error offers at most."""


class TurnUnderWay:
    """A turn under way: a mutable board, the patches still to resolve, the steps taken.

    ``pieces`` are the game's piece codes and colours; ``pending`` always holds every patch on
    the board (see ``implo_board.Patch``); ``steps`` are the steps taken so far as the
    canonical writer writes them. ``play`` needs a turn object only for steps a record leaves
    out; ``legal_moves`` walks the choices with copies of one."""

    __slots__ = (
        "pieces", "size", "cells", "pending", "mover", "at", "steps", "freed"
    )  # fmt: skip

    def __init__(
        self,
        pieces: Pieces,
        size: int,
        cells: bytearray,
        pending: list[Patch],
        mover: int,
        at: int,
        steps: list[Resolve],
    ) -> None:
        self.pieces = pieces
        self.size = size
        self.cells, self.pending, self.mover, self.at, self.steps = (
            cells,
            pending,
            mover,
            at,
            steps,
        )
        self.freed = 0
        """The change in the number of empty points the steps taken made (see ``resolve``)."""

    def copy(self) -> TurnUnderWay:
        return TurnUnderWay(
            self.pieces,
            self.size,
            self.cells.copy(),
            self.pending.copy(),
            self.mover,
            self.at,
            self.steps.copy(),
        )

    def options(self, patch: Patch) -> tuple[int, list[list[int]]]:
        """The owner of ``patch`` and the owner's tied biggest adjacent groups."""
        return patch_options(self.cells, self.size, patch, self.mover, self.pieces.stones)

    def apply(self, patch: Patch, owner: int, group: list[int], tied: bool) -> None:
        """Resolve ``patch``; the step is recorded as the canonical writer names it."""
        marker = self.pieces.markers[owner]
        self.freed += resolve(self.cells, self.size, self.pending, patch, marker, group)
        points = tables(self.size).points
        self.steps.append(Resolve(points[patch[0]], points[group[0]] if tied else None))

    def forced(self) -> None:
        """Apply the next step when it is forced. Raises ``AmbiguousMoveError`` if not."""
        if len(self.pending) > 1:
            raise self.order_error()
        patch = self.pending[0]
        owner, biggest = self.options(patch)
        if len(biggest) > 1:
            raise self.tie_error(patch, owner, biggest)
        self.apply(patch, owner, biggest[0] if biggest else [], False)

    def finish(self) -> None:
        """Apply every remaining step, each of which must be forced."""
        while self.pending:
            self.forced()

    def move(self) -> ImploPlace:
        """The turn so far as a move."""
        return ImploPlace(geometry(self.size).points[self.at], tuple(self.steps))

    def order_error(self) -> AmbiguousMoveError:
        """Several patches remain and the record does not say which comes first."""
        names = geometry(self.size).names
        patches = sorted(self.pending)
        firsts = []
        for patch in patches[:HINTS]:
            owner, biggest = self.options(patch)
            firsts.append((patch, owner, biggest[0] if biggest else [], len(biggest) > 1))
        listed = ", ".join(names[patch[0]] for patch in patches)
        return AmbiguousMoveError(
            f"ambiguous: patches at {listed} remain; write the order, "
            f"as in {self._examples(firsts)}"
        )

    def tie_error(self, patch: Patch, owner: int, biggest: list[list[int]]) -> AmbiguousMoveError:
        """The biggest groups next to ``patch`` are tied and the record does not say which
        one goes."""
        names = geometry(self.size).names
        groups = ", ".join(names[group[0]] for group in biggest)
        choices = [(patch, owner, group, True) for group in biggest[:HINTS]]
        return AmbiguousMoveError(
            f"ambiguous: the patch at {names[patch[0]]} must remove one of the groups at "
            f"{groups}; write {self._examples(choices)}"
        )

    def not_a_patch(self, point: Point, index: int, where: str) -> IllegalMoveError:
        """A step names ``point``, which lies in no patch."""
        if not self.pending:
            return IllegalMoveError(f"{where}: no patch remains to resolve")
        content = self.cells[index]
        why = (
            f"it holds {self.pieces.names[content]}"
            if content
            else f"its territory has more than {PATCH_MAX} points"
        )
        return IllegalMoveError(f"{where}: {point} is not in a patch ({why})")

    def wrong_group(
        self, point: Point, patch: Patch, owner: int, biggest: Sequence[Sequence[int]], where: str
    ) -> IllegalMoveError:
        """A step removes the group of ``point``, which is not one the patch may remove."""
        names = geometry(self.size).names
        at = names[patch[0]]
        colour = self.pieces.colours[owner]
        if not biggest:
            return IllegalMoveError(
                f"{where}: the patch at {at} goes to {colour}, who has no stone next "
                f"to it, so nothing is removed; drop ':{point}'"
            )
        groups = ", ".join(names[g[0]] for g in biggest)
        kind = "the group" if len(biggest) == 1 else "one of the groups"
        return IllegalMoveError(
            f"{where}: {point} is not a stone of a biggest {colour} group next to the "
            f"patch at {at}; the patch must remove {kind} at {groups}"
        )

    def _examples(self, firsts: Sequence[tuple[Patch, int, list[int], bool]]) -> str:
        """Whole moves, one per first step given, each finished the first way there is:
        moves a record may contain as they are written."""
        moves = []
        for patch, owner, group, tied in firsts:
            after = self.copy()
            after.apply(patch, owner, group, tied)
            steps = next(walk(after, None, None))
            moves.append(str(ImploPlace(geometry(self.size).points[self.at], steps)))
        return ", ".join(moves[:-1]) + " or " + moves[-1] if len(moves) > 1 else moves[0]


def write_steps(turn: TurnUnderWay, steps: tuple[Resolve, ...]) -> int:
    """Apply a record's written ``steps`` to ``turn`` in order (each appended to
    ``turn.steps`` as the canonical writer writes it); return how many were written that way
    already, so appended as they are.

    Raises ``IllegalMoveError`` if a step names no current patch or a wrong group;
    ``AmbiguousMoveError`` if a needed group is unnamed. Runs in every replay: the common
    step (written canonically) costs one membership test and one ownership check."""
    size, cells, pending, done = turn.size, turn.cells, turn.pending, turn.steps
    markers, stones, mover = turn.pieces.markers, turn.pieces.stones, turn.mover
    kept = number = 0
    for step in steps:
        number += 1
        named = step.patch
        index = _index(named, size, number, step)
        for patch in pending:
            if index in patch:
                break
        else:
            raise turn.not_a_patch(named, index, f"step {number} ({step})")
        owner, biggest = patch_options(cells, size, patch, mover, stones)
        group: list[int]
        remove = step.remove
        if remove is not None:
            stone = _index(remove, size, number, step)
            for group in biggest:
                if contains(group, stone):
                    break
            else:
                raise turn.wrong_group(remove, patch, owner, biggest, f"step {number} ({step})")
            tied = len(biggest) > 1
            canonical = tied and stone == group[0] and type(remove) is Point
        elif len(biggest) > 1:
            raise turn.tie_error(patch, owner, biggest)
        else:
            group = biggest[0] if biggest else []
            tied, canonical = False, True
        turn.freed += resolve(cells, size, pending, patch, markers[owner], group)
        if canonical and index == patch[0] and type(step) is Resolve and type(named) is Point:
            done.append(step)  # the record's own step: it is the canonical one
            kept += 1
        else:
            points = tables(size).points
            done.append(Resolve(points[patch[0]], points[group[0]] if tied else None))
    return kept


def _index(point: Point, size: int, number: int, step: Resolve) -> int:
    """The index of ``point``, named in the ``number``-th written ``step``."""
    if not (0 <= point.file < size and 0 <= point.rank < size):
        raise IllegalMoveError(f"step {number} ({step}): {point} is off the {size}×{size} board")
    return point.rank * size + point.file


def choice_sequences(turn: TurnUnderWay) -> list[tuple[Resolve, ...]]:
    """The step sequences that finish ``turn``, depth first (patch by lowest point, then
    group by lowest stone): all of them if there are at most ``SEQUENCE_CAP``.

    Past the cap (cascades of tied single stones can give hundreds of millions), the walk
    starts again and keeps the first sequence to each distinct board, pruning boards it has
    already met, and stops after ``SEQUENCE_CAP`` results or ``SEARCH_BUDGET`` steps; so
    in such positions the list is a bounded sample of distinct outcomes."""
    first = list(islice(walk(turn, None, None), SEQUENCE_CAP + 1))
    if len(first) <= SEQUENCE_CAP:
        return first
    return list(islice(walk(turn, set(), [SEARCH_BUDGET]), SEQUENCE_CAP))


def walk(
    turn: TurnUnderWay, seen: set[bytes] | None, budget: list[int] | None
) -> Iterator[tuple[Resolve, ...]]:
    """Depth-first ways to finish ``turn``. With ``seen``, a board met before is not walked
    again; with ``budget`` (a one-item counter), the walk stops after that many steps."""
    if not turn.pending:
        yield tuple(turn.steps)
        return
    for patch in sorted(turn.pending):
        owner, biggest = turn.options(patch)
        for group in biggest or [[]]:
            if budget is not None:
                if budget[0] <= 0:
                    return
                budget[0] -= 1
            after = turn.copy()
            after.apply(patch, owner, group, len(biggest) > 1)
            if seen is not None:
                key = bytes(after.cells)
                if key in seen:
                    continue
                seen.add(key)
            yield from walk(after, seen, budget)
