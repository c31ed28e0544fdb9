"""The sample event, ``samples/tournament/``: real records of four rounds of Pilo read and
adjudicated as the CLI does, with a pie swap, a resignation, a forfeit, an unfinished game,
a second record of a pairing, an invalid record, and records without an Event or a name.

Each record that must not count says so in its comment (``Not counted: <reason>``); the
test reads those statements independently of the standings code.
"""

from __future__ import annotations

import re
from pathlib import Path

import arbiter
from arbiter.adjudicator.standings import Adjudicated, EventStandings, standings
from arbiter.service.core.batch import adjudicated_source

FOLDER = Path(__file__).resolve().parents[2] / "samples" / "tournament"
STATED = re.compile(r"Not counted: ([a-z-]+)\.")


def sample() -> list[Adjudicated]:
    items: list[Adjudicated] = []
    for path in sorted(FOLDER.iterdir()):
        with path.open("rb") as stream:
            items.extend(adjudicated_source(stream, file=path.name))
    return items


def table() -> EventStandings:
    (only,) = standings(sample())
    return only


def test_every_record_counts_or_is_listed_with_the_reason_it_states() -> None:
    stated = []
    for record, report in sample():
        assert record is not None  # every sample record reads
        match = STATED.search(record.comment or "")
        if match:
            stated.append((report.file, report.index, match.group(1)))
    excluded = [(e.file, e.index, e.reason) for e in table().excluded]
    assert excluded == stated
    assert {reason for *_, reason in stated} == {
        "unfinished",
        "duplicate-pairing",
        "invalid",
        "no-event",
        "no-players",
    }


def test_the_sample_shows_a_swap_a_resignation_and_a_forfeit() -> None:
    reports = [report for _, report in sample()]
    assert any(r.swapped and r.valid for r in reports)
    excluded = {(e.file, e.index) for e in table().excluded}
    ends = {r.termination for r in reports if (r.file, r.index) not in excluded}
    assert ends == {"rules", "resignation", "forfeit"}


def test_points_are_the_wins_the_reports_name() -> None:
    excluded = {(e.file, e.index) for e in table().excluded}
    wins: dict[str, int] = {}
    for record, report in sample():
        if (report.file, report.index) in excluded or record is None:
            continue
        for _, name in record.players:
            wins.setdefault(name, 0)
        assert report.winner_player is not None
        wins[report.winner_player] += 1
    assert {s.player: s.points for s in table().standings} == wins


def test_the_sample_standings_worked_out_by_hand() -> None:
    # Counted games (01..06 = player-01..06):
    #   round 1: 01 beats 04, 02 beats 05, 06 beats 03
    #   round 2: 01 beats 02 (02 swapped), 06 beats 05, 04 beats 03
    #   round 3: 01 beats 06, 02 beats 04, 05 beats 03 by forfeit
    #   round 4: 03 beats 04, 02 beats 06 (06 resigned); 01-05 unfinished, not counted
    # Points: 01 3, 02 3, 06 2, 03 1, 04 1, 05 1.
    # Adjusted scores: 01 has no game in round 4, the last: 3.5; 05 the same (its forfeit
    # win in round 3 is not a voluntary absence): 1.5; the others their points.
    # Buchholz (absence dummy: own score, at most 0.5 x 4 rounds = 2):
    #   01: 04 1 + 02 3 + 06 2 + dummy 2      = 8
    #   02: 05 1.5 + 01 3.5 + 04 1 + 06 2     = 8
    #   06: 03 1 + 05 1.5 + 01 3.5 + 02 3     = 9
    #   04: 01 3.5 + 03 1 + 02 3 + 03 1       = 8.5
    #   05: 02 3 + 06 2 + forfeit dummy min(1, 03's 1) + absence dummy min(1, 2) = 7
    #   03: 06 2 + 04 1 + forfeit dummy min(1, 05's 1.5) + 04 1 = 5
    # Sonneborn-Berger: 01 = 1 + 3 + 2 = 6; 02 = 1.5 + 1 + 2 = 4.5; 06 = 1 + 1.5 = 2.5;
    # 04 = 1; 05 = its forfeit win's dummy 1; 03 = 1.
    # 01 and 02 tie on points and Buchholz; 01 has the higher Sonneborn-Berger.
    lines = table().standings
    assert [s.player[-2:] for s in lines] == ["01", "02", "06", "04", "05", "03"]
    assert [s.points for s in lines] == [3, 3, 2, 1, 1, 1]
    assert [s.tiebreak("buchholz") for s in lines] == [8, 8, 9, 8.5, 7, 5]
    assert [s.tiebreak("sonneborn-berger") for s in lines] == [6, 4.5, 2.5, 1, 1, 1]
    assert table().rounds == 4


def test_the_readme_reads_the_sample_the_same_way() -> None:
    # The library's own reader and adjudicator, as a programmer would call them.
    items = []
    for path in sorted(FOLDER.iterdir()):
        for item in arbiter.read_records(path):
            assert isinstance(item, arbiter.Record)
            items.append((item, arbiter.adjudicate(item, file=path.name)))
    assert standings(items) == [table()]
