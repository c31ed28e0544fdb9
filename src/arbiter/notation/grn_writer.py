"""Writing records as canonical GRN (``spec/grn.md``, section "Canonical form").

The writer is the inverse of :func:`notation.grn_reader.parse_grn_record` on canonical text:
``write_record(parse_grn_record(text)) == text`` for canonical ``text``, and
``parse_grn_record(write_record(record)) == record`` for every record.
"""

from __future__ import annotations

from collections.abc import Iterable

from arbiter.notation.ast import Record
from arbiter.notation.games import find_game

LINE_WIDTH = 79


def write_grn(records: Record | Iterable[Record]) -> str:
    """Canonical GRN text: of one record when given a :class:`Record`, else of every record
    of the iterable, one after another with an empty line between two records. Either way
    the text ends with one LF (an empty iterable gives the empty string)."""
    if isinstance(records, Record):
        return write_record(records)
    return "\n".join(write_record(record) for record in records)


def write_record(record: Record) -> str:
    """One record: tag section, blank line, movetext ending with the result, final LF."""
    return "\n".join(_tag_lines(record)) + "\n\n" + _movetext(record) + "\n"


def _tag_lines(record: Record) -> list[str]:
    spec = find_game(record.game)
    pairs: list[tuple[str, str]] = [("Game", record.game), ("Size", str(record.size))]
    if record.komi is not None:
        pairs.append(("Komi", str(record.komi)))
    if record.setup is not None:
        pairs.append(("Setup", record.setup))
    pairs.extend((tag.name, tag.value) for tag in record.tags)
    players = dict(record.players)
    pairs.extend((colour, players[colour]) for colour in spec.colours if colour in players)
    pairs.append(("Result", record.result))
    return [f'[{name} "{_escape(value)}"]' for name, value in pairs]


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"')


def _movetext(record: Record) -> str:
    words: list[str] = []
    if record.comment is not None:
        words.append(f"{{{record.comment}}}")
    for ply, turn in enumerate(record.turns, 1):
        if ply % 2:
            words.append(f"{(ply + 1) // 2}.")
        words.append(str(turn.move))
        if turn.comment is not None:
            words.append(f"{{{turn.comment}}}")
    words.append(record.result)
    return _wrap(words)


def _wrap(words: list[str]) -> str:
    """Join words with spaces, breaking lines before LINE_WIDTH; a move number stays with its
    move, so no line ends with ``N.``."""
    lines: list[str] = []
    current = ""
    for i, word in enumerate(words):
        glued = word
        if word.endswith(".") and i + 1 < len(words):
            continue
        if i and words[i - 1].endswith(".") and words[i - 1][:-1].isdigit():
            glued = f"{words[i - 1]} {word}"
        if current and len(current) + 1 + len(glued) > LINE_WIDTH:
            lines.append(current)
            current = glued
        else:
            current = f"{current} {glued}" if current else glued
    if current:
        lines.append(current)
    return "\n".join(lines)
