"""The fuzz harness (``make fuzz``): see :mod:`fuzz.harness`."""

from __future__ import annotations

from pathlib import Path


def build_under_test() -> str:
    """Which build of ``arbiter`` this process imports: compiled or pure, and from where."""
    import arbiter
    from arbiter.notation import grn_scan

    kind = "pure-Python" if (grn_scan.__file__ or "").endswith(".py") else "compiled"
    return f"the {kind} build in {Path(arbiter.__file__ or '?').parent}"
