"""A save is one transaction: a real child process saving a large workspace is killed (SIGKILL) at
random moments and just after its commit becomes visible to another connection; every outcome
is exactly the old state or the new one (issue 17)."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from sqlalchemy import text

from storage.db import make_engine
from storage.repository import Repository
from tests.reliability_workload import build_workspace, state_of_workspace, stored_state

REPO = Path(__file__).resolve().parents[2]
DOCS = 2000  # 5,000 triples: a save takes long enough to be cut at many points
RANDOM_KILLS = 8


def start_save(db: str, name: str, variant: int, overwrite: bool) -> subprocess.Popen[str]:
    command = [sys.executable, "-m", "tests.reliability_workload", "save", db, name, str(variant), str(DOCS)]
    if overwrite:
        command.append("--overwrite")
    child = subprocess.Popen(command, cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert child.stdout is not None
    line = child.stdout.readline().strip()
    assert line == "ready", (line, child.stderr.read() if child.poll() is not None else "")
    return child


def kill(child: subprocess.Popen[str]) -> None:
    os.kill(child.pid, signal.SIGKILL)
    child.wait()
    child.stdout.close()  # type: ignore[union-attr]
    child.stderr.close()  # type: ignore[union-attr]


def kill_when_committed(child: subprocess.Popen[str], db: str, name: str, before: int | None) -> None:
    """Kill the child the moment another connection sees its commit (the version moves on)."""
    engine = make_engine(db)
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if child.poll() is not None:
                raise AssertionError(
                    f"the save ended on its own: {child.stdout.read()} {child.stderr.read()}"
                )
            with engine.connect() as connection:
                version = connection.execute(
                    text("SELECT version FROM corpora WHERE name = :name"), {"name": name}
                ).scalar()
            if version is not None and version != before:
                kill(child)
                return
        raise AssertionError("the save never became visible")
    finally:
        engine.dispose()


def version_of(repo: Repository, name: str) -> int | None:
    return repo.workspace_version(name) if repo.name_taken(name) else None


@pytest.mark.parametrize("new_name", [False, True], ids=["existing-name", "new-name"])
def test_killed_save_leaves_the_old_or_the_new_state(store_target: str, new_name: bool) -> None:
    states = {v: state_of_workspace(build_workspace(DOCS, v)) for v in (0, 1)}
    name = "copy" if new_name else "big"
    with Repository(store_target) as repo:
        started = time.monotonic()
        build_workspace(DOCS, 0).save(repo, "big", overwrite=True)
        save_seconds = time.monotonic() - started
    rng = random.Random(17)
    outcomes: list[str] = []
    for trial in range(RANDOM_KILLS + 2):
        with Repository(store_target) as repo:
            if new_name and repo.name_taken(name):
                repo.delete_corpus(name)
            current = stored_state(repo, "big")
            before = version_of(repo, name)
        variant = 1 if new_name or current == states[0] else 0
        child = start_save(store_target, name, variant, overwrite=not new_name)
        at_commit = trial >= RANDOM_KILLS
        if at_commit:
            kill_when_committed(child, store_target, name, before)
        else:
            time.sleep(rng.uniform(0.0, 1.3 * save_seconds))
            kill(child)
        with Repository(store_target) as repo:
            after = stored_state(repo, name)
            old = None if new_name else states[1 - variant]
            assert after in (old, states[variant]), f"trial {trial}: a torn save"
            if at_commit:
                assert after == states[variant], f"trial {trial}: committed, yet not all of it is there"
            outcomes.append("new" if after == states[variant] else "old")
            if store_target.endswith(".sqlite3"):
                engine = make_engine(store_target)
                with engine.connect() as connection:
                    assert connection.exec_driver_sql("PRAGMA integrity_check").scalar() == "ok"
                engine.dispose()
    assert "new" in outcomes
