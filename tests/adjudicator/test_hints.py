"""Repair hints for move slips (``adjudicator/hints.py``, ``spec/hints.md``).

The record is a real blitz game (``samples/pilo/valid/02-blitz-6x6.grn``) with one move
miscopied each time, the way scoresheets are: the slip refused where it stands, refused many
plies later (the slip itself a legal move), unreadable, or off the board.
"""

from __future__ import annotations

import gc
import itertools
import json
import random
from pathlib import Path
from typing import Any

import pytest

import arbiter
from arbiter.adjudicator import hints
from arbiter.adjudicator import replay as replay_module
from arbiter.adjudicator.base import get_rules
from arbiter.adjudicator.replay import error_report, replay, starting_state
from arbiter.notation.ast import Record

ROOT = Path(__file__).resolve().parents[2]
GAME = (ROOT / "samples/pilo/valid/02-blitz-6x6.grn").read_text(encoding="utf-8")
RECORD = arbiter.parse_record(GAME)


def slipped(ply: int, word: str, text: str = GAME) -> str:
    """The record with the move of ``ply`` written as ``word``."""
    where = arbiter.parse_record(text).turns[ply - 1].where
    assert where.line is not None and where.column is not None
    lines = text.split("\n")
    line = lines[where.line - 1]
    end = line.find(" ", where.column - 1)
    end = len(line) if end == -1 else end
    lines[where.line - 1] = line[: where.column - 1] + word + line[end:]
    return "\n".join(lines)


def first_error(text: str) -> dict[str, Any]:
    [item] = arbiter.read_records(text)
    report = arbiter.adjudicate(item) if isinstance(item, Record) else error_report(item)
    assert not report.valid
    return report.errors[0]


def test_a_slip_that_is_legal_is_found_where_it_was_made_not_where_it_is_refused() -> None:
    # d2 written for d3 at ply 9 is legal; Orange's d2 at ply 12 is then refused.
    error = first_error(slipped(9, "d2"))
    assert (error["code"], error["ply"]) == ("illegal-move", 12)
    best = error["suggestions"][0]
    assert best == {
        "ply": 9, "move": "d3", "written": "d2", "slip": "rank off by one", "replays": True,
        "result": "Blue+5", "claimed": True, "line": 10, "column": 40,
    }  # fmt: skip
    assert all(found["ply"] in (9, 12) for found in error["suggestions"])
    assert not any(found["replays"] for found in error["suggestions"][1:])


def test_a_slip_refused_where_it_stands_is_corrected_there() -> None:
    # b3xd1 for b1xd1: a capture along no line.
    error = first_error(slipped(30, "b3xd1"))
    assert (error["code"], error["ply"]) == ("illegal-move", 30)
    best = error["suggestions"][0]
    assert (best["ply"], best["move"], best["written"]) == (30, "b1xd1", "b3xd1")
    assert (best["replays"], best["result"], best["claimed"]) == (True, "Blue+5", True)


@pytest.mark.parametrize(
    ("word", "code", "slip"),
    [
        ("3d", "syntax-error", "two characters swapped"),
        ("s3", "off-board", "a neighbouring key"),
        ("d33", "off-board", "a character too many"),
    ],
)
def test_an_unreadable_move_is_read_again_with_its_correction(
    word: str, code: str, slip: str
) -> None:
    error = first_error(slipped(9, word))
    assert error["code"] == code and (error["line"], error["column"]) == (10, 40)
    best = error["suggestions"][0]
    assert (best["ply"], best["move"], best["written"], best["slip"]) == (9, "d3", word, slip)
    assert (best["replays"], best["result"], best["claimed"]) == (True, "Blue+5", True)


def test_a_look_alike_digit_is_preferred_to_a_nearer_square_that_does_not_replay() -> None:
    # d7 (off the 6×6 board) for d1: d6, one rank off, is legal there but refused later.
    error = first_error(slipped(11, "d7"))
    moves = [(found["move"], found["replays"]) for found in error["suggestions"]]
    assert moves[0] == ("d1", True) and ("d6", False) in moves


def test_the_claimed_result_ranks_a_correction_first() -> None:
    record = arbiter.parse_record(slipped(9, "d2"))
    claimed = hints.suggest(record, {"code": "illegal-move", "ply": 12})
    other = hints.suggest(record.replace(result="Orange+1"), {"code": "illegal-move", "ply": 12})
    assert claimed[0].claimed and claimed[0].result == "Blue+5"
    assert other[0].replays and not other[0].claimed  # still the best, but said not claimed


def test_a_json_record_gets_them_too() -> None:
    data = json.loads(arbiter.write_json(arbiter.parse_record(slipped(9, "d2"))))
    error = first_error(json.dumps(data))
    best = error["suggestions"][0]
    assert (best["ply"], best["move"], best["pointer"]) == (9, "d3", "/moves/8")


def test_a_valid_record_costs_no_search(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args: object, **kwargs: object) -> list[hints.Suggestion]:
        raise AssertionError("searched a valid record")

    monkeypatch.setattr(hints, "suggest", refuse)
    monkeypatch.setattr(hints, "suggest_reading", refuse)
    assert arbiter.adjudicate(RECORD).valid


def test_no_hint_for_an_error_that_is_not_at_a_move() -> None:
    text = GAME.replace('[Result "Blue+5"]', '[Result "Orange+5"]').replace(" Blue+5", " Orange+5")
    error = first_error(text)
    assert error["code"] == "result-mismatch" and "suggestions" not in error


class Counting:
    """A rules object that counts the plies it plays."""

    def __init__(self, rules: Any) -> None:
        self.rules, self.played = rules, 0

    def play(self, state: Any, move: Any) -> Any:
        self.played += 1
        return self.rules.play(state, move)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.rules, name)


def long_game() -> Record:
    """A Pletore game of a few hundred plies on 19×19 whose last move is refused."""
    game = arbiter.Game("Pletore", 19, komi=0)
    for _ in range(300):
        game.play(next(iter(game.legal_moves())))
    record = game.record()
    return record.replace(turns=(*record.turns, record.turns[0]))  # its first square again


def test_the_search_keeps_to_its_budget() -> None:
    record = long_game()
    search = hints._Search(record, len(record.turns))  # noqa: SLF001
    search.run(hints.LIMIT)
    assert search.budget >= -1


@pytest.mark.checkout_only  # a compiled search takes no stand-in for its rules
def test_the_search_plays_no_more_plies_than_its_budget() -> None:
    record = long_game()
    refused = len(record.turns)
    search = hints._Search(record, refused)  # noqa: SLF001
    budget = search.budget
    assert budget == hints.BUDGET_BASE + hints.BUDGET_PER_PLY * refused
    counting = Counting(search.rules)
    search.rules = counting  # type: ignore[assignment]
    search.run(hints.LIMIT)
    assert counting.played <= budget + 1


@pytest.mark.checkout_only  # compiled modules take no stand-in for their rules
def test_the_worst_case_plays_the_record_once_and_then_its_budget(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A refused last move of a long game, where no correction is found: the whole
    adjudication, the replay that finds it and the search, which spends its budget, plays
    at most the record's plies and the budget."""
    record = long_game()
    counting = Counting(get_rules("Pletore"))
    monkeypatch.setattr(replay_module, "get_rules", lambda _name: counting)
    monkeypatch.setattr(hints, "get_rules", lambda _name: counting)
    report = arbiter.adjudicate(record)
    refused = len(record.turns)
    assert report.errors[0]["ply"] == refused
    assert (
        refused
        < counting.played
        <= refused + hints.BUDGET_BASE + hints.BUDGET_PER_PLY * refused + 1
    )


def test_the_positions_the_replay_kept_give_the_suggestions_a_new_replay_gives() -> None:
    text = slipped(9, "d2")
    error = first_error(text)  # the search starts from the positions the replay kept
    again = hints.suggest(arbiter.parse_record(text), error)  # and here from a replay of its own
    assert error["suggestions"] == [found.to_dict() for found in again]


def test_the_replay_keeps_the_positions_before_the_refused_move() -> None:
    record = arbiter.parse_record(slipped(9, "d2"))
    played = replay(record, keep=4)
    assert played.error is not None and played.error.ply == 12
    assert sorted(played.kept) == [8, 9, 10, 11]  # before plies 9 to 12, by ply - 1
    rules, state = starting_state(record)
    for ply, move in enumerate(record.moves[:11], 1):
        if ply - 1 in played.kept:
            assert rules.position(played.kept[ply - 1]) == rules.position(state)
        state = rules.play(state, move)
    assert rules.position(played.kept[11]) == rules.position(state)
    assert replay(record).kept == {} and replay(RECORD, keep=4).kept == {}


def test_the_rest_of_a_game_is_played_once_for_each_position_reached() -> None:
    record = arbiter.parse_record(slipped(9, "d2"))
    search = hints._Search(record, 12)  # noqa: SLF001
    state = search.rules.play(search.states[8], RECORD.moves[8])  # d3, as meant, at ply 9
    for move in record.moves[9:12]:
        state = search.rules.play(state, move)  # then plies 10 to 12, the refused one
    before = search.budget
    ending = search._ending(state)  # noqa: SLF001
    assert ending == (0, "Blue+5") and before - search.budget == len(record.turns) - 12
    assert search._ending(state) == ending and before - search.budget == len(record.turns) - 12  # noqa: SLF001


@pytest.mark.parametrize("enabled", [True, False])
def test_the_cycle_collector_is_left_as_it_was(enabled: bool) -> None:
    was = gc.isenabled()
    try:
        gc.enable() if enabled else gc.disable()
        assert first_error(slipped(9, "d2"))["suggestions"]
        assert gc.isenabled() == enabled
        assert first_error(slipped(9, "3d"))["suggestions"]
        assert gc.isenabled() == enabled
    finally:
        gc.enable() if was else gc.disable()


@pytest.mark.checkout_only  # the compiled search calls its helpers directly
def test_a_word_off_the_board_is_read_again_once(monkeypatch: pytest.MonkeyPatch) -> None:
    readings: list[int] = []
    read_with = hints._read_with  # noqa: SLF001

    def counted(*args: Any) -> Any:
        readings.append(1)
        return read_with(*args)

    monkeypatch.setattr(hints, "_read_with", counted)
    error = first_error(slipped(9, "s3"))  # the error names the game and board: one reading
    assert error["suggestions"][0]["move"] == "d3" and len(readings) == 1


def test_squares_a_cheap_slip_away_from_the_refused_move_are_searched() -> None:
    game = arbiter.Game("Pilo", 8)
    for move in ("b3", "g7"):
        game.play(move)
    record = game.record()
    record = record.replace(turns=(*record.turns, record.turns[0]))  # b3 again: occupied
    search = hints._Search(record, 3)  # noqa: SLF001
    away = {str(arbiter.Point(s % 8, s // 8)) for s in search._slip_away()}  # noqa: SLF001
    assert {"b8", "h3", "a3", "c3", "b2", "b4"} <= away  # 3/8 and b/h look alike
    assert "b5" in away  # 3/5 look alike too, if less
    assert "d3" not in away and "b1" not in away  # two off is not cheap


@pytest.mark.parametrize(
    "word", ["d4", "s19", "b1xd1", "a10xa19", "c3:nnew", "d4/e5/a1:b2", "pass"]
)
def test_the_cheap_slips_are_the_slips_up_to_their_cost(word: str) -> None:
    every = {(slip.text, slip.what, slip.cost) for slip in hints.slips(word)}
    cheap = {(slip.text, slip.what, slip.cost) for slip in hints._slips(word, cheap=True)}  # noqa: SLF001
    assert cheap == {slip for slip in every if slip[2] <= hints.CHEAP_COST}
    assert all(slip[2] > hints.CHEAP_COST for slip in every - cheap)


def test_the_slips_of_a_square_and_a_path() -> None:
    found = {slip.text: (slip.cost, slip.what) for slip in hints.slips("c3:ne")}
    assert found["b3:ne"] == (1.0, "file off by one") and found["c4:ne"] == (1.0, "rank off by one")
    assert found["c3:sw"] == (1.0, "the directions reversed")
    assert found["c3:se"] == (1.0, "a direction reversed")
    assert found["c8:ne"] == (1.2, "a look-alike character")
    assert found["c3:nne"] == (1.5, "a direction doubled")
    assert found["c3:e"] == (1.5, "a direction dropped")
    assert found["c1:ne"] == (2.5, "rank off by two")
    assert found["c5:ne"] == (1.3, "a look-alike character")  # 3/5: less alike than 3/8
    assert found["e3:ne"] == (1.2, "a look-alike character")  # cheaper than a file off by two
    assert "c3:ne" not in found
    swapped = {slip.text: slip.what for slip in hints.slips("a10xa19")}
    assert swapped["a19xa10"] == "the two squares swapped"


@pytest.mark.parametrize(
    ("move", "code", "written", "slip"),
    [
        ({"type": "place", "at": "s3"}, "off-board", "s3", "a neighbouring key"),
        (
            {"type": "place", "at": "d13", "comment": "?"},
            "off-board",
            "d13",
            "a character too many",
        ),
    ],
)
def test_a_json_move_off_the_board_gets_them_too(
    move: dict[str, str], code: str, written: str, slip: str
) -> None:
    data = json.loads(arbiter.write_json(RECORD))
    data["moves"][8] = move
    error = first_error(json.dumps(data))
    assert (error["code"], error["pointer"]) == (code, "/moves/8")
    best = error["suggestions"][0]
    assert (best["ply"], best["move"], best["written"], best["slip"]) == (9, "d3", written, slip)
    assert (best["replays"], best["claimed"], best["pointer"]) == (True, True, "/moves/8")


def test_a_json_move_the_schema_refuses_gets_none() -> None:
    data = json.loads(arbiter.write_json(RECORD))
    data["moves"][8] = {"type": "place", "at": "z3"}
    error = first_error(json.dumps(data))
    assert error["code"] == "schema" and "suggestions" not in error


def random_record(name: str, seed: int, plies: int = 90) -> Record:
    """A game of ``name`` of random legal moves (seeded), as a record."""
    chooser = random.Random(seed)
    size = 9 if name == "Pletore" else 8
    game = arbiter.Game(name, size, komi=0 if get_rules(name).description.komi else None)
    for _ in range(plies):
        moves = [] if game.is_over() else list(itertools.islice(game.legal_moves(), 200))
        if not moves:
            break
        game.play(chooser.choice(moves))
    return game.record()


@pytest.mark.parametrize("name", ["Pilo", "Petrify", "Implo", "Pletore", "Pilare"])
def test_the_slips_of_level_0_are_those_a_full_pass_finds(name: str) -> None:
    """A close ply whose move has no square on or a cheap slip away from one the refused move
    touches has no slip of level 0, and its slips are not made: the slips of level 0 found so
    are those that every cheap slip of every close ply, levelled, gives (in Pilare, those that
    leave the stacks sown after it as high as their paths, :meth:`_heights_fit`)."""
    for seed in range(3):
        record = random_record(name, seed)
        refused = len(record.turns)
        record = record.replace(turns=(*record.turns, record.turns[refused // 2]))  # taken again
        search = hints._Search(record, refused + 1)  # noqa: SLF001
        close, _ = search._plies()  # noqa: SLF001
        for ply in close[1:]:
            for cost in (1.0, 1.2, 1.3):
                every = [
                    text
                    for text, _, added, changed in hints._changes(  # noqa: SLF001
                        search.written[ply - 1], search.size, cost
                    )
                    if search._level(ply, added, changed) == 0  # noqa: SLF001
                    and search._heights_fit(ply, text)  # noqa: SLF001
                    and hints._read(text, name, search.size) not in (None, record.moves[ply - 1])  # noqa: SLF001
                ]
                found = search._leveled(ply, cost, 0)  # noqa: SLF001
                assert [option.text for option in found] == every


def test_a_close_move_out_of_reach_of_the_refused_one_has_no_slips_made() -> None:
    # d2 refused at ply 12 (d2 written for d3 at ply 9): b1, b2, b3, c3, e3 and e1 are at
    # close plies (on or next to the squares around d2, or a cheap slip away from them), but
    # no cheap slip of them is d2, so none of their slips is of level 0, and none is made.
    record = arbiter.parse_record(slipped(9, "d2"))
    search = hints._Search(record, 12)  # noqa: SLF001
    close, _ = search._plies()  # noqa: SLF001
    far = [
        ply
        for ply in close[1:]
        if not hints._reach(search.squares[ply - 1], search.size) & search.touched  # noqa: SLF001
        and not hints._has_path(search.written[ply - 1])  # noqa: SLF001
    ]
    assert far  # some close plies are out of reach
    hints._changes.cache_clear()  # noqa: SLF001
    for ply in far:
        assert search._leveled(ply, 1.0, 0) == ()  # noqa: SLF001
    assert hints._changes.cache_info().misses == 0  # noqa: SLF001


def test_the_slips_of_level_1_are_read_only_when_their_pass_comes() -> None:
    # b3xd1 for b1xd1 at ply 30 is mended there (level 0): the slips of the close plies that
    # change only what stands next to the refused move's squares are never read.
    record = arbiter.parse_record(slipped(30, "b3xd1"))
    search = hints._Search(record, 30)  # noqa: SLF001
    found = search.run(hints.LIMIT)
    assert found[0].rank[0] == 0
    assert search.unread == {}  # the pass of level 1 never came
    assert not any(key[2] == 1 for key in search.split)
    level_one = search._leveled(28, 1.0, 1)  # noqa: SLF001
    assert all(option.changed & search.around and not option.changed & search.touched
               for option in level_one)  # fmt: skip


def in_corner(word: str) -> bool:
    """Whether the placement or flip ``word`` is on files a to m and ranks 1 to 12."""
    return word[0] <= "m" and int(word.rstrip("x")[1:]) <= 12


def taken_far_back(gap: int) -> Record:
    """A Pletore game on 19×19 in which Black meant r19 at ply 11 and wrote s19, a legal
    move; Black's s19 ``gap`` plies later is then refused, its point taken. The other moves
    keep to files a to m and ranks 1 to 12, off the lines of r19 and s19."""
    game = arbiter.Game("Pletore", 19, komi=0)
    slip, refused = 11, 11 + gap
    for ply in range(1, refused + 5):
        if ply in (slip, refused):
            game.play("r19" if ply == slip else "s19")
            continue
        game.play(next(move for move in game.legal_moves() if in_corner(str(move))))
    record = game.record()
    turns = list(record.turns)
    turns[slip - 1] = turns[refused - 1]  # s19 written for r19
    return record.replace(turns=tuple(turns))


@pytest.mark.parametrize("gap", [hints.WINDOW, hints.WINDOW + 10])
def test_the_move_that_took_a_refused_point_is_searched_however_far_back(gap: int) -> None:
    # The earlier plies of the window go up to 60 back, that one included; further back, the
    # move that last touched the refused move's square is searched as a close ply's.
    error: dict[str, Any] = arbiter.adjudicate(taken_far_back(gap)).errors[0]
    assert (error["ply"], error["message"]) == (11 + gap, "s19 is occupied")
    found = [(s["ply"], s["move"], s["claimed"]) for s in error["suggestions"]]
    assert found[:2] == [(11, "r19", True), (11 + gap, "r19", True)]  # the earlier one first


def test_a_moves_text_is_kept_with_the_move() -> None:
    moves = [*RECORD.moves, *random_record("Implo", 1, 30).moves]
    assert [hints._text(move) for move in moves] == [str(move) for move in moves]  # noqa: SLF001
    move = RECORD.moves[0]
    assert hints._TEXTS[id(move)] == (move, str(move))  # noqa: SLF001  # the move held


def test_a_far_stone_in_line_with_a_refused_point_of_pletore_is_around_it() -> None:
    # White's a9 at ply 10 is refused, a9 controlled by Black: it sees Black's b9 along its
    # rank and Black's a2 down its file. a2 was written for b2 at ply 7. The stone on a9's
    # line, seven squares away, decides its control as much as b9 next to it: a slip that
    # moves it is of level 1, as one that moves b9 is. (b8 for b9 at ply 1 mends the record
    # too; were a2 not around a9, that would be the only slip of level 1, and come first.)
    meant = "b9 h5 f3 h4 f4 h3 b2 h2 f5 a9 d9 g5 c9 g4 e9 g3 a8 g2 a7 g1 a4".split()
    game = arbiter.Game("Pletore", 9, komi=0)
    for move in meant:
        game.play(move)
    record = game.record()
    a2 = arbiter.parse_record('[Game "Pletore"]\n[Size "9"]\n[Komi "0"]\n\n1. a2 *').turns[0]
    record = record.replace(turns=(*record.turns[:6], a2, *record.turns[7:]))
    error: dict[str, Any] = arbiter.adjudicate(record).errors[0]
    assert (error["ply"], error["message"]) == (10, "a9 is controlled by Black")
    best = error["suggestions"][0]
    assert (best["ply"], best["move"], best["slip"], best["claimed"]) == (
        7, "b2", "file off by one", True
    )  # fmt: skip
    search = hints._Search(record, 10)  # noqa: SLF001
    assert search.around & 1 << arbiter.Point.parse("a2").index(9)
    assert get_rules("Pletore").sight and not get_rules("Pilo").sight
