"""The pictures of docs/ (shown in the README) are what the drawing code draws now, and the
example of spec/diagrams.md runs as written."""

from __future__ import annotations

import doctest
import importlib.util
import xml.etree.ElementTree as ET
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_docs_pictures_are_up_to_date() -> None:
    spec = importlib.util.spec_from_file_location(
        "docs_diagrams", ROOT / "tools" / "docs_diagrams.py"
    )
    assert spec is not None and spec.loader is not None
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    for name, text in tool.pictures().items():
        shipped = (ROOT / "docs" / name).read_text(encoding="utf-8")
        assert shipped == text, f"docs/{name} is out of date: run python tools/docs_diagrams.py"
        ET.fromstring(shipped)
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert all(f"(docs/{name})" in readme for name in tool.PICTURES)


def test_the_spec_example_runs() -> None:
    path = ROOT / "spec" / "diagrams.md"
    result = doctest.testfile(str(path), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0
