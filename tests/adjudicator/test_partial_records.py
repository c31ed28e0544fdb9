"""Errors that do not make a replay impossible do not stop it (spec/grn.md §10, spec/report.md):
the record stays invalid, and its report still gives the official result, scores, plies and
winner. And a claim that names only the winner is checked against the official winner."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from arbiter.adjudicator.replay import Report
from arbiter.notation.errors import RecordError
from arbiter.notation.games import find_game
from arbiter.notation.sources import read_records
from arbiter.service.core.batch import adjudicate_source, convert_source

ROOT = Path(__file__).resolve().parents[2]
FINISHED = {
    "Pilo": ("pilo/valid/01-club-ladder-8x8-swap.grn", "Orange+6"),
    "Petrify": ("petrify/valid/02-autumn-open-6x6.grn", "Orange+3"),
    "Pletore": ("pletore/valid/05-lesson-5x5.grn", "White+7"),
    "Implo": ("implo/valid/03-6x6-last-turn-loses.grn", "Black"),
    "Pilare": ("pilare/valid/club_ladder_6x6.grn", "Red"),
}
"""A finished game of each game, and its official result."""


def sample(game: str) -> str:
    return (ROOT / "samples" / FINISHED[game][0]).read_text(encoding="utf-8")


def with_result(text: str, claim: str) -> str:
    """The record with its Result tag saying ``claim``, and no result token at the end."""
    text = re.sub(r'\[Result "[^"]*"\]', f"[Result {json.dumps(claim)}]", text)
    return re.sub(r"[ \n]+(\*|[A-Z][a-z]+(\+\S+)?)\s*$", "\n", text)


def report(text: str) -> Report:
    [only] = adjudicate_source(text.encode())
    return only


def official(game: str) -> Report:
    got = report(sample(game))
    assert got.valid and got.result == FINISHED[game][1], got.errors
    return got


@pytest.mark.parametrize("game", sorted(FINISHED))
def test_a_claim_of_the_winner_alone_is_checked_against_the_official_winner(game: str) -> None:
    truth = official(game)
    assert truth.winner is not None
    got = report(with_result(sample(game), truth.winner))
    assert (got.valid, got.claim_ok, got.result) == (True, True, FINISHED[game][1])
    assert got.claimed_result == truth.winner
    other = find_game(game).opponent(truth.winner)
    wrong = report(with_result(sample(game), other))
    assert (wrong.valid, wrong.claim_ok) == (False, False)
    assert wrong.errors[0]["code"] == "result-mismatch" and wrong.result == FINISHED[game][1]


@pytest.mark.parametrize("game", sorted(FINISHED))
@pytest.mark.parametrize("claim", ["Purple+3", "Orange+x", "White+1.25", "orange+007", "+", ""])
def test_an_unreadable_result_is_an_error_but_the_moves_are_replayed(game: str, claim: str) -> None:
    truth = official(game)
    got = report(with_result(sample(game), claim))
    assert not got.valid
    assert got.errors[0]["code"] == "bad-result", got.errors
    assert (got.result, got.scores, got.plies, got.winner, got.final_position) == (
        truth.result,
        truth.scores,
        truth.plies,
        truth.winner,
        truth.final_position,
    )
    assert (got.game, got.finished, got.claimed_result, got.claim_ok) == (game, True, None, None)


def test_a_result_tag_and_token_that_disagree_do_not_stop_the_replay() -> None:
    text = with_result(sample("Pilo"), "Orange+6").rstrip("\n") + " Blue+2\n"
    got = report(text)
    assert [e["code"] for e in got.errors] == ["result-conflict"]
    assert (got.result, got.plies, got.claim_ok) == ("Orange+6", official("Pilo").plies, None)


def test_a_json_record_with_an_unreadable_result_is_replayed_too() -> None:
    [record] = read_records(sample("Pletore").encode())
    from arbiter.notation.json_writer import write_json

    obj = json.loads(write_json(record))  # type: ignore[arg-type]
    obj["result"] = "White by 7"
    got = report(json.dumps(obj))
    assert got.errors[0] == {
        "code": "bad-result",
        "message": "'White by 7' is not a Pletore result in its canonical spelling",
        "pointer": "/result",
    }
    assert (got.result, got.scores) == ("White+7", official("Pletore").scores)


def test_a_wrong_move_number_does_not_stop_the_replay() -> None:
    text = sample("Petrify").replace("2. ", "7. ", 1)
    got = report(text)
    assert [e["code"] for e in got.errors] == ["bad-move-number"]
    assert (got.result, got.claim_ok, got.valid) == ("Orange+3", True, False)


def test_a_move_the_game_does_not_have_ends_the_turns_read() -> None:
    # A flip in Pilo at ply 5: the four plies before it are replayed, as before an illegal move.
    text = '[Game "Pilo"]\n[Size "5"]\n[Result "Blue+3"]\n\n1. c3 d4 2. b2 e5 3. a1x b1 *\n'
    got = report(text.replace(" *", ""))
    assert [(e["code"], e.get("ply")) for e in got.errors] == [("wrong-move-form", 5)]
    assert (got.plies, got.final_position) == (4, "4,o/3,o,1/2,b,2/1,b,3/5")
    assert (got.claimed_result, got.claim_ok) == ("Blue+3", None)
    off = report(text.replace("a1x", "f9").replace(" *", ""))
    assert [(e["code"], e.get("ply")) for e in off.errors] == [("off-board", 5)]
    assert off.plies == 4


def test_an_ordinary_tag_given_twice_keeps_the_first_and_replays() -> None:
    text = sample("Pilo").replace('[Game "Pilo"]', '[Game "Pilo"]\n[Xtra "A"]\n[Xtra "B"]')
    got = report(text)
    assert [e["code"] for e in got.errors] == ["duplicate-tag"]
    assert got.result == "Orange+6" and got.claim_ok is True
    [error] = read_records(text.encode())
    assert isinstance(error, RecordError) and error.record is not None
    assert ("Xtra", "A") in [(t.name, t.value) for t in error.record.tags]


def test_a_second_game_or_size_still_stops_the_record() -> None:
    text = sample("Pilo").replace('[Size "8"]', '[Size "8"]\n[Size "6"]')
    got = report(text)
    assert (got.game, got.errors[0]["code"]) == (None, "duplicate-tag")


def test_a_komi_in_a_game_without_one_is_ignored_and_reported() -> None:
    text = sample("Pilo").replace('[Size "8"]', '[Size "8"]\n[Komi "5"]')
    got = report(text)
    assert [e["code"] for e in got.errors] == ["komi-not-allowed"]
    assert got.result == "Orange+6"


def test_every_problem_of_a_record_is_reported_in_reading_order() -> None:
    text = with_result(sample("Pilo"), "Nobody").replace("3. ", "9. ", 1)
    got = report(text)
    assert [e["code"] for e in got.errors] == ["bad-result", "bad-move-number"]


def test_a_record_read_only_in_part_is_not_converted() -> None:
    text = with_result(sample("Pilo"), "Nobody") + "\n" + sample("Petrify")
    items = list(convert_source(text.encode(), to="json"))
    assert [item.error.code if item.error else None for item in items] == ["bad-result", None]
