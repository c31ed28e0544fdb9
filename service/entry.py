"""Where the ``arbiter`` program starts (``spec/cli.md``): the console script and
``python -m arbiter``.

Why this is not simply the click group: a script that checks uploads may run
``arbiter adjudicate --json one.grn`` once per record, and loading click (which brings
inspect, uuid, platform, datetime and gettext with it) is a good part of such a short run.
So a plain run of ``adjudicate`` or ``validate`` is read here and run without click; every
other command line goes to the click group of :mod:`arbiter.service.cli`, unchanged, which
gives all help texts and usage errors.

A plain run is the command's name followed, in any order, by paths and the simple forms of
the command's options: ``--json`` (``adjudicate``), ``--quiet`` or ``-q``, ``--from F`` or
``--from=F`` with F one of the notations, and ``--jobs N``, ``--jobs=N`` or ``-j N`` with N
written as a number from 1 to 64. A repeated option counts once, its
last value winning, as in click. Anything else (no path, help, ``--``, a word that starts
with ``-`` and is none of these, ``-qj 2``, ``--scheduler``, ``ARBITER_SCHEDULER`` or
click's shell completion in the environment) is left to click. The rule: accept only what
click would run with the same parameters; when in doubt, leave it to click
(``tests/service/test_entry.py`` checks it against click's own parsing).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from functools import partial
from typing import Any

from arbiter.notation.sources import FORMATS
from arbiter.service.cli_io import guarded
from arbiter.service.runs import run_adjudicate, run_validate

OPTIONS: dict[str, dict[str, str]] = {
    "adjudicate": {"--json": "as_json", "--quiet": "quiet", "-q": "quiet", "--from": "fmt",
                   "--jobs": "jobs", "-j": "jobs"},
    "validate": {"--quiet": "quiet", "-q": "quiet", "--from": "fmt", "--jobs": "jobs",
                 "-j": "jobs"},
}  # fmt: skip
"""The options each command takes here, as written, and the parameter each one sets."""

DEFAULTS: dict[str, dict[str, Any]] = {
    "adjudicate": {"as_json": False, "jobs": 1, "fmt": None, "quiet": False, "scheduler": None},
    "validate": {"jobs": 1, "fmt": None, "quiet": False},
}
"""The parameters as click gives them to the command when no option is given."""

VALUES: dict[str, tuple[str, ...]] = {"fmt": FORMATS, "jobs": tuple(map(str, range(1, 65)))}
"""The values of the options that take one, as written (click also reads ``07`` or ``+7``
as 7: those are left to it). The other options are flags."""


def main(argv: Sequence[str] | None = None, *, prog_name: str | None = None) -> None:
    """Run the command line ``argv`` (by default the process's arguments) and exit with its
    status: a plain run directly, anything else through the click group, whose messages
    call the program ``prog_name`` (by default the name it was started by)."""
    plain = plain_command(sys.argv[1:] if argv is None else argv)
    if plain is None:
        from arbiter.service.cli import main as commands

        commands.main(args=argv, prog_name=prog_name)
        return
    command, params = plain
    guarded(partial(run_adjudicate if command == "adjudicate" else run_validate, **params))


def plain_command(argv: Sequence[str]) -> tuple[str, dict[str, Any]] | None:
    """The command and its parameters, exactly as click would pass them to the command's
    function, when ``argv`` is a plain run of ``adjudicate`` or ``validate``; None for any
    other command line, which click is to read."""
    if not argv or argv[0] not in OPTIONS or _asks_for_click():
        return None
    options, params, paths = OPTIONS[argv[0]], dict(DEFAULTS[argv[0]]), []
    words = iter(argv[1:])
    for word in words:
        if word == "-" or not word.startswith("-"):
            paths.append(word)
            continue
        name, equals, value = word.partition("=") if word.startswith("--") else (word, "", "")
        param = options.get(name)
        if param is None or (equals and param not in VALUES):
            return None  # an option unknown here, or a value given to a flag
        if param not in VALUES:
            params[param] = True
            continue
        if not equals:
            value = next(words, "")
        if value not in VALUES[param]:
            return None
        params[param] = int(value) if param == "jobs" else value
    if not paths:
        return None
    params["paths"] = tuple(paths)
    return argv[0], params


def _asks_for_click() -> bool:
    """Whether the environment asks for what only the click group does: a scheduler
    (``ARBITER_SCHEDULER``), shell completion (``_ARBITER_COMPLETE``, named after the
    program), or on Windows the expansion of wildcards in the arguments."""
    completion = any(key.startswith("_") and key.endswith("_COMPLETE") for key in os.environ)
    return completion or "ARBITER_SCHEDULER" in os.environ or os.name == "nt"
