"""Public names of a package, loaded from their modules on first use.

A package's ``__init__`` names its public surface in ``__all__`` without importing every
module behind it: the command line that adjudicates one record must not pay for the JSON
schema, the diagrams or the storage of events. Each package maps its lazy names to their
modules and takes its ``__getattr__`` and ``__dir__`` from :func:`lazy_exports`; type
checkers and editors read the same names from the package's ``if TYPE_CHECKING:`` imports.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable, Mapping
from typing import Any

__all__ = ["lazy_exports"]


def lazy_exports(
    namespace: dict[str, Any], names: Mapping[str, Iterable[str]]
) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """The ``__getattr__`` and ``__dir__`` of a package whose globals are ``namespace``:
    ``names`` gives, by module, the names imported from it at their first use and kept."""
    package = namespace["__name__"]
    if any(isinstance(some, str) for some in names.values()):
        raise TypeError("lazy_exports: give each module's names as a tuple, not one string")
    modules = {name: module for module, some in names.items() for name in some}

    def getattr_(name: str) -> Any:
        module = modules.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(module), name)
        namespace[name] = value
        return value

    def dir_() -> list[str]:
        return sorted({*namespace, *modules})

    return getattr_, dir_
