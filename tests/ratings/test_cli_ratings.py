"""``arbiter ratings`` on files: its JSON and CSV, its default mode on arbiter's own
records, and bad input answered in one located line with status 1."""

from __future__ import annotations

import json
import subprocess
import sys
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


def test_half_a_surrogate_pair_is_rated_in_compat_and_written_as_its_escape(
    tmp_path: Path,
) -> None:
    """Abstract Play reads a user id holding a lone surrogate (JavaScript strings may);
    the real command's UTF-8 output writes it as the escape JSON gives it, in all three
    forms, where it used to end in an encoding error."""
    download = FIXTURES / "08-abstractplay-11x11-pie-swapped.json"
    text = download.read_text(encoding="utf-8")
    record = json.loads(text)
    first = (record[0] if isinstance(record, list) else record)["header"]["players"][0]
    text = text.replace(json.dumps(first["userid"]), '"id\\ud800x"', 1)
    text = text.replace(json.dumps(first["name"]), '"na\\udfffme"', 1)
    odd = tmp_path / "odd.json"
    odd.write_text(text, encoding="utf-8")
    outputs = {}
    for form in ("--json", "--csv", "--quiet-table"):
        argv = [sys.executable, "-m", "arbiter", "ratings", "--compat", "abstractplay",
                str(odd)] + ([] if form == "--quiet-table" else [form])  # fmt: skip
        done = subprocess.run(argv, capture_output=True, check=False,
                              env={"PYTHONIOENCODING": "utf-8", "PATH": "/usr/bin"})  # fmt: skip
        assert done.returncode == 0, done.stderr
        outputs[form] = done.stdout.decode("utf-8")  # strict: no surrogate reached the bytes
    players = json.loads(outputs["--json"])["pools"][0]["players"]
    assert {p["player"] for p in players} >= {"id\ud800x"}
    assert {p["name"] for p in players} >= {"na\udfffme"}
    assert ",id\\ud800x,na\\udfffme," in outputs["--csv"]
    assert "na\\udfffme" in outputs["--quiet-table"]
    # the default mode does not rate such a record: its reader refuses the name
    done = subprocess.run([sys.executable, "-m", "arbiter", "ratings", str(odd)],
                          capture_output=True, check=False)  # fmt: skip
    assert done.returncode == 1
    assert b"lone surrogate" in done.stderr and b"Traceback" not in done.stderr
