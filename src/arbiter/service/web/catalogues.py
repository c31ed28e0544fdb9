"""The pages' message catalogues: where they are, and their compilation from ``.po`` to
``.mo`` (Babel's, as ``pybabel compile`` does it).

Each language but English has ``translations/<code>/LC_MESSAGES/messages.po`` beside this
file; ``translations/messages.pot`` holds every message the templates, the scripts and this
folder's modules say (``make catalogues`` extracts it and merges it into each ``.po``). The
wheel holds each catalogue compiled (``setup.py`` compiles them when it builds, and leaves
the ``.po`` out); a checkout compiles a ``.po`` when it is first needed, and again when it
changes, writing the ``.mo`` beside it where it can (``.gitignore`` keeps it out of git).

This module imports Babel only, nothing of arbiter or Flask: ``setup.py`` loads it by its
path to compile the catalogues of a wheel.
"""

from __future__ import annotations

import io
import os
from pathlib import Path

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

HERE = Path(__file__).resolve().parent
FOLDER = "translations"
DOMAIN = "messages"
TEMPLATE = HERE / FOLDER / f"{DOMAIN}.pot"
"""The catalogue template: every message, extracted from the sources."""


def source(code: str, root: Path = HERE) -> Path:
    """The ``.po`` of the language ``code`` (under the web folder ``root``)."""
    return root / FOLDER / code / "LC_MESSAGES" / f"{DOMAIN}.po"


def compiled_path(code: str, root: Path = HERE) -> Path:
    """The ``.mo`` of the language ``code`` (under the web folder ``root``)."""
    return source(code, root).with_suffix(".mo")


def languages(root: Path = HERE) -> list[str]:
    """The codes of the languages that have a catalogue (its ``.po``, or its ``.mo`` in a
    wheel), sorted."""
    found = {path.parents[1].name for path in (root / FOLDER).glob(f"*/LC_MESSAGES/{DOMAIN}.*")}
    return sorted(found)


def compile_po(po: Path) -> bytes:
    """The ``.mo`` of ``po``, as bytes. Fuzzy entries are left out, as ``pybabel compile``
    leaves them (a test keeps the catalogues free of them)."""
    with po.open("rb") as handle:
        catalogue = read_po(handle, domain=DOMAIN)
    out = io.BytesIO()
    write_mo(out, catalogue, use_fuzzy=False)
    return out.getvalue()


def compiled(code: str, root: Path = HERE) -> bytes | None:
    """The compiled catalogue of ``code``: its ``.mo`` when it is at least as new as its
    ``.po`` (or there is no ``.po``, as in a wheel), else the ``.po`` compiled now and
    written beside it when the folder can be written. None when the language has neither."""
    po, mo = source(code, root), compiled_path(code, root)
    if not po.is_file():
        return mo.read_bytes() if mo.is_file() else None
    if mo.is_file() and mo.stat().st_mtime >= po.stat().st_mtime:
        return mo.read_bytes()
    data = compile_po(po)
    _write(mo, data)
    return data


def _write(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` whole or not at all (two processes may compile at once);
    a folder that cannot be written is left as it is."""
    part = path.with_name(f".{path.name}.{os.getpid()}")
    try:
        part.write_bytes(data)
        os.replace(part, path)
    except OSError:
        part.unlink(missing_ok=True)


def compile_all(root: Path, into: Path | None = None) -> list[Path]:
    """Compile every ``.po`` under the web folder ``root`` to its ``.mo`` under ``into``
    (a web folder of a build; ``root`` itself by default). The ``.mo`` written."""
    made = []
    for po in sorted((root / FOLDER).glob(f"*/LC_MESSAGES/{DOMAIN}.po")):
        code = po.parents[1].name
        target = compiled_path(code, into or root)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(compile_po(po))
        made.append(target)
    return made
