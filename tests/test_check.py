"""``make test`` (tools/check.py): every step runs whatever the others gave, the two test
runs side by side, and the command fails when any step failed."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from tools import check


def fake(name: str, code: int, needs: str | None = None, beside: bool = False) -> check.Step:
    """A step that prints its name and ends with ``code``."""
    script = f"print('ran {name}'); raise SystemExit({code})"
    return check.Step(name, [sys.executable, "-c", script], needs=needs, beside=beside)


@pytest.fixture
def steps(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(check, "LOGS", tmp_path / "logs")
    monkeypatch.setattr(
        check,
        "STEPS",
        [
            fake("ruff", 0),
            fake("wheel", 0),
            fake("tests", 1, beside=True),
            fake("tests-wheel", 0, needs="wheel", beside=True),
        ],
    )


@pytest.mark.parametrize("serial", [False, True])
def test_a_failed_run_of_the_checkout_does_not_hide_the_wheels(
    steps: None, serial: bool, capfd: pytest.CaptureFixture[str]
) -> None:
    code = check.main(["--serial"] if serial else [])
    out = capfd.readouterr().out
    assert code == 1
    assert "ran tests\n" in out and "ran tests-wheel\n" in out  # both shown, whole
    summary = out.split("== make test: summary")[1]
    assert "tests        failed (exit 1)" in summary
    assert "tests-wheel  passed" in summary
    assert "FAILED: tests in" in summary


def test_a_step_whose_need_failed_is_reported_as_not_run(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(check, "LOGS", tmp_path)
    monkeypatch.setattr(
        check, "STEPS", [fake("wheel", 2), fake("tests-wheel", 0, needs="wheel", beside=True)]
    )
    assert check.main([]) == 1
    out = capfd.readouterr().out
    assert "ran tests-wheel" not in out
    assert "not run: wheel failed" in out


def test_everything_passed_is_exit_zero(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(check, "LOGS", tmp_path)
    monkeypatch.setattr(check, "STEPS", [fake("ruff", 0), fake("tests", 0, beside=True)])
    assert check.main([]) == 0
    assert "all passed in" in capfd.readouterr().out
