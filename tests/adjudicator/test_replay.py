"""The replay and its report (spec/report.md): claims, early endings, players after a swap,
and properties over random legal games of every game."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from arbiter.adjudicator import get_rules
from arbiter.adjudicator.base import Rules
from arbiter.adjudicator.replay import REPORT_FIELDS, adjudicate, canonical_record
from arbiter.notation.ast import (
    Move,
    Record,
    Turn,
)
from arbiter.notation.grn_reader import parse_grn_record
from arbiter.notation.grn_writer import write_record
from arbiter.notation.json_reader import read_json
from arbiter.notation.json_writer import write_json
from arbiter.notation.sources import read_records
from tests.budget import examples
from tests.strategies import EVERY_HEALTH_CHECK, GAME_NAMES, every_move_form, legal_games

ROOT = Path(__file__).resolve().parents[2]

# A finished 3x3 Pletore game (White+1), used to test the report's handling of claims.
PLETORE = (
    '[Game "Pletore"]\n[Size "3"]\n[Komi "0"]\n[Black "player-01"]\n'
    '[White "player-02"]\n[Result "{result}"]\n\n'
    "1. a3 b3 2. a1 a2 3. c3 a3x 4. c1 b2 5. c2 b1 6. pass pass{more}\n"
)


def pletore(result: str = "*", more: str = "") -> Record:
    return parse_grn_record(PLETORE.format(result=result, more=more))


def test_finished_game_gives_its_result_winner_and_player() -> None:
    report = adjudicate(pletore("White+1"))
    assert (report.valid, report.finished, report.result, report.termination) == (
        True,
        True,
        "White+1",
        "rules",
    )
    assert report.winner == "White" and report.winner_player == "player-02"
    assert report.claim_ok is True and report.errors == []


def test_unknown_claim_on_a_finished_game_is_accepted_and_result_given() -> None:
    report = adjudicate(pletore("*"))
    assert report.valid and report.result == "White+1" and report.claimed_result == "*"


@pytest.mark.parametrize("claim", ["Black+1", "White+2", "White+R", "White+T"])
def test_finished_game_with_another_claim_is_a_mismatch(claim: str) -> None:
    report = adjudicate(pletore(claim))
    assert not report.valid and report.claim_ok is False
    assert report.errors[0]["code"] == "result-mismatch"
    assert (report.errors[0]["line"], report.errors[0]["column"]) == (6, 9)
    assert report.result == "White+1"


def test_moves_after_the_end_are_illegal() -> None:
    report = adjudicate(pletore("*", more=" 7. b2"))
    assert not report.valid and report.errors[0]["ply"] == 13
    assert report.errors[0]["code"] == "illegal-move" and report.result == "*"


def test_resignation_of_an_unfinished_game_is_the_official_result() -> None:
    record = parse_grn_record(
        '[Game "Pletore"]\n[Size "5"]\n[Komi "0"]\n[Black "a"]\n[White "b"]\n\n1. c3 b3 Black+R'
    )
    report = adjudicate(record)
    assert report.valid and not report.finished
    assert (report.result, report.termination, report.winner, report.winner_player) == (
        "Black+R",
        "resignation",
        "Black",
        "a",
    )


@pytest.mark.parametrize("claim", ["Black+3", "White+0.5"])
def test_unfinished_game_cannot_claim_a_points_result(claim: str) -> None:
    record = parse_grn_record(f'[Game "Pletore"]\n[Size "5"]\n[Komi "0"]\n\n1. c3 b3 {claim}')
    report = adjudicate(record)
    assert not report.valid and report.errors[0]["code"] == "result-mismatch"
    assert report.result == "*"


def test_winner_player_follows_the_swap() -> None:
    # Pilo 3x3: Blue places, Orange's player swaps and takes Blue; the first player now
    # plays Orange. The game is resigned by Orange, so Blue wins: the swapper.
    record = parse_grn_record(
        '[Game "Pilo"]\n[Size "3"]\n[Blue "first"]\n[Orange "second"]\n\n1. b2 swap 2. a1 Blue+R'
    )
    report = adjudicate(record)
    assert report.valid and report.swapped
    assert report.winner == "Blue" and report.winner_player == "second"


def test_winner_player_without_swap() -> None:
    record = parse_grn_record(
        '[Game "Pilo"]\n[Size "3"]\n[Blue "first"]\n[Orange "second"]\n\n1. b2 a1 Blue+R'
    )
    assert adjudicate(record).winner_player == "first"


def test_a_setup_the_game_cannot_have_is_bad_setup() -> None:
    record = parse_grn_record('[Game "Pilo"]\n[Size "3"]\n[Setup "bo,2/3/3"]\n\n1. b2')
    report = adjudicate(record)
    assert report.errors[0]["code"] == "bad-setup" and report.errors[0]["line"] == 3


def test_final_position_is_written_in_the_position_notation() -> None:
    report = adjudicate(parse_grn_record('[Game "Pilo"]\n[Size "3"]\n\n1. b2 a1'))
    assert report.final_position == "3/1,b,1/o,2"


# -- properties over random legal games ----------------------------------------------------

SETTINGS = settings(
    max_examples=examples(15),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


@pytest.mark.parametrize("game", GAME_NAMES)
@SETTINGS
@given(data=st.data())
def test_random_legal_games_replay_identically_from_grn_and_json(game: str, data) -> None:  # type: ignore[no-untyped-def]
    record = data.draw(legal_games(game))
    direct = adjudicate(record).to_dict()
    from_grn = adjudicate(parse_grn_record(write_record(record))).to_dict()
    from_json = adjudicate(read_json(write_json([record]))[0]).to_dict()  # type: ignore[arg-type]
    assert direct == from_grn == from_json
    assert direct["valid"], direct["errors"]
    assert direct["result"] == record.result


@pytest.mark.parametrize("game", GAME_NAMES)
@SETTINGS
@given(data=st.data())
def test_a_corrupted_move_is_reported_at_exactly_its_ply(game: str, data) -> None:  # type: ignore[no-untyped-def]
    record = data.draw(legal_games(game, max_plies=40))
    assume(record.turns)
    ply = data.draw(st.integers(1, len(record.turns)))
    rules = get_rules(game)
    state = rules.initial_state(record.size, komi=record.komi)
    for turn in record.turns[: ply - 1]:
        state = rules.play(state, turn.move)
    bad = data.draw(_illegal_move(rules, state, record.size))
    turns = list(record.turns)
    turns[ply - 1] = Turn(bad)
    report = adjudicate(record.replace(turns=tuple(turns), result="*"))
    assert not report.valid
    assert report.errors[0]["ply"] == ply
    assert report.errors[0]["code"] in ("illegal-move", "ambiguous-move")


def _illegal_move(rules: Rules, state: object, size: int) -> st.SearchStrategy[Move]:
    """A move of the game's forms that the engine refuses in ``state``."""
    illegal = [m for m in every_move_form(rules.name, size) if not rules.is_legal(state, m)]
    assume(illegal)
    return st.sampled_from(illegal)


@pytest.mark.parametrize("game", GAME_NAMES)
@settings(max_examples=examples(10), deadline=None, suppress_health_check=EVERY_HEALTH_CHECK)
@given(data=st.data())
def test_canonical_record_is_a_fixed_point(game: str, data) -> None:  # type: ignore[no-untyped-def]
    record = data.draw(legal_games(game, max_plies=40))
    canonical = canonical_record(record)
    assert canonical_record(canonical) == canonical
    assert adjudicate(canonical).result == adjudicate(record).result


def test_a_report_as_json_has_every_field_in_order() -> None:
    """``Report.to_dict`` is written out field by field; it holds each field, in the order
    of ``_fields``, with the field's value (a finished, scored game: most fields differ)."""
    path = ROOT / "samples" / "pilo" / "valid" / "02-blitz-6x6.grn"
    (record,) = read_records(path)
    assert isinstance(record, Record)
    report = adjudicate(record, file=path.name)
    assert report.valid and report.scores and report.details
    assert list(report.to_dict().items()) == [(n, getattr(report, n)) for n in REPORT_FIELDS]
