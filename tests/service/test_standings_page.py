"""The page's standings view in a real browser (Debian's chromium driven by Playwright)
against a real ``arbiter serve`` on a local port: the files of each round are added, the
standings shown are those of the API, and the TRF saved is the API's TRF."""

from __future__ import annotations

import json
import shutil
import urllib.request
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.service.test_serve import LOCAL, running_server

CHROMIUM = "/usr/bin/chromium"
FOLDER = Path(__file__).resolve().parents[2] / "samples" / "tournament"
FILES = sorted(FOLDER.iterdir())

sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
if shutil.which(CHROMIUM) is None:
    pytest.skip(f"no browser at {CHROMIUM}", allow_module_level=True)


@pytest.fixture(scope="module")
def base_url() -> Iterator[str]:
    with running_server("--threads", "2") as url:
        yield url


@pytest.fixture(scope="module")
def page(base_url: str) -> Iterator[Any]:
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM,
            args=["--no-sandbox", "--disable-gpu", "--disable-background-networking"],
        )
        try:
            context = browser.new_context(accept_downloads=True)
            tab = context.new_page()
            tab.goto(base_url + "/")
            yield tab
        finally:
            browser.close()


def upload(base_url: str, query: str = "") -> bytes:
    """The sample's files sent to the API directly, as a multipart body."""
    boundary = uuid.uuid4().hex
    parts = []
    for path in FILES:
        head = (
            f'--{boundary}\r\nContent-Disposition: form-data; name="file"; '
            f'filename="{path.name}"\r\nContent-Type: application/octet-stream\r\n\r\n'
        )
        parts.append(head.encode() + path.read_bytes() + b"\r\n")
    body = b"".join(parts) + f"--{boundary}--\r\n".encode()
    request = urllib.request.Request(
        base_url + "/api/v1/standings" + query,
        data=body,
        headers={"Content-Type": f"multipart/form-data; boundary={boundary}"},
    )
    with LOCAL.open(request, timeout=30) as answer:
        data: bytes = answer.read()
        return data


def test_page_shows_the_standings_of_the_files_added_round_by_round(
    page: Any, base_url: str
) -> None:
    page.set_input_files("#standings-files", [str(p) for p in FILES[:2]])
    listed = page.locator("#standings-list li").all_inner_texts()
    assert listed == ["round-1.grn Remove", "round-2.grn Remove"]
    page.set_input_files("#standings-files", [str(p) for p in FILES[2:]])
    assert page.locator("#standings-list li").count() == len(FILES)
    page.click("#standings-run")
    page.wait_for_selector("#standings-out table.standings")
    rows = page.eval_on_selector_all(
        "#standings-out table.standings tbody tr",
        "rows => rows.map(r => [...r.cells].map(c => c.textContent))",
    )
    document = json.loads(upload(base_url))
    expected = []
    for line, cross in zip(document["standings"], document["crosstable"], strict=True):
        cells = [
            "." if c is None else f"{c['opponent_rank']}{c['colour'][0].lower()}{c['result']}"
            for c in cross["results"]
        ]
        values = ["" if v is None else str(v) for v in line["tiebreaks"].values()]
        expected.append(
            [str(line["rank"]), line["player"], str(line["points"]), str(line["games"])]
            + values
            + cells
        )
    assert rows == expected
    notes = page.inner_text("#standings-out")
    assert "Rounds: opponent's rank, colour at the start (b Blue, o Orange)" in notes
    listed = page.inner_text("#standings-out ul.excluded")
    assert len(listed.splitlines()) == len(document["excluded"]) == 5
    assert "duplicate-pairing" in listed and "unfinished" in listed


def test_page_saves_the_trf_of_the_api(page: Any, base_url: str, tmp_path: Path) -> None:
    page.fill("#standings-tiebreak", "sb,bh")
    with page.expect_download() as download:
        page.click("button[data-standings-format=trf]")
    saved = tmp_path / "standings.trf"
    download.value.save_as(saved)
    assert saved.read_bytes() == upload(base_url, "?format=trf&tiebreak=sb,bh")
    assert saved.read_text(encoding="utf-8").startswith("012 Autumn Open (Pilo)\n")
