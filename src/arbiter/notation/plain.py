"""The base of the model's value classes: equality, hashing, ``repr``, ``replace`` and
pickling made from the fields a class lists.

Why not ``dataclasses``: ``@dataclass`` writes each class's methods as source text and
compiles it while the module is imported, about a millisecond a class, and importing
``dataclasses`` pulls in ``inspect``; together that was a third of the start-up of
``arbiter adjudicate`` on one record. In the compiled build those generated methods also
stayed interpreted, so building a move cost a Python call. A subclass writes its
``__init__`` (compiled like the rest) and lists its fields once, in ``_fields``
(``__slots__ = _fields`` follows).

Immutability: a subclass declares its fields ``Final``, so mypy refuses any assignment to
them and the compiled build refuses it at run time too.

Which kind of value class to write — the rule for the whole package:

- **A subclass of** :class:`Plain` for a value a user of the library holds, compares, hashes,
  pickles or changes with ``replace`` (records, moves, tags, game and move-form descriptions,
  outcomes, reports), and for any value a compiled module defines or builds.
- **A** ``NamedTuple`` for a value built very many times on a hot path, where a tuple is
  cheapest to make (a turn, a location, an engine's state, a move's trace), or for a few
  results returned together and unpacked at once.
- **A frozen dataclass with slots** (``@dataclass(frozen=True, slots=True)``) for the values
  of the layers above the replay that the fast path of ``arbiter adjudicate`` does not import
  (standings, diagrams, the HTTP service, events), where nothing is compiled and importing
  ``dataclasses`` costs nothing more.
- **A class written out** only where none of these is fast enough: :class:`Point`, compared
  and hashed at nearly every step of a replay.
"""

from __future__ import annotations

from typing import Any, ClassVar, TypeVar

from mypy_extensions import mypyc_attr

PlainType = TypeVar("PlainType", bound="Plain")


@mypyc_attr(allow_interpreted_subclasses=True)
class Plain:
    """Value semantics from ``_fields``: two objects are equal when they are of the same
    class and their ``_compared`` fields (by default all of ``_fields``) are equal."""

    __slots__ = ()

    _fields: ClassVar[tuple[str, ...]] = ()
    """The fields, in the order of the constructor's parameters (which bear their names)."""
    _compared: ClassVar[tuple[str, ...] | None] = None
    """The fields equality and hashing look at, when not all of them (source locations
    are not part of a record)."""

    def _key(self) -> tuple[object, ...]:
        names = self._fields if self._compared is None else self._compared
        return tuple([getattr(self, name) for name in names])

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        assert isinstance(other, Plain)
        return self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        shown = ", ".join(f"{name}={getattr(self, name)!r}" for name in self._fields)
        return f"{type(self).__name__}({shown})"

    def __reduce__(self) -> tuple[Any, tuple[object, ...]]:
        return type(self), tuple([getattr(self, name) for name in self._fields])

    def replace(self: PlainType, **changes: Any) -> PlainType:
        """A copy with the fields named in ``changes`` changed.

        Raises ``TypeError`` if a name is not a field."""
        unknown = set(changes) - set(self._fields)
        if unknown:
            raise TypeError(f"{type(self).__name__} has no field {sorted(unknown)[0]!r}")
        values = {name: getattr(self, name) for name in self._fields}
        values.update(changes)
        return type(self)(**values)
