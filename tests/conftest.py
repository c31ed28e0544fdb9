"""Shared pytest options and fixtures: ``--update-golden`` rewrites the samples' expected
outputs; ``installed`` is the package built as a wheel and installed away from the repository,
as a user gets it; ``--shipped`` runs the tests on that installed wheel instead of the
checkout (``make test`` runs the suite both ways)."""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

from tools import shipped

ROOT = Path(__file__).resolve().parents[1]


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--update-golden",
        action="store_true",
        default=False,
        help="rewrite samples/**/*.expected.json from the current adjudicator",
    )
    parser.addoption(
        "--long",
        action="store_true",
        default=False,
        help="the long form of the randomised tests: ten times the examples, every ply "
        "(make fuzz runs it; tests/budget.py)",
    )
    parser.addoption(
        "--shipped",
        action="store_true",
        default=False,
        help="run on the wheel as pip installs it (compiled where a C compiler is present), "
        "built by tools/shipped.py, instead of on the checkout",
    )


def _use_the_shipped_build() -> str:
    """Import ``arbiter`` from the installed wheel, here and in every process a test starts:
    the site folder goes first on the path (before the checkout, whose ``arbiter/`` would
    shadow it) and ``PYTHONSAFEPATH`` keeps a child's working folder off its path. Done when
    this file is imported, before the other conftest files, which import ``arbiter``."""
    assert "arbiter" not in sys.modules, "arbiter was imported before the shipped build"
    site = str(shipped.build())
    sys.path.insert(0, site)
    os.environ["PYTHONPATH"] = os.pathsep.join(
        [site, *filter(None, os.environ.get("PYTHONPATH", "").split(os.pathsep))]
    )
    os.environ["PYTHONSAFEPATH"] = "1"
    return site


SHIPPED_SITE = _use_the_shipped_build() if "--shipped" in sys.argv[1:] else None
if "--long" in sys.argv[1:]:  # read by tests/budget.py when the tests are imported
    os.environ["ARBITER_LONG_TESTS"] = "1"

# No test is timed by hypothesis: a busy machine makes any example slow (tests that bound
# work count it: fuzz/work.py). Its checks of the data it draws stay.
settings.register_profile("arbiter", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("arbiter")


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "checkout_only: a test of the checkout itself, not "
                            "of what it builds (skipped under --shipped)")  # fmt: skip
    # Events are kept in the data folder by default: never the user's own, in a test run.
    os.environ["ARBITER_DATA"] = tempfile.mkdtemp(prefix="arbiter-data-")
    os.environ.pop("ARBITER_DATABASE", None)
    if not config.getoption("--shipped"):
        return
    import arbiter

    site = SHIPPED_SITE or ""
    assert site and (arbiter.__file__ or "").startswith(site), (
        "--shipped needs to be on the command line of pytest, which reads it before it loads "
        "the tests (python -m pytest --shipped)"
    )


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if not config.getoption("--shipped"):
        return
    skip = pytest.mark.skip(reason="a test of the checkout itself, not of the shipped build")
    for item in items:
        if item.get_closest_marker("checkout_only"):
            item.add_marker(skip)


def pytest_report_header(config: pytest.Config) -> str:
    import arbiter

    return f"arbiter under test: {Path(arbiter.__file__ or '?').parent}"


@pytest.fixture
def update_golden(request: pytest.FixtureRequest) -> bool:
    return bool(request.config.getoption("--update-golden"))


@pytest.fixture(scope="session")
def wheel() -> Path:
    """The wheel built from the checkout as ``pip install`` builds it, in an isolated build
    environment that holds only what ``pyproject.toml`` asks for: with the modules of
    setup.py compiled by mypyc where a C compiler is present (``tools/shipped.py``)."""
    shipped.build()
    return shipped.wheel_file()


@pytest.fixture(scope="session")
def installed(wheel: Path) -> Path:
    """A folder holding the wheel installed (without its dependencies, which this
    environment has): put it first on ``PYTHONPATH`` to run the installed package."""
    return shipped.SITE
