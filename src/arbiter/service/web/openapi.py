"""The HTTP API's description as served: ``openapi.yaml`` with the games filled in.

``service/web/openapi.yaml`` (copied to ``spec/openapi.yaml``) is written by hand and names the
five games in its enums; the document served at ``/api/v1/openapi.yaml`` and ``.json`` takes
those enums from the registered games instead, and holds the record schema in full as the
JSON request body (the file refers to it by its ``$id``), so that it always describes what
this server reads. A test checks that the file names the registered games.
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any

from arbiter.notation.games import all_games, form_types, generation
from arbiter.notation.json_schema import record_schema


def openapi_document() -> dict[str, Any]:
    """The OpenAPI document (as parsed YAML) for the games registered now."""
    return _document(generation())


def openapi_yaml() -> str:
    """:func:`openapi_document` as YAML text."""
    return _yaml(generation())


@cache
def _document(_generation: int) -> dict[str, Any]:
    import yaml  # only the description endpoints need it

    text = resources.files("arbiter.service.web").joinpath("openapi.yaml").read_text("utf-8")
    document: dict[str, Any] = yaml.safe_load(text)
    names = [game.name for game in all_games()]
    schemas = document["components"]["schemas"]
    schemas["Game"]["properties"]["name"]["enum"] = names
    schemas["Game"]["properties"]["moves"]["items"]["enum"] = list(form_types())
    schemas["Report"]["properties"]["game"]["enum"] = [*names, None]
    schemas["NewEvent"]["properties"]["game"]["enum"] = names
    source = _embedded(record_schema(), "#/components/schemas/RecordSource")
    source["description"] = schemas["RecordSource"]["description"]
    schemas["RecordSource"] = source
    return document


def _embedded(schema: dict[str, Any], at: str) -> dict[str, Any]:
    """The record schema as a component of this document at ``at``: its references to its
    own ``$defs`` pointed there, and its ``$id`` left out so that they resolve in the
    document."""
    text = json.dumps({k: v for k, v in schema.items() if k not in ("$id", "$schema")})
    return dict(json.loads(text.replace('"#/$defs/', f'"{at}/$defs/')))


@cache
def _yaml(_generation: int) -> str:
    import yaml

    return yaml.safe_dump(_document(_generation), sort_keys=False, allow_unicode=True, width=96)
