"""The desk's QR code of the event's public page scans (spec/events.md §10): a decoder
(``zbarimg``, Debian's zbar-tools) reads the event's link from screenshots of the desk at
390 and 1280 px, and from the desk printed to PDF (chromium's own print, turned into an
image by ``pdftoppm``, Debian's poppler-utils), where the code measures the 70 mm the print
style gives it, quiet zone included.

Without those tools the test is skipped on a developer's machine and fails in CI
(``CI=true``), where ``make test`` installs them."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import urllib.request
from pathlib import Path
from typing import Any

import pytest
import segno

from arbiter.service.web.event_pages import QUIET_ZONE
from tests.browser.conftest import SCREENSHOTS
from tests.browser.test_event_pages import DESKTOP, PHONE, site, watched
from tests.service.test_serve import LOCAL

__all__ = ["site"]  # the module's server fixture, shared

PRINTED_MM = 70.0
"""The QR code's printed width, quiet zone included (site.css, ``@media print``)."""
DPI = 150


def tool(name: str) -> str:
    found = shutil.which(name)
    if found is None:
        if os.environ.get("CI") == "true":
            pytest.fail(f"{name} is missing; CI must install it (make test does)")
        pytest.skip(f"{name} is missing (apt-get install zbar-tools poppler-utils)")
    return found


def decoded(image: Path) -> list[str]:
    """What ``zbarimg`` reads in ``image``: each QR code's text."""
    done = subprocess.run(
        [tool("zbarimg"), "--raw", "-q", "-Sdisable", "-Sqrcode.enable", str(image)],
        capture_output=True,
        text=True,
    )
    return [line for line in done.stdout.splitlines() if line]


def created(site: str) -> dict[str, Any]:
    request = urllib.request.Request(
        f"{site}/api/v1/events",
        data=json.dumps({"name": "QR Open", "game": "Pilo"}).encode(),
        headers={"Content-Type": "application/json"},
        method="POST",
    )
    with LOCAL.open(request, timeout=30) as answer:
        made = json.loads(answer.read())
    assert isinstance(made, dict)
    return made


def dark_box(pgm: Path) -> tuple[int, int, int, int]:
    """The box (left, top, right, bottom) of the dark pixels of a binary PGM image."""
    data = pgm.read_bytes()
    magic, width, height, most, pixels = data.split(maxsplit=4)
    assert magic == b"P5" and int(most) == 255
    w, h = int(width), int(height)
    rows = [pixels[y * w : (y + 1) * w] for y in range(h)]
    dark_rows = [y for y, row in enumerate(rows) if min(row) < 128]
    dark_columns = [
        x
        for x in range(w)
        if any(rows[y][x] < 128 for y in dark_rows[:: max(1, len(dark_rows) // 60)])
    ]
    return min(dark_columns), min(dark_rows), max(dark_columns), max(dark_rows)


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["390", "1280"])
def test_the_desks_qr_code_scans_on_screen(
    browser: Any, site: str, viewport: dict[str, int]
) -> None:
    made = created(site)
    context, page, problems = watched(browser, viewport, site)
    page.goto(f"{site}/events/{made['id']}/desk")
    figure = page.locator("figure.qr svg")
    box = figure.bounding_box()
    assert box is not None and box["width"] >= 180 and abs(box["width"] - box["height"]) < 1
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    whole = SCREENSHOTS / f"desk-qr-{viewport['width']}.png"
    page.screenshot(path=str(whole), full_page=True)
    assert decoded(whole) == [made["url"]]
    alone = SCREENSHOTS / f"desk-qr-code-{viewport['width']}.png"
    page.locator("figure.qr").screenshot(path=str(alone))
    assert decoded(alone) == [made["url"]]  # drawn whole: not cut at the bottom or the right
    context.close()
    assert problems == []


def test_the_desks_qr_code_prints_at_70_mm_and_scans(
    browser: Any, site: str, tmp_path: Path
) -> None:
    made = created(site)
    tool("pdftoppm")
    printed = {}
    for hidden in (False, True):
        # the second print hides the page's words (a style that only a test may add), so that
        # the code is all that is dark on the page and its size can be measured
        context = browser.new_context(viewport=DESKTOP, bypass_csp=hidden)
        page = context.new_page()
        page.goto(f"{site}/events/{made['id']}/desk")
        if hidden:
            page.add_style_tag(content="h1, figcaption, .qr-row p { visibility: hidden; }")
        pdf = tmp_path / f"desk-{hidden}.pdf"
        page.pdf(path=str(pdf), format="A4", print_background=True)
        context.close()
        stem = tmp_path / f"desk-{hidden}"
        subprocess.run(
            [tool("pdftoppm"), "-r", str(DPI), "-gray", "-singlefile", str(pdf), str(stem)],
            check=True,
        )
        printed[hidden] = stem.with_suffix(".pgm")
    pdf = tmp_path / "desk-False.pdf"
    info = subprocess.run([tool("pdfinfo"), str(pdf)], capture_output=True, text=True).stdout
    assert re.search(r"^Pages:\s+1$", info, re.MULTILINE), info  # the desk prints on one page
    png = SCREENSHOTS / "desk-qr-printed.png"
    stem = png.with_suffix("")
    subprocess.run(
        [tool("pdftoppm"), "-r", str(DPI), "-png", "-singlefile", str(pdf), str(stem)], check=True
    )
    assert decoded(png) == [made["url"]]
    left, top, right, bottom = dark_box(printed[True])
    modules = segno.make(made["url"], error="m").symbol_size(border=0)[0]
    symbol_mm = PRINTED_MM * modules / (modules + 2 * QUIET_ZONE)  # the dark part, no margin
    width_mm = (right - left + 1) / DPI * 25.4
    height_mm = (bottom - top + 1) / DPI * 25.4
    assert abs(width_mm - symbol_mm) < 2 and abs(height_mm - symbol_mm) < 2, (width_mm, symbol_mm)
    page_width = 210 / 25.4 * DPI
    assert abs((left + right) / 2 - page_width / 2) < DPI / 25.4 * 3  # centred, within 3 mm
