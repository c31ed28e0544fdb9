"""Find code that mypyc compiles to something else than CPython runs.

The wheel's hot modules (``COMPILED`` in ``setup.py``) are compiled by mypyc, and a few
constructs that mypy accepts behave differently once compiled; ``spec/build.md`` lists
them with the reason for each. This reads the compiled modules' syntax trees and reports
every such construct with its file and line. ``make test`` runs it (``tests/test_build.py``).
Usage: ``python tools/mypyc_check.py [files]`` (default: the compiled modules).
"""

from __future__ import annotations

import ast
import re
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import NamedTuple

ROOT = Path(__file__).resolve().parents[1]

NATIVE_UNSUPPORTED_DUNDERS = {
    "__del__",
    "__getattr__",
    "__getattribute__",
    "__setattr__",
    "__delattr__",
    "__index__",
}
"""Dunder methods that a native (compiled) class ignores or breaks."""
CLASS_INTROSPECTION = {"__dict__", "__slots__", "__annotations__"}
"""Class attributes that a native class does not have, or has otherwise."""
HARMLESS_IGNORES = {"no-any-return"}
"""``type: ignore`` codes that cannot make mypyc generate wrong code: the value is checked
(or not needed) at run time either way."""
IGNORE = re.compile(r"#\s*type:\s*ignore(?:\[([^\]]*)\])?")


class Finding(NamedTuple):
    path: Path
    line: int
    rule: str
    message: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.rule}: {self.message}"


def compiled_modules() -> list[Path]:
    """The modules ``setup.py`` compiles (its ``COMPILED`` list, read without running it)."""
    tree = ast.parse((ROOT / "setup.py").read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(
            isinstance(target, ast.Name) and target.id == "COMPILED" for target in node.targets
        ):
            return [ROOT / path for path in ast.literal_eval(node.value)]
    raise LookupError("setup.py has no COMPILED list")


def check_source(source: str, path: Path) -> list[Finding]:
    """Every construct of ``source`` that compiles differently, in line order."""
    tree = ast.parse(source, str(path))
    found = [*_except_names(tree, path), *_structure(tree, path), *_ignores(source, path)]
    return sorted(found, key=lambda finding: (finding.line, finding.rule))


def _scopes(tree: ast.Module) -> Iterator[ast.AST]:
    """The module and every function in it: the scopes a local variable lives in."""
    yield tree
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            yield node


def _own_nodes(scope: ast.AST) -> Iterator[ast.AST]:
    """The nodes of ``scope`` outside the functions and classes nested in it."""
    stack = list(ast.iter_child_nodes(scope))
    while stack:
        node = stack.pop()
        yield node
        if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            stack.extend(ast.iter_child_nodes(node))


def _except_names(tree: ast.Module, path: Path) -> Iterator[Finding]:
    """An ``except ... as name`` that binds a name another clause of the same scope binds
    to another exception type: mypyc gives the variable the type of the first clause and
    refuses the other's exception with a TypeError at run time, unless it is a subclass.
    Whether it is cannot be read from the text, so the rule is one name per type."""
    for scope in _scopes(tree):
        bound: dict[str, str] = {}
        handlers = [n for n in _own_nodes(scope) if isinstance(n, ast.ExceptHandler)]
        for handler in sorted(handlers, key=lambda h: (h.lineno, h.col_offset)):
            if handler.name is None:
                continue
            caught = ast.unparse(handler.type) if handler.type is not None else "BaseException"
            first = bound.setdefault(handler.name, caught)
            if first != caught:
                yield Finding(
                    path,
                    handler.lineno,
                    "except-variable",
                    f"'{handler.name}' was bound to {first} above and is bound to {caught} "
                    "here; give each clause its own name, or catch both in one clause",
                )


def _structure(tree: ast.Module, path: Path) -> Iterator[Finding]:
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef):
            yield from _class(node, path)
        elif isinstance(node, ast.If) and _is_main_guard(node.test):
            yield Finding(
                path, node.lineno, "main-guard", "__name__ is not '__main__' in a compiled module"
            )
        elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Load):
            if node.attr in CLASS_INTROSPECTION:
                yield Finding(
                    path,
                    node.lineno,
                    "class-introspection",
                    f"a native class has no {node.attr} as a Python class has",
                )
        elif isinstance(node, ast.Import | ast.ImportFrom):
            names = [alias.name for alias in node.names]
            module = node.module if isinstance(node, ast.ImportFrom) else None
            if "inspect" in names or module == "inspect":
                yield Finding(
                    path,
                    node.lineno,
                    "introspection",
                    "compiled functions have no Python frames or signatures",
                )
    for statement in tree.body:
        if isinstance(statement, ast.If | ast.Try | ast.With | ast.For | ast.While):
            for inner in ast.walk(statement):
                if isinstance(inner, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                    yield Finding(
                        path,
                        inner.lineno,
                        "conditional-definition",
                        f"'{inner.name}' is defined under a statement; mypyc "
                        "compiles only definitions at the top level",
                    )


def _class(node: ast.ClassDef, path: Path) -> Iterator[Finding]:
    for item in node.body:
        if isinstance(item, ast.ClassDef):
            yield Finding(
                path, item.lineno, "nested-class", f"'{item.name}' is nested in '{node.name}'"
            )
        elif isinstance(item, ast.FunctionDef) and item.name in NATIVE_UNSUPPORTED_DUNDERS:
            yield Finding(
                path, item.lineno, "native-dunder", f"a native class does not call {item.name}"
            )


def _is_main_guard(test: ast.expr) -> bool:
    return (
        isinstance(test, ast.Compare)
        and isinstance(test.left, ast.Name)
        and test.left.id == "__name__"
    )


def _ignores(source: str, path: Path) -> Iterator[Finding]:
    """A ``type: ignore`` hides a type error from mypy, and mypyc then compiles the code as
    if the types held: it can check a value the code never meant to check, or not check
    one it relies on."""
    for number, line in enumerate(source.splitlines(), 1):
        for match in IGNORE.finditer(line):
            codes = {code.strip() for code in (match.group(1) or "").split(",") if code.strip()}
            if not codes or not codes <= HARMLESS_IGNORES:
                shown = ", ".join(sorted(codes)) or "everything"
                yield Finding(
                    path, number, "type-ignore", f"a type: ignore of {shown} in a compiled module"
                )


def check(paths: list[Path]) -> list[Finding]:
    found: list[Finding] = []
    for path in paths:
        shown = path.relative_to(ROOT) if path.is_relative_to(ROOT) else path
        found += check_source(path.read_text(encoding="utf-8"), shown)
    return found


def main(argv: list[str]) -> int:
    paths = [Path(arg).resolve() for arg in argv] or compiled_modules()
    found = check(paths)
    for finding in found:
        print(finding)
    print(
        f"{len(paths)} module(s) checked: {len(found)} construct(s) that mypyc compiles "
        "differently (spec/build.md)",
        file=sys.stderr,
    )
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
