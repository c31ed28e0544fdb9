"""What a pairing given by hand breaks (``spec/pairings.md`` §8): each rule alone, and the
forfeits that count as neither a meeting nor a colour."""

from __future__ import annotations

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
