"""The start-up path of ``arbiter adjudicate`` and ``arbiter validate`` that runs without
click (``arbiter.service.cli.entry``): it accepts only command lines that click reads the same
way, it prints byte for byte what the click commands print, it never loads click, and its
failures end in one line as the click group's do."""

from __future__ import annotations

import gc
import itertools
import os
import re
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any
from unittest import mock

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from arbiter.service.cli import entry, options, progress, runs
from arbiter.service.cli import main as cli
from arbiter.service.cli.entry import plain_command
from arbiter.service.cli.options import Option
from tests.budget import examples

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "samples"
PLETORE = SAMPLES / "pletore" / "valid" / "02-open-8x8-komi0.grn"
ONE = '[Game "Pletore"]\n[Size "5"]\n[Komi "0"]\n\n1. c3 b4 2. d2 *\n'

# --- which command lines the fast path takes -------------------------------------------------
# The words tried are made from the table of options and from click's commands, so that an
# option added to either is tried at once; the reference is click's own reading.

FAST = list(entry.RUNS)
OTHERS = ["convert", "games", "standings", "show", "Adjudicate", "adjudicat", "--help", "-h",
          "--version", "--", "-"]  # fmt: skip
TABLE = [option for taken in options.COMMANDS.values() for option in taken]
ENVVARS = {option.envvar for option in TABLE if option.envvar}
PATHS = [["a.grn"], ["-"], [""], ["dir/b.json"]]
HOSTILE = ["--", "-", "--help", "-h", "--version", "--unknown", "-x", "--jso", "--JSON", "—json",
           "٧", "4_0", "pgn", "tcp://127.0.0.1:1", "-a.grn", "--a.grn", " ", "adjudicate",
           "validate"]  # fmt: skip
"""Words that only look like options, or like values."""


ENCODINGS = ["utf-8", "cp1252", "Latin-1"]
"""Names of encodings, as people write them (the command receives the canonical name)."""


def values(option: Option) -> list[str]:
    """Values ``option`` takes, as written: its choices, the ends of its range, a few
    encodings."""
    if option.kind == "number":
        return [str(option.numbers[0]), str(option.numbers[-1])]
    if option.kind == "encoding":
        return ENCODINGS
    return list(option.choices)


def plain_pieces(command: str) -> list[list[str]]:
    """Paths, and the simple forms of the options the table gives ``command`` that a plain
    run may hold (see :mod:`arbiter.service.cli.entry`): a flag, an option and its value as two
    words, or a long option joined to its value by ``=``."""
    pieces = list(PATHS)
    for option in options.COMMANDS[command]:
        for name in option.names if option.kind != "text" else ():
            pieces += [[name]] if option.kind == "flag" else [[name, v] for v in values(option)]
            pieces += [[f"{name}={v}"] for v in values(option) if name.startswith("--")]
    return pieces


def odd_words() -> list[str]:
    """Words the fast path must leave to click or read as click does: every spelling of an
    option of click's commands, alone or joined to values good and bad, short ones run
    together or joined to a value, values just out of range or written otherwise."""
    names = {name for command in cli.main.commands.values() for param in command.params
             for name in param.opts if name.startswith("-")}  # fmt: skip
    shorts = [name for name in names if len(name) == 2]
    written = sorted({value for option in TABLE for value in values(option)})
    near = [odd for v in written for odd in (v.upper(), f"0{v}", f"+{v}", f" {v}", f"{v} ")]
    outside = [str(n) for o in TABLE if o.numbers for n in (o.numbers[0] - 1, o.numbers[-1] + 1)]
    ends = ("", *written, near[1], f"{written[-1]}={written[0]}")
    joined = [f"{name}={value}" for name in names for value in ends]
    together = [a + b[1:] for a in shorts for b in [*shorts, "-2", "-=2"]]
    return sorted({*names, *written, *near, *outside, *joined, *together, *HOSTILE})


ODD = odd_words()
WORDS = sorted(
    {*ODD, *(word for command in FAST for piece in plain_pieces(command) for word in piece)}
)


@st.composite
def command_lines(draw: st.DrawFn) -> tuple[list[str], dict[str, str], bool]:
    """A command line, an environment, and whether the two make a plain run: a command,
    pieces of plain lines of its options around up to two words of any kind, and perhaps
    the environment variable of an option."""
    command = draw(st.sampled_from(FAST) | st.sampled_from(OTHERS))
    pieces = st.lists(st.sampled_from(plain_pieces(command if command in FAST else FAST[0])))
    before, after = draw(pieces), draw(pieces)
    odd = draw(st.lists(st.sampled_from(ODD) | st.text("-=jqfo12 a.", max_size=6), max_size=2))
    env = draw(st.sampled_from([{}, *({name: "tcp://127.0.0.1:1"} for name in sorted(ENVVARS))]))
    named = {option.envvar for option in options.COMMANDS.get(command, ())} & set(env)
    plain = command in FAST and not odd and not named and any(p in PATHS for p in before + after)
    return [command, *sum(before, []), *odd, *sum(after, [])], env, plain


def clicks_reading(argv: list[str]) -> tuple[str, dict[str, Any]]:
    """The command and the parameters the click group would call it with (the command is
    not run: its function is replaced by one that records what it is given)."""
    seen: dict[str, Any] = {}

    def record(name: str) -> Callable[..., None]:
        return lambda **params: seen.update(command=name, params=params)

    with (
        mock.patch.object(cli.adjudicate, "callback", record("adjudicate")),
        mock.patch.object(cli.validate, "callback", record("validate")),
    ):
        cli.main.main(argv, prog_name="arbiter", standalone_mode=False)
    return seen["command"], seen["params"]


@settings(max_examples=examples(600), deadline=None)
@given(command_lines())
def test_the_fast_path_takes_plain_runs_and_only_what_click_reads_the_same_way(
    line: tuple[list[str], dict[str, str], bool],
) -> None:
    argv, env, plain = line
    with mock.patch.dict(os.environ):
        for name in ENVVARS:
            os.environ.pop(name, None)
        os.environ.update(env)
        fast = plain_command(argv)
        assert fast is not None or not plain
        if fast is not None:
            assert clicks_reading(argv) == fast


@pytest.fixture
def no_envvars(monkeypatch: pytest.MonkeyPatch) -> None:
    """None of the options' environment variables (click would read them)."""
    for name in ENVVARS:
        monkeypatch.delenv(name, raising=False)


@pytest.mark.usefixtures("no_envvars")
@pytest.mark.parametrize("command", FAST)
def test_every_pair_of_words_is_read_as_click_reads_it_and_plain_ones_by_the_fast_path(
    command: str,
) -> None:
    pieces = plain_pieces(command)
    single = {piece[0] for piece in pieces if len(piece) == 1}
    for first, second in itertools.product(WORDS, repeat=2):
        plain = {first, second} <= single or [first, second] in pieces
        for argv in ([command, first, second, "a.grn"], [command, "a.grn", first, second]):
            fast = plain_command(argv)
            assert fast is not None or not plain, argv
            if fast is not None:
                assert clicks_reading(argv) == fast, argv


@pytest.mark.usefixtures("no_envvars")
@pytest.mark.parametrize(
    "argv",
    [
        [], ["adjudicate"], ["adjudicate", "--json"], ["--version"], ["games"],
        ["convert", "a", "--to", "json"], ["--help", "adjudicate", "a"], ["adjudicate", "--", "a"],
        ["adjudicate", "a", "--jobs", "07"], ["adjudicate", "a", "-j2"],
        ["adjudicate", "a", "-qj", "2"],
    ],
)  # fmt: skip
def test_anything_else_is_left_to_click(argv: list[str]) -> None:
    """Lines without a path, of other commands, and forms click reads that are left to it
    (the pairs of words above try the rest against click)."""
    assert plain_command(argv) is None


@pytest.mark.parametrize("variable", ["ARBITER_SCHEDULER", "_ARBITER_COMPLETE"])
def test_a_scheduler_or_shell_completion_in_the_environment_is_left_to_click(
    variable: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(variable, "tcp://127.0.0.1:1" if "SCHED" in variable else "bash_complete")
    assert plain_command(["adjudicate", "a.grn"]) is None


# --- the same output, byte for byte ----------------------------------------------------------


def outcome(call: Callable[[], object], stdin: bytes) -> tuple[bytes, bytes, int]:
    """Standard output, standard error and exit status of ``call``, with standard input
    ``stdin`` (both paths are run in the same harness)."""
    with CliRunner().isolation(input=stdin) as (out, err, _mixed):
        try:
            call()
            code: Any = 0
        except SystemExit as done:
            code = done.code
        finally:
            sys.stdout.flush()
            sys.stderr.flush()
    return out.getvalue(), err.getvalue(), 0 if code is None else int(code)


@pytest.fixture
def inputs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A folder with an empty file, and the clock stopped (the summary line gives the time
    a run took)."""
    monkeypatch.delenv("ARBITER_SCHEDULER", raising=False)
    monkeypatch.setattr(progress, "time", SimpleNamespace(perf_counter=lambda: 100.0))
    (tmp_path / "empty.grn").write_bytes(b"")
    (tmp_path / "cp1252.grn").write_bytes(
        ONE.replace("[Komi", '[Event "Caf\xe9"]\n[Komi').encode("cp1252")
    )
    return tmp_path


def sample_files() -> list[str]:
    return sorted(str(p) for p in SAMPLES.glob("*/*/*") if p.name.endswith((".grn", ".json"))
                  and not p.name.endswith(".expected.json"))  # fmt: skip


CASES = [
    ("adjudicate", "{samples}"),
    ("adjudicate", "--json", "{samples}"),
    ("validate", "{samples}"),
    ("adjudicate", "--quiet", str(SAMPLES / "tournament")),
    ("validate", "-q", str(SAMPLES)),
    ("adjudicate", "--json", "-"),
    ("validate", "-", "{dir}/missing.grn"),
    ("adjudicate", "{dir}/missing.grn"),
    ("adjudicate", "--json", "{dir}/empty.grn"),
    ("validate", "{dir}/empty.grn", "--quiet"),
    ("adjudicate", "--from", "json", str(PLETORE)),
    ("validate", "--from=abstractplay", str(PLETORE), "-"),
    ("adjudicate", "-q", "--json", "--from=grn", "-", str(SAMPLES / "pilo" / "invalid")),
    ("adjudicate", "--json", "-j", "2", str(SAMPLES / "implo")),
    ("adjudicate", "--json", "{dir}/cp1252.grn"),
    ("validate", "--encoding", "CP1252", "{dir}/cp1252.grn"),
    ("adjudicate", "--json", "--encoding=windows-1252", "-j", "2", "{dir}/cp1252.grn"),
]


@pytest.mark.parametrize("case", CASES, ids=" ".join)
def test_the_fast_path_prints_what_the_click_command_prints(
    case: tuple[str, ...], inputs: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    argv = [word.replace("{dir}", str(inputs)) for word in case]
    if "{samples}" in argv:
        at = argv.index("{samples}")
        argv[at : at + 1] = sample_files()
    assert plain_command(argv) is not None
    stdin = ONE.encode()
    clicked = outcome(lambda: cli.main.main(argv, prog_name="arbiter"), stdin)
    with monkeypatch.context() as patch:  # the fast path must not reach the click group
        patch.setattr(cli, "main", None)
        fast = outcome(lambda: entry.main(argv), stdin)
    assert fast == clicked
    assert fast[2] in (0, 1) and (fast[0] or fast[1])


@pytest.mark.parametrize(
    "argv", [["adjudicate", "--jobs", "0", "x"], ["validate", "--json", "x"], ["adjudicate", "-h"]]
)
def test_what_the_fast_path_does_not_take_gets_clicks_answer(argv: list[str]) -> None:
    answer = outcome(lambda: entry.main(argv, prog_name="arbiter"), b"")
    assert answer == outcome(lambda: cli.main.main(argv, prog_name="arbiter"), b"")
    assert b"Usage: arbiter " in answer[0] + answer[1]


# --- one line for any failure, as in the click group ------------------------------------------


def failing(error: BaseException) -> Callable[..., Iterator[str]]:
    def fail(paths: object, skipped: object = None) -> Iterator[str]:
        raise error

    return fail


@pytest.mark.parametrize(
    ("error", "said", "status"),
    [
        (RuntimeError("\udcff.grn"), b"arbiter: internal error: RuntimeError: \\udcff.grn\n", 1),
        (KeyboardInterrupt(), b"arbiter: interrupted\n", 130),
        (BrokenPipeError(32, "Broken pipe"), b"", 1),
    ],
)  # fmt: skip
@pytest.mark.parametrize("command", ["adjudicate", "validate"])
def test_a_failure_of_a_fast_run_is_one_line_as_in_the_click_group(
    error: BaseException, said: bytes, status: int, command: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(runs, "expand_paths", failing(error))
    argv = [command, "--quiet", "a.grn"]
    fast = outcome(lambda: entry.main(argv), b"")
    assert fast == (b"", said, status)
    assert fast == outcome(lambda: cli.main.main(argv, prog_name="arbiter"), b"")


@pytest.mark.parametrize("encoding", ["utf-8", "ascii"])
def test_standard_error_takes_any_file_name_as_python_writes_it(encoding: str) -> None:
    # A name with bytes that are not UTF-8 (a lone surrogate once decoded), and an escape.
    code = "from arbiter.service.cli.streams import say; say('bad \\udcff name \\x1b[31m')"
    env = {**os.environ, "PYTHONIOENCODING": encoding}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, timeout=60,
                          check=False, env=env)  # fmt: skip
    assert done.returncode == 0
    assert done.stderr == b"bad \\udcff name \x1b[31m\n"


# --- click is not loaded ---------------------------------------------------------------------

RUN_AND_TELL = """
import atexit, sys
atexit.register(lambda: sys.stderr.write(f"click loaded: {{'click' in sys.modules}}\\n"))
{start}
"""
STARTS = {
    "entry": "from arbiter.service.cli.entry import main; main(sys.argv[1:])",
    "python -m arbiter": "import runpy; runpy.run_module('arbiter', run_name='__main__')",
}


@pytest.mark.parametrize("start", STARTS)
def test_a_plain_run_does_not_load_click(start: str, tmp_path: Path) -> None:
    record = tmp_path / "one.grn"
    record.write_text(ONE, encoding="utf-8")
    env = {key: value for key, value in os.environ.items() if key != "ARBITER_SCHEDULER"}
    code = RUN_AND_TELL.format(start=STARTS[start])

    def run(*argv: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-c", code, *argv], capture_output=True,
                              text=True, env=env, cwd=ROOT, timeout=60, check=False)  # fmt: skip

    plain = run("adjudicate", "--json", "--quiet", str(record))
    assert plain.returncode == 0, plain.stderr
    assert '"valid": true' in plain.stdout
    assert plain.stderr == "click loaded: False\n"
    helped = run("adjudicate", "--help")  # the check itself can fail
    assert helped.returncode == 0 and "adjudicate [OPTIONS] PATHS..." in helped.stdout
    assert helped.stderr == "click loaded: True\n"


def test_the_installed_console_script_starts_without_click(installed: Path, tmp_path: Path) -> None:
    """The wheel as a user installs it (compiled where a C compiler is present): its
    ``arbiter`` script, timed import by import, never imports click on a plain run."""
    record = tmp_path / "one.grn"
    record.write_text(ONE, encoding="utf-8")
    env = {key: value for key, value in os.environ.items() if key != "ARBITER_SCHEDULER"}
    env["PYTHONPATH"] = str(installed)
    script = installed / "bin" / "arbiter"

    def imports(*argv: str) -> tuple[subprocess.CompletedProcess[str], set[str]]:
        done = subprocess.run([sys.executable, "-X", "importtime", str(script), *argv],
                              capture_output=True, text=True, env=env, cwd=tmp_path,
                              timeout=60, check=False)  # fmt: skip
        return done, set(re.findall(r"^import time:.*\|\s*([\w.]+)$", done.stderr, re.M))

    plain, loaded = imports("adjudicate", "--json", "--quiet", str(record))
    assert plain.returncode == 0 and '"valid": true' in plain.stdout
    assert "arbiter.service.cli.entry" in loaded and "arbiter.service.cli.runs" in loaded
    assert not {name for name in loaded if name.split(".")[0] == "click"}
    # nor the events' storage layer, nor the web framework
    assert not {name for name in loaded if name.split(".")[0] in ("sqlalchemy", "flask")}
    assert not {name for name in loaded if name.startswith("arbiter.service.events")}
    helped, loaded = imports("adjudicate", "--help")
    assert helped.returncode == 0 and "click" in loaded


@pytest.fixture
def collector() -> Iterator[None]:
    """The test process's collector settings, put back after the test."""
    threshold = gc.get_threshold()
    yield
    gc.unfreeze()
    gc.set_threshold(*threshold)


def test_the_command_sets_the_collector_for_its_own_process_only(
    collector: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A plain run of the program's own command line sets the collector for a batch of
    records; the same run called with an argument list (a program using the library, or a
    test) leaves the caller's settings alone."""
    ran: list[object] = []
    monkeypatch.setattr(entry, "guarded", ran.append)
    record = str(ROOT / "samples" / "pilo" / "valid" / "02-blitz-6x6.grn")
    before = gc.get_threshold()
    entry.main(["adjudicate", "--json", record])
    assert len(ran) == 1 and gc.get_threshold() == before and gc.get_freeze_count() == 0
    monkeypatch.setattr(sys, "argv", ["arbiter", "adjudicate", "--json", record])
    entry.main()
    assert len(ran) == 2
    assert gc.get_threshold()[0] == runs.COLLECTOR_THRESHOLD and gc.get_freeze_count() > 0


def test_a_batch_moves_what_an_invalid_record_left_out_of_the_collectors_sight(
    collector: None, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """In the command's own process, the objects an invalid record leaves (the repair
    search's tables) are frozen after it; a program using the library keeps its own."""
    slipped = str(ROOT / "samples" / "pilo" / "valid" / "02-blitz-6x6.grn")
    text = Path(slipped).read_text(encoding="utf-8").replace(" d3 ", " d2 ", 1)

    def frozen_after(batch: bool, path: Path) -> int:
        monkeypatch.setattr(runs, "BATCH", [batch])
        gc.unfreeze()
        list(runs.rendered([str(path)], runs.json_line))
        return gc.get_freeze_count()

    record = tmp_path / "refused.grn"
    record.write_text(text, encoding="utf-8")  # d2 for d3: refused at a later move
    assert frozen_after(False, record) == 0
    assert frozen_after(True, record) > 0
    assert frozen_after(True, Path(slipped)) == 0  # a valid record: nothing to move


def test_the_programs_own_run_ends_without_the_interpreters_teardown(tmp_path: Path) -> None:
    """The process's own command line ends with its status, its output whole and its exit
    functions run, but without freeing its objects one by one (``entry.end_now``); a program
    calling ``main`` with its own arguments keeps its interpreter."""
    records = tmp_path / "many.grn"
    records.write_text("\n".join([ONE] * 300), encoding="utf-8")
    code = (
        "import atexit, sys\n"
        "class Told:\n"
        "    def __del__(self):\n"
        "        sys.stderr.write('torn down\\n')\n"
        "kept = Told()\n"
        "atexit.register(lambda: sys.stderr.write('exit functions run\\n'))\n"
        "sys.argv = ['arbiter', *sys.argv[1:]]\n"
        "from arbiter.service.cli.entry import main\n"
        "main()\n"
    )
    env = {key: value for key, value in os.environ.items() if key != "ARBITER_SCHEDULER"}
    done = subprocess.run([sys.executable, "-c", code, "adjudicate", "--json", "--quiet",
                           str(records)], capture_output=True, text=True, env=env, cwd=ROOT,
                          timeout=120, check=False)  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert done.stdout.count('"valid": true') == 300 and done.stdout.endswith("}\n")
    assert done.stderr == "exit functions run\n"
    code = code.replace("main()", "main(sys.argv[1:])")
    done = subprocess.run([sys.executable, "-c", code, "adjudicate", "--json", "--quiet",
                           str(records / "missing.grn")], capture_output=True, text=True,
                          env=env, cwd=ROOT, timeout=120, check=False)  # fmt: skip
    assert done.returncode == 1
    assert done.stderr.endswith("exit functions run\ntorn down\n")
