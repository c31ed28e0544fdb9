"""The package's layout: no module imports one that imports it back, however far round, and
every folder of the package says in its README.md what each of its modules is for.

An import counts wherever it stands: at module level, inside a function, or under
``TYPE_CHECKING``: a cycle hidden in a function still ties two modules together, neither of
which can be read, tested or moved without the other. What two modules share goes down
into a module below both. (Only import statements count: a module named by a string, as
``importlib`` loads it, is not followed.)"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "src" / "arbiter"

pytestmark = pytest.mark.checkout_only  # reads the checkout's sources

PENDING: tuple[str, ...] = ()
"""Packages being reworked elsewhere: a cycle lying wholly inside one, and the READMEs of
its folders, are not checked yet (none now: web/ has its README.md)."""

DATA_FOLDERS = {"migrations", "grammar", "static", "templates"}
"""Folders that hold data (or the migrations alembic runs, and their versions), not modules
of the package: no README is asked of them or of the folders inside them."""


def module_name(path: Path) -> str:
    """The dotted name of the module at ``path``; a package's ``__init__.py`` is the package."""
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def sources() -> dict[str, Path]:
    """Every module of the package, by its dotted name."""
    return {module_name(path): path for path in sorted(PACKAGE.rglob("*.py"))}


def imported(name: str, is_package: bool, source: str, known: set[str]) -> set[str]:
    """The modules of ``known`` that the module ``name`` imports, at any depth: ``from pkg
    import x`` is ``pkg.x`` when that is a module, else ``pkg``; a relative import is read
    from the module's own package."""
    package = name if is_package else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")
                anchor = anchor[: len(anchor) - (node.level - 1)]
                base = ".".join([*anchor, *([base] if base else [])])
            for alias in node.names:
                whole = f"{base}.{alias.name}"
                found.add(whole if whole in known else base)
    return {module for module in found if module in known and module != name}


def graph() -> dict[str, set[str]]:
    """Each module of the package and the modules of the package it imports."""
    modules = sources()
    known = set(modules)
    return {
        name: imported(name, path.name == "__init__.py", path.read_text("utf-8"), known)
        for name, path in modules.items()
    }


def components(edges: dict[str, set[str]]) -> list[set[str]]:
    """The strongly connected components of ``edges`` (Tarjan's, without recursion)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[set[str]] = []
    for root in sorted(edges):
        if root in index:
            continue
        work = [(root, iter(sorted(edges[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, onward = work[-1]
            step = next(onward, None)
            if step is not None:
                if step not in index:
                    index[step] = low[step] = len(index)
                    stack.append(step)
                    on_stack.add(step)
                    work.append((step, iter(sorted(edges[step]))))
                elif step in on_stack:
                    low[node] = min(low[node], index[step])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component = set()
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.add(member)
                    if member == node:
                        break
                found.append(component)
    return found


def pending(name: str) -> bool:
    return any(name == package or name.startswith(package + ".") for package in PENDING)


def cycles(edges: dict[str, set[str]]) -> list[list[tuple[str, str]]]:
    """Each set of modules that import one another, as its edges, but those lying wholly
    inside a package of ``PENDING``."""
    found = []
    for component in components(edges):
        if len(component) < 2 or all(pending(name) for name in component):
            continue
        found.append(sorted((a, b) for a in component for b in edges[a] if b in component))
    return sorted(found)


def test_no_import_cycle() -> None:
    edges = graph()
    assert len(edges) > 90 and "arbiter.notation.ast" in edges
    found = cycles(edges)
    shown = ["\n".join(f"  {a} -> {b}" for a, b in cycle) for cycle in found]
    assert not found, "modules that import one another:\n" + "\n\n".join(shown)


def test_the_graph_sees_every_kind_of_import() -> None:
    known = {"arbiter.a", "arbiter.a.b", "arbiter.a.c", "arbiter.d", "arbiter.e"}
    source = "\n".join(
        [
            "from typing import TYPE_CHECKING",
            "import arbiter.d",
            "from . import c",
            "from .c import something",
            "if TYPE_CHECKING:",
            "    from ..e import Thing",
            "def f():",
            "    from arbiter.a import helper",
        ]
    )
    found = imported("arbiter.a.b", False, source, known)
    assert found == {"arbiter.d", "arbiter.a.c", "arbiter.e", "arbiter.a"}
    assert imported("arbiter.a", True, "from . import b\nfrom .c import x", known) == {
        "arbiter.a.b",
        "arbiter.a.c",
    }


def test_a_cycle_is_found_and_shown_by_its_edges() -> None:
    edges = {
        "arbiter.x": {"arbiter.y"},
        "arbiter.y": {"arbiter.z"},
        "arbiter.z": {"arbiter.x", "arbiter.w"},
        "arbiter.w": set(),
        "arbiter.service.web.p": {"arbiter.service.web.q"},
        "arbiter.service.web.q": {"arbiter.service.web.p"},
    }
    assert cycles(edges) == [
        [("arbiter.service.web.p", "arbiter.service.web.q"),
         ("arbiter.service.web.q", "arbiter.service.web.p")],
        [("arbiter.x", "arbiter.y"), ("arbiter.y", "arbiter.z"), ("arbiter.z", "arbiter.x")],
    ]  # fmt: skip


# --- each folder's README -------------------------------------------------------------------


def folder_pending(folder: Path) -> bool:
    """Whether ``folder`` is a package of ``PENDING`` or inside one."""
    return pending(".".join(folder.relative_to(PACKAGE.parent).parts))


def is_package(folder: Path) -> bool:
    return (folder / "__init__.py").is_file()


def folders() -> list[Path]:
    """The folders of the package's code, below ``src/arbiter``: those with an ``__init__.py``,
    but data folders and what they hold."""
    return sorted(
        folder
        for folder in PACKAGE.rglob("*")
        if folder.is_dir()
        and is_package(folder)
        and not DATA_FOLDERS & set(folder.relative_to(PACKAGE).parts)
    )


def unlisted(folder: Path, text: str) -> list[str]:
    """The modules (``name.py``) and subpackages (``name/``) of ``folder`` that ``text`` does
    not name (a name counts written alone or at the end of a path: ``cli/streams.py``)."""
    names = [path.name for path in sorted(folder.glob("*.py")) if path.name != "__init__.py"]
    names += [
        f"{sub.name}/" for sub in sorted(folder.iterdir()) if sub.is_dir() and is_package(sub)
    ]
    return [name for name in names if not re.search(rf"(?<![\w.-]){re.escape(name)}", text)]


def test_every_folder_of_the_package_has_a_readme() -> None:
    wanted = [folder for folder in folders() if not folder_pending(folder)]
    assert len(wanted) >= 8
    missing = [str(f.relative_to(PACKAGE)) for f in wanted if not (f / "README.md").is_file()]
    assert not missing, f"folders without a README.md: {missing}"


def test_folder_readmes_list_their_modules() -> None:
    readmes = [
        readme for readme in sorted(PACKAGE.rglob("README.md")) if not folder_pending(readme.parent)
    ]
    assert len(readmes) >= 8
    found = {
        str(readme.parent.relative_to(PACKAGE.parent)): missed
        for readme in readmes
        if (missed := unlisted(readme.parent, readme.read_text(encoding="utf-8")))
    }
    assert not found, "modules a folder's README.md does not name: " + "; ".join(
        f"{folder}/README.md: {', '.join(names)}" for folder, names in found.items()
    )


def test_a_module_is_named_by_its_own_name_only(tmp_path: Path) -> None:
    for name in ("reader.py", "json_reader.py", "cli/__init__.py"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("")
    text = "`json_reader.py` reads JSON; see also `cli/`."
    assert unlisted(tmp_path, text) == ["reader.py"]
    assert unlisted(tmp_path, "`reader.py`, `json_reader.py`, `service/cli/`") == []
