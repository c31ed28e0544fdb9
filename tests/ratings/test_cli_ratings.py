"""``arbiter ratings`` on files: its JSON and CSV, its default mode on arbiter's own
records, and bad input answered in one located line with status 1."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from arbiter.service.cli.main import main

FIXTURES = Path(__file__).resolve().parents[2] / "samples" / "pletore" / "valid"
TOURNAMENT = Path(__file__).resolve().parents[2] / "samples" / "tournament"


def run(*args: str) -> tuple[int, str, str]:
    done = CliRunner().invoke(main, ["ratings", *args])
    return done.exit_code, done.stdout, done.stderr


def test_compat_json_on_abstractplay_downloads() -> None:
    downloads = sorted(str(p) for p in FIXTURES.glob("*abstractplay*.json")
                       if not p.name.endswith(".expected.json"))  # fmt: skip
    code, out, _ = run("--compat", "abstractplay", "--json", *downloads)
    assert code == 0
    document = json.loads(out)
    pool = document["pools"][0]
    assert pool["rated"] == len(downloads) == 3
    assert {p["elo"] for p in pool["players"]} == {1215, 1185}  # three first games


def test_default_mode_rates_official_results_by_name_and_board() -> None:
    code, out, err = run("--csv", str(TOURNAMENT))
    assert code == 0
    rows = out.splitlines()
    assert rows[0].startswith("pool,player,name,games")
    assert all(row.startswith("Pilo 6x6,player-") for row in rows[1:])
    assert "no-result" in err  # the unfinished games are said, not dropped


def test_bad_input_is_one_located_line_and_status_1(tmp_path: Path) -> None:
    broken = tmp_path / "broken.json"
    broken.write_text('[{"header": {"players": 3}}, {', encoding="utf-8")
    wrong = tmp_path / "wrong.json"
    wrong.write_text('{"header": {"game": {"name": "G"}, "site": {"name": "S"}, '
                     '"date-end": "2025-01-01", "players": 3}, "moves": []}')  # fmt: skip
    code, _, err = run("--compat", "abstractplay", str(broken), str(wrong),
                       str(tmp_path / "missing.json"))  # fmt: skip
    assert code == 1
    assert "Traceback" not in err
    assert f"{broken}: unreadable: not JSON:" in err
    assert f"{wrong}:record 0: unreadable: /header/players: not an array" in err
    assert "missing.json: cannot read" in err
