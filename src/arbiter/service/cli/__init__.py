"""The ``arbiter`` command line (``spec/cli.md``): where it starts (:mod:`.entry`), the click
group and its commands (:mod:`.main`, :mod:`.show`, :mod:`.repair`, :mod:`.standings`,
:mod:`.serve`, :mod:`.db`), the options of ``adjudicate`` and ``validate`` (:mod:`.options`,
:mod:`.runs`), reading and writing files (:mod:`.streams`), progress (:mod:`.progress`),
and runs over several processes (:mod:`.parallel`) or a Dask cluster (:mod:`.cluster`).
click is imported here only.
"""
