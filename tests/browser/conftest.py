"""A real browser against a real server: Debian's chromium, driven by Playwright, and
``arbiter serve`` on a free loopback port, each started once for the module.

Without a browser (no ``/usr/bin/chromium``, or no Playwright) the tests are skipped on a
developer's machine and fail in CI (``CI=true``), where ``make test`` installs chromium.
Screenshots go to ``test-artifacts/screenshots/`` (ignored by git).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from importlib import resources
from pathlib import Path
from typing import Any, NoReturn

import pytest

from tests.service.test_serve import running_server

CHROMIUM = Path("/usr/bin/chromium")
FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking"]
SCREENSHOTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "screenshots"


def _unavailable(reason: str) -> NoReturn:
    if os.environ.get("CI") == "true":
        pytest.fail(f"the browser tests cannot run in CI: {reason}")
    pytest.skip(f"no browser: {reason}")


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _unavailable("the playwright package is not installed (pip install -e '.[dev]')")
    if not CHROMIUM.exists():
        _unavailable(f"{CHROMIUM} is missing (apt-get install chromium)")
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=str(CHROMIUM), args=FLAGS)
        try:
            yield launched
        finally:
            launched.close()


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    """``arbiter serve`` on a free port of 127.0.0.1, as a user runs it; its base URL."""
    with running_server("--threads", "4") as url:
        yield url


@pytest.fixture
def page(browser: Any, server: str) -> Iterator[Any]:
    """A fresh page of the server's site; fails the test if the page asked for anything that
    was not there, reached beyond the server, or logged an error."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    opened = context.new_page()
    problems: list[str] = []
    opened.on(
        "response",
        lambda r: problems.append(f"{r.status} {r.url}") if r.status >= 400 else None,
    )
    opened.on(
        "request",
        lambda r: None if r.url.startswith(server) else problems.append(f"outside: {r.url}"),
    )
    opened.on("pageerror", lambda e: problems.append(f"page error: {e}"))
    opened.on(
        "console", lambda m: problems.append(f"console: {m.text}") if m.type == "error" else None
    )
    opened.goto(f"{server}/")
    opened.base_url = server  # type: ignore[attr-defined]
    yield opened
    context.close()
    assert problems == []


def screenshot(page: Any, name: str, selector: str | None = None) -> Path:
    """Save a screenshot of the page (or of one element) as a test artifact."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / f"{name}.png"
    if selector:
        page.locator(selector).screenshot(path=str(path))
    else:
        page.screenshot(path=str(path), full_page=True)
    return path


def serious_findings(page: Any) -> list[str]:
    """What axe-core (the copy the axe-playwright-python package carries) finds serious or
    critical on the page as it stands, one line each."""
    page.evaluate(
        resources.files("axe_playwright_python").joinpath("axe.min.js").read_text("utf-8")
    )
    found = page.evaluate("axe.run().then(r => r.violations)")
    return [
        f"{v['id']}: {v['help']} ({len(v['nodes'])}) {v['nodes'][0]['target']}"
        for v in found
        if v["impact"] in ("serious", "critical")
    ]
