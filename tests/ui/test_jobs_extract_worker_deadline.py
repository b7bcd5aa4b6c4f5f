"""The studio's extraction worker process has an overall deadline (a setting): past it the worker
and what it started are stopped, and the error quotes the last lines of the worker's stderr."""

from __future__ import annotations

import tempfile
import time
from pathlib import Path

import pytest

from core.eraser4rag.workspace import Workspace
from core.settings import Settings
from ui.jobs import ProcessExtractor, WorkerPool

TEXT = "Ada Brook works for Zephyr Labs. Zephyr Labs is located in Northport."


def _hanging_relik(tmp_path: Path) -> tuple[str, Path]:
    """A relik interpreter that never answers; it writes its pid so the test can see it end."""
    pid_file = tmp_path / "relik.pid"
    script = tmp_path / "python"
    script.write_text(f"#!/bin/sh\necho $$ > {pid_file}\nexec sleep 30\n", encoding="utf-8")
    script.chmod(0o755)
    return str(script), pid_file


def _running(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, IndexError):
        return False
    return state != "Z"  # a zombie has ended; only its parent's reaping is left


def test_a_hanging_extraction_is_stopped_at_the_deadline_with_its_stderr(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    relik, pid_file = _hanging_relik(tmp_path)
    temporary = tmp_path / "tmp"
    temporary.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(temporary))
    settings = Settings(
        extractor="relik", relik_python=relik, relik_startup_timeout_s=120, extract_worker_timeout_s=8
    )
    pool = WorkerPool()
    workspace = Workspace()
    workspace.add_text(TEXT, "story")
    started = time.monotonic()
    with pytest.raises(RuntimeError) as stopped:
        workspace.extract(ProcessExtractor("relik", settings, pool=pool))
    elapsed = time.monotonic() - started
    message = str(stopped.value)
    assert "longer than 8 s in all" in message and "extract_worker_timeout_s" in message
    assert "Last lines of its stderr:" in message and "relik extraction of 1 passage(s)" in message
    assert 7.5 < elapsed < 20, elapsed
    assert workspace.triples == [] and pool._idle == []
    relik_pid = int(pid_file.read_text())
    for _ in range(50):  # the worker's process group went with it: the relik child too
        if not _running(relik_pid):
            break
        time.sleep(0.1)
    assert not _running(relik_pid)
    assert list(temporary.iterdir()) == []  # the worker's stderr file went with it


def test_stderr_files_of_a_killed_server_are_removed_and_a_living_ones_kept(tmp_path: Path) -> None:
    import os
    import subprocess
    import sys

    from ui.jobs import STDERR_PREFIX, remove_orphaned_stderr_files

    gone = subprocess.Popen([sys.executable, "-c", "pass"])
    gone.wait()
    orphaned = tmp_path / f"{STDERR_PREFIX}{gone.pid}-abc.stderr"
    living = tmp_path / f"{STDERR_PREFIX}{os.getpid()}-def.stderr"
    unrelated = tmp_path / "rps-extract-notes.txt"
    for path in (orphaned, living, unrelated):
        path.write_text("x", encoding="utf-8")
    assert remove_orphaned_stderr_files(tmp_path) == 1
    assert not orphaned.exists() and living.exists() and unrelated.exists()
