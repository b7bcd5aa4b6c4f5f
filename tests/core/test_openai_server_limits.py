"""The OpenAI-compatible server is guarded (issue 17): a key, a body limit, a reading deadline,
and no hang on a negative Content-Length."""

from __future__ import annotations

import json
import socket
import time

import httpx
import pytest

from core import openai_server
from core.openai_server import serve


@pytest.fixture
def server():
    started = []

    def start(**options):
        server, base_url = serve(lambda messages: "hello", **options)
        started.append(server)
        return base_url

    yield start
    for server in started:
        server.shutdown()
        server.server_close()


def chat(base_url: str, headers: dict[str, str] | None = None, **kwargs) -> httpx.Response:
    body = {"model": "local", "messages": [{"role": "user", "content": "hi"}]}
    return httpx.post(f"{base_url}/chat/completions", json=body, headers=headers or {}, timeout=10, **kwargs)


def raw_request(base_url: str, head: bytes, body: bytes = b"", pause_s: float = 0.0) -> tuple[bytes, float]:
    host, port = base_url.removeprefix("http://").removesuffix("/v1").split(":")
    started = time.monotonic()
    with socket.create_connection((host, int(port)), timeout=10) as sock:
        sock.sendall(head + body)
        if pause_s:
            time.sleep(pause_s)
        reply = b""
        while chunk := sock.recv(65536):  # headers and body may come in separate packets
            reply += chunk
    return reply, time.monotonic() - started


def test_a_key_is_required_when_set(server) -> None:
    base_url = server(api_key="s3cret")
    refused = chat(base_url)
    assert refused.status_code == 401 and "API key" in refused.json()["error"]["message"]
    assert chat(base_url, {"Authorization": "Bearer wrong"}).status_code == 401
    ok = chat(base_url, {"Authorization": "Bearer s3cret"})
    assert ok.status_code == 200 and ok.json()["choices"][0]["message"]["content"] == "hello"


def test_the_command_line_refuses_to_serve_without_a_key(monkeypatch, capsys) -> None:
    monkeypatch.delenv(openai_server.KEY_ENV, raising=False)
    with pytest.raises(SystemExit):
        openai_server.main(["--port", "0"])
    assert openai_server.KEY_ENV in capsys.readouterr().err


def test_bodies_over_the_limit_and_bad_lengths_are_refused_at_once(server) -> None:
    base_url = server(max_body_bytes=1000, read_timeout_s=2)
    big = json.dumps({"messages": [{"role": "user", "content": "x" * 2000}]}).encode()
    head = b"POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nContent-Length: %d\r\n\r\n" % len(big)
    reply, _ = raw_request(base_url, head)  # the body is never sent: refused from the header
    assert reply.startswith(b"HTTP/1.0 413") and b"over the limit of 1,000" in reply
    reply, seconds = raw_request(
        base_url, b"POST /v1/chat/completions HTTP/1.1\r\nContent-Length: -1\r\n\r\n"
    )
    assert reply.startswith(b"HTTP/1.0 400") and b"invalid Content-Length" in reply and seconds < 2
    reply, _ = raw_request(base_url, b"POST /v1/chat/completions HTTP/1.1\r\n\r\n")
    assert reply.startswith(b"HTTP/1.0 411")


def test_a_body_that_does_not_arrive_in_time_is_dropped(server) -> None:
    base_url = server(read_timeout_s=1)
    head = b"POST /v1/chat/completions HTTP/1.1\r\nContent-Length: 500\r\n\r\n"
    reply, seconds = raw_request(base_url, head, b'{"messages": ')  # then silence
    assert reply.startswith(b"HTTP/1.0 408") and seconds < 5


def test_non_standard_json_numbers_are_refused(server) -> None:
    base_url = server()
    body = b'{"messages": [{"role": "user", "content": "hi"}], "temperature": NaN}'
    reply = httpx.post(f"{base_url}/chat/completions", content=body, timeout=10)
    assert reply.status_code == 400 and "NaN is not a JSON number" in reply.json()["error"]["message"]
