"""What a pairing given by hand breaks (``spec/pairings.md`` §8): each rule alone, and the
forfeits that count as neither a meeting nor a colour."""

from __future__ import annotations

from dataclasses import replace

from arbiter.pairing import Game, Player, Prohibition, Tournament, pairing_warnings


def event(*games: Game, prohibited: tuple[Prohibition, ...] = ()) -> Tournament:
    return Tournament(
        players=tuple(Player(n, f"P{n}") for n in range(1, 7)),
        rounds_planned=5,
        games=games,
        prohibited=prohibited,
    )


def test_a_game_played_already_is_a_repeat_and_a_forfeit_is_not() -> None:
    t = event(Game(1, 1, 2, "1-0"), Game(1, 3, 4, "+-"))
    assert pairing_warnings(t, 2, [(2, 1), (4, 3)]) == ("2 - 1: they met in round 1",)


def test_a_prohibited_pair_only_in_its_rounds() -> None:
    t = event(prohibited=(Prohibition(2, 3, (1, 5, 6)),))
    assert pairing_warnings(t, 1, [(1, 5)]) == ()
    assert pairing_warnings(t, 2, [(6, 1)]) == ("6 - 1: a prohibited pair in rounds 2-3",)


def test_the_colour_rules() -> None:
    """1 had the first seat twice: a third running is one warning (and a difference of 3
    another); 2 had first then second: the first again is neither."""
    t = event(Game(1, 1, 2, "1-0"), Game(2, 1, 3, "0-1"), Game(2, 4, 2, "0-1"))
    assert pairing_warnings(t, 3, [(2, 5)]) == ()
    assert pairing_warnings(t, 3, [(1, 5)]) == (
        "1 would have had the first seat 3 times more than the second",
        "1 would have the first seat for the third game running",
    )
    assert pairing_warnings(t, 3, [(5, 1)]) == ()


def test_a_forfeit_gives_no_colour() -> None:
    t = event(Game(1, 1, 2, "1-0"), Game(2, 1, 3, "+-"))
    assert pairing_warnings(t, 3, [(1, 4)]) == ()


def test_the_bye_to_a_player_who_had_a_free_win() -> None:
    from arbiter.pairing import Bye

    t = Tournament(
        players=tuple(Player(n, f"P{n}") for n in range(1, 6)),
        rounds_planned=5,
        games=(Game(1, 1, 2, "+-"), Game(1, 3, 4, "1-0")),
        byes=(Bye(1, 5, "pairing", 1.0),),
    )
    warned = "has had the bye, or a win without playing, already"
    assert pairing_warnings(t, 2, [(2, 3), (4, 5)], bye=1) == (f"bye 1: {warned}",)  # forfeit
    assert pairing_warnings(t, 2, [(1, 3), (4, 2)], bye=5) == (f"bye 5: {warned}",)
    assert pairing_warnings(t, 2, [(5, 3), (4, 1)], bye=2) == ()  # a forfeit loss: may have it


def test_both_players_in_the_seat_they_did_not_expect() -> None:
    """3 had the first seat and 2 the second: each expects the other seat now."""
    t = event(Game(1, 3, 4, "1-0"), Game(1, 1, 2, "1-0"))
    assert pairing_warnings(t, 2, [(3, 2)]) == (
        "3 - 2: both players have the seat they did not expect",
    )
    assert pairing_warnings(t, 2, [(2, 3)]) == ()
    assert pairing_warnings(t, 2, [(3, 5)]) == ()  # 5 has no game: expects nothing


def robin(players: int, system: str, *games: Game) -> Tournament:
    return Tournament(
        players=tuple(Player(n, f"P{n}") for n in range(1, players + 1)),
        rounds_planned=(players - 1 + players % 2) * (2 if system.startswith("double") else 1),
        games=games,
        system=system,  # type: ignore[arg-type]
    )


def test_a_round_robin_warns_of_a_pair_met_in_the_cycle_forfeits_included() -> None:
    """In a round robin the table paired 3 and 4 in round 1, so their forfeit is a meeting;
    1 and 4 meeting again is warned; the Swiss would have warned of neither forfeit."""
    t = robin(4, "round-robin", Game(1, 1, 2, "1-0"), Game(1, 3, 4, "+-"))
    assert pairing_warnings(t, 2, [(1, 3), (2, 4)]) == ()
    assert pairing_warnings(t, 2, [(2, 1), (4, 3)]) == (
        "2 - 1: they met in round 1, in this cycle",
        "4 - 3: they met in round 1, in this cycle",
    )


def test_a_double_round_robin_meets_every_pair_again_in_its_second_cycle() -> None:
    """Four players, three rounds a cycle: round 4 starts the second, where 1 and 2 meet
    again without a warning (nor a colour one); a Swiss reading of the same games would
    warn of it."""
    first_cycle = (
        Game(1, 1, 2, "1-0"), Game(1, 3, 4, "="),
        Game(2, 1, 3, "0-1"), Game(2, 2, 4, "1-0"),
        Game(3, 4, 1, "="), Game(3, 2, 3, "0-1"),
    )  # fmt: skip
    t = robin(4, "double-round-robin", *first_cycle)
    assert pairing_warnings(t, 4, [(1, 2), (3, 4)]) == ()
    swiss = Tournament(players=t.players, rounds_planned=6, games=first_cycle, system="dutch")
    assert "1 - 2: they met in round 1" in pairing_warnings(swiss, 4, [(1, 2), (3, 4)])


def test_a_round_robin_player_left_without_a_game_more_often_than_the_table_gives() -> None:
    """With four players everyone plays every round: 3 and 4 left out of round 2 are
    warned. With five, each has one round without a game a cycle: 5's second is warned,
    and nobody else's first."""
    even = robin(4, "round-robin", Game(1, 1, 2, "1-0"), Game(1, 3, 4, "1-0"))
    assert pairing_warnings(even, 2, [(1, 3)]) == (
        "2 would be without a game in 1 round(s) of this cycle, where the table of 4 players "
        "gives 0",
        "4 would be without a game in 1 round(s) of this cycle, where the table of 4 players "
        "gives 0",
    )
    odd = robin(5, "round-robin", Game(1, 1, 2, "1-0"), Game(1, 3, 4, "1-0"))
    assert pairing_warnings(odd, 2, [(1, 3), (2, 4)]) == (
        "5 would be without a game in 2 round(s) of this cycle, where the table of 5 players "
        "gives 1",
    )
    assert pairing_warnings(odd, 2, [(1, 3), (5, 4)]) == ()


def test_a_withdrawn_round_robin_player_is_not_missed() -> None:
    t = replace(robin(4, "round-robin", Game(1, 1, 2, "1-0"), Game(1, 3, 4, "1-0")),
                withdrawn={4: 2})  # fmt: skip
    assert pairing_warnings(t, 2, [(1, 3)]) == (
        "2 would be without a game in 1 round(s) of this cycle, where the table of 4 players "
        "gives 0",
    )
