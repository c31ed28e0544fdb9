"""Players' names as people write them (``spec/pairings.md`` §8): the same player is
``Ana Ruiz`` on the desk, ``ana ruiz`` on one scoresheet, ``Ruiz, Ana`` on another and
``Ilic`` for ``Ilić`` on a third. A record finds its board by its names compared after
folding case, spacing, accents and the ``Surname, Given`` order (:func:`name_key`), and says
what was folded (:func:`folded_words`); a record that fits no board is answered with the
boards whose players' names come closest (:func:`likeness`).

Plain functions of text: no database, no face.
"""

from __future__ import annotations

import unicodedata
from difflib import SequenceMatcher

__all__ = [
    "FOLDS",
    "UnsafeName",
    "folded_words",
    "likeness",
    "name_key",
    "plain_name",
    "shown_name",
]

_UNDECOMPOSED = str.maketrans(
    {"ø": "o", "đ": "d", "ł": "l", "ħ": "h", "ı": "i", "ŧ": "t", "æ": "ae", "œ": "oe",
     "þ": "th", "ð": "d"}
)  # fmt: skip
"""Letters that Unicode does not write as a base letter and an accent (so that taking the
accents away leaves them as they are), and the letters people type for them."""


class UnsafeName(ValueError):
    """A name holding a character that would make it show as something else: a control
    character (which a terminal obeys, and a CSV or a table shows raw) or a direction
    override (which shows the name's letters in another order). ``what`` says which."""

    def __init__(self, what: str) -> None:
        super().__init__(what)
        self.what = what


_BIDI = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c")
"""The characters that change the direction text is shown in: embeddings, overrides,
isolates and marks."""
_INVISIBLE = frozenset("\u200b\u2060\ufeff\u180e")
"""Characters that show nothing: taken out of a name."""
_JOINERS = frozenset("\u200c\u200d")
"""The zero-width non-joiner and joiner: kept between two letters of a script that writes
with them (Persian, the Indic scripts), taken out anywhere else."""


def shown_name(name: str) -> str:
    """``name`` as it may be kept and shown: without the characters that show nothing
    (zero-width spaces, word joiners; a joiner kept only between two letters of a script
    that writes with it); raises :class:`UnsafeName` for a control character (C0, DEL, C1)
    or a direction override, embedding, isolate or mark."""
    kept = []
    for at, char in enumerate(name):
        code = ord(char)
        if code < 0x20 and char not in "\t\n\r\v\f" or 0x7F <= code <= 0x9F:
            raise UnsafeName(f"a control character (U+{code:04X})")
        if char in _BIDI:
            raise UnsafeName(f"a character that changes the direction of the text (U+{code:04X})")
        if char in _INVISIBLE:
            continue
        if char in _JOINERS:
            before, after = name[at - 1 : at], name[at + 1 : at + 2]
            if not (_scripted(before) and _scripted(after)):
                continue
        kept.append(char)
    return "".join(kept)


def _scripted(char: str) -> bool:
    return bool(char) and not char.isascii() and unicodedata.category(char).startswith(("L", "M"))


def plain_name(name: str) -> str:
    """``name`` with its runs of white space made one space, and none at either end: how a
    name is kept, and compared exactly."""
    return " ".join(name.split())


def _given_first(name: str) -> str:
    """``Ruiz, Ana`` as ``Ana Ruiz``: a name with one comma, a word or more on each side, is
    the ``Surname, Given`` order of lists and scoresheets."""
    surname, comma, given = name.partition(",")
    if comma and "," not in given and surname.strip() and given.strip():
        return f"{given.strip()} {surname.strip()}"
    return name


def _unaccented(text: str) -> str:
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(c for c in decomposed if not unicodedata.combining(c)).translate(_UNDECOMPOSED)


def _folded(
    name: str, *, order: bool = True, case: bool = True, accents: bool = True, spacing: bool = True
) -> str:
    """``name`` with the folds asked for made."""
    if order:
        name = _given_first(name)
    if case:
        name = name.casefold()
    if accents:
        name = _unaccented(name)
    return plain_name(name) if spacing else name


def name_key(name: str) -> str:
    """A name as it is compared for likeness: in the ``Given Surname`` order, in lower case,
    without accents (``Ilić`` is ``ilic``, ``Søren`` is ``soren``) and without the characters
    that show nothing, its runs of white space one space. Two names with one key are the
    same name written two ways."""
    return _folded("".join(c for c in name if c not in _INVISIBLE and c not in _JOINERS))


FOLDS = {
    "order": "the order Surname, Given",
    "case": "case",
    "accents": "accents",
    "spacing": "spacing",
}
"""The folds of :func:`name_key`, and their words."""


def folded_words(written: str, known: str) -> str:
    """What :func:`name_key` folds to find ``known`` (a player's name) in ``written`` (a
    name in a record), in words: each fold without which the two would differ
    (``case and accents``); empty when the two are the same text."""
    if written == known:
        return ""
    needed = [
        words
        for fold, words in FOLDS.items()
        if _folded(written, **{fold: False}) != _folded(known, **{fold: False})
    ]
    return ", ".join(needed[:-1]) + " and " + needed[-1] if len(needed) > 1 else "".join(needed)


def likeness(written: str, known: str) -> float:
    """How alike two names are, from 0 (nothing alike) to 1 (one name written two ways), on
    their folded forms: what ranks the boards a record that fits none may belong to."""
    a, b = name_key(written), name_key(known)
    if a == b:
        return 1.0
    if not a or not b:
        return 0.0
    return SequenceMatcher(None, a, b, autojunk=False).ratio()
