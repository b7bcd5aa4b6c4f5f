"""A real PostgreSQL server for the tests, started in a temporary directory with pytest-postgresql's
executor around Debian's `pg_ctl` (package `postgresql`; `make test` installs it).

PostgreSQL refuses to run as root; under root (CI, containers) pg_ctl runs as the `postgres`
system user through a small wrapper, in a directory that user owns.
"""

from __future__ import annotations

import glob
import os
import shutil
import socket
import stat
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from pytest_postgresql.executors.proc import PostgreSQLExecutor
from pytest_postgresql.janitor import DatabaseJanitor

SERVICE_USER = "postgres"


def find_pg_ctl() -> str:
    candidates = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"), reverse=True)
    found = candidates[0] if candidates else shutil.which("pg_ctl")
    if not found:
        raise RuntimeError(
            "pg_ctl not found: install PostgreSQL (`make test` runs apt-get install postgresql)"
        )
    return found


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _as_service_user(pg_ctl: str, folder: Path) -> str:
    """A pg_ctl that runs as the postgres user (root may not run PostgreSQL)."""
    import pwd

    user = pwd.getpwnam(SERVICE_USER)
    os.chown(folder, user.pw_uid, user.pw_gid)
    wrapper = folder.parent / "pg_ctl"
    wrapper.write_text(f'#!/bin/sh\nexec runuser -u {SERVICE_USER} -- "{pg_ctl}" "$@"\n', encoding="utf-8")
    wrapper.chmod(stat.S_IRWXU | stat.S_IRGRP | stat.S_IXGRP | stat.S_IROTH | stat.S_IXOTH)
    return str(wrapper)


@contextmanager
def postgresql_server() -> Iterator[PostgreSQLExecutor]:
    base = Path(tempfile.mkdtemp(prefix="rps-pg-"))
    folder = base / "server"
    folder.mkdir()
    base.chmod(0o755)
    pg_ctl = find_pg_ctl()
    if os.geteuid() == 0:
        pg_ctl = _as_service_user(pg_ctl, folder)
    executor = PostgreSQLExecutor(
        executable=pg_ctl,
        host="127.0.0.1",
        port=_free_port(),
        datadir=str(folder / "data"),
        unixsocketdir=str(folder),
        logfile=str(folder / "postgresql.log"),
        startparams="-w",
        dbname="rps",
        user="postgres",
        postgres_options="-c max_connections=300 -c fsync=off",
    )
    try:
        with executor:
            executor.wait_for_postgres()
            yield executor
    finally:
        shutil.rmtree(base, ignore_errors=True)


@contextmanager
def fresh_database(executor: PostgreSQLExecutor, name: str) -> Iterator[str]:
    """A new empty database on the server; yields its postgresql:// URL and drops it afterwards."""
    janitor = DatabaseJanitor(user=executor.user, host=executor.host, port=executor.port, dbname=name)
    janitor.init()
    try:
        yield f"postgresql://{executor.user}@{executor.host}:{executor.port}/{name}"
    finally:
        janitor.drop()
