"""FIDE's Berger tables (Handbook C.05, Annex 1), as arbiter computes them and pairs by them.

The tables below are the ones FIDE publishes, written out by hand from the regulation's
table for 3 to 14 players ("1-4" is player 1 in the first seat against player 4); the table
for 15 or 16 players is the one gacrux (FIDE's reference tool) gives, the second source.
With an odd number of players the highest number is the dummy: whoever meets it has the
round off.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from arbiter.pairing import (
    DOUBLE_ROUND_ROBIN_SYSTEMS,
    ROUND_ROBIN_SYSTEMS,
    Bye,
    Game,
    LeftOut,
    Player,
    Tournament,
    left_out,
    pair,
    read_trf,
    write_trf,
)
from arbiter.pairing.berger import berger_round, berger_rounds, cycle_length, table_round

PUBLISHED = {
    4: ["1-4 2-3", "4-3 1-2", "2-4 3-1"],
    6: ["1-6 2-5 3-4", "6-4 5-3 1-2", "2-6 3-1 4-5", "6-5 1-4 2-3", "3-6 4-2 5-1"],
    8: [
        "1-8 2-7 3-6 4-5",
        "8-5 6-4 7-3 1-2",
        "2-8 3-1 4-7 5-6",
        "8-6 7-5 1-4 2-3",
        "3-8 4-2 5-1 6-7",
        "8-7 1-6 2-5 3-4",
        "4-8 5-3 6-2 7-1",
    ],
    10: [
        "1-10 2-9 3-8 4-7 5-6",
        "10-6 7-5 8-4 9-3 1-2",
        "2-10 3-1 4-9 5-8 6-7",
        "10-7 8-6 9-5 1-4 2-3",
        "3-10 4-2 5-1 6-9 7-8",
        "10-8 9-7 1-6 2-5 3-4",
        "4-10 5-3 6-2 7-1 8-9",
        "10-9 1-8 2-7 3-6 4-5",
        "5-10 6-4 7-3 8-2 9-1",
    ],
    12: [
        "1-12 2-11 3-10 4-9 5-8 6-7",
        "12-7 8-6 9-5 10-4 11-3 1-2",
        "2-12 3-1 4-11 5-10 6-9 7-8",
        "12-8 9-7 10-6 11-5 1-4 2-3",
        "3-12 4-2 5-1 6-11 7-10 8-9",
        "12-9 10-8 11-7 1-6 2-5 3-4",
        "4-12 5-3 6-2 7-1 8-11 9-10",
        "12-10 11-9 1-8 2-7 3-6 4-5",
        "5-12 6-4 7-3 8-2 9-1 10-11",
        "12-11 1-10 2-9 3-8 4-7 5-6",
        "6-12 7-5 8-4 9-3 10-2 11-1",
    ],
    14: [
        "1-14 2-13 3-12 4-11 5-10 6-9 7-8",
        "14-8 9-7 10-6 11-5 12-4 13-3 1-2",
        "2-14 3-1 4-13 5-12 6-11 7-10 8-9",
        "14-9 10-8 11-7 12-6 13-5 1-4 2-3",
        "3-14 4-2 5-1 6-13 7-12 8-11 9-10",
        "14-10 11-9 12-8 13-7 1-6 2-5 3-4",
        "4-14 5-3 6-2 7-1 8-13 9-12 10-11",
        "14-11 12-10 13-9 1-8 2-7 3-6 4-5",
        "5-14 6-4 7-3 8-2 9-1 10-13 11-12",
        "14-12 13-11 1-10 2-9 3-8 4-7 5-6",
        "6-14 7-5 8-4 9-3 10-2 11-1 12-13",
        "14-13 1-12 2-11 3-10 4-9 5-8 6-7",
        "7-14 8-6 9-5 10-4 11-3 12-2 13-1",
    ],
    16: [
        "1-16 2-15 3-14 4-13 5-12 6-11 7-10 8-9",
        "16-9 10-8 11-7 12-6 13-5 14-4 15-3 1-2",
        "2-16 3-1 4-15 5-14 6-13 7-12 8-11 9-10",
        "16-10 11-9 12-8 13-7 14-6 15-5 1-4 2-3",
        "3-16 4-2 5-1 6-15 7-14 8-13 9-12 10-11",
        "16-11 12-10 13-9 14-8 15-7 1-6 2-5 3-4",
        "4-16 5-3 6-2 7-1 8-15 9-14 10-13 11-12",
        "16-12 13-11 14-10 15-9 1-8 2-7 3-6 4-5",
        "5-16 6-4 7-3 8-2 9-1 10-15 11-14 12-13",
        "16-13 14-12 15-11 1-10 2-9 3-8 4-7 5-6",
        "6-16 7-5 8-4 9-3 10-2 11-1 12-15 13-14",
        "16-14 15-13 1-12 2-11 3-10 4-9 5-8 6-7",
        "7-16 8-6 9-5 10-4 11-3 12-2 13-1 14-15",
        "16-15 1-14 2-13 3-12 4-11 5-10 6-9 7-8",
        "8-16 9-7 10-6 11-5 12-4 13-3 14-2 15-1",
    ],
}


def published(places: int, round_: int) -> tuple[tuple[int, int], ...]:
    return tuple(
        (int(a), int(b))
        for a, b in (pair.split("-") for pair in PUBLISHED[places][round_ - 1].split())
    )


PLAYERS = list(range(3, 17))


@pytest.mark.parametrize("places", sorted(PUBLISHED))
def test_the_tables_are_fides(places: int) -> None:
    assert cycle_length(places) == places - 1
    for round_ in range(1, places):
        assert table_round(places, round_) == published(places, round_), round_


@pytest.mark.parametrize("players", PLAYERS)
def test_a_single_round_robin_is_the_table_with_a_dummy_for_an_odd_number(players: int) -> None:
    places = players + players % 2
    assert cycle_length(players) == places - 1
    assert berger_rounds(players) == tuple(published(places, r) for r in range(1, places))


@pytest.mark.parametrize("players", PLAYERS)
def test_a_double_round_robin_swaps_the_last_two_rounds_then_reverses_colours(players: int) -> None:
    places = players + players % 2
    cycle = places - 1
    rounds = berger_rounds(players, double=True)
    assert len(rounds) == 2 * cycle
    first = [published(places, r) for r in range(1, cycle + 1)]
    first[-2], first[-1] = first[-1], first[-2]
    assert list(rounds[:cycle]) == first
    for r in range(1, cycle + 1):
        assert rounds[cycle + r - 1] == tuple((b, a) for a, b in published(places, r))


@pytest.mark.parametrize("players", [p for p in PLAYERS if p % 2 == 0])
def test_nobody_has_one_colour_three_times_running_in_a_double_round_robin(players: int) -> None:
    """What the swap of C.05 Annex 1 is for: without it players 1 and N/2 + 1 would."""
    for player in range(1, players + 1):
        seats = "".join(
            "f" if player == first else "s"
            for boards in berger_rounds(players, double=True)
            for first, second in boards
            if player in (first, second)
        )
        assert "fff" not in seats and "sss" not in seats, (player, seats)


@pytest.mark.parametrize("players", PLAYERS)
def test_every_pair_meets_once_a_cycle_with_each_colour_once_over_two(players: int) -> None:
    met: dict[tuple[int, int], int] = {}
    for boards in berger_rounds(players, double=True):
        for first, second in boards:
            met[(first, second)] = met.get((first, second), 0) + 1
    places = players + players % 2
    for a in range(1, places + 1):
        for b in range(a + 1, places + 1):
            assert met.get((a, b)) == 1 and met.get((b, a)) == 1, (a, b)


def test_rounds_outside_the_tables_are_refused() -> None:
    with pytest.raises(ValueError):
        berger_round(4, 4)
    with pytest.raises(ValueError):
        berger_round(5, 11, double=True)
    with pytest.raises(ValueError):
        table_round(5, 1)


def _players(n: int) -> tuple[Player, ...]:
    return tuple(Player(number, f"player {number}") for number in range(1, n + 1))


@pytest.mark.parametrize("players", [3, 4, 7, 10])
@pytest.mark.parametrize("system", ["round-robin", "double-round-robin"])
def test_pair_follows_the_table_round_after_round(players: int, system: str) -> None:
    """Played round after round through the library: boards in the table's order (the bye
    board left out), the dummy's opponent with the round off as the pairing-allocated bye."""
    double = system == "double-round-robin"
    tournament = Tournament(players=_players(players))
    for round_, table in enumerate(berger_rounds(players, double=double), 1):
        found = pair(tournament, system)  # type: ignore[arg-type]
        assert found.round == round_
        assert [(b.first, b.second) for b in found.boards] == [
            (a, b) for a, b in table if max(a, b) <= players
        ]
        assert [b.board for b in found.boards] == list(range(1, len(found.boards) + 1))
        resting = [min(a, b) for a, b in table if max(a, b) > players]
        assert [b.player for b in found.byes] == resting
        assert all(b.kind == "pairing" and b.points == 1.0 for b in found.byes)
        games = tuple(Game(round_, b.first, b.second, "1-0") for b in found.boards)
        tournament = Tournament(
            players=tournament.players,
            games=tournament.games + games,
            byes=tournament.byes + found.byes,
        )
    with pytest.raises(ValueError, match="complete"):
        pair(tournament, system)  # type: ignore[arg-type]


def test_a_round_robin_places_players_in_order_of_their_numbers() -> None:
    """Numbers need not run from 1: the table's places are the players in number order."""
    players = tuple(Player(n, f"p{n}") for n in (3, 10, 42, 7))
    found = pair(Tournament(players=players), "round-robin")
    assert [(b.first, b.second) for b in found.boards] == [(3, 42), (7, 10)]


@pytest.mark.parametrize("players", [p for p in PLAYERS if p % 2 == 0])
def test_a_plain_double_round_robin_plays_the_table_in_its_order(players: int) -> None:
    """``double-round-robin-plain`` (TRF ``BERGER_DOUBLEROUNDROBIN``): the first cycle is
    the published table's rounds in order, the second the same with the seats reversed; so
    some player has one seat three times running across the cycles, which the exchange of
    the recommended order avoids."""
    cycle = players - 1
    rounds = berger_rounds(players, double=True, exchanged=False)
    assert list(rounds[:cycle]) == [published(players, r) for r in range(1, cycle + 1)]
    for r in range(1, cycle + 1):
        assert rounds[cycle + r - 1] == tuple((b, a) for a, b in published(players, r))
    runs = [
        "".join("f" if p == first else "s" for boards in rounds for first, second in boards
                if p in (first, second))
        for p in range(1, players + 1)
    ]  # fmt: skip
    assert any("fff" in seats or "sss" in seats for seats in runs)


def test_record_192_names_the_order_of_a_double_round_robin() -> None:
    """gacrux reads ``FIDE_DOUBLEROUNDROBIN`` with the last two rounds of the first cycle
    exchanged and ``BERGER_DOUBLEROUNDROBIN`` without: so does arbiter, and writes them
    back."""
    base = Tournament(players=_players(4))
    for code, system in (("FIDE_DOUBLEROUNDROBIN", "double-round-robin"),
                         ("BERGER_DOUBLEROUNDROBIN", "double-round-robin-plain")):  # fmt: skip
        written = write_trf(replace(base, system=system), name="x")  # type: ignore[arg-type]
        assert f"192 {code}" in written.splitlines()
        assert read_trf(written).system == system


@pytest.mark.parametrize("players", [4, 5, 8])
@pytest.mark.parametrize("system", list(ROUND_ROBIN_SYSTEMS))
def test_every_round_robin_pairs_as_gacrux_reads_its_trf(players: int, system: str) -> None:
    """Round after round, the boards arbiter pairs are those gacrux's Berger engine pairs
    from the TRF arbiter writes (its record 192 naming the system)."""
    from gacrux.pairingberger import pairing_berger

    from arbiter.pairing.dutch import _read_by_gacrux

    rounds = len(berger_rounds(players, double=system in DOUBLE_ROUND_ROBIN_SYSTEMS))
    t = Tournament(players=_players(players), system=system, rounds_planned=rounds)  # type: ignore[arg-type]
    while t.rounds_paired < rounds:
        found = pair(t, system)  # type: ignore[arg-type]
        engine = _read_by_gacrux(write_trf(t, name="x"))
        engine["maxMeets"] = 2 if "double" in engine["pairingSystem"] else 1  # as its CLI does
        params = {"experimental": [], "verbose": 0, "top_color": ""}
        brackets = pairing_berger(engine, found.round, params).compute_pairing(False, 0)
        pairs = [p for b in brackets for p in b["pairs"] if p["w"] and p["b"]]
        theirs = {(int(p["w"]), int(p["b"])) for p in pairs}
        assert {(b.first, b.second) for b in found.boards} == theirs, found.round
        games = tuple(Game(found.round, b.first, b.second, "1-0") for b in found.boards)
        t = replace(t, games=t.games + games, byes=t.byes + found.byes)


def _round_robin_of(
    count: int, system: str, games: tuple[Game, ...], gone: dict[int, int]
) -> Tournament:
    return Tournament(
        players=tuple(Player(n, f"p{n}") for n in range(1, count + 1)),
        games=games,
        withdrawn=gone,
        system=system,  # type: ignore[arg-type]  # pyright: ignore[reportArgumentType]
    )


def test_the_round_off_is_no_bye_for_a_player_absent_or_given_another() -> None:
    """Round 1 of five: the player the table gives the round off has the pairing-allocated
    bye, unless withdrawn by then or given a bye of that round already (an absence)."""
    off = next(min(p) for p in berger_rounds(5)[0] if 6 in p)  # place 6: the dummy
    plain = _round_robin_of(5, "round-robin", (), {})
    assert [(b.player, b.kind) for b in pair(plain, "round-robin").byes] == [(off, "pairing")]
    assert pair(replace(plain, withdrawn={off: 1}), "round-robin").byes == ()
    absent = replace(plain, byes=(Bye(1, off, "zero", 0.0),))
    assert pair(absent, "round-robin").byes == ()


@pytest.mark.parametrize(
    ("system", "played", "left"),
    [
        ("round-robin", 1, True),  # 1 of 3: fewer than half
        ("round-robin", 2, False),  # 2 of 3: more than half
        ("double-round-robin", 2, True),  # 2 of 6
        ("double-round-robin-plain", 3, False),  # 3 of 6: half
        ("dutch", 0, False),  # a Swiss leaves nobody out
    ],
)
def test_a_round_robin_leaves_out_a_player_who_played_fewer_than_half(
    system: str, played: int, left: bool
) -> None:
    """Four players: player 4 plays ``played`` rounds (winning each), then withdraws; the
    forfeits lost after it are not games played."""
    cycle = berger_rounds(4, double=system in DOUBLE_ROUND_ROBIN_SYSTEMS)
    games = []
    for round_, boards in enumerate(cycle[: played + 1], 1):
        for first, second in boards:
            if 4 not in (first, second):
                games.append(Game(round_, first, second, "1-0"))
            elif round_ <= played:
                games.append(Game(round_, first, second, "1-0" if first == 4 else "0-1"))
            else:
                games.append(Game(round_, first, second, "-+" if first == 4 else "+-"))
    t = _round_robin_of(4, system, tuple(games), {4: played + 1})
    expected = (LeftOut(4, played + 1, played, 3 * (2 if "double" in system else 1)),)
    assert left_out(t) == (expected if left else ())
    assert left_out(t, upto=played) == ()  # before the withdrawal took effect
