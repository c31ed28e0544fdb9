"""TRF read and written (``spec/pairings.md``, "TRF"): the codes, the line ends, the located
errors, and a file that reads back as it was written."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arbiter.pairing import Bye, Game, Player, Tournament, TrfError, read_trf, write_trf
from arbiter.pairing.trf import read_ranks
from fuzz.work import counted
from tests.budget import examples
from tests.pairing.events import played, player_line

SMALL = "\n".join(
    [
        "012 Club Swiss",
        "XXR 5",
        "XXC black1",
        player_line(1, "Ann", 2.0, ["   4 w 1", "   2 b +"], rating=2100),
        player_line(2, "Bob", 0.5, ["0000 - H", "   1 w -"], rating=2000),
        player_line(3, "Cid", 1.5, ["   5 b =", "0000 - U"], rating=1900),
        player_line(4, "Dee", 0.0, ["   1 b 0", "0000 - Z"]),
        player_line(5, "Eve", 1.5, ["   3 w =", "0000 - F", "0000 - H"]),
    ]
)


def canonical(t: Tournament) -> tuple[object, ...]:
    """A tournament with its games and byes in a fixed order."""
    return (
        t.players,
        t.rounds_planned,
        sorted(t.games, key=lambda g: (g.round, g.first)),
        sorted(t.byes, key=lambda b: (b.round, b.player)),
        dict(t.withdrawn),
        t.initial_colour,
        t.bye_points,
        t.system,
    )


def test_a_small_file_reads_into_games_and_byes_of_every_kind() -> None:
    t = read_trf(SMALL)
    assert t.rounds_planned == 5 and t.initial_colour == "second" and t.bye_points == 1.0
    assert t.players[0] == Player(1, "Ann", rating=2100)
    assert t.players[3].rating is None
    assert sorted(t.games, key=lambda g: (g.round, g.first)) == [
        Game(1, 1, 4, "1-0"),
        Game(1, 5, 3, "="),
        Game(2, 2, 1, "-+"),
    ]
    assert sorted(t.byes, key=lambda b: (b.round, b.player)) == [
        Bye(1, 2, "half", 0.5),
        Bye(2, 3, "pairing", 1.0),
        Bye(2, 4, "zero", 0.0),
        Bye(2, 5, "full", 1.0),
        Bye(3, 5, "half", 0.5),
    ]
    assert t.rounds_paired == 2
    assert t.points(5) == 2.0 and t.points(5, before=3) == 1.5


@pytest.mark.parametrize("end", ["\n", "\r\n", "\r"])
def test_every_line_end_reads_the_same(end: str) -> None:
    assert canonical(read_trf(SMALL.replace("\n", end) + end)) == canonical(read_trf(SMALL))


def test_the_2026_codes_mean_what_the_xx_codes_mean() -> None:
    new = SMALL.replace("XXR 5", "142 5").replace("XXC black1", "152 B")
    assert canonical(read_trf(new)) == canonical(read_trf(SMALL))
    white = read_trf(SMALL.replace("XXC black1", "152 W"))
    assert white.initial_colour == "first"


def test_record_240_gives_byes_and_may_repeat_a_round_entry() -> None:
    text = SMALL + "\n240 H 003 0002 0004\n240 F 002 0005"
    t = read_trf(text)
    assert Bye(3, 2, "half", 0.5) in t.byes and Bye(3, 4, "half", 0.5) in t.byes
    assert sum(1 for b in t.byes if b == Bye(2, 5, "full", 1.0)) == 1


def test_the_pairing_allocated_bye_s_points_come_from_162_or_bbu() -> None:
    half = SMALL.replace("XXR 5", "XXR 5\n162  P 0.5").replace(
        "1.5    1     5 b =", "1.0    1     5 b ="
    )
    t = read_trf(half)
    assert t.bye_points == 0.5 and Bye(2, 3, "pairing", 0.5) in t.byes
    zero = SMALL.replace("XXR 5", "XXR 5\nBBU  0.0").replace(
        "1.5    1     5 b =", "0.5    1     5 b ="
    )
    assert read_trf(zero).bye_points == 0.0


def test_w_l_and_d_are_games_and_older_byes_are_read() -> None:
    text = "\n".join(
        [
            player_line(1, "A", None, ["   2 w W", "0000 - +"]),
            player_line(2, "B", 0.0, ["   1 b L", "0000 - -"]),
        ]
    )
    t = read_trf(text)
    assert t.games == (Game(1, 1, 2, "1-0"),)
    assert set(t.byes) == {Bye(2, 1, "pairing", 1.0), Bye(2, 2, "zero", 0.0)}


def test_points_may_count_a_requested_bye_of_the_next_round_or_not() -> None:
    without = SMALL.replace("1.5    1     3 w =", "1.5    1     3 w =")
    counted_too = SMALL.replace(
        player_line(5, "Eve", 1.5, ["   3 w =", "0000 - F", "0000 - H"]),
        player_line(5, "Eve", 2.0, ["   3 w =", "0000 - F", "0000 - H"]),
    )
    assert read_trf(without).points(5) == read_trf(counted_too).points(5) == 2.0


BAD = [
    (SMALL.replace("XXR 5", "XXR five"), 2, "bad-value"),
    (SMALL.replace("XXC black1", "152 X"), 3, "bad-value"),
    (SMALL.replace("XXC black1", "XXC rank"), 3, "unsupported"),
    (SMALL + "\n250      0.0   1   3    1    2", 9, "bad-value"),
    (SMALL + "\n250      1.0   3   1    1    2", 9, "bad-value"),
    (SMALL + "\n250      1.0   1   3    1    2\nXXA    1  1.0", 10, "mismatch"),
    (SMALL + "\nXXA    1  1.0\nXXA    1  0.5", 10, "mismatch"),
    (SMALL + "\n260   1   2    1    9", 9, "unknown-player"),
    (SMALL + "\n260   1   2    1    1", 9, "bad-value"),
    (SMALL + "\n260   3   9    1    2", 9, "bad-value"),
    (SMALL + "\nXXP 1", 9, "bad-value"),
    (SMALL + "\n299 W   1.0  1.0 001 0001", 9, "unsupported"),
    (SMALL + "\n310   1 Team", 9, "unsupported"),
    (SMALL + "\n162  W 3.0", 9, "unsupported"),
    (SMALL + "\n162  P 0.7", 9, "unsupported"),
    (SMALL + "\n192 FIDE_BURSTEIN", 9, "unsupported"),
    (SMALL + "\n" + player_line(1, "Again", 0.0), 9, "duplicate-player"),
    (SMALL.replace("001    4", "001   x4"), 7, "bad-value"),
    (SMALL.replace("   4 w 1", "   4 w 9"), 4, "bad-entry"),
    (SMALL.replace("   4 w 1", "  4x w 1"), 4, "bad-entry"),
    (SMALL.replace("   4 w 1", "   4 - 1"), 4, "bad-entry"),
    (SMALL.replace("   4 w 1", "   4 b 1"), 4, "mismatch"),
    (SMALL.replace("   4 w 1", "   4 w 0"), 4, "mismatch"),
    (SMALL.replace("   4 w 1", "   9 w 1"), 4, "unknown-opponent"),
    (SMALL.replace("0000 - H", "0000 w H", 1), 5, "bad-entry"),
    (SMALL.replace("0000 - H", "   3 - H", 1), 5, "bad-entry"),
    (SMALL.replace("0000 - H", "0000 - 1", 1), 5, "bad-entry"),
    (SMALL.replace("2.0    1     4 w 1", "3.0    1     4 w 1"), 4, "points"),
    (SMALL.replace("2100", "21x0"), 4, "bad-value"),
    (SMALL + "\n240 Q 003 0002", 9, "bad-value"),
    (SMALL + "\n240 H 003 0009", 9, "unknown-player"),
    (SMALL + "\n240 H 001 0001", 9, "mismatch"),
    ("012 nothing\n", 0, "no-players"),
    (SMALL.replace("XXR 5", "XXR 1"), 0, "inconsistent"),
    (player_line(1, "A", None, ["   2 w 1"] * 1000), 1, "too-large"),
]


@pytest.mark.parametrize(("text", "line", "code"), BAD)
def test_what_cannot_be_paired_from_is_a_located_error(text: str, line: int, code: str) -> None:
    with pytest.raises(TrfError) as caught:
        read_trf(text)
    assert (caught.value.line, caught.value.code) == (line, code), caught.value.message
    assert caught.value.message


@settings(max_examples=examples(300))
@given(st.text(alphabet=st.sampled_from("0123456789 wb-+=HFUZXDLW\n\r#0"), max_size=400))
def test_any_text_is_a_tournament_or_a_located_error(text: str) -> None:
    _read_or_located("001    1      A" + " " * 66 + text)


@settings(max_examples=examples(300))
@given(st.data())
def test_a_changed_character_of_a_good_file_is_a_tournament_or_a_located_error(
    data: st.DataObject,
) -> None:
    text = SMALL
    for _ in range(data.draw(st.integers(1, 4))):
        at = data.draw(st.integers(0, len(text) - 1))
        char = data.draw(st.sampled_from("0123456789 wbWB-+=HFUZ\nX"))
        text = text[:at] + char + text[at + 1 :]
    _read_or_located(text)


@settings(max_examples=examples(200))
@given(st.text(max_size=300))
def test_any_unicode_text_is_a_tournament_or_a_located_error(text: str) -> None:
    _read_or_located(text)


def _read_or_located(text: str) -> None:
    lines = len(re.split(r"\r\n|\r|\n", text))
    try:
        read_trf(text)
    except TrfError as err:
        assert 0 <= err.line <= lines and re.fullmatch(r"[a-z-]+", err.code) and err.message


def test_reading_is_linear_in_the_file() -> None:
    small = write_trf(played(20, 3), name="x")
    large = "\n".join(
        [small.strip()] + [player_line(n, f"P{n}", 0.0) for n in range(21, 21 + 20 * 9)]
    )
    _, few = counted(lambda: read_trf(small))
    _, many = counted(lambda: read_trf(large))
    assert many < 15 * few


# --- writing ------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_written_file_reads_back_as_the_tournament(seed: int) -> None:
    t = played(9, 4, seed=seed, planned=7)
    assert canonical(read_trf(write_trf(t, name="Club"))) == canonical(t)


def test_the_written_lines_and_columns() -> None:
    t = Tournament(
        players=(Player(1, "Ann", 2100, "ESP", "12345678"), Player(2, "Bob"), Player(3, "Cid")),
        rounds_planned=3,
        games=(Game(1, 2, 1, "0-1"),),
        byes=(Bye(1, 3, "pairing", 0.5), Bye(2, 3, "half", 0.5)),
        initial_colour="second",
        bye_points=0.5,
        system="dutch",
    )
    text = write_trf(t, name="Open\nA", comments=("### kept by arbiter",))
    lines = text.split("\n")
    assert lines[:9] == [
        "012 Open A",
        "062 3",
        "142 3",
        "XXR 3",
        "152 B",
        "XXC black1",
        "162  P 0.5",
        "192 FIDE_DUTCH",
        "### kept by arbiter",
    ]
    ann = lines[9]
    assert ann[:8] == "001    1" and ann[14:47].rstrip() == "Ann" and ann[48:52] == "2100"
    assert ann[53:56] == "ESP" and ann[57:68].strip() == "12345678"
    assert ann[80:84] == " 1.0" and ann[85:89] == "   1" and ann[91:99] == "   2 b 1"
    assert lines[10][91:99] == "   1 w 0"
    assert lines[11][80:84] == " 1.0" and lines[11][91:] == "0000 - U  0000 - H"
    assert text.endswith("\n") and "\r" not in text


def test_a_withdrawn_player_is_absent_up_to_the_next_round() -> None:
    """TRF has no withdrawal: the file says the player is absent from the round paired next
    (the engines then leave them out), and reads back as that absence."""
    t = played(6, 1, planned=5)
    t = Tournament(
        players=t.players, rounds_planned=5, games=t.games, byes=t.byes, withdrawn={4: 2}
    )
    text = write_trf(t, name="x")
    [line] = [x for x in text.split("\n") if x.startswith("001    4")]
    assert line[101:] == "0000 - Z"
    assert Bye(2, 4, "zero", 0.0) in read_trf(text).byes
    with pytest.raises(ValueError, match="withdrew"):
        Tournament(players=t.players, games=t.games, withdrawn={4: 1})


def test_what_trf_cannot_hold_is_refused() -> None:
    pending = Tournament(players=(Player(1, "A"), Player(2, "B")), games=(Game(1, 1, 2),))
    with pytest.raises(ValueError, match="no result"):
        write_trf(pending, name="x")
    with pytest.raises(ValueError, match="###"):
        write_trf(played(4, 1), name="x", comments=("a note",))


@pytest.mark.parametrize(("points", "shown"), [(3.0, " 3.0"), (99.5, "99.5"), (100.0, " 100"),
                                               (100.5, "    "), (999.0, " 999")])  # fmt: skip
def test_points_keep_their_four_columns_whatever_the_score(points: float, shown: str) -> None:
    from arbiter.pairing.trf import points_field

    assert points_field(points) == shown


def test_a_file_of_a_hundred_points_and_more_is_read_back() -> None:
    from arbiter.pairing import Bye, Player, Tournament, read_trf, write_trf

    byes = tuple(Bye(r, 1, "pairing", 1.0) for r in range(1, 101))
    byes += (Bye(101, 1, "half", 0.5),) + tuple(Bye(r, 2, "zero", 0.0) for r in range(1, 102))
    made = Tournament(players=(Player(1, "Ann"), Player(2, "Bo")), rounds_planned=101, byes=byes)
    text = write_trf(made, name="Long")
    line = next(one for one in text.splitlines() if one.startswith("001    1"))
    assert line[80:84] == "    " and line[85:89] == "   1"  # 100.5: no room, left to the results
    again = read_trf(text)
    assert again.points(1) == 100.5 and again.points(2) == 0


def test_the_ranks_given_are_written_and_checked() -> None:
    """The standings a file goes with give its ranks (columns 86-89); without them the rank
    is by points, players with equal points sharing one."""
    t = played(6, 2, seed=4, planned=4)
    by_points = read_ranks(write_trf(t, name="x"))
    points = {n: t.points(n) for n in t.numbers}
    assert all(by_points[n] == 1 + sum(v > points[n] for v in points.values()) for n in points)
    given = {n: 7 - n for n in t.numbers}
    assert read_ranks(write_trf(t, name="x", ranks=given)) == given
    for wrong in ({n: 1 for n in t.numbers[1:]}, {n: 10_000 for n in t.numbers}):
        with pytest.raises(ValueError, match="no rank from 1 to 9999"):
            write_trf(t, name="x", ranks=wrong)
