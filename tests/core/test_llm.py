"""Chat clients over real HTTP: the OpenAI client against the project's own OpenAI-compatible server."""

from __future__ import annotations

import json
import os
import socket
import threading
import time
import urllib.request

import pytest

from core.llm import ChatError, LocalChatClient, OpenAICompatibleClient, get_chat_client, redact_url
from core.openai_server import serve
from core.settings import Settings


@pytest.fixture
def echo_server():
    seen: list[list[dict[str, str]]] = []

    def respond(messages):
        seen.append(messages)
        return "echo: " + messages[-1]["content"].upper()

    server, base_url = serve(respond)
    yield base_url, seen
    server.shutdown()
    server.server_close()


def test_openai_client_round_trips_messages_over_http(echo_server):
    base_url, seen = echo_server
    client = OpenAICompatibleClient(base_url, "scripted", api_key="sk-secret-123")
    reply = client.chat([{"role": "system", "content": "be brief"}, {"role": "user", "content": "hello"}])
    assert reply == "echo: HELLO"
    assert seen == [[{"role": "system", "content": "be brief"}, {"role": "user", "content": "hello"}]]


def test_models_route_lists_the_served_model(echo_server):
    base_url, _ = echo_server
    with urllib.request.urlopen(base_url + "/models", timeout=5) as response:
        payload = json.load(response)
    assert [m["id"] for m in payload["data"]] == ["local"]


def test_server_error_becomes_chat_error_without_the_key():
    def broken(_messages):
        raise RuntimeError("model crashed")

    server, base_url = serve(broken)
    try:
        client = OpenAICompatibleClient(base_url, "scripted", api_key="sk-secret-123")
        with pytest.raises(ChatError) as info:
            client.chat([{"role": "user", "content": "hi"}])
    finally:
        server.shutdown()
        server.server_close()
    assert "500" in str(info.value) and "model crashed" in str(info.value)
    assert "sk-secret-123" not in str(info.value)


def test_unreachable_endpoint_names_the_url():
    server, base_url = serve(lambda m: "x")
    server.shutdown()
    server.server_close()
    client = OpenAICompatibleClient(base_url, "scripted", timeout_s=2)
    with pytest.raises(ChatError, match=base_url.replace(".", r"\.")):
        client.chat([{"role": "user", "content": "hi"}])


def test_bad_messages_are_rejected_before_sending(echo_server):
    base_url, seen = echo_server
    client = OpenAICompatibleClient(base_url, "scripted")
    with pytest.raises(ChatError, match="role"):
        client.chat([{"role": "wizard", "content": "hi"}])
    assert seen == []


def test_get_chat_client_prefers_the_endpoint():
    endpoint = get_chat_client(Settings(llm_base_url="http://127.0.0.1:9/v1", llm_model="m"))
    assert isinstance(endpoint, OpenAICompatibleClient) and endpoint.model == "m"
    assert isinstance(get_chat_client(Settings()), LocalChatClient)
    with pytest.raises(ChatError, match="RPS_LLM_MODEL"):
        get_chat_client(Settings(llm_base_url="http://127.0.0.1:9/v1"))


@pytest.mark.slow
def test_local_smollm2_served_over_http_answers(tmp_path):
    local = LocalChatClient(cache_dir=os.environ["RPS_CACHE_DIR"])
    direct = local.chat([{"role": "user", "content": "What is the capital of France?"}], max_tokens=8)
    server, base_url = serve(local)
    try:
        remote = OpenAICompatibleClient(base_url, "local")
        over_http = remote.chat([{"role": "user", "content": "What is the capital of France?"}], max_tokens=8)
    finally:
        server.shutdown()
        server.server_close()
    assert direct.strip() != ""
    # Greedy decoding is deterministic, so the HTTP path returns exactly the direct answer.
    assert over_http == direct


def test_credentials_in_the_endpoint_url_never_reach_messages():
    assert redact_url("http://ann:pw-123@example.org:8000/v1?x=1") == "http://example.org:8000/v1?x=1"
    assert redact_url("http://token@[::1]:8000/v1") == "http://[::1]:8000/v1"
    assert redact_url("http://127.0.0.1:8000/v1") == "http://127.0.0.1:8000/v1"
    with pytest.raises(ChatError) as no_model:
        OpenAICompatibleClient("http://ann:pw-123@127.0.0.1:9/v1", "")
    assert "pw-123" not in str(no_model.value) and "ann" not in str(no_model.value)
    assert "127.0.0.1:9/v1" in str(no_model.value)

    server, base_url = serve(lambda m: "x")
    server.shutdown()
    server.server_close()
    with_credentials = base_url.replace("http://", "http://ann:pw-123@")
    client = OpenAICompatibleClient(with_credentials, "scripted", timeout_s=2)
    with pytest.raises(ChatError) as failed:
        client.chat([{"role": "user", "content": "hi"}])
    assert base_url in str(failed.value)
    assert "pw-123" not in str(failed.value) and "ann:" not in str(failed.value)


def _trickling_server(stage: str) -> tuple[str, threading.Event]:
    """An endpoint that answers a byte every 0.2 s forever: in its headers, or in its body.
    Each read gets a byte well within the client's per-read timeout; only an overall deadline ends it."""
    listener = socket.create_server(("127.0.0.1", 0))
    stop = threading.Event()

    def serve_one() -> None:
        connection, _ = listener.accept()
        with connection, listener:
            connection.recv(65536)  # the request (small: one chat message)
            head = b"HTTP/1.1 200 OK\r\n"
            if stage == "body":
                head += b"Content-Type: application/json\r\nContent-Length: 100000\r\n\r\n{"
            connection.sendall(head)
            while not stop.wait(0.2):
                try:
                    connection.sendall(b"x" if stage == "headers" else b" ")
                except OSError:  # the client hung up: what the deadline should cause
                    return

    threading.Thread(target=serve_one, daemon=True).start()
    return f"http://127.0.0.1:{listener.getsockname()[1]}/v1", stop


@pytest.mark.parametrize("stage", ["headers", "body"])
def test_a_trickling_endpoint_is_stopped_at_the_overall_deadline(stage: str) -> None:
    base_url, stop = _trickling_server(stage)
    client = OpenAICompatibleClient(base_url, "slow", timeout_s=1.5)
    outcome: list[BaseException | str] = []

    def call() -> None:
        try:
            outcome.append(client.chat([{"role": "user", "content": "hi"}]))
        except BaseException as exc:  # asserted below
            outcome.append(exc)

    started = time.monotonic()
    worker = threading.Thread(target=call, daemon=True)
    worker.start()
    worker.join(20)
    stop.set()
    elapsed = time.monotonic() - started
    assert not worker.is_alive(), "the call outlived its deadline"
    assert isinstance(outcome[0], ChatError), outcome
    assert "within 1.5 s in all" in str(outcome[0]) and "llm_timeout_s" in str(outcome[0])
    assert 1.4 <= elapsed < 6.0, elapsed


def test_calls_after_a_stopped_one_still_answer(echo_server) -> None:
    base_url, _seen = echo_server
    client = OpenAICompatibleClient(base_url, "scripted", timeout_s=1.0)
    for _ in range(3):  # each call on its own connection: a late watchdog touches none of them
        assert client.chat([{"role": "user", "content": "hi"}]) == "echo: HI"
        time.sleep(0.4)


@pytest.mark.slow
def test_a_local_reply_past_its_deadline_is_an_error_naming_the_setting() -> None:
    local = LocalChatClient(cache_dir=os.environ["RPS_CACHE_DIR"], timeout_s=0.001)
    with pytest.raises(ChatError, match="local_lm_timeout_s"):
        local.chat([{"role": "user", "content": "Count from one to one hundred in words."}], max_tokens=200)
