"""The repair suggestions of a report in words, for ``arbiter validate`` and the table of
``arbiter adjudicate`` (``spec/cli.md``; the suggestions themselves: ``spec/report.md``).

An error refused at a move may carry ``suggestions``, best first: a move to write at a ply,
what is written there, the slip that would explain it, and what the correction achieves.
A person reading the problems wants the few best in one line each, saying that last part
plainly: whether the game then replays, and to the result the record claims or another.
Everything in them was typed by someone (the move as written above all), so a character
that a terminal would act on instead of showing is written as an escape.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

MOST = 3
"""The most suggestions said under one error: past three, a person would rather look."""


def suggestion_lines(error: Mapping[str, Any], claimed: str | None) -> list[str]:
    """The best suggestions of ``error`` (at most :data:`MOST`), one line each, as
    ``validate`` prints them under it; ``claimed`` is the record's claimed result."""
    return [said(item, claimed) for item in suggestions_of(error)[:MOST]]


def suggestions_of(error: Mapping[str, Any]) -> Sequence[Mapping[str, Any]]:
    """The suggestions of ``error`` that say at least a ply and a move, in their order."""
    found = error.get("suggestions")
    if not isinstance(found, list):
        return []
    return [item for item in found if isinstance(item, Mapping) and _said_enough(item)]


def _said_enough(item: Mapping[str, Any]) -> bool:
    return type(item.get("ply")) is int and isinstance(item.get("move"), str)


def said(item: Mapping[str, Any], claimed: str | None) -> str:
    """One suggestion in words: ``did you mean ply 23 c4 (written c3: rank off by one; then
    the game replays to Blue+5, as claimed)``."""
    parts = [part for part in (_written(item), outcome(item, claimed)) if part]
    return f"did you mean ply {item['ply']} {shown(item['move'])} ({'; '.join(parts)})"


def first_hint(error: Mapping[str, Any]) -> str:
    """The best suggestion of ``error`` in a few words (``did you mean ply 23 c4?``), for
    the table's status column; empty when it has none."""
    found = suggestions_of(error)
    if not found:
        return ""
    return f"did you mean ply {found[0]['ply']} {shown(found[0]['move'])}?"


def _written(item: Mapping[str, Any]) -> str:
    written, slip = item.get("written"), item.get("slip")
    text = f"written {shown(written)}" if isinstance(written, str) else ""
    if isinstance(slip, str) and slip:
        return f"{text}: {shown(slip)}" if text else shown(slip)
    return text


def outcome(item: Mapping[str, Any], claimed: str | None) -> str:
    """What the correction achieves: the game then replays to the claimed result, or to
    another, or every move is then legal, or at least the ply corrected is."""
    if item.get("replays") is not True:
        return "then that ply is legal"
    result = item.get("result")
    if not isinstance(result, str):
        return "then every move is legal"
    if item.get("claimed") is True:
        return f"then the game replays to {shown(result)}, as claimed"
    if claimed and claimed != "*":
        return f"then the game replays to {shown(result)}, not the claimed {shown(claimed)}"
    return f"then the game replays to {shown(result)}"


def shown(value: object) -> str:
    """``value`` as text a terminal shows as it is: a character it would act on instead
    (a control character, a line break) is written as its escape."""
    text = str(value)
    if text.isprintable():
        return text
    return "".join(char if char.isprintable() else repr(char)[1:-1] for char in text)
