"""What the notation knows of each game: names, colours, sizes, move forms, setup letters.

See ``spec/grn.md`` sections "Games" and "Position notation". The rules of play live in
:mod:`adjudicator`; this table is only what a record can say without replaying it.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class GameSpec:
    """Static facts about one game's records."""

    name: str
    colours: tuple[str, str]  # first player's colour first
    sizes: tuple[int, ...]
    move_types: frozenset[str]  # JSON "type" values the game allows
    pieces: str  # letters allowed in the Setup tag, one per piece, bottom to top
    scored: bool  # results carry a points margin ("Orange+6") rather than a bare colour
    komi: bool = False  # the Komi tag is required (and allowed only then)
    resolve: bool = False  # placements carry Implo resolution steps
    half_points: bool = False  # margins may end in .5
    swap: bool = False

    @property
    def max_size(self) -> int:
        return max(self.sizes)


RANGE = tuple(range(3, 20))

GAMES: dict[str, GameSpec] = {
    spec.name.lower(): spec
    for spec in (
        GameSpec("Pilo", ("Blue", "Orange"), RANGE,
                 frozenset({"place", "move", "pass", "swap"}), "box", scored=True, swap=True),
        GameSpec("Petrify", ("Blue", "Orange"), RANGE,
                 frozenset({"place", "move", "pass", "swap"}), "box", scored=True, swap=True),
        GameSpec("Implo", ("Black", "White"), RANGE,
                 frozenset({"place", "swap"}), "bwBW", scored=False, resolve=True, swap=True),
        GameSpec("Pletore", ("Black", "White"), RANGE,
                 frozenset({"place", "flip", "pass", "button"}), "bw", scored=True,
                 komi=True, half_points=True),
        GameSpec("Pilare", ("Red", "Black"), (6, 8),
                 frozenset({"sow"}), "rbn", scored=False),
    )
}


def find_game(name: str) -> GameSpec:
    """Look a game up by name, ignoring case. Raises ``KeyError`` listing the known names."""
    try:
        return GAMES[name.strip().lower()]
    except KeyError:
        known = ", ".join(spec.name for spec in GAMES.values())
        raise KeyError(f"unknown game {name!r}; known games: {known}") from None
