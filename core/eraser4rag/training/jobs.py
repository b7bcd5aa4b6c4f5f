"""Training runs recorded in a store, in the foreground (CLI) or as background jobs (UI).

The store is anything with `start_run`, `log_points`, `finish_run` (the annotation store):
every curve point lands there as it comes, so a page reload reads the live curve back,
and a run ends as finished, cancelled or failed with its reason.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import asdict
from pathlib import Path
from typing import Any, Protocol

from core.eraser4rag.training.common import RunHooks

Train = Callable[[RunHooks], Any]  # returns an object with `.curve`, `.seconds`, `.cancelled`


class RunStore(Protocol):
    def start_run(self, kind: str, settings: dict[str, Any], examples: int = 0) -> int: ...
    def log_points(self, run_id: int, points: Any) -> None: ...
    def finish_run(self, run_id: int, status: str, message: str = "", artefact_dir: str = "") -> None: ...


def run_recorded(
    store: RunStore,
    run_id: int,
    out: Path,
    train: Train,
    cancelled: threading.Event,
    on_point: Callable[[dict[str, Any]], None] | None = None,
) -> str:
    """Run `train` as run `run_id`; returns the final status. Exceptions are recorded, then raised."""

    def point(p: dict[str, Any]) -> None:
        store.log_points(run_id, [p])
        if on_point is not None:
            on_point(p)

    try:
        result = train(RunHooks(on_point=point, cancelled=cancelled))
    except KeyboardInterrupt:
        store.finish_run(run_id, "cancelled", "stopped by the user (Ctrl-C)")
        raise
    except Exception as exc:
        store.finish_run(run_id, "failed", f"{type(exc).__name__}: {exc}")
        raise
    if result.cancelled:
        saved = getattr(result, "saved", True)
        store.finish_run(
            run_id,
            "cancelled",
            f"cancelled after {len(result.curve)} point(s); "
            + ("adapter so far saved" if saved else "nothing saved"),
            str(out) if saved else "",
        )
        return "cancelled"
    store.finish_run(run_id, "finished", f"{len(result.curve)} point(s) in {result.seconds:.0f} s", str(out))
    return "finished"


class BackgroundJobs:
    """Training runs in daemon threads, one cancel event per run id."""

    def __init__(self) -> None:
        self._cancel: dict[int, threading.Event] = {}
        self._threads: dict[int, threading.Thread] = {}

    def start(self, store: RunStore, kind: str, config: Any, examples: int, out: Path, train: Train) -> int:
        run_id = store.start_run(kind, asdict(config), examples)
        event = threading.Event()
        self._cancel[run_id] = event

        def work() -> None:
            try:
                run_recorded(store, run_id, out, train, event)
            except Exception:  # recorded as failed in the store by run_recorded
                return

        thread = threading.Thread(target=work, name=f"training-run-{run_id}", daemon=True)
        self._threads[run_id] = thread
        thread.start()
        return run_id

    def cancel(self, run_id: int) -> bool:
        event = self._cancel.get(run_id)
        if event is None:
            return False
        event.set()
        return True

    def join(self, run_id: int, timeout: float | None = None) -> None:
        thread = self._threads.get(run_id)
        if thread is not None:
            thread.join(timeout)
