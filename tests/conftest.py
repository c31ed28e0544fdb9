"""Shared pytest options and fixtures: ``--update-golden`` rewrites the samples' expected
outputs; ``installed`` is the package built as a wheel and installed away from the repository,
as a user gets it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--update-golden",
        action="store_true",
        default=False,
        help="rewrite samples/**/*.expected.json from the current adjudicator",
    )


@pytest.fixture
def update_golden(request: pytest.FixtureRequest) -> bool:
    return bool(request.config.getoption("--update-golden"))


@pytest.fixture(scope="session")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The wheel built from the checkout as ``pip install`` builds it, in an isolated build
    environment that holds only what ``pyproject.toml`` asks for: with the modules of
    setup.py compiled by mypyc where a C compiler is present."""
    out = tmp_path_factory.mktemp("wheel")
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--wheel-dir", str(out),
         str(ROOT)],
        check=True, capture_output=True,
    )  # fmt: skip
    [built] = out.glob("*.whl")
    return built


@pytest.fixture(scope="session")
def installed(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder holding the wheel installed (without its dependencies, which this
    environment has): put it first on ``PYTHONPATH`` to run the installed package."""
    site = tmp_path_factory.mktemp("site")
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--target", str(site),
         str(wheel)],
        check=True, capture_output=True,
    )  # fmt: skip
    return site
