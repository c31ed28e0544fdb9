"""Write the pictures the README shows (``docs/*.svg``) from the samples.

Usage: ``python tools/docs_diagrams.py`` (rewrites docs/); ``--check`` only says whether
docs/ is up to date with the drawing code (exit status 1 if not), as the tests do.
"""

from __future__ import annotations

import sys
from pathlib import Path

import arbiter

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
PICTURES = {
    # file: (sample, ply, options)
    "pilo.svg": ("pilo/valid/01-club-ladder-8x8-swap.grn", 73, {}),
    "petrify.svg": ("petrify/invalid/04-barricade-7x7.grn", 26, {}),
    "implo.svg": ("implo/valid/01-club-ladder-8x8.grn", 45, {}),
    "pletore.svg": ("pletore/valid/01-ladder-9x9-button.grn", 44, {"control": True}),
    "pilare.svg": ("pilare/valid/club_ladder_6x6.grn", 12, {}),
}


def pictures() -> dict[str, str]:
    """Each picture of docs/ as the drawing code draws it now."""
    drawn = {}
    for name, (sample, ply, options) in PICTURES.items():
        record = next(iter(arbiter.read_records(ROOT / "samples" / sample)))
        assert isinstance(record, arbiter.Record), sample
        drawn[name] = arbiter.svg(record, ply=ply, **options)
    return drawn


def main() -> int:
    drawn = pictures()
    if "--check" in sys.argv[1:]:
        stale = [n for n, text in drawn.items() if _read(DOCS / n) != text]
        if stale:
            print(f"docs/ is out of date ({', '.join(stale)}): run python tools/docs_diagrams.py")
        return 1 if stale else 0
    DOCS.mkdir(exist_ok=True)
    for name, text in drawn.items():
        (DOCS / name).write_text(text, encoding="utf-8", newline="\n")
    return 0


def _read(path: Path) -> str | None:
    return path.read_text(encoding="utf-8") if path.exists() else None


if __name__ == "__main__":
    sys.exit(main())
