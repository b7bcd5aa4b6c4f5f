"""Long UI work: an honest progress text, cancellation per browser session, and extraction
in a worker process.

Gradio's `cancels=` stops waiting for an event, but the worker thread running a
synchronous handler goes on. So a long handler also checks a per-session flag from
its progress callback (`Cancellations.check`) and stops at the next chunk, leaving the
workspace as it was.
"""

from __future__ import annotations

import multiprocessing
import os
import queue
import signal
import sys
import tempfile
import threading
import time
import traceback
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from core.extract import get_extractor

Progress = Callable[[int, int], None]


class Cancelled(Exception):
    """Raised inside a long handler when its session asked to cancel."""


@dataclass
class Cancellations:
    """One flag per session id (Gradio's `request.session_hash`)."""

    _flags: dict[str, threading.Event] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def start(self, session: str) -> threading.Event:
        """A fresh flag for the session's new job (an earlier cancel does not carry over)."""
        with self._lock:
            flag = self._flags[session] = threading.Event()
        return flag

    def cancel(self, session: str) -> bool:
        """Ask the session's running job to stop; False when none runs."""
        with self._lock:
            flag = self._flags.get(session)
        if flag is None:
            return False
        flag.set()
        return True

    def finish(self, session: str, flag: threading.Event) -> None:
        with self._lock:
            if self._flags.get(session) is flag:
                del self._flags[session]


@dataclass
class Estimate:
    """Progress text with a remaining-time estimate from the rate measured so far."""

    unit: str = "part"
    clock: Callable[[], float] = time.monotonic
    started: float = field(default=0.0)

    def __post_init__(self) -> None:
        self.started = self.clock()

    def elapsed(self) -> float:
        return self.clock() - self.started

    def describe(self, done: int, total: int) -> str:
        elapsed = self.elapsed()
        text = f"{done} of {total} {self.unit}(s) in {elapsed:.0f} s"
        if done <= 0 or total <= done:
            return text
        remaining = elapsed / done * (total - done)
        return f"{text}, about {_duration(remaining)} left"


def _duration(seconds: float) -> str:
    if seconds < 60:
        return f"{max(1, round(seconds))} s"
    return f"{seconds / 60:.1f} min"


# ------------------------------------------------------------------ extraction in a process

# Pending text above which extraction runs in a worker process: a thread would share the GIL
# with the server and every other session; below it, handing the work over costs more than it saves.
PROCESS_THRESHOLD_CHARS = 50_000
POLL_S = 0.2
IDLE_WORKERS_KEPT = 2  # warm workers (models loaded) kept for the next long extraction
WORKER_NICENESS = 10  # background work yields the CPU to interactive requests
STDERR_LINES = 8  # of a worker's stderr, quoted in an error about it


@dataclass
class _Worker:
    process: Any
    tasks: Any
    events: Any
    stderr: Path  # the worker's fd 2: its last lines go into every error about it

    def stop(self) -> None:
        """End the worker and everything it started (a relik subprocess): its process group."""
        if self.process.is_alive():
            try:
                os.killpg(self.process.pid, signal.SIGTERM)
            except (ProcessLookupError, PermissionError):  # not its own group yet
                self.process.terminate()
        self.process.join(timeout=5)
        if self.process.is_alive():
            self.process.kill()
            self.process.join(timeout=5)
        self.stderr.unlink(missing_ok=True)

    def stderr_tail(self, lines: int = STDERR_LINES) -> str:
        try:
            with self.stderr.open("rb") as handle:
                handle.seek(max(0, handle.seek(0, os.SEEK_END) - 4096))
                text = handle.read().decode("utf-8", "replace")
        except OSError:
            return ""
        return " | ".join(line.strip() for line in text.splitlines()[-lines:] if line.strip())


STDERR_PREFIX = "rps-extract-"


class WorkerPool:
    """Extraction worker processes, started on first need (never at start-up) and kept warm."""

    def __init__(self) -> None:
        self._idle: list[_Worker] = []
        self._lock = threading.Lock()

    def acquire(self) -> _Worker:
        with self._lock:
            while self._idle:
                worker = self._idle.pop()
                if worker.process.is_alive():
                    return worker
                worker.stop()
        context = multiprocessing.get_context("spawn")  # no fork of a threaded server
        tasks, events = context.Queue(), context.Queue()
        remove_orphaned_stderr_files()
        handle, name = tempfile.mkstemp(prefix=f"{STDERR_PREFIX}{os.getpid()}-", suffix=".stderr")
        os.close(handle)
        process = context.Process(target=_worker_loop, args=(tasks, events, name), daemon=True)
        process.start()
        return _Worker(process, tasks, events, Path(name))

    def release(self, worker: _Worker) -> None:
        with self._lock:
            if worker.process.is_alive() and len(self._idle) < IDLE_WORKERS_KEPT:
                self._idle.append(worker)
                return
        worker.stop()


POOL = WorkerPool()


def remove_orphaned_stderr_files(folder: Path | None = None) -> int:
    """Remove the workers' stderr files left by a server that was killed (SIGKILL runs no clean-up):
    their name holds the server's process id, and that process is gone."""
    removed = 0
    for path in Path(folder or tempfile.gettempdir()).glob(f"{STDERR_PREFIX}*.stderr"):
        owner = path.name[len(STDERR_PREFIX) :].split("-", 1)[0]
        if owner.isdigit() and not _process_exists(int(owner)):
            path.unlink(missing_ok=True)
            removed += 1
    return removed


def _process_exists(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # someone else's process: it exists
        return True
    return True


@dataclass
class ProcessExtractor:
    """An extractor (by registry name) run in a worker process: the server and other sessions
    keep their CPU and GIL, progress streams back, and cancelling ends the process at once.
    Used through `Workspace.extract`, which sees an ordinary extractor."""

    name: str
    settings: Any
    cancelled: threading.Event | None = None
    pool: WorkerPool = field(default_factory=lambda: POOL)

    def extract_many(
        self,
        items: Sequence[tuple[str, str]],
        progress: Progress | None = None,
        titles: Mapping[str, str] | None = None,
    ) -> list[Any]:
        worker = self.pool.acquire()
        finished = False
        try:
            worker.tasks.put((self.name, self.settings, list(items), dict(titles or {})))
            triples = self._follow(worker, progress)
            finished = True
            return triples
        finally:
            if finished:
                self.pool.release(worker)
            else:  # cancelled or failed: the process may be mid-task, so it goes
                worker.stop()

    def _follow(self, worker: _Worker, progress: Progress | None) -> list[Any]:
        limit = float(self.settings.extract_worker_timeout_s)
        deadline = time.monotonic() + limit
        while True:
            if self.cancelled is not None and self.cancelled.is_set():
                raise Cancelled
            if time.monotonic() > deadline:
                raise RuntimeError(
                    f"the {self.name} extraction took longer than {limit:g} s in all (setting "
                    f"extract_worker_timeout_s) and was stopped{_last_lines(worker)}"
                )
            alive = worker.process.is_alive()
            try:
                # A process that has exited may still have its last message in the pipe.
                kind, *payload = worker.events.get(timeout=POLL_S if alive else 2.0)
            except queue.Empty:
                if not alive:
                    raise RuntimeError(
                        f"the {self.name} extraction process stopped (exit code {worker.process.exitcode})"
                        f"{_last_lines(worker)}"
                    ) from None
                continue
            if kind == "progress" and progress is not None:
                progress(*payload)
            elif kind == "done":
                return payload[0]
            elif kind == "error":
                raise RuntimeError(payload[0])


def _last_lines(worker: _Worker) -> str:
    tail = worker.stderr_tail()
    return f". Last lines of its stderr: {tail}" if tail else ". It wrote nothing to stderr."


def _worker_loop(tasks: Any, events: Any, stderr: str) -> None:
    """A worker process: extract each task, streaming progress; models stay loaded between tasks.

    Its own process group, so that stopping it also ends what it started; its stderr (native
    libraries' output included) goes to a file the parent quotes when the worker fails or hangs.
    """
    os.setpgrp()
    descriptor = os.open(stderr, os.O_WRONLY | os.O_APPEND)
    os.dup2(descriptor, 2)
    os.close(descriptor)
    os.nice(WORKER_NICENESS)
    print(f"extraction worker {os.getpid()} started", file=sys.stderr, flush=True)

    def report(done: int, total: int) -> None:
        events.put(("progress", done, total))

    while True:
        name, settings, items, titles = tasks.get()
        print(f"{name} extraction of {len(items)} passage(s)", file=sys.stderr, flush=True)
        try:
            events.put(
                ("done", get_extractor(name, settings).extract_many(items, progress=report, titles=titles))
            )
        except Exception as exc:  # reported to the parent, which shows it to the user
            traceback.print_exc()
            events.put(("error", str(exc) or type(exc).__name__))
