"""The build: the modules mypyc compiles hold none of the constructs that compile to
something else than CPython runs (spec/build.md, ``tools/mypyc_check.py``), and the check
finds each of them."""

from __future__ import annotations

from pathlib import Path

import pytest

from tools.mypyc_check import check, check_source, compiled_modules

pytestmark = pytest.mark.checkout_only  # reads the checkout's sources


def test_the_compiled_modules_hold_no_construct_that_compiles_differently() -> None:
    modules = compiled_modules()
    assert len(modules) >= 19 and all(path.is_file() for path in modules)
    assert [str(finding) for finding in check(modules)] == []


CASES = {
    "except-variable": """
def f(text: str) -> None:
    try:
        int(text)
    except KeyError as err:
        print(err)
    except ValueError as err:  # here
        print(err)
""",
    "main-guard": """
if __name__ == "__main__":  # here
    print()
""",
    "class-introspection": """
class A:
    __slots__ = ("x",)
fields = A.__slots__  # here
""",
    "introspection": "import inspect  # here\n",
    "conditional-definition": """
import sys
if sys.platform == "linux":
    def f() -> None:  # here
        pass
""",
    "nested-class": """
class A:
    class B:  # here
        pass
""",
    "native-dunder": """
class A:
    def __getattr__(self, name: str) -> int:  # here
        return 1
""",
    "type-ignore": "x: int = 'a'  # type: ignore[assignment]  # here\n",
}


@pytest.mark.parametrize("rule", sorted(CASES))
def test_each_construct_is_found_where_it_stands(rule: str) -> None:
    found = check_source(CASES[rule], Path("case.py"))
    assert [finding.rule for finding in found] == [rule]
    lines = CASES[rule].splitlines()
    assert found[0].line == next(n for n, line in enumerate(lines, 1) if line.endswith("# here"))


def test_what_compiles_alike_is_not_found() -> None:
    source = """
from typing import Any


class A:
    __slots__ = ("x",)

    def __eq__(self, other: object) -> bool:
        return self is other


def f(text: str) -> Any:
    try:
        return int(text)
    except ValueError as err:
        print(err)
    except KeyError as missing:  # a name of its own
        print(missing)
    try:
        return int(text)
    except ValueError as err:  # the same type again
        print(err)
    return None  # type: ignore[no-any-return]
"""
    assert check_source(source, Path("case.py")) == []
