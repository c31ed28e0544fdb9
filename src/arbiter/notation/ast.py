"""Plain, immutable data classes for records: the one model that GRN and JSON both map to.

See ``spec/grn.md`` (movetext, move forms) and ``spec/record.schema.json``. Nothing here knows
the rules of any game; the adjudicator replays these objects.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from importlib import import_module
from typing import Any, ClassVar, Final, NamedTuple, TypeAlias, TypeVar

from mypy_extensions import mypyc_attr

from arbiter.notation.forms import POINT_FIELD, SQUARE, JsonField, MoveForm, Trace, point_ok
from arbiter.notation.plain import Plain
from arbiter.notation.point import FILES as FILES  # given here too, with the model
from arbiter.notation.point import Point as Point

MAX_STEPS: Final = 20_000
_STEPS: Final[dict[str, Resolve]] = {}
"""Implo resolution steps already read, by their text (``c3``, ``c3:d4``): an archive
repeats most of them. Emptied when full, so that it stays small whatever a file holds."""


@mypyc_attr(allow_interpreted_subclasses=True)  # a form may be added without compiling
class Move(Plain):
    """A move, of one of the registered forms. Each form is a subclass that describes
    itself once: its ``form`` (:class:`~arbiter.notation.forms.MoveForm`: names, GRN
    pattern, JSON fields, handler) and the methods below, which read it from a GRN word or
    a JSON object, write it (``str`` is its GRN word), and name the points it touches."""

    __slots__ = ()
    form: ClassVar[MoveForm]

    @property
    def type(self) -> str:
        """The move's form, as JSON records name it."""
        return self.form.type

    @classmethod
    def from_grn(cls, word: str) -> Move:
        """The move a GRN word of this form's pattern writes. Raises ``ValueError`` for a
        square no board has."""
        raise NotImplementedError

    @classmethod
    def from_json(cls, obj: Mapping[str, Any]) -> Move:
        """The move a JSON move object of this form holds (one the schema accepts). Raises
        ``ValueError`` for a square no board has."""
        raise NotImplementedError

    def json_fields(self) -> dict[str, Any]:
        """The move's fields in a JSON move object, besides ``type`` and ``comment``."""
        return {}

    def points(self) -> tuple[Point, ...]:
        """Every square the move names: each must lie on the board."""
        return ()

    def trace(self, size: int) -> Trace:
        """How the move is seen on a board of ``size`` (diagrams mark these squares)."""
        return Trace(self.points())

    def called(self) -> str:
        """The move's form in words, for messages."""
        return self.form.title


class Place(Move):
    """Place a disk or stone on an empty square (all games but Pilare)."""

    _fields = ("at",)
    __slots__ = _fields
    form = MoveForm(
        "place", "placement", "PLACE", SQUARE, "_place",
        fields={"at": POINT_FIELD}, required=("at",),
    )  # fmt: skip

    def __init__(self, at: Point) -> None:
        self.at: Final = at

    @classmethod
    def from_grn(cls, word: str) -> Move:
        return Place(Point.parse(word))

    @classmethod
    def from_json(cls, obj: Mapping[str, Any]) -> Move:
        return Place(Point.parse(obj["at"]))

    def json_fields(self) -> dict[str, Any]:
        return {"at": str(self.at)}

    def points(self) -> tuple[Point, ...]:
        return (self.at,)

    def __str__(self) -> str:
        return str(self.at)


class Resolve(Plain):
    """One Implo resolution step: the patch containing ``patch``; ``remove`` names a group."""

    _fields = ("patch", "remove")
    __slots__ = _fields

    def __init__(self, patch: Point, remove: Point | None = None) -> None:
        self.patch: Final = patch
        self.remove: Final = remove

    def __str__(self) -> str:
        return f"{self.patch}:{self.remove}" if self.remove else str(self.patch)

    @classmethod
    def parse(cls, text: str) -> Resolve:
        """Read ``c3`` or ``c3:d4``. Raises ``ValueError`` for a square no board has."""
        found = _STEPS.get(text)
        if found is None:
            patch, _, remove = text.partition(":")
            found = Resolve(Point.parse(patch), Point.parse(remove) if remove else None)
            if len(_STEPS) >= MAX_STEPS:
                _STEPS.clear()
            _STEPS[text] = found
        return found

    @classmethod
    def from_json(cls, obj: Mapping[str, str]) -> Resolve:
        remove = obj.get("remove")
        return Resolve(Point.parse(obj["patch"]), None if remove is None else Point.parse(remove))

    def to_json(self) -> dict[str, str]:
        out = {"patch": str(self.patch)}
        if self.remove is not None:
            out["remove"] = str(self.remove)
        return out

    def points(self) -> tuple[Point, ...]:
        return (self.patch,) if self.remove is None else (self.patch, self.remove)


def _steps_ok(value: object) -> bool:
    return type(value) is list and all(map(_step_ok, value))


def _step_ok(step: object) -> bool:
    if type(step) is not dict or "patch" not in step:
        return False
    return all(key in ("patch", "remove") and point_ok(value) for key, value in step.items())


_STEP_SCHEMA: Mapping[str, Any] = {
    "title": "an Implo resolution step object",
    "type": "object",
    "required": ["patch"],
    "additionalProperties": False,
    "properties": {"patch": {"$ref": "#/$defs/point"}, "remove": {"$ref": "#/$defs/point"}},
}
_STEPS_FIELD = JsonField(
    {
        "title": "an array of Implo resolution steps",
        "type": "array",
        "items": {"$ref": "#/$defs/step"},
    },
    _steps_ok,
)


class ImploPlace(Move):
    """An Implo turn: a placement and the resolution steps written after it, in order.
    A variant of the placement, for games whose description sets ``resolve``."""

    _fields = ("at", "resolve")
    __slots__ = _fields
    form = MoveForm(
        "place", "placement", "IMPLO", f"{SQUARE}(?:/{SQUARE}(?::{SQUARE})?)+", "_place",
        fields={"at": POINT_FIELD, "resolve": _STEPS_FIELD}, required=("at",),
        defs={"step": _STEP_SCHEMA}, variant="resolve",
    )  # fmt: skip

    def __init__(self, at: Point, resolve: tuple[Resolve, ...] = ()) -> None:
        self.at: Final = at
        self.resolve: Final = resolve

    @classmethod
    def from_grn(cls, word: str) -> Move:
        parts = word.split("/")
        steps = tuple([Resolve.parse(parts[i]) for i in range(1, len(parts))])
        return ImploPlace(Point.parse(parts[0]), steps)

    @classmethod
    def from_json(cls, obj: Mapping[str, Any]) -> Move:
        steps = tuple([Resolve.from_json(step) for step in obj.get("resolve", ())])
        return ImploPlace(Point.parse(obj["at"]), steps)

    def json_fields(self) -> dict[str, Any]:
        steps = [step.to_json() for step in self.resolve]
        return {"at": str(self.at), **({"resolve": steps} if steps else {})}

    def points(self) -> tuple[Point, ...]:
        return (self.at, *[point for step in self.resolve for point in step.points()])

    def trace(self, size: int) -> Trace:
        return Trace((self.at,))

    def called(self) -> str:
        return "placement with resolution steps" if self.resolve else self.form.title

    def __str__(self) -> str:
        return "/".join([str(self.at), *map(str, self.resolve)])


class Capture(Move):
    """Pilo/Petrify: move the piece on ``origin`` to ``target``, capturing there."""

    _fields = ("origin", "target")
    __slots__ = _fields
    form = MoveForm(
        "move", "capturing move", "CAPTURE", f"{SQUARE}[xX]{SQUARE}", "_capture",
        fields={"from": POINT_FIELD, "to": POINT_FIELD}, required=("from", "to"),
    )  # fmt: skip

    def __init__(self, origin: Point, target: Point) -> None:
        self.origin: Final = origin
        self.target: Final = target

    @classmethod
    def from_grn(cls, word: str) -> Move:
        origin, _, target = word.lower().partition("x")
        return Capture(Point.parse(origin), Point.parse(target))

    @classmethod
    def from_json(cls, obj: Mapping[str, Any]) -> Move:
        return Capture(Point.parse(obj["from"]), Point.parse(obj["to"]))

    def json_fields(self) -> dict[str, Any]:
        return {"from": str(self.origin), "to": str(self.target)}

    def points(self) -> tuple[Point, ...]:
        return (self.origin, self.target)

    def __str__(self) -> str:
        return f"{self.origin}x{self.target}"


class Flip(Move):
    """Pletore: flip the enemy stone on ``at``."""

    _fields = ("at",)
    __slots__ = _fields
    form = MoveForm(
        "flip", "flip", "FLIP", f"{SQUARE}[xX]", "_flip",
        fields={"at": POINT_FIELD}, required=("at",),
    )  # fmt: skip

    def __init__(self, at: Point) -> None:
        self.at: Final = at

    @classmethod
    def from_grn(cls, word: str) -> Move:
        return Flip(Point.parse(word[:-1]))

    @classmethod
    def from_json(cls, obj: Mapping[str, Any]) -> Move:
        return Flip(Point.parse(obj["at"]))

    def json_fields(self) -> dict[str, Any]:
        return {"at": str(self.at)}

    def points(self) -> tuple[Point, ...]:
        return (self.at,)

    def __str__(self) -> str:
        return f"{self.at}x"


STEPS: Mapping[str, tuple[int, int]] = {"n": (0, 1), "s": (0, -1), "e": (1, 0), "w": (-1, 0)}
"""A sowing's directions: the step in files and ranks of each letter."""
_PATH = re.compile(r"[nsewNSEW]+\Z")


def _path_ok(value: object) -> bool:
    return type(value) is str and _PATH.match(value) is not None


_PATH_FIELD = JsonField(
    {
        "title": "a sowing path (letters n, s, e and w, one per man)",
        "type": "string",
        "pattern": "^[nsewNSEW]+$",
    },
    _path_ok,
)


class Sow(Move):
    """Pilare: lift the stack on ``origin`` and sow it along ``path`` (letters of n, s, e, w)."""

    _fields = ("origin", "path")
    __slots__ = _fields
    form = MoveForm(
        "sow", "sowing move", "SOW", f"{SQUARE}:[nsewNSEW]+", "_sow",
        fields={"from": POINT_FIELD, "path": _PATH_FIELD}, required=("from", "path"),
    )  # fmt: skip

    def __init__(self, origin: Point, path: str) -> None:
        self.origin: Final = origin
        self.path: Final = path

    @classmethod
    def from_grn(cls, word: str) -> Move:
        origin, _, path = word.partition(":")
        return Sow(Point.parse(origin), path.lower())

    @classmethod
    def from_json(cls, obj: Mapping[str, Any]) -> Move:
        return Sow(Point.parse(obj["from"]), obj["path"].lower())

    def json_fields(self) -> dict[str, Any]:
        return {"from": str(self.origin), "path": self.path.lower()}

    def points(self) -> tuple[Point, ...]:
        return (self.origin,)

    def trace(self, size: int) -> Trace:
        squares = [self.origin]
        for letter in self.path:
            df, dr = STEPS[letter]
            here = squares[-1]
            if not (0 <= here.file + df < size and 0 <= here.rank + dr < size):
                return Trace(tuple(squares), walk=True, leaves=(df, dr))
            squares.append(Point(here.file + df, here.rank + dr))
        return Trace(tuple(squares), walk=True)

    def __str__(self) -> str:
        return f"{self.origin}:{self.path}"


class Pass(Move):
    """Pass the turn."""

    __slots__ = ()
    form = MoveForm("pass", "pass", "PASS", "(?i:pass)", "_pass", keyword="pass")

    @classmethod
    def from_grn(cls, word: str) -> Move:
        return Pass()

    @classmethod
    def from_json(cls, obj: Mapping[str, Any]) -> Move:
        return Pass()

    def __str__(self) -> str:
        return "pass"


class Swap(Move):
    """The pie rule: the second player takes the first player's colour."""

    __slots__ = ()
    form = MoveForm("swap", "swap", "SWAP", "(?i:swap)", "_swap", keyword="swap")

    @classmethod
    def from_grn(cls, word: str) -> Move:
        return Swap()

    @classmethod
    def from_json(cls, obj: Mapping[str, Any]) -> Move:
        return Swap()

    def __str__(self) -> str:
        return "swap"


class Button(Move):
    """Pletore: take the button."""

    __slots__ = ()
    form = MoveForm("button", "button", "BUTTON", "(?i:button)", "_button", keyword="button")

    @classmethod
    def from_grn(cls, word: str) -> Move:
        return Button()

    @classmethod
    def from_json(cls, obj: Mapping[str, Any]) -> Move:
        return Button()

    def __str__(self) -> str:
        return "button"


BUILT_IN_FORMS: tuple[type[Move], ...] = (Place, Capture, Pass, Swap, Flip, Button, Sow, ImploPlace)
"""The notation's own move forms, in the order the schema and messages list them."""


class Location(NamedTuple):
    """Where something stands in its source: line/column for GRN, a JSON pointer for JSON.

    A named tuple rather than a dataclass because one is made for every move read, and a
    tuple is several times cheaper to build."""

    line: int | None = None
    column: int | None = None
    pointer: str | None = None


NOWHERE = Location()

TupleType = TypeVar("TupleType", bound=tuple[Any, ...])


def make(kind: type[TupleType], values: tuple[Any, ...]) -> TupleType:
    """The named tuple ``kind`` holding ``values`` (all its fields, in order), built without
    its ``__new__``: that is a function written in Python, which compiled code would call for
    every move of every record read or replayed. Only for the hot paths."""
    return _new_tuple(kind, values)  # type: ignore[no-any-return]


def c_module(name: str) -> Any:
    """The optional C module ``arbiter.<name>`` where the build has it (``setup.py`` builds
    each where a C compiler is present), else None: the caller then runs the Python code the
    module stands in for."""
    try:
        return import_module(f"arbiter.{name}")
    except ImportError:
        return None


_TUPLES: Final[Any] = c_module("_tuples")


def tuple_maker() -> Any:
    """What :func:`make` calls: ``new`` of the optional C module ``arbiter._tuples`` where
    the wheel has it (it builds the named tuple in one step), else ``tuple.__new__``, which
    builds an equal one through the generic path of a class's ``__new__``."""
    return tuple.__new__ if _TUPLES is None else _TUPLES.new


_new_tuple: Final[Any] = tuple_maker()
"""Final: compiled code keeps it in a static rather than looking it up in the module."""


def tuple_of() -> Any:
    """``of(kind, *values)``, the named tuple ``kind`` holding ``values`` given as arguments:
    ``of`` of the C module ``arbiter._tuples`` where the wheel has it, else a function that
    calls ``tuple.__new__``. A hot path holds it in a constant of its own module
    (``_OF: Final = tuple_of()``) and calls it with the values: the call builds no tuple of
    them first, as a call of :func:`make` does."""
    return _of_values if _TUPLES is None else _TUPLES.of


def _of_values(kind: type[TupleType], *values: Any) -> TupleType:
    """``of``, without the C module."""
    return tuple.__new__(kind, values)


def tuple_replacer() -> Any:
    """``replaced(items, index, value, ...)``, the tuple ``items`` with ``value`` at
    ``index`` for each pair (an index from 0 to ``len(items) - 1``, else ``IndexError``):
    ``replaced`` of the C module ``arbiter._tuples`` where the wheel has it, which copies the
    tuple once, else a function that copies it through a list."""
    return _replaced_items if _TUPLES is None else _TUPLES.replaced


def _replaced_items(items: tuple[Any, ...], *pairs: Any) -> tuple[Any, ...]:
    """``replaced``, without the C module."""
    cells = list(items)
    for k in range(0, len(pairs), 2):
        index = pairs[k]
        if not 0 <= index < len(cells):
            raise IndexError("replaced(): index out of range")
        cells[index] = pairs[k + 1]
    return tuple(cells)


class Turn(NamedTuple):
    """One turn of the movetext: the move, the comment written after it, and where it stood.

    Two turns are equal when their moves and comments are: where a turn stood in its source
    (GRN line and column, or JSON pointer) is not part of the record. A named tuple, because
    one is made for every move read and a tuple is several times cheaper to build."""

    move: Move
    comment: str | None = None
    where: Location = NOWHERE

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Turn) and self[0] == other[0] and self[1] == other[1]

    def __ne__(self, other: object) -> bool:
        return not self == other

    def __hash__(self) -> int:
        return hash((self[0], self[1]))


class Tag(Plain):
    """A tag other than the ones the model gives fields to; kept in order, value unchanged.
    Where it stood is not part of the record (two tags differing only there are equal)."""

    _fields = ("name", "value", "where")
    __slots__ = _fields
    _compared = ("name", "value")

    def __init__(self, name: str, value: str, where: Location = NOWHERE) -> None:
        self.name: Final = name
        self.value: Final = value
        self.where: Final = where


Grid: TypeAlias = tuple[tuple[str, ...], ...]
"""A position: ``grid[rank][file]`` is the square's content, pieces bottom to top ("" empty)."""


class Record(Plain):
    """One game record. ``players`` and ``tags`` keep their order; ``result`` is "*" if unknown.

    ``setup`` is the position notation of ``spec/grn.md`` (canonical form) or None for the
    standard start. ``comment`` is a comment that stands before the first move.
    ``where`` maps field names ("Game", "Size", "Result", ...) to their source locations.
    ``where`` and ``index`` (the record's place in its file) are not part of the record:
    two records differing only there are equal.
    """

    _fields = (
        "game", "size", "komi", "setup", "players", "tags", "turns", "result", "comment",
        "where", "index",
    )  # fmt: skip
    __slots__ = _fields
    _compared = (
        "game", "size", "komi", "setup", "players", "tags", "turns", "result", "comment",
    )  # fmt: skip

    def __init__(
        self,
        game: str,
        size: int,
        komi: int | None = None,
        setup: str | None = None,
        players: tuple[tuple[str, str], ...] = (),
        tags: tuple[Tag, ...] = (),
        turns: tuple[Turn, ...] = (),
        result: str = "*",
        comment: str | None = None,
        where: dict[str, Location] | None = None,
        index: int = 0,
    ) -> None:
        self.game: Final = game
        self.size: Final = size
        self.komi: Final = komi
        self.setup: Final = setup
        self.players: Final = players
        self.tags: Final = tags
        self.turns: Final = turns
        self.result: Final = result
        self.comment: Final = comment
        self.where: Final[dict[str, Location]] = {} if where is None else where
        self.index: Final = index

    @property
    def moves(self) -> tuple[Move, ...]:
        return tuple(turn.move for turn in self.turns)

    def player(self, colour: str) -> str | None:
        """The name of the player who held ``colour`` at the start, if the record gives it."""
        return dict(self.players).get(colour)

    def tag(self, name: str, default: str | None = None) -> str | None:
        """The value of the tag ``name`` as written in the record (``record.tag("Event")``),
        or ``default`` when it has none. The tags that are fields of their own read as they
        stand in GRN: ``Game``, ``Size``, ``Komi``, ``Setup``, ``Result`` and the colours
        (``record.tag("Blue")`` is that player's name)."""
        for tag in self.tags:
            if tag.name == name:
                return tag.value
        special = {"Game": self.game, "Size": str(self.size), "Result": self.result}
        if self.komi is not None:
            special["Komi"] = str(self.komi)
        if self.setup is not None:
            special["Setup"] = self.setup
        return special.get(name) or self.player(name) or default
