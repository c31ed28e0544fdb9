"""The random tournament generator, Baku acceleration and prohibited pairs
(``spec/pairings.md`` §1, §3, §4, §8): read and written in both dialects, given to the Dutch
engine, and whole generated tournaments checked by arbiter's checker and, when
``ARBITER_BBP`` names its binary, by bbpPairings'."""

from __future__ import annotations

import os
import subprocess
from collections import Counter
from dataclasses import replace
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from arbiter.pairing import (
    Acceleration,
    Prohibition,
    Tournament,
    TrfError,
    check,
    pair,
    read_trf,
    write_trf,
)
from arbiter.pairing.generate import Settings, baku, generate
from arbiter.service.cli.main import main
from tests.pairing.events import players


def run(*args: str, stdin: bytes | None = None) -> Result:
    return CliRunner().invoke(main, ["pair", *args], input=stdin)


# --- Baku acceleration ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("n", "rounds", "expected"),
    [
        (16, 5, [(1, 2, 1, 8, 1.0), (3, 3, 1, 8, 0.5)]),
        (9, 9, [(1, 3, 1, 6, 1.0), (4, 5, 1, 6, 0.5)]),
        (30, 7, [(1, 2, 1, 16, 1.0), (3, 4, 1, 16, 0.5)]),
        (12, 2, [(1, 1, 1, 6, 1.0)]),
    ],
)
def test_baku_groups_the_first_half_rounded_to_even(
    n: int, rounds: int, expected: list[tuple[int, int, int, int, float]]
) -> None:
    """C.04.5.1: group A is the first half rounded up to an even number; one point in the
    first half (rounded up) of the accelerated rounds, half a point in the rest; the
    accelerated rounds are the first half of the rounds, rounded up."""
    assert baku(tuple(range(1, n + 1)), rounds) == tuple(Acceleration(*e) for e in expected)


def test_an_accelerated_round_one_pairs_each_group_within_itself() -> None:
    accelerated = Tournament(
        players=players(16),
        rounds_planned=5,
        initial_colour="first",
        accelerations=baku(tuple(range(1, 17)), 5),
    )
    pairs = {frozenset((b.first, b.second)) for b in pair(accelerated, "dutch").boards}
    assert pairs == {frozenset((k, k + 4)) for k in (1, 2, 3, 4, 9, 10, 11, 12)}
    plain = replace(accelerated, accelerations=())
    assert {frozenset((b.first, b.second)) for b in pair(plain, "dutch").boards} == {
        frozenset((k, k + 8)) for k in range(1, 9)
    }


def test_a_prohibited_pair_is_not_paired_in_its_rounds_only() -> None:
    t = Tournament(players=players(8), rounds_planned=5, initial_colour="first")
    assert {1, 5} in [{b.first, b.second} for b in pair(t, "dutch").boards]
    barred = replace(t, prohibited=(Prohibition(1, 1, (1, 5)),))
    assert {1, 5} not in [{b.first, b.second} for b in pair(barred, "dutch").boards]
    later = replace(t, prohibited=(Prohibition(2, 5, (1, 5)),))
    assert {1, 5} in [{b.first, b.second} for b in pair(later, "dutch").boards]


# --- TRF ------------------------------------------------------------------------------------


def small() -> Tournament:
    return Tournament(
        players=players(6),
        rounds_planned=5,
        initial_colour="first",
        system="dutch",
        accelerations=(Acceleration(1, 2, 1, 4, 1.0), Acceleration(3, 3, 1, 4, 0.5)),
        prohibited=(Prohibition(1, 5, (2, 3)), Prohibition(2, 4, (1, 5, 6))),
    )


def test_the_dialects_write_records_162_and_250_as_their_readers_do() -> None:
    lines = {d: write_trf(small(), name="x", dialect=d).split("\n") for d in ("trf-2026", "bbp")}
    assert "162  W 1.0    D 0.5    L 0.0    A 0.0    P 1.0    X 0.0" in lines["trf-2026"]
    assert "250  1.0  1.0   1   2    1    4" in lines["trf-2026"]
    assert "162  W 1.0    D 0.5    L 0.0    Z 0.0    P 1.0" in lines["bbp"]
    assert "250       1.0   1   2    1    4" in lines["bbp"]
    assert "142 5" in lines["trf-2026"] and "142 5" not in lines["bbp"] and "XXR 5" in lines["bbp"]
    for dialect in ("trf-2026", "bbp"):
        assert "260   2   4    1    5    6" in lines[dialect]


@pytest.mark.parametrize("dialect", ["shared", "trf-2026", "bbp"])
@pytest.mark.parametrize("end", ["\r", "\n", "\r\n"])
def test_accelerations_and_prohibitions_read_back(dialect: str, end: str) -> None:
    text = write_trf(small(), name="x", dialect=dialect, line_end=end)  # type: ignore[arg-type]
    assert text.count(end) == len(text.splitlines()) and text.endswith(end)
    again = read_trf(text)
    assert again.accelerations == small().accelerations
    assert again.prohibited == small().prohibited


def test_xxa_and_xxp_are_read_as_runs_and_every_round() -> None:
    text = write_trf(replace(small(), accelerations=(), prohibited=()), name="x")
    text += "XXA    2  1.0  1.0  0.5       1.0\nXXP 1 6\n"
    again = read_trf(text)
    assert again.accelerations == (
        Acceleration(1, 2, 2, 2, 1.0),
        Acceleration(3, 3, 2, 2, 0.5),
        Acceleration(5, 5, 2, 2, 1.0),
    )
    assert again.prohibited == (Prohibition(1, 5, (1, 6)),)


def test_a_prohibition_of_an_unknown_player_is_located() -> None:
    text = write_trf(small(), name="x").replace("260   1   5    2    3", "260   1   5    2   33")
    with pytest.raises(TrfError) as caught:
        read_trf(text)
    line = text.split("\n").index("260   1   5    2   33") + 1
    assert (caught.value.line, caught.value.code) == (line, "unknown-player")


# --- the generator --------------------------------------------------------------------------


def test_the_same_arguments_give_the_same_bytes_and_another_seed_others() -> None:
    args = ["--generate", "--players", "11", "--rounds", "5", "--baku", "--prohibited", "2"]
    first, again = run(*args, "--seed", "4"), run(*args, "--seed", "4")
    assert first.exit_code == 0, first.output
    assert first.stdout_bytes == again.stdout_bytes
    assert run(*args, "--seed", "5").stdout_bytes != first.stdout_bytes
    assert b"\n" not in first.stdout_bytes and first.stdout_bytes.endswith(b"\r")
    assert b"\n" in run(*args, "--line-ends", "lf").stdout_bytes


def test_the_results_follow_the_ratings() -> None:
    made = generate(Settings(40, 7, seed=2))
    rating = {p.number: p.rating or 0 for p in made.players}
    higher_won = Counter(
        (rating[g.first] > rating[g.second]) == (g.result == "1-0") for g in made.games
    )
    assert higher_won[True] > 2 * higher_won[False]


def test_byes_absences_and_forfeits_come_as_asked() -> None:
    none = generate(Settings(20, 5, seed=3))
    assert {b.kind for b in none.byes} == set() and all(g.played for g in none.games)
    some = generate(Settings(20, 5, seed=3, half_byes=10, zero_byes=10, forfeits=20, full_byes=10))
    assert {b.kind for b in some.byes} >= {"half", "zero", "full"}
    assert any(not g.played for g in some.games)


GRID = [
    (9, 5, {}),
    (14, 7, {"baku": True}),
    (23, 6, {"prohibited": 3, "half_byes": 5, "zero_byes": 3, "full_byes": 3}),
    (31, 9, {"baku": True, "forfeits": 5}),
    (45, 8, {"prohibited": 5, "forfeits": 3}),
    (60, 9, {"baku": True, "prohibited": 4}),
]
"""Tournaments of 9 to 60 players and 5 to 9 rounds: a third accelerated, a third with
prohibited pairs, some with byes and forfeits."""


def test_generated_tournaments_pass_arbiters_check() -> None:
    for n, rounds, extra in GRID[:3]:
        made = generate(Settings(n, rounds, seed=n, **extra))  # type: ignore[arg-type]
        assert made.rounds_paired == rounds
        for p in made.prohibited:
            assert not any(p.applies(g.round, g.first, g.second) for g in made.games), (
                "a prohibited pair met"
            )
        assert (
            check(read_trf(write_trf(made, name="g", dialect="trf-2026", line_end="\r")), "dutch")
            == []
        )


def test_the_check_command_agrees_with_a_generated_file(tmp_path: Path) -> None:
    text = run("--generate", "--players", "10", "--rounds", "5", "--baku", "--seed", "3")
    path = tmp_path / "g.trf"
    path.write_bytes(text.stdout_bytes)
    done = run("--check", str(path))
    assert done.exit_code == 0 and "all 5 round(s) agree with dutch" in done.output
    listed = run("--generate", "--players", "10", "--rounds", "5", "--tiebreaks", "SB,DE,TPN")
    assert b"\r212 PTS,SB,DE,TPN\r" in listed.stdout_bytes
    path.write_bytes(listed.stdout_bytes)
    assert "standings by PTS,SB,DE,TPN (file): agree" in run("--check", str(path)).output


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--players", "5", "--rounds", "9", "--system", "round-robin"], "has 5 rounds"),
        (["--players", "4", "--rounds", "3", "--prohibited", "7"], "at most 6 pairs"),
        (["--players", "8", "--rounds", "3", "--system", "round-robin", "--baku"], "fixed"),
        (["--players", "8"], "--rounds"),
        (["--players", "8", "--rounds", "3", "--tiebreaks", "KS"], "round-robin tie-break"),
        (["--players", "8", "--rounds", "3", "--half-byes", "60", "--full-byes", "50"], "too"),
    ],
)
def test_impossible_settings_are_usage_errors(args: list[str], message: str) -> None:
    done = run("--generate", *args)
    assert done.exit_code == 2 and message in done.output and "Traceback" not in done.output


def test_a_tournament_without_a_legal_pairing_is_said_so() -> None:
    done = run("--generate", "--players", "4", "--rounds", "6")
    assert done.exit_code == 1
    assert done.stderr.startswith("arbiter: --generate: no-pairing: round 4")


BBP = os.environ.get("ARBITER_BBP")


@pytest.mark.skipif(not BBP, reason="ARBITER_BBP does not name bbpPairings' binary")
def test_bbppairings_checker_finds_generated_tournaments_right(tmp_path: Path) -> None:
    assert BBP is not None
    for n, rounds, extra in GRID:
        made = generate(Settings(n, rounds, seed=n + rounds, **extra))  # type: ignore[arg-type]
        path = tmp_path / f"g{n}.trf"
        path.write_bytes(write_trf(made, name="g", dialect="bbp", line_end="\r").encode())
        done = subprocess.run(
            [BBP, "--dutch", str(path), "-c"], capture_output=True, text=True, check=False
        )
        assert done.returncode == 0 and "Checker pairings" not in done.stdout, (n, done.stdout)


def tampered() -> dict[str, Tournament]:
    """A generated tournament given, afterwards, a prohibition of a pair it played in round
    2, and one given the Baku acceleration it was not paired with."""
    made = generate(Settings(20, 5, seed=5))
    game = next(g for g in made.games if g.round == 2)
    return {
        "prohibited": replace(made, prohibited=(Prohibition(2, 2, (game.first, game.second)),)),
        "accelerated": replace(made, accelerations=baku(made.numbers, 5)),
    }


def test_arbiters_check_finds_a_played_prohibited_pair_and_an_ignored_acceleration() -> None:
    found = {kind: [d.round for d in check(t, "dutch")] for kind, t in tampered().items()}
    assert found["prohibited"] == [2] and found["accelerated"][0] == 1


@pytest.mark.skipif(not BBP, reason="ARBITER_BBP does not name bbpPairings' binary")
def test_bbppairings_checker_finds_them_too(tmp_path: Path) -> None:
    assert BBP is not None
    for kind, made in tampered().items():
        path = tmp_path / f"{kind}.trf"
        path.write_bytes(write_trf(made, name=kind, dialect="bbp", line_end="\r").encode())
        done = subprocess.run(
            [BBP, "--dutch", str(path), "-c"], capture_output=True, text=True, check=False
        )
        assert "Checker pairings" in done.stdout, kind
