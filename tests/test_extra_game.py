"""A sixth game, described and registered here and nowhere else, goes through every layer.

Dots is a toy game of placements and passes, with colours of its own (Green and Purple), so
that the reader, the writer, the JSON schema, the replay, the command line and the HTTP API
are all shown to take a game's facts from its description alone.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import NamedTuple

import pytest
from click.testing import CliRunner

import arbiter
from arbiter.adjudicator.base import Outcome, Rules, register, unregister
from arbiter.adjudicator.board import geometry
from arbiter.notation.ast import Grid, Move, Pass, Place
from arbiter.notation.errors import IllegalMoveError
from arbiter.notation.games import GameDescription, Piece
from arbiter.service.cli.main import main
from arbiter.service.web import create_app

DOTS = GameDescription(
    name="Dots",
    colours=("Green", "Purple"),
    sizes=(3, 4, 5),
    moves=("place", "pass"),
    pieces=(Piece("g", "Green dot"), Piece("p", "Purple dot")),
    scored=True,
)


class DotsState(NamedTuple):
    size: int
    board: tuple[str, ...]
    ply: int = 0
    passes: int = 0


class DotsRules(Rules[DotsState]):
    """Place a dot on an empty square or pass; two passes in a row or a full board end the
    game; more dots win, and a tie goes to Purple."""

    description = DOTS

    def to_move(self, state: DotsState) -> str:
        return DOTS.colours[state.ply % 2]

    def position(self, state: DotsState) -> Grid:
        return geometry(state.size).grid(state.board)

    def _initial(self, size: int, komi: int | None, cells: tuple[str, ...] | None) -> DotsState:
        return DotsState(size, cells or ("",) * (size * size))

    def _game_over(self, state: DotsState) -> str | None:
        full = "" not in state.board
        return "the game is over" if state.passes >= 2 or full else None

    def _outcome(self, state: DotsState) -> Outcome:
        green, purple = state.board.count("g"), state.board.count("p")
        return Outcome("Green" if green > purple else "Purple", {"Green": green, "Purple": purple})

    def _legal_moves(self, state: DotsState) -> Iterator[Move]:
        table = geometry(state.size)
        yield from (Place(table.points[i]) for i, cell in enumerate(state.board) if not cell)
        yield Pass()

    def _place(self, state: DotsState, move: Place) -> DotsState:
        i = geometry(state.size).index(move.at)
        if state.board[i]:
            raise IllegalMoveError(f"{move.at} is taken")
        board = state.board[:i] + ("gp"[state.ply % 2],) + state.board[i + 1 :]
        return DotsState(state.size, board, state.ply + 1, 0)

    def _pass(self, state: DotsState, move: Pass) -> DotsState:
        return state._replace(ply=state.ply + 1, passes=state.passes + 1)


GAME = """[Game "Dots"]
[Size "3"]
[Event "Toy cup"]
[Green "Ana"]
[Purple "Bo"]
[Result "Green+1"]

1. b2 a1 2. c3 pass 3. pass Green+1
"""
ILLEGAL = GAME.replace("2. c3", "2. a1").replace('[Result "Green+1"]\n', "").replace("Green+1", "*")


@pytest.fixture(autouse=True, scope="module")
def dots() -> Iterator[None]:
    register(DotsRules)
    yield
    unregister("Dots")


def test_the_library_reads_replays_writes_and_plays_it() -> None:
    record = arbiter.parse_record(GAME)
    report = arbiter.adjudicate(record)
    assert (report.valid, report.finished, report.result) == (True, True, "Green+1")
    assert (report.winner_player, report.scores) == ("Ana", {"Green": 2, "Purple": 1})
    assert arbiter.write_grn(record) == GAME
    assert arbiter.parse_record(arbiter.write_json(record)) == record
    illegal = arbiter.adjudicate(arbiter.parse_record(ILLEGAL))
    assert illegal.errors[0]["code"] == "illegal-move" and illegal.errors[0]["ply"] == 3
    game = arbiter.Game("dots", 3)
    game.play("b2")
    assert game.to_move == "Purple" and str(game.position) == "3/1,g,1/3"
    assert "Dots" in [described.name for described in arbiter.games()]


def test_its_facts_are_checked_by_the_readers() -> None:
    flip = json.loads(arbiter.write_json(arbiter.parse_record(GAME)))
    flip["moves"][0] = {"type": "flip", "at": "b2"}
    [error] = arbiter.read_records(json.dumps(flip))
    assert isinstance(error, arbiter.RecordError) and error.pointer == "/moves/0/type"
    [wrong] = arbiter.read_records(GAME.replace("Green+1", "Blue+1"))
    assert isinstance(wrong, arbiter.RecordError) and wrong.code == "bad-result"
    [big] = arbiter.read_records(GAME.replace('[Size "3"]', '[Size "6"]'))
    assert isinstance(big, arbiter.RecordError) and "sizes 3 to 5" in big.message


def test_the_command_line_knows_it(tmp_path: Path) -> None:
    path = tmp_path / "dots.grn"
    path.write_text(GAME + "\n" + ILLEGAL, encoding="utf-8")
    runner = CliRunner()
    result = runner.invoke(main, ["adjudicate", "--json", str(path)])
    reports = [json.loads(line) for line in result.stdout.splitlines()]
    assert [(r["game"], r["valid"], r["result"]) for r in reports] == [
        ("Dots", True, "Green+1"),
        ("Dots", False, "*"),
    ]
    converted = runner.invoke(main, ["convert", str(path), "--to", "json"])
    assert [r["game"] for r in json.loads(converted.stdout)] == ["Dots", "Dots"]
    listed = json.loads(runner.invoke(main, ["games", "--json"]).stdout)
    assert listed[-1]["name"] == "Dots" and listed[-1]["colours"] == ["Green", "Purple"]
    assert "Dots" in runner.invoke(main, ["schema"]).stdout


def test_the_http_api_knows_it() -> None:
    client = create_app({"TESTING": True}).test_client()
    answer = client.post("/api/v1/adjudicate", data=GAME, content_type="text/plain").get_json()
    assert answer["reports"][0]["result"] == "Green+1" and answer["valid"]
    games = client.get("/api/v1/games").get_json()["games"]
    assert games[-1]["name"] == "Dots"
    schema = client.get("/api/v1/schema").get_json()
    assert "Dots" in schema["$defs"]["record"]["properties"]["game"]["enum"]
    converted = client.post("/api/v1/convert?to=grn", data=GAME, content_type="text/plain")
    assert converted.get_data(as_text=True) == GAME
    described = client.get("/api/v1/openapi.json").get_json()["components"]["schemas"]
    assert "Dots" in described["Game"]["properties"]["name"]["enum"]


def test_it_is_drawn_from_its_description(tmp_path: Path) -> None:
    """Squares (its board), its two colours' own paints, one dark and one light, and the
    same picture from the library, the command line and the HTTP API."""
    record = arbiter.parse_record(GAME)
    picture = arbiter.svg(record, ply=2)
    assert 'fill="#1e7d4f"' in picture and 'fill="#c9a6e4"' in picture  # Green, Purple
    assert picture.count('r="15.5"') == 2  # two dots, drawn as disks
    assert "<title>Dots 3×3 · ply 2 · 1. Purple a1 — Green to move</title>" in picture
    assert arbiter.text(record, ply=2).splitlines()[2:4] == [" 2  ·  ●  ·  2", " 1 (○) ·  ·  1"]
    path = tmp_path / "dots.grn"
    path.write_text(GAME, encoding="utf-8")
    drawn = CliRunner().invoke(main, ["diagram", str(path), "--ply", "2"])
    assert drawn.exit_code == 0 and drawn.stdout == picture
    client = create_app({"TESTING": True}).test_client()
    served = client.post("/api/v1/diagram?ply=2", data=GAME, content_type="text/plain")
    assert served.get_data(as_text=True) == picture
