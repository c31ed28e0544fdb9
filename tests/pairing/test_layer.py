"""The pairing layer as a layer: what it imports, and values that cannot be changed or made
inconsistent."""

from __future__ import annotations

import dataclasses
import subprocess
import sys

import pytest

from arbiter.pairing import Bye, Game, Player, Tournament


def test_it_loads_no_framework_and_no_engine_until_a_dutch_round() -> None:
    code = (
        "import sys, arbiter.pairing as p\n"
        "heavy = ('click', 'flask', 'gacrux', 'networkx', 'arbiter.service')\n"
        "bad = [m for m in heavy if m in sys.modules]\n"
        "assert not bad, bad\n"
        "t = p.Tournament(players=(p.Player(1, 'a'), p.Player(2, 'b')), rounds_planned=1)\n"
        "p.pair(t, 'dutch')\n"
        "assert 'gacrux' in sys.modules\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_values_are_frozen() -> None:
    game = Game(1, 1, 2, "1-0")
    with pytest.raises(dataclasses.FrozenInstanceError):
        game.result = "0-1"  # type: ignore[misc]
    listed: list[object] = [Player(1, "a"), Player(2, "b")]
    t = Tournament(players=listed, games=[game], withdrawn={2: 3})  # type: ignore[arg-type]  # pyright: ignore[reportArgumentType]
    assert isinstance(t.players, tuple) and isinstance(t.games, tuple)
    with pytest.raises(TypeError):
        t.withdrawn[1] = 2  # type: ignore[index]


BAD = [
    ({"players": (Player(1, "a"), Player(1, "b"))}, "same pairing number"),
    ({"players": (Player(0, "a"),)}, "pairing number"),
    ({"players": (Player(1, "a", rating=10000),)}, "rating"),
    ({"rounds_planned": 0}, "rounds planned"),
    ({"bye_points": 0.7}, "0, 0.5 or 1"),
    ({"games": (Game(1, 1, 1, "1-0"),)}, "not a game"),
    ({"games": (Game(1, 1, 9, "1-0"),)}, "not a game"),
    ({"games": (Game(1, 1, 2, "1-0"), Game(1, 1, 3, "1-0"))}, "two games or byes"),
    ({"rounds_planned": 1, "games": (Game(2, 1, 2, "1-0"),)}, "not planned"),
    ({"byes": (Bye(1, 1, "half", 1.0),)}, "worth 0.5"),
    ({"byes": (Bye(1, 1, "pairing", 0.5),)}, "worth 1.0"),
    ({"byes": (Bye(1, 1, "pairing", 1.0), Bye(1, 2, "pairing", 1.0))}, "two pairing-allocated"),
    ({"games": (Game(1, 1, 2, "1-0"),), "byes": (Bye(1, 1, "zero", 0.0),)}, "two games or byes"),
    ({"withdrawn": {7: 2}}, "no such player"),
    ({"games": (Game(2, 1, 2, "1-0"),), "withdrawn": {1: 2}}, "withdrew"),
    ({"games": (Game(2, 1, 2, "+-"),), "withdrawn": {1: 2}}, "withdrew"),  # a forfeit won
    ({"games": (Game(2, 1, 2, None),), "withdrawn": {1: 2}}, "withdrew"),  # still going
]


@pytest.mark.parametrize("game", [Game(2, 1, 2, "-+"), Game(2, 2, 1, "+-"), Game(2, 1, 2, "--")])
def test_a_withdrawn_player_may_lose_by_forfeit_after_the_withdrawal(game: Game) -> None:
    """A round robin's table keeps a withdrawn player's boards: the forfeits they lose (a
    double forfeit too) are the only games they have after the withdrawal."""
    players = tuple(Player(n, f"p{n}") for n in (1, 2, 3))
    assert Tournament(players=players, games=(game,), withdrawn={1: 2}).withdrawn == {1: 2}


@pytest.mark.parametrize(("parts", "reason"), BAD)
def test_an_inconsistent_tournament_is_refused(parts: dict[str, object], reason: str) -> None:
    given: dict[str, object] = {"players": tuple(Player(n, f"p{n}") for n in (1, 2, 3))}
    given.update(parts)
    with pytest.raises(ValueError, match=reason):
        Tournament(**given)  # type: ignore[arg-type]


def test_points_count_games_and_byes() -> None:
    t = Tournament(
        players=tuple(Player(n, f"p{n}") for n in (1, 2, 3)),
        games=(Game(1, 1, 2, "1-0"), Game(2, 3, 1, "="), Game(3, 2, 1, "--")),
        byes=(Bye(1, 3, "pairing", 1.0), Bye(2, 2, "half", 0.5)),
    )
    assert (t.points(1), t.points(2), t.points(3)) == (1.5, 0.5, 1.5)
    assert t.points(1, before=2) == 1.0 and t.rounds_paired == 3
