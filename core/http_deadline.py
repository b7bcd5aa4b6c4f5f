"""An overall deadline for one HTTP call of the OpenAI-compatible chat client (httpx2, openai's
HTTP library).

httpx2's timeouts bound each connect, read and write, not the whole call: a server that trickles
its reply a byte at a time, or never finishes its headers, holds the caller forever. Here each
connection opened during a call is recorded (httpcore2's trace hook, in the calling thread) and a
watchdog shuts its socket down when the deadline passes, which ends the blocked read at once.
Connections are not kept alive, so a late watchdog can never touch a later call's connection.
"""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from typing import Any

import httpx2 as httpx


@dataclass
class _Call:
    sockets: list[socket.socket] = field(default_factory=list)
    expired: threading.Event = field(default_factory=threading.Event)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def add(self, sock: socket.socket) -> None:
        with self.lock:
            self.sockets.append(sock)
            if self.expired.is_set():  # connected after the deadline: stop it at once
                _shut(sock)

    def expire(self) -> None:
        with self.lock:
            self.expired.set()
            for sock in self.sockets:
                _shut(sock)


_current = threading.local()


def _shut(sock: socket.socket) -> None:
    with suppress(OSError):  # already closed: the call ended meanwhile
        sock.shutdown(socket.SHUT_RDWR)


def _record_connection(event: str, info: dict[str, Any]) -> None:
    call: _Call | None = getattr(_current, "call", None)
    if call is not None and event == "connection.connect_tcp.complete":
        sock = info["return_value"].get_extra_info("socket")
        if sock is not None:
            call.add(sock)


class _RecordingTransport(httpx.HTTPTransport):
    def handle_request(self, request: httpx.Request) -> httpx.Response:
        request.extensions["trace"] = _record_connection
        return super().handle_request(request)


def deadline_client(timeout_s: float) -> httpx.Client:
    """An httpx client whose calls made inside `deadline(...)` end when it passes."""
    transport = _RecordingTransport(limits=httpx.Limits(max_keepalive_connections=0))
    return httpx.Client(transport=transport, timeout=timeout_s, follow_redirects=True)


@contextmanager
def deadline(seconds: float) -> Iterator[threading.Event]:
    """Run one call of a `deadline_client` in this block; the event is set if the deadline passed
    (the call then fails with a connection error, which the caller reports as a deadline)."""
    call = _Call()
    _current.call = call
    timer = threading.Timer(seconds, call.expire)
    timer.daemon = True
    timer.start()
    try:
        yield call.expired
    finally:
        timer.cancel()
        _current.call = None
