"""FIDE's tie-breaks by their codes (C.07; ``spec/pairings.md`` §10): each against a worked
example computed by hand, the whole catalogue against gacrux (FIDE's reference tool) on
generated tournaments, and the checker of a file's ranks."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from arbiter.pairing import Bye, Game, Player, Tournament, write_trf
from arbiter.pairing.generate import Settings, generate
from arbiter.pairing.tiebreaks import (
    drawing_of_lots,
    parse_tiebreak,
    parse_tiebreaks,
    rank_differences,
    ranks,
    tiebreak_values,
)
from arbiter.pairing.trf import read_ranks
from arbiter.service.cli.main import main


def swiss() -> Tournament:
    """Six players, three rounds. Round 1: 1-4 1-0, 5-2 0-1, 3-6 1-0. Round 2: 2-1 1-0, 3 a
    half-point bye, 4-6 won by 4 by forfeit, 5 the pairing-allocated bye. Round 3: 1-3 1-0,
    2-4 0-1, 5-6 a draw. Points: 1, 2 and 4 have 2; 3 and 5 have 1.5; 6 has 0.5. Every
    player has a game in the last round, so no score is adjusted."""
    return Tournament(
        players=tuple(Player(n, f"P{n}", 2100 - 100 * n) for n in range(1, 7)),
        rounds_planned=3,
        games=(
            Game(1, 1, 4, "1-0"), Game(1, 5, 2, "0-1"), Game(1, 3, 6, "1-0"),
            Game(2, 2, 1, "1-0"), Game(2, 4, 6, "+-"),
            Game(3, 1, 3, "1-0"), Game(3, 2, 4, "0-1"), Game(3, 5, 6, "="),
        ),
        byes=(Bye(2, 3, "half", 0.5), Bye(2, 5, "pairing", 1.0)),
        system="dutch",
    )  # fmt: skip


SWISS = {
    # opponents' scores, a dummy with the player's own score (at most half a point a round,
    # at most the forfeiting opponent's score) for an unplayed round
    "BH": [5.5, 5.5, 4.0, 4.5, 4.0, 3.5],
    # 3 and 6 lose their voluntarily unplayed round first, whatever the others are worth
    "BH/C1": [4.0, 4.0, 2.5, 4.0, 3.5, 3.0],
    # the lowest (a VUR first: 3 keeps its 0.5 and loses the bye's 1.5) and the highest
    "BH/M1": [2.0, 2.0, 0.5, 2.0, 1.5, 1.5],
    # the last round taken as drawn by all: 1 counts 4 at 1.5, 2 at 2.5, 3 at 2
    "FB": [6.0, 4.5, 3.5, 4.5, 4.5, 4.0],
    "AOB": [4.67, 4.67, 4.5, 5.5, 4.5, 4.0],
    # 3 takes half a point from its bye's dummy of 1.5: 0.75; 5 a quarter from 6
    "SB": [3.5, 3.5, 1.25, 2.5, 1.75, 0.75],
    "PS": [4.0, 5.0, 4.0, 3.0, 2.5, 0.5],
    "PS/C1": [3.0, 4.0, 3.0, 3.0, 2.5, 0.5],
    "WIN": [2, 2, 1, 2, 1, 0],
    "WON": [2, 2, 1, 1, 0, 0],
    "BPG": [1, 1, 1, 2, 0, 2],
    "BWG": [0, 1, 0, 1, 0, 0],
    "REP": [3, 3, 2, 3, 3, 2],
    "STD": [2.0, 2.0, 1.5, 2.0, 1.5, 0.5],
    "ARO": [1800, 1767, 1750, 1950, 1700, 1700],
    "ARO/C1": [1850, 1850, 2000, 2000, 1900, 1800],
    "RTNG": [2000, 1900, 1800, 1700, 1600, 1500],
    "TPN": [-1, -2, -3, -4, -5, -6],
    # ARO plus dp of the percentage over the games played: 1 and 2 scored 2/3 (67%: +125),
    # 3 and 4 1/2 (50%: 0), 5 and 6 0.5/2 (25%: -193)
    "TPR": [1925, 1892, 1750, 1950, 1507, 1507],
    # the lowest rating expected to score as much (table 8.1b): 3 at 1746 expects .81
    # against 1500 (246 above) and .19 against 2000 (254 below); at 1745, .80 and .19.
    # 4 at 1947 expects .57 (47 above 1900) and .43 (53 below 2000); at 1946, .56 and .42
    "PTP": [1926, 1907, 1746, 1947, 1454, 1494],
    # without the lowest-rated opponent and the points taken from them: 3 keeps a loss to
    # 2000 (no point: 2000 - 800), 1 a loss to 1900 and a win over 1800 (1847, as 4 above)
    "PTP/C1": [1847, 1847, 1200, 1200, 1100, 1000],
    # the opponents' TPR averaged: 1 met 4 (1950), 2 (1892) and 3 (1750): 5592 / 3
    "APRO": [1864, 1794, 1716, 1909, 1700, 1629],
    # the opponents' PTP averaged: 3 met 6 (1494) and 1 (1926): 1710
    "APPO": [1867, 1776, 1710, 1917, 1701, 1600],
}


@pytest.mark.parametrize(("code", "expected"), SWISS.items(), ids=list(SWISS))
def test_a_swiss_worked_example(code: str, expected: list[float]) -> None:
    got = tiebreak_values(swiss(), parse_tiebreak(code))
    assert [got[n] for n in range(1, 7)] == expected


def test_rating_tiebreaks_need_every_rating_or_one_for_the_unrated() -> None:
    """With 2 and 5 unrated, the rating tie-breaks separate nobody, unless ``/U`` gives the
    unrated a rating: then 1 met 4 (1700), 2 (1400) and 3 (1800), an average of 1633, and
    scored 67% (+125)."""
    unrated = replace(swiss(), players=tuple(
        replace(p, rating=None) if p.number in (2, 5) else p for p in swiss().players
    ))  # fmt: skip
    for code in ("RTNG", "ARO", "TPR", "PTP", "APRO", "APPO"):
        assert set(tiebreak_values(unrated, parse_tiebreak(code)).values()) == {None}, code
    assert tiebreak_values(unrated, parse_tiebreak("TPR/U1400"))[1] == 1758
    assert tiebreak_values(unrated, parse_tiebreak("RTNG/U0"))[2] == 0
    assert tiebreak_values(unrated, parse_tiebreak("ARO/U1400"))[1] == 1633


def robin() -> Tournament:
    """Four players, the Berger table's three rounds. Round 1: 1-4 1-0, 2-3 0-1. Round 2:
    4-3 won by 4 by forfeit, 1-2 0-1. Round 3: 2-4 1-0, 3-1 0-1. Points: 1 and 2 have 2, 3
    and 4 have 1."""
    return Tournament(
        players=tuple(Player(n, f"P{n}", 2100 - 100 * n) for n in range(1, 5)),
        rounds_planned=3,
        games=(
            Game(1, 1, 4, "1-0"), Game(1, 2, 3, "0-1"),
            Game(2, 4, 3, "+-"), Game(2, 1, 2, "0-1"),
            Game(3, 2, 4, "1-0"), Game(3, 3, 1, "0-1"),
        ),
        system="round-robin",
    )  # fmt: skip


ROBIN = {
    # the forfeit counts as played: the pairing was the table's, not a choice
    "SB": [2.0, 3.0, 2.0, 1.0],
    # the lowest opponent's part goes, not the lowest part: 2 keeps its 1 from beating 4
    "SB/C1": [1.0, 3.0, 2.0, 0.0],
    # Koya: the points taken from opponents with half the possible points (1.5) or more
    "KS": [0.0, 1.0, 1.0, 0.0],
    "KS/L-1": [2.0, 2.0, 1.0, 1.0],
    "KS/L+1": [0.0, 1.0, 1.0, 0.0],
    "WIN": [2, 2, 1, 1],
    "WON": [2, 2, 1, 0],
    "RTNG/R": [2000, 1900, 1800, 1700],
    "TPN/R": [-1, -2, -3, -4],
}


@pytest.mark.parametrize(("code", "expected"), ROBIN.items(), ids=list(ROBIN))
def test_a_round_robin_worked_example(code: str, expected: list[float]) -> None:
    got = tiebreak_values(robin(), parse_tiebreak(code))
    assert [got[n] for n in range(1, 5)] == expected


def test_the_standings_split_only_the_players_still_tied() -> None:
    """1, 2 and 4 have 2 points; Buchholz puts 4 below 1 and 2, Sonneborn-Berger does not
    separate them, and 2 beat 1 (direct encounter); Sonneborn-Berger puts 5 above 3. With
    Buchholz alone, 1 and 2, and 3 and 5, share their ranks."""
    listed = parse_tiebreaks(["BH", "SB", "DE"], "dutch")
    assert ranks(swiss(), listed) == {2: 1, 1: 2, 4: 3, 5: 4, 3: 5, 6: 6}
    assert ranks(swiss(), parse_tiebreaks(["BH"], "dutch")) == {1: 1, 2: 1, 4: 3, 3: 4, 5: 4, 6: 6}


def test_direct_encounter_counts_a_forfeit_only_in_a_round_robin() -> None:
    """3 and 4 are tied; 4 won their game by forfeit. The round robin's table paired them,
    so it counts; in a Swiss only games played over the board do, and they stay tied."""
    assert ranks(robin(), parse_tiebreaks(["DE"], "round-robin")) == {2: 1, 1: 2, 4: 3, 3: 4}
    swiss_reading = replace(robin(), system="dutch")
    assert ranks(swiss_reading, parse_tiebreaks(["DE"], "dutch"))[3] == 3


@pytest.mark.parametrize(
    ("codes", "system", "message"),
    [
        (["BH"], "round-robin", "round robin cannot"),
        (["FB"], "double-round-robin", "round robin cannot"),
        (["AOB/C1"], "round-robin", "round robin cannot"),
        (["KS"], "dutch", "round-robin tie-break"),
        (["ZZ"], "dutch", "unknown tie-break"),
        (["SB/M1"], "dutch", "takes no /M1"),
        (["BH/C"], "dutch", "needs a number"),
        (["BH", "bh"], "dutch", "twice"),
        (["APRO/C1"], "dutch", "takes no /C1"),
        (["TPR/U"], "dutch", "needs a number"),
        (["TPR/U12345"], "dutch", "at most four digits"),
    ],
)
def test_what_a_list_may_not_hold(codes: list[str], system: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        parse_tiebreaks(codes, system)  # type: ignore[arg-type]


def test_the_older_codes_and_the_written_form() -> None:
    assert parse_tiebreak("ge") == parse_tiebreak("REP")
    assert [str(parse_tiebreak(c)) for c in ("bh/m2", "KS/L-1", "TPN/R")] == [
        "BH/M2",
        "KS/L-1",
        "TPN/R",
    ]


def test_the_catalogue_agrees_with_gacrux_on_generated_tournaments() -> None:
    """Every value of every code, on a Swiss with byes, absences and forfeits and on a
    round robin with forfeits, as gacrux's tie-break module computes it."""
    from gacrux.tiebreak import tiebreak

    from arbiter.pairing.dutch import _read_by_gacrux

    cases = {
        "dutch": (Settings(17, 6, seed=4, half_byes=8, zero_byes=6, forfeits=8), SWISS),
        "round-robin": (Settings(7, 6, seed=2, system="round-robin", forfeits=10), ROBIN),
    }
    for system, (settings, codes) in cases.items():
        made = generate(settings)
        engine = _read_by_gacrux(write_trf(made, name="x"))
        params = {"pre_determined": True} if system == "round-robin" else {"swiss": True}
        for code in codes:
            reference = tiebreak(engine, made.rounds_paired, dict(params))
            parsed = reference.parse_tiebreak(1, code)
            reference.compute_single_tiebreak(parsed)
            theirs = {n: c["tiebreakDetails"][0]["val"] for n, c in reference.cmps.items()}
            mine = tiebreak_values(made, parse_tiebreak(code))
            sign = -1 if code.startswith("TPN") else 1
            assert {n: None if v is None else sign * float(v) for n, v in theirs.items()} == mine, (
                system,
                code,
            )
    unrated = replace(swiss(), players=tuple(
        replace(p, rating=None) if p.number in (2, 5) else p for p in swiss().players
    ))  # fmt: skip
    engine = _read_by_gacrux(write_trf(unrated, name="u"))
    for code in ("TPR", "TPR/U1400", "PTP/U1400", "APRO/U1400", "APPO/U0", "ARO/U900/C1"):
        reference = tiebreak(engine, unrated.rounds_paired, {"swiss": True})
        reference.compute_single_tiebreak(reference.parse_tiebreak(1, code))
        theirs = {n: c["tiebreakDetails"][0]["val"] for n, c in reference.cmps.items()}
        mine = tiebreak_values(unrated, parse_tiebreak(code))
        assert {n: None if v is None else float(v) for n, v in theirs.items()} == mine, code


# --- the ranks of a file --------------------------------------------------------------------


def run(*args: str) -> Result:
    return CliRunner().invoke(main, ["pair", *args])


def exchanged(text: str, first: int, second: int) -> str:
    """``text`` with the ranks (columns 86-89) of two players' lines exchanged."""
    lines = text.split("\r")
    rows = {int(line[4:8]): k for k, line in enumerate(lines) if line.startswith("001")}
    a, b = lines[rows[first]], lines[rows[second]]
    lines[rows[first]] = a[:85] + b[85:89] + a[89:]
    lines[rows[second]] = b[:85] + a[85:89] + b[89:]
    return "\r".join(lines)


def test_a_generated_file_states_its_ranks_by_its_list() -> None:
    made = generate(Settings(14, 5, seed=8))
    text = write_trf(made, name="g", dialect="trf-2026", line_end="\r")
    assert "212 PTS,BH/C1,BH,SB,DE,WON" in text.split("\r")
    listed = parse_tiebreaks(made.tiebreaks, "dutch")
    assert read_ranks(text) == ranks(made, listed)
    assert rank_differences(made, read_ranks(text), listed) == ()


def test_a_file_whose_ranks_were_exchanged_fails_the_check(tmp_path: Path) -> None:
    made = generate(Settings(14, 5, seed=8))
    text = write_trf(made, name="g", dialect="trf-2026", line_end="\r")
    order = sorted(read_ranks(text).items(), key=lambda item: item[1])
    (top, _), (second, _) = order[0], order[1]
    path = tmp_path / "g.trf"
    path.write_bytes(text.encode())
    assert run("--check", str(path)).exit_code == 0
    path.write_bytes(exchanged(text, top, second).encode())
    done = run("--check", str(path))
    assert done.exit_code == 1
    assert f"standings: player {top}: rank 2 in the file, 1 by the standings" in done.output
    assert f"standings: player {second}: rank 1 in the file, 2 by the standings" in done.output
    assert "all 5 round(s) agree with dutch" in done.output


def test_without_a_list_the_points_alone_are_checked(tmp_path: Path) -> None:
    """A file without 202/212 (the bbp dialect writes none) is checked by points: players of
    equal points may stand in any order among the ranks they share, one of more points may
    not stand below one of fewer; ``--tiebreaks`` gives the list."""
    made = generate(Settings(12, 5, seed=9))
    text = write_trf(made, name="g", dialect="bbp", line_end="\r")
    points = {p.number: made.points(p.number) for p in made.players}
    by_rank = sorted(read_ranks(text), key=lambda n: read_ranks(text)[n])
    tied = next(
        (a, b) for a, b in zip(by_rank, by_rank[1:], strict=False) if points[a] == points[b]
    )
    apart = next(
        (a, b) for a, b in zip(by_rank, by_rank[1:], strict=False) if points[a] > points[b]
    )
    path = tmp_path / "g.trf"
    path.write_bytes(exchanged(text, *tied).encode())
    assert run("--check", str(path)).exit_code == 0
    assert run("--check", str(path), "--tiebreaks", "BH/C1,BH,SB,DE,WON").exit_code == 1
    path.write_bytes(exchanged(text, *apart).encode())
    assert run("--check", str(path)).exit_code == 1
    bad = run("--check", str(path), "--tiebreaks", "BH,XYZ")
    assert bad.exit_code == 1 and "unknown tie-break 'XYZ'" in bad.stderr


def test_the_ranks_agree_with_gacrux_where_a_player_has_no_rating_value() -> None:
    """With byes, absences and forfeits some players have no game over the board to average
    (or have every one cut by ``/M1``): they have no ``ARO``, ``TPR``... and are ranked
    below the tied players who have one, as gacrux ranks them, where the tie-break used to
    separate nobody."""
    from gacrux.tiebreak import tiebreak

    from arbiter.pairing.dutch import _read_by_gacrux

    lists = (["ARO/M1", "TPN"], ["TPR", "PTP", "APRO"], ["BH/C1", "APPO", "ARO/C1"])
    without = 0
    for seed in range(8):
        made = generate(Settings(11 + seed, 5 + seed % 4, seed=seed, half_byes=10,
                                 zero_byes=10, forfeits=10, full_byes=5))  # fmt: skip
        engine = _read_by_gacrux(write_trf(made, name="x"))
        for codes in lists:
            reference = tiebreak(engine, made.rounds_paired, {"swiss": True})
            for k, code in enumerate(["PTS", *codes]):
                reference.compute_single_tiebreak(reference.parse_tiebreak(k + 1, code))
            theirs = {c["cid"]: c["rank"] for c in reference.rankorder}
            assert ranks(made, parse_tiebreaks(codes, "dutch")) == theirs, (seed, codes)
        values = tiebreak_values(made, parse_tiebreak("ARO/M1")).values()
        without += None in values and set(values) != {None}
    assert without  # the case arises


def test_drawing_lots_breaks_the_ties_the_list_leaves_the_same_way_every_time() -> None:
    """The lots are seeded by the tournament: drawn again, the same order (Q206); another
    result, another draw. The players the list separates keep their order; those it leaves
    tied take one place each, in the order of their lots, which is not their numbers'."""
    listed = parse_tiebreaks(["BH"], "dutch")
    unordered = 0
    for seed in range(6):
        made = generate(Settings(14, 5, seed=seed))
        assert drawing_of_lots(made) == drawing_of_lots(generate(Settings(14, 5, seed=seed)))
        changed = replace(made, games=(replace(made.games[0], result="0-1"), *made.games[1:]))
        assert drawing_of_lots(changed) != drawing_of_lots(made)
        shared, drawn = ranks(made, listed), ranks(made, listed, lots=True)
        assert sorted(drawn.values()) == list(range(1, 15))
        for a in drawn:
            for b in drawn:
                if shared[a] < shared[b]:
                    assert drawn[a] < drawn[b]
                if shared[a] == shared[b] and a != b:
                    lots = drawing_of_lots(made)
                    assert (drawn[a] < drawn[b]) == (lots[a] < lots[b])
                    unordered += (drawn[a] < drawn[b]) != (a < b)
    assert unordered  # the lots, not the numbers, ordered some tie


def test_the_generator_draws_lots_when_asked() -> None:
    args = ["--generate", "--players", "14", "--rounds", "5", "--seed", "8", "--lots"]
    first, again = run(*args), run(*args)
    assert first.exit_code == 0 and first.stdout_bytes == again.stdout_bytes
    stated = read_ranks(first.stdout_bytes.decode())
    assert sorted(stated.values()) == list(range(1, 15))
    assert len(set(read_ranks(run(*args[:-1]).stdout_bytes.decode()).values())) < 14
    assert run("--lots", "x.trf").exit_code == 2
