"""``python -m arbiter``: the ``arbiter`` command line."""

from arbiter.service.cli import main

main(prog_name="arbiter")
