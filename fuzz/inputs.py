"""Where the fuzz harness gets its hostile inputs: the samples and random legal games,
mutated byte by byte and value by value, text drawn from the GRN grammar, binary junk, and
inputs made of good records around a broken one (to see that none is lost).

Everything is drawn from one ``random.Random``, so that a run is repeated by its seed.
"""

from __future__ import annotations

import copy
import json
import random
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, Phase, given, seed, settings
from hypothesis.extra.lark import from_lark

from arbiter.adjudicator import get_rules
from arbiter.notation.ast import Record, Turn
from arbiter.notation.games import all_games
from arbiter.notation.grn_lark import lark_parser
from arbiter.notation.grn_writer import write_record
from arbiter.notation.json_writer import record_to_json

ROOT = Path(__file__).resolve().parents[1]


@dataclass(frozen=True, slots=True)
class Input:
    """One input: its bytes, the kind of input it is, and, for inputs built around a broken
    record, the good records that must come out of it as they come out alone (first and
    last)."""

    data: bytes
    kind: str
    fmt: str | None = None
    intact: tuple[bytes, ...] = ()


def sample_texts() -> list[tuple[str, bytes]]:
    """Every record file of ``samples/`` (not the expected reports)."""
    found = sorted(
        p
        for p in (ROOT / "samples").rglob("*")
        if p.suffix in (".grn", ".json") and not p.name.endswith(".expected.json")
    )
    return [(p.suffix[1:], p.read_bytes()) for p in found]


def legal_records(rng: random.Random, count: int) -> list[Record]:
    """``count`` random legal games of every game, on small boards, played by the engines
    themselves (up to 80 plies), their results claimed as the rules give them."""
    records = []
    games = list(all_games())
    for number in range(count):
        game = games[number % len(games)]
        rules = get_rules(game.name)
        size = rng.choice(game.sizes[:4])
        komi = rng.randrange(-5, 6) if game.komi else None
        state = rules.initial_state(size, komi=komi)
        turns: list[Turn] = []
        while len(turns) < 80 and (move := rules.random_move(state, rng.choice)) is not None:
            state = rules.play(state, move)
            turns.append(Turn(getattr(state, "last_move", None) or move))
        outcome = rules.outcome(state)
        records.append(
            Record(
                game=game.name,
                size=size,
                komi=komi,
                turns=tuple(turns),
                players=((game.colours[0], "ann"), (game.colours[1], "bo")),
                result=outcome.result(game.colours) if outcome else "*",
            )
        )
    return records


def grammar_texts(count: int, seed_value: int) -> list[bytes]:
    """``count`` records drawn by hypothesis from the GRN grammar itself."""
    drawn: list[bytes] = []
    parser = lark_parser(start="record", lexer="basic")

    @seed(seed_value)
    @settings(
        max_examples=count,
        database=None,
        deadline=None,
        phases=[Phase.generate],
        # list(HealthCheck), typed: its metaclass hides the members' type from a type checker
        suppress_health_check=[c for c in HealthCheck if isinstance(c, HealthCheck)],
    )
    @given(from_lark(parser, start="record"))
    def draw(text: str) -> None:
        drawn.append(text.encode("utf-8", "surrogatepass"))

    draw()
    return drawn


# --- mutations ---------------------------------------------------------------------------------

HOSTILE = [
    b"{",
    b"}",
    b"[",
    b"]",
    b'"',
    b"\\",
    b"\n",
    b"\r",
    b"\x00",
    b"\xff",
    b"\xed\xa0\x80",
    "\u00a0".encode(),
    "\u3000".encode(),
    "\ufeff".encode(),
    "٣".encode(),
    b"9" * 4301,
    b"1" * 10,
    b"-1000001",
    b"99999999999/3/3",
    b"100000000",
    b'\n[Game "Pilo"]\n',
    b'[Game "Pletore"]',
    b"[Setup ",
    b"{" * 40,
    b"[" * 40,
    b"NaN",
    b"1e999",
    b"\\ud800",
    b"pass",
    b"swap",
    b"button",
    b"a1/b2:c3",
    b"c3:nnnnnnnn",
    b"Orange",
    b"+R",
    b"*",
    b"1...",
    b"z99",
]
"""Fragments that touch a limit, a rule of the notation or a path of the reader."""


def _flip(rng: random.Random, data: bytes) -> bytes:
    if not data:
        return data
    at = rng.randrange(len(data))
    return data[:at] + bytes([data[at] ^ (1 << rng.randrange(8))]) + data[at + 1 :]


def _insert(rng: random.Random, data: bytes) -> bytes:
    at = rng.randrange(len(data) + 1)
    piece = rng.choice(HOSTILE) if rng.random() < 0.7 else rng.randbytes(rng.randrange(1, 9))
    return data[:at] + piece + data[at:]


def _delete(rng: random.Random, data: bytes) -> bytes:
    if not data:
        return data
    at = rng.randrange(len(data))
    return data[:at] + data[at + rng.randrange(1, 40) :]


def _duplicate(rng: random.Random, data: bytes) -> bytes:
    if not data:
        return data
    at = rng.randrange(len(data))
    piece = data[at : at + rng.randrange(1, 200)]
    return data[:at] + piece * rng.randrange(1, 30) + data[at:]


def _truncate(rng: random.Random, data: bytes) -> bytes:
    return data[: rng.randrange(len(data) + 1)]


def _swap_lines(rng: random.Random, data: bytes) -> bytes:
    lines = data.split(b"\n")
    if len(lines) > 2:
        a, b = rng.randrange(len(lines)), rng.randrange(len(lines))
        lines[a], lines[b] = lines[b], lines[a]
    return b"\n".join(lines)


MUTATIONS: list[Callable[[random.Random, bytes], bytes]] = [
    _flip,
    _insert,
    _insert,
    _delete,
    _duplicate,
    _truncate,
    _swap_lines,
]


def mutate(rng: random.Random, data: bytes, rounds: int | None = None) -> bytes:
    """``data`` changed by one to eight random mutations."""
    for _ in range(rounds or rng.randrange(1, 9)):
        data = rng.choice(MUTATIONS)(rng, data)
    return data


JUNK_VALUES: list[object] = [
    None,
    True,
    0,
    -1,
    8.5,
    1e300,
    10**12,
    "",
    "x" * 70_000,
    "\ud800",
    "}",
    "d4\n",
    "Orange+007",
    [],
    [1] * 20_000,
    {},
    {"type": "flip", "at": "a1"},
    {"patch": "a1"},
    [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]],
]
"""JSON values that fit no field, or touch a limit."""


def value_holders(obj: Any) -> list[tuple[Any, Any]]:
    """Every place of a parsed JSON value, as (the object or array, its key or index), so
    that one value can be replaced or removed."""
    holders: list[tuple[Any, Any]] = []
    stack = [obj]
    while stack:
        node = stack.pop()
        keys = list(node) if isinstance(node, dict) else range(len(node))
        for key in keys:
            holders.append((node, key))
            if isinstance(node[key], dict | list):
                stack.append(node[key])
    return holders


def mutate_json(rng: random.Random, obj: Any) -> Any:
    """A record object with one value replaced by junk, a key removed or added, or an
    array stretched: JSON that parses and fits the schema in all but one place."""
    holders = value_holders(obj)
    if not holders:
        return _junk(rng)
    node, key = rng.choice(holders)
    roll = rng.random()
    if isinstance(node, dict) and roll < 0.2:
        del node[key]
    elif isinstance(node, dict) and roll < 0.3:
        node[rng.choice(["x", "Komi", "comment", "resolve", "result"])] = _junk(rng)
    elif isinstance(node, list) and roll < 0.4:
        node.extend([node[key]] * rng.randrange(1, 50))
    else:
        node[key] = _junk(rng)
    return obj


def _junk(rng: random.Random) -> object:
    """A fresh copy of a junk value (a shared one could end up inside itself)."""
    return copy.deepcopy(rng.choice(JUNK_VALUES))


# --- long runs and Setup shapes ------------------------------------------------------------

DELIMITERS = [b"{", b"}", b"[", b"]", b'"', b"(", b")", b";", b"\\", b"/", b",", b":", b"\n", b" "]
"""Every delimiter and bracket of GRN, JSON and the position notation, and white space: a
long run of one is where a reader that rescans, backtracks or recurses goes quadratic."""
RUN_LENGTHS = [100, 1_000, 10_000, 100_000]


def long_run(rng: random.Random, base: bytes, length: int | None = None) -> tuple[bytes, str]:
    """``base`` (a GRN record) with a long run of one delimiter placed where a reader meets
    it: alone, before the record, in its movetext, inside one of its tag values, inside a
    comment; and the place, for the report."""
    run = rng.choice(DELIMITERS) * (length or rng.choice(RUN_LENGTHS))
    values = [m.span(1) for m in re.finditer(rb'\[[A-Za-z]+ "([^"\n]*)"\]', base)]
    place = rng.choice(["alone", "before", "movetext", "tag value", "comment"])
    if place == "alone":
        return run, place
    if place == "before":
        return run + base, place
    if place == "tag value" and values:
        start, end = rng.choice(values)
        return base[:start] + run + base[end:], place
    head, _, moves = base.partition(b"\n\n")
    cut = rng.randrange(len(moves) + 1)
    piece = b"{" + run.replace(b"}", b")") + b"}" if place == "comment" else run
    return head + b"\n\n" + moves[:cut] + piece + moves[cut:], place


def setup_shapes(game: str, size: int, letters: str) -> list[str]:
    """Setup values of every shape for one game and size: good ones, and every way a
    position can be wrong (ranks, squares, counts, letters, separators, white space)."""
    empty_rank = str(size)
    ranks = [empty_rank] * size
    one = ",".join([letters[0]] + ([str(size - 1)] if size > 1 else []))
    shapes = [
        "/".join(ranks),  # good: empty
        "/".join([one] + ranks[1:]),  # good: one piece
        "/".join(ranks[:-1]),  # a rank too few
        "/".join(ranks + [empty_rank]),  # a rank too many
        "",  # nothing
        "/" * size,  # separators only
        "/".join(ranks) + "/",  # a trailing separator
        "/".join([str(size + 1)] + ranks[1:]),  # too many squares
        "/".join([str(size - 1)] + ranks[1:]),  # too few squares
        "/".join([f"{one},1"] + ranks[1:]),  # a square past the end
        "/".join(["x," + str(size - 1)] + ranks[1:]),  # a letter of no game
        "/".join([letters[0] * 3 + "," + str(size - 1)] + ranks[1:]),  # a stack
        "/".join(["0," + str(size)] + ranks[1:]),  # a zero count
        "/".join(["0" + str(size)] + ranks[1:]),  # a leading zero
        "/".join(["9" * 5000] + ranks[1:]),  # a count of too many digits
        "/".join(["99999999999999"] + ranks[1:]),  # a huge count
        "/".join(["," * size] + ranks[1:]),  # empty squares between commas
        "/".join(["٣"] + ranks[1:]),  # a digit that is not ASCII
        " / ".join(ranks),  # white space around separators
        "/".join(ranks).replace("/", "\\"),  # the wrong separator
        "/".join(ranks).lower().upper(),  # case (letters only)
        "/".join([letters.upper()[0] + "," + str(size - 1)] + ranks[1:]),  # a capital letter
        ";".join(ranks),
        "/".join(["-1"] + ranks[1:]),
    ]
    return shapes


# --- the inputs ------------------------------------------------------------------------------


class Inputs:
    """Draws inputs of every kind from the samples, a pool of legal games and a pool of
    grammar-drawn texts."""

    def __init__(self, rng: random.Random, legal: int = 150, grammar: int = 400) -> None:
        self.rng = rng
        self.samples = sample_texts()
        records = legal_records(rng, legal)
        self.legal = [write_record(r).encode() for r in records]
        self.grn = self.legal + [data for fmt, data in self.samples if fmt == "grn"]
        self.objects = [record_to_json(r) for r in records]
        self.grammar = grammar_texts(grammar, rng.randrange(2**32))

    def draw(self) -> Input:
        roll = self.rng.random()
        if roll < 0.30:
            fmt, data = self.rng.choice(self.samples)
            return Input(mutate(self.rng, data), "mutated sample", fmt)
        if roll < 0.50:
            return Input(mutate(self.rng, self.rng.choice(self.grn)), "mutated legal game", "grn")
        if roll < 0.60:
            return self._json_values()
        if roll < 0.72:
            text = self.rng.choice(self.grammar)
            return Input(mutate(self.rng, text) if self.rng.random() < 0.5 else text, "grammar")
        if roll < 0.76:
            return Input(self.rng.randbytes(self.rng.randrange(0, 2048)), "binary junk")
        if roll < 0.80:
            data, place = long_run(self.rng, self.rng.choice(self.grn))
            return Input(data, f"long run ({place})", "grn" if place != "alone" else None)
        if roll < 0.84:
            return self._setup()
        if roll < 0.94:
            return self._surrounded_grn()
        return self._surrounded_json()

    def _setup(self) -> Input:
        """A record whose Setup tag (or JSON ``setup``) has one of every shape, with a move."""
        game = self.rng.choice(list(all_games()))
        size = self.rng.choice(game.sizes[:4])
        setup = self.rng.choice(setup_shapes(game.name, size, game.letters))
        komi = 0 if game.komi else None
        if self.rng.random() < 0.5:
            tags = f'[Game "{game.name}"]\n[Size "{size}"]\n'
            tags += f'[Komi "{komi}"]\n' if komi is not None else ""
            text = f'{tags}[Setup "{setup}"]\n\n1. pass *\n'
            return Input(text.encode("utf-8", "surrogatepass"), "Setup shape", "grn")
        obj = {"game": game.name, "size": size, "setup": setup, "moves": [], "result": "*"}
        if komi is not None:
            obj["komi"] = komi
        return Input(json.dumps(obj).encode(), "Setup shape (JSON)", "json")

    def _json_values(self) -> Input:
        obj = json.loads(json.dumps(self.rng.choice(self.objects)))
        for _ in range(self.rng.randrange(1, 4)):
            obj = mutate_json(self.rng, obj)
        text = json.dumps(obj, indent=self.rng.choice([None, 2]))
        data = text.encode("utf-8", "surrogatepass")
        if self.rng.random() < 0.3:
            data = mutate(self.rng, data, 2)
        return Input(data, "mutated JSON", "json")

    def _surrounded_grn(self) -> Input:
        """Good, broken, good: the broken record keeps its first line (its Game tag), so the
        reader must find the last good record whatever was done to the middle one."""
        first, middle, last = (self.rng.choice(self.legal) for _ in range(3))
        head, _, rest = middle.partition(b"\n")
        broken = head + b"\n" + mutate(self.rng, rest)
        return Input(
            first + b"\n" + broken + b"\n\n" + last, "good-broken-good GRN", "grn", (first, last)
        )

    def _surrounded_json(self) -> Input:
        """Good, broken, good as the elements of one array: the broken one is JSON (a record
        with a junk value), so that the array's structure holds."""
        first, last = (self.rng.choice(self.objects) for _ in range(2))
        broken = mutate_json(self.rng, json.loads(json.dumps(self.rng.choice(self.objects))))
        text = json.dumps([first, broken, last], indent=self.rng.choice([None, 1]))
        alone = (json.dumps(first).encode(), json.dumps(last).encode())
        return Input(text.encode("utf-8", "surrogatepass"), "good-broken-good JSON", "json", alone)
