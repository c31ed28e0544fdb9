"""The package's layers and faces keep to their folders (``src/arbiter/service/__init__.py``,
each layer's README): which third-party frameworks each folder may import, and which of
arbiter's own folders it may import. Every import counts, at module level or inside a
function, so that a lazy import cannot slip a framework into the wrong face."""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "src" / "arbiter"

pytestmark = pytest.mark.checkout_only  # reads the checkout's sources

FRAMEWORKS = {
    "click": ("service/cli/",),
    "flask": ("service/web/",),
    "werkzeug": ("service/web/",),
    "waitress": ("service/web/",),
    "jinja2": ("service/web/",),
    "babel": ("service/web/",),
    "sqlalchemy": ("service/events/store.py", "service/events/storage.py",
                   "service/events/migrate.py", "service/events/migrations/"),
    "alembic": ("service/events/migrate.py", "service/events/migrations/"),
}  # fmt: skip
"""Each framework, and the only places (folders end with /) that may import it."""

FORBIDDEN = {
    "notation/": ("arbiter.adjudicator", "arbiter.diagram", "arbiter.service"),
    "adjudicator/": ("arbiter.diagram", "arbiter.service"),
    "diagram/": ("arbiter.service",),
    "ratings/": ("arbiter.diagram", "arbiter.service"),
    "service/core/": (
        "arbiter.service.cli",
        "arbiter.service.web",
        "arbiter.service.events",
    ),
    "service/events/": ("arbiter.service.cli", "arbiter.service.web"),
    "service/web/": ("arbiter.service.cli",),
    "service/cli/": ("arbiter.service.web",),
}
"""What each folder may not import: the layers below know nothing of those above, core and
events no face, and the two faces not each other."""

ALLOWED: set[tuple[str, str]] = set()
"""Crossings allowed (none: ``arbiter serve`` reaches the server through
``arbiter.service.run_server``, where the faces meet)."""


@dataclass(frozen=True)
class Breach:
    path: str
    line: int
    imported: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: imports {self.imported}"


def imports(source: str) -> list[tuple[int, str]]:
    """Every module ``source`` imports, with its line, at any depth."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            found.append((node.lineno, node.module))
            if node.module.split(".")[0] == "arbiter":  # a name may be a module: arbiter.x import y
                found += [(node.lineno, f"{node.module}.{alias.name}") for alias in node.names]
    return found


def _within(path: str, places: tuple[str, ...]) -> bool:
    return any(path.startswith(place) if place.endswith("/") else path == place for place in places)


def breaches(path: str, source: str) -> list[Breach]:
    """The imports of the module at ``path`` (relative to ``src/arbiter``) that break the
    rules above."""
    found = []
    for line, name in imports(source):
        top = name.split(".")[0]
        if top in FRAMEWORKS and not _within(path, FRAMEWORKS[top]):
            found.append(Breach(path, line, name))
            continue
        for folder, banned in FORBIDDEN.items():
            if not path.startswith(folder):
                continue
            for prefix in banned:
                crossing = name == prefix or name.startswith(prefix + ".")
                if crossing and (path, prefix) not in ALLOWED:
                    found.append(Breach(path, line, name))
    return sorted(set(found), key=lambda b: (b.path, b.line, b.imported))


def modules() -> list[Path]:
    return sorted(PACKAGE.rglob("*.py"))


def test_every_module_imports_only_what_its_folder_may() -> None:
    assert len(modules()) > 90
    found = []
    for path in modules():
        relative = path.relative_to(PACKAGE).as_posix()
        found += breaches(relative, path.read_text(encoding="utf-8"))
    assert not found, "\n".join(map(str, found))


@pytest.mark.parametrize(
    ("path", "source", "imported"),
    [
        ("service/web/api.py", "import click", "click"),
        ("service/core/batch.py", "def f():\n    from flask import request", "flask"),
        ("service/events/operations.py", "from sqlalchemy import select", "sqlalchemy"),
        (
            "service/cli/db.py",
            "from sqlalchemy.exc import SQLAlchemyError",
            "sqlalchemy.exc",
        ),
        (
            "service/core/batch.py",
            "from arbiter.service.web import api",
            "arbiter.service.web",
        ),
        (
            "service/web/api.py",
            "import arbiter.service.cli.main",
            "arbiter.service.cli.main",
        ),
        (
            "service/cli/runs.py",
            "from arbiter.service.web import create_app",
            "arbiter.service.web",
        ),
        (
            "service/cli/serve.py",
            "def f():\n    from arbiter.service.web.server import run",
            "arbiter.service.web.server",
        ),
        (
            "service/events/verify.py",
            "from arbiter.service.cli import db",
            "arbiter.service.cli",
        ),
        (
            "notation/ast.py",
            "from arbiter.adjudicator import base",
            "arbiter.adjudicator",
        ),
    ],
)
def test_each_rule_finds_its_breach(path: str, source: str, imported: str) -> None:
    assert imported in [breach.imported for breach in breaches(path, source)]


@pytest.mark.parametrize(
    ("path", "source"),
    [
        ("service/cli/main.py", "import click"),
        ("service/web/api.py", "from flask import Blueprint"),
        ("service/events/store.py", "from sqlalchemy import select"),
        ("service/events/migrations/env.py", "from alembic import context"),
        ("service/cli/serve.py", "from arbiter.service import run_server"),
        ("service/web/api.py", "from arbiter.service.core.batch import report_for"),
        (
            "service/cli/db.py",
            "from arbiter.service.events.archive import export_event",
        ),
    ],
)
def test_what_a_folder_may_import_is_not_a_breach(path: str, source: str) -> None:
    assert breaches(path, source) == []
