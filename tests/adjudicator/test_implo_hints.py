"""Every hint an Implo ambiguity error gives is a whole move that, written literally in a
record, is read and played: the message's advice can be followed as it stands."""

from __future__ import annotations

import re

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from arbiter.adjudicator.replay import adjudicate
from arbiter.notation.ast import ImploPlace, Record, Turn
from arbiter.notation.grn_reader import parse_grn_record
from arbiter.notation.grn_writer import write_record
from tests.budget import examples
from tests.strategies import legal_games

HINT = re.compile(r".*(?:, as in|; write) (.+)$")


def hints(message: str) -> list[str]:
    """The moves a message offers: after "; write" or ", as in", separated by ", " and " or "."""
    found = HINT.search(message)
    assert found, message
    return re.split(r", | or ", found.group(1))


def test_the_hints_of_a_known_tie_are_whole_moves() -> None:
    # d2 closes a patch whose two biggest black groups tie (tests/adjudicator/test_implo.py).
    message = "the patch at c1 must remove one of the groups at d1, b3; write d2/c1:d1 or d2/c1:b3"
    assert hints(message) == ["d2/c1:d1", "d2/c1:b3"]


@settings(
    max_examples=examples(60),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(legal_games("Implo"), st.data())
def test_every_hint_written_literally_in_the_record_is_read_and_played(
    game: Record, data: st.DataObject
) -> None:
    # Drop the steps of a turn that has some: where that leaves a choice open, the record
    # is ambiguous; each hint, put in its place as it is written, must give a legal record.
    steps = [n for n, turn in enumerate(game.turns) if isinstance(turn.move, ImploPlace)]
    steps = [n for n in steps if game.turns[n].move.resolve]  # type: ignore[union-attr]
    if not steps:
        return
    ply = data.draw(st.sampled_from(steps))
    bare = ImploPlace(game.turns[ply].move.at)  # type: ignore[union-attr]
    prefix = game.turns[:ply]
    report = adjudicate(_with(game, (*prefix, Turn(bare))))
    if report.valid:
        return  # the steps left out were forced
    error = report.errors[0]
    assert error["code"] == "ambiguous-move" and error["ply"] == ply + 1, error
    offered = hints(str(error["message"]))
    assert offered
    for hint in offered:
        text = write_record(_with(game, prefix))
        assert text.endswith("*\n")
        text = text[:-2] + f" {_number(ply)}{hint} *\n"
        record = parse_grn_record(text)  # the hint is GRN as it stands
        played = adjudicate(record)
        assert played.valid, (hint, played.errors)
        assert played.plies == ply + 1


def _with(game: Record, turns: tuple[Turn, ...]) -> Record:
    return Record(game=game.game, size=game.size, turns=turns)


def _number(ply: int) -> str:
    """The move number that stands before the turn after ``ply`` turns, if any."""
    return f"{ply // 2 + 1}. " if ply % 2 == 0 else ""
