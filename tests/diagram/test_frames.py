"""A record replayed into its plies (spec/diagrams.md §1): one frame per ply, the refused
move's frame, who moved and who is to move, and agreement with the adjudicator."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import arbiter
from arbiter.adjudicator.replay import adjudicate
from arbiter.diagram.frames import frame_at, frames, position_frame
from arbiter.notation.ast import Record
from arbiter.notation.errors import RecordError
from arbiter.notation.sources import parse_record, read_records
from tests.budget import examples
from tests.strategies import GAME_NAMES, legal_games

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = sorted(
    p
    for p in (ROOT / "samples").rglob("*")
    if p.suffix in (".grn", ".json") and not p.name.endswith(".expected.json")
)


def sample_records() -> list[tuple[str, Record]]:
    return [
        (f"{path.name}#{item.index}", item)
        for path in SAMPLES
        for item in read_records(path)
        if isinstance(item, Record)
    ]


RECORDS = sample_records()


@pytest.mark.parametrize(("name", "record"), RECORDS, ids=[name for name, _ in RECORDS])
def test_every_sample_replays_to_the_reports_final_position(name: str, record: Record) -> None:
    """The frames and the adjudicator replay alike: the last legal position is the report's
    final position, and a refused move is the report's first error."""
    report = adjudicate(record)
    try:
        found = frames(record)
    except RecordError as err:  # a bad Setup: the report says the same
        assert report.errors[0]["code"] == err.code == "bad-setup"
        return
    reached = found.refused.ply - 1 if found.refused else found.last_ply
    assert found[reached].position.text == report.final_position
    assert [frame.ply for frame in found] == list(range(len(found)))
    if found.error is not None:
        refused = {key: value for key, value in report.errors[0].items() if key != "suggestions"}
        assert found.error.to_dict() == refused  # the report adds its repair hints
        assert found.last_ply == found.error.ply
    else:
        assert found.last_ply == len(record.turns)


def test_a_valid_record_has_one_frame_per_ply_and_the_start() -> None:
    record = parse_record('[Game "Pilo"]\n[Size "4"]\n\n1. b2 swap 2. c3 c2 *')
    found = frames(record)
    assert len(found) == 5 and found.error is None and found.refused is None
    start, first, swap, third, fourth = found
    assert (start.ply, start.last, start.mover, start.to_move) == (0, None, None, "Blue")
    assert str(start.position) == "4/4/4/4"
    assert (str(first.last), first.mover, first.to_move, first.number) == (
        "b2",
        "Blue",
        "Orange",
        1,
    )
    # The swap is the second colour's turn, and the second colour moves again after it.
    assert (str(swap.last), swap.mover, swap.to_move, swap.number) == (
        "swap",
        "Orange",
        "Orange",
        1,
    )
    assert swap.position == first.position
    assert (str(third.last), third.mover, third.to_move) == ("c3", "Orange", "Blue")
    assert (str(fourth.last), fourth.mover, str(fourth.position)) == (
        "c2",
        "Blue",
        "4/2,o,1/1,b,b,1/4",
    )
    assert fourth.caption() == ("Pilo 4×4 · ply 4 · 2. Blue c2", "Orange to move")
    assert start.caption() == ("Pilo 4×4 · start", "Blue to move")


def test_the_refused_move_gets_the_position_before_it() -> None:
    record = parse_record('[Game "Pletore"]\n[Size "5"]\n[Komi "0"]\n\n1. c3 d4 2. c3 b2 *')
    found = frames(record)
    assert found.last_ply == 3 and found.error is not None
    refused = found.at()
    assert refused is found.refused and refused.ply == 3
    assert str(refused.refused) == "c3" and str(refused.move) == "c3"
    assert refused.position == found[2].position  # the position before the refused move
    assert str(refused.last) == "d4" and refused.mover == "Black"
    assert refused.error is found.error and found.error.code == "illegal-move"
    assert found.error.ply == 3 and found.error.line == 5
    assert refused.caption() == (
        "Pletore 5×5 · ply 3 · 2. Black c3 refused",
        "illegal-move: c3 is occupied",
    )


def test_the_end_of_a_game_has_nobody_to_move_and_the_result() -> None:
    record = parse_record(
        '[Game "Pletore"]\n[Size "3"]\n[Komi "0"]\n\n'
        "1. a3 b3 2. a1 a2 3. c3 a3x 4. c1 b2 5. c2 b1 6. pass pass White+1\n"
    )
    end = frames(record).at()
    assert (end.ply, end.to_move, end.result) == (12, None, "White+1")
    assert end.caption()[1] == "Game over: White+1"
    assert frames(record)[11].result is None


@pytest.mark.parametrize(
    ("text", "ply", "message"),
    [
        (
            '[Game "Pilo"]\n[Size "4"]\n\n1. b2 c3 *',
            3,
            "no ply 3: the record has 2 plies; plies 0 to 2",
        ),
        ('[Game "Pilo"]\n[Size "4"]\n\n*', 1, "no ply 1: the record has 0 plies; plies 0 to 0"),
        (
            '[Game "Pilo"]\n[Size "4"]\n\n1. b2 b2 2. c3 c2 *',
            3,
            "no ply 3: the move at ply 2 is refused, so no later ply is reached; plies 0 to 2",
        ),
        (
            '[Game "Pilo"]\n[Size "4"]\n\n1. b2 b2 2. c3 c2 *',
            7,
            "no ply 7: the move at ply 2 is refused, so no later ply is reached",
        ),
        ('[Game "Pilo"]\n[Size "4"]\n\n1. b2 *', 2, "no ply 2: the record has 1 ply; plies 0 to 1"),
        ('[Game "Pilo"]\n[Size "4"]\n\n1. b2 *', -1, "no ply -1"),
    ],
)
def test_a_ply_that_is_not_reached_says_which_are(text: str, ply: int, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        frames(parse_record(text)).at(ply)


def test_a_bad_setup_cannot_be_replayed() -> None:
    record = parse_record('[Game "Petrify"]\n[Size "3"]\n[Setup "x,2/3/3"]\n\n*')
    with pytest.raises(RecordError) as caught:
        frames(record)
    assert caught.value.code == "bad-setup"


def test_a_game_in_play_and_a_bare_position_are_frames_too() -> None:
    game = arbiter.Game("Pilo", size=4)
    game.play("b2")
    game.play("swap")
    game.play("c3")
    frame = arbiter.diagram.frame(game)
    assert (frame.ply, str(frame.last), frame.mover, frame.to_move) == (3, "c3", "Orange", "Blue")
    assert frame.position == game.position
    bare = position_frame(game.position)
    assert (bare.last, bare.to_move, bare.position) == (None, None, game.position)
    assert arbiter.diagram.frame(game, ply=1).position.text == "4/4/1,b,2/4"


@settings(max_examples=examples(25), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), game=st.sampled_from(GAME_NAMES))
def test_frames_follow_the_game_move_by_move(data: st.DataObject, game: str) -> None:
    """For random legal games: the frame of every ply is what ``Game`` shows after playing
    the same moves, with the same side to move."""
    record = data.draw(legal_games(game, max_plies=40))
    found = frames(record)
    played = arbiter.Game(game, record.size, komi=record.komi)
    assert found.error is None and len(found) == len(record.turns) + 1
    for frame, turn in zip(list(found)[1:], record.turns, strict=True):
        mover = played.to_move
        played.play(turn.move)
        assert frame.position == played.position
        assert frame.mover == mover
        assert frame.to_move == (None if played.is_over() else played.to_move)


def test_one_frame_is_the_same_replayed_alone() -> None:
    """``frame_at`` replays only as far as asked, and gives what ``frames`` gives."""
    for text in (
        '[Game "Pilo"]\n[Size "4"]\n\n1. b2 c3 2. d4 a1 *',
        '[Game "Pilo"]\n[Size "4"]\n\n1. b2 b2 *',
    ):
        record = parse_record(text)
        every = frames(record)
        assert [frame_at(record, ply) for ply in range(len(every))] == list(every)
        assert frame_at(record) == every.at()
        alone_error, listed_error = frame_at(record).error, every.at().error
        assert (alone_error and alone_error.to_dict()) == (listed_error and listed_error.to_dict())
        for ply in (len(every), 9):
            with pytest.raises(ValueError) as alone:
                frame_at(record, ply)
            with pytest.raises(ValueError) as listed:
                every.at(ply)
            assert str(alone.value) == str(listed.value)
