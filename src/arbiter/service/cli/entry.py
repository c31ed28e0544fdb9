"""Where the ``arbiter`` program starts (``spec/cli.md``): the console script and
``python -m arbiter``.

Why this is not simply the click group: a script that checks uploads may run
``arbiter adjudicate --json one.grn`` once per record, and loading click (which brings
inspect, uuid, platform, datetime and gettext with it) is a good part of such a short run.
So a plain run of ``adjudicate`` or ``validate`` is read here and run without click; every
other command line goes to the click group of :mod:`arbiter.service.cli.main`, unchanged, which
gives all help texts and usage errors.

A plain run is the command's name followed, in any order, by paths and the simple forms of
the options that :mod:`arbiter.service.cli.options` lists for the command (the click commands
are made from the same table): a flag (``--json``, ``--quiet`` or ``-q``), an option and its
value as two words (``--from json``, ``-j 2``), or a long option joined to its value by
``=`` (``--jobs=2``); a value is one of the option's choices, or a number of its range
written plainly (click also reads ``07`` or ``+7`` as 7: those are left to it). A
repeated option counts once, its last value winning, as in click. Anything else (no path,
help, ``--``, a word that starts with ``-`` and is none of these, ``-qj 2``, an option
of free text such as ``--scheduler``, the environment variable of one of the command's
options such as ``ARBITER_SCHEDULER``, or click's shell completion in the environment) is
left to click. The rule: accept only what click would run with the same parameters; when in
doubt, leave it to click (``tests/service/test_entry.py`` checks it against click's own
parsing).
"""

from __future__ import annotations

import atexit
import os
import sys
from collections.abc import Callable, Iterator, Mapping, Sequence
from functools import partial
from typing import Any, NoReturn

from arbiter.service.cli.options import COMMANDS, Option, encoding_name
from arbiter.service.cli.runs import batch_collector, run_adjudicate, run_validate
from arbiter.service.cli.streams import guarded, say

RUNS: dict[str, Callable[..., None]] = {"adjudicate": run_adjudicate, "validate": run_validate}
"""The commands a plain run may name, and what runs them once their options are read."""


def main(argv: Sequence[str] | None = None, *, prog_name: str | None = None) -> None:
    """Run the command line ``argv`` (by default the process's arguments) and exit with its
    status: a plain run directly, anything else through the click group, whose messages
    call the program ``prog_name`` (by default the name it was started by)."""
    plain = plain_command(sys.argv[1:] if argv is None else argv)
    if plain is None:
        from arbiter.service.cli.main import main as commands

        commands.main(args=argv, prog_name=prog_name)
        return
    command, params = plain
    if argv is None:  # the process's own command line: the collector is the command's
        batch_collector()
        try:
            guarded(partial(RUNS[command], **params))
        except SystemExit as done:
            end_now(done.code)
        return
    guarded(partial(RUNS[command], **params))


def end_now(code: object) -> NoReturn:
    """End the process with the status of ``sys.exit(code)``, its output flushed and its exit
    functions run, but without the interpreter's teardown: at exit Python frees every object
    one by one and runs the cycle collector over all of them, the records read and, after a
    record refused at a move, the tables the repair search keeps (some 60,000 objects for
    600 such records: a fifth of the run). Only the process's own command line ends so: a
    program calling :func:`main` keeps its interpreter."""
    if code is None or isinstance(code, int):
        status = 0 if code is None else code
    else:  # as Python does for ``sys.exit("message")``
        say(str(code))
        status = 1
    atexit._run_exitfuncs()  # then the streams, in Python's own order
    for stream in (sys.stdout, sys.stderr):
        try:
            if stream is not None:
                stream.flush()
        except (OSError, ValueError):  # a closed pipe: nothing more can be said there
            status = status or 1
    os._exit(status)


def plain_command(argv: Sequence[str]) -> tuple[str, dict[str, Any]] | None:
    """The command and its parameters, exactly as click would pass them to the command's
    function, when ``argv`` is a plain run of ``adjudicate`` or ``validate``; None for any
    other command line, which click is to read."""
    if not argv or argv[0] not in RUNS or _asks_for_click(COMMANDS[argv[0]]):
        return None
    options = COMMANDS[argv[0]]
    spellings = {name: option for option in options for name in option.names}
    params: dict[str, Any] = {option.param: option.default for option in options}
    paths, words = [], iter(argv[1:])
    for word in words:
        if word == "-" or not word.startswith("-"):
            paths.append(word)
            continue
        given = _option(word, words, spellings)
        if given is None:
            return None
        params[given[0]] = given[1]
    if not paths:
        return None
    params["paths"] = tuple(paths)
    return argv[0], params


def _option(
    word: str, words: Iterator[str], spellings: Mapping[str, Option]
) -> tuple[str, bool | str | int] | None:
    """The parameter that the option ``word`` sets and its value (the next of ``words``
    unless joined to it by ``=``); None when it is not a simple form of one of
    ``spellings`` with a value read here."""
    name, equals, value = word.partition("=") if word.startswith("--") else (word, "", "")
    option = spellings.get(name)
    if option is None or (equals and option.kind == "flag"):
        return None
    if option.kind == "flag":
        return option.param, True
    read = _value(option, value if equals else next(words, ""))
    return None if read is None else (option.param, read)


def _value(option: Option, written: str) -> str | int | None:
    """The value ``written`` gives ``option``, when it is one of its choices or a number of
    its range written plainly (no sign, space or leading zero); None otherwise, and always
    for an option of free text (``--scheduler``), which has neither: click reads those. An
    encoding is given by its canonical name, as click gives it (None: click says why not)."""
    if option.kind == "choice":
        return written if written in option.choices else None
    if option.kind == "encoding":
        return encoding_name(written)
    numbers = option.numbers
    if not (numbers and written.isascii() and written.isdigit()):
        return None
    if len(written) > len(str(numbers[-1])):  # too long to be one (nor read, if huge)
        return None
    number = int(written)
    return number if str(number) == written and number in numbers else None


def _asks_for_click(options: tuple[Option, ...]) -> bool:
    """Whether the environment asks for what only the click group does: the value of an
    option (``ARBITER_SCHEDULER`` for ``adjudicate``), shell completion
    (``_ARBITER_COMPLETE``, named after the program), or on Windows the expansion of
    wildcards in the arguments."""
    completion = any(key.startswith("_") and key.endswith("_COMPLETE") for key in os.environ)
    named = any(option.envvar in os.environ for option in options if option.envvar)
    return completion or named or os.name == "nt"
