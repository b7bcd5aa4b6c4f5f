"""A small OpenAI-compatible HTTP server around any `ChatClient` or responder function.

It exposes the local model to other tools (`python -m core.openai_server --port 8000`)
and gives the tests a real HTTP endpoint. Routes: `POST /v1/chat/completions`,
`GET /v1/models`. No streaming, one choice per request.
"""

from __future__ import annotations

import argparse
import json
import threading
import time
import uuid
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from core.llm import ChatClient, ChatError, ChatReply, Message

Responder = Callable[[list[Message]], str]
DEFAULT_MODEL_NAME = "local"


class _BadRequest(ValueError):
    pass


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
    respond: Callable[[list[Message], dict[str, Any]], str | ChatReply], model_name: str
) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, format: str, *args: Any) -> None:  # quiet by default
            return

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
            if self.path.rstrip("/") in {"/v1/models", "/models"}:
                self._send_json(
                    200,
                    {"object": "list", "data": [{"id": model_name, "object": "model", "owned_by": "local"}]},
                )
            else:
                self._error(404, f"no route GET {self.path}", "not_found")

        def do_POST(self) -> None:
            if self.path.rstrip("/") not in {"/v1/chat/completions", "/chat/completions"}:
                self._error(404, f"no route POST {self.path}", "not_found")
                return
            try:
                length = int(self.headers.get("Content-Length") or 0)
                body = json.loads(self.rfile.read(length) or b"{}")
                if not isinstance(body, dict):
                    raise _BadRequest("request body must be a JSON object")
                messages = _parse_messages(body)
            except ValueError as exc:
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
) -> tuple[ThreadingHTTPServer, str]:
    """Start serving in a daemon thread; returns (server, base_url ending in /v1).

    Stop it with `server.shutdown(); server.server_close()`.
    """
    server = ThreadingHTTPServer((host, port), _make_handler(_as_responder(client_or_fn), model_name))
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, name="openai-server", daemon=True)
    thread.start()
    bound_host, bound_port = server.server_address[:2]
    return server, f"http://{bound_host}:{bound_port}/v1"


def main(argv: list[str] | None = None) -> None:
    from core.llm import LocalChatClient
    from core.settings import from_env

    parser = argparse.ArgumentParser(description="Serve the local chat model as an OpenAI-compatible API.")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--model", default="", help="local folder or hub id; default: embedded SmolLM2")
    args = parser.parse_args(argv)
    settings = from_env()
    client = LocalChatClient(args.model or settings.local_lm, settings.cache_dir)
    server, base_url = serve(client, args.host, args.port, model_name=args.model or DEFAULT_MODEL_NAME)
    print(f"serving {client.name} at {base_url} (Ctrl-C to stop)", flush=True)
    try:
        threading.Event().wait()
    except KeyboardInterrupt:
        server.shutdown()
        server.server_close()


if __name__ == "__main__":
    main()
