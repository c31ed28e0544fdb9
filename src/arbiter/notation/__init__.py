"""GRN and JSON game records for Pilo, Petrify, Implo, Pletore and Pilare.

Implements ``spec/grn.md`` and ``spec/record.schema.json``, and reads and writes Abstract
Play's records of Pletore (``spec/abstractplay.md``). The notation layer checks the
syntax and the meaning of values (a square on the board, a move form the game has); it never
checks the rules of play, which belong to :mod:`adjudicator`.

Its public surface is ``__all__``: the record model and the move forms (:mod:`.ast`,
:mod:`.forms`), the registries of games and move forms (:mod:`.games`), the readers and
writers, corrected copies (:mod:`.repair`), and the errors. The names load from their
modules on first use.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from arbiter.notation.exports import lazy_exports

if TYPE_CHECKING:
    from arbiter.notation.ast import (
        Button,
        Capture,
        Flip,
        Grid,
        ImploPlace,
        Location,
        Move,
        Pass,
        Place,
        Point,
        Record,
        Resolve,
        Sow,
        Swap,
        Tag,
        Turn,
    )
    from arbiter.notation.errors import (
        AmbiguousMoveError,
        IllegalMoveError,
        InvalidRecordError,
        NotationSyntaxError,
        RecordError,
        ResultMismatchError,
    )
    from arbiter.notation.forms import JsonField, MoveForm, Trace
    from arbiter.notation.games import (
        GameDescription,
        Piece,
        all_games,
        find_game,
        form_types,
        forms_of,
        game_named,
        move_forms,
        register_form,
        register_game,
        unregister_form,
        unregister_game,
    )
    from arbiter.notation.grn_writer import write_grn
    from arbiter.notation.json_schema import record_schema
    from arbiter.notation.json_writer import write_json
    from arbiter.notation.repair import apply_correction
    from arbiter.notation.sources import parse_record, read_records

_MODULES = {
    "arbiter.notation.ast": (
        "Button", "Capture", "Flip", "Grid", "ImploPlace", "Location", "Move", "Pass", "Place",
        "Point", "Record", "Resolve", "Sow", "Swap", "Tag", "Turn",
    ),
    "arbiter.notation.errors": (
        "AmbiguousMoveError", "IllegalMoveError", "InvalidRecordError", "NotationSyntaxError",
        "RecordError", "ResultMismatchError",
    ),
    "arbiter.notation.forms": ("JsonField", "MoveForm", "Trace"),
    "arbiter.notation.games": (
        "GameDescription", "Piece", "all_games", "find_game", "form_types", "forms_of",
        "game_named", "move_forms", "register_form", "register_game", "unregister_form",
        "unregister_game",
    ),
    "arbiter.notation.grn_writer": ("write_grn",),
    "arbiter.notation.json_schema": ("record_schema",),
    "arbiter.notation.json_writer": ("write_json",),
    "arbiter.notation.repair": ("apply_correction",),
    "arbiter.notation.sources": ("parse_record", "read_records"),
}  # fmt: skip

__all__ = [
    "AmbiguousMoveError",
    "Button",
    "Capture",
    "Flip",
    "GameDescription",
    "Grid",
    "IllegalMoveError",
    "ImploPlace",
    "InvalidRecordError",
    "JsonField",
    "Location",
    "Move",
    "MoveForm",
    "NotationSyntaxError",
    "Pass",
    "Piece",
    "Place",
    "Point",
    "Record",
    "RecordError",
    "Resolve",
    "ResultMismatchError",
    "Sow",
    "Swap",
    "Tag",
    "Trace",
    "Turn",
    "all_games",
    "apply_correction",
    "find_game",
    "form_types",
    "forms_of",
    "game_named",
    "move_forms",
    "parse_record",
    "read_records",
    "record_schema",
    "register_form",
    "register_game",
    "unregister_form",
    "unregister_game",
    "write_grn",
    "write_json",
]
__getattr__, __dir__ = lazy_exports(globals(), _MODULES)
