"""Standings and tie-breaks (``spec/standings.md``): a small tournament worked out by hand,
each reason a record does not count, grouping, direct encounter, and properties over
generated tournaments."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arbiter.adjudicator.standings import (
    Adjudicated,
    EventStandings,
    Standing,
    standings,
    standings_document,
)
from arbiter.adjudicator.tiebreaks import DEFAULT_ORDER, RoundResult, parse_order, rank
from tests.adjudicator.tournament import entries, entry, invalid, schedules
from tests.budget import examples

A, B, C, D, E = "player-a", "player-b", "player-c", "player-d", "player-e"


def one(items: list[Adjudicated], tiebreaks: str | None = None) -> EventStandings:
    (table,) = standings(items, tiebreaks=tiebreaks)
    return table


def hand_tournament() -> list[Adjudicated]:
    """Five players, three rounds of Pilo (scored), with a forfeit and absences:

    round 1: A beats B by 5, C beats D by 3; E has no game
    round 2: A beats C by 2, E beats B by forfeit; D has no game
    round 3: B beats C by resignation, D beats E by 4; A has no game
    """
    return [
        entry(1, A, B, A, margin=5, index=0),
        entry(1, D, C, C, margin=3, index=1),
        entry(2, C, A, A, margin=2, index=2),
        entry(2, E, B, E, how="forfeit", index=3),
        entry(3, B, C, B, how="resignation", index=4),
        entry(3, E, D, D, margin=4, index=5),
    ]


def test_hand_computed_tournament() -> None:
    # Points: A 2, B 1, C 1, D 1, E 1 (E's is the forfeit win).
    # Adjusted scores, as opponents see them (FIDE C.07 16.3): A has no game in round 3,
    # the last round, so it counts as a draw: 2.5. B's forfeit loss in round 2 is followed
    # by a played game, so it counts as the loss it is: 1. D's absence in round 2 is
    # followed by a game: 0, so 1. E: 1. C: 1.
    # Buchholz (a dummy with the player's own score for each unplayed round, at most the
    # forfeit opponent's adjusted score, at most half a point a round = 1.5 for absences):
    #   A = B 1 + C 1 + dummy min(2, 1.5)        = 3.5
    #   B = A 2.5 + forfeit dummy min(1, E 1) + C 1 = 4.5
    #   C = D 1 + A 2.5 + B 1                     = 4.5
    #   D = C 1 + dummy min(1, 1.5) + E 1         = 3
    #   E = dummy min(1, 1.5) + forfeit dummy min(1, B 1) + D 1 = 3
    # Sonneborn-Berger (opponents beaten): A = 1 + 1 = 2; B = C 1; C = D 1; D = E 1;
    # E = its forfeit win's dummy 1.
    # Wins over the board: A 2, B 1, C 1, D 1, E 0.
    # Margins: A +5 +2 = 7; B -5 (forfeit and resignation add nothing); C +3 -2 = 1;
    # D -3 +4 = 1; E -4.
    # Order: A (2 points); then B and C (Buchholz 4.5) before D and E (3). B and C are
    # equal on SB and wins; B beat C in round 3 (a resignation is a game played), so direct
    # encounter puts B first. D and E are equal on SB; D has more wins over the board.
    table = one(hand_tournament())
    assert [s.player for s in table.standings] == [A, B, C, D, E]
    assert [s.rank for s in table.standings] == [1, 2, 3, 4, 5]
    assert [s.points for s in table.standings] == [2, 1, 1, 1, 1]
    assert [s.tiebreak("buchholz") for s in table.standings] == [3.5, 4.5, 4.5, 3, 3]
    assert [s.tiebreak("sonneborn-berger") for s in table.standings] == [2, 1, 1, 1, 1]
    assert [s.tiebreak("wins") for s in table.standings] == [2, 1, 1, 1, 0]
    assert [s.tiebreak("margin") for s in table.standings] == [7, -5, 1, 1, -4]
    # Direct encounter only applies to players still tied when it is reached.
    assert [s.tiebreak("direct") for s in table.standings] == [None, 1, 2, None, None]
    assert table.rounds == 3 and table.tiebreak_order == DEFAULT_ORDER
    e = table.standings[4]
    assert (e.games, e.played, e.wins, e.forfeit_wins, e.losses) == (2, 1, 0, 1, 1)
    assert [r.symbol if r else None for r in e.results] == [None, "+", "0"]
    b = table.standings[1]
    assert (b.forfeit_losses, b.results[1].opponent if b.results[1] else None) == (1, E)


def test_tiebreak_order_is_configurable() -> None:
    # Wins over the board first: D (1) now ranks above B and C's group is split by them.
    table = one(hand_tournament(), tiebreaks="wins,bh")
    assert table.tiebreak_order == ("wins", "buchholz")
    assert [s.player for s in table.standings] == [A, B, C, D, E]
    assert [s.rank for s in table.standings] == [1, 2, 2, 4, 5]  # B, C: wins 1, BH 4.5
    # With no tie-break at all, everyone on 1 point shares second place.
    table = one(hand_tournament(), tiebreaks="")
    assert [s.rank for s in table.standings] == [1, 2, 2, 2, 2]
    assert table.standings[1].tiebreaks == ()


def test_parse_order() -> None:
    assert parse_order("buchholz,sb,wins,direct") == (
        "buchholz",
        "sonneborn-berger",
        "wins",
        "direct",
    )
    assert parse_order(" BH , DE ") == ("buchholz", "direct")
    assert parse_order(None) == DEFAULT_ORDER
    assert parse_order(["margin"]) == ("margin",)
    with pytest.raises(ValueError, match="unknown tie-break 'koya'"):
        parse_order("buchholz,koya")
    with pytest.raises(ValueError, match="given twice"):
        parse_order("bh,buchholz")
    with pytest.raises(ValueError, match="unknown"):
        standings([], tiebreaks="median")


def test_margin_applies_to_scored_games_only() -> None:
    table = one([entry(1, A, B, A, game="Implo")])
    assert table.tiebreak_order == ("buchholz", "sonneborn-berger", "wins", "direct")
    assert "margin" not in table.to_dict()["standings"][0]["tiebreaks"]


def test_the_winner_is_the_player_the_report_names_after_a_swap() -> None:
    # A starts as Blue; B swaps, so A ends as Orange and wins as Orange.
    record, report = entry(1, A, B, A, margin=3, swapped=True)
    assert report.winner == "Orange"
    table = one([(record, report)])
    first = table.standings[0]
    assert (first.player, first.points, first.tiebreak("margin")) == (A, 1, 3)
    cell = first.results[0]
    assert cell is not None and (cell.colour, cell.first) == ("Blue", True)


def test_players_are_named_by_their_tags_spaces_aside() -> None:
    table = one(
        [
            entry(1, "  player-a ", "player-b", "player-a"),
            entry(2, "player-a", "player-b", "player-b"),
        ]
    )
    assert [(s.player, s.points) for s in table.standings] == [("player-a", 1), ("player-b", 1)]


@pytest.mark.parametrize(
    ("item", "reason"),
    [
        (invalid(), "invalid"),
        (entry(1, A, B, None), "unfinished"),
        (entry(1, A, B, A, event=None), "no-event"),
        (entry(1, A, B, A, event="   "), "no-event"),
        (entry(1, A, None, A), "no-players"),
        (entry(1, A, "  ", A), "no-players"),
        (entry(1, A, A, A), "same-player"),
        (entry(None, A, B, A), "no-round"),
        (entry("3.1", A, B, A), "bad-round"),
        (entry("0", A, B, A), "bad-round"),
        (entry("1000", A, B, A), "bad-round"),
        (entry("9" * 5000, A, B, A), "bad-round"),  # refused before any int() of it
        (entry("?", A, B, A), "bad-round"),
    ],
)
def test_records_that_do_not_count(item: Adjudicated, reason: str) -> None:
    counted = entry(1, C, D, C, index=1)
    (table,) = standings([item, counted])
    assert [(e.index, e.reason) for e in table.excluded] == [(0, reason)]
    assert sum(s.points for s in table.standings) == 1


def test_a_report_that_names_a_stranger_as_winner_does_not_count() -> None:
    record, report = entry(1, A, B, A)
    report.winner_player = C  # the report of another record
    (table,) = standings([(record, report)])
    assert [(e.reason, e.message) for e in table.excluded] == [
        ("invalid", "the report names no player of this record as the winner")
    ]


def test_an_invalid_record_keeps_its_error() -> None:
    (table,) = standings([invalid(), entry(1, C, D, C)])
    (excluded,) = table.to_dict()["excluded"]
    assert excluded["reason"] == "invalid"
    assert excluded["error"] == {"code": "illegal-move", "message": "d4 is occupied", "ply": 3}
    assert excluded["message"] == "illegal-move at ply 3: d4 is occupied"


def test_a_second_record_of_a_pairing_in_a_round_does_not_count() -> None:
    items = [
        entry(1, A, B, A, index=0),
        entry(1, B, A, B, index=1),  # the same pairing, colours the other way
        entry(2, A, B, B, index=2),  # a later round: counts
    ]
    table = one(items)
    (dup,) = table.excluded
    assert (dup.index, dup.reason) == (1, "duplicate-pairing")
    assert "cup.grn record 1" in dup.message and "the other winner" in dup.message
    assert {s.player: s.points for s in table.standings} == {A: 1, B: 1}


def test_a_player_has_one_game_per_round() -> None:
    table = one([entry(1, A, B, A, index=0), entry(1, C, A, C, index=1)])
    (second,) = table.excluded
    assert (second.index, second.reason) == (1, "second-game-in-round")
    # C's record did not count, but C is a player of the event, with nothing yet.
    assert {s.player: (s.points, s.games) for s in table.standings} == {
        A: (1, 1),
        B: (0, 1),
        C: (0, 0),
    }


def test_an_unfinished_game_does_not_hide_a_later_finished_record() -> None:
    table = one([entry(1, A, B, None, index=0), entry(1, A, B, B, index=1)])
    assert [(e.index, e.reason) for e in table.excluded] == [(0, "unfinished")]
    assert {s.player: s.points for s in table.standings} == {A: 0, B: 1}


def test_events_and_games_make_separate_tables() -> None:
    items = [
        entry(1, A, B, A, event="Spring Open"),
        entry(1, A, B, B, event="Summer Open", index=1),
        entry(1, C, D, C, event="Spring Open", game="Implo", index=2),
        entry(2, C, D, D, event="Spring Open", index=3),
    ]
    tables = standings(items)
    assert [(t.event, t.game) for t in tables] == [
        ("Spring Open", "Pilo"),
        ("Summer Open", "Pilo"),
        ("Spring Open", "Implo"),
    ]
    assert [len(t.standings) for t in tables] == [4, 2, 2]
    document = standings_document(tables)
    assert isinstance(document, list) and len(document) == 3


def test_records_of_no_event_join_the_only_event() -> None:
    items = [entry(1, A, B, A), entry(1, C, D, C, event=None, index=1), invalid(2, event=None)]
    table = one(items)
    assert table.event == "Club Cup"
    assert [(e.index, e.reason) for e in table.excluded] == [(1, "no-event"), (2, "invalid")]


def test_records_of_no_event_get_their_own_table_beside_several_events() -> None:
    items = [
        entry(1, A, B, A, event="Spring Open"),
        entry(1, C, D, C, event=None, index=1),
        entry(1, A, B, B, event="Summer Open", index=2),
    ]
    tables = standings(items)
    assert [t.event for t in tables] == ["Spring Open", "Summer Open", None]
    loose = tables[2]
    assert (loose.standings, loose.tiebreak_order) == ((), ())
    assert [e.reason for e in loose.excluded] == ["no-event"]
    # Nothing at all gives no table; only unreadable records give the table of no event.
    assert standings([]) == []
    assert [t.event for t in standings([invalid(event=None)])] == [None]


def test_warnings_for_names_that_differ_in_case_and_empty_rounds() -> None:
    table = one([entry(1, A, B, A), entry(3, "Player-A", B, B, index=1)])
    assert any("differ only in letter case" in w for w in table.warnings)
    assert "no game counts in round 2" in table.warnings


# --- direct encounter ---------------------------------------------------------------------


def results_of(games: list[tuple[int, str, str]]) -> dict[str, dict[int, RoundResult]]:
    """Results by player and round from (round, winner, loser) games played."""
    out: dict[str, dict[int, RoundResult]] = {}
    for number, winner, loser in games:
        for player, opponent, won in ((winner, loser, True), (loser, winner, False)):
            out.setdefault(player, {})[number] = RoundResult(
                number, opponent, "Blue", won, won, "rules", None, None, 0
            )
    return out


def test_direct_encounter_when_all_tied_players_met() -> None:
    # A beat B and C; B beat C: all three met, 2 > 1 > 0. Each also lost to or beat an
    # outsider so that all three have 2 points.
    games = [(1, A, B), (2, A, C), (3, B, C), (1, C, "x"), (2, B, "y"), (3, "z", A)]
    games += [(4, C, "w")]
    ranking = rank(results_of(games), 4, ["direct"])
    assert ranking.places[:3] == ((A,), (B,), (C,))
    assert [ranking.values[p]["direct"] for p in (A, B, C)] == [1, 2, 3]


def test_direct_encounter_cycle_leaves_the_tie() -> None:
    games = [(1, A, B), (2, B, C), (3, C, A)]
    ranking = rank(results_of(games), 3, ["direct"])
    assert ranking.places == ((A, B, C),)


def test_direct_encounter_when_not_all_met() -> None:
    # A beat B and C; B and C never met. A cannot be caught: placed first. B and C stay tied.
    games = [(1, A, B), (2, A, C), (3, "x", A), (4, "y", A), (1, C, "z"), (2, B, "x")]
    games += [(3, B, "y"), (4, C, "w")]
    ranking = rank(results_of(games), 4, ["direct"])
    assert ranking.places[0] == (A,)
    assert ranking.places[1] == (B, C)
    assert [ranking.values[p]["direct"] for p in (A, B, C)] == [1, 2, 2]


def test_direct_encounter_does_not_place_a_leader_who_could_be_caught() -> None:
    # A, B and C have 1 point (x and w 2, y and z none). A beat B; C met neither: C could
    # still have beaten A, so nobody is placed.
    games = [(1, A, B), (2, "x", A), (2, B, "y"), (1, C, "z"), (2, "w", C)]
    games += [(3, "x", "z"), (3, "w", "y")]
    ranking = rank(results_of(games), 3, ["direct"])
    assert ranking.places == (("w", "x"), (A, B, C), ("y", "z"))


def test_direct_encounter_averages_a_pairing_met_twice() -> None:
    games = [(1, A, B), (2, B, A)]
    assert rank(results_of(games), 2, ["direct"]).places == ((A, B),)


def test_direct_encounter_leaves_forfeits_out() -> None:
    items = [entry(1, A, B, A, how="forfeit"), entry(2, B, C, B), entry(2, A, D, D, index=2)]
    items += [entry(1, C, D, C, index=3)]
    table = one(items, tiebreaks="direct")
    # A and B have 1 point each; their only meeting was a forfeit: direct encounter
    # cannot separate them.
    ranks = {s.player: s.rank for s in table.standings}
    assert ranks[A] == ranks[B]


# --- properties ---------------------------------------------------------------------------


@settings(max_examples=examples(80), deadline=None)
@given(schedules(clean=False))
def test_points_add_up_to_the_counted_games(games: list) -> None:  # type: ignore[type-arg]
    items = entries(games)
    (table,) = standings(items)
    counted = len(items) - len(table.excluded)
    assert sum(s.points for s in table.standings) == counted
    assert sum(s.games for s in table.standings) == 2 * counted
    for line in table.standings:
        assert line.points == line.wins + line.forfeit_wins
        assert line.games == line.played + line.forfeit_wins + line.forfeit_losses
        assert line.played == line.wins + line.losses
    _check_crosstable_is_symmetric(table)
    _check_order(table)


@settings(max_examples=examples(80), deadline=None)
@given(schedules(clean=True), st.data())
def test_excluding_a_record_changes_only_what_it_should(games: list, data: st.DataObject) -> None:  # type: ignore[type-arg]
    items = entries(games)
    dropped = data.draw(st.integers(0, len(items) - 1))
    (before,) = standings(items)
    rest = standings(items[:dropped] + items[dropped + 1 :])
    if len(items) == 1:
        assert rest == []
        return
    (after,) = rest
    assert not before.excluded and not after.excluded
    record, report = items[dropped]
    assert record is not None
    pair = {name for _, name in record.players}
    old = {s.player: s for s in before.standings}
    new = {s.player: s for s in after.standings}
    number = games[dropped].round
    met = {r.opponent for player in pair for r in old[player].results if r is not None}
    for player, line in old.items():
        if player not in new:  # the dropped game was the player's only record
            assert player in pair and line.games == 1
            continue
        gained = 1 if player == report.winner_player else 0
        if player in pair:
            assert new[player].points == line.points - gained
            assert new[player].games == line.games - 1
        else:
            assert (new[player].points, new[player].games) == (line.points, line.games)
        for n in range(1, min(before.rounds, after.rounds) + 1):
            if not (player in pair and n == number):
                assert _cell(new[player].results[n - 1]) == _cell(line.results[n - 1])
        if before.rounds == after.rounds and player not in pair | met:
            for name in ("buchholz", "sonneborn-berger", "wins", "margin"):
                assert new[player].tiebreak(name) == line.tiebreak(name)


@settings(max_examples=examples(50), deadline=None)
@given(schedules(clean=True), st.data())
def test_an_excluded_record_counts_for_nothing(games: list, data: st.DataObject) -> None:  # type: ignore[type-arg]
    # Making a record invalid lists it in `excluded` and leaves everyone's figures as if it
    # had not been sent; its players stay in the table (with no game, they may share a
    # place or a direct encounter with others, so ranks are not compared).
    items = entries(games)
    dropped = data.draw(st.integers(0, len(items) - 1))
    record, report = items[dropped]
    assert record is not None
    broken = report.replace(valid=False, errors=[{"code": "illegal-move", "message": "x"}])
    (with_broken,) = standings(items[:dropped] + [(record, broken)] + items[dropped + 1 :])
    without = standings(items[:dropped] + items[dropped + 1 :])
    assert [(e.index, e.reason) for e in with_broken.excluded] == [(dropped, "invalid")]
    kept = {s.player: s for s in without[0].standings} if without else {}
    for line in with_broken.standings:
        if line.player in kept:
            assert _figures(line) == _figures(kept[line.player])
        else:
            assert line.games == 0 and line.player in dict(record.players).values()


def _figures(line: Standing) -> tuple[object, ...]:
    values = tuple((name, value) for name, value in line.tiebreaks if name != "direct")
    return (line.points, line.games, line.played, line.wins, line.results, values)


def _cell(result: RoundResult | None) -> tuple[object, ...] | None:
    return None if result is None else (result.opponent, result.won, result.termination)


def _check_crosstable_is_symmetric(table: EventStandings) -> None:
    lines = {s.player: s for s in table.standings}
    for line in table.standings:
        for result in line.results:
            if result is None:
                continue
            other = lines[result.opponent].results[result.round - 1]
            assert other is not None and other.opponent == line.player
            assert other.won != result.won and other.termination == result.termination
            assert other.first != result.first


def _check_order(table: EventStandings) -> None:
    """Points never rise down the table; equal ranks have equal points and values."""
    lines = table.standings
    for above, below in zip(lines, lines[1:], strict=False):
        assert above.points >= below.points
        assert above.rank <= below.rank
        if above.rank == below.rank:
            assert above.points == below.points
            assert above.tiebreaks == below.tiebreaks or "direct" in table.tiebreak_order
