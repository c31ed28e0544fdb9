"""GRN and JSON game records for Pilo, Petrify, Implo, Pletore and Pilare.

Implements ``spec/grn.md`` and ``spec/record.schema.json``, and reads and writes Abstract
Play's records of Pletore (``spec/abstractplay.md``). The notation layer checks the
syntax and the meaning of values (a square on the board, a move form the game has); it never
checks the rules of play, which belong to :mod:`adjudicator`.
"""
