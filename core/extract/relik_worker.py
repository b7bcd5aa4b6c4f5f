"""ReLiK triples through a worker process in a separate interpreter (see relik_server.py).

relik 1.0.7 pins torch 2.3.1 and transformers < 4.42, so it cannot share the studio's
environment. `RelikExtractor` starts `RPS_RELIK_PYTHON core/extract/relik_server.py
--model M` once, keeps it alive, and speaks JSON lines with it.
"""

from __future__ import annotations

import json
import queue
import subprocess
import threading
import time
import weakref
from collections import deque
from pathlib import Path
from typing import Any

from core.extract.base import ExtractionError, Extractor, vocabulary_relation
from core.extract.llm import sentence_containing
from core.types import Triple

SERVER_SCRIPT = Path(__file__).resolve().with_name("relik_server.py")
DEFAULT_BACKEND = "relik:Relik"
SETUP_HINT = "set RPS_RELIK_PYTHON to an interpreter with relik installed; see README and docs/EXTRACTION.md"
STDERR_TAIL_LINES = 20
MAX_QUEUED_LINES = 10_000  # unread worker output held at most (the pump then waits)


class RelikExtractor(Extractor):
    name = "relik"

    def __init__(
        self,
        python: str,
        model: str,
        backend: str = DEFAULT_BACKEND,
        startup_timeout_s: float = 900,
        request_timeout_s: float = 300,
    ) -> None:
        if not python:
            raise ExtractionError(f"the relik extractor needs its own interpreter: {SETUP_HINT}")
        if not Path(python).expanduser().exists():
            raise ExtractionError(f"relik interpreter {python!r} does not exist: {SETUP_HINT}")
        self.python = str(Path(python).expanduser())
        self.model = model
        self.backend = backend
        self.startup_timeout_s = startup_timeout_s
        self.request_timeout_s = request_timeout_s
        self._process: subprocess.Popen[str] | None = None
        self._lines: queue.Queue[str | None] = queue.Queue(maxsize=MAX_QUEUED_LINES)
        self._stderr_tail: deque[str] = deque(maxlen=STDERR_TAIL_LINES)
        self._lock = threading.Lock()

    # -- process lifecycle ---------------------------------------------------------------

    def _ensure_started(self) -> subprocess.Popen[str]:
        if self._process is not None and self._process.poll() is None:
            return self._process
        command = [self.python, str(SERVER_SCRIPT), "--model", self.model, "--backend", self.backend]
        try:
            process = subprocess.Popen(
                command,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
                bufsize=1,
            )
        except OSError as exc:
            raise ExtractionError(
                f"cannot start the relik worker with {self.python!r}: {exc}; {SETUP_HINT}"
            ) from exc
        self._lines = queue.Queue(maxsize=MAX_QUEUED_LINES)
        self._stderr_tail.clear()
        threading.Thread(target=_pump_lines, args=(process.stdout, self._lines), daemon=True).start()
        threading.Thread(target=_pump_tail, args=(process.stderr, self._stderr_tail), daemon=True).start()
        weakref.finalize(self, _stop, process)
        self._process = process
        ready = self._next_message(self.startup_timeout_s, "loading the model")
        if "fatal" in ready or not ready.get("ready"):
            self.close()
            raise ExtractionError(f"the relik worker could not start: {ready.get('fatal', ready)}")
        return process

    def close(self) -> None:
        """Stop the worker process (a later extract starts a new one)."""
        if self._process is not None:
            _stop(self._process)
            self._process = None

    def _kill(self) -> None:
        if self._process is not None:
            self._process.kill()
            self._process.wait(timeout=5)
            self._process = None

    def __enter__(self) -> RelikExtractor:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()

    def _next_message(self, timeout_s: float, doing: str) -> dict[str, Any]:
        """The next JSON object the worker prints, within `timeout_s` in all: other stdout lines
        are skipped but do not extend the deadline (a worker printing endless noise is stopped)."""
        deadline = time.monotonic() + timeout_s
        while True:
            try:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise queue.Empty
                line = self._lines.get(timeout=left)
            except queue.Empty:
                tail = self._stderr_text()
                self._kill()  # it did not answer: no polite shutdown to wait for
                raise ExtractionError(
                    f"the relik worker did not answer within {timeout_s:g} s while {doing} (stopped); "
                    f"its last messages: {tail}"
                ) from None
            if line is None:
                raise ExtractionError(self._death_message(doing))
            try:
                message = json.loads(line)
            except json.JSONDecodeError:
                continue
            if isinstance(message, dict):
                return message

    def _stderr_text(self) -> str:
        tail = " | ".join(line.strip() for line in self._stderr_tail if line.strip())[-800:]
        return tail or "(none)"

    def _death_message(self, doing: str) -> str:
        code = self._process.wait(timeout=5) if self._process is not None else None
        self._process = None
        return (
            f"the relik worker exited (code {code}) while {doing}; its last messages: {self._stderr_text()}"
        )

    # -- extraction ----------------------------------------------------------------------

    def extract(self, doc_id: str, text: str) -> list[Triple]:
        if not text.strip():
            return []
        with self._lock:
            process = self._ensure_started()
            assert process.stdin is not None
            try:
                process.stdin.write(json.dumps({"id": doc_id, "text": text}) + "\n")
                process.stdin.flush()
            except (BrokenPipeError, OSError):
                raise ExtractionError(self._death_message(f"receiving document {doc_id!r}")) from None
            reply = self._reply_for(doc_id)
        if "error" in reply:
            raise ExtractionError(f"relik failed on document {doc_id!r}: {reply['error']}")
        return [self._to_triple(doc_id, text, item) for item in reply.get("triplets", [])]

    def _reply_for(self, doc_id: str) -> dict[str, Any]:
        while True:
            message = self._next_message(self.request_timeout_s, f"extracting document {doc_id!r}")
            if message.get("id") == doc_id or (message.get("id") is None and "error" in message):
                return message

    def _to_triple(self, doc_id: str, text: str, item: dict[str, Any]) -> Triple:
        return Triple(
            head=str(item["subject"]).strip(),
            relation=vocabulary_relation(str(item["label"]), str(item["object"])),
            tail=str(item["object"]).strip(),
            doc_id=doc_id,
            span=_sentence_span(text, item),
            confidence=round(float(item.get("confidence") or 0.0), 4),
            backend="relik",
        )


def _sentence_span(text: str, item: dict[str, Any]) -> tuple[int, int]:
    """The sentence(s) around the triplet's character range, else the sentence naming the subject."""
    start, end = item.get("start"), item.get("end")
    if not (isinstance(start, int) and isinstance(end, int) and 0 <= start < end <= len(text)):
        return sentence_containing(text, str(item.get("subject", ""))) or (0, len(text))
    boundaries = [text.rfind(mark, 0, start) for mark in (". ", "! ", "? ", "\n")]
    sentence_start = max(boundaries) + 1 if max(boundaries) >= 0 else 0
    ends = [i for i in (text.find(mark, end) for mark in (".", "!", "?")) if i >= 0]
    line_end = text.find("\n", end)
    sentence_end = min([*ends, line_end if line_end >= 0 else len(text) - 1]) + 1
    span_text = text[sentence_start:sentence_end]
    leading = len(span_text) - len(span_text.lstrip())
    trailing = len(span_text) - len(span_text.rstrip())
    return sentence_start + leading, sentence_end - trailing


def _pump_lines(stream: Any, lines: queue.Queue[str | None]) -> None:
    """Forward the worker's stdout lines; None marks its end (the process exited)."""
    for line in stream:
        lines.put(line)
    lines.put(None)


def _pump_tail(stream: Any, tail: deque[str]) -> None:
    for line in stream:
        tail.append(line)


def _stop(process: subprocess.Popen[str]) -> None:
    if process.poll() is not None:
        return
    try:
        if process.stdin is not None:
            process.stdin.close()
        process.wait(timeout=5)
    except (OSError, subprocess.TimeoutExpired):
        process.kill()
        process.wait(timeout=5)
