"""``spec/openapi.yaml`` against the app: the copies agree, every route is described, and a
property-based run of schemathesis, in both its phases, finds no 5xx and no answer outside
the description.

schemathesis talks to the app through its WSGI interface: no socket, no network. The JSON
request body is described by the record schema, so the positive phase sends records and the
negative phase sends JSON that breaks the schema. The API reads both: a record that breaks
the schema is reported invalid, with 200 (``/convert``: 422), not refused as a request; the
check ``records_breaking_the_schema_are_reported_invalid`` of ``fuzz/hooks.py`` holds it to
that.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import schemathesis
import yaml
from hypothesis import settings
from schemathesis.generation import GenerationMode

from arbiter.service.web import create_app
from fuzz import hooks  # noqa: F401  (registers GRN's media type and the check below)
from tests.budget import examples
from tests.strategies import EVERY_HEALTH_CHECK

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = ROOT / "src" / "arbiter" / "service" / "web" / "openapi.yaml"
COPY = ROOT / "spec" / "openapi.yaml"


def configured(schema: Any) -> Any:
    """Both phases; the answers the API gives by design to data that breaks the schema."""
    schema.config.generation.update(modes=[GenerationMode.POSITIVE, GenerationMode.NEGATIVE])
    # The coverage phase alone takes some 20 s over the record schema: `make fuzz` runs it.
    schema.config.phases.update(phases=["examples", "fuzzing"])
    # Text that fits the description may still hold no readable record, which /convert
    # answers with its documented 422; the other operations never send 422. An event's
    # operations need an event that exists and its token, which generated data cannot
    # know: 401, 403, 404 and 409 are their documented answers to data that fits.
    schema.config.checks.positive_data_acceptance.expected_statuses = [
        "2xx",
        "304",
        "401",
        "403",
        "404",
        "409",
        "422",
    ]
    # A record that breaks the schema is a record to report, not a bad request (see above).
    schema.config.checks.negative_data_rejection.expected_statuses = ["200", "4xx"]
    return schema


APP = create_app({"TESTING": True, "MAX_CONTENT_LENGTH": 256 * 1024})
SCHEMA = configured(schemathesis.openapi.from_wsgi("/api/v1/openapi.yaml", APP))


def test_spec_copy_is_identical() -> None:
    """service/web/openapi.yaml is the source; spec/openapi.yaml must be a byte-for-byte copy
    (refresh it with: cp service/web/openapi.yaml spec/openapi.yaml)."""
    assert COPY.read_bytes() == SHIPPED.read_bytes()


def test_every_route_is_described() -> None:
    methods = {"get", "put", "post", "delete", "patch"}
    described = {
        path: set(item) & methods
        for path, item in yaml.safe_load(SHIPPED.read_text(encoding="utf-8"))["paths"].items()
    }
    routed: dict[str, set[str]] = {}
    for rule in APP.url_map.iter_rules():
        # The HTML pages and their own files (script, style sheet, icon) are not the API.
        if rule.rule != "/" and not rule.endpoint.startswith(("assets.", "event_pages.")):
            path = re.sub(r"<(?:[a-z]+(?:\([^)]*\))?:)?([a-z_0-9]+)>", r"{\1}", rule.rule)
            routed.setdefault(path, set()).update(
                method.lower() for method in rule.methods or () if method not in ("HEAD", "OPTIONS")
            )
    assert routed == described


def test_every_body_taken_may_be_too_large() -> None:
    # The server refuses any body over its limit with 413 (body-too-large) before the route
    # reads it, so every operation that takes a body documents that answer.
    paths = yaml.safe_load(SHIPPED.read_text(encoding="utf-8"))["paths"]
    undocumented = [
        f"{method.upper()} {path}"
        for path, item in paths.items()
        for method, operation in item.items()
        if isinstance(operation, dict)
        and "requestBody" in operation
        and "413" not in operation["responses"]
    ]
    assert undocumented == []
    big = APP.test_client().post(
        "/api/v1/events/no-such-event/verify", json={"receipts": ["x" * 300_000]}
    )
    assert big.status_code == 413 and big.get_json()["error"]["code"] == "body-too-large"


def test_the_served_description_holds_the_record_schema() -> None:
    served = APP.test_client().get("/api/v1/openapi.json").get_json()
    source = served["components"]["schemas"]["RecordSource"]
    assert source["$defs"]["record"]["required"] == ["game", "size"]
    body = served["components"]["requestBodies"]["Records"]["content"]["application/json"]
    assert body["schema"] == {"$ref": "#/components/schemas/RecordSource"}


@SCHEMA.parametrize()
@settings(max_examples=examples(50), deadline=None, suppress_health_check=EVERY_HEALTH_CHECK)
def test_api_conforms_to_its_description(case: schemathesis.Case[Any]) -> None:
    case.call_and_validate()
