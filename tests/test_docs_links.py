"""The README and the pages of docs/ hold together: every relative link points to a file that
exists (and to a heading of it, when the link names one), every page of docs/ is reached from
the README, and the README stays a front door of at most 300 lines."""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import unquote

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
PAGES = [README, *sorted((ROOT / "docs").glob("*.md"))]

FENCE = re.compile(r"^\s*(```|~~~)")
HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
CODE_SPAN = re.compile(r"(`+).*?\1")
LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\[\]]*\])*\]\(\s*<?([^)\s>]*)>?(?:\s+\"[^\"]*\")?\s*\)")
EXTERNAL = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*:")


def prose(text: str) -> list[tuple[int, str]]:
    """The lines of a Markdown text outside its fenced code blocks, with their numbers."""
    lines: list[tuple[int, str]] = []
    fenced = False
    for number, line in enumerate(text.splitlines(), 1):
        if FENCE.match(line):
            fenced = not fenced
        elif not fenced:
            lines.append((number, line))
    return lines


def slug(heading: str) -> str:
    """The anchor a heading gets, as GitHub makes it: links reduced to their text, lower
    case, punctuation dropped (word characters, hyphens and spaces kept), spaces as hyphens."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)
    text = re.sub(r"[^\w\- ]", "", text.strip().lower())
    return text.replace(" ", "-")


def anchors(path: Path) -> set[str]:
    """Every heading anchor of a Markdown file; a repeated heading gets -1, -2, ..."""
    found: set[str] = set()
    seen: dict[str, int] = {}
    for _, line in prose(path.read_text(encoding="utf-8")):
        match = HEADING.match(line)
        if match is None:
            continue
        base = slug(match.group(2))
        count = seen.get(base, 0)
        seen[base] = count + 1
        found.add(base if count == 0 else f"{base}-{count}")
    return found


def links(path: Path) -> list[tuple[int, str]]:
    """Every link and image target of a Markdown file outside code, with its line."""
    found: list[tuple[int, str]] = []
    for number, line in prose(path.read_text(encoding="utf-8")):
        for match in LINK.finditer(CODE_SPAN.sub("", line)):
            found.append((number, match.group(1)))
    return found


def broken(path: Path, root: Path = ROOT) -> list[str]:
    """The relative links of ``path`` that point to no file under ``root``, or to no heading
    of their file."""
    problems: list[str] = []
    for number, target in links(path):
        where = f"{path.relative_to(root)}:{number}: {target}"
        if not target or EXTERNAL.match(target):
            continue
        file_part, _, anchor = target.partition("#")
        destination = (path.parent / unquote(file_part)).resolve() if file_part else path
        if not destination.is_relative_to(root):
            problems.append(f"{where}: outside the repository")
        elif not destination.exists():
            problems.append(f"{where}: no such file")
        elif anchor and destination.suffix == ".md" and unquote(anchor) not in anchors(destination):
            problems.append(f"{where}: no such heading")
    return problems


@pytest.mark.parametrize("path", PAGES, ids=[str(p.relative_to(ROOT)) for p in PAGES])
def test_every_relative_link_resolves(path: Path) -> None:
    assert broken(path) == []


def test_the_readme_is_at_most_300_lines() -> None:
    assert len(README.read_text(encoding="utf-8").splitlines()) <= 300


def test_every_page_of_docs_is_linked_from_the_readme() -> None:
    linked = {
        (ROOT / target.partition("#")[0]).resolve()
        for _, target in links(README)
        if not EXTERNAL.match(target)
    }
    missing = [p.name for p in PAGES[1:] if p.resolve() not in linked]
    assert missing == []


def test_the_checker_finds_what_is_broken(tmp_path: Path) -> None:
    assert slug("3.6 Diagrams: `POST /api/v1/diagram`") == "36-diagrams-post-apiv1diagram"
    assert slug("Ratings, against Play's raters") == "ratings-against-plays-raters"
    root = tmp_path / "repo"
    root.mkdir()
    (root / "there.md").write_text("# There\n\n## 9. Limits\n", encoding="utf-8")
    probe = root / "probe.md"
    probe.write_text(
        "# Title\n\n## Twice\n\n## Twice\n\n"
        "[a](there.md) [b](#twice-1) [c](#nowhere) [d](no/such.md) `[e](in/code.md)`\n"
        "```\n[f](in/a/block.md)\n```\n"
        "[g](https://example.org/x) [h](there.md#9-limits) [i](there.md#10-limits)\n"
        "![j](../outside.png)\n",
        encoding="utf-8",
    )
    assert anchors(probe) == {"title", "twice", "twice-1"}
    assert [problem.split(": ", 1)[1] for problem in broken(probe, root)] == [
        "#nowhere: no such heading",
        "no/such.md: no such file",
        "there.md#10-limits: no such heading",
        "../outside.png: outside the repository",
    ]
