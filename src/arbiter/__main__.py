"""``python -m arbiter``: the ``arbiter`` command line."""

from arbiter.service.cli.entry import main

main(prog_name="arbiter")
