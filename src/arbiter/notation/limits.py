"""The bounds on every dimension of a record, in one place (``spec/grn.md`` section 9,
``spec/json.md`` section 8).

Both readers and the converter take their limits from here, so that what one notation
accepts the other can hold, and what ``convert`` writes the readers read back. Each limit
is checked before the work or the memory it bounds is spent: a record over a limit is
refused with an error of its own code (see :data:`CODES`), located where the limit was
crossed, and the records after it are still read.
"""

from __future__ import annotations

from collections.abc import Mapping

MAX_RECORD_BYTES = 1024 * 1024
"""Bytes of one record: a GRN record's text from its first line to the next record, or
the text of one JSON record object (an element of the array, or the whole file)."""

MAX_LINES = 100_000
"""Lines of one GRN record (blank lines included)."""

MAX_DIGITS = 9
"""Digits of any whole number a record writes: Size, Komi, a move number, a count of empty
squares in a Setup, a result's margin, a JSON number."""

MAX_KOMI = 1_000_000
"""The largest komi, either way: ``-1000000`` to ``1000000``."""

MAX_MOVES = 10_000
"""Turns of one record."""

MAX_TAGS = 256
"""Tags of one record, the required ones included."""

MAX_COMMENTS = 20_000
"""``{...}`` comments of one GRN record (several in a row count one each)."""

MAX_TEXT = 65_536
"""Characters of one comment, tag value, player name or Setup."""

MAX_JSON_DEPTH = 32
"""Nesting of JSON values in one record (a record nests five deep at most)."""

MAX_JSON_ITEMS = 10_000
"""Values of one JSON array (``moves`` may hold :data:`MAX_MOVES`, ``tags``
:data:`MAX_TAGS`)."""

MAX_JSON_MEMBERS = 64
"""Members of one JSON object (a record has nine fields at most)."""

MAX_JSON_VALUES = 200_000
"""Strings (keys included), arrays and objects of one JSON record: what it costs to find a
record's end in its source. A record of 10,000 moves with comments holds about 70,000."""

CODES: Mapping[str, str] = {
    "too-large": f"a record of more than {MAX_RECORD_BYTES} bytes",
    "too-many-lines": f"a GRN record of more than {MAX_LINES} lines",
    "too-many-digits": f"a whole number of more than {MAX_DIGITS} digits",
    "komi-out-of-range": f"a komi below -{MAX_KOMI} or above {MAX_KOMI}",
    "too-many-moves": f"more than {MAX_MOVES} turns",
    "too-many-tags": f"more than {MAX_TAGS} tags",
    "too-many-comments": f"more than {MAX_COMMENTS} comments",
    "too-long": f"a comment, tag value, player name or Setup of more than {MAX_TEXT} characters",
    "too-deep": f"JSON values nested more than {MAX_JSON_DEPTH} deep",
    "too-many-values": (
        f"a JSON array of more than {MAX_JSON_ITEMS} values, an object of more than "
        f"{MAX_JSON_MEMBERS} members, or a record of more than {MAX_JSON_VALUES} strings, "
        "arrays and objects"
    ),
}
"""Every limit's error code, and what crosses it (the spec's table, and the tests')."""

BLANK = " \t\r\n"
"""The white space of the notation: space, tab and the line breaks. Nothing else (no
no-break space, no other Unicode space) separates tokens or surrounds a value."""
BLANK_BYTES = BLANK.encode("ascii")
"""The same white space, in the bytes of a file."""
BOM = b"\xef\xbb\xbf"
"""UTF-8's byte-order mark, which a file may start with and the readers skip."""


def ascii_number(text: str) -> bool:
    """Whether ``text`` is a whole number in ASCII digits (``isdigit`` alone also takes
    other scripts' digits, such as ``٣``)."""
    return text.isascii() and text.isdigit()


def unreadable_written(text: str, fmt: str) -> str | None:
    """Why ``text``, one record as a writer wrote it (GRN, or an element of the JSON
    array), would be refused by its reader; None if it would be read back.

    Every other limit holds for a written record because it held when the record was read;
    these may not, since one notation takes more room than the other."""
    size = len(text.encode("utf-8", "surrogatepass"))
    if size > MAX_RECORD_BYTES:
        return f"it would take {size} bytes in {fmt.upper()}, more than {MAX_RECORD_BYTES}"
    if fmt == "grn" and text.count("\n") > MAX_LINES:
        return f"it would take more than {MAX_LINES} lines in GRN"
    return None
