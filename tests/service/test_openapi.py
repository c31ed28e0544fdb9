"""``spec/openapi.yaml`` against the app: the copies agree, every route is described, and a
property-based run of schemathesis finds no 5xx and no answer outside the description.

schemathesis talks to the app through its WSGI interface: no socket, no network.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import schemathesis
import yaml
from hypothesis import HealthCheck, settings
from schemathesis.generation import GenerationMode

from arbiter.service import create_app

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = ROOT / "service" / "openapi.yaml"
COPY = ROOT / "spec" / "openapi.yaml"

# GRN is plain text under its own media type: send it as schemathesis sends text/plain.
schemathesis.serializer.alias("application/x-grn", "text/plain")

APP = create_app({"TESTING": True, "MAX_CONTENT_LENGTH": 256 * 1024})
SCHEMA = schemathesis.openapi.from_wsgi("/api/v1/openapi.yaml", APP)
# Only data that fits the description. Negative cases would be answered 200 by design: a body
# that breaks the record schema is a record the API reports as invalid, not a bad request.
SCHEMA.config.generation.update(modes=[GenerationMode.POSITIVE])
# Text that fits the description may still hold no readable record, which /convert answers
# with its documented 422; the other operations never send 422.
SCHEMA.config.checks.positive_data_acceptance.expected_statuses = ["2xx", "422"]


def test_spec_copy_is_identical() -> None:
    """service/openapi.yaml is the source; spec/openapi.yaml must be a byte-for-byte copy
    (refresh it with: cp service/openapi.yaml spec/openapi.yaml)."""
    assert COPY.read_bytes() == SHIPPED.read_bytes()


def test_every_route_is_described() -> None:
    described = {
        path: set(item)
        for path, item in yaml.safe_load(SHIPPED.read_text(encoding="utf-8"))["paths"].items()
    }
    routed = {}
    for rule in APP.url_map.iter_rules():
        # The HTML page and its own files (script, style sheet, icon) are not part of the API.
        if rule.rule != "/" and not rule.endpoint.startswith("assets."):
            routed[rule.rule] = {
                method.lower() for method in rule.methods or () if method not in ("HEAD", "OPTIONS")
            }
    assert routed == described


@SCHEMA.parametrize()
@settings(max_examples=100, deadline=None, suppress_health_check=list(HealthCheck))
def test_api_conforms_to_its_description(case: schemathesis.Case[Any]) -> None:
    case.call_and_validate()
