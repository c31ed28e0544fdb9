"""The standings' text formats (``spec/standings.md`` sections 7 to 9): the TRF file's
columns and its agreement with the records, CSV, the standalone HTML page, the table."""

from __future__ import annotations

import csv
import io
import os
import re
import subprocess
from html.parser import HTMLParser
from pathlib import Path
from typing import TypedDict

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arbiter.adjudicator.standings import (
    Adjudicated,
    BoardResult,
    ByeRound,
    EventStandings,
    paired_standings,
    standings,
)
from arbiter.adjudicator.tiebreaks import name_key
from arbiter.pairing import read_trf
from arbiter.pairing.trf import read_ranks
from arbiter.pairing.values import RESULT_POINTS
from arbiter.service.core.standings_formats import FormatError, render, trf_text
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
    """The header lines by code, and the player lines by number, read by column (TRF-2026:
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
    assert header == {"012": "Club Cup (Pilo)", "062": "4", "142": "3", "XXR": "3"}
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
    assert len(text.splitlines()) == 6
    assert text.splitlines()[0] == "012 Cup B (Pilo)"


@settings(max_examples=examples(60), deadline=None)
@given(schedules(clean=False))
def test_trf_round_results_agree_with_the_records(games: list[Pairing]) -> None:
    items = entries(games)
    (table,) = standings(items)
    header, players = parse_trf(render([table], "trf"))
    number = {p["name"]: n for n, p in players.items()}
    assert header["062"] == str(len(players))
    assert header["142"] == header["XXR"] == str(table.rounds + 1)
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


# --- TRF read back ------------------------------------------------------------------------

NAMES = ["Ann", "ann", "Bo", "Cid", "dee", "Émile", "Zoë", "x" * 40]
"""A paired event's players: two that differ only in case, letters beyond ASCII, and a
name longer than TRF's 33 columns (cut; compared as cut)."""


@st.composite
def paired_tables(draw: st.DrawFn) -> EventStandings:
    """A paired event's standings: each round some players absent (nothing), some with a
    bye they asked for, the others paired, the odd one out given the pairing's bye, worth
    the event's bye points; games won, lost, forfeited, or double forfeits."""
    players = draw(st.lists(st.sampled_from(NAMES), min_size=2, max_size=8, unique=True))
    bye_points = draw(st.sampled_from([1.0, 0.5, 0.0]))
    boards: list[BoardResult] = []
    byes: list[ByeRound] = []
    for round_ in range(1, draw(st.integers(1, 5)) + 1):
        order = draw(st.permutations(players))
        absent = draw(st.integers(0, len(order) // 3))
        asked = draw(st.integers(0, (len(order) - absent) // 3))
        for name in order[absent : absent + asked]:
            kind = draw(st.sampled_from(["half", "full", "zero"]))
            byes.append(ByeRound(round_, name, kind, {"half": 0.5, "full": 1.0}.get(kind, 0.0)))
        playing = order[absent + asked :]
        if len(playing) % 2:
            byes.append(ByeRound(round_, playing[-1], "pairing", bye_points))
        for first, second in zip(playing[0:-1:2], playing[1::2], strict=False):
            how = draw(st.sampled_from(["rules", "resignation", "forfeit", "double forfeit"]))
            winner = None if how == "double forfeit" else draw(st.sampled_from([first, second]))
            termination = "forfeit" if how == "double forfeit" else how
            boards.append(BoardResult(round_, first, second, winner, termination))
    tiebreaks = draw(st.sampled_from(["", "buchholz", "wins,direct", "sonneborn-berger"]))
    return paired_standings("Club \nSwiss", "Pilo", players, boards, byes, tiebreaks=tiebreaks)


def assert_read_back(table: EventStandings, text: str) -> None:
    """``text``, the TRF of ``table``, read back by the pairing library's reader: the same
    players (numbered by name), each round's game or bye, the points and the ranks."""
    again = read_trf(text)
    names = sorted((line.player for line in table.standings), key=name_key)
    number = {name: n for n, name in enumerate(names, 1)}
    assert [(p.number, p.name) for p in again.players] == [
        (number[name], name[:33]) for name in names
    ]
    assert again.rounds_planned == table.rounds + 1
    games = {(g.round, n): g for g in again.games for n in (g.first, g.second)}
    byes = {(b.round, b.player): b for b in again.byes}
    assert len(games) + len(byes) == len(names) * table.rounds  # nothing else
    for line in table.standings:
        me = number[line.player]
        assert again.points(me) == line.points
        for round_, result in enumerate(line.results, 1):
            if result is None:  # no counted game: a zero-point bye
                assert (byes[(round_, me)].kind, byes[(round_, me)].points) == ("zero", 0.0)
            elif result.bye is not None:
                bye = byes[(round_, me)]
                assert (bye.kind, bye.points) == (result.bye, result.bye_points)
            else:
                game = games[(round_, me)]
                seats = (game.first, game.second) if result.first else (game.second, game.first)
                assert seats == (me, number[result.opponent]) and game.result is not None
                side = 0 if result.first else 1
                assert RESULT_POINTS[game.result][side] == result.points
                assert game.played == (not result.forfeit)
    assert read_ranks(text) == {number[line.player]: line.rank for line in table.standings}


@settings(max_examples=examples(60), deadline=None)
@given(schedules(clean=False))
def test_the_trf_of_records_reads_back_as_the_standings(games: list[Pairing]) -> None:
    (table,) = standings(entries(games))
    assert_read_back(table, render([table], "trf"))


@settings(max_examples=examples(80), deadline=None)
@given(paired_tables())
def test_the_trf_of_a_paired_table_reads_back_as_its_standings(table: EventStandings) -> None:
    text = trf_text(table, comments=["### a correction"])
    assert_read_back(table, text)
    worth = {
        r.bye_points for line in table.standings for r in line.results if r and r.bye == "pairing"
    }  # the pairing's bye is worth the same to all: record 162 says what when it is not a win
    assert read_trf(text).bye_points == (worth.pop() if worth else 1.0)


def test_the_trf_plans_at_most_999_rounds() -> None:
    (table,) = standings([entry(999, A, B, A)])
    header, players = parse_trf(render([table], "trf"))
    assert header["142"] == header["XXR"] == "999" and len(players[1]["rounds"]) == 999
    with pytest.raises(FormatError, match="at most 999 rounds"):
        render([table], "trf", total_rounds=1000)


def test_a_table_trf_cannot_hold_is_refused() -> None:
    boards = [BoardResult(1, "A", "B", "A", "rules")]
    two_worths = [ByeRound(1, "C", "pairing", 1.0), ByeRound(2, "C", "pairing", 0.5)]
    with pytest.raises(FormatError, match="worth different points"):
        trf_text(paired_standings("E", "Pilo", ["A", "B", "C"], boards, two_worths))
    lost_by_both = [BoardResult(1, "A", "B", None, "rules")]
    with pytest.raises(FormatError, match="not one game's"):
        trf_text(paired_standings("E", "Pilo", ["A", "B"], lost_by_both))
    half_worth_one = [ByeRound(1, "A", "half", 1.0)]
    with pytest.raises(FormatError, match="not one tournament's"):
        trf_text(paired_standings("E", "Pilo", ["A", "B"], [], half_worth_one))


BBP = os.environ.get("ARBITER_BBP")


@pytest.mark.skipif(not BBP, reason="ARBITER_BBP does not name bbpPairings' binary")
def test_bbppairings_pairs_the_next_round_from_the_standings_trf(tmp_path: Path) -> None:
    assert BBP is not None
    (table,) = standings(small())
    path = tmp_path / "standings.trf"
    path.write_text(render([table], "trf", total_rounds=4), encoding="utf-8")
    done = subprocess.run([BBP, "--dutch", str(path), "-p"], capture_output=True, text=True)
    assert done.returncode == 0 and done.stdout.splitlines()[0] == "2", done.stdout


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
