"""Repair hints in a game of sowings (Pilare; ``spec/hints.md``, "Sowings"): what a slip of
an earlier sowing changes is known from its text, so the slips that cannot mend the refused
move are neither made nor replayed. Each shortcut is checked against the search without it
on records of random legal games, one move of each miscopied: the suggestions are the same,
and fewer plies are replayed.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

import arbiter
from arbiter.adjudicator import hints
from arbiter.notation.ast import Point, Record
from arbiter.notation.errors import IllegalMoveError
from tests.adjudicator.test_hints import random_record, slipped

CHEAP = (1.0, hints.SWAP_COST, hints.CHEAP_COST)


def square(text: str, size: int = 8) -> int:
    return Point.parse(text).index(size)


def refused_records(count: int, *, short: bool) -> list[tuple[Record, int]]:
    """Records of random Pilare games with one sowing miscopied, each with the ply refused:
    with ``short``, a sowing of the second half with its last direction dropped (refused
    where it stands, its path one step shorter than its stack); else one whose path has a
    direction reversed (refused there or later)."""
    found: list[tuple[Record, int]] = []
    chooser = random.Random(7 if short else 8)
    seed = 0
    while len(found) < count:
        seed += 1
        record = random_record("Pilare", seed, 80)
        text = arbiter.write_grn(record)
        ply = chooser.randrange(len(record.turns) // 2, len(record.turns) + 1)
        written = str(record.moves[ply - 1])
        origin, path = written.split(":")
        if short and len(path) < 2:
            continue
        at = chooser.randrange(len(path))
        word = (
            f"{origin}:{path[:-1]}"
            if short
            else f"{origin}:{path[:at]}{hints.OPPOSITE[path[at]]}{path[at + 1 :]}"
        )
        [item] = arbiter.read_records(slipped(ply, word, text))
        if not isinstance(item, Record):
            continue
        errors = arbiter.adjudicate(item).errors
        refused = errors[0].get("ply") if errors else None
        if errors and errors[0].get("code") == "illegal-move" and isinstance(refused, int):
            found.append((item, refused))
    return found


def test_what_a_sowing_does_to_the_stacks_is_known_from_its_text() -> None:
    def sown(text: str) -> dict[str, int]:
        found = hints._sown(text, 8)  # noqa: SLF001
        assert found is not None
        return {str(Point(at % 8, at // 8)): men for at, men in found.items()}

    # c3:nn lifts c3's two men and drops one on c4, one on c5; c3:ne, one on c4, one on d4
    assert sown("c3:nn") == {"c3": -2, "c4": 1, "c5": 1}
    assert sown("c3:ne") == {"c3": -2, "c4": 1, "d4": 1}
    # a stack of four goes round and drops its last man where it was lifted
    assert sown("c3:nesw") == {"c3": -3, "c4": 1, "d4": 1, "d3": 1}
    assert hints._sown("c3", 8) is None  # noqa: SLF001  # a placement: not known


def test_what_a_sowing_does_to_the_stacks_is_what_the_rules_do() -> None:
    """Played from one position, a sowing and each legal cheap slip of it leave every
    square's stack higher or lower by what their texts say (:func:`_sown`)."""
    compared = 0
    for record, refused in refused_records(6, short=False):
        search = hints._Search(record, refused)  # noqa: SLF001
        for ply in range(search.window, refused):
            written, before = search.moves[ply - 1], search.states[ply - 1]
            after = search.rules.play(before, written)
            sown = hints._sown(str(written), 8)  # noqa: SLF001
            assert sown is not None
            for cost in CHEAP:
                for option in hints._options(str(written), "Pilare", 8, cost, search.generation):  # noqa: SLF001
                    try:
                        slipped = search.rules.play(before, option.move)
                    except IllegalMoveError:
                        continue
                    other = hints._sown(option.text, 8)  # noqa: SLF001
                    assert other is not None
                    for at in range(64):
                        rank, file = divmod(at, 8)
                        found = len(search.rules.position(slipped)[rank][file]) - len(
                            search.rules.position(after)[rank][file]
                        )
                        assert found == other.get(at, 0) - sown.get(at, 0), (option.text, at)
                    compared += 1
    assert compared > 100


@pytest.mark.parametrize("size", [6, 8])
def test_the_reach_of_a_sowing_holds_every_square_its_cheap_slips_change(size: int) -> None:
    """The squares :func:`_sowing_reach` finds without making the slips hold those that
    making them finds; a move whose reach misses the refused move has no slip of level 0."""
    chooser = random.Random(size)
    for _ in range(400):
        start = f"{'abcdefgh'[chooser.randrange(size)]}{chooser.randrange(size) + 1}"
        text = f"{start}:{''.join(chooser.choice('nsew') for _ in range(chooser.randrange(1, 8)))}"
        for cost in CHEAP:
            made = 0
            for _, _, _, changed in hints._changes(text, size, cost):  # noqa: SLF001
                made |= changed
            assert not made & ~hints._sowing_reach(text, size, cost), (text, cost)  # noqa: SLF001


def test_a_slip_rejected_by_the_heights_leaves_a_stack_refused_on_the_way() -> None:
    """Every cheap slip of an earlier sowing that :meth:`_heights_fit` rejects, played there,
    has a sowing refused before the refused move or that one: the check only spares the
    replay. And it rejects most of them."""
    rejected = kept = 0
    for record, refused in refused_records(12, short=False) + refused_records(12, short=True):
        search = hints._Search(record, refused)  # noqa: SLF001
        assert search.lifts  # every move is a sowing
        for ply in range(search.window, refused):
            written = search.written[ply - 1]
            for cost in CHEAP:
                for option in hints._options(written, "Pilare", 8, cost, search.generation):  # noqa: SLF001
                    if search._heights_fit(ply, option.text):  # noqa: SLF001
                        kept += 1
                        continue
                    rejected += 1
                    assert refused_on_the_way(search, ply, option.move), (ply, option.text)
    assert rejected > 3 * kept


def refused_on_the_way(search: Any, ply: int, move: Any) -> bool:
    """Whether ``move`` played at ``ply`` (or refused there) leaves a move up to the refused
    one refused."""
    try:
        state = search.rules.play(search.states[ply - 1], move)
        for later in range(ply + 1, search.refused + 1):
            state = search.rules.play(state, search.moves[later - 1])
    except IllegalMoveError:
        return True
    return False


def ranked(record: Record, refused: int) -> tuple[list[tuple[Any, ...]], int]:
    search = hints._Search(record, refused)  # noqa: SLF001
    budget = search.budget
    found = search.run(hints.LIMIT)
    return [(c.ply, str(c.move), c.rank) for c in found], budget - search.budget


@pytest.mark.checkout_only  # a compiled class takes no stand-in for its methods
@pytest.mark.parametrize("short", [True, False])
def test_the_shortcuts_change_no_suggestion_and_spare_plies(
    short: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The suggestions with the heights checked (:meth:`_heights_fit`) and the earlier plies
    searched for a stack's height from its last sowing on (:meth:`_last_lift`) are those
    without; the search replays fewer plies."""
    cases = refused_records(15, short=short)
    shortcut = [ranked(record, refused) for record, refused in cases]
    monkeypatch.setattr(hints._Search, "_heights_fit", lambda *_: True)  # noqa: SLF001
    monkeypatch.setattr(hints._Search, "_last_lift", lambda *_: 0)  # noqa: SLF001
    without = [ranked(record, refused) for record, refused in cases]
    assert [found for found, _ in shortcut] == [found for found, _ in without]
    assert sum(spent for _, spent in shortcut) < 0.8 * sum(spent for _, spent in without)


def test_a_stack_sown_since_bounds_where_its_height_was_miscopied() -> None:
    """The refused stack was sown at an earlier ply of the window: a slip before that ply
    that changed its height would have had that sowing refused, so the earlier plies are
    searched for it from there on (:attr:`since`)."""
    found = 0
    for record, refused in refused_records(15, short=True):
        search = hints._Search(record, refused)  # noqa: SLF001
        if not search.lifted:
            continue
        origin = search.written[refused - 1].split(":")[0]
        sown = [
            ply for ply in range(search.window, refused)
            if search.written[ply - 1].split(":")[0] == origin
        ]  # fmt: skip
        assert search.since == (sown[-1] if sown else 0)
        found += bool(sown)
    assert found


def test_a_close_sowing_out_of_reach_of_the_refused_move_has_no_slips_made() -> None:
    """At a close ply whose sowing no cheap slip changes a square of the refused move on, no
    slip is made: most close plies of Pilare, whose paths cross the board."""
    far = 0
    for record, refused in refused_records(6, short=False):
        search = hints._Search(record, refused)  # noqa: SLF001
        close, _ = search._plies()  # noqa: SLF001
        for ply in close[1:]:
            written = search.written[ply - 1]
            if hints._sowing_reach(written, 8, 1.0) & search.touched:  # noqa: SLF001
                continue
            far += 1
            hints._changes.cache_clear()  # noqa: SLF001
            assert search._leveled(ply, 1.0, 0) == ()  # noqa: SLF001
            assert hints._changes.cache_info().misses == 0  # noqa: SLF001
    assert far
