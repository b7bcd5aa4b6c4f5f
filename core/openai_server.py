"""A small OpenAI-compatible HTTP server around any `ChatClient` or responder function.

It exposes the local model to other tools (`python -m core.openai_server --port 8000`)
and gives the tests a real HTTP endpoint. Routes: `POST /v1/chat/completions`,
`GET /v1/models`. No streaming, one choice per request.

Bounded and guarded: with an API key every request needs `Authorization: Bearer KEY` (the command
line refuses to start without one, RPS_OPENAI_SERVER_KEY); a body must declare its length, at most
`max_body_bytes`, and arrive within `read_timeout_s`.
"""

from __future__ import annotations

import argparse
import hmac
import json
import os
import threading
import time
import uuid
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from core import jsonlimits
from core.llm import ChatClient, ChatError, ChatReply, LocalChatClient, Message
from core.settings import from_env

Responder = Callable[[list[Message]], str]
DEFAULT_MODEL_NAME = "local"
DEFAULT_MAX_BODY_BYTES = 1_000_000
DEFAULT_READ_TIMEOUT_S = 30.0
KEY_ENV = "RPS_OPENAI_SERVER_KEY"


class _BadRequest(ValueError):
    pass


class _HttpError(Exception):
    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


def _as_responder(
    client_or_fn: ChatClient | Responder,
) -> Callable[[list[Message], dict[str, Any]], str | ChatReply]:
    if isinstance(client_or_fn, ChatClient):
        client = client_or_fn

        def respond(messages: list[Message], body: dict[str, Any]) -> str | ChatReply:
            return client.chat_with_usage(
                messages,
                max_tokens=int(body.get("max_tokens") or body.get("max_completion_tokens") or 256),
                temperature=float(body.get("temperature") or 0.0),
                seed=body.get("seed"),
            )

        return respond
    return lambda messages, _body: client_or_fn(messages)


def _parse_messages(body: dict[str, Any]) -> list[Message]:
    messages = body.get("messages")
    if not isinstance(messages, list) or not messages:
        raise _BadRequest("field 'messages' must be a non-empty list")
    parsed: list[Message] = []
    for index, message in enumerate(messages):
        if not isinstance(message, dict) or not isinstance(message.get("content"), str):
            raise _BadRequest(f"messages[{index}] must be an object with string 'role' and 'content'")
        parsed.append({"role": str(message.get("role")), "content": message["content"]})
    return parsed


def _completion(model: str, reply: str | ChatReply) -> dict[str, Any]:
    content = reply.text if isinstance(reply, ChatReply) else reply
    known = isinstance(reply, ChatReply) and not reply.estimated
    usage = (reply.prompt_tokens, reply.completion_tokens) if known else (0, 0)  # type: ignore[union-attr]
    return {
        "id": f"chatcmpl-{uuid.uuid4().hex}",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": model,
        "choices": [
            {"index": 0, "message": {"role": "assistant", "content": content}, "finish_reason": "stop"}
        ],
        "usage": {"prompt_tokens": usage[0], "completion_tokens": usage[1], "total_tokens": sum(usage)},
    }


def _make_handler(
    respond: Callable[[list[Message], dict[str, Any]], str | ChatReply],
    model_name: str,
    api_key: str,
    max_body_bytes: int,
    read_timeout_s: float,
) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        timeout = read_timeout_s  # each read of the request line and headers

        def log_message(self, format: str, *args: Any) -> None:  # quiet by default
            return

        def _authorised(self) -> bool:
            if not api_key:
                return True
            given = self.headers.get("Authorization", "")
            if hmac.compare_digest(given.encode(), f"Bearer {api_key}".encode()):
                return True
            self._error(
                401, "missing or wrong API key: send 'Authorization: Bearer KEY'", "authentication_error"
            )
            return False

        def _read_body(self) -> bytes:
            """The declared body, read within `read_timeout_s` in all; _HttpError when refused."""
            declared = (self.headers.get("Content-Length") or "").strip()
            if not declared:
                raise _HttpError(411, "a Content-Length header is required")
            if not declared.isdigit():
                raise _HttpError(400, f"invalid Content-Length {declared[:20]!r}")
            length = int(declared)
            if length > max_body_bytes:
                raise _HttpError(
                    413, f"request body of {length:,} bytes is over the limit of {max_body_bytes:,}"
                )
            deadline = time.monotonic() + read_timeout_s
            chunks: list[bytes] = []
            remaining = length
            while remaining:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise _HttpError(408, f"the request body did not arrive within {read_timeout_s:g} s")
                self.connection.settimeout(left)
                try:
                    chunk = self.rfile.read1(min(remaining, 65536))
                except TimeoutError:
                    raise _HttpError(
                        408, f"the request body did not arrive within {read_timeout_s:g} s"
                    ) from None
                if not chunk:
                    raise _HttpError(400, "the request body ended before its Content-Length")
                chunks.append(chunk)
                remaining -= len(chunk)
            return b"".join(chunks)

        def _send_json(self, status: int, payload: dict[str, Any]) -> None:
            data = json.dumps(payload).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def _error(self, status: int, message: str, kind: str) -> None:
            self._send_json(status, {"error": {"message": message, "type": kind}})

        def do_GET(self) -> None:
            if not self._authorised():
                return
            if self.path.rstrip("/") in {"/v1/models", "/models"}:
                self._send_json(
                    200,
                    {"object": "list", "data": [{"id": model_name, "object": "model", "owned_by": "local"}]},
                )
            else:
                self._error(404, f"no route GET {self.path}", "not_found")

        def do_POST(self) -> None:
            if not self._authorised():
                return
            if self.path.rstrip("/") not in {"/v1/chat/completions", "/chat/completions"}:
                self._error(404, f"no route POST {self.path}", "not_found")
                return
            try:
                raw = self._read_body()
            except _HttpError as exc:
                self.close_connection = True
                self._error(exc.status, str(exc), "invalid_request_error")
                return
            try:
                body = jsonlimits.loads(raw.decode("utf-8") or "{}")
                if not isinstance(body, dict):
                    raise _BadRequest("request body must be a JSON object")
                messages = _parse_messages(body)
            except (ValueError, UnicodeDecodeError) as exc:
                self._error(400, f"bad request: {exc}", "invalid_request_error")
                return
            try:
                content = respond(messages, body)
            except (ChatError, RuntimeError, ValueError) as exc:
                self._error(500, f"{type(exc).__name__}: {exc}", "server_error")
                return
            self._send_json(200, _completion(str(body.get("model") or model_name), content))

    return Handler


def serve(
    client_or_fn: ChatClient | Responder,
    host: str = "127.0.0.1",
    port: int = 0,
    model_name: str = DEFAULT_MODEL_NAME,
    *,
    api_key: str = "",
    max_body_bytes: int = DEFAULT_MAX_BODY_BYTES,
    read_timeout_s: float = DEFAULT_READ_TIMEOUT_S,
) -> tuple[ThreadingHTTPServer, str]:
    """Start serving in a daemon thread; returns (server, base_url ending in /v1). With `api_key`,
    requests without it are refused (401); in-process test servers may leave it empty.

    Stop it with `server.shutdown(); server.server_close()`.
    """
    handler = _make_handler(_as_responder(client_or_fn), model_name, api_key, max_body_bytes, read_timeout_s)
    server = ThreadingHTTPServer((host, port), handler)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, name="openai-server", daemon=True)
    thread.start()
    bound_host, bound_port = server.server_address[:2]
    return server, f"http://{bound_host}:{bound_port}/v1"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Serve the local chat model as an OpenAI-compatible API.")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--model", default="", help="local folder or hub id; default: embedded SmolLM2")
    parser.add_argument("--max-body-bytes", type=int, default=DEFAULT_MAX_BODY_BYTES)
    parser.add_argument("--read-timeout-s", type=float, default=DEFAULT_READ_TIMEOUT_S)
    args = parser.parse_args(argv)
    api_key = os.environ.get(KEY_ENV, "")
    if not api_key:
        parser.error(f"set {KEY_ENV} to the API key clients must send (Authorization: Bearer KEY)")
    settings = from_env()
    client = LocalChatClient(args.model or settings.local_lm, settings.cache_dir)
    server, base_url = serve(
        client,
        args.host,
        args.port,
        model_name=args.model or DEFAULT_MODEL_NAME,
        api_key=api_key,
        max_body_bytes=args.max_body_bytes,
        read_timeout_s=args.read_timeout_s,
    )
    print(f"serving {client.name} at {base_url} (Ctrl-C to stop)", flush=True)
    try:
        threading.Event().wait()
    except KeyboardInterrupt:
        server.shutdown()
        server.server_close()


if __name__ == "__main__":
    main()
