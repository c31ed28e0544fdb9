"""The pages' catalogues: extract every message, merge them into each language, compile.

``python tools/catalogues.py`` (``make catalogues``) extracts the messages of the web
folder's modules, templates and scripts as ``babel.cfg`` says (Babel's extractors; the
scripts' keyword is ``t``) into ``src/arbiter/service/web/translations/messages.pot``,
merges it into each language's ``messages.po`` (a message whose English changed comes back
fuzzy, to be checked; one no longer said is dropped) and compiles each. ``--init CODE``
starts the catalogue of a new language. The same as ``pybabel extract -F babel.cfg -k t -k
N_ -k pgettext:1c,2 ...``, ``pybabel update`` and ``pybabel compile``.
"""

from __future__ import annotations

import argparse
import io
import sys
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.pofile import read_po, write_po

from arbiter.service.web import catalogues

ROOT = Path(__file__).resolve().parents[1]
WEB = ROOT / "src" / "arbiter" / "service" / "web"

KEYWORDS = {**DEFAULT_KEYWORDS, "t": None, "N_": None, "pgettext": ((1, "c"), 2)}
"""gettext's usual names, the scripts' ``t`` and the marker ``N_``."""

HEADER = "The messages of arbiter's pages (templates, scripts and the web folder's modules)."


def extract() -> Catalog:
    """Every message of the sources, as ``babel.cfg`` maps them."""
    with (ROOT / "babel.cfg").open(encoding="utf-8") as handle:
        method_map, options_map = parse_mapping_cfg(handle)
    made = Catalog(project="arbiter", header_comment=f"# {HEADER}", fuzzy=False)
    found = extract_from_dir(str(ROOT), method_map, options_map, keywords=KEYWORDS,
                             comment_tags=("TRANSLATORS:",), strip_comment_tags=True)  # fmt: skip
    for path, line, message, comments, context in found:
        made.add(message, locations=[(path, line)], auto_comments=comments, context=context)
    return made


def written(catalogue: Catalog, **options: bool) -> bytes:
    out = io.BytesIO()
    write_po(out, catalogue, width=100, omit_header=False, **options)
    return out.getvalue()


def update(template: Catalog, code: str) -> None:
    """Merge ``template`` into the catalogue of ``code``."""
    path = catalogues.source(code)
    with path.open("rb") as handle:
        kept = read_po(handle, locale=code)
    kept.update(template, no_fuzzy_matching=False)
    path.write_bytes(written(kept, ignore_obsolete=True, include_previous=True))


def init(template: Catalog, code: str) -> None:
    """Start the catalogue of a new language ``code``, every message to translate."""
    path = catalogues.source(code)
    if path.exists():
        raise SystemExit(f"{path} exists already")
    made = Catalog(locale=code, project="arbiter", header_comment=f"# {HEADER}", fuzzy=False)
    made.update(template)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(written(made))


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--init", metavar="CODE", help="start the catalogue of a new language")
    args = parser.parse_args()
    template = extract()
    catalogues.TEMPLATE.write_bytes(written(template, sort_output=False))
    if args.init:
        init(template, args.init)
    for code in catalogues.languages():
        update(template, code)
    for made in catalogues.compile_all(WEB):
        print(made.relative_to(ROOT))
    return 0


if __name__ == "__main__":
    sys.exit(main())
