"""The options of :mod:`arbiter.service.cli.options` as click reads them: the commands of
:mod:`.main` and those in modules of their own (``show``, ``standings``) take their options
from here, below all of them, so that a command module never imports the group that loads
it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import click

from arbiter.service.cli.options import COMMANDS, Option, encoding_name

__all__ = ["Encoding", "click_option", "table_options"]

F = TypeVar("F", bound=Callable[..., Any])


def table_options(command: str) -> Callable[[F], F]:
    """The click options of ``command`` that the table of :mod:`arbiter.service.cli.options`
    describes, in its order: the start-up path reads the same table, so the two read a
    command line alike."""

    def add(function: F) -> F:
        for option in reversed(COMMANDS[command]):  # click lists the last one added first
            function = click_option(option)(function)
        return function

    return add


def click_option(option: Option) -> Callable[[F], F]:
    """The click option ``option`` describes."""
    return click.option(
        *option.names,
        option.param,
        is_flag=option.kind == "flag",
        type=_click_type(option),
        default=option.default,
        show_default=option.show_default,
        envvar=option.envvar,
        metavar=option.metavar,
        help=option.help,
    )


def _click_type(option: Option) -> click.ParamType[Any] | None:
    """The click type of the values ``option`` takes (None: a flag's, or text)."""
    if option.kind == "choice":
        return click.Choice(option.choices)
    if option.kind == "encoding":
        return Encoding()
    if option.kind == "number":
        return click.IntRange(option.numbers.start, option.numbers.stop - 1)
    return None


class Encoding(click.ParamType[str]):
    """The name of a text encoding, given to the command as its canonical name (the same
    as the start-up path gives: :func:`~arbiter.service.cli.options.encoding_name`)."""

    name = "encoding"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> str:
        found = encoding_name(value) if isinstance(value, str) else None
        if found is None:
            self.fail(f"{value!r} is not a text encoding (utf-8, cp1252, latin-1, ...)", param, ctx)
        return found
