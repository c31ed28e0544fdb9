"""arbiter has one TRF writer, :func:`arbiter.pairing.trf.write_trf` (``spec/pairings.md``
§4): no other module of the package formats a TRF record, so that a file of pairings and a
file of standings cannot say the same thing in two ways (``spec/standings.md`` §9)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from arbiter.adjudicator.standings import BoardResult, ByeRound, paired_standings
from arbiter.pairing import trfwrite
from arbiter.service.core.standings_formats import trf_text

PACKAGE = Path(__file__).resolve().parents[1] / "src" / "arbiter"
WRITER = "pairing/trfwrite.py"

RECORD = re.compile(r"^(?:\d{3}|XX[A-Z]|BB[A-Z]) ")
"""The start of a TRF record as written: a three-digit code (``001``, ``012``, ``142``,
...) or a TRF(x) or bbpPairings one (``XXR``, ``BBU``), then a space."""
ROUND_ENTRY = re.compile(r"0000 - |^ *[wb-] [10=+\-HFUZ]$|\} [wb] \{")
"""A round entry of a ``001`` line, or a piece of one: no opponent (``0000 - Z``), a
colour and a result, or an f-string's ``{opponent} w {result}``."""


def literals(tree: ast.AST) -> list[tuple[int, str]]:
    """Every string a module writes: its constants, and the text of each f-string with its
    fields as ``{}``; left out are the strings that stand alone (docstrings) and those of a
    ``raise`` (a message may name a record: ``XXC rank: ... not supported``)."""
    said: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):
            said.add(id(node.value))
        elif isinstance(node, ast.Raise):
            said |= {id(inner) for inner in ast.walk(node)}
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if id(node) in said:
            continue
        if isinstance(node, ast.JoinedStr):
            text = "".join(
                str(v.value) if isinstance(v, ast.Constant) else "{}" for v in node.values
            )
            found.append((node.lineno, text))
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            found.append((node.lineno, node.value))
    return found


@pytest.mark.checkout_only
def test_no_module_but_the_pairing_writer_formats_a_trf_line() -> None:
    formatted = []
    for path in sorted(PACKAGE.rglob("*.py")):
        name = path.relative_to(PACKAGE).as_posix()
        if name == WRITER:
            continue
        for line, text in literals(ast.parse(path.read_text(encoding="utf-8"))):
            if RECORD.match(text) or ROUND_ENTRY.search(text):
                formatted.append(f"{name}:{line}: {text!r}")
    assert formatted == [], "a second TRF writer: " + "; ".join(formatted)


@pytest.mark.checkout_only
def test_the_check_finds_the_writer_itself() -> None:
    """The patterns above find what the writer writes, so that the check is not empty."""
    source = (PACKAGE / WRITER).read_text(encoding="utf-8")
    texts = [text for _, text in literals(ast.parse(source))]
    assert any(RECORD.match(t) and t.startswith("001 ") for t in texts)
    assert any(RECORD.match(t) and t.startswith("XXR ") for t in texts)
    assert any(ROUND_ENTRY.search(t) and t.startswith("0000 - ") for t in texts)
    assert any(ROUND_ENTRY.search(t) for t in texts if t.endswith("w {}"))


def test_the_standings_player_lines_are_the_pairing_writer_s(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Every ``001`` line of the standings' TRF is made by the pairing library's writer."""
    made: list[str] = []
    real = trfwrite._player_line  # pyright: ignore[reportPrivateUsage]

    def counted(*args: object, **kwargs: object) -> str:
        line = real(*args, **kwargs)  # type: ignore[arg-type]
        made.append(line)
        return line

    monkeypatch.setattr(trfwrite, "_player_line", counted)
    boards = [BoardResult(1, "A", "B", "A", "rules"), BoardResult(2, "C", "A", "C", "forfeit")]
    table = paired_standings("E", "Pilo", ["A", "B", "C"], boards, [ByeRound(1, "C", "half", 0.5)])
    text = trf_text(table)
    assert made == [line for line in text.splitlines() if line.startswith("001")]
    assert len(made) == 3
