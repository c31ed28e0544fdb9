"""The terminals of ``grammar/grn.lark`` that the fast path of the GRN reader uses, as lark
compiles them.

Generated: ``python -m arbiter.notation.grn_lark > notation/grn_terminals.py``; a test
checks that this file is what the grammar gives. Do not edit.
"""

GENERATED: dict[str, str] = {
    "TAG_NAME": "[A-Za-z][A-Za-z0-9_]*",
    "TAG_VALUE": '"(?:[^"\\\\\r\n]|\\\\["\\\\])*"',
    "COMMENT": "\\{[^}]*\\}",
    "MOVE_NUMBER": "[0-9]+\\.(?:\\.\\.)?",
}
