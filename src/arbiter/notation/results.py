"""A game's results as a record writes them: the canonical spelling of a claim, and why a
text is none of the game's results, with what was meant when that is certain
(``spec/grn.md``, "Results"; ``spec/hints.md``, "Text slips").

Both readers check a result through :func:`normalise_result` where they build the record
(:mod:`arbiter.notation.build`, and the GRN fast path :mod:`arbiter.notation.grn_scan`),
and the message of a result that is none of the game's is worded here for the record
builder, whichever notation it came from; the text slips (:mod:`arbiter.notation.slips`)
find a result written as other games write it. Kept apart from both, below them, so that
the builder need not import the slips, which import the GRN scanner built on the builder.
"""

from __future__ import annotations

from arbiter.notation.games import GameDescription
from arbiter.notation.limits import ascii_number

TERMINATIONS = ("R", "T", "F")


def normalise_result(text: str, spec: GameDescription) -> str | None:
    """The canonical spelling of a result string for ``spec``'s game, or None if it is not one.

    Colours are matched without regard to case; ``Black+R``, ``Orange+6``, ``White+3.5``,
    ``Red`` and ``*`` are examples (``spec/grn.md``, "Results")."""
    if text == "*":
        return text
    colour_text, plus, margin = text.partition("+")
    if not colour_text.isascii():
        return None
    colour = next((c for c in spec.colours if c.lower() == colour_text.lower()), None)
    if colour is None:
        return None
    if not plus:
        return colour  # the winner alone: a claim every game allows
    if margin.upper() in TERMINATIONS:
        return f"{colour}+{margin.upper()}"
    if not spec.scored:
        return None
    whole, dot, half = margin.partition(".")
    if not ascii_number(whole) or (whole != "0" and whole.startswith("0")):
        return None
    if dot and not (spec.half_points and half == "5"):
        return None
    return f"{colour}+{margin}"


def result_message(text: str, game: GameDescription) -> str:
    """Why ``text`` is not a result of ``game``: the forms the game's results take, and
    what was meant when that is certain (``Blue wins`` is ``Blue``)."""
    shown = repr(text if len(text) <= 40 else text[:37] + "...")
    meant = meant_result(text, game)
    forms = result_forms(game)
    guess = "" if meant is None else f"; did you mean {meant!r}?"
    return f"{shown} is not a result of {game.name}: write {forms}{guess}"


def result_forms(game: GameDescription) -> str:
    """The forms of ``game``'s results, in words, for a message."""
    first, second = game.colours
    margin = ""
    if game.scored:
        half = ", which may end in .5" if game.half_points else ""
        margin = f"{first}+N, {second}+N (N: the margin{half}), "
    return f"{margin}{first}, {second}, a colour with +R, +T or +F, or *"


_ENDINGS = {"resignation": "R", "time": "T", "forfeit": "F"}


def meant_result(text: str, game: GameDescription) -> str | None:
    """The result of ``game`` a result in words means, when it is certain: ``Blue wins``,
    ``Blue won by 5``, ``Blue wins on time``, ``Orange resigns``; None otherwise. The
    winner alone is a claim every game allows (``spec/grn.md`` §6)."""
    words = text.lower().split()
    colour = next((c for c in game.colours if words and c.lower() == words[0]), None)
    if colour is None or len(words) < 2:
        return None
    verb, rest = words[1], words[2:]
    if verb in ("resigns", "resigned", "forfeits", "forfeited", "loses", "lost") and not rest:
        ending = {"r": "+R", "f": "+F", "l": ""}[verb[0]]
        return _checked(f"{game.opponent(colour)}{ending}", game)
    if verb not in ("wins", "won", "win"):
        return None
    if not rest:
        return colour
    if len(rest) == 2 and rest[0] in ("by", "on") and rest[1] in _ENDINGS:
        return _checked(f"{colour}+{_ENDINGS[rest[1]]}", game)
    if rest[0] == "by" and len(rest) in (2, 3) and rest[2:] in ([], ["points"], ["point"]):
        return _checked(f"{colour}+{rest[1]}", game)
    return None


def _checked(claim: str, game: GameDescription) -> str | None:
    """``claim`` in canonical spelling, when it is a result of ``game``."""
    return normalise_result(claim, game)
