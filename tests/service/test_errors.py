"""Every way a request can fail gets a JSON error body of one shape (``spec/api.md``)."""

from __future__ import annotations

import io
import logging
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from werkzeug.datastructures import FileStorage
from werkzeug.test import TestResponse, encode_multipart

from arbiter.service.web import DEFAULT_MAX_BODY, create_app
from tests.service.records import FINISHED_GRN, MAX_BODY

RECORD_ENDPOINTS = ["/api/v1/adjudicate", "/api/v1/validate", "/api/v1/convert?to=json"]


def error_of(response: TestResponse, status: int, code: str) -> dict[str, Any]:
    """The error object of ``response``, after checking its status, type and shape."""
    assert response.status_code == status
    assert response.mimetype == "application/json"
    body = response.get_json()
    assert list(body) == ["error"]
    error: dict[str, Any] = body["error"]
    assert (error["code"], error["status"]) == (code, status)
    assert isinstance(error["message"], str) and error["message"]
    return error


def test_unknown_route(client: FlaskClient) -> None:
    error_of(client.get("/api/v1/nothing-here"), 404, "not-found")
    error_of(client.get("/api/v2/adjudicate"), 404, "not-found")


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("get", "/api/v1/adjudicate"),
        ("put", "/api/v1/validate"),
        ("delete", "/api/v1/convert"),
        ("post", "/api/v1/games"),
        ("post", "/health"),
    ],
)
def test_wrong_method(client: FlaskClient, method: str, path: str) -> None:
    response = getattr(client, method)(path)
    error_of(response, 405, "method-not-allowed")
    assert response.headers["Allow"]


@pytest.mark.parametrize("path", RECORD_ENDPOINTS)
def test_body_over_the_limit(client: FlaskClient, path: str) -> None:
    body = FINISHED_GRN * (MAX_BODY // len(FINISHED_GRN) + 1)
    error = error_of(client.post(path, data=body, content_type="text/plain"), 413, "body-too-large")
    assert error["limit"] == MAX_BODY


def test_upload_over_the_limit(client: FlaskClient) -> None:
    data = {"file": (io.BytesIO(b" " * (MAX_BODY + 1)), "big.grn")}
    response = client.post("/api/v1/adjudicate", data=data, content_type="multipart/form-data")
    error_of(response, 413, "body-too-large")


def test_the_limit_is_configurable() -> None:
    assert create_app().config["MAX_CONTENT_LENGTH"] == DEFAULT_MAX_BODY
    client = create_app({"MAX_CONTENT_LENGTH": 100}).test_client()
    error = error_of(
        client.post("/api/v1/adjudicate", data=FINISHED_GRN, content_type="text/plain"),
        413,
        "body-too-large",
    )
    assert error["limit"] == 100
    assert (
        client.post("/api/v1/adjudicate", data="[]", content_type="application/json").status_code
        == 200
    )


@pytest.mark.parametrize("path", RECORD_ENDPOINTS)
@pytest.mark.parametrize("content_type", ["text/plain", "application/json", None])
def test_empty_body(client: FlaskClient, path: str, content_type: str | None) -> None:
    error_of(client.post(path, data=b"", content_type=content_type), 400, "empty-body")


@pytest.mark.parametrize(
    "content_type", ["image/png", "text/html", "application/x-www-form-urlencoded"]
)
def test_unsupported_content_type(client: FlaskClient, content_type: str) -> None:
    response = client.post("/api/v1/adjudicate", data=FINISHED_GRN, content_type=content_type)
    error = error_of(response, 415, "unsupported-media-type")
    assert "application/json" in error["accepted"]


def test_multipart_without_a_boundary(client: FlaskClient) -> None:
    response = client.post(
        "/api/v1/adjudicate", data=b"--x\r\n\r\n", content_type="multipart/form-data"
    )
    error_of(response, 400, "bad-multipart")


def test_malformed_multipart(client: FlaskClient) -> None:
    response = client.post(
        "/api/v1/validate",
        data=b"this is not multipart at all",
        content_type="multipart/form-data; boundary=xyz",
    )
    error_of(response, 400, "bad-multipart")


def test_multipart_without_a_file(client: FlaskClient) -> None:
    response = client.post(
        "/api/v1/adjudicate", data={"record": FINISHED_GRN}, content_type="multipart/form-data"
    )
    error_of(response, 400, "bad-multipart")


def test_a_bug_is_a_json_500_and_is_logged(app: Flask, caplog: pytest.LogCaptureFixture) -> None:
    @app.get("/boom")
    def boom() -> str:
        raise RuntimeError("a deliberate failure")

    with caplog.at_level(logging.ERROR):
        response = app.test_client().get("/boom")
    error = error_of(response, 500, "internal-error")
    assert "deliberate" not in error["message"]  # no internals leak to the client
    assert "a deliberate failure" in caplog.text


def test_a_failing_engine_is_a_json_500(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(*args: object, **kwargs: object) -> None:
        raise ZeroDivisionError

    monkeypatch.setattr("arbiter.service.web.api.adjudicate_source", broken)
    response = client.post("/api/v1/adjudicate", data=FINISHED_GRN, content_type="text/plain")
    error_of(response, 500, "internal-error")


def test_a_big_form_field_is_ignored() -> None:
    client = create_app({"MAX_CONTENT_LENGTH": 4 * 1024 * 1024}).test_client()
    # Encoded here: the test client would spool a body this big to a file it never closes.
    boundary, body = encode_multipart(
        {
            "note": "x" * (1024 * 1024),
            "file": FileStorage(io.BytesIO(FINISHED_GRN.encode()), filename="a.grn"),
        }
    )
    response = client.post(
        "/api/v1/adjudicate", data=body, content_type=f"multipart/form-data; boundary={boundary}"
    )
    assert response.get_json()["count"] == 1


def test_too_many_parts() -> None:
    client = create_app({"MAX_CONTENT_LENGTH": 1024 * 1024}).test_client()
    files = [(io.BytesIO(b"[]"), f"{number}.json") for number in range(1001)]
    response = client.post(
        "/api/v1/adjudicate", data={"file": files}, content_type="multipart/form-data"
    )
    error = error_of(response, 413, "body-too-large")
    assert "too many parts" in error["message"]
