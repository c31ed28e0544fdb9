"""Standings of a paired event: boards and byes instead of records grouped by their tags
(spec/standings.md §3-4, spec/pairings.md). Every figure below is worked out by hand from
FIDE C.07 (articles 8.1, 9.1, 16.3, 16.4) as spec/standings.md reads it."""

from __future__ import annotations

import pytest

from arbiter.adjudicator.standings import (
    BoardResult,
    ByeRound,
    EventStandings,
    LeftOutPlayer,
    paired_standings,
)
from arbiter.adjudicator.tiebreaks import adjusted_score, bye_result
from arbiter.service.core.standings_formats import csv_text, table_text, trf_text

PLAYERS = ["A", "B", "C", "D", "E"]
BOARDS = [
    BoardResult(1, "A", "B", "A", "rules", 4),
    BoardResult(1, "C", "D", "C", "resignation"),
    BoardResult(2, "A", "C", "A", "rules", 2),
    BoardResult(2, "E", "B", "E", "time"),
    BoardResult(3, "A", "E", "E", "rules", 1),
    BoardResult(3, "B", "D", "B", "forfeit"),
]
BYES = [
    ByeRound(1, "E", "pairing", 1),
    ByeRound(2, "D", "half", 0.5),
    ByeRound(3, "C", "zero", 0),
]


@pytest.fixture
def table() -> EventStandings:
    return paired_standings("Club Swiss", "Pilo", PLAYERS, BOARDS, BYES)


def test_points_count_byes_at_their_worth(table: EventStandings) -> None:
    points = {line.player: line.points for line in table.standings}
    assert points == {"A": 2, "B": 1, "C": 1, "D": 0.5, "E": 3}
    assert [line.player for line in table.standings] == ["E", "A", "B", "C", "D"]
    assert table.rounds == 3


def test_games_and_wins_leave_byes_and_forfeits_out(table: EventStandings) -> None:
    line = {s.player: s for s in table.standings}
    assert (line["E"].games, line["E"].played, line["E"].wins) == (2, 2, 2)
    assert (line["B"].games, line["B"].forfeit_wins, line["B"].tiebreak("wins")) == (3, 1, 0)
    assert (line["D"].games, line["D"].forfeit_losses) == (2, 1)


def test_buchholz_counts_a_dummy_for_every_round_without_an_opponent(table: EventStandings) -> None:
    buchholz = {s.player: s.tiebreak("buchholz") for s in table.standings}
    # E's bye: min(own 3, half a point a round, 1.5); D's half-point bye: min(0.5, 1.5);
    # C's zero bye: min(1, 1.5); B's forfeit: min(own 1, D's adjusted 0.5).
    assert buchholz == {"A": 5.5, "B": 5.5, "C": 3.5, "D": 2.5, "E": 4.5}


def test_sonneborn_berger_weighs_a_bye_s_dummy_by_the_bye_s_points(table: EventStandings) -> None:
    sb = {s.player: s.tiebreak("sonneborn-berger") for s in table.standings}
    assert sb == {"A": 2.5, "B": 0.5, "C": 0.5, "D": 0.25, "E": 4.5}


def test_a_late_voluntary_bye_counts_as_a_draw_for_the_opponents() -> None:
    # C wins round 1, loses round 2, then takes a zero bye in round 3, the last.
    boards = [BoardResult(1, "C", "D", "C", "rules"), BoardResult(2, "A", "C", "A", "rules")]
    table = paired_standings("E", "Pilo", ["A", "C", "D"], boards, [ByeRound(3, "C", "zero", 0)])
    results = {s.player: s for s in table.standings}["C"].results
    assert adjusted_score({n: r for n, r in enumerate(results, 1) if r}, 3) == 1.5


def test_a_pairing_bye_keeps_the_player_available() -> None:
    # A bye given by the pairing is no choice of the player's: it is counted as what it
    # gave, and a later absence is what makes the rounds after it count as draws.
    own = {1: bye_result(1, "pairing", 1.0)}
    assert adjusted_score(own, 1) == 1
    assert adjusted_score({1: bye_result(1, "half", 0.5)}, 1) == 0.5
    assert adjusted_score({1: bye_result(1, "zero", 0.0)}, 2) == 1.0


def test_a_double_forfeit_is_a_loss_for_both_not_played() -> None:
    table = paired_standings("E", "Implo", ["A", "B"], [BoardResult(1, "A", "B", None, "forfeit")])
    for line in table.standings:
        assert (line.points, line.games, line.played, line.forfeit_losses) == (0, 1, 0, 1)


def test_two_results_in_one_round_are_refused() -> None:
    with pytest.raises(ValueError, match="two results in round 1"):
        paired_standings("E", "Pilo", ["A", "B", "C"], [BoardResult(1, "A", "B", "A", "rules")],
                         [ByeRound(1, "A", "pairing", 1)])  # fmt: skip


def test_an_unknown_bye_is_refused() -> None:
    with pytest.raises(ValueError, match="is not a bye"):
        bye_result(1, "holiday", 1)


def test_the_formats_write_byes_as_trf_does(table: EventStandings) -> None:
    trf = trf_text(table, total_rounds=5).splitlines()
    line = {row[14:47].strip(): row for row in trf if row.startswith("001")}
    assert line["E"][91:99] == "0000 - U"
    assert "  0000 - U" in line["E"] and "  0000 - H" in line["D"] and "  0000 - Z" in line["C"]
    assert line["D"][80:84] == " 0.5" and line["E"][80:84] == " 3.0"
    rows = {row.split(",")[3]: row.split(",") for row in csv_text([table]).splitlines()[1:]}
    assert rows["E"][-3:] == ["U", "3b1", "2o1"] and rows["D"][4] == "0.5"
    assert "U" in table_text([table])


def test_the_json_crosstable_names_the_bye(table: EventStandings) -> None:
    rows = {row["player"]: row for row in table.to_dict()["crosstable"]}
    assert rows["E"]["results"][0] == {"round": 1, "bye": "pairing", "points": 1, "result": "U"}
    assert rows["D"]["results"][1]["points"] == 0.5
    assert table.to_dict()["standings"][-1]["points"] == 0.5


def test_a_player_left_out_counts_for_nobody() -> None:
    """D is left out (a round robin left early, spec/standings.md §3): D's boards and byes
    count for nobody, D is not ranked, and the table says why, in its JSON and its notes.
    By hand, without D: C has no game in round 1 (its win over D is gone) and wins none;
    B's forfeit win over D in round 3 is gone, so B has 0; A 2, E 3 as before."""
    gone = LeftOutPlayer("D", 2, 1, 4)
    table = paired_standings("Club", "Pilo", PLAYERS, BOARDS, BYES, left_out=[gone])
    points = {line.player: line.points for line in table.standings}
    assert points == {"A": 2, "B": 0, "C": 0, "E": 3}
    line = {s.player: s for s in table.standings}
    assert (line["C"].games, line["B"].forfeit_wins) == (1, 0)
    assert table.to_dict()["left_out"] == [
        {"player": "D", "withdrew_from": 2, "played": 1, "games": 4}
    ]
    assert table.warnings[0].startswith("D withdrew from round 2 having played 1 of 4 games")
    assert "D withdrew from round 2 having played 1 of 4 games" in table_text([table])
    plain = paired_standings("Club", "Pilo", PLAYERS, BOARDS, BYES)
    assert plain.to_dict()["left_out"] == [] and len(plain.standings) == 5


def test_a_player_who_withdrew_is_marked_on_their_line() -> None:
    """A Swiss keeps a withdrawn player ranked, with their points; their line says from
    which round they withdrew, and only theirs."""
    table = paired_standings("Club", "Pilo", PLAYERS, BOARDS, BYES, withdrawn={"C": 3})
    lines = {s.player: s for s in table.standings}
    assert lines["C"].withdrew_from == 3 and lines["C"].points == 1
    assert [s.to_dict().get("withdrew_from") for s in table.standings] == [
        3 if s.player == "C" else None for s in table.standings
    ]
    assert "withdrew_from" not in lines["A"].to_dict()
