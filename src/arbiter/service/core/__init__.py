"""What the command line, the API and the pages share (``spec/cli.md``, ``spec/api.md``):
records read and adjudicated in batches, conversions (:mod:`.batch`), diagrams of a
record's plies (:mod:`.diagrams`), corrected copies (:mod:`.repairs`) and the words for
repair suggestions (:mod:`.suggestions`), standings in every format
(:mod:`.standings_formats`). Nothing here imports a face: no click, no Flask, no SQLAlchemy.
"""
