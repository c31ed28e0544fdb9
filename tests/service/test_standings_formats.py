"""The standings' text formats (``spec/standings.md`` sections 7 to 9): the TRF file's
columns and its agreement with the records, CSV, the standalone HTML page, the table."""

from __future__ import annotations

import csv
import io
import re
from html.parser import HTMLParser
from typing import TypedDict

import pytest
from hypothesis import given, settings

from arbiter.adjudicator.standings import Adjudicated, standings
from arbiter.service.core.standings_formats import FormatError, render
from tests.adjudicator.tournament import Pairing, entries, entry, invalid, schedules
from tests.budget import examples

A, B, C, D = "player-a", "player-b", "player-c", "player-d"


def small() -> list[Adjudicated]:
    return [
        entry(1, A, B, A, margin=4, index=0),
        entry(1, C, D, D, how="forfeit", index=1),
        entry(2, D, A, A, how="resignation", index=2),
        entry(2, B, C, None, index=3),  # unfinished: B and C have no game in round 2
        invalid(index=4),
    ]


# --- TRF ----------------------------------------------------------------------------------


class TrfPlayer(TypedDict):
    """A player line of a TRF file, read by column."""

    name: str
    points: float
    rank: int
    rounds: list[tuple[str, str, str]]


def parse_trf(text: str) -> tuple[dict[str, str], dict[int, TrfPlayer]]:
    """The header lines by code, and the player lines by number, read by column (TRF-16:
    number 5-8, name 15-47, points 81-84, rank 86-89, rounds from 92 in blocks of 10)."""
    header: dict[str, str] = {}
    players: dict[int, TrfPlayer] = {}
    for line in text.splitlines():
        code = line[:3]
        if code != "001":
            header[code] = line[4:]
            continue
        assert (len(line) - 89) % 10 == 0 and line[89:91].strip() == "" or len(line) == 89
        blocks = [line[i : i + 10] for i in range(89, len(line), 10)]
        players[int(line[4:8])] = {
            "name": line[14:47].rstrip(),
            "points": float(line[80:84]),
            "rank": int(line[85:89]),
            "rounds": [(b[2:6], b[7], b[9]) for b in blocks],
        }
        assert all(b[:2] == "  " and b[6] == " " and b[8] == " " for b in blocks)
    return header, players


def test_trf_lines_and_columns() -> None:
    (table,) = standings(small())
    header, players = parse_trf(render([table], "trf"))
    assert header == {"012": "Club Cup (Pilo)", "062": "4", "XXR": "3"}
    by_name = {p["name"]: (n, p) for n, p in players.items()}
    assert sorted(by_name) == [A, B, C, D] and [by_name[x][0] for x in (A, B, C, D)] == [1, 2, 3, 4]
    a, b, c, d = (by_name[x][1] for x in (A, B, C, D))
    assert a["rounds"] == [("   2", "w", "1"), ("   4", "b", "1")]
    assert b["rounds"] == [("   1", "b", "0"), ("0000", "-", "Z")]
    assert c["rounds"] == [("   4", "w", "-"), ("0000", "-", "Z")]
    assert d["rounds"] == [("   3", "b", "+"), ("   1", "w", "0")]
    assert [p["points"] for p in (a, b, c, d)] == [2.0, 0.0, 0.0, 1.0]
    assert a["rank"] == 1 and d["rank"] == 2


def test_trf_total_rounds_and_its_limits() -> None:
    (table,) = standings(small())
    assert "XXR 9" in render([table], "trf", total_rounds=9)
    with pytest.raises(FormatError, match="below the rounds played"):
        render([table], "trf", total_rounds=1)
    two = standings([entry(1, A, B, A), entry(1, A, B, B, event="Other", index=1)])
    with pytest.raises(FormatError, match="holds one tournament"):
        render(two, "trf")
    with pytest.raises(FormatError, match="holds one tournament"):
        render(standings([invalid(event=None)]), "trf")
    many = [entry(n, A, f"player-{n}", A, index=n) for n in range(1, 101)]
    written = render(standings(many), "trf")  # 100 points keep the columns
    line = next(one for one in written.splitlines() if one.startswith("001") and A in one)
    assert line[80:84] == " 100" and line[85:89].strip() == "1"


def test_trf_keeps_a_line_when_a_name_has_a_line_break() -> None:
    (table,) = standings([entry(1, "player\na", B, B, event="Cup\nB")])
    text = render([table], "trf")
    assert len(text.splitlines()) == 5
    assert text.splitlines()[0] == "012 Cup B (Pilo)"


@settings(max_examples=examples(60), deadline=None)
@given(schedules(clean=False))
def test_trf_round_results_agree_with_the_records(games: list[Pairing]) -> None:
    items = entries(games)
    (table,) = standings(items)
    header, players = parse_trf(render([table], "trf"))
    number = {p["name"]: n for n, p in players.items()}
    assert header["062"] == str(len(players)) and header["XXR"] == str(table.rounds + 1)
    excluded = {e.index for e in table.excluded}
    expected: dict[tuple[str, int], tuple[str, str, str]] = {}
    for index, (record, report) in enumerate(items):
        if index in excluded:
            continue
        assert record is not None
        (first, a), (second, b) = record.players
        round_ = int(next(t.value for t in record.tags if t.name == "Round"))
        won = {a: report.winner_player == a, b: report.winner_player == b}
        for me, them, colour in ((a, b, "w"), (b, a, "b")):
            if report.termination == "forfeit":
                result = "+" if won[me] else "-"
            else:
                result = "1" if won[me] else "0"
            expected[(me, round_)] = (f"{number[them]:>4}", colour, result)
    for player in players.values():
        name = str(player["name"])
        rounds = player["rounds"]
        assert isinstance(rounds, list) and len(rounds) == table.rounds
        for n, block in enumerate(rounds, 1):
            assert block == expected.get((name, n), ("0000", "-", "Z"))
        # The score column is what a pairing program recomputes from the results.
        assert player["points"] == sum(1 for _, _, r in rounds if r in "1+")


# --- CSV, HTML, table ---------------------------------------------------------------------


def test_csv_has_one_row_per_player_with_the_crosstable() -> None:
    (table,) = standings(small())
    rows = list(csv.DictReader(io.StringIO(render([table], "csv"))))
    assert [row["player"] for row in rows] == [s.player for s in table.standings]
    first = rows[0]
    assert first["event"] == "Club Cup" and first["rank"] == "1" and first["points"] == "2"
    # D is 2nd (1 point); B 3rd, above C on Buchholz (A 2 against C's forfeit dummy 0).
    assert (first["round_1"], first["round_2"]) == ("3b1", "2o1")
    assert first["Buchholz"] == str(table.standings[0].tiebreak("buchholz")).removesuffix(".0")
    head = next(csv.reader(io.StringIO(render([table], "csv"))))
    assert len(head) == len(set(head))  # no two columns of one name (wins, Games won)
    b = next(row for row in rows if row["player"] == B)
    assert b["round_2"] == ""


class _Collect(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: list[str] = []
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)

    def handle_data(self, data: str) -> None:
        self.text.append(data)


def test_html_is_a_standalone_page_that_escapes_names() -> None:
    hostile = "<script>alert(1)</script>"
    items = small() + [entry(3, hostile, A, A, index=5)]
    (table,) = standings(items)
    page = render([table], "html")
    parsed = _Collect()
    parsed.feed(page)
    assert "script" not in parsed.tags and "link" not in parsed.tags
    assert not re.search(r"(src|href)=", page)
    assert hostile in "".join(parsed.text)
    assert parsed.tags.count("tr") == len(table.standings) + 1
    assert "Not counted (2)" in page and "unfinished" in page


def test_table_lists_the_standings_and_what_does_not_count() -> None:
    (table,) = standings(small())
    text = render([table], "table")
    lines = text.splitlines()
    assert lines[0] == "Club Cup (Pilo): 2 round(s), 4 player(s)"
    row = next(line for line in lines if line.split()[:2] == ["1", A])
    assert row.split()[-2:] == ["3b1", "2o1"]
    assert "not counted (2):" in lines
    assert any(line.strip().startswith("cup.grn #4: unfinished:") for line in lines)
    assert any("cup.grn #5: invalid: illegal-move at ply 3" in line for line in lines)


def test_json_text_is_the_document() -> None:
    import json

    tables = standings(small())
    assert json.loads(render(tables, "json")) == tables[0].to_dict()
