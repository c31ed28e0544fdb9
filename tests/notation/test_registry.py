"""The notation knows the built-in games by itself, whatever is imported first, and importing
it loads no rules engine until a game is looked up (``notation/games.py``)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

FIRST_IMPORTS = {
    "the GRN reader": "from arbiter.notation.grn_reader import parse_grn_record as read\n"
    'record = read(\'[Game "Pilare"]\\n[Size "6"]\\n\\n*\')',
    "the registry": "from arbiter.notation.games import find_game\nrecord = find_game('pletore')",
    "the JSON schema": "from arbiter.notation.json_schema import record_schema\n"
    "record = record_schema()",
    "the JSON reader": "from arbiter.notation.json_reader import read_json\n"
    'record = list(read_json(\'{"game": "implo", "size": 5}\'))',
}


def run(code: str) -> dict[str, object]:
    """What a new process that runs ``code`` then reports on its imports and games."""
    report = (
        "import json, sys\n"
        "engines = sorted(m for m in sys.modules if m.startswith('arbiter.adjudicator'))\n"
        f"{code}\n"
        "from arbiter.notation.games import all_games\n"
        "print(json.dumps({'before': engines, 'games': [g.name for g in all_games()],\n"
        "                  'after': 'arbiter.adjudicator.pilare' in sys.modules}))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", f"import arbiter.notation\n{report}"],
        capture_output=True, text=True, check=True, cwd=ROOT,
    )  # fmt: skip
    answer: dict[str, object] = json.loads(done.stdout)
    return answer


@pytest.mark.parametrize("first", FIRST_IMPORTS)
def test_the_games_are_known_whatever_is_imported_first(first: str) -> None:
    answer = run(FIRST_IMPORTS[first])
    assert answer["before"] == []  # importing the notation loaded no engine
    assert answer["games"] == ["Pilo", "Petrify", "Implo", "Pletore", "Pilare"]
    assert answer["after"] is True  # the first lookup did


def test_importing_the_notation_loads_no_engine() -> None:
    code = (
        "import sys, arbiter, arbiter.notation.grn_reader, arbiter.notation.json_writer\n"
        "print([m for m in sys.modules if m.startswith('arbiter.adjudicator')])"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True, cwd=ROOT)  # fmt: skip
    assert done.stdout.strip() == "[]"
