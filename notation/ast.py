"""Plain, immutable data classes for records: the one model that GRN and JSON both map to.

See ``spec/grn.md`` (movetext, move forms) and ``spec/record.schema.json``. Nothing here knows
the rules of any game; the adjudicator replays these objects.
"""

from __future__ import annotations

from typing import Any, Final, NamedTuple, TypeAlias, TypeVar

from arbiter.notation.plain import Plain

FILES = "abcdefghijklmnopqrs"  # 19 files at most; no letter is skipped


class Point:
    """A square or point: ``file`` and ``rank`` count from 0 at the bottom-left (a1).
    Points are ordered by file, then rank.

    Written out rather than based on :class:`Plain`: one is compared or hashed at nearly
    every step of a replay."""

    __slots__ = ("file", "rank")

    def __init__(self, file: int, rank: int) -> None:
        self.file: Final = file
        self.rank: Final = rank

    def __eq__(self, other: object) -> bool:
        if type(other) is not Point:
            return NotImplemented
        assert isinstance(other, Point)
        return self.file == other.file and self.rank == other.rank

    def __hash__(self) -> int:
        return hash((self.file, self.rank))

    def __lt__(self, other: Point) -> bool:
        return (self.file, self.rank) < (other.file, other.rank)

    def __le__(self, other: Point) -> bool:
        return (self.file, self.rank) <= (other.file, other.rank)

    def __gt__(self, other: Point) -> bool:
        return (self.file, self.rank) > (other.file, other.rank)

    def __ge__(self, other: Point) -> bool:
        return (self.file, self.rank) >= (other.file, other.rank)

    def __reduce__(self) -> tuple[type[Point], tuple[int, int]]:
        return Point, (self.file, self.rank)

    def __str__(self) -> str:
        return f"{FILES[self.file]}{self.rank + 1}"

    def __repr__(self) -> str:
        return f"Point.parse({str(self)!r})"

    @classmethod
    def parse(cls, text: str) -> Point:
        """Read ``d4`` (any case; files a–s, ranks 1–19).

        Raises ``ValueError`` if it is not such a coordinate."""
        try:
            return _PARSED[text]
        except KeyError:
            pass
        letter, digits = text[:1].lower(), text[1:]
        if not (
            letter
            and text.isascii()
            and letter in FILES
            and len(digits) <= 2
            and digits.isascii()
            and digits.isdigit()
            and not digits.startswith("0")
            and int(digits) <= len(FILES)
        ):
            raise ValueError(f"not a coordinate: {text!r}")
        point = _PARSED[text] = cls(FILES.index(letter), int(digits) - 1)
        return point

    def index(self, size: int) -> int:
        """Flat index on a board of ``size``: rank-major, a1 = 0."""
        return self.rank * size + self.file


_PARSED: dict[str, Point] = {}
"""Coordinates already read, by their text: reading records looks up the same few hundred."""


class Place(Plain):
    """Place a disk or stone on an empty square (all games but Pilare)."""

    __slots__ = ("at",)
    _fields = ("at",)

    def __init__(self, at: Point) -> None:
        self.at: Final = at

    @property
    def type(self) -> str:
        """The move's form, as JSON records name it."""
        return "place"

    def __str__(self) -> str:
        return str(self.at)


class Resolve(Plain):
    """One Implo resolution step: the patch containing ``patch``; ``remove`` names a group."""

    __slots__ = ("patch", "remove")
    _fields = ("patch", "remove")

    def __init__(self, patch: Point, remove: Point | None = None) -> None:
        self.patch: Final = patch
        self.remove: Final = remove

    def __str__(self) -> str:
        return f"{self.patch}:{self.remove}" if self.remove else str(self.patch)


class ImploPlace(Plain):
    """An Implo turn: a placement and the resolution steps written after it, in order."""

    __slots__ = ("at", "resolve")
    _fields = ("at", "resolve")

    def __init__(self, at: Point, resolve: tuple[Resolve, ...] = ()) -> None:
        self.at: Final = at
        self.resolve: Final = resolve

    @property
    def type(self) -> str:
        """The move's form, as JSON records name it."""
        return "place"

    def __str__(self) -> str:
        return "/".join([str(self.at), *map(str, self.resolve)])


class Capture(Plain):
    """Pilo/Petrify: move the piece on ``origin`` to ``target``, capturing there."""

    __slots__ = ("origin", "target")
    _fields = ("origin", "target")

    def __init__(self, origin: Point, target: Point) -> None:
        self.origin: Final = origin
        self.target: Final = target

    @property
    def type(self) -> str:
        """The move's form, as JSON records name it."""
        return "move"

    def __str__(self) -> str:
        return f"{self.origin}x{self.target}"


class Flip(Plain):
    """Pletore: flip the enemy stone on ``at``."""

    __slots__ = ("at",)
    _fields = ("at",)

    def __init__(self, at: Point) -> None:
        self.at: Final = at

    @property
    def type(self) -> str:
        """The move's form, as JSON records name it."""
        return "flip"

    def __str__(self) -> str:
        return f"{self.at}x"


class Sow(Plain):
    """Pilare: lift the stack on ``origin`` and sow it along ``path`` (letters of n, s, e, w)."""

    __slots__ = ("origin", "path")
    _fields = ("origin", "path")

    def __init__(self, origin: Point, path: str) -> None:
        self.origin: Final = origin
        self.path: Final = path

    @property
    def type(self) -> str:
        """The move's form, as JSON records name it."""
        return "sow"

    def __str__(self) -> str:
        return f"{self.origin}:{self.path}"


class Pass(Plain):
    """Pass the turn."""

    __slots__ = ()

    @property
    def type(self) -> str:
        """The move's form, as JSON records name it."""
        return "pass"

    def __str__(self) -> str:
        return "pass"


class Swap(Plain):
    """The pie rule: the second player takes the first player's colour."""

    __slots__ = ()

    @property
    def type(self) -> str:
        """The move's form, as JSON records name it."""
        return "swap"

    def __str__(self) -> str:
        return "swap"


class Button(Plain):
    """Pletore: take the button."""

    __slots__ = ()

    @property
    def type(self) -> str:
        """The move's form, as JSON records name it."""
        return "button"

    def __str__(self) -> str:
        return "button"


Move: TypeAlias = Place | ImploPlace | Capture | Flip | Sow | Pass | Swap | Button
MOVE_CLASSES = (Place, ImploPlace, Capture, Flip, Sow, Pass, Swap, Button)
"""The classes of :data:`Move`, for ``isinstance``."""


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


_new_tuple: Any = tuple.__new__


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

    __slots__ = ("name", "value", "where")
    _fields = ("name", "value", "where")
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

    __slots__ = (
        "game", "size", "komi", "setup", "players", "tags", "turns", "result", "comment",
        "where", "index",
    )  # fmt: skip
    _fields = (
        "game", "size", "komi", "setup", "players", "tags", "turns", "result", "comment",
        "where", "index",
    )  # fmt: skip
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
