"""A move form none of the five games has, described and registered here and nowhere else.

Hop is a toy game whose stones may jump: ``b2-d2`` takes a stone of the mover's over the
stone next to it to the empty square beyond, and an enemy stone jumped over is taken off.
The jump is one class (``Jump``: its names, GRN pattern, JSON fields, handler and the
points it touches), so this module shows that the readers, the writers, the schema, the
replay, the diagrams, the command line and the HTTP API all take a move form from its
description alone.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any, NamedTuple

import pytest
from click.testing import CliRunner

import arbiter
from arbiter.adjudicator.base import Outcome, Rules, register, unregister
from arbiter.adjudicator.board import geometry
from arbiter.notation import grn_reader
from arbiter.notation.ast import Grid, Move, Pass, Place, Point
from arbiter.notation.errors import IllegalMoveError
from arbiter.notation.forms import POINT_FIELD, SQUARE, MoveForm
from arbiter.notation.games import GameDescription, Piece, register_form, unregister_form
from arbiter.service.cli.main import main
from arbiter.service.web import create_app


class Jump(Move):
    """Jump the stone on ``origin`` over its neighbour to ``target``, two squares away."""

    __slots__ = ("origin", "target")
    _fields = ("origin", "target")
    form = MoveForm(
        "jump", "jump", "JUMP", f"{SQUARE}-{SQUARE}", "_jump",
        fields={"from": POINT_FIELD, "to": POINT_FIELD}, required=("from", "to"),
    )  # fmt: skip

    def __init__(self, origin: Point, target: Point) -> None:
        self.origin = origin
        self.target = target

    @classmethod
    def from_grn(cls, word: str) -> Move:
        origin, _, target = word.lower().partition("-")
        return Jump(Point.parse(origin), Point.parse(target))

    @classmethod
    def from_json(cls, obj: Mapping[str, Any]) -> Move:
        return Jump(Point.parse(obj["from"]), Point.parse(obj["to"]))

    def json_fields(self) -> dict[str, Any]:
        return {"from": str(self.origin), "to": str(self.target)}

    def points(self) -> tuple[Point, ...]:
        return (self.origin, self.target)

    def __str__(self) -> str:
        return f"{self.origin}-{self.target}"


HOP = GameDescription(
    name="Hop",
    colours=("Gold", "Silver"),
    sizes=(5, 6, 7),
    moves=("place", "jump", "pass"),
    pieces=(Piece("g", "Gold stone"), Piece("s", "Silver stone")),
    scored=True,
)


class HopState(NamedTuple):
    size: int
    board: tuple[str, ...]
    ply: int = 0
    passes: int = 0


class HopRules(Rules[HopState]):
    """Place a stone, jump one, or pass; two passes in a row end the game; more stones win,
    and a tie goes to Silver."""

    description = HOP

    def to_move(self, state: HopState) -> str:
        return HOP.colours[state.ply % 2]

    def _outcome(self, state: HopState) -> Outcome:
        gold, silver = state.board.count("g"), state.board.count("s")
        return Outcome("Gold" if gold > silver else "Silver", {"Gold": gold, "Silver": silver})

    def position(self, state: HopState) -> Grid:
        return geometry(state.size).grid(state.board)

    def _initial(self, size: int, komi: int | None, cells: tuple[str, ...] | None) -> HopState:
        return HopState(size, cells or ("",) * (size * size))

    def _game_over(self, state: HopState) -> str | None:
        return "the game is over" if state.passes >= 2 else None

    def _legal_moves(self, state: HopState) -> Iterator[Move]:
        table = geometry(state.size)
        yield from (Place(table.points[i]) for i, cell in enumerate(state.board) if not cell)
        for i, cell in enumerate(state.board):
            if cell == self._stone(state):
                origin = table.points[i]
                for df, dr in ((0, 1), (0, -1), (1, 0), (-1, 0)):
                    file, rank = origin.file + 2 * df, origin.rank + 2 * dr
                    if 0 <= file < state.size and 0 <= rank < state.size:
                        jump = Jump(origin, Point(file, rank))
                        if self._jump_problem(state, jump) is None:
                            yield jump
        yield Pass()

    def _stone(self, state: HopState) -> str:
        return HOP.pieces[state.ply % 2].letter

    def _place(self, state: HopState, move: Place) -> HopState:
        i = geometry(state.size).index(move.at)
        if state.board[i]:
            raise IllegalMoveError(f"{move.at} is taken")
        board = state.board[:i] + (self._stone(state),) + state.board[i + 1 :]
        return HopState(state.size, board, state.ply + 1, 0)

    def _jump_problem(self, state: HopState, move: Jump) -> str | None:
        df, dr = move.target.file - move.origin.file, move.target.rank - move.origin.rank
        if sorted((abs(df), abs(dr))) != [0, 2]:
            return f"{move.target} is not two squares in line from {move.origin}"
        table = geometry(state.size)
        middle = Point(move.origin.file + df // 2, move.origin.rank + dr // 2)
        if state.board[table.index(move.origin)] != self._stone(state):
            return f"{move.origin} holds no {self.to_move(state)} stone"
        if not state.board[table.index(middle)]:
            return f"there is no stone on {middle} to jump over"
        if state.board[table.index(move.target)]:
            return f"{move.target} is taken"
        return None

    def _jump(self, state: HopState, move: Jump) -> HopState:
        problem = self._jump_problem(state, move)
        if problem is not None:
            raise IllegalMoveError(problem)
        table = geometry(state.size)
        board = list(state.board)
        middle = Point((move.origin.file + move.target.file) // 2,
                       (move.origin.rank + move.target.rank) // 2)  # fmt: skip
        if board[table.index(middle)] != self._stone(state):
            board[table.index(middle)] = ""
        board[table.index(move.origin)], board[table.index(move.target)] = "", self._stone(state)
        return HopState(state.size, tuple(board), state.ply + 1, 0)

    def _pass(self, state: HopState, move: Pass) -> HopState:
        return state._replace(ply=state.ply + 1, passes=state.passes + 1)


GAME = """[Game "Hop"]
[Size "5"]
[Gold "Ana"]
[Silver "Bo"]
[Result "Gold+1"]

1. b2 c2 2. b2-d2 {over Silver} pass 3. pass Gold+1
"""
"""Gold places on b2, Silver next to it on c2, Gold jumps over it to d2 and takes it off,
and both pass: one stone to none."""
ILLEGAL = GAME.replace("b2-d2", "b2-b4").replace("Gold+1", "*")


@contextmanager
def hop_registered() -> Iterator[None]:
    """The jump form and the game Hop registered, and forgotten after."""
    register_form(Jump)
    register(HopRules)
    try:
        yield
    finally:
        unregister("Hop")
        unregister_form(Jump)


@pytest.fixture(autouse=True, scope="module")
def hop() -> Iterator[None]:
    with hop_registered():
        yield


def test_it_is_read_from_grn_and_json_and_written_back() -> None:
    record = arbiter.parse_record(GAME)
    jump = record.turns[2].move
    assert isinstance(jump, Jump) and jump.type == "jump" and record.turns[2].comment
    assert (str(jump.origin), str(jump.target)) == ("b2", "d2")
    assert arbiter.parse_record(GAME.replace("b2-d2", "B2-D2")) == record
    written = json.loads(arbiter.write_json(record))
    assert written["moves"][2] == {
        "type": "jump",
        "from": "b2",
        "to": "d2",
        "comment": "over Silver",
    }
    assert arbiter.parse_record(json.dumps(written)) == record
    assert arbiter.parse_record(arbiter.write_grn(record)) == record
    assert "2. b2-d2 {over Silver} pass" in arbiter.write_grn(record)


def test_the_fast_path_and_the_grammar_read_it_alike() -> None:
    text = GAME
    fast = grn_reader.parse_grn_record(text)
    saved = grn_reader.scan
    grn_reader.scan = lambda text, shift=0: None  # type: ignore[assignment]
    try:
        assert grn_reader.parse_grn_record(text) == fast
        [error] = arbiter.read_records(text.replace("b2-d2", "b2-d2-f2"))
    finally:
        grn_reader.scan = saved
    assert isinstance(error, arbiter.RecordError) and error.code == "syntax-error"
    assert (error.line, error.column) == (7, 13)


def test_the_readers_check_it_as_any_form() -> None:
    [off] = arbiter.read_records(GAME.replace("b2-d2", "b2-t2"))
    assert isinstance(off, arbiter.RecordError) and off.code == "off-board"
    [beyond] = arbiter.read_records(GAME.replace("b2-d2", "b2-h2"))
    assert isinstance(beyond, arbiter.RecordError) and beyond.code == "off-board"
    assert beyond.message == "h2 is off the 5×5 board" and beyond.ply == 3
    pilo = '[Game "Pilo"]\n[Size "6"]\n\n1. b2 c3 2. b2-d2 *\n'
    [wrong] = arbiter.read_records(pilo)
    assert isinstance(wrong, arbiter.RecordError) and wrong.code == "wrong-move-form"
    assert wrong.message == "'b2-d2' is a jump, which Pilo does not have"
    obj = json.loads(arbiter.write_json(arbiter.parse_record(GAME)))
    del obj["moves"][2]["to"]
    [missing] = arbiter.read_records(json.dumps(obj))
    assert isinstance(missing, arbiter.RecordError) and missing.pointer == "/moves/2"
    obj["moves"][2].update({"to": "d2", "at": "c3"})
    [extra] = arbiter.read_records(json.dumps(obj))
    assert isinstance(extra, arbiter.RecordError) and extra.pointer == "/moves/2"
    assert extra.message == "a 'jump' move has no field 'at'"


def test_it_is_adjudicated_by_its_handler() -> None:
    report = arbiter.adjudicate(arbiter.parse_record(GAME))
    assert (report.valid, report.result, report.scores) == (
        True,
        "Gold+1",
        {"Gold": 1, "Silver": 0},
    )
    claimed = arbiter.adjudicate(arbiter.parse_record(GAME.replace("Gold+1", "Gold+2")))
    assert not claimed.valid and claimed.errors[0]["code"] == "result-mismatch"
    illegal = arbiter.adjudicate(arbiter.parse_record(ILLEGAL))
    error = illegal.errors[0]
    assert (error["code"], error["ply"], error["move"]) == ("illegal-move", 3, "b2-b4")
    assert error["message"] == "there is no stone on b3 to jump over"
    game = arbiter.Game("Hop", 5)
    game.play("c3")
    game.play("c4")
    assert "c3-c5" in [str(move) for move in game.legal_moves()]
    game.play("c3-c5")
    assert str(game.position) == "2,g,2/5/5/5/5"


def test_it_is_drawn_from_the_squares_it_touches() -> None:
    record = arbiter.parse_record(GAME)
    picture = arbiter.svg(record, ply=3)
    assert picture.count('fill="#f4d03f"') == 2  # both ends tinted
    assert "<polygon" in picture  # an arrow's head, from b2 to d2
    assert "b2-d2" in picture
    lines = arbiter.text(record, ply=3).splitlines()
    assert " 2  · (·) · (●) ·  2" in lines  # both ends marked: b2, left, and d2
    refused_text = arbiter.text(arbiter.parse_record(ILLEGAL), ply=3).splitlines()
    assert " 4  · >·< ·  ·  ·  4" in refused_text and " 2  · >●<(○) ·  ·  2" in refused_text
    refused = arbiter.svg(arbiter.parse_record(ILLEGAL), ply=3)
    assert "stroke-dasharray" in refused and "#c4007a" in refused


def test_the_command_line_and_the_api_serve_it(tmp_path: Path) -> None:
    path = tmp_path / "hop.grn"
    path.write_text(GAME, encoding="utf-8")
    runner = CliRunner()
    [report] = [
        json.loads(line)
        for line in runner.invoke(main, ["adjudicate", "--json", str(path)]).stdout.splitlines()
    ]
    assert (report["valid"], report["result"]) == (True, "Gold+1")
    converted = runner.invoke(main, ["convert", str(path), "--to", "json"]).stdout
    assert json.loads(converted)[0]["moves"][2]["type"] == "jump"
    listed = json.loads(runner.invoke(main, ["games", "--json"]).stdout)
    assert sorted(listed[-1]["moves"]) == ["jump", "pass", "place"]
    client = create_app({"TESTING": True}).test_client()
    answer = client.post("/api/v1/adjudicate", data=converted, content_type="application/json")
    assert answer.get_json()["reports"][0]["result"] == "Gold+1"
    back = client.post("/api/v1/convert?to=grn", data=converted, content_type="application/json")
    assert "b2-d2 {over Silver}" in back.get_data(as_text=True)
    schema = client.get("/api/v1/schema").get_json()
    assert "jump" in schema["$defs"]["move"]["properties"]["type"]["enum"]
    described = client.get("/api/v1/openapi.json").get_json()["components"]["schemas"]
    assert "jump" in described["Game"]["properties"]["moves"]["items"]["enum"]
    positions = client.post("/api/v1/positions", data=converted, content_type="application/json")
    assert positions.status_code == 200


def test_a_form_is_refused_when_it_cannot_be_read_apart() -> None:
    class Hop2(Jump):
        form = MoveForm("hop", "hop", "JUMP", f"{SQUARE}-{SQUARE}", "_jump")

    with pytest.raises(ValueError, match="the terminal JUMP is taken"):
        register_form(Hop2)

    class Leap(Jump):
        form = MoveForm("leap", "leap", "LEAP", f"-{SQUARE}", "_leap")

    with pytest.raises(ValueError, match="must begin with"):
        register_form(Leap)
