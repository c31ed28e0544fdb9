"""Public names of a package, loaded from their modules on first use.

A package's ``__init__`` names its public surface in ``__all__`` without importing every
module behind it: the command line that adjudicates one record must not pay for the JSON
schema, the diagrams or the storage of events. Each package maps its lazy names to their
modules and takes its ``__getattr__`` and ``__dir__`` from :func:`lazy_exports`; type
checkers and editors read the same names from the package's ``if TYPE_CHECKING:`` imports.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from typing import Any

__all__ = ["lazy_exports"]


def lazy_exports(
    namespace: dict[str, Any], modules: Mapping[str, str]
) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """The ``__getattr__`` and ``__dir__`` of a package whose globals are ``namespace``:
    a name of ``modules`` is imported from its module at first use and kept."""
    package = namespace["__name__"]

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
