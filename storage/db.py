"""Engine, sessions and schema migrations for the studio's SQLite database."""

from __future__ import annotations

import logging
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from alembic.util.exc import CommandError
from sqlalchemy import Engine, create_engine, event, inspect
from sqlalchemy.exc import DatabaseError, IntegrityError, OperationalError
from sqlalchemy.orm import Session, sessionmaker

MIGRATIONS_DIR = Path(__file__).resolve().parent / "migrations"
BUSY_TIMEOUT_S = 15.0  # a writer waits this long for another writer before "database is locked"
SQLITE_HEADER = b"SQLite format 3\x00"
log = logging.getLogger("rps.storage")
_MIGRATION_LOCK = threading.Lock()  # alembic's `context` proxy is process-global, not thread-safe


class DatabaseFileError(RuntimeError):
    """The database file cannot be used as it is; the message names the file and the remedy."""


def make_engine(path: str | Path) -> Engine:
    """A SQLite engine on `path` (its folder is created): WAL journal, busy timeout, foreign keys on.

    In WAL mode readers never block a writer and a writer never blocks readers, so a long
    listing or load in one session does not delay another session's save.
    """
    path = Path(path).expanduser()
    path.parent.mkdir(parents=True, exist_ok=True)
    engine = create_engine(f"sqlite:///{path}", connect_args={"timeout": BUSY_TIMEOUT_S})
    event.listen(engine, "connect", _configure_connection)
    return engine


def _configure_connection(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute(f"PRAGMA busy_timeout={int(BUSY_TIMEOUT_S * 1000)}")
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")  # WAL + NORMAL: durable on commit except on power loss
    cursor.close()


def session_factory(engine: Engine) -> sessionmaker[Session]:
    return sessionmaker(bind=engine, expire_on_commit=False)


@contextmanager
def transaction(sessions: sessionmaker[Session], error: type[Exception], where: object) -> Iterator[Session]:
    """One committed session; a refused or failed write becomes `error` with a message naming `where`."""
    try:
        with sessions.begin() as session:
            yield session
    except IntegrityError as exc:
        raise error(f"the database refused the change: {exc.orig}") from exc
    except OperationalError as exc:  # locked past the busy timeout, disk full, file removed
        raise error(
            f"the database {where} could not save this: {exc.orig}; nothing was changed, try again"
        ) from exc


def alembic_config() -> Config:
    """Alembic configured in code (no alembic.ini); migrations run on a connection we pass in."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS_DIR))
    return config


def upgrade_to_head(engine: Engine) -> None:
    """Apply every pending migration; does nothing when the database is already at head."""
    upgrade_to(engine, "head")


def upgrade_to(engine: Engine, revision: str) -> None:
    """Apply the migrations up to `revision` (tests build old databases with it)."""
    _migrate(engine, command.upgrade, revision)


def downgrade_to(engine: Engine, revision: str) -> None:
    """Undo the migrations after `revision` (for going back to an older release)."""
    _migrate(engine, command.downgrade, revision)


def _migrate(engine: Engine, step: Any, revision: str) -> None:
    """Run an alembic command on `engine` with foreign keys off: SQLite rebuilds a table to alter
    it, and dropping the old copy with foreign keys on would cascade-delete every row referring to it.
    """
    config = alembic_config()
    with _MIGRATION_LOCK, engine.connect() as connection:
        connection.exec_driver_sql("PRAGMA foreign_keys=OFF")  # outside a transaction: takes effect
        connection.commit()
        try:
            with connection.begin():
                config.attributes["connection"] = connection
                step(config, revision)
                problems = connection.exec_driver_sql("PRAGMA foreign_key_check").fetchall()
                if problems:
                    raise RuntimeError(f"migration left rows with broken references: {problems[:5]}")
        finally:
            connection.exec_driver_sql("PRAGMA foreign_keys=ON")
            connection.commit()


def open_database(path: str | Path) -> Engine:
    """An engine on `path` with its schema at head, or DatabaseFileError saying what is wrong.

    Checked before migrating: a file that is not SQLite, a database written by a newer release
    (an unknown revision) and tables without a migration version are each refused with a remedy.
    """
    path = Path(path).expanduser()
    _check_sqlite_header(path)
    engine = make_engine(path)
    try:
        revision = _check_revision(engine, path)
        if revision != head_revision():
            log.info("database %s: schema %s -> %s", path, revision or "(new)", head_revision())
            upgrade_to_head(engine)
    except DatabaseFileError:
        engine.dispose()
        raise
    except (DatabaseError, OperationalError, CommandError) as exc:
        engine.dispose()
        raise DatabaseFileError(
            f"database {path} could not be opened or upgraded: {_first_line(exc)}. "
            "Check that the file is readable and writable and not used by an older studio, "
            "or start with --db pointing to another file."
        ) from exc
    return engine


def _check_sqlite_header(path: Path) -> None:
    if not path.exists() or path.stat().st_size == 0:
        return
    try:
        with path.open("rb") as handle:
            header = handle.read(len(SQLITE_HEADER))
    except OSError as exc:
        message = f"database {path} cannot be read: {exc.strerror}. Check its permissions."
        raise DatabaseFileError(message) from exc
    if header != SQLITE_HEADER:
        raise DatabaseFileError(
            f"{path} is not a SQLite database (it starts with {header[:16]!r}). "
            "Start with --db pointing to a new or existing studio database, or move this file away."
        )


def _check_revision(engine: Engine, path: Path) -> str | None:
    """The database's schema revision (None for an empty file); refuses one the studio cannot use."""
    with engine.connect() as connection:
        tables = set(inspect(connection).get_table_names())
        revision = MigrationContext.configure(connection).get_current_revision()
    if revision is None:
        if tables - {"alembic_version"}:
            names = ", ".join(sorted(tables)[:6])
            raise DatabaseFileError(
                f"database {path} has tables ({names}) but no migration version, so the studio cannot "
                "tell which schema they follow. Start with --db pointing to a new file and import your "
                "work as JSON bundles, or move this file away."
            )
        return None
    known = {script.revision for script in ScriptDirectory.from_config(alembic_config()).walk_revisions()}
    if revision not in known:
        raise DatabaseFileError(
            f"database {path} was written by a newer release of the studio (schema revision {revision!r}, "
            f"this release knows up to {head_revision()!r}). Upgrade the studio, or start with --db "
            "pointing to another file."
        )
    return revision


def _first_line(exc: BaseException) -> str:
    orig = getattr(exc, "orig", None)
    return str(orig if orig is not None else exc).strip().splitlines()[0]


def head_revision() -> str | None:
    return ScriptDirectory.from_config(alembic_config()).get_current_head()


def current_revision(engine: Engine) -> str | None:
    with engine.connect() as connection:
        return MigrationContext.configure(connection).get_current_revision()
