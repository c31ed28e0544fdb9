"""JSON error bodies for every failure of the HTTP API (``spec/api.md``, section "Errors").

Every error, whether the API raised it, Werkzeug raised it (an unknown route, a wrong method,
a body over the size limit) or it is a bug, is answered with the same shape::

    {"error": {"code": "empty-body", "status": 400, "message": "..."}}

plus extra fields for some codes (``limit`` for ``body-too-large``, ``problems`` for
``unreadable-records``). No HTML error page is ever sent.
"""

from __future__ import annotations

from typing import Any

from flask import Flask, Response, current_app, jsonify, request
from werkzeug.exceptions import HTTPException, RequestEntityTooLarge

HTTP_CODES = {
    400: "bad-request",
    404: "not-found",
    405: "method-not-allowed",
    413: "body-too-large",
    415: "unsupported-media-type",
}
"""Stable codes for the HTTP errors Werkzeug raises; any other status gets its name as slug."""


class ApiError(Exception):
    """A request the API refuses: its HTTP ``status``, a stable ``code``, a ``message`` a
    person understands, and any ``extra`` fields for the error body."""

    def __init__(self, status: int, code: str, message: str, **extra: Any) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.extra = extra

    def to_dict(self) -> dict[str, Any]:
        """The JSON error body."""
        return error_body(self.status, self.code, self.message, **self.extra)


def error_body(status: int, code: str, message: str, **extra: Any) -> dict[str, Any]:
    """``{"error": {"code", "status", "message", ...extra}}``."""
    return {"error": {"code": code, "status": status, "message": message, **extra}}


def register_error_handlers(app: Flask) -> None:
    """Answer every error of ``app`` with a JSON body."""
    app.register_error_handler(ApiError, _api_error)
    app.register_error_handler(HTTPException, _http_error)
    app.register_error_handler(Exception, _unexpected)


def _api_error(error: ApiError) -> Response:
    response = jsonify(error.to_dict())
    response.status_code = error.status
    if error.status == 401:  # how to authenticate, as HTTP asks of a 401
        response.headers["WWW-Authenticate"] = 'Bearer realm="arbiter"'
    return response


def _http_error(error: HTTPException) -> Response:
    status = error.code or 500
    extra: dict[str, Any] = {}
    message = error.description or error.name
    if isinstance(error, RequestEntityTooLarge):
        extra["limit"] = limit = current_app.config.get("MAX_CONTENT_LENGTH")
        message = f"the request body is larger than the limit of {limit} bytes"
        if (
            limit is not None
            and request.content_length is not None
            and request.content_length <= limit
        ):  # Werkzeug's limit on form parts
            message = "the multipart body has too many parts"
    code = HTTP_CODES.get(status, _slug(error.name))
    response = jsonify(error_body(status, code, message, **extra))
    response.status_code = status
    # Keep the headers Werkzeug gives the error, such as Allow for 405.
    for name, value in error.get_headers():
        if name.lower() != "content-type":
            response.headers[name] = value
    return response


def _unexpected(error: Exception) -> tuple[dict[str, Any], int]:
    """A bug, not a client mistake: log it with its traceback and say so without details."""
    current_app.logger.exception("unhandled error while serving a request")
    return error_body(
        500, "internal-error", "the server failed on this request; the failure has been logged"
    ), 500


def _slug(name: str) -> str:
    return "-".join(name.lower().replace("'", "").split())
