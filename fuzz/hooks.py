"""schemathesis hooks for this API (loaded by ``fuzz/schemathesis.toml`` and by
``tests/service/test_openapi.py``): GRN's media type, and the check that a JSON body breaking
the record schema is reported invalid, never accepted as valid."""

from __future__ import annotations

from typing import Any

import schemathesis

from arbiter.notation.json_schema import source_validator

RECORD_OPERATIONS = ("/api/v1/adjudicate", "/api/v1/validate")

# GRN is plain text under its own media type: send it as schemathesis sends text/plain.
schemathesis.serializer.alias("application/x-grn", "text/plain")


@schemathesis.check
def records_breaking_the_schema_are_reported_invalid(
    ctx: Any, response: Any, case: schemathesis.Case[Any]
) -> bool | None:
    """A JSON body that breaks the record schema, sent to /adjudicate or /validate, is
    answered 200 with ``valid: false``: the reader is never more lenient than the schema.
    (The API reads such a body, as the CLI reads such a file; it does not refuse it.)"""
    if case.operation.path not in RECORD_OPERATIONS or response.status_code != 200:
        return None
    if case.media_type != "application/json" or source_validator().is_valid(case.body):
        return None
    assert response.json()["valid"] is False, (
        f"a body that breaks the schema was valid: {case.body!r}"
    )
    return None
