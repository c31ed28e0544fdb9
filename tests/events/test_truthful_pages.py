"""The pages tell the truth (spec/events.md §10), on SQLite and PostgreSQL: the winner is named
in words on the round, player and game pages, after a swap too; an official result is marked,
with the director's reason on the game page; a record of another game is said one way
everywhere; an excluded record has no board; the event's page says which round is in play;
withdrawals, late entries and absences are named apart; and the pairing list gives each
player's points and rating."""

from __future__ import annotations

import html
import re

from flask.testing import FlaskClient

from tests.events.conftest import body
from tests.events.test_desk import PLAYERS, Desk, boards_of, game


def page(desk: Desk, path: str) -> str:
    """A page of the event as a reader gets it, its text unescaped and its tags left out."""
    answer = desk.client.get(f"/events/{desk.id}{path}")
    assert answer.status_code == 200, path
    return html.unescape(re.sub(r"<[^>]+>", " ", answer.data.decode()))


def squeezed(text: str) -> str:
    return " ".join(text.replace("\u00a0", " ").split())


def started(client: FlaskClient) -> Desk:
    desk = Desk(client)
    desk.ok("POST", "/players", {"players": [{"name": n, "rating": r} for n, r in PLAYERS]})
    desk.ok("POST", "/rounds")
    return desk


def test_the_winner_is_named_in_words_after_a_swap_too(client: FlaskClient) -> None:
    desk = started(client)
    (a, b), (c, d) = boards_of(desk, 1).values()
    swapped = desk.upload(game("Desk Open", 1, a, b, a, swap=True))
    assert swapped["result"] == "Orange+R"  # a started as Blue, ended as Orange, and won
    desk.upload(game("Desk Open", 1, c, d, d))
    shown = squeezed(page(desk, "/rounds/1"))
    assert f"{a} won, Orange+R" in shown and f"{d} won, Orange+R" in shown
    board = squeezed(page(desk, "/rounds/1/boards/1"))
    assert f"{a} won, Orange+R" in board
    listed = body(desk.client.get(f"{desk.base}/players"))["players"]
    numbers = {one["name"]: one["number"] for one in listed}
    mine = squeezed(page(desk, f"/players/{numbers[a]}"))
    assert "won (Orange+R)" in mine
    theirs = squeezed(page(desk, f"/players/{numbers[b]}"))
    assert "lost (Orange+R)" in theirs


def test_official_results_are_marked_with_the_directors_reason(client: FlaskClient) -> None:
    desk = started(client)
    (a, b), (c, d) = boards_of(desk, 1).values()
    desk.ok("PUT", "/rounds/1/boards/1/result", {"result": "-+", "reason": f"{a} did not come"})
    kept = desk.upload(game("Desk Open", 1, c, d, c))
    desk.ok("PUT", f"/records/{kept['record']}/result",
            {"result": "Orange+F", "reason": "a clock fell"})  # fmt: skip
    given = squeezed(page(desk, "/rounds/1/boards/1"))
    assert f"{b} won by forfeit, -+" in given and "given by the director" in given
    assert f"Director's reason {a} did not come" in given
    official = squeezed(page(desk, "/rounds/1/boards/2"))
    assert f"{d} won by forfeit, Orange+F" in official
    assert "official, set by the director" in official
    assert "Director's reason a clock fell" in official
    shown = squeezed(page(desk, "/rounds/1"))
    assert shown.count("given by the director") == 1 and "official, set by the director" in shown


def test_a_record_of_another_game_is_said_one_way_everywhere(client: FlaskClient) -> None:
    desk = started(client)
    text = '[Game "Pletore"]\n[Size "7"]\n[Komi "0"]\n[Round "1"]\n'
    text += '[Black "Ana Ruiz"]\n[White "Bo Chen"]\n1. d4 *\n'
    kept = desk.upload(text)
    words = "the record is a game of Pletore; this event is of Pilo"
    assert kept["placement"] == "wrong-game"
    for path in ("", f"/records/{kept['record']}", "/desk"):
        shown = squeezed(page(desk, path))
        assert words in shown, path
        for other in ("not paired together", "unreadable", "? v ?"):
            assert other not in shown, (path, other)
    assert "Ana Ruiz v Bo Chen" in squeezed(page(desk, f"/records/{kept['record']}"))


def test_an_excluded_record_has_no_board(client: FlaskClient) -> None:
    desk = started(client)
    (a, b), _ = boards_of(desk, 1).values()
    kept = desk.upload(game("Desk Open", 1, a, b, a))
    desk.ok("POST", f"/records/{kept['record']}/exclude", {"reason": "wrong sheet"})
    shown = squeezed(page(desk, f"/records/{kept['record']}"))
    assert f"Round 1 · Record {kept['record']} · {a} v {b}" in shown
    assert "Board 1" not in shown


def test_the_event_page_says_which_round_is_in_play(client: FlaskClient) -> None:
    desk = Desk(client)
    assert "no round paired yet" in squeezed(page(desk, ""))
    desk.ok("POST", "/players", {"players": [{"name": n, "rating": r} for n, r in PLAYERS]})
    desk.ok("POST", "/rounds")
    assert "round 1 of 3 in play" in squeezed(page(desk, ""))
    for board in desk.round(1)["boards"]:
        desk.upload(game("Desk Open", 1, board["first"], board["second"], board["first"]))
    assert "round 1 of 3 finished" in squeezed(page(desk, ""))


def test_withdrawals_late_entries_and_absences_are_named_apart(client: FlaskClient) -> None:
    desk = Desk(client)
    desk.ok("POST", "/players", {"players": [{"name": n, "rating": r} for n, r in PLAYERS]})
    desk.ok("POST", "/players/4/withdraw", {"round": 1, "reason": "ill"})
    desk.ok("POST", "/rounds")
    desk.ok("POST", "/players", {"name": "Late Lu"})
    for board in desk.round(1)["boards"]:
        desk.upload(game("Desk Open", 1, board["first"], board["second"], board["first"]))
    desk.ok("DELETE", "/players/4/withdraw", {"reason": "better"})
    shown = squeezed(page(desk, "/rounds/1"))
    assert "P5 (4): absent, not paired (back in a later round)" in shown
    desk.ok("POST", "/players/4/withdraw", {"reason": "ill again"})
    desk.ok("POST", "/rounds")
    second = squeezed(page(desk, "/rounds/2"))
    assert "P5 (4): withdrawn, not paired" in second
    first = squeezed(page(desk, "/rounds/1"))
    assert "Late Lu (5): a late entry, not yet entered in this round" in first


def test_the_pairing_list_gives_points_before_the_round_and_ratings(client: FlaskClient) -> None:
    desk = started(client)
    (a, b), (c, d) = boards_of(desk, 1).values()
    rating = dict(PLAYERS)
    shown = squeezed(page(desk, "/rounds/1"))
    assert f"{a} (0 pts, {rating[a]})" in shown and f"{d} (0 pts, {rating[d]})" in shown
    desk.upload(game("Desk Open", 1, a, b, a))
    desk.upload(game("Desk Open", 1, c, d, d))
    desk.ok("POST", "/rounds")
    listed = desk.round(2)["boards"]
    points = {one["first"]: one["first_points"] for one in listed}
    points |= {one["second"]: one["second_points"] for one in listed}
    assert points == {a: 1, b: 0, c: 0, d: 1}
    assert f"{a} (1 pt, {rating[a]})" in squeezed(page(desk, "/rounds/2"))
