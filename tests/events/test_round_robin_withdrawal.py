"""A player who withdraws from a round robin (``spec/pairings.md`` §6, ``spec/standings.md``
§3), on SQLite and on PostgreSQL: the table keeps their boards, each a forfeit they lose, so
the event pairs on; the standings leave out a player who played fewer than half their games,
with every game of theirs (FIDE's rule for a round robin left early), and count one who
played half or more; a withdrawn player's board takes no result but a forfeit."""

from __future__ import annotations

import html
from typing import Any

import pytest
from flask.testing import FlaskClient

from arbiter.pairing import check, read_trf
from arbiter.service.web import words
from tests.events.conftest import body
from tests.events.test_paired import game_text, post, upload

NAMES = ["Ann", "Bo", "Cy", "Di", "Ed", "Flo"]


def round_robin(client: FlaskClient, names: list[str], pairing: str = "round-robin") -> Any:
    made = body(client.post("/api/v1/events", json={
        "name": "Club round robin", "game": "Pilo", "pairing": pairing,
    }))  # fmt: skip
    base = f"/api/v1/events/{made['id']}"
    post(client, f"{base}/players", made["token"], {"players": [{"name": n} for n in names]})
    return base, made["token"]


def play_round(client: FlaskClient, base: str, token: str, number: int) -> dict[str, Any]:
    """Pair round ``number``; each board still waiting is won by its first seat."""
    paired = post(client, f"{base}/rounds", token)
    assert paired.status_code == 201, paired.json
    for board in body(paired)["boards"]:
        if board["result"] is None:
            done = post(client, f"{base}/rounds/{number}/boards/{board['board']}/result", token,
                        {"result": "1-0", "reason": "played"}, "PUT")  # fmt: skip
            assert done.status_code == 200, done.json
    found: dict[str, Any] = body(client.get(f"{base}/rounds/{number}"))
    return found


def number_of(client: FlaskClient, base: str, name: str) -> int:
    players = body(client.get(f"{base}/players"))["players"]
    found: int = next(p["number"] for p in players if p["name"] == name)
    return found


def withdraw(client: FlaskClient, base: str, token: str, name: str, from_round: int) -> None:
    number = number_of(client, base, name)
    gone = post(client, f"{base}/players/{number}/withdraw", token,
                {"round": from_round, "reason": "left"})  # fmt: skip
    assert gone.status_code == 200, gone.json


def standings(client: FlaskClient, base: str) -> dict[str, Any]:
    found: dict[str, Any] = body(client.get(f"{base}/standings"))
    return found


def test_a_round_robin_pairs_on_after_a_withdrawal_and_their_boards_are_forfeits(
    client: FlaskClient,
) -> None:
    """Five players: one who played both of the first two rounds withdraws. Each later
    round is paired by the table (it was refused with a server error before); their board
    is a forfeit they lose; the round the table gives them off brings them no bye; the TRF
    checks as the table pairs it. They played 2 of 4 games, half: they stay ranked."""
    base, token = round_robin(client, NAMES[:5])
    seated: list[set[str]] = []
    for number in (1, 2):
        shown = play_round(client, base, token, number)
        seated.append({name for b in shown["boards"] for name in (b["first"], b["second"])})
    name = sorted(seated[0] & seated[1])[0]
    withdraw(client, base, token, name, 3)
    gone = number_of(client, base, name)
    boards, byes = [], []
    for number in (3, 4, 5):
        shown = play_round(client, base, token, number)
        boards += [b for b in shown["boards"] if gone in (b["first_number"], b["second_number"])]
        byes += [b for b in shown["byes"] if b["number"] == gone]
        assert shown["waiting"] == []
    assert len(boards) == 2 and [(b["kind"], b["points"]) for b in byes] == [("withdrawn", 0)]
    for board in boards:
        assert board["result"] == ("-+" if board["first_number"] == gone else "+-"), board
        assert board["state"] == "result"
    table = standings(client, base)
    assert table["left_out"] == []
    line = next(s for s in table["standings"] if s["player"] == name)
    assert (line["played"], line["forfeit_losses"], line["points"]) == (2, 2, 1)
    assert line["withdrew_from"] == 3  # marked, and ranked
    page = html.unescape(client.get(base.replace("/api/v1", "")).get_data(as_text=True))
    ranked = page.split('id="standings-1"')[1].split("</table>")[0]
    assert f'{name}</a> <span class="withdrew">withdrawn from round 3</span>' in ranked
    trf = client.get(f"{base}/standings?format=trf").data.decode()
    tournament = read_trf(trf)
    assert check(tournament, "round-robin") == []
    lost = [g for g in tournament.games if gone in (g.first, g.second) and g.round >= 3]
    assert len(lost) == 2 and all(not g.played for g in lost)


def left_early(client: FlaskClient) -> tuple[str, str, str]:
    """Six players: Ed wins round 1 and withdraws from round 2; rounds 2 and 3 are played.
    The event, its token, and the player Ed beat."""
    base, token = round_robin(client, NAMES)
    first = play_round(client, base, token, 1)
    ed = number_of(client, base, "Ed")
    [ed_board] = [b for b in first["boards"] if ed in (b["first_number"], b["second_number"])]
    post(client, f"{base}/rounds/1/boards/{ed_board['board']}/result", token,
         {"result": "1-0" if ed_board["first_number"] == ed else "0-1", "reason": "Ed won"},
         "PUT")  # fmt: skip
    opponent = ed_board["second"] if ed_board["first_number"] == ed else ed_board["first"]
    withdraw(client, base, token, "Ed", 2)
    for number in (2, 3):
        play_round(client, base, token, number)
    return base, token, opponent


def test_a_player_who_withdrew_having_played_fewer_than_half_is_left_out(
    client: FlaskClient,
) -> None:
    """Six players, five games each: Ed plays round 1 only (beating Bo) and withdraws. Ed
    is not ranked, and no game of Ed's counts for anyone: Bo's loss to Ed and the forfeits
    Ed's later opponents won are gone from their points; the JSON and the warnings say why.
    Taken back, the withdrawal leaves Ed counted again."""
    base, token, opponent = left_early(client)
    table = standings(client, base)
    assert table["left_out"] == [{"player": "Ed", "withdrew_from": 2, "played": 1, "games": 5}]
    lines = {s["player"]: s for s in table["standings"]}
    assert "Ed" not in lines and len(lines) == 5
    rows = {row["player"]: row["results"] for row in table["crosstable"]}
    assert rows[opponent][0] is None  # the game lost to Ed does not count
    assert sum(s["forfeit_wins"] for s in lines.values()) == 0  # nor the forfeits Ed lost
    assert sum(s["games"] for s in lines.values()) == 3 * 2 * 2  # 3 rounds, 2 boards each
    assert any("Ed withdrew from round 2 having played 1 of 5 games" in w
               for w in table["warnings"])  # fmt: skip
    assert all("Ed" not in [c.get("opponent") for c in row["results"] if c]
               for row in table["crosstable"])  # fmt: skip
    number = number_of(client, base, "Ed")
    back = post(client, f"{base}/players/{number}/withdraw", token, {"reason": "back"}, "DELETE")
    assert back.status_code == 200, back.json
    again = standings(client, base)
    assert again["left_out"] == [] and "Ed" in [s["player"] for s in again["standings"]]


def test_a_double_round_robin_counts_the_games_of_both_cycles(client: FlaskClient) -> None:
    """Four players, six games each: a player who played two and withdrew is left out
    (two of six); one who played three is not (half)."""
    base, token = round_robin(client, NAMES[:4], "double-round-robin")
    for number in (1, 2):
        play_round(client, base, token, number)
    withdraw(client, base, token, "Di", 3)
    play_round(client, base, token, 3)
    assert standings(client, base)["left_out"] == [
        {"player": "Di", "withdrew_from": 3, "played": 2, "games": 6}
    ]
    base, token = round_robin(client, NAMES[:4], "double-round-robin")
    for number in (1, 2, 3):
        play_round(client, base, token, number)
    withdraw(client, base, token, "Di", 4)
    play_round(client, base, token, 4)
    assert standings(client, base)["left_out"] == []


def withdrawn_board(client: FlaskClient) -> tuple[str, str, dict[str, Any], int]:
    """Four players: Di withdraws after round 1, and round 2 is paired. The event, its
    token, Di's board of round 2 and Di's number."""
    base, token = round_robin(client, NAMES[:4])
    play_round(client, base, token, 1)
    withdraw(client, base, token, "Di", 2)
    paired = body(post(client, f"{base}/rounds", token))
    di = number_of(client, base, "Di")
    [board] = [b for b in paired["boards"] if di in (b["first_number"], b["second_number"])]
    return base, token, board, di


@pytest.mark.parametrize(("given", "status"), [("1-0", 409), ("0-1", 409), ("--", 200)])
def test_a_withdrawn_players_board_takes_only_a_forfeit(
    client: FlaskClient, given: str, status: int
) -> None:
    """A board of a player withdrawn by its round is a forfeit that player loses: the
    director may make it a double forfeit, not a game either side won."""
    base, token, board, di = withdrawn_board(client)
    answer = post(client, f"{base}/rounds/2/boards/{board['board']}/result", token,
                  {"result": given, "reason": "asked"}, "PUT")  # fmt: skip
    assert answer.status_code == status, answer.json
    if status == 409:
        assert body(answer)["error"]["code"] == "player-withdrawn"
    shown = body(client.get(f"{base}/rounds/2"))["boards"][board["board"] - 1]
    expected = "--" if status == 200 else ("-+" if board["first_number"] == di else "+-")
    assert shown["result"] == expected


@pytest.mark.parametrize(
    ("code", "said"),
    [
        ("en", "Ed withdrew from round 2 having played 1 of 5 games, fewer than half"),
        ("fr", "Ed s'est retiré à partir de la ronde 2 après avoir joué 1 de ses 5 parties"),
        ("es", "Ed se retiró desde la ronda 2 tras jugar 1 de sus 5 partidas"),
    ],
)
def test_the_event_page_says_who_is_left_out_in_its_language(
    client: FlaskClient, code: str, said: str
) -> None:
    """The standings on the event's page, and after a round on the round's page, say why a
    player is not ranked, in the reader's language (the phrase book knows the sentence),
    and do not rank them; the player's own page says it too."""
    base, _, _ = left_early(client)
    pages = base.replace("/api/v1", "")
    ed = number_of(client, base, "Ed")
    for path in ("", "/rounds/2", f"/players/{ed}"):
        words.MISSED.clear()
        page = html.unescape(client.get(f"{pages}{path}?lang={code}").get_data(as_text=True))
        assert not words.MISSED, path
        assert said in page, path
    page = html.unescape(client.get(f"{pages}?lang={code}").get_data(as_text=True))
    ranked = page.split('id="standings-1"')[1].split("</table>")[0]
    assert ">Ed<" not in ranked
    before = html.unescape(client.get(f"{pages}/rounds/1?lang={code}").get_data(as_text=True))
    assert said not in before  # after round 1, Ed had not withdrawn yet


def test_a_record_of_a_withdrawn_players_board_stands_on_no_board(client: FlaskClient) -> None:
    """A record uploaded for a board whose player had withdrawn does not take the board (it
    has its forfeit already), and the director cannot place it there."""
    base, token, board, di = withdrawn_board(client)
    event = base.rsplit("/", 1)[1]
    text = game_text("Club round robin", 2, board["first"], board["second"], board["first"])
    kept = upload(client, event, token, text)
    assert kept["placement"] == "board-has-a-result"
    placed = post(client, f"{base}/records/{kept['record']}/place", token,
                  {"round": 2, "board": board["board"], "reason": "it was played"})  # fmt: skip
    assert placed.status_code == 409 and body(placed)["error"]["code"] == "player-withdrawn"
    shown = body(client.get(f"{base}/rounds/2"))["boards"][board["board"] - 1]
    assert shown["result"] == ("-+" if board["first_number"] == di else "+-")


def test_a_withdrawal_made_by_mistake_is_taken_back_after_the_last_round_is_paired(
    client: FlaskClient,
) -> None:
    """Di is withdrawn from the last round by mistake and the round is paired: the
    withdrawal can still be taken back (a round robin's table has paired Di all along), and
    Di's board then waits for the result the director gives it, sent twice alike."""
    base, token = round_robin(client, NAMES[:4])
    for number in (1, 2):
        play_round(client, base, token, number)
    withdraw(client, base, token, "Di", 3)
    paired = body(post(client, f"{base}/rounds", token))
    di = number_of(client, base, "Di")
    [board] = [b for b in paired["boards"] if di in (b["first_number"], b["second_number"])]
    assert board["result"] is not None
    back = post(client, f"{base}/players/{di}/withdraw", token, {"reason": "a mistake"}, "DELETE")
    assert back.status_code == 200, back.json
    shown = body(client.get(f"{base}/rounds/3"))
    assert board["board"] in shown["waiting"]
    path = f"{base}/rounds/3/boards/{board['board']}/result"
    won = "1-0" if board["first_number"] == di else "0-1"
    for _ in range(2):
        done = post(client, path, token, {"result": won, "reason": "Di played"}, "PUT")
        assert done.status_code == 200, done.json
    table = standings(client, base)
    assert table["left_out"] == [] and "withdrew_from" not in next(
        s for s in table["standings"] if s["player"] == "Di"
    )
    assert body(client.get(f"{base}/verify"))["problems"] == []


@pytest.mark.parametrize("code", ["en", "fr"])
def test_a_name_typed_as_html_is_shown_as_text_in_the_notes(client: FlaskClient, code: str) -> None:
    """A player named like markup, left out of the standings: the note about them on the
    event's page, its round's and their own shows the name as text, in every language."""
    hostile = "<img src=x onerror=alert(1)>"
    base, token = round_robin(client, [*NAMES[:4], hostile, "Flo"])
    play_round(client, base, token, 1)
    withdraw(client, base, token, hostile, 2)
    play_round(client, base, token, 2)
    assert standings(client, base)["left_out"][0]["player"] == hostile
    pages = base.replace("/api/v1", "")
    number = number_of(client, base, hostile)
    for path in ("", "/rounds/2", f"/players/{number}"):
        page = client.get(f"{pages}{path}?lang={code}").get_data(as_text=True)
        assert hostile not in page, path
        assert "&lt;img src=x onerror=alert(1)&gt;" in page, path
