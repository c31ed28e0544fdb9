"""The Dutch system (C.04.3) through gacrux, on cases worked out by hand from the rules, and
arbiter's own rules around it: who is paired, the byes, the colours, the checks."""

from __future__ import annotations

import pytest

from arbiter.pairing import (
    MAX_DUTCH_PLAYERS,
    Board,
    Bye,
    Game,
    PairingError,
    Player,
    Tournament,
    check,
    initial_order,
    pair,
    read_trf,
    write_trf,
)
from arbiter.pairing.engine import initial_colour
from tests.pairing.events import played, player_line, players, with_round


def boards(t: Tournament) -> list[tuple[int, int]]:
    return [(b.first, b.second) for b in pair(t, "dutch").boards]


def fresh(n: int, **settings: object) -> Tournament:
    return Tournament(players=players(n), rounds_planned=5, **settings)  # type: ignore[arg-type]


def test_round_1_pairs_the_top_half_with_the_bottom_half_colours_alternating() -> None:
    """S1 = 1, 2, 3 meets S2 = 4, 5, 6; player 1 has the initial colour, 2 the other, 3 the
    initial one again."""
    assert boards(fresh(6, initial_colour="first")) == [(1, 4), (5, 2), (3, 6)]
    assert boards(fresh(6, initial_colour="second")) == [(4, 1), (2, 5), (6, 3)]


def test_with_no_initial_colour_before_round_1_player_1_takes_the_first_seat() -> None:
    assert boards(fresh(6)) == [(1, 4), (5, 2), (3, 6)]


def test_an_odd_number_gives_the_last_player_the_pairing_allocated_bye() -> None:
    found = pair(fresh(7, initial_colour="first"), "dutch")
    assert [(b.first, b.second) for b in found.boards] == [(1, 4), (5, 2), (3, 6)]
    assert found.byes == (Bye(1, 7, "pairing", 1.0),) and found.bye == 7


def test_round_2_pairs_score_groups_and_gives_each_player_their_colour() -> None:
    """After 1-0 wins for 1, 2 and 3: {1, 2, 3} floats 3 down to {4, 5, 6}; everybody
    alternates; boards by the higher score, then the sum of scores, then the rank."""
    t = with_round(
        fresh(6, initial_colour="first"),
        [Game(1, 1, 4, "1-0"), Game(1, 5, 2, "0-1"), Game(1, 3, 6, "1-0")],
        [],
    )
    found = pair(t, "dutch")
    assert found.round == 2
    assert found.boards == (Board(1, 2, 1), Board(2, 4, 3), Board(3, 6, 5))


def test_the_pairing_allocated_bye_is_not_given_twice() -> None:
    first = pair(fresh(7, initial_colour="first"), "dutch")
    t = with_round(
        fresh(7, initial_colour="first"),
        [Game(1, b.first, b.second, "1-0") for b in first.boards],
        first.byes,
    )
    found = pair(t, "dutch")
    assert found.bye == 6
    assert found.boards == (Board(1, 5, 1), Board(2, 7, 3), Board(3, 2, 4))


@pytest.mark.parametrize("points", [0.0, 0.5])
def test_the_bye_s_points_are_a_setting_that_pairs_by_them(points: float) -> None:
    """A bye worth nothing leaves player 7 with the losers of round 1 (and the bye then goes
    to nobody who had it); worth half a point, 7 is alone between the groups."""
    t = fresh(7, initial_colour="first", bye_points=points)
    first = pair(t, "dutch")
    assert first.byes == (Bye(1, 7, "pairing", points),)
    t = with_round(t, [Game(1, b.first, b.second, "1-0") for b in first.boards], first.byes)
    assert t.points(7) == points
    found = pair(t, "dutch")
    assert found.bye not in (None, 7)
    opponent = next(
        b.first if b.second == 7 else b.second for b in found.boards if 7 in (b.first, b.second)
    )
    if points == 0.0:
        assert t.points(opponent) == 0.0  # with the losers of round 1
    assert "162  P" in write_trf(t, name="x")


@pytest.mark.parametrize("kind", ["half", "full", "zero"])
def test_a_player_with_a_requested_bye_is_not_paired_and_keeps_its_points(kind: str) -> None:
    worth = {"half": 0.5, "full": 1.0, "zero": 0.0}[kind]
    t = fresh(6, initial_colour="first", byes=(Bye(1, 3, kind, worth),))  # type: ignore[arg-type]
    found = pair(t, "dutch")
    paired = {p for b in found.boards for p in (b.first, b.second)}
    assert 3 not in paired and found.bye is not None and found.bye != 3
    assert len(paired) == 4
    t = with_round(t, [Game(1, b.first, b.second, "1-0") for b in found.boards], found.byes)
    assert t.points(3) == worth
    assert 3 in {p for b in pair(t, "dutch").boards for p in (b.first, b.second)}


def test_a_withdrawn_player_is_not_paired_from_that_round_on() -> None:
    t = played(8, 1, planned=5)
    t = Tournament(
        players=t.players,
        rounds_planned=5,
        games=t.games,
        byes=t.byes,
        withdrawn={2: 2},
        initial_colour="first",
    )
    found = pair(t, "dutch")
    assert 2 not in {p for b in found.boards for p in (b.first, b.second)}
    assert found.bye is not None


def test_half_points_and_draws_of_an_imported_file_make_their_own_score_groups() -> None:
    """1 and 2 drew, 3 beat 4, 5 had a half-point bye, 6 was absent: 3, alone with a point,
    floats down to the half-point group {1, 2, 5}, where meeting 2 gives both their colour
    (3 had the first seat, 2 the second), which counts before the order of S2; 5 (no
    colour yet) takes the first seat against 1. bbpPairings pairs it the same."""
    text = "\n".join(
        [
            "XXR 3",
            "XXC white1",
            player_line(1, "A", 0.5, ["   2 w ="]),
            player_line(2, "B", 0.5, ["   1 b ="]),
            player_line(3, "C", 1.0, ["   4 w 1"]),
            player_line(4, "D", 0.0, ["   3 b 0"]),
            player_line(5, "E", 0.5, ["0000 - H"]),
            player_line(6, "F", 0.0, ["0000 - Z"]),
        ]
    )
    t = read_trf(text)
    found = pair(t, "dutch")
    assert found.boards == (Board(1, 2, 3), Board(2, 5, 1), Board(3, 4, 6))


def test_the_initial_colour_is_read_from_round_1_when_not_given() -> None:
    t = with_round(fresh(6), [Game(1, 4, 1, "1-0"), Game(1, 2, 5, "1-0"), Game(1, 6, 3, "0-1")], [])
    assert initial_colour(t) == "second"
    resting = with_round(fresh(6), [Game(1, 2, 5, "1-0")], [Bye(1, 1, "pairing", 1.0)])
    assert initial_colour(resting) == "second"  # 2 is below 1, who rested: the other colour
    assert not check(t, "dutch")


@pytest.mark.parametrize("seed", [1, 2])
def test_a_tournament_paired_by_arbiter_checks_clean(seed: int) -> None:
    t = played(11, 5, seed=seed, planned=6)
    assert check(t, "dutch") == []
    assert check(read_trf(write_trf(t, name="x")), "dutch") == []


def test_check_names_the_round_and_the_colours_that_differ() -> None:
    t = played(8, 3, planned=5)
    swapped = tuple(
        Game(g.round, g.second, g.first, g.result)
        if (g.round, g.first) == (2, t.games[4].first)
        else g
        for g in t.games
    )
    wrong = Tournament(
        players=t.players, rounds_planned=5, games=swapped, byes=t.byes, initial_colour="first"
    )
    differences = check(wrong, "dutch")
    assert differences and differences[0].round == 2
    assert any(p.startswith("colours:") for p in differences[0].problems)
    assert differences[0].expected is not None


def test_what_cannot_be_paired_is_a_pairing_error_with_a_code() -> None:
    with pytest.raises(PairingError) as caught:
        pair(Tournament(players=players(4)), "dutch")
    assert caught.value.code == "no-rounds"
    with pytest.raises(PairingError) as caught:
        pair(played(4, 2, planned=2), "dutch")
    assert caught.value.code == "complete"
    pending = Tournament(players=players(4), rounds_planned=3, games=(Game(1, 1, 3), Game(1, 4, 2)))
    with pytest.raises(PairingError) as caught:
        pair(pending, "dutch")
    assert caught.value.code == "unfinished"
    two = played(2, 1, planned=3)
    with pytest.raises(PairingError) as caught:
        pair(two, "dutch")
    assert caught.value.code == "no-pairing"
    with pytest.raises(PairingError) as caught:
        pair(Tournament(players=(Player(1, "alone"),), rounds_planned=3), "dutch")
    assert caught.value.code == "no-players"
    many = Tournament(players=players(MAX_DUTCH_PLAYERS + 1), rounds_planned=3)
    with pytest.raises(PairingError) as caught:
        pair(many, "dutch")
    assert caught.value.code == "too-many-players"


def test_check_reports_a_round_that_cannot_be_paired() -> None:
    t = Tournament(
        players=players(2),
        games=(Game(1, 1, 2, "1-0"), Game(2, 2, 1, "1-0")),
        initial_colour="first",
    )
    [difference] = check(t, "dutch")
    assert difference.round == 2 and difference.expected is None


def test_numbers_need_not_run_from_1() -> None:
    t = Tournament(
        players=tuple(Player(n, f"p{n}") for n in (10, 20, 30, 40)),
        rounds_planned=3,
        initial_colour="first",
    )
    assert boards(t) == [(10, 30), (40, 20)]


def test_initial_order_is_rating_then_name() -> None:
    ordered = initial_order(
        [
            Player(9, "bea", 1500),
            Player(3, "Al", None),
            Player(5, "abe", 1500),
            Player(1, "Zed", 2000),
        ]
    )
    assert [(p.number, p.name) for p in ordered] == [(1, "Zed"), (2, "abe"), (3, "bea"), (4, "Al")]


def test_the_engine_within_limits_pairs_as_it_does_in_process_and_stops_past_them() -> None:
    """``pair(..., limits=...)`` runs the engine in a process of its own: the same rounds as
    in the caller's process, and ``engine-limit`` past its memory or its time."""
    import random
    from dataclasses import replace as replaced

    from arbiter.pairing import Game, Limits, PairingError, Player, Tournament, initial_order, pair

    rng = random.Random(7)
    players = initial_order([Player(n, f"P{n:02d}", rng.randint(1200, 2400)) for n in range(1, 24)])
    made = Tournament(players=players, rounds_planned=5)
    roomy = Limits(seconds=120, memory=2 * 2**30)
    for round_ in range(1, 4):
        alone = pair(made, "dutch", limits=roomy)
        assert alone == pair(made, "dutch")
        games = tuple(
            Game(round_, b.first, b.second, rng.choice(("1-0", "0-1"))) for b in alone.boards
        )
        made = replaced(made, games=made.games + games, byes=made.byes + alone.byes)
    with pytest.raises(PairingError) as memory:
        pair(made, "dutch", limits=Limits(seconds=120, memory=8 * 2**20))
    assert memory.value.code == "engine-limit" and "8 MiB" in memory.value.message
    with pytest.raises(PairingError) as time:
        pair(made, "dutch", limits=Limits(seconds=0.05, memory=2 * 2**30))
    assert time.value.code == "engine-limit" and "0.05 s" in time.value.message
