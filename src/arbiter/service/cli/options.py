"""The options of ``arbiter adjudicate``, ``validate`` and ``convert`` (``spec/cli.md``),
described once, in a table that both readers of a command line build on.

Two readers: the click commands of :mod:`arbiter.service.cli.main`, which make their options
(spellings, types, defaults, help texts, environment variables) from this table, and the
start-up path of :mod:`arbiter.service.cli.entry`, which reads a plain ``adjudicate`` or
``validate`` command line without loading click and must read it exactly as click does. With
one description the two cannot disagree about an option's spellings, values or default; that
is why this module does not import click (it is loaded at every start).

The options of one command only (``convert --to``, ``-o``), and those of the other commands,
stay with their click commands: no second reader needs them.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Final, Literal

from arbiter.notation.plain import Plain
from arbiter.notation.sources import NOTATIONS, text_encoding

Kind = Literal["flag", "choice", "number", "encoding", "text"]
"""What an option takes: nothing (``flag``), one of its ``choices``, a whole number of its
``numbers``, the name of a text encoding (``encoding``: the command receives its canonical
name, :func:`encoding_name`), or any text (``text``; the start-up path leaves these to
click)."""


class Option(Plain):
    """One option: how it is written, what it takes, and what the command's function
    receives. A plain value class, not a ``NamedTuple``: this module is loaded at every
    start, and making a named tuple's class costs more than the rest of the module.

    ``names``: its spellings, in the order click's messages name them (``'--jobs' / '-j'``);
    ``param``: the parameter of the command's function it sets; ``choices``: the values a
    ``choice`` takes, as written; ``numbers``: those a ``number`` takes (a range of step 1);
    ``default``: the parameter when the option is not given (False for a flag);
    ``show_default``: whether the help shows it; ``envvar``: the environment variable click
    reads when the option is not given; ``metavar``: the name of a ``text`` option's value
    in the help."""

    _fields = ("names", "param", "help", "kind", "choices", "numbers", "default",
               "show_default", "envvar", "metavar")  # fmt: skip
    __slots__ = _fields

    def __init__(
        self,
        names: tuple[str, ...],
        param: str,
        help: str,
        kind: Kind = "flag",
        choices: tuple[str, ...] = (),
        numbers: range = range(0),
        default: bool | int | str | None = None,
        show_default: bool = False,
        envvar: str | None = None,
        metavar: str | None = None,
    ) -> None:
        self.names: Final = names
        self.param: Final = param
        self.help: Final = help
        self.kind: Final = kind
        self.choices: Final = choices
        self.numbers: Final = numbers
        self.default: Final = default
        self.show_default: Final = show_default
        self.envvar: Final = envvar
        self.metavar: Final = metavar


JSON = Option(("--json",), "as_json", "JSON Lines: one report per record.", default=False)
JOBS = Option(
    ("--jobs", "-j"),
    "jobs",
    "Worker processes; output keeps the input order.",
    kind="number",
    numbers=range(1, 65),
    default=1,
    show_default=True,
)
FROM = Option(
    ("--from",),
    "fmt",
    "Read every file as this notation (default: its name or first characters tell; "
    "in JSON, each record's shape tells Abstract Play records from the project's).",
    kind="choice",
    choices=NOTATIONS,
)
QUIET = Option(
    ("--quiet", "-q"),
    "quiet",
    "No progress bar and no summary line on standard error.",
    default=False,
)
ENCODING = Option(
    ("--encoding",),
    "encoding",
    "Decode the files from this encoding (cp1252, latin-1, ...) instead of UTF-8, for "
    "files saved by programs that write no UTF-8; a warning says so.",
    kind="encoding",
    default="utf-8",
    show_default=True,
    metavar="NAME",
)
SCHEDULER = Option(
    ("--scheduler",),
    "scheduler",
    "Adjudicate on the workers of this Dask scheduler (tcp://host:8786; env "
    "ARBITER_SCHEDULER); needs the 'cluster' extra.",
    kind="text",
    envvar="ARBITER_SCHEDULER",
    metavar="ADDRESS",
)

COMMANDS: Final[Mapping[str, tuple[Option, ...]]] = MappingProxyType(
    {
        "adjudicate": (JSON, JOBS, FROM, ENCODING, QUIET, SCHEDULER),
        "validate": (JOBS, FROM, ENCODING, QUIET),
        "convert": (FROM, ENCODING, JOBS),
    }
)
"""Which commands take which options of the table, in the order their help lists them."""


def encoding_name(written: str) -> str | None:
    """The canonical name of the text encoding ``written`` names (``CP1252``, ``utf8``), as
    both readers of a command line give it to the command; None when it names none."""
    try:
        return text_encoding(written)
    except LookupError:
        return None
