"""A studio process that keeps the database open while it opens it again (the review tab's store
after the workspace store, a CLI job beside the studio) must not lose its later commits when
another process opens and closes the same SQLite file (the lost-WAL failure of issue 17's merge)."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
from pathlib import Path

from storage.annotation_store import AnnotationStore
from storage.repository import Repository
from tests.annotation_fixtures import tiny_task

REPO = str(Path(__file__).resolve().parents[2])


def annotators_seen_by_another_process(db: Path) -> list[str]:
    """Names read by a fresh process that opens, reads and closes the file (the last closer, so
    SQLite checkpoints and removes the WAL unless a connection elsewhere still holds its lock)."""
    code = (
        "import sqlite3, sys\n"
        "with sqlite3.connect(sys.argv[1]) as db:\n"
        "    print('|'.join(n for (n,) in db.execute('SELECT name FROM annotators ORDER BY name')))\n"
    )
    out = subprocess.run([sys.executable, "-c", code, str(db)], capture_output=True, text=True, check=True)
    return [name for name in out.stdout.strip().split("|") if name]


def test_commits_after_reopening_the_file_stay_visible_to_other_processes(tmp_path: Path) -> None:
    db = tmp_path / "studio.sqlite3"
    with Repository(db), AnnotationStore(db) as store:  # connections held open, as in the studio
        store.add_tasks([tiny_task("d0", "Mara Voss lives in Harrow Vale.")])
        store.progress()
        AnnotationStore(db).close()  # the same process opens the file again
        assert annotators_seen_by_another_process(db) == []
        store.decision_pairs("ann", "bob")  # commits two annotators
        assert annotators_seen_by_another_process(db) == ["ann", "bob"]
        assert Path(f"{db}-wal").exists()  # the WAL this process writes to is the file on disk
    with sqlite3.connect(db) as raw:
        assert raw.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        assert [n for (n,) in raw.execute("SELECT name FROM annotators ORDER BY name")] == ["ann", "bob"]
