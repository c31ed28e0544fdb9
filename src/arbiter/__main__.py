"""``python -m arbiter``: the ``arbiter`` command line."""

from arbiter.service.entry import main

main(prog_name="arbiter")
