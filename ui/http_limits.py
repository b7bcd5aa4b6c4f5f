"""A request-body limit for the studio's HTTP endpoints (an ASGI middleware given to Gradio's app).

Gradio checks each uploaded file against `max_file_size` itself; every other request body (API
calls, queue joins with pasted text) is held to the same setting here, refused with 413 before it
is read into memory when its Content-Length says so, and cut off as soon as it exceeds it otherwise.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, MutableMapping
from contextvars import ContextVar
from typing import Any

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
CLIENT_ADDRESS: ContextVar[str] = ContextVar("client_address", default="unknown")
UPLOAD_SUFFIX = "/upload"  # Gradio's own route, limited per file by max_file_size


class BodyLimit:
    def __init__(self, app: Callable[[Scope, Receive, Send], Awaitable[None]], max_bytes: int) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope.get("path", "").rstrip("/").endswith(UPLOAD_SUFFIX):
            await self.app(scope, receive, send)
            return
        declared = _content_length(scope)
        if declared == -1:
            await _refuse(send, 400, "invalid Content-Length header")
            return
        if declared is not None and declared > self.max_bytes:
            await _refuse(
                send, 413, f"request body of {declared:,} bytes is over the limit of {self.max_bytes:,}"
            )
            return
        received = 0
        too_big = False
        started = False

        async def counting_receive() -> Message:
            nonlocal received, too_big
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > self.max_bytes:
                    too_big = True
                    return {"type": "http.disconnect"}
            return message

        async def guarded_send(message: Message) -> None:
            nonlocal started
            if too_big:
                return
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, counting_receive, guarded_send)
        except Exception:  # the app saw the body end early (e.g. ClientDisconnect): ours to answer
            if not too_big:
                raise
        if too_big and not started:
            await _refuse(send, 413, f"request body is over the limit of {self.max_bytes:,} bytes")


def _content_length(scope: Scope) -> int | None:
    """The declared length; -1 when the header is malformed or negative (refused), None when absent."""
    for name, value in scope.get("headers", []):
        if name == b"content-length":
            text = value.decode("latin-1").strip()
            return int(text) if text.isdigit() else -1
    return None


async def _refuse(send: Send, status: int, reason: str) -> None:
    body = json.dumps({"error": reason}).encode()
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


class RecordClientAddress:
    """Makes the client's address known to code the request runs (the sign-in throttle), which
    Gradio's login route does not pass on."""

    def __init__(self, app: Callable[[Scope, Receive, Send], Awaitable[None]]) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        client = scope.get("client")
        token = CLIENT_ADDRESS.set(str(client[0]) if client else "unknown")
        try:
            await self.app(scope, receive, send)
        finally:
            CLIENT_ADDRESS.reset(token)
