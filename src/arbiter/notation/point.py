"""A square or point of a board, and the letters of its files.

The record model (:mod:`arbiter.notation.ast`) is made of points, and so is a move's
``Trace`` in what describes a move form (:mod:`arbiter.notation.forms`), which the model's
move forms are built on: the point stands here, below both, so that forms need not import
the model back. :mod:`arbiter.notation.ast` gives both names too, where the rest of the
package reads them.
"""

from __future__ import annotations

from typing import Final

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
