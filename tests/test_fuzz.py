"""A short budget of the fuzz harness (``make fuzz`` runs the full one; see docs/robustness.md):
hostile input through the library, the CLI and the API, and hostile HTTP on the wire against a
real server. Any finding fails, with the input that caused it."""

from __future__ import annotations

from fuzz.cost import check
from fuzz.harness import HANG, run
from fuzz.surfaces import hostile_http
from tests.service.test_front import Server

BUDGET = 1_500


def test_a_short_fuzz_run_finds_nothing() -> None:
    # Only a hang is a finding of time here; make fuzz holds every input to a second.
    tally = run(BUDGET, seed_value=20_261_123, cli_share=0.02, api_share=0.05, slow=HANG)
    assert tally.inputs == BUDGET and tally.records > BUDGET
    assert tally.cli_runs and tally.api_requests
    assert not tally.findings, "\n".join(f"{w}: {d}: {x[:300]!r}" for w, d, x in tally.findings)


def test_hostile_http_on_the_wire_gets_json_answers_and_the_server_stays_up() -> None:
    server = Server("--threads", "2")
    try:
        problems = hostile_http(server.port, 150, seed_value=7)
    finally:
        status = server.stop()
    assert not problems, "\n".join(problems)
    assert status == 0


def test_ten_times_the_input_never_costs_much_more_than_ten_times_the_work() -> None:
    # Long runs of every delimiter alone, in the movetext, in each tag value and in a
    # comment; JSON nesting; many records, moves and tags: calls counted from 100 to 10,000
    # units, each decade at most RATIO times the one before, and at 100,000 the processor
    # time against real records of as many bytes (make fuzz counts to a million).
    findings, measured = check([100, 1_000, 10_000, 100_000], count_to=10_000)
    assert len(measured) > 900
    assert not findings, "\n".join(map(str, findings))
